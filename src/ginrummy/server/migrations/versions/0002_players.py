"""Players: a name and a token that stands for them in all their games.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("token", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("player0", sa.String(32), nullable=True))
        batch.add_column(sa.Column("player1", sa.String(32), nullable=True))
        batch.create_index("ix_games_player0", ["player0"])
        batch.create_index("ix_games_player1", ["player1"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_player1")
        batch.drop_index("ix_games_player0")
        batch.drop_column("player1")
        batch.drop_column("player0")
    op.drop_table("players")
