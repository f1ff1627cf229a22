"""Batch analysis over a NumPy array of hands (one row of 34 or 27 counts per hand).

Each hand is reduced to four codes (one per suit, one for the honours) by one matrix product;
everything else is table look-ups on those codes.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from chuanma.analysis import packing as pk
from chuanma.analysis import tables as tb
from chuanma.analysis.orphans import ORPHANS
from chuanma.errors import HandSizeError, TileCountError
from chuanma.tiles import SUITS

_NO_VOID = -1
_Pair = tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]


@cache
def _field(shift: int) -> _Pair:
    """One field of the packed values (see the ``F_*`` fields), by suit code and by honour code."""
    t = tb.tables()
    suit, honor = ((st.packed >> shift & pk.FIELD).astype(np.uint8) for st in (t.suit, t.honor))
    return suit, honor


@cache
def _classes() -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    """The distance class of every suit code and of every honour code."""
    t = tb.tables()
    suit, honor = ((st.packed >> pk.F_CLASS).astype(np.int16) for st in (t.suit, t.honor))
    return suit, honor


def _weights() -> npt.NDArray[np.float32]:
    """(34, 4) matrix: counts @ weights = the codes of m, p, s and the honours (exact in float32)."""
    w = np.zeros((34, 4), np.float32)
    for s in range(3):
        w[9 * s : 9 * s + 9, s] = tb.code_weights(9)
    w[27:, 3] = tb.code_weights(7)
    return w


_W = _weights()


def _codes(hands: npt.ArrayLike) -> npt.NDArray[np.int32]:
    arr = np.asarray(hands)
    if arr.ndim != 2 or arr.shape[1] not in (27, 34):
        raise ValueError(f"hands must be an array of shape (N, 34) or (N, 27), got {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > 4):
        raise TileCountError("hand counts must be 0-4")
    codes = arr.astype(np.float32) @ _W[: arr.shape[1]]
    return codes.astype(np.int32)


def _lookup(shift: int, codes: npt.NDArray[np.int32]) -> npt.NDArray[np.int16]:
    """The sum over a hand's four parts of one field of their packed values."""
    suited, honor = _field(shift)
    total = honor[codes[:, 3]].astype(np.int16)
    for s in range(3):
        total += suited[codes[:, s]]
    return total


def _void_column(void: npt.ArrayLike | str | None, n: int) -> npt.NDArray[np.int8]:
    if void is None:
        return np.full(n, _NO_VOID, np.int8)
    if isinstance(void, str):
        if void not in SUITS or len(void) != 1:
            raise ValueError(f"void must be one of m, p, s, got {void!r}")
        return np.full(n, SUITS.index(void), np.int8)
    col = np.asarray(void, dtype=np.int8).reshape(-1)
    if col.shape[0] != n or col.min(initial=0) < _NO_VOID or col.max(initial=0) > 2:
        raise ValueError("void must hold one suit index (0 m, 1 p, 2 s, -1 none) per hand")
    return col


def shanten_batch(hands: npt.ArrayLike, void: npt.ArrayLike | str | None = None) -> npt.NDArray[np.int8]:
    """Shanten of every hand (rows of counts), as :func:`chuanma.analysis.shanten` gives it.

    ``void`` is one suit letter for all hands, or an array with a suit index per hand
    (0 = m, 1 = p, 2 = s, -1 = none).
    """
    codes = _codes(hands)
    n = _lookup(pk.F_SIZE, codes)
    bad = (n % 3 == 0) | (n > 14)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise HandSizeError(f"hand {i} has {int(n[i])} tiles; shanten needs 3n+1 or 3n+2, at most 14")
    voids = _void_column(void, codes.shape[0])
    if (voids >= 0).any():
        rows = np.flatnonzero(voids >= 0)
        codes = codes.copy()
        codes[rows, voids[rows]] = 0
    t = tb.tables()
    suit, honor = _classes()
    cls = suit[codes[:, :3]]
    joined = t.join4[t.join3[t.join2[cls[:, 0], cls[:, 1]], cls[:, 2]], honor[codes[:, 3]]]
    std = t.final[joined, n // 3].astype(np.int16)
    need = np.maximum(0, 7 - _lookup(pk.F_PAIRS, codes))
    seven = np.where(n >= 13, need + np.maximum(0, need - _lookup(pk.F_ODD, codes)), 99)
    best = np.minimum(std, seven)
    orphans = _orphans(hands, codes, n >= 13)
    if orphans is not None:
        best = np.minimum(best, np.where(voids < 0, orphans, 99))
    return (best - 1).astype(np.int8)


def _orphans(
    hands: npt.ArrayLike, codes: npt.NDArray[np.int32], full: npt.NDArray[np.bool_]
) -> npt.NDArray[np.int16] | None:
    """Tiles to add for 十三幺 (99 where the hand is not 13–14 tiles); None when no hand holds an
    honour (then none can be near it, and suited hands pay nothing for this)."""
    held = full & (codes[:, 3] > 0)
    if not held.any():
        return None
    cols = np.asarray(hands)[:, ORPHANS]
    distance = 14 - (cols > 0).sum(axis=1) - (cols > 1).any(axis=1)
    return np.where(held, distance, 99).astype(np.int16)


def is_win_batch(hands: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """Win check of every hand (rows of counts), as :func:`chuanma.analysis.is_win` gives it."""
    codes = _codes(hands)
    size = _lookup(pk.F_SIZE, codes)
    standard = _lookup(pk.F_WIN, codes) == 7
    seven = (_lookup(pk.F_EVEN, codes) == 4) & (size == 14)
    orphans = _orphans(hands, codes, size == 14)
    if orphans is not None:
        return np.asarray(standard | seven | (orphans == 0))
    return np.asarray(standard | seven)
