"""The compact encoder: counts per tile kind and scalars, one flat ``float32`` vector.

=========  =====  ===========================================================================
first      count  what
=========  =====  ===========================================================================
0          27     own concealed tiles: copies of each kind (0–4)
27         27     own drawn tile this turn (one-hot)
54         27     own exchange choice, until the exchange happens (copies)
81         27     tile on offer in a claim window the viewer may answer (one-hot)
108        27     unseen copies of each kind (not in own hand, any meld, river, win pile or
                  shown hand)
135        4×108  per relative seat (0 = self, 1 next, 2 opposite, 3 previous), 27 each:
                  melds (visible copies), river (tiles lying), win pile, hand shown (another
                  seat's laid-down hand at its latest win; zeros for the viewer itself)
567        4×13   per relative seat: tiles held ÷ 14, hidden kongs, wins, out, left, locked,
                  void m/p/s/not known (one-hot), void chosen, exchange chosen, score so far
                  ÷ 32 base
619        7      phase: exchange, void, turn, claim, rob, waiting, end (one-hot)
626        4      claim window: from relative seat (one-hot)
630        1      claim window: robbing a kong
631        4      dealer (relative seat, one-hot)
635        4      seat on turn (relative seat, one-hot; zeros outside turns and claims)
639        1      tiles left in the wall ÷ 108
640        3      exchange direction once known: to next, opposite, to previous (one-hot)
643        1      血流 (winners keep playing)
=========  =====  ===========================================================================

``SIZE`` is 644: the 21 rows of 27 counts (:data:`ROWS`) then the 77 scalars (:data:`SCALARS`).
Under 大众麻将 every row has 34 counts, the honours ``1z``–``7z`` after ``9s`` (:func:`shape`:
21 × 34 + 77 = 791 numbers; the offsets above grow accordingly); chows count their three tiles
among the melds.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from chuanma.encoding.common import (
    DIRECTION_CODES,
    HELD_SCALE,
    KINDS,
    PHASES,
    SCORE_SCALE,
    VOID_CODES,
    WALL_SCALE,
    kinds_of,
)
from chuanma.engine import SeatView
from chuanma.tiles import COPIES

HAND, DRAWN, EXCHANGE, CLAIM, UNSEEN = range(5)
SEAT_ROWS = 5
"""Row of relative seat ``r``'s melds: ``SEAT_ROWS + 4 * r``; river, win pile, shown hand follow."""
ROWS = SEAT_ROWS + 4 * 4
HELD, HIDDEN, WINS, OUT, LEFT, LOCKED, VOID_AT, VOID_CHOSEN, EXCHANGE_CHOSEN, SCORE = 0, 1, 2, 3, 4, 5, 6, 10, 11, 12
"""Where each of a seat's scalars lies among them (the void one-hot: four, from ``VOID_AT``)."""
SEAT_SCALARS = 13
PHASE_AT = 4 * SEAT_SCALARS
FROM_AT = PHASE_AT + len(PHASES)
ROB_AT = FROM_AT + 4
DEALER_AT = ROB_AT + 1
CURRENT_AT = DEALER_AT + 4
WALL_AT = CURRENT_AT + 4
DIRECTION_AT = WALL_AT + 1
XUELIU_AT = DIRECTION_AT + len(DIRECTION_CODES)
SCALARS = XUELIU_AT + 1
SIZE = ROWS * KINDS + SCALARS
_SEATS = ("self", "next", "opposite", "previous")
SCALAR_NAMES: tuple[str, ...] = (
    *(f"{seat} {what}" for seat in _SEATS for what in (
        "tiles held", "hidden kongs", "wins", "out", "left", "locked", "void m", "void p", "void s",
        "void not known", "void chosen", "exchange chosen", "score")),
    *(f"phase {p}" for p in PHASES), *(f"claim from {seat}" for seat in _SEATS), "robbing",
    *(f"dealer {seat}" for seat in _SEATS), *(f"on turn {seat}" for seat in _SEATS), "wall",
    *(f"direction {d}" for d in DIRECTION_CODES), "xueliu",
)
"""A short name for each scalar, in order."""


def shape(kinds: int = KINDS) -> tuple[int]:
    """The shape of an observation with ``kinds`` tile kinds (:func:`~chuanma.encoding.common.kinds_of`)."""
    return (ROWS * kinds + SCALARS,)


SHAPE = shape()


PHASE_INDEX = {p: PHASE_AT + i for i, p in enumerate(PHASES)}
VOID_INDEX: dict[str | None, int] = {**{v: VOID_AT + i for i, v in enumerate(VOID_CODES)}, None: VOID_AT + 3}
"""Offset in a seat's scalars of its void one-hot (``None``: not known)."""
_SEEN = np.array([r == HAND or r >= SEAT_ROWS for r in range(ROWS)], dtype=np.float32)
"""The rows whose tiles the viewer sees (the sum of their counts is what is not unseen)."""
_COPIES, _ZERO = np.float32(COPIES), np.float32(0)
"""As ``float32`` scalars, which NumPy applies without converting a Python number at each call."""
DIRECTION_INDEX = {d: DIRECTION_AT + i for i, d in enumerate(DIRECTION_CODES)}


def _moment(sc: list[float], me: int, phase: str, dealer: int, current: int | None, wall: int,
            direction: str | None, xueliu: bool) -> None:
    """Write the scalars of the moment (phase, dealer, seat on turn, wall, direction, 血流) seen by
    seat ``me``."""
    sc[PHASE_INDEX[phase]] = 1
    sc[DEALER_AT + (dealer - me) % 4] = 1
    if current is not None:
        sc[CURRENT_AT + (current - me) % 4] = 1
    sc[WALL_AT] = wall * WALL_SCALE
    if direction is not None:
        sc[DIRECTION_INDEX[direction]] = 1
    sc[XUELIU_AT] = float(xueliu)


def _sections(view: SeatView, k: int, counts: bytearray, scalars: list[float]) -> None:
    """Append the view's ``ROWS`` rows of counts (one byte per tile kind) to ``counts`` and its
    ``SCALARS`` scalars to ``scalars``; the unseen row is left at zero (:func:`_write` fills it)."""
    me = view.seat
    assert me is not None, "an observation is always a seat's"
    players = view.players
    mine = players[me]
    buf = bytearray(ROWS * k)
    sc = [0.0] * SCALARS
    hand = mine.hand
    assert hand is not None, "a seat sees its own hand"
    buf[0:k] = bytes(hand[:k])
    if view.drawn is not None:
        buf[DRAWN * k + view.drawn] = 1
    if mine.exchange is not None:
        for t in mine.exchange:
            buf[EXCHANGE * k + t] += 1
    claim = view.claim
    if claim is not None:
        buf[CLAIM * k + claim.tile] = 1
        sc[FROM_AT + (claim.from_seat - me) % 4] = 1
        sc[ROB_AT] = float(claim.robbing)
    totals = view.totals
    for r in range(4):
        s = (me + r) % 4
        p = players[s]
        at = (SEAT_ROWS + 4 * r) * k
        hidden = 0
        for m in p.melds:
            if m is None:
                hidden += 1
            else:
                for t in m.tiles:
                    buf[at + t] += 1
        at += k
        for t in p.discards:
            buf[at + t] += 1
        at += k
        for t in p.win_pile:
            buf[at + t] += 1
        if r and p.hand is not None:
            buf[at + k:at + 2 * k] = bytes(p.hand[:k])
        at = r * SEAT_SCALARS
        sc[at + HELD] = p.tiles * HELD_SCALE
        sc[at + HIDDEN] = hidden
        sc[at + WINS] = p.won
        sc[at + OUT] = p.out
        sc[at + LEFT] = p.left
        sc[at + LOCKED] = p.locked
        sc[at + VOID_INDEX[p.void]] = 1
        sc[at + VOID_CHOSEN] = p.void_chosen
        sc[at + EXCHANGE_CHOSEN] = p.exchange_chosen
        sc[at + SCORE] = totals[s] * SCORE_SCALE
    _moment(sc, me, view.phase, view.dealer, view.current, view.wall, view.direction, view.winners_stay)
    counts += buf
    scalars += sc


def _write(counts: bytearray, scalars: list[float], out: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Write the gathered counts and scalars of ``len(out)`` observations into the rows of
    ``out``, with their unseen rows, in one NumPy pass."""
    b, size = out.shape
    n = size - SCALARS
    out[:, :n] = np.frombuffer(counts, dtype=np.uint8).reshape(b, n)
    out[:, n:] = np.array(scalars, dtype=np.float32).reshape(b, SCALARS)
    return count_unseen(out)


def count_seen(out: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The copies of each tile kind that each observation in ``out`` (of shape ``(b, size)``)
    sees: in one's hand, any meld, river, win pile or shown hand (shape ``(b, kinds)``)."""
    b, size = out.shape
    n = size - SCALARS
    seen: npt.NDArray[np.float32] = np.matmul(_SEEN, out[:, :n].reshape(b, ROWS, n // ROWS))
    return seen


def count_unseen(out: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Write the unseen row of each observation in ``out`` (of shape ``(b, size)``) from its
    other rows: every copy not seen (:func:`count_seen`), none below zero."""
    b, size = out.shape
    n = size - SCALARS
    unseen = out[:, :n].reshape(b, ROWS, n // ROWS)[:, UNSEEN]
    np.subtract(_COPIES, count_seen(out), out=unseen)
    np.maximum(unseen, _ZERO, out=unseen)
    return out


def encode(view: SeatView, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
    """The compact observation of ``view`` (layout in the module docstring), written into ``out``
    (a ``float32`` array of :func:`shape` for the view's rules) when it is given."""
    k = kinds_of(view.rules)
    if out is None:
        out = np.empty(shape(k), dtype=np.float32)
    counts = bytearray()
    scalars: list[float] = []
    _sections(view, k, counts, scalars)
    _write(counts, scalars, out.reshape(1, -1))
    return out
