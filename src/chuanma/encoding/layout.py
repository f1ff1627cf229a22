"""The layouts of the two observation encodings (written by the compiled core: ``chuanma._core.Hand``'s
``encode_compact`` and ``encode_planes``): their shapes, where each fact lies, a name for each
scalar and channel, and a text picture of a planes observation.

**compact**: counts per tile kind and scalars, one flat ``float32`` vector.

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
Under 大众麻将 every row has 34 counts, the honours ``1z``–``7z`` after ``9s`` (:func:`compact_shape`:
21 × 34 + 77 = 791 numbers; the offsets above grow accordingly); chows count their three tiles
among the melds.

**planes**: channels × 27 tile kinds (``float32``), in the manner of Suphx and mjx.

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

``PLANES_SHAPE`` is (144, 27); under 大众麻将 there are 34 columns, the honours ``1z``–``7z`` after
``9s`` (:func:`planes_shape`: (144, 34)).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from chuanma.encoding.common import DIRECTION_CODES, KINDS, PHASES, RECENT

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
SEATS = ("self", "next", "opposite", "previous")
"""The relative seats' names, in order."""
SCALAR_NAMES: tuple[str, ...] = (
    *(f"{seat} {what}" for seat in SEATS for what in (
        "tiles held", "hidden kongs", "wins", "out", "left", "locked", "void m", "void p", "void s",
        "void not known", "void chosen", "exchange chosen", "score")),
    *(f"phase {p}" for p in PHASES), *(f"claim from {seat}" for seat in SEATS), "robbing",
    *(f"dealer {seat}" for seat in SEATS), *(f"on turn {seat}" for seat in SEATS), "wall",
    *(f"direction {d}" for d in DIRECTION_CODES), "xueliu",
)
"""A short name for each scalar, in order."""


def compact_shape(kinds: int = KINDS) -> tuple[int]:
    """The shape of an observation with ``kinds`` tile kinds (:func:`~chuanma.encoding.common.kinds_of`)."""
    return (ROWS * kinds + SCALARS,)


COMPACT_SHAPE = compact_shape()

SEAT_AT = 11
SEAT_CHANNELS = 8 + RECENT
SCALARS_AT = SEAT_AT + 4 * SEAT_CHANNELS
CHANNELS = SCALARS_AT + SCALARS


def planes_shape(kinds: int = KINDS) -> tuple[int, int]:
    """The shape of an observation with ``kinds`` tile kinds (:func:`~chuanma.encoding.common.kinds_of`)."""
    return (CHANNELS, kinds)


PLANES_SHAPE = planes_shape()
CHANNEL_NAMES: tuple[str, ...] = (
    *(f"hand >={k}" for k in range(1, 5)), "drawn", "exchange choice", "claim tile",
    *(f"unseen >={k}" for k in range(1, 5)),
    *(name for seat in SEATS for name in (
        f"{seat} melds", *(f"{seat} river >={k}" for k in range(1, 5)), f"{seat} win pile", f"{seat} shown hand",
        *(f"{seat} discard -{k}" for k in range(1, RECENT + 1)), f"{seat} void")),
    *SCALAR_NAMES,
)
"""A short name for each channel, in order."""


def picture(obs: npt.NDArray[np.float32], channels: range | None = None) -> str:
    """A text picture of a planes observation: one row per channel (all, or ``channels``), ``#``
    where it is not zero, with the channel's number and name."""
    ranks = "123456789"
    lines = [f"{'':>4}  {ranks} {ranks} {ranks}", f"{'':>4}  {'m':^9} {'p':^9} {'s':^9}"]
    for ch in channels if channels is not None else range(obs.shape[0]):
        row = "".join("#" if x else "." for x in obs[ch])
        lines.append(f"{ch:>4}  {row[:9]} {row[9:18]} {row[18:]}  {CHANNEL_NAMES[ch]}")
    return "\n".join(lines)
