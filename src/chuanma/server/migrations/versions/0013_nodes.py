"""What each node of a cluster runs (its release and schema) and whether an operator asked it to
drain (``chuanma admin drain``).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("cluster_nodes", recreate="never") as batch:
        batch.add_column(sa.Column("release", sa.String(64), nullable=True))
        batch.add_column(sa.Column("schema", sa.String(32), nullable=True))
        batch.add_column(sa.Column("drain", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("cluster_nodes", recreate="never") as batch:
        for name in ("drain", "schema", "release"):
            batch.drop_column(name)
