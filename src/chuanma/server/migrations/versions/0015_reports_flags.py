"""Players' reports (举报) and the detectors' flags.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("player", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("hand_id", sa.String(40), nullable=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("status", sa.String(10), nullable=False, index=True),
        sa.Column("handled_by", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("handled_at", sa.Float, nullable=True),
        sa.Column("note", sa.Text, nullable=True),
    )
    op.create_table(
        "flags",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("accounts", sa.JSON, nullable=False),
        sa.Column("evidence", sa.JSON, nullable=False),
        sa.Column("figure", sa.Float, nullable=False),
        sa.Column("population", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False, index=True),
    )
    op.create_table(
        "flagged",
        sa.Column("flag_id", sa.Integer, sa.ForeignKey("flags.id"), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True, index=True),
    )


def downgrade() -> None:
    op.drop_table("flagged")
    op.drop_table("flags")
    op.drop_table("reports")
