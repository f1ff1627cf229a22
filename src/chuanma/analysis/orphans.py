"""十三幺 (thirteen orphans), the special hand of 大众麻将: one each of the 1s and 9s of the three
suits and the seven honours, plus a second copy of any of them (14 concealed tiles, no melds).

It needs all seven honours, so it cannot occur with the 108 tiles of Sichuan mahjong. Its rules
(the win, its shanten, waits and reading) are the compiled core's (:mod:`chuanma.analysis.hand`,
:mod:`chuanma.analysis.decompose`).
"""

from __future__ import annotations

from chuanma.tiles import NUM_KINDS, NUM_SUITED, Tile

ORPHANS: tuple[Tile, ...] = (0, 8, 9, 17, 18, 26, *range(NUM_SUITED, NUM_KINDS))
"""The thirteen tile kinds of the hand: 1m 9m 1p 9p 1s 9s and 1z–7z."""
