"""The planes encoder: channels × 27 tile kinds (``float32``), in the manner of Suphx and mjx.

Column ``t`` is tile kind ``t`` (``1m``…``9m``, ``1p``…``9p``, ``1s``…``9s``). A fact that is not
about one tile kind fills a whole channel with one value (a broadcast channel). Seats are
relative: 0 the viewer, 1 the next seat, 2 the one opposite, 3 the previous one.

=========  =====  ===========================================================================
first      count  channel
=========  =====  ===========================================================================
0          4      own concealed tiles: at least 1, 2, 3, 4 copies
4          1      own drawn tile this turn
5          1      own exchange choice, until the exchange happens (copies)
6          1      tile on offer in a claim window the viewer may answer
7          4      unseen copies: at least 1, 2, 3, 4
11         4×14   per relative seat: melds (visible copies ÷ 4); river at least 1, 2, 3, 4;
                  win pile (copies); hand shown at its latest win (copies ÷ 4; zeros for the
                  viewer); its last 6 discards in order, most recent first (6 one-hot
                  channels, claimed discards included); its void suit once known (ones on
                  that suit's nine columns)
67         77     broadcast: the compact encoder's 77 scalars in its order (per-seat
                  scalars, phase, claim window, dealer, seat on turn, wall, direction, 血流)
=========  =====  ===========================================================================

``SHAPE`` is (144, 27); under 大众麻将 there are 34 columns, the honours ``1z``–``7z`` after
``9s`` (:func:`shape`: (144, 34)).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from chuanma.encoding.common import KINDS, VOID_CODES, seat_order
from chuanma.encoding.compact import (
    CLAIM,
    DRAWN,
    EXCHANGE,
    HAND,
    SCALAR_NAMES,
    SCALARS,
    SEAT_ROWS,
    UNSEEN,
    counts_of,
    sections,
)
from chuanma.engine.views import SeatView

RECENT = 6
"""Discards of each seat shown in order."""
SEAT_AT = 11
SEAT_CHANNELS = 8 + RECENT
SCALARS_AT = SEAT_AT + 4 * SEAT_CHANNELS
CHANNELS = SCALARS_AT + SCALARS


def shape(kinds: int = KINDS) -> tuple[int, int]:
    """The shape of an observation with ``kinds`` tile kinds (:func:`~chuanma.encoding.common.kinds_of`)."""
    return (CHANNELS, kinds)


SHAPE = shape()
_STEPS = np.arange(1, 5, dtype=np.uint8)[:, None]
_SEAT_NAMES = ("self", "next", "opposite", "previous")
CHANNEL_NAMES: tuple[str, ...] = (
    *(f"hand >={k}" for k in range(1, 5)), "drawn", "exchange choice", "claim tile",
    *(f"unseen >={k}" for k in range(1, 5)),
    *(name for seat in _SEAT_NAMES for name in (
        f"{seat} melds", *(f"{seat} river >={k}" for k in range(1, 5)), f"{seat} win pile", f"{seat} shown hand",
        *(f"{seat} discard -{k}" for k in range(1, RECENT + 1)), f"{seat} void")),
    *SCALAR_NAMES,
)
"""A short name for each channel, in order."""


def encode(view: SeatView, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
    """The planes observation of ``view`` (layout in the module docstring), written into ``out``
    (a ``float32`` array of :func:`shape` for the view's rules) when it is given."""
    buf, scalars = sections(view)
    counts = counts_of(buf)
    if out is None:
        out = np.zeros(shape(counts.shape[1]), dtype=np.float32)
    else:
        out[...] = 0
    out[0:4] = counts[HAND] >= _STEPS
    out[4:7] = counts[[DRAWN, EXCHANGE, CLAIM]]
    out[7:11] = counts[UNSEEN] >= _STEPS
    recent: list[list[int]] = [[], [], [], []]
    for s, t in reversed(view.discard_log):
        if len(recent[s]) < RECENT:
            recent[s].append(t)
    for r, s in enumerate(seat_order(view)):
        at = SEAT_AT + r * SEAT_CHANNELS
        row = SEAT_ROWS + 4 * r
        out[at] = counts[row] / 4
        out[at + 1:at + 5] = counts[row + 1] >= _STEPS
        out[at + 5] = counts[row + 2]
        out[at + 6] = counts[row + 3] / 4
        for i, t in enumerate(recent[s]):
            out[at + 7 + i, t] = 1
        void = view.players[s].void
        if void is not None:
            v = VOID_CODES.index(void) * 9
            out[at + 7 + RECENT, v:v + 9] = 1
    out[SCALARS_AT:] = np.asarray(scalars, dtype=np.float32)[:, None]
    return out


def picture(obs: npt.NDArray[np.float32], channels: range | None = None) -> str:
    """A text picture of a planes observation: one row per channel (all, or ``channels``), ``#``
    where it is not zero, with the channel's number and name."""
    ranks = "123456789"
    lines = [f"{'':>4}  {ranks} {ranks} {ranks}", f"{'':>4}  {'m':^9} {'p':^9} {'s':^9}"]
    for ch in channels if channels is not None else range(obs.shape[0]):
        row = "".join("#" if x else "." for x in obs[ch])
        lines.append(f"{ch:>4}  {row[:9]} {row[9:18]} {row[18:]}  {CHANNEL_NAMES[ch]}")
    return "\n".join(lines)
