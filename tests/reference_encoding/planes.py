"""The planes encoder in Python, from a view (made from its compact encoding): the reference the
compiled one (``chuanma._core.Hand.encode_planes``) is compared with. The layout:
:mod:`chuanma.encoding.layout`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from chuanma.encoding.common import RECENT, kinds_of
from chuanma.encoding.layout import (
    CLAIM,
    DRAWN,
    EXCHANGE,
    HAND,
    ROWS,
    SCALARS_AT,
    SEAT_AT,
    SEAT_CHANNELS,
    SEAT_ROWS,
    SEAT_SCALARS,
    UNSEEN,
    VOID_AT,
    planes_shape,
)
from chuanma.engine import SeatView
from reference_encoding.compact import VOID_CODES
from reference_encoding.compact import encode as compact_encode

Recent = tuple[int, Sequence[Sequence[int]]]
"""A viewer's seat and each seat's last :data:`RECENT` discards (claimed ones included), most
recent first, the number of tile kinds standing for none."""


def _count_channels() -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float32]]:
    """For each channel before the scalars: the compact count row it is made from, and what it
    holds for each count 0–4 (the discard and void channels: nothing, they are written apart)."""
    at_least = [[float(c >= n) for c in range(5)] for n in range(1, 5)]
    copies = [float(c) for c in range(5)]
    quarters = [c / 4 for c in range(5)]
    nothing = [0.0] * 5
    rows = [HAND] * 4 + [DRAWN, EXCHANGE, CLAIM] + [UNSEEN] * 4
    values = [*at_least, copies, copies, copies, *at_least]
    for r in range(4):
        melds = SEAT_ROWS + 4 * r
        rows += [melds] + [melds + 1] * 4 + [melds + 2, melds + 3] + [HAND] * (RECENT + 1)
        values += [quarters, *at_least, copies, quarters] + [nothing] * (RECENT + 1)
    return np.array(rows, dtype=np.intp), np.array(values, dtype=np.float32).reshape(-1)


_ROW_OF, _TABLE = _count_channels()
_AT = (np.arange(SCALARS_AT) * 5)[:, None]
"""Where each channel's values begin in the table."""
_VOIDS = slice(VOID_AT, VOID_AT + len(VOID_CODES))
"""Where a seat's void one-hot (m, p, s) lies among its compact scalars."""
_VOID_CHANNELS = slice(SEAT_AT + 7 + RECENT, SCALARS_AT, SEAT_CHANNELS)


@cache
def _suit_columns(k: int) -> npt.NDArray[np.float32]:
    """For each void suit, ones on its nine columns (of ``k``)."""
    columns = np.zeros((len(VOID_CODES), k), dtype=np.float32)
    for v in range(len(VOID_CODES)):
        columns[v, 9 * v:9 * v + 9] = 1
    return columns


@cache
def _one_hot(k: int) -> npt.NDArray[np.float32]:
    """Each tile kind's one-hot row (of ``k``), and a row of zeros for ``k`` (no tile)."""
    return np.eye(k + 1, k, dtype=np.float32)


_IN_ORDER = [[(me + r) % 4 for r in range(4)] for me in range(4)]
"""Each viewer's seats in relative order."""


def write_planes(flat: npt.NDArray[np.float32], recents: Sequence[Recent],
           out: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Write ``len(out)`` planes observations from their compact ones (``flat``, whose void
    one-hots give the void channels) and, for each, the viewer's seat and each seat's discards in
    order."""
    b, _, k = out.shape
    counts = flat[:, :ROWS * k].reshape(b, ROWS, k)
    at = np.take(counts.astype(np.intp), _ROW_OF, axis=1)
    at += _AT
    np.take(_TABLE, at, out=out[:, :SCALARS_AT], mode="clip")
    scalars = flat[:, ROWS * k:]
    out[:, SCALARS_AT:] = scalars[:, :, None]
    voids = scalars[:, :4 * SEAT_SCALARS].reshape(b, 4, SEAT_SCALARS)[:, :, _VOIDS]
    np.matmul(voids, _suit_columns(k), out=out[:, _VOID_CHANNELS])
    tiles: list[int] = []  # each observation's seats' recent discards, in relative order
    for me, recent in recents:
        for s in _IN_ORDER[me]:
            tiles += recent[s]
    seats = out[:, SEAT_AT:SCALARS_AT].reshape(b, 4, SEAT_CHANNELS, k)
    np.take(_one_hot(k), np.array(tiles, dtype=np.intp).reshape(b, 4, RECENT), axis=0,
            out=seats[:, :, 7:7 + RECENT], mode="clip")
    return out


def discarded(recent: list[int], t: int) -> None:
    """Note a discard of tile ``t`` in a seat's last :data:`RECENT` discards (``recent``, most
    recent first): what both a view's discard log and the tracker's events are read into."""
    recent.pop()
    recent.insert(0, t)


def encode(view: SeatView, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
    """The planes observation of ``view`` (layout in the module docstring), written into ``out``
    (a ``float32`` array of :func:`~chuanma.encoding.layout.planes_shape` for the view's rules) when it is given."""
    me = view.seat
    assert me is not None, "an observation is always a seat's"
    k = kinds_of(view.rules)
    if out is None:
        out = np.empty(planes_shape(k), dtype=np.float32)
    flat = compact_encode(view)[None]
    recent: list[list[int]] = [[k] * RECENT for _ in range(4)]
    for s, t in view.discard_log:
        discarded(recent[s], t)
    write_planes(flat, [(me, recent)], out[None])
    return out
