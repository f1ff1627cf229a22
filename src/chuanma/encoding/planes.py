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
from chuanma.encoding.compact import CLAIM, DRAWN, HAND, ROWS, SCALAR_NAMES, SCALARS, SEAT_ROWS, UNSEEN
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
_STEPS = np.arange(1, 5, dtype=np.uint8)[:, None]
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


Recent = tuple[int, Sequence[tuple[int, int]], Sequence[str | None]]
"""A viewer's seat, the discards of the hand in order (seat, tile) and the voids it sees."""


def _write(flat: npt.NDArray[np.float32], recents: Sequence[Recent],
           out: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Write ``len(out)`` planes observations from their compact ones (``flat``) and, for each,
    the viewer's seat, the discards of the hand in order and the voids it sees."""
    b, _, k = out.shape
    counts = flat[:, :ROWS * k].reshape(b, ROWS, k)
    out[...] = 0
    np.greater_equal(counts[:, HAND, None], _STEPS, out=out[:, 0:4])
    out[:, 4:7] = counts[:, DRAWN:CLAIM + 1]
    np.greater_equal(counts[:, UNSEEN, None], _STEPS, out=out[:, 7:11])
    by_seat = counts[:, SEAT_ROWS:].reshape(b, 4, 4, k)  # relative seat; melds, river, win pile, shown hand
    seats = out[:, SEAT_AT:SCALARS_AT].reshape(b, 4, SEAT_CHANNELS, k)
    np.multiply(by_seat[:, :, 0], 0.25, out=seats[:, :, 0])
    np.greater_equal(by_seat[:, :, 1, None], _STEPS, out=seats[:, :, 1:5])
    seats[:, :, 5] = by_seat[:, :, 2]
    np.multiply(by_seat[:, :, 3], 0.25, out=seats[:, :, 6])
    ones: list[int] = []  # flat indices into ``out`` of the recent-discard and void ones
    size = CHANNELS * k
    for i, (me, log, voids) in enumerate(recents):
        at = i * size + SEAT_AT * k
        recent = [0, 0, 0, 0]
        left = 4 * RECENT
        for s, t in reversed(log):  # each seat's last discards, most recent first
            r = (s - me) % 4
            n = recent[r]
            if n < RECENT:
                ones.append(at + (r * SEAT_CHANNELS + 7 + n) * k + t)
                recent[r] = n + 1
                left -= 1
                if not left:
                    break
        for r in range(4):
            void = voids[(me + r) % 4]
            if void is not None:
                v = at + (r * SEAT_CHANNELS + 7 + RECENT) * k + _VOID_AT[void]
                ones.extend(range(v, v + 9))
    out.reshape(-1)[ones] = 1
    out[:, SCALARS_AT:] = flat[:, ROWS * k:, None]
    return out


def encode_tracked(seats: Sequence[tuple[Tracker, int, bool]], out: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The planes observations of ``seats`` (tracker, seat, whether the seat owes a decision; all
    under the same rules), written into the rows of ``out`` (``float32``, of shape
    ``(len(seats), *shape(kinds))``) in one NumPy pass."""
    k = out.shape[2]
    flat = encode_compact(seats, np.empty((len(seats), ROWS * k + SCALARS), dtype=np.float32))
    recents = [(seat, tracker.log, tracker.voids_seen(seat)) for tracker, seat, _ in seats]
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
    _write(flat, [(me, view.discard_log, view.voids)], out[None])
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
