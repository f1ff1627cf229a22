"""Progression: one row per player of every settled hand (its figures and the ratings after it)
and each rated subject's current skill rating, per rule family and overall; built here for the
hands already settled, from their records and the ledger (their bots rated as ``greedy``, which filled
every seat before tables had a bot level, each bot account apart). Each table keeps the level of its
bots (``bot_level``).

The figures are built by this migration's own copy of the rebuild (:func:`_rebuild`, over the
tables as this revision makes them): a later column or rule in the application cannot change what
upgrading through it does. It uses the rating model (``chuanma.server.ratings``: pure functions
of the results, no schema).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from alembic import op

from chuanma.server.ratings import OVERALL, Rating, family_of, places, rate

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

PRIVATE_ROOM = "private"
EARLIER_BOT = "greedy"
"""The bot of every table before this revision (they had no bot level)."""
HANDS = sa.table("hands", sa.column("id", sa.String), sa.column("table_id", sa.String), sa.column("seats", sa.JSON),
                 sa.column("status", sa.String), sa.column("record", sa.JSON), sa.column("finished_at", sa.Float))
TABLES = sa.table("tables", sa.column("id", sa.String), sa.column("room", sa.String))
USERS = sa.table("users", sa.column("id", sa.Integer), sa.column("kind", sa.String))
LEDGER = sa.table("ledger", sa.column("id", sa.Integer), sa.column("user_id", sa.Integer),
                  sa.column("amount", sa.BigInteger), sa.column("hand_id", sa.String))


def _seat_rows(hand: Any, private: bool, subjects: list[str], seated: list[tuple[int, int]], deltas: list[int],
               family: str, after: Mapping[str, Rating], overall: Mapping[str, Rating]) -> list[dict[str, Any]]:
    """The ``hand_players`` rows of one hand (its ratings after it given)."""
    wins = hand.record["result"]["winners"]
    paid = {(p["payer"], p["reason"]) for p in hand.record["result"]["payments"]}
    rows = []
    for (seat, user_id), subject, delta, place in zip(seated, subjects, deltas, places(deltas), strict=True):
        mine = [w for w in wins if w["seat"] == seat]
        rows.append({
            "hand_id": hand.id, "user_id": user_id, "seat": seat, "subject": subject, "family": family,
            "private": private, "finished_at": hand.finished_at, "delta": delta, "place": place,
            "wins": len(mine), "self_drawn": sum(1 for w in mine if w["self_drawn"]),
            "dealt_in": sum(1 for w in wins if w["from"] == seat),
            "fan": sum(int(w["total"]) for w in mine), "best_fan": max((int(w["total"]) for w in mine), default=0),
            "jipin": sum(1 for w in mine if w["jipin"]),
            "flower_pig": (seat, "flower_pig") in paid, "chadajiao": (seat, "chadajiao") in paid,
            "fans": [f["id"] for w in mine for f in w["fans"]],
            "mu": after[subject].mu, "sigma": after[subject].sigma,
            "mu_all": overall[subject].mu, "sigma_all": overall[subject].sigma})
    return rows


def _rebuild(conn: sa.Connection, hand_players: sa.Table, ratings: sa.Table) -> None:
    """Every settled hand's ``hand_players`` rows and the ratings after them, hand by hand in the
    order the ledger paid them (as ``progress.record_hand`` did at this revision)."""
    kinds = {int(u): str(k) for u, k in conn.execute(sa.select(USERS.c.id, USERS.c.kind))}
    paid: dict[str, dict[int, int]] = {}
    for hand_id, user_id, amount in conn.execute(sa.select(LEDGER.c.hand_id, LEDGER.c.user_id, LEDGER.c.amount)
                                                 .where(LEDGER.c.hand_id.is_not(None)).order_by(LEDGER.c.id)):
        paid.setdefault(hand_id, {})[int(user_id)] = int(amount)
    settled = {h.id: h for h in conn.execute(
        sa.select(HANDS.c.id, HANDS.c.seats, HANDS.c.record, HANDS.c.finished_at, TABLES.c.room)
        .join(TABLES, TABLES.c.id == HANDS.c.table_id).where(HANDS.c.status == "settled"))}
    current: dict[tuple[str, str], Rating] = {}
    played: dict[tuple[str, str], int] = {}
    rows: list[dict[str, Any]] = []
    for hand in (settled[h] for h in paid if h in settled):
        seated = [(seat, int(u)) for seat, u in enumerate(hand.seats) if u is not None]
        if not seated:
            continue
        deltas = [paid[hand.id].get(u, 0) for _, u in seated]
        subjects = [f"bot:{EARLIER_BOT}:{u}" if kinds[u] == "bot" else f"user:{u}" for _, u in seated]
        family = family_of(hand.record["rules"])
        moved = {}
        for fam in (family, OVERALL):
            moved[fam] = rate(subjects, deltas, {s: current[(s, fam)] for s in subjects if (s, fam) in current})
            for s, r in moved[fam].items():
                current[(s, fam)] = r
                played[(s, fam)] = played.get((s, fam), 0) + 1
        rows.extend(_seat_rows(hand, hand.room == PRIVATE_ROOM, subjects, seated, deltas, family,
                               moved[family], moved[OVERALL]))
    if rows:
        conn.execute(hand_players.insert(), rows)
    if current:
        conn.execute(ratings.insert(), [{"subject": s, "family": f, "mu": r.mu, "sigma": r.sigma,
                                         "hands": played[(s, f)]} for (s, f), r in current.items()])


def upgrade() -> None:
    op.add_column("tables", sa.Column("bot_level", sa.String(8), nullable=True))
    hand_players = op.create_table(
        "hand_players",
        sa.Column("hand_id", sa.String(40), sa.ForeignKey("hands.id"), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("subject", sa.String(40), nullable=False),
        sa.Column("family", sa.String(8), nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
        sa.Column("delta", sa.BigInteger, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("self_drawn", sa.Integer, nullable=False),
        sa.Column("dealt_in", sa.Integer, nullable=False),
        sa.Column("fan", sa.Integer, nullable=False),
        sa.Column("best_fan", sa.Integer, nullable=False),
        sa.Column("jipin", sa.Integer, nullable=False),
        sa.Column("flower_pig", sa.Boolean, nullable=False),
        sa.Column("chadajiao", sa.Boolean, nullable=False),
        sa.Column("fans", sa.JSON, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("mu_all", sa.Float, nullable=False),
        sa.Column("sigma_all", sa.Float, nullable=False),
    )
    op.create_index("ix_hand_players_user", "hand_players", ["user_id", "finished_at"])
    op.create_index("ix_hand_players_family", "hand_players", ["family", "finished_at"])
    ratings = op.create_table(
        "ratings",
        sa.Column("subject", sa.String(40), primary_key=True),
        sa.Column("family", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
    )
    _rebuild(op.get_bind(), hand_players, ratings)


def downgrade() -> None:
    op.drop_table("ratings")
    op.drop_index("ix_hand_players_family", "hand_players")
    op.drop_index("ix_hand_players_user", "hand_players")
    op.drop_table("hand_players")
    op.drop_column("tables", "bot_level")
