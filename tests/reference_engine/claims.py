"""The claim window's course in the reference reducer: opening it on a discard or an added kong
(asking each seat :func:`chuanma.engine.claims.options_for`), resolving the answers (win > kong >
pong > chow; 一炮多响 or the first winner in play order, passes recorded by the pass rule), and
碰 and 吃 themselves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

from chuanma.engine.actions import Chow, Hu, Kong, Pong
from chuanma.engine.claims import PassRule, chow_seat, claim_fan, options_for
from chuanma.engine.state import AFTER, ClaimWindow, HandState
from chuanma.engine.tables import HU, PONG, TILE_TEXT
from chuanma.engine.wins import NEAR, ORPHAN, orphan_reach
from chuanma.engine.wins import forced as forced
from chuanma.melds import Meld
from chuanma.tiles import Tile
from reference_engine.kongs import begin_turn


class Resolution(NamedTuple):
    """What a closed claim window gives: wins (the winners), a kong, a pong or a chow (its
    claimer), or nothing (``seats`` empty)."""

    kind: Literal["win", "kong", "pong", "chow", "none"]
    seats: list[int]


def open_window(st: HandState, rule: PassRule, frm: int, t: Tile, situations: tuple[str, ...], *,
                rob: bool, kong: int | None = None) -> bool:
    """Open the claim window on ``t``; False (nothing opened) if nobody can claim a discard. A
    robbing window opens even when nobody can rob: the added kong then completes."""
    pub = st.public
    pub.claim = ClaimWindow(t, frm, situations, rob, kong)
    lo, hi = NEAR[t]
    orphan = ORPHAN[t]
    seats = st.seats
    chower = chow_seat(st, frm, t, rob)
    anyone = False
    for s in AFTER[frm]:
        seat = seats[s]
        seat.claim = None
        h = seat.hand
        # most seats hold no copy or neighbour of the tile (nor wait on it as 十三幺): nothing to ask them
        if any(h[lo:hi]) or (orphan and orphan_reach(h, t)):
            seat.claim_options = opts = options_for(st, rule, s, t, rob, chow=s == chower)
            if opts is not None:
                anyone = True
        else:
            seat.claim_options = None
    if not anyone and not rob:
        pub.claim = None
        return False
    pub.phase = "rob" if rob else "claim"
    pub.posed = pub.version
    if not rob:
        pub.current = frm
    return True


def resolve(st: HandState, rule: PassRule) -> Resolution:
    """Every answer is in: record the passes and say what the window gives."""
    w = st.public.claim
    assert w is not None
    t = w.tile
    for s in AFTER[w.from_seat]:
        seat = st.seats[s]
        opts = seat.claim_options
        if opts is None:
            continue
        claim = seat.claim
        if HU in opts and not isinstance(claim, Hu):
            rule.passed_win(seat, t, lambda s=s: claim_fan(st, s))  # type: ignore[misc]
        if PONG[t] in opts and not isinstance(claim, Pong | Kong):
            rule.passed_pong(seat, t)
    winners = [s for s in AFTER[w.from_seat] if isinstance(st.seats[s].claim, Hu)]
    if winners:
        return Resolution("win", winners if st.rules.multiple_winners else winners[:1])
    for kind, cls in (("kong", Kong), ("pong", Pong), ("chow", Chow)):
        for s in AFTER[w.from_seat]:
            if isinstance(st.seats[s].claim, cls):
                return Resolution(kind, [s])  # type: ignore[arg-type]
    return Resolution("none", [])


def close_window(st: HandState) -> None:
    pub = st.public
    pub.claim = None
    for seat in st.seats:
        seat.claim_options = None
        seat.claim = None
    pub.phase = "turn"


def pong(st: HandState, seat: int, frm: int, t: Tile) -> None:
    """碰: ``seat`` takes ``frm``'s discard ``t`` and must discard next."""
    take_discard(st, seat, frm, Meld("pong", t), (t, t))
    if st.seats[seat].hand[t]:
        st.seats[seat].late_pongs.add(t)
    st.emit("pong", seat, {"tile": TILE_TEXT[t], "from": frm})


def chow(st: HandState, seat: int, frm: int, t: Tile, low: Tile) -> None:
    """吃: ``seat`` takes its 上家 ``frm``'s discard ``t`` into the sequence starting at ``low``
    and must discard next (as after a pong)."""
    take_discard(st, seat, frm, Meld("chow", low), [x for x in (low, low + 1, low + 2) if x != t])
    st.emit("chow", seat, {"tile": TILE_TEXT[low], "from": frm, "claimed": TILE_TEXT[t]})


def take_discard(st: HandState, seat: int, frm: int, meld: Meld, used: Sequence[Tile]) -> None:
    """A pong or chow: ``seat`` lays down ``meld`` of ``frm``'s last discard and the tiles ``used``
    from its hand; its turn begins and it must discard (no draw, no kong, no win)."""
    pub = st.public
    close_window(st)
    pub.discards[frm].pop()
    h = st.seats[seat].hand
    for x in used:
        h[x] -= 1
    pub.melds[seat].append(meld)
    pub.claimed_at[seat].append(st.remaining)
    pub.declared = True
    begin_turn(st, seat)
    pub.turn.after_pong = True
