"""Turn timers: a game's seconds per turn and its stored deadline; who played each move.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("turn_seconds", sa.Integer, nullable=True))
        batch.add_column(sa.Column("deadline", sa.Float, nullable=True))
        batch.create_index("ix_games_deadline", ["deadline"])
    with op.batch_alter_table("moves") as batch:
        batch.add_column(sa.Column("played_by", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("played_by")
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_deadline")
        batch.drop_column("deadline")
        batch.drop_column("turn_seconds")
