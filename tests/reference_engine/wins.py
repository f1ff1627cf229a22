"""Wins: whether a hand wins, its situations (天胡, 地胡, 杠上花, 海底…), scoring, and recording it.

The win check is one function of a seat's concealed tiles (:func:`complete`); a win on another
seat's tile is the same check with that tile added (:func:`completes`). Scoring is
:func:`chuanma.scoring.score_hand`, fed the situations the hand's state gives.
"""

from __future__ import annotations

from collections.abc import Sequence

from chuanma.analysis import is_win, waits
from chuanma.analysis.orphans import ORPHANS
from chuanma.engine.ledger import Win
from chuanma.engine.state import HandState
from chuanma.engine.wall import in_last_four
from chuanma.engine.wins import self_drawn_each
from chuanma.scoring import ScoreResult, score_hand
from chuanma.tiles import NUM_KINDS, NUM_SUITED, Tile, format_tiles, holds_suit
from chuanma.variant import Variant
from reference_engine.kongs import payers
from reference_engine.log import emit, pay

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


JIPIN_FAN = 4
"""极品: a win shown as this many fan or more (RULES §6, with the preset's fan labels)."""


def complete(st: HandState, seat: int) -> bool:
    """Whether the seat's concealed tiles (3n+2) are a winning shape and hold no void tile."""
    s = st.seats[seat]
    return not holds_suit(s.hand, s.void) and is_win(bytes(s.hand))


def self_draw_situations(st: HandState, variant: Variant, seat: int) -> tuple[Tile, list[str]]:
    """The tile a self-drawn win is on, and its situations."""
    turn = st.public.turn
    if turn.first:  # 天胡: on the dealer's 14th tile if it still holds it
        last_dealt = st.hidden.wall[variant.wall.deal_end - 1]
        t = last_dealt if st.seats[seat].hand[last_dealt] else max(st.tiles(seat))
        return t, ["tianhu"]
    drawn = st.seats[seat].drawn
    assert drawn is not None, "a self-drawn win after the first turn is on the drawn tile"
    t = drawn
    situations: list[str] = []
    if turn.draw_kind == "replacement":
        situations.append("kong_replacement")
        if turn.kongs >= 2:
            situations.append("consecutive_kongs")
    if turn.drew_last:
        situations.append("last_tile")
    if turn.dihu:
        situations.append("dihu")
    return t, situations


def jipin(st: HandState, total: int) -> bool:
    """极品: the win shows 4 fan or more in the preset's labels."""
    return total + st.rules.fan_label_offset >= JIPIN_FAN


def record_win(st: HandState, variant: Variant, seat: int, t: Tile, frm: int | None, robbed: bool,
               res: ScoreResult, situations: Sequence[str]) -> Win:
    """Log the win (its ``hu`` event) and take the winner out of play or lock its hand."""
    if not res.win:  # the engine only offers wins that scoring accepts
        raise AssertionError(f"seat {seat}: scoring refused the win ({res.reason})")
    pub = st.public
    win = Win(seat, t, frm, robbed, tuple((f.id, f.name, f.fan) for f in res.fans), res.total,
              res.multiplier, tuple(situations), tuple(st.tiles(seat)), len(st.events),
              jipin(st, res.total))
    s = st.seats[seat]
    waited = s.locked_waits if s.locked_waits is not None else seat_waits(st, seat)
    data = win.to_json()
    data["waits"] = format_tiles(waited)  # public: the hand is shown with the win
    if forced(st):
        data["forced"] = True
    emit(st, "hu", seat, data)
    pub.wins.append(win)
    if variant.winners_stay:
        if not pub.locked[seat]:
            pub.locked[seat] = True
            s.locked_waits = waited
    else:
        pub.out[seat] = True
    return win


def claim_wins(st: HandState, variant: Variant, winners: list[int], frm: int, t: Tile, situations: Sequence[str],
               *, robbed: bool) -> None:
    """Wins on a discard or a robbed kong: each winner is paid by the discarder (declarer)."""
    pub = st.public
    if not pub.wins and len(winners) > 1:
        pub.first_multi_from = frm
    for i, w in enumerate(winners):
        res = score(st, w, t, self_drawn=False, situations=situations, in_hand=False)
        if i == 0:
            pub.win_piles[w].append(t)
        win = record_win(st, variant, w, t, frm, robbed, res, situations)
        pay(st, frm, w, res.multiplier, "qianggang" if robbed else "dianpao", win.seq)


def self_draw_payers(st: HandState, seat: int) -> list[int]:
    """Who pays a self-drawn win: the seats still playing; under ``exposed_kong_flower:
    discarder_pays`` a win on the replacement after an exposed kong (点杠花) is paid by the kong's
    discarder alone."""
    pub = st.public
    k = pub.kongs[pub.turn.kong] if pub.turn.kong is not None else None
    if (st.rules.exposed_kong_flower == "discarder_pays" and pub.turn.draw_kind == "replacement"
            and k is not None and k.kind == "exposed" and k.payments):
        return [pub.ledger[k.payments[0]].payer]
    return payers(st, seat)


def self_drawn_win(st: HandState, variant: Variant, seat: int) -> None:
    """自摸: the seat wins on its own tile; each payer pays the value (+1 base with 自摸加底)."""
    pub = st.public
    payers = self_draw_payers(st, seat)
    t, situations = self_draw_situations(st, variant, seat)
    res = score(st, seat, t, self_drawn=True, situations=situations, in_hand=True)
    s = st.seats[seat]
    s.hand[t] -= 1
    s.drawn = None
    pub.win_piles[seat].append(t)
    pub.turn.first = False
    win = record_win(st, variant, seat, t, None, False, res, situations)
    each = self_drawn_each(st.rules, res.multiplier)
    for p in payers:
        pay(st, p, seat, each, "zimo", win.seq)
