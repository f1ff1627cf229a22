"""The detector of soft play inside a pair (docs/server.md, Keeping chips honest): two accounts
dealt into the same hands, one feeding the other. Each settled hand they shared is replayed from
its record, and for each of the two, A and B:

- **deal-ins**: of A's deal-ins (点炮), those to B, against B's share of the wins on the other
  seats' discards in those hands (smoothed toward a third: :data:`PRIOR_WINS`); flagged when at
  least :data:`FEED_DEALINS` went to B and so many had a chance under :data:`FEED_ODDS` (binomial);
- **wins passed**: B passing a win (胡 legal) on A's discard or added kong, its own decision (not
  托管's), flagged from :data:`PASSED_WINS`, and more often than on the other seats' discards.

A pair is judged from :data:`SOFT_HANDS` hands together; the server's bots are never one of it.
The chips each sent the other in those hands (shared as for chip dumping) are in the evidence.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations, permutations
from typing import Any

from sqlalchemy import Connection, select

from chuanma.engine import Game, Hu, hand_outcome, replay_steps
from chuanma.server.schema import decisions, hands
from chuanma.server.suspicions import EVIDENCE_HANDS, Flag, bot_ids, chip_flows

SOFT_HANDS = 3
"""The fewest hands a pair is judged on."""
PRIOR_WINS = 2
"""The wins a partner is taken to have won beyond those seen, of three times as many (a third of
them: one winner of three), so a few hands' luck is not taken for the share a player wins."""
FEED_DEALINS = 5
"""The fewest deal-ins from one to the other that may be flagged."""
FEED_ODDS = 1e-3
"""The chance (a binomial tail) below which the deal-ins to the partner are flagged."""
PASSED_WINS = 2
"""The fewest wins passed on the partner's discards that are flagged."""


@dataclass(slots=True)
class Toward:
    """What one account (A) did toward another (B) in their hands together."""

    dealins: int = 0
    """A's deal-ins."""
    fed: int = 0
    """A's deal-ins to B."""
    b_wins: int = 0
    """B's wins on the discards of seats other than A."""
    other_wins: int = 0
    """Everyone's (but A's) wins on the discards of seats other than A."""
    chances: int = 0
    """Wins B could take on A's discards."""
    passed: int = 0
    """Of those, passed by B itself."""
    chances_others: int = 0
    passed_others: int = 0
    """The same on the other seats' discards."""
    hands: list[str] = field(default_factory=list)
    """The hands where A fed B or B passed a win of A's."""

    def count(self, hand_id: str, a: int, b: int, chances: list[tuple[int, int, bool]],
              wins: list[tuple[int, int]]) -> None:
        """Add one hand where seat ``a`` is A and seat ``b`` is B (:func:`replayed`'s ``chances`` and ``wins``)."""
        self.dealins += sum(1 for _, f in wins if f == a)
        self.fed += sum(1 for w, f in wins if f == a and w == b)
        self.b_wins += sum(1 for w, f in wins if f != a and w == b)
        self.other_wins += sum(1 for w, f in wins if f != a and w != a)
        mine = [(source, passed) for seat, source, passed in chances if seat == b]
        self.chances += sum(1 for source, _ in mine if source == a)
        self.passed += sum(1 for source, passed in mine if source == a and passed)
        self.chances_others += sum(1 for source, _ in mine if source != a)
        self.passed_others += sum(1 for source, passed in mine if source != a and passed)
        if any(f == a and w == b for w, f in wins) or any(source == a and passed for source, passed in mine):
            self.hands.append(hand_id)

    def share(self) -> float:
        """B's share of the wins on other seats' discards, smoothed toward a third (as if B had won
        :data:`PRIOR_WINS` of three times as many more): A's deal-ins' chance to go to B."""
        return (self.b_wins + PRIOR_WINS) / (self.other_wins + 3 * PRIOR_WINS)

    def odds(self) -> float:
        """The chance of at least :attr:`fed` of :attr:`dealins` going to B at :meth:`share`."""
        p, n = self.share(), self.dealins
        return sum(math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(self.fed, n + 1))

    def flagged(self) -> bool:
        fed = self.fed >= FEED_DEALINS and self.odds() < FEED_ODDS
        passed = (self.passed >= PASSED_WINS
                  and self.passed * max(self.chances_others, 1) > self.passed_others * self.chances)
        return fed or passed


def replayed(record: dict[str, Any], automatic: set[int]) -> tuple[list[tuple[int, int, bool]], list[tuple[int, int]]]:
    """A settled hand's record replayed: each chance to win on a discard or an added kong (the seat,
    the discarder, whether it passed; the passes of ``automatic`` decisions, 托管's, are left out),
    and each win on one (the winner, the discarder)."""
    moves = record.get("decisions", [])
    chances = []
    game: Game | None = None
    for i, game in enumerate(replay_steps(record)):
        if i >= len(moves) or i in automatic or game.phase not in ("claim", "rob"):
            continue
        seat = int(moves[i]["seat"])
        if Hu() in game.legal_actions(seat):
            source = next(e.seat for e in reversed(game.events) if e.type in ("discard", "kong"))
            assert source is not None
            chances.append((seat, source, "pass" in moves[i]))
    assert game is not None
    wins = [(s, w.from_seat) for s, res in enumerate(hand_outcome(game.events).seats) for w in res.wins
            if w.from_seat is not None]
    return chances, wins


READ_AT_ONCE = 200
"""The records read from the database in one statement."""


def replays(conn: Connection, hand_ids: list[str]) -> Iterator[tuple[str, dict[str, Any], set[int]]]:
    """Each hand's record and the indexes of its decisions 托管 made, :data:`READ_AT_ONCE` hands at a time."""
    for start in range(0, len(hand_ids), READ_AT_ONCE):
        chunk = hand_ids[start:start + READ_AT_ONCE]
        automatic: dict[str, set[int]] = defaultdict(set)
        for hand_id, idx in conn.execute(select(decisions.c.hand_id, decisions.c.idx)
                                         .where(decisions.c.hand_id.in_(chunk), decisions.c.by == "auto")):
            automatic[str(hand_id)].add(int(idx))
        for hand_id, record in conn.execute(select(hands.c.id, hands.c.record).where(hands.c.id.in_(chunk))):
            if record:
                yield str(hand_id), record, automatic[str(hand_id)]


def soft_play(conn: Connection, since: float) -> list[Flag]:
    """Pairs of accounts, in the hands settled since ``since``, one feeding the other."""
    bots = bot_ids(conn)
    seated = {str(hand_id): [-1 if u is None or int(u) in bots else int(u) for u in seats]  # -1: no person
              for hand_id, seats in conn.execute(select(hands.c.id, hands.c.seats).where(
                  hands.c.status == "settled", hands.c.finished_at >= since))}
    met: Counter[tuple[int, int]] = Counter()
    for users in seated.values():
        met.update(combinations(sorted({u for u in users if u >= 0}), 2))
    pairs = {pair for pair, n in met.items() if n >= SOFT_HANDS}
    judged = {hand_id: [(a, b) for a, b in permutations(range(4), 2) if min(users[a], users[b]) >= 0
                        and (min(users[a], users[b]), max(users[a], users[b])) in pairs]
              for hand_id, users in seated.items()}
    toward: dict[tuple[int, int], Toward] = defaultdict(Toward)
    for hand_id, record, automatic in replays(conn, sorted(h for h, seats in judged.items() if seats)):
        try:
            chances, wins = replayed(record, automatic)
        except ValueError:  # a record that does not replay (its hand is checked elsewhere)
            continue
        users = seated[hand_id]
        for a, b in judged[hand_id]:
            toward[users[a], users[b]].count(hand_id, a, b, chances, wins)
    shares = [t.fed / t.dealins for t in toward.values() if t.dealins]
    population = sum(shares) / len(shares) if shares else 0.0
    flagged = [(x, y) for x, y in sorted(pairs) if toward[x, y].flagged() or toward[y, x].flagged()]
    flows = chip_flows(conn, since, bots) if flagged else None
    found = []
    for x, y in flagged:
        assert flows is not None
        one, other = toward[x, y], toward[y, x]
        evidence: dict[str, Any] = {"hands_together": met[x, y], "chips": {
            f"{x}>{y}": round(flows.sent[x][y]), f"{y}>{x}": round(flows.sent[y][x])}}
        for a, b, t in ((x, y, one), (y, x, other)):
            evidence[f"{a}>{b}"] = {"dealins": t.dealins, "fed": t.fed, "expected_share": round(t.share(), 3),
                                   "odds": float(f"{t.odds():.3g}"), "win_chances": t.chances, "passed": t.passed,
                                   "win_chances_others": t.chances_others, "passed_others": t.passed_others,
                                   "flagged": t.flagged()}
        evidence["hands"] = sorted(set(one.hands + other.hands))[:EVIDENCE_HANDS]
        figure = max((t.fed / t.dealins for t in (one, other) if t.dealins), default=0.0)
        found.append(Flag("soft_play", (x, y), evidence, figure, population))
    return found
