"""When each person's decision was asked for: the prompt's time beside the answer's (``at``), for
the detector of bots playing for people.

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("decisions", recreate="never") as batch:
        batch.add_column(sa.Column("asked", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("decisions", recreate="never") as batch:
        batch.drop_column("asked")
