"""``greedy``: fast hand building, no defence.

- 换三张: give three tiles of the suit that is cheapest to clear (the one it would void), its
  loosest tiles first, keeping close sequences and pairs (RULES seed 000 §七).
- 定缺: void the suit that is cheapest to clear: fewest tiles, counting pairs and close
  neighbours as worth keeping.
- Discards: minimise void-aware shanten, then maximise the unseen copies of tiles that would
  lower it (useful tiles), then drop the loosest tile (an honour, with no neighbours, is looser
  than a suited tile of the same copies).
- Always wins when it can; kongs when that does not raise shanten; of the pong and the chows
  (大众麻将) on offer, takes the one whose best discard leaves the lowest shanten, when that is
  no higher than now (a pong before a chow at equal shanten).
"""

from __future__ import annotations

from collections.abc import Sequence

from chuanma.analysis import shanten
from chuanma.analysis.incremental import HandEval
from chuanma.bots.base import SeededBot
from chuanma.engine import Action, ChooseVoid, Chow, Discard, Exchange, Hu, Kong, Pass, Pong, SeatView
from chuanma.melds import Meld
from chuanma.tiles import NUM_SUITED, SUITS, Tile

HONOR_PENALTY = 0.5
"""What an honour's lack of neighbours costs against a suited tile of as many copies: more than
a terminal's edge, since an honour can only pair or pong."""


def tile_value(counts: Sequence[int], t: Tile) -> float:
    """How much a tile holds the hand together: copies, neighbours (close sequences), edges."""
    c = counts[t]
    v = 1.0 + 1.5 * (c - 1)
    if t >= NUM_SUITED:
        return v - HONOR_PENALTY
    base = t - t % 9
    r = t % 9
    for d, w in ((1, 1.0), (2, 0.5)):
        if r - d >= 0 and counts[base + r - d]:
            v += w
        if r + d <= 8 and counts[base + r + d]:
            v += w
    if r in (0, 8):
        v -= 0.3
    elif r in (1, 7):
        v -= 0.1
    return v


def suit_keep_value(counts: Sequence[int], suit: int) -> float:
    """What giving up a suit would cost: the sum of its tiles' values."""
    lo = suit * 9
    return sum(tile_value(counts, t) * counts[t] for t in range(lo, lo + 9) if counts[t])


def cheapest_suit(counts: Sequence[int], need: int = 0) -> int:
    """The suit (0-2) cheapest to clear, among suits holding at least ``need`` tiles."""
    best, best_v = -1, 1e9
    for s in range(3):
        n = sum(counts[s * 9 : s * 9 + 9])
        if n < need:
            continue
        v = suit_keep_value(counts, s)
        if v < best_v:
            best, best_v = s, v
    return best


def weakest_three(counts: Sequence[int], suit: int) -> tuple[Tile, Tile, Tile]:
    """The three loosest tiles of ``suit`` (the hand holds at least three)."""
    work = list(counts)
    out: list[Tile] = []
    for _ in range(3):
        cands = [t for t in range(suit * 9, suit * 9 + 9) if work[t]]
        t = min(cands, key=lambda x: (tile_value(work, x), x))
        out.append(t)
        work[t] -= 1
    a, b, c = sorted(out)
    return (a, b, c)


def effective_void(counts: Sequence[int], void: str | None) -> str | None:
    """``void`` if the hand still holds a tile of it, else ``None`` (same shanten, faster)."""
    if void is None:
        return None
    i = SUITS.index(void) * 9
    return void if any(counts[i : i + 9]) else None


def best_shanten_after_discard(counts: list[int], void: str | None) -> int:
    """The lowest shanten reachable by one discard from a 3n+2 hand."""
    ev = HandEval(counts, void)
    return min((ev.without(t) for t in range(len(counts)) if counts[t]), default=99)


def claim_uses(action: Action, t: Tile) -> tuple[Tile, ...] | None:
    """The hand's tiles that claiming ``t`` by ``action`` takes: two copies for a pong, the other
    two tiles of the run for a chow; ``None`` for any other action."""
    if isinstance(action, Pong):
        return (t, t)
    if isinstance(action, Chow):
        return tuple(u for u in Meld("chow", action.tile).tiles if u != t)
    return None


class GreedyBot(SeededBot):
    """Speed first: lowest shanten, most useful tiles; wins at once; no defence."""

    name = "greedy"

    def choose(self, view: SeatView | None, legal: Sequence[Action]) -> Action:
        assert view is not None, "greedy reads its view"
        first = legal[0]
        can_pass = False
        for a in legal:  # by type: cheaper than comparing with new Hu() and Pass() values
            kind = type(a)
            if kind is Hu:
                return a
            if kind is Pass:
                can_pass = True
        if isinstance(first, Exchange):
            return self.exchange(view, legal)
        if isinstance(first, ChooseVoid):
            return ChooseVoid(SUITS[cheapest_suit(view.hand)])
        if can_pass:
            return self.claim(view, legal)
        return self.turn(view, legal)

    # ------------------------------------------------------------------ decisions

    def exchange(self, view: SeatView, legal: Sequence[Action]) -> Action:
        counts = view.hand
        tiles = weakest_three(counts, cheapest_suit(counts, need=3))
        for a in legal:  # the listed action itself: the simulator finds it by identity
            if type(a) is Exchange and a.tiles == tiles:
                return a
        return legal[0]

    def claim(self, view: SeatView, legal: Sequence[Action]) -> Action:
        hand = list(view.hand)
        void = view.void
        t = view.claim.tile if view.claim is not None else None
        if t is None:
            return Pass()
        # the listed actions themselves (the simulator finds them by identity)
        kong = next((a for a in legal if type(a) is Kong and a.tile == t), None)
        now = shanten(bytes(hand), void)
        if kong is not None:
            hand[t] -= 3
            after = shanten(bytes(hand), void)
            hand[t] += 3
            if after <= now:
                return kong
        best: tuple[int, Action] | None = None
        melds = [a for a in legal if type(a) is Pong] + [a for a in legal if type(a) is Chow]
        for a in melds:  # the pong first, then the chows in the engine's order
            uses = claim_uses(a, t)
            assert uses is not None
            for u in uses:
                hand[u] -= 1
            after = best_shanten_after_discard(hand, void)
            for u in uses:
                hand[u] += 1
            if after <= now and (best is None or after < best[0]) and self.want_claim(view, a, t):
                best = (after, a)
        if best is not None:
            return best[1]
        return next((a for a in legal if type(a) is Pass), Pass())

    def want_claim(self, view: SeatView, action: Action, t: Tile) -> bool:
        """Whether to make this pong or chow of ``t``, which does not raise the shanten."""
        return True

    def turn(self, view: SeatView, legal: Sequence[Action]) -> Action:
        kongs = [a for a in legal if isinstance(a, Kong)]
        discards = [a.tile for a in legal if isinstance(a, Discard)]
        if kongs:
            hand = list(view.hand)
            now = best_shanten_after_discard(hand, view.void) if discards else 99
            for k in kongs:
                n = hand[k.tile]
                hand[k.tile] = 0 if n == 4 else n - 1
                after = shanten(bytes(hand), view.void)
                hand[k.tile] = n
                if after <= now and self.want_kong(view, k.tile):
                    return k
        if not discards:
            return legal[0]
        t = discards[0] if len(discards) == 1 else self.pick_discard(view, discards)
        for a in legal:  # the listed action itself: the simulator finds it by identity
            if type(a) is Discard and a.tile == t:
                return a
        return Discard(t)  # pragma: no cover - t is one of the listed discards

    def want_kong(self, view: SeatView, t: Tile) -> bool:
        return True

    def rank_discards(self, view: SeatView, discards: Sequence[Tile]) -> list[tuple[int, int, float, Tile]]:
        """``(shanten, -useful, value, tile)`` for each discard, best first."""
        hand = view.hand
        void = view.void
        vi = SUITS.index(void) if void is not None else -1
        rows: list[tuple[int, int, float, Tile]] = []
        if all(t // 9 == vi for t in discards):
            work = list(hand)
            for t in discards:
                work[t] -= 1
                rows.append((0, 0, tile_value(work, t) + work[t], t))
                work[t] += 1
            rows.sort()
            return rows
        ev = HandEval(hand, void)
        for t in discards:
            rows.append((ev.without(t), 0, tile_value(hand, t), t))
        best = min(r[0] for r in rows)
        unseen = view.unseen_counts()
        out = []
        for sh, _, val, t in rows:
            if sh == best:
                out.append((sh, -ev.useful(t, sh, unseen), val, t))
            else:
                out.append((sh, 0, val, t))
        out.sort()
        return out

    def pick_discard(self, view: SeatView, discards: Sequence[Tile]) -> Tile:
        """The first of :meth:`rank_discards`, computing only what decides it."""
        hand = view.hand
        void = view.void
        vi = SUITS.index(void) if void is not None else -1
        if all(t // 9 == vi for t in discards):
            return self.rank_discards(view, discards)[0][3]
        ev = HandEval(hand, void)
        shs = [(ev.without(t), t) for t in discards]
        best = min(shs)[0]
        tied = [t for sh, t in shs if sh == best]
        if len(tied) > 1:
            unseen = view.unseen_counts()
            us = [(ev.useful(t, best, unseen), t) for t in tied]
            most = max(us)[0]
            tied = [t for u, t in us if u == most]
            if len(tied) > 1:
                return min((tile_value(hand, t), t) for t in tied)[1]
        return tied[0]
