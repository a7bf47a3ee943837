"""The first schema: games, deals, moves.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("first_dealer", sa.Integer, nullable=False),
        sa.Column("ai_level", sa.String(16), nullable=True),
        sa.Column("ai_seat", sa.Integer, nullable=True),
        sa.Column("token0", sa.String(64), nullable=True),
        sa.Column("token1", sa.String(64), nullable=True),
        sa.Column("invite", sa.String(64), nullable=True),
        sa.Column("name0", sa.String(64), nullable=True),
        sa.Column("name1", sa.String(64), nullable=True),
        sa.Column("finished", sa.Boolean, nullable=False),
    )
    op.create_table(
        "deals",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True),
        sa.Column("seed", sa.String(128), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
    )
    op.create_table(
        "moves",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("moves")
    op.drop_table("deals")
    op.drop_table("games")
