"""Before the first turn: 换三张 (exchange three) and 定缺 (the void suit), where the variant has
them (大众麻将 has neither: the dealer's first turn starts at once).

Both are secret choices revealed together. A hand of exactly two suits has its void chosen for
it; a hand of one suit chooses one of the other two (RULES §2.4).
"""

from __future__ import annotations

from collections.abc import Sequence

from chuanma.engine.actions import ChooseVoid
from chuanma.engine.state import DIRECTIONS, HandState
from chuanma.engine.tables import VOID, format_sequence
from chuanma.tiles import SUITS, Tile, holds_suit
from reference_engine.log import emit


def held_suits(hand: Sequence[int]) -> list[str]:
    return [suit for suit in SUITS if holds_suit(hand, suit)]


def choose_exchange(st: HandState, seat: int, tiles: tuple[Tile, Tile, Tile]) -> None:
    """A seat's three tiles; once all four have chosen, the exchange happens."""
    pub = st.public
    st.seats[seat].exchange = tiles
    pub.exchanged[seat] = True
    # a legal choice is sorted (as every listed one is): its text needs no sorting
    emit(st, "exchange_chosen", seat, {}, {"tiles": format_sequence(tiles)})
    if not all(pub.exchanged):
        return
    direction = st.hidden.direction
    step = DIRECTIONS[direction]
    for seat_state in st.seats:
        for t in seat_state.exchange or ():
            seat_state.hand[t] -= 1
    for s in range(4):
        to = st.seats[(s + step) % 4]
        for t in st.seats[s].exchange or ():
            to.hand[t] += 1
    pub.direction = direction
    emit(st, "exchange", None, {"direction": direction})
    for s in range(4):
        frm = (s - step) % 4
        got = st.seats[frm].exchange or ()
        emit(st, "exchange_received", s, {}, {"tiles": format_sequence(got), "from": frm}, "private")
    enter_void(st)


def enter_void(st: HandState) -> None:
    """The 定缺 phase; a two-suit hand's void is chosen at once."""
    st.public.phase = "void"
    st.public.posed = st.public.version
    for s in range(4):
        held = held_suits(st.seats[s].hand)
        if len(held) == 2:
            suit = next(x for x in SUITS if x not in held)
            st.autos.append((s, VOID[suit]))
            choose_void(st, s, suit, auto=True)


def void_options(st: HandState, seat: int) -> list[ChooseVoid]:
    """The suits the seat may choose: any, except that a hand of one suit chooses one of the
    other two (RULES §2.4)."""
    held = held_suits(st.seats[seat].hand)
    return [VOID[s] for s in SUITS if len(held) != 1 or s not in held]


def choose_void(st: HandState, seat: int, suit: str, *, auto: bool = False) -> None:
    """A seat's void; once all four have chosen, they are revealed and the dealer plays.

    An automatic choice (a two-suit hand) is the seat's own business: it is told only to the
    seat, and to the others the seat looks undecided until the voids are revealed (else they
    would learn which hands hold exactly two suits)."""
    pub = st.public
    st.seats[seat].void = suit
    if auto:
        emit(st, "void_chosen", seat, {}, {"suit": suit, "automatic": True}, "private")
    else:
        pub.void_chosen[seat] = True
        emit(st, "void_chosen", seat, {}, {"suit": suit})
    if any(s.void is None for s in st.seats):
        return
    pub.void_chosen = [True] * 4
    pub.voids_revealed = True
    emit(st, "voids", None, {"voids": [x.void for x in st.seats]})
    first_turn(st)


def first_turn(st: HandState) -> None:
    """The dealer's first turn: no draw, 天胡 possible."""
    pub = st.public
    pub.phase = "turn"
    pub.current = pub.dealer
    pub.turn.first = True
    pub.turn.draw_kind = None
