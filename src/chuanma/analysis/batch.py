"""Batch analysis over a NumPy array of hands (one row of 34 or 27 counts per hand), by the
compiled core (:mod:`chuanma._core`): the results of the single-hand functions, row by row."""

from __future__ import annotations

from typing import NoReturn

import numpy as np
import numpy.typing as npt

from chuanma import _core
from chuanma.errors import HandSizeError, TileCountError
from chuanma.tiles import SUITS

_NO_VOID = -1


def _hands(hands: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """The hands as a C-ordered ``uint8`` array; counts of another integer type are checked here
    (a ``uint8`` array's counts above 4 are refused by the core), counts of any other type refused."""
    arr = np.asarray(hands)
    if arr.ndim != 2 or arr.shape[1] not in (27, 34):
        raise ValueError(f"hands must be an array of shape (N, 34) or (N, 27), got {arr.shape}")
    if arr.dtype.kind not in "iu" and arr.size:
        raise TileCountError(f"hand counts must be integers, got an array of {arr.dtype}")
    if arr.dtype != np.uint8 and arr.size and (arr.min() < 0 or arr.max() > 4):
        raise TileCountError("hand counts must be 0-4")
    return np.ascontiguousarray(arr, np.uint8)


def _refuse_row(arr: npt.NDArray[np.uint8], i: int) -> NoReturn:
    """The error for row ``i``, which the core refused."""
    if arr[i].max() > 4:
        raise TileCountError(f"hand counts must be 0-4; hand {i} has {int(arr[i].max())}")
    if any(arr[i, s : s + 9].sum() > 14 for s in range(0, arr.shape[1], 9)):
        raise TileCountError(f"hand {i} has more than 14 tiles of one suit or of the honours")
    raise HandSizeError(f"hand {i} has {int(arr[i].sum())} tiles; shanten needs 3n+1 or 3n+2, at most 14")


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
    return np.ascontiguousarray(col)


def shanten_batch(hands: npt.ArrayLike, void: npt.ArrayLike | str | None = None) -> npt.NDArray[np.int8]:
    """Shanten of every hand (rows of counts), as :func:`chuanma.analysis.shanten` gives it.

    ``void`` is one suit letter for all hands, or an array with a suit index per hand
    (0 = m, 1 = p, 2 = s, -1 = none).
    """
    arr = _hands(hands)
    voids = _void_column(void, arr.shape[0])
    out = np.empty(arr.shape[0], np.int8)
    bad = _core.shanten_batch(arr, voids, out)
    if bad >= 0:
        _refuse_row(arr, bad)
    return out


def is_win_batch(hands: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """Win check of every hand (rows of counts), as :func:`chuanma.analysis.is_win` gives it."""
    arr = _hands(hands)
    out = np.empty(arr.shape[0], np.bool_)
    bad = _core.is_win_batch(arr, out)
    if bad >= 0:
        _refuse_row(arr, bad)
    return out
