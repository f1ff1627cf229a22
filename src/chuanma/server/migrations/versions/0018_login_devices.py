"""The device of each login: the id of the browser's device cookie (docs/server.md, Keeping chips
honest), for the grants and limits per device and the shared-device detector.

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("logins", recreate="never") as batch:
        batch.add_column(sa.Column("device", sa.String(32), nullable=True))
    op.create_index("ix_logins_device", "logins", ["device", "at"])


def downgrade() -> None:
    op.drop_index("ix_logins_device", table_name="logins")
    with op.batch_alter_table("logins", recreate="never") as batch:
        batch.drop_column("device")
