"""Moderation: each account's role (player, moderator, operator), the bans, the append-only operator
log, and ledger kinds long enough for ``adjustment``.

Downgrading drops the roles, bans and log; an adjustment's ledger row becomes a grant (its amount
kept), so the balances still equal the grants at 0009.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


# ADD/DROP COLUMN need no copy of ``users`` on SQLite (3.35 on); a copy would reflect its expression
# index, which SQLite cannot. SQLite does not enforce a VARCHAR's length: only PostgreSQL widens ``kind``.


def upgrade() -> None:
    with op.batch_alter_table("users", recreate="never") as batch:
        batch.add_column(sa.Column("role", sa.String(10), nullable=False, server_default="player"))
    if op.get_bind().dialect.name == "postgresql":
        op.alter_column("ledger", "kind", type_=sa.String(16), existing_nullable=False)
    op.create_table(
        "bans",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("until", sa.Float, nullable=True),
        sa.Column("by", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("lifted_at", sa.Float, nullable=True),
    )
    op.create_table(
        "operator_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False, index=True),
        sa.Column("actor", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("target", sa.Integer, sa.ForeignKey("users.id"), nullable=True, index=True),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("details", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("operator_log")
    op.drop_table("bans")
    op.execute("UPDATE ledger SET kind = 'grant' WHERE kind = 'adjustment'")
    if op.get_bind().dialect.name == "postgresql":
        op.alter_column("ledger", "kind", type_=sa.String(8), existing_nullable=False)
    with op.batch_alter_table("users", recreate="never") as batch:
        batch.drop_column("role")
