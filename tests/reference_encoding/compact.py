"""The compact encoder in Python, from a view: the reference the compiled one
(``chuanma._core.Hand.encode_compact``) is compared with. The layout: :mod:`chuanma.encoding.layout`.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from chuanma.encoding.common import DIRECTION_CODES, PHASES, kinds_of
from chuanma.encoding.layout import (
    CLAIM,
    CURRENT_AT,
    DEALER_AT,
    DIRECTION_AT,
    DRAWN,
    EXCHANGE,
    EXCHANGE_CHOSEN,
    FROM_AT,
    HAND,
    HELD,
    HIDDEN,
    LEFT,
    LOCKED,
    OUT,
    PHASE_AT,
    ROB_AT,
    ROWS,
    SCALARS,
    SCORE,
    SEAT_ROWS,
    SEAT_SCALARS,
    UNSEEN,
    VOID_AT,
    VOID_CHOSEN,
    WALL_AT,
    WINS,
    XUELIU_AT,
    compact_shape,
)
from chuanma.engine import SeatView
from chuanma.tiles import COPIES

VOID_CODES = ("m", "p", "s")
WALL_SCALE = 1 / 108
"""Wall counts are given as a share of the 108-tile set."""
SCORE_SCALE = 1 / 32
"""Scores so far are given in units of 32 base."""
HELD_SCALE = 1 / 14
"""Tiles held are given as a share of 14."""
PHASE_INDEX = {p: PHASE_AT + i for i, p in enumerate(PHASES)}
VOID_INDEX: dict[str | None, int] = {**{v: VOID_AT + i for i, v in enumerate(VOID_CODES)}, None: VOID_AT + 3}
"""Offset in a seat's scalars of its void one-hot (``None``: not known)."""
_SEEN = np.array([r == HAND or r >= SEAT_ROWS for r in range(ROWS)], dtype=np.float32)
"""The rows whose tiles the viewer sees (the sum of their counts is what is not unseen)."""
_COPIES, _ZERO = np.float32(COPIES), np.float32(0)
"""As ``float32`` scalars, which NumPy applies without converting a Python number at each call."""
DIRECTION_INDEX = {d: DIRECTION_AT + i for i, d in enumerate(DIRECTION_CODES)}
MELDS, RIVER, PILE, SHOWN = range(4)
"""A seat's four rows of counts, in order (row ``SEAT_ROWS + 4 * r + j`` for relative seat ``r``)."""
Window = tuple[int, int, bool]
"""A tile on offer: the tile, the seat it comes from and whether it robs a kong."""


def floats(array: npt.NDArray[np.float32]) -> memoryview[float]:
    """A flat view of a C-contiguous ``float32`` array, whose items Python reads and writes
    faster than NumPy's."""
    view = array.data
    if view.format != "f" or not view.c_contiguous:
        raise ValueError("observations are written into a C-contiguous float32 array")
    return view.cast("B").cast("f")


class Layout:
    """Where things lie in the rows of a :class:`Rows` that keeps the observations of ``viewers``
    (absolute seats, a row each in that order; flat offsets), for ``k`` tile kinds, and the rows a
    hand begins with (``xueliu``: winners keep playing)."""

    __slots__ = ("blank", "counts", "hands", "held", "index", "kinds", "rows", "scalars", "sees", "size",
                 "unseen")

    def __init__(self, k: int, xueliu: bool, viewers: tuple[int, ...]) -> None:
        self.kinds = k
        self.size = size = compact_shape(k)[0]
        self.counts = ROWS * k
        self.index = [viewers.index(s) if s in viewers else -1 for s in range(4)]
        """Each seat's row among the viewers' (-1: not kept)."""
        at = [(i, v, i * size) for i, v in enumerate(viewers)]
        self.hands = [self.index[s] * size + HAND * k for s in range(4)]
        """Where each viewer's own concealed tiles begin (meaningless for a seat not kept)."""
        self.unseen = [self.index[s] * size + UNSEEN * k for s in range(4)]
        """Where each viewer's unseen counts begin."""
        self.rows = [[tuple(row + (SEAT_ROWS + 4 * ((s - v) % 4) + j) * k for _, v, row in at)
                      for j in range(4)] for s in range(4)]
        """``rows[s][j]``: where seat ``s``'s row ``j`` (:data:`MELDS`…) begins, in each viewer's row."""
        self.sees = [[tuple(zip(row, (i * k for i, _, _ in at), (self.unseen[v] for _, v, _ in at), strict=True))
                      for row in rows] for rows in self.rows]
        """``sees[s][j]``: for each viewer, where seat ``s``'s row ``j`` begins in its row, where its
        own seen counts begin (:attr:`Rows.seen`) and where its unseen row begins."""
        self.scalars = [tuple(row + ROWS * k + ((s - v) % 4) * SEAT_SCALARS for _, v, row in at) for s in range(4)]
        """``scalars[s]``: where seat ``s``'s scalars begin, in each viewer's row."""
        self.held = [tuple((ROWS * k + r * SEAT_SCALARS + HELD, (s + r) % 4) for r in range(4)) for s in range(4)]
        """``held[s]``: in seat ``s``'s observation, where each seat's tiles held lie, and that seat."""
        self.blank = np.zeros((len(viewers), size), dtype=np.float32)
        """The rows before the first event: every copy unseen, no void known, and whether winners
        keep playing."""
        self.blank[:, UNSEEN * k:UNSEEN * k + k] = COPIES
        blank = floats(self.blank)
        for i in range(len(viewers)):
            blank[i * size + self.counts + XUELIU_AT] = float(xueliu)
            for s in range(4):
                blank[self.scalars[s][i] + VOID_INDEX[None]] = 1


layout = cache(Layout)


class Rows:
    """The compact observations of ``lay``'s viewers, but for what depends on the moment: the one
    writer of what goes where in them, which the encoding of a view (:func:`encode`) writes
    through.

    What a seat alone knows (its hand, exchange choice) is written into its own row; what the
    viewers see of any seat into every viewer's row, at that seat's place relative to the viewer.
    A viewer's unseen row follows each write into the rows it sees. :meth:`observe` copies a row
    and writes in the moment."""

    __slots__ = ("array", "lay", "mv", "seen")

    def __init__(self, lay: Layout) -> None:
        self.lay = lay
        self.array = lay.blank.copy()
        """A row per viewer (of shape ``(viewers, size)``)."""
        self.mv = floats(self.array)
        self.seen: list[float] = [0] * (len(self.array) * lay.kinds)
        """``seen[i * kinds + t]``: the copies of tile ``t`` that viewer ``i`` sees (in its hand, any
        meld, river, win pile or shown hand), which its unseen row is written from at once."""

    def lay_down(self, seat: int, row: int, tiles: Sequence[int]) -> None:
        """Each of ``tiles`` on ``seat``'s ``row``, in every viewer's row, the unseen rows left as
        they were: for writing a whole moment at once (a view), the unseen rows counted after
        (:func:`count_unseen`)."""
        mv = self.mv
        for base in self.lay.rows[seat][row]:
            for t in tiles:
                mv[base + t] += 1

    def hand(self, seat: int, t: int, n: int) -> None:
        """``n`` more of tile ``t`` in ``seat``'s own hand (seen by it: its unseen count follows)."""
        mv, k = self.mv, self.lay.kinds
        i = self.lay.index[seat] * k + t
        mv[self.lay.hands[seat] + t] += n
        c = self.seen[i] = self.seen[i] + n
        mv[self.lay.unseen[seat] + t] = COPIES - c if c < COPIES else 0

    def exchange_choice(self, seat: int, tiles: Sequence[int]) -> None:
        """``seat``'s own exchange choice is ``tiles``: shown in its row until the exchange."""
        at = self.lay.index[seat] * self.lay.size + EXCHANGE * self.lay.kinds
        self.scalar(seat, EXCHANGE_CHOSEN, 1)
        for t in tiles:
            self.mv[at + t] += 1

    def exchanged(self, direction: str) -> None:
        """The exchange happens in ``direction``: every viewer knows it, no choice is shown."""
        k, size = self.lay.kinds, self.lay.size
        base = self.lay.counts + DIRECTION_INDEX[direction]
        flat = self.array.reshape(-1)
        for i in range(len(self.array)):
            self.mv[i * size + base] = 1
            at = i * size + EXCHANGE * k
            flat[at:at + k] = 0

    def dealer(self, dealer: int) -> None:
        """Every viewer knows the dealer."""
        size, base = self.lay.size, self.lay.counts + DEALER_AT
        for s, i in enumerate(self.lay.index):
            if i >= 0:
                self.mv[i * size + base + (dealer - s) % 4] = 1

    def scalar(self, seat: int, at: int, value: float) -> None:
        """``seat``'s scalar ``at`` (:data:`HELD`…) is ``value``, in every viewer's row."""
        mv = self.mv
        for base in self.lay.scalars[seat]:
            mv[base + at] = value

    def void(self, viewer: int, seat: int, void: str) -> None:
        """``viewer`` knows ``seat``'s void."""
        base = self.lay.scalars[seat][self.lay.index[viewer]]
        mv = self.mv
        mv[base + VOID_INDEX[None]] = 0
        mv[base + VOID_INDEX[void]] = 1
        mv[base + VOID_CHOSEN] = 1

    def write(self, seat: int, row: int, counts: Sequence[int], *, own: bool = True) -> None:
        """``seat``'s ``row`` (:data:`MELDS`…) holds ``counts`` (per tile kind), in every viewer's
        row (``own`` false: but the seat's own, as a shown hand, which is its hand there), written
        whole: :meth:`recount` after."""
        k, mv = self.lay.kinds, self.mv
        shown = memoryview(array("f", counts[:k]))  # converted once, copied into each row
        skip = -1 if own else self.lay.index[seat]
        for i, base in enumerate(self.lay.rows[seat][row]):
            if i != skip:
                mv[base:base + k] = shown

    def observe(self, me: int, out: memoryview[float], row: int, phase: str, current: int | None,
                drawn: int | None, window: Window | None, wall: int, tiles: Sequence[int]) -> None:
        """Write viewer ``me``'s observation at ``row`` of ``out`` (:func:`floats`): its row, and the
        moment: the ``phase`` (:data:`~chuanma.encoding.common.PHASES`), the seat on turn, its own
        ``drawn`` tile, the ``window`` it may answer, the ``wall`` and each seat's ``tiles`` held."""
        lay = self.lay
        k, size = lay.kinds, lay.size
        own = lay.index[me] * size
        out[row:row + size] = self.mv[own:own + size]  # faster than NumPy's copy of a row
        sc = row + lay.counts
        if drawn is not None:
            out[row + DRAWN * k + drawn] = 1
        if window is not None:
            t, frm, rob = window
            out[row + CLAIM * k + t] = 1
            out[sc + FROM_AT + (frm - me) % 4] = 1
            out[sc + ROB_AT] = float(rob)
        out[sc + PHASE_INDEX[phase]] = 1
        if current is not None:
            out[sc + CURRENT_AT + (current - me) % 4] = 1
        out[sc + WALL_AT] = wall * WALL_SCALE
        for at, s in lay.held[me]:
            out[row + at] = tiles[s] * HELD_SCALE


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
    """The compact observation of ``view`` (layout: :mod:`chuanma.encoding.layout`), written into
    ``out`` (a C-contiguous ``float32`` array of :func:`~chuanma.encoding.layout.compact_shape` for
    the view's rules) when it is given: the view's facts written through :class:`Rows`."""
    me = view.seat
    assert me is not None, "an observation is always a seat's"
    k = kinds_of(view.rules)
    if out is None:
        out = np.empty(compact_shape(k), dtype=np.float32)
    rows = Rows(layout(k, view.winners_stay, (me,)))
    rows.dealer(view.dealer)
    if view.direction is not None:
        rows.exchanged(view.direction)
    players = view.players
    mine = players[me]
    assert mine.hand is not None, "a seat sees its own hand"
    for t, n in enumerate(mine.hand[:k]):
        if n:
            rows.hand(me, t, n)
    if mine.exchange is not None:
        rows.exchange_choice(me, mine.exchange)
    for s, p in enumerate(players):
        hidden = 0
        melds: list[int] = []
        for m in p.melds:
            if m is None:
                hidden += 1
            else:
                melds += m.tiles
        rows.lay_down(s, MELDS, melds)
        rows.lay_down(s, RIVER, p.discards)
        rows.lay_down(s, PILE, p.win_pile)
        if s != me and p.hand is not None:
            rows.write(s, SHOWN, p.hand, own=False)
        for at, value in ((HIDDEN, hidden), (WINS, p.won), (OUT, p.out), (LEFT, p.left), (LOCKED, p.locked),
                          (VOID_CHOSEN, p.void_chosen), (EXCHANGE_CHOSEN, p.exchange_chosen),
                          (SCORE, view.totals[s] * SCORE_SCALE)):
            if value:
                rows.scalar(s, at, value)
        if p.void is not None:
            rows.void(me, s, p.void)
    count_unseen(rows.array)  # the view's rows are written whole: its unseen row from them, once
    claim = view.claim
    rows.observe(me, floats(out), 0, view.phase, view.current, view.drawn,
                 None if claim is None else (claim.tile, claim.from_seat, claim.robbing), view.wall,
                 [p.tiles for p in players])
    return out
