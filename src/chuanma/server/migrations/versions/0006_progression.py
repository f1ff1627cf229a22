"""Progression: one row per player of every settled hand (its figures and the ratings after it)
and each rated subject's current skill rating, per rule family and overall; built here for the
hands already settled, from their records and the ledger (their bots rated as ``greedy``, which filled
every seat before tables had a bot level). Each table keeps the level of its bots (``bot_level``).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from chuanma.server.progress import rebuild

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("bot_level", sa.String(8), nullable=True))
    op.create_table(
        "hand_players",
        sa.Column("hand_id", sa.String(40), sa.ForeignKey("hands.id"), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("subject", sa.String(40), nullable=False),
        sa.Column("family", sa.String(8), nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
        sa.Column("delta", sa.BigInteger, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("self_drawn", sa.Integer, nullable=False),
        sa.Column("dealt_in", sa.Integer, nullable=False),
        sa.Column("fan", sa.Integer, nullable=False),
        sa.Column("best_fan", sa.Integer, nullable=False),
        sa.Column("jipin", sa.Integer, nullable=False),
        sa.Column("flower_pig", sa.Boolean, nullable=False),
        sa.Column("chadajiao", sa.Boolean, nullable=False),
        sa.Column("fans", sa.JSON, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("mu_all", sa.Float, nullable=False),
        sa.Column("sigma_all", sa.Float, nullable=False),
    )
    op.create_index("ix_hand_players_user", "hand_players", ["user_id", "finished_at"])
    op.create_index("ix_hand_players_family", "hand_players", ["family", "finished_at"])
    op.create_table(
        "ratings",
        sa.Column("subject", sa.String(40), primary_key=True),
        sa.Column("family", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
    )
    rebuild(op.get_bind(), {})


def downgrade() -> None:
    op.drop_table("ratings")
    op.drop_index("ix_hand_players_family", "hand_players")
    op.drop_index("ix_hand_players_user", "hand_players")
    op.drop_table("hand_players")
    op.drop_column("tables", "bot_level")
