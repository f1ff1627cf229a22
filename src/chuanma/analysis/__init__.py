"""Hand analysis: win check, waits, shanten, decompositions, and their batch forms.

>>> from chuanma.tiles import parse_tiles, to_counts
>>> counts = to_counts(parse_tiles("1112345678999m"))
>>> shanten(counts), [tile_str(t) for t in waits(counts)]
(0, ['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m'])
"""

from chuanma.analysis.batch import is_win_batch, shanten_batch
from chuanma.analysis.decompose import ConcealedSet, Decomposition, decompositions
from chuanma.analysis.hand import (
    Counts,
    is_win,
    pack_counts,
    shanten,
    shanten_seven_pairs,
    shanten_standard,
    waits,
)
from chuanma.tiles import tile_str

__all__ = [
    "ConcealedSet",
    "Counts",
    "Decomposition",
    "decompositions",
    "is_win",
    "is_win_batch",
    "pack_counts",
    "shanten",
    "shanten_batch",
    "shanten_seven_pairs",
    "shanten_standard",
    "tile_str",
    "waits",
]
