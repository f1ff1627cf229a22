"""Wins: whether a hand wins, its situations (天胡, 地胡, 杠上花, 海底…), scoring, and recording it.

The win check is one function of a seat's concealed tiles (:func:`complete`); a win on another
seat's tile is the same check with that tile added (:func:`completes`). Scoring is
:func:`chuanma.scoring.score_hand`, fed the situations the hand's state gives.
"""

from __future__ import annotations

from collections.abc import Sequence

from chuanma.analysis import is_win, waits
from chuanma.analysis.orphans import ORPHANS
from chuanma.engine.state import HandState
from chuanma.engine.wall import in_last_four
from chuanma.rules import RuleSet
from chuanma.scoring import ScoreResult, score_hand
from chuanma.tiles import NUM_KINDS, NUM_SUITED, Tile, holds_suit

NEAR = [(t - min(t % 9, 2), t + min(8 - t % 9, 2) + 1) for t in range(NUM_SUITED)] + [
    (t, t + 1) for t in range(NUM_SUITED, NUM_KINDS)]
"""``h[lo:hi]`` for ``lo, hi = NEAR[t]``: the copies of ``t`` and its neighbours (two ranks; an
honour has none) in a counts list; a tile none of which are held completes nothing."""


ORPHAN = [t in ORPHANS for t in range(NUM_KINDS)]
"""By tile: whether it is one of 十三幺's kinds."""


def orphan_reach(h: Sequence[int], t: Tile) -> bool:
    """Whether ``t`` might complete ``h`` as 十三幺, which waits on an orphan it may hold no copy
    or neighbour of: ``t`` is an orphan and ``h`` holds 東 or 南 (a ready 十三幺 hand holds one)."""
    return ORPHAN[t] and h[27] + h[28] > 0


def completes(st: HandState, seat: int, t: Tile) -> bool:
    """Whether another seat's tile ``t`` completes the seat's concealed tiles (3n+1).

    A claim window asks only seats holding a copy or neighbour of ``t`` (``NEAR``)."""
    s = st.seats[seat]
    h = s.hand
    if holds_suit(h, s.void):
        return False
    h[t] += 1
    won = is_win(bytes(h))
    h[t] -= 1
    return won


def seat_waits(st: HandState, seat: int) -> list[Tile]:
    """The waits of the seat's 3n+1 concealed tiles (none while it holds its void suit)."""
    s = st.seats[seat]
    return waits(s.hand, st.public.melds[seat], s.void)


def score(st: HandState, seat: int, win_tile: Tile, *, self_drawn: bool, situations: Sequence[str],
          in_hand: bool) -> ScoreResult:
    """Score the seat's win on ``win_tile`` (already in its hand when ``in_hand``)."""
    tiles = st.tiles(seat)
    if in_hand:
        tiles.remove(win_tile)
    return score_hand(st.rules, tiles, st.public.melds[seat], win_tile, self_drawn=self_drawn,
                      void=st.seats[seat].void, situations=frozenset(situations))


def forced(st: HandState) -> bool:
    """``forced_win_in_last_four``: a seat that can win in the last four must."""
    return st.rules.forced_win_in_last_four and in_last_four(st.remaining)


def self_drawn_each(rules: RuleSet, multiplier: int) -> int:
    """What each payer of a self-drawn win pays, in units of base: the multiplier, +1 with 自摸加底."""
    return multiplier + (1 if rules.zimo_bonus == "base" else 0)
