"""What the detectors share (:mod:`chuanma.server.detectors`): a :class:`Flag`, the server's bots
(left out of every figure) and the chips that moved between two accounts."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, select

from chuanma.server.schema import ledger, users
from chuanma.server.store import HAND_KINDS

EVIDENCE_HANDS = 20
"""The most hand ids a flag keeps as evidence."""


@dataclass(frozen=True, slots=True)
class Flag:
    """A suspicion: its kind, the accounts it is about, its evidence, the figure that raised it and
    the same figure over everyone scanned."""

    kind: str
    accounts: tuple[int, ...]
    evidence: dict[str, Any]
    figure: float
    population: float


def bot_ids(conn: Connection) -> set[int]:
    """The server's bot accounts."""
    return set(conn.execute(select(users.c.id).where(users.c.kind == "bot")).scalars())


@dataclass(slots=True)
class ChipFlows:
    """Chips lost since a moment, and where they went: a loss is shared among a hand's winners by
    what each won; the server's bots neither send nor receive."""

    lost: Counter[int] = field(default_factory=Counter)
    sent: dict[int, dict[int, float]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(float)))
    together: dict[tuple[int, int], list[str]] = field(default_factory=lambda: defaultdict(list))
    """The hands in which the first lost chips to the second."""


def chip_flows(conn: Connection, since: float, bots: set[int]) -> ChipFlows:
    """The :class:`ChipFlows` of the hands and escapes in the ledger since ``since``."""
    by_hand: dict[str, list[tuple[int, int]]] = defaultdict(list)
    rows = conn.execute(select(ledger.c.hand_id, ledger.c.user_id, ledger.c.amount)
                        .where(ledger.c.kind.in_(HAND_KINDS), ledger.c.at >= since).order_by(ledger.c.id))
    for hand_id, user_id, amount in rows:
        by_hand[str(hand_id)].append((int(user_id), int(amount)))
    flows = ChipFlows()
    for hand_id, moved in by_hand.items():
        won = sum(a for _, a in moved if a > 0)
        for loser, amount in moved:
            if amount >= 0 or loser in bots or not won:
                continue
            flows.lost[loser] -= amount
            for winner, gain in moved:
                if gain > 0 and winner not in bots:
                    flows.sent[loser][winner] += -amount * gain / won
                    flows.together[loser, winner].append(hand_id)
    return flows
