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

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from chuanma.encoding.common import KINDS, VOID_CODES, kinds_of
from chuanma.encoding.compact import CLAIM, DRAWN, EXCHANGE, HAND, ROWS, SCALAR_NAMES, SCALARS, SEAT_ROWS, UNSEEN
from chuanma.encoding.compact import encode as compact_encode
from chuanma.encoding.tracker import Tracker, encode_compact
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
_VOID_AT = {v: 9 * i for i, v in enumerate(VOID_CODES)}
"""The first column of each void suit."""
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


Recent = tuple[int, Sequence[Sequence[int]], Sequence[str | None]]
"""A viewer's seat, each seat's discards of the hand in order (claimed ones included) and the
voids it sees."""


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


def _write(flat: npt.NDArray[np.float32], recents: Sequence[Recent],
           out: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Write ``len(out)`` planes observations from their compact ones (``flat``) and, for each,
    the viewer's seat, each seat's discards in order and the voids it sees."""
    b, _, k = out.shape
    counts = flat[:, :ROWS * k].reshape(b, ROWS, k)
    at = np.take(counts.astype(np.intp), _ROW_OF, axis=1)
    at += _AT
    np.take(_TABLE, at, out=out[:, :SCALARS_AT], mode="clip")
    out[:, SCALARS_AT:] = flat[:, ROWS * k:, None]
    ones: list[int] = []  # flat indices into ``out`` of the recent-discard and void ones
    size = CHANNELS * k
    for i, (me, discarded, voids) in enumerate(recents):
        at0 = i * size + SEAT_AT * k
        for r in range(4):
            s = (me + r) % 4
            channel = at0 + (r * SEAT_CHANNELS + 7) * k
            for t in reversed(discarded[s][-RECENT:]):  # the seat's last discards, most recent first
                ones.append(channel + t)
                channel += k
            void = voids[s]
            if void is not None:
                v = at0 + (r * SEAT_CHANNELS + 7 + RECENT) * k + _VOID_AT[void]
                ones.extend(range(v, v + 9))
    out.reshape(-1)[ones] = 1
    return out


def encode_tracked(seats: Sequence[tuple[Tracker, int, bool]], out: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The planes observations of ``seats`` (tracker, seat, whether the seat owes a decision; all
    under the same rules), written into the rows of ``out`` (``float32``, of shape
    ``(len(seats), *shape(kinds))``) in one NumPy pass."""
    k = out.shape[2]
    flat = encode_compact(seats, np.empty((len(seats), ROWS * k + SCALARS), dtype=np.float32))
    recents = [(seat, tracker.discarded, tracker.voids_seen(seat)) for tracker, seat, _ in seats]
    return _write(flat, recents, out)


def encode(view: SeatView, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
    """The planes observation of ``view`` (layout in the module docstring), written into ``out``
    (a ``float32`` array of :func:`shape` for the view's rules) when it is given."""
    me = view.seat
    assert me is not None, "an observation is always a seat's"
    k = kinds_of(view.rules)
    if out is None:
        out = np.empty(shape(k), dtype=np.float32)
    flat = compact_encode(view)[None]
    discarded: list[list[int]] = [[], [], [], []]
    for s, t in view.discard_log:
        discarded[s].append(t)
    _write(flat, [(me, discarded, view.voids)], out[None])
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
