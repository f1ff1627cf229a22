"""The cluster's identity: the dealer keys of the database (those that dealt its hands so far, from
the start; the last one to deal and those of unfinished hands deal on, the others retired) and the
count of the cluster's heartbeats, which Redis mirrors so that a database restored from a copy is
refused.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    keys = op.create_table(
        "dealer_keys",
        sa.Column("public_key", sa.String(64), primary_key=True),
        sa.Column("signing_key", sa.String(64), nullable=True),
        sa.Column("added", sa.Float, nullable=False),
        sa.Column("retired", sa.Float, nullable=True),
    )
    hands = sa.table("hands", sa.column("public_key", sa.String), sa.column("finished_at", sa.Float),
                     sa.column("status", sa.String))
    bind = op.get_bind()
    last = sa.func.max(hands.c.finished_at)
    used = bind.execute(sa.select(hands.c.public_key, sa.func.min(hands.c.finished_at), last)
                        .where(hands.c.public_key.is_not(None)).group_by(hands.c.public_key)).all()
    # one key deals on: the one that dealt the last finished hand, and any key an unfinished hand names
    # (it must finish it); the others are retired at their last hand (their records verify on)
    dealing = {key for (key,) in bind.execute(sa.select(hands.c.public_key).where(
        hands.c.public_key.is_not(None), hands.c.status.in_(("collecting", "playing"))).distinct())}
    if used:  # their signing keys are filled in at their servers' start
        dealing.add(max(used, key=lambda row: row[2] or 0.0)[0])
        op.bulk_insert(keys, [{"public_key": key, "signing_key": None, "added": first or time.time(),
                               "retired": None if key in dealing else ended or time.time()}
                              for key, first, ended in used])
    with op.batch_alter_table("lease", recreate="never") as batch:
        batch.add_column(sa.Column("epoch", sa.BigInteger, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("lease", recreate="never") as batch:
        batch.drop_column("epoch")
    op.drop_table("dealer_keys")
