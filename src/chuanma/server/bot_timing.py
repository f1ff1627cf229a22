"""The detector of bots playing for people (docs/server.md, Keeping chips honest): how long each
account took to answer its prompts, from ``decisions.asked`` (the prompt sent) to ``decisions.at``
(the answer reduced), over its own decisions only — the server's bots and 托管 are not timed.

A person's answers are slow and uneven: a second or more, some quick, some long. A script answers
at once (a median under :data:`BOT_MEDIAN`) or after a steady delay (the interquartile range under
:data:`BOT_SPREAD` of the median), and is flagged once it has answered :data:`BOT_DECISIONS` times.
"""

from __future__ import annotations

import statistics
from collections import defaultdict

from sqlalchemy import Connection, select

from chuanma.server.schema import decisions, hands
from chuanma.server.suspicions import EVIDENCE_HANDS, Flag

BOT_DECISIONS = 30
"""The fewest timed decisions an account is judged on."""
BOT_MEDIAN = 0.25
"""Seconds: a median answer quicker than this is no person's."""
BOT_SPREAD = 0.15
"""The interquartile range over the median below which the delays are a script's constant one."""


class Answers:
    """One account's answer times (seconds) and the hands they were given in."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.hands: list[str] = []

    def add(self, seconds: float, hand_id: str) -> None:
        self.times.append(max(0.0, seconds))
        if not self.hands or self.hands[-1] != hand_id:
            self.hands.append(hand_id)

    def figures(self) -> tuple[float, float]:
        """The median and the spread (interquartile range over median) of the times."""
        low, median, high = statistics.quantiles(self.times, n=4, method="inclusive")
        return median, (high - low) / median if median > 0 else 0.0


def forget_times(conn: Connection, before: float) -> int:
    """Forget when the prompts of the decisions made before ``before`` were sent (identity data,
    kept as the ``logins`` are); returns how many decisions."""
    q = decisions.update().where(decisions.c.at < before, decisions.c.asked.is_not(None)).values(asked=None)
    return int(conn.execute(q).rowcount)


def answers(conn: Connection, since: float) -> dict[int, Answers]:
    """Every account's timed answers in the hands settled since ``since`` (a leave is no answer)."""
    rows = conn.execute(
        select(decisions.c.hand_id, decisions.c.seat, decisions.c.asked, decisions.c.at, decisions.c.action,
               hands.c.seats)
        .join(hands, hands.c.id == decisions.c.hand_id)
        .where(hands.c.status == "settled", hands.c.finished_at >= since, decisions.c.by == "player",
               decisions.c.asked.is_not(None))
        .order_by(decisions.c.at))
    found: dict[int, Answers] = defaultdict(Answers)
    for hand_id, seat, asked, at, action, seats in rows:
        if "leave" not in action and seats[seat] is not None:
            found[int(seats[seat])].add(float(at) - float(asked), str(hand_id))
    return found


def bot_timing(conn: Connection, since: float) -> list[Flag]:
    """Accounts whose answers since ``since`` are timed like a script's (:data:`BOT_MEDIAN`,
    :data:`BOT_SPREAD`); the population figures are the median median and spread of everyone judged."""
    timed = {u: a for u, a in answers(conn, since).items() if len(a.times) >= BOT_DECISIONS}
    judged = {u: a.figures() for u, a in timed.items()}
    if not judged:
        return []
    median = statistics.median(m for m, _ in judged.values())
    spread = statistics.median(s for _, s in judged.values())
    found = []
    for user_id, (m, s) in sorted(judged.items()):
        why = "instant" if m < BOT_MEDIAN else "steady" if s < BOT_SPREAD else None
        if why is not None:
            found.append(Flag("bot_timing", (user_id,), {
                "why": why, "decisions": len(timed[user_id].times), "median": round(m, 3), "spread": round(s, 3),
                "population_median": round(median, 3), "population_spread": round(spread, 3),
                "hands": timed[user_id].hands[-EVIDENCE_HANDS:]}, m, median))
    return found
