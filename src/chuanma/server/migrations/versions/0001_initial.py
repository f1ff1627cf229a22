"""Accounts, tokens, the chips ledger, tables, hands and their decisions.

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(32), nullable=False, unique=True),
        sa.Column("password_hash", sa.Text, nullable=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("balance", sa.BigInteger, nullable=False),
        sa.Column("last_grant", sa.Float, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "tokens",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "ledger",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("hand_id", sa.String(40), nullable=True, index=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("room", sa.String(32), nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("invite", sa.String(16), nullable=True, unique=True),
        sa.Column("hands_limit", sa.Integer, nullable=True),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "hands",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("table_id", sa.String(40), sa.ForeignKey("tables.id"), nullable=False, index=True),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("server_seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("session", sa.JSON, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("client_seeds", sa.JSON, nullable=True),
        sa.Column("balances", sa.JSON, nullable=True),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("record", sa.JSON, nullable=True),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_table(
        "decisions",
        sa.Column("hand_id", sa.String(40), sa.ForeignKey("hands.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.JSON, nullable=False),
        sa.Column("by", sa.String(8), nullable=False),
        sa.Column("events", sa.JSON, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for name in ("decisions", "hands", "tables", "ledger", "tokens", "users"):
        op.drop_table(name)
