"""The queues across a cluster: each queued player's row names the node their connection waits on
(its rows are deleted once that node stops beating) and whether they allow bots (any node fills
the queue with bots once its first has waited long enough).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


# Both ways need no copy of the table on SQLite either (ALTER TABLE ADD/DROP COLUMN, 3.35 on); a copy
# would reflect ``users`` (the foreign key), whose expression index SQLite cannot reflect (a warning).


def upgrade() -> None:
    with op.batch_alter_table("seatings", recreate="never") as batch:
        batch.add_column(sa.Column("node", sa.String(64), nullable=True))
        batch.add_column(sa.Column("bots", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("seatings", recreate="never") as batch:
        batch.drop_column("bots")
        batch.drop_column("node")
