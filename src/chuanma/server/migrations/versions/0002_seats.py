"""Seatings (one place per player), private tables' creators, void hands' reasons, server keys.

Existing open tables get their players' seatings, oldest table first; a later open table holding
a player who already has a place (a double seating made before this revision) is closed and its
unfinished hand voided, so every player keeps one seat.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

DOUBLE_SEATED = "a player of this table was seated at another table too"


def _seats(value: Any) -> list[int | None]:
    seats: list[int | None] = json.loads(value) if isinstance(value, str) else value
    return seats


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("creator", sa.Integer, nullable=True))
        batch.create_index("ix_tables_creator", ["creator"])
    with op.batch_alter_table("hands") as batch:
        batch.add_column(sa.Column("reason", sa.Text, nullable=True))
    seatings = op.create_table(
        "seatings",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("table_id", sa.String(40), sa.ForeignKey("tables.id"), nullable=True, index=True),
        sa.Column("room", sa.String(32), nullable=True),
        sa.Column("since", sa.Float, nullable=False),
    )
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(64), nullable=False),
    )
    conn = op.get_bind()
    tables = sa.table("tables", sa.column("id"), sa.column("seats"), sa.column("status"), sa.column("created_at"))
    hands = sa.table("hands", sa.column("table_id"), sa.column("status"), sa.column("reason"))
    held: set[int] = set()
    rows: list[dict[str, Any]] = []
    for table in conn.execute(sa.select(tables).where(tables.c.status == "open")
                              .order_by(tables.c.created_at, tables.c.id)):
        users = [int(u) for u in _seats(table.seats) if u is not None]
        if held & set(users):
            conn.execute(sa.update(tables).where(tables.c.id == table.id).values(status="closed"))
            conn.execute(sa.update(hands).where(hands.c.table_id == table.id,
                                                hands.c.status.in_(("collecting", "playing")))
                         .values(status="void", reason=DOUBLE_SEATED))
            continue
        held.update(users)
        rows.extend({"user_id": u, "table_id": table.id, "room": None, "since": table.created_at} for u in users)
    if rows:
        op.bulk_insert(seatings, rows)


def downgrade() -> None:
    # plain DROP COLUMN (SQLite 3.35+), not batch mode: SQLite's batch copies and drops a table,
    # which foreign keys on ``hands`` (from ``decisions``) and ``tables`` refuse
    op.drop_table("server_keys")
    op.drop_table("seatings")
    op.drop_column("hands", "reason")
    op.drop_index("ix_tables_creator", "tables")
    op.drop_column("tables", "creator")
