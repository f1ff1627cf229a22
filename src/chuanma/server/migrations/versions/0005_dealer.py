"""The dealer's key: each hand records the public key of the VRF key that dealt it.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("hands", sa.Column("public_key", sa.String(64), nullable=True))


def downgrade() -> None:
    op.drop_column("hands", "public_key")
