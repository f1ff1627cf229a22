"""Keeping chips honest: the ``logins`` table (who registered, made a guest or logged in, from which
address and user agent, when: kept ``--login-days``) and each hand's escape caps (what the escapes
of its new accounts may pay: ``hands.escape_caps``).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "logins",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("agent", sa.String(256), nullable=False),
        sa.Column("at", sa.Float, nullable=False, index=True),
    )
    op.create_index("ix_logins_address", "logins", ["address", "at"])
    with op.batch_alter_table("hands", recreate="never") as batch:
        batch.add_column(sa.Column("escape_caps", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("hands", recreate="never") as batch:
        batch.drop_column("escape_caps")
    op.drop_index("ix_logins_address", table_name="logins")
    op.drop_table("logins")
