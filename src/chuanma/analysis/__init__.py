"""Hand analysis: win check, waits, shanten, decompositions, and their batch forms.

>>> from chuanma.tiles import parse_tiles, to_counts
>>> counts = to_counts(parse_tiles("1112345678999m"))
>>> shanten(counts), [tile_str(t) for t in waits(counts)]
(0, ['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m'])

The rules are the compiled core's (:mod:`chuanma._core`); this package is their typed facade.
Importing it builds no table and does not import NumPy: the first analysis call of a process
builds the tables (tens of milliseconds), and the batch functions (NumPy) are imported on first use.
"""

from typing import TYPE_CHECKING

from chuanma.analysis.decompose import ConcealedSet, Decomposition, decompositions, from_reading
from chuanma.analysis.hand import (
    Counts,
    is_win,
    pack_counts,
    shanten,
    shanten_seven_pairs,
    shanten_standard,
    shanten_thirteen_orphans,
    waits,
)
from chuanma.tiles import tile_str

if TYPE_CHECKING:
    from chuanma.analysis.batch import is_win_batch, shanten_batch

__all__ = [
    "ConcealedSet",
    "Counts",
    "Decomposition",
    "decompositions",
    "from_reading",
    "is_win",
    "is_win_batch",
    "pack_counts",
    "shanten",
    "shanten_batch",
    "shanten_seven_pairs",
    "shanten_standard",
    "shanten_thirteen_orphans",
    "tile_str",
    "waits",
]


def __getattr__(name: str) -> object:
    """The batch functions, imported (with NumPy) on first use."""
    if name in ("is_win_batch", "shanten_batch"):
        from chuanma.analysis import batch

        value = getattr(batch, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
