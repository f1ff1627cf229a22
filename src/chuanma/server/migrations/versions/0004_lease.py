"""The database's lease: one row naming the server process that may write, with its fencing token.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    lease = op.create_table(
        "lease",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("holder", sa.String(64), nullable=True),
        sa.Column("token", sa.BigInteger, nullable=False),
        sa.Column("since", sa.Float, nullable=True),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.bulk_insert(lease, [{"id": 1, "holder": None, "token": 0, "since": None, "expires": 0.0}])


def downgrade() -> None:
    op.drop_table("lease")
