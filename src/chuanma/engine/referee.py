"""The referee's read model: a seat as the whole table is, hidden tiles included.

For what is not a player's business to read but a program outside the engine needs: the
simulator's statistics at an exhaustive draw, the rules pages' worked examples. A player's
client reads :mod:`.views` (the redaction) instead.
"""

from __future__ import annotations

from typing import NamedTuple

from chuanma.engine.state import HandState
from chuanma.melds import Meld
from chuanma.tiles import Tile, holds_suit


class OpenSeat(NamedTuple):
    """One seat, unredacted."""

    hand: bytes
    """Concealed tiles as counts by tile kind (34)."""
    drawn: Tile | None
    """The tile drawn this turn, if the seat holds one."""
    melds: tuple[Meld, ...]
    void: str | None
    out: bool
    """No longer playing (won in 血战, or left)."""
    flower_pig: bool
    """花猪: it still holds a tile of its void suit."""


def open_seat(st: HandState, seat: int) -> OpenSeat:
    s = st.seats[seat]
    return OpenSeat(bytes(s.hand), s.drawn, tuple(st.public.melds[seat]), s.void, st.public.out[seat],
                    flower_pig(st, seat))


def flower_pig(st: HandState, seat: int) -> bool:
    """花猪: the seat still holds a tile of its void suit."""
    s = st.seats[seat]
    return holds_suit(s.hand, s.void)
