"""The cluster: one lease per live table (its owner node, fencing token and expiry) and the nodes.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(40), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("holder", sa.String(64), nullable=False),
        sa.Column("token", sa.BigInteger, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_table_leases_holder", "table_leases", ["holder"])
    op.create_table(
        "cluster_nodes",
        sa.Column("holder", sa.String(64), primary_key=True),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("cluster_nodes")
    op.drop_index("ix_table_leases_holder", "table_leases")
    op.drop_table("table_leases")
