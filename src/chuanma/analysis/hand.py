"""Single-hand analysis: win check, waits and shanten, by table look-up.

Every function takes *counts*: the copies held of each of the 34 (or 27) tile kinds
(``chuanma.tiles.to_counts``), as a sequence of ints or, fastest, as ``bytes``
(:func:`pack_counts`). Only concealed tiles are counted; declared melds are implied by the hand
size (3n+1 or 3n+2 concealed tiles need n sets and a pair).

Counts must be 0–4 each: other values raise :class:`TileCountError`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from chuanma.analysis import tables as tb
from chuanma.errors import HandSizeError, TileCountError
from chuanma.melds import Meld
from chuanma.tiles import SUITS, Tile, format_tiles

Counts = bytes | Sequence[int]
_MAX_TILES = 14


def _dict(st: tb.SuitTables, win_only: bool = False) -> dict[bytes, int]:
    """Suit vector (as bytes) → packed value, for vectors of at most 14 tiles.

    With ``win_only``, only vectors that are complete or all even are kept, with just the
    win, even and size fields: a small table that stays in cache.
    """
    vectors = np.indices((5,) * st.kinds).reshape(st.kinds, -1)
    keep = vectors.sum(axis=0) <= _MAX_TILES
    values = st.packed
    if win_only:
        values = values & ((1 << tb.F_PAIRS) - 1)
        keep &= (((values >> tb.F_WIN) & tb.FIELD) != 0) | (((values >> tb.F_EVEN) & tb.FIELD) != 0)
    rows = np.ascontiguousarray(vectors[:, keep].T.astype(np.uint8))
    raw = rows.tobytes()
    k = st.kinds
    keys = [raw[i : i + k] for i in range(0, len(raw), k)]
    return dict(zip(keys, values[keep].tolist(), strict=True))


_TABLES = tb.tables()
_SUIT = _dict(_TABLES.suit)
_HONOR = _dict(_TABLES.honor)
_HONOR[b""] = _HONOR[bytes(7)]
_WIN = _dict(_TABLES.suit, win_only=True)
_WIN_HONOR = _dict(_TABLES.honor, win_only=True)
_WIN_HONOR[b""] = _WIN_HONOR[bytes(7)]
_NOT_WIN = 1 << 30
_EMPTY = _SUIT[bytes(9)]
_N = _TABLES.suit.class_dist.shape[0]
_NZ = _TABLES.honor.class_dist.shape[0]
# class of three suits, then (with honours and the number of sets) the distance
_J3 = bytes(_TABLES.join3[_TABLES.join2].reshape(-1).astype(np.uint8))
_DIST = bytes(_TABLES.final[_TABLES.join4].reshape(-1).astype(np.uint8))
_SETS = tb.MAX_SETS + 1
_F = tb.FIELD
_C, _S, _P, _O = tb.F_CLASS, tb.F_SIZE, tb.F_PAIRS, tb.F_ODD
_W0, _W1 = tb.F_WAIT0, tb.F_WAIT1
_SEVEN_MASK = (_F << tb.F_EVEN) | (_F << _S)
_SEVEN_VALUE = (4 << tb.F_EVEN) | (_MAX_TILES << _S)
_VALID = bytes(range(5))


def pack_counts(counts: Sequence[int]) -> bytes:
    """Counts as ``bytes``, checked: the fastest input of this module's functions.

    ``bytes`` passed to the functions are taken as made by this function and not re-checked.
    """
    try:
        packed = bytes(counts)
    except (ValueError, TypeError):
        raise TileCountError(_bad_counts(counts)) from None
    if packed.translate(None, _VALID) or len(packed) not in (27, 34):
        raise TileCountError(_bad_counts(counts))
    return packed


def _bad_counts(counts: Counts) -> str:
    if len(counts) not in (27, 34):
        return f"counts must list 27 or 34 tiles, got {len(counts)}"
    bad = [i for i, c in enumerate(counts) if not 0 <= c <= 4]
    if bad:
        return f"counts must be 0-4; tile {format_tiles([bad[0]])} has {counts[bad[0]]}"
    return f"hand has more than {_MAX_TILES} tiles of one suit"


def _parts(counts: Counts) -> tuple[int, int, int, int]:
    try:
        k = counts if type(counts) is bytes else bytes(counts)
        return _SUIT[k[:9]], _SUIT[k[9:18]], _SUIT[k[18:27]], _HONOR[k[27:]]
    except (KeyError, ValueError):
        raise TileCountError(_bad_counts(counts)) from None


def is_win(counts: Counts) -> bool:
    """True when the concealed tiles are n sets and a pair, or seven pairs (14 tiles).

    Four identical tiles count as two pairs of a seven-pairs hand.
    """
    k = counts if type(counts) is bytes else pack_counts(counts)
    a = _WIN.get(k[:9])
    if a is None:
        return False
    b = _WIN.get(k[9:18])
    if b is None:
        return False
    c = _WIN.get(k[18:27])
    if c is None:
        return False
    s = a + b + c + _WIN_HONOR.get(k[27:], _NOT_WIN)
    return (s & _F) == 7 or (s & _SEVEN_MASK) == _SEVEN_VALUE


def _hand_size_error(n: int, remainder: tuple[int, ...], what: str) -> HandSizeError:
    sizes = ", ".join(str(s) for s in range(1, _MAX_TILES + 1) if s % 3 in remainder)
    return HandSizeError(f"{what} needs {sizes} concealed tiles, got {n}")


def _void_index(void: str) -> int:
    if len(void) != 1 or void not in SUITS:
        raise ValueError(f"void must be one of m, p, s, got {void!r}")
    return SUITS.index(void)


def _voided(counts: Counts, void: str | None) -> tuple[int, int, int, int, int]:
    """The four packed parts (the void suit emptied) and the hand size, checked."""
    a, b, c, z = _parts(counts)
    n = ((a + b + c + z) >> _S) & _F
    if n % 3 == 0 or n > _MAX_TILES:
        raise _hand_size_error(n, (1, 2), "shanten")
    if void is not None:
        i = _void_index(void)
        a, b, c = (_EMPTY if i == 0 else a), (_EMPTY if i == 1 else b), (_EMPTY if i == 2 else c)
    return a, b, c, z, n


def _standard(a: int, b: int, c: int, z: int, n: int) -> int:
    """Tiles to add before the hand holds its n // 3 sets and a pair."""
    d: int = _DIST[(_J3[((a >> _C) * _N + (b >> _C)) * _N + (c >> _C)] * _NZ + (z >> _C)) * _SETS + n // 3]
    return d


def shanten(counts: Counts, void: str | None = None) -> int:
    """Tiles away from ready: -1 complete, 0 ready, 1 one tile from ready, …

    The best of the sets-and-pair form and seven pairs (13–14 tiles, no melds). With ``void``
    (``m``, ``p`` or ``s``) the tiles of that suit are useless: each must be replaced.
    """
    return _from_parts(*_voided(counts, void))


def _from_parts(a: int, b: int, c: int, z: int, n: int) -> int:
    """Shanten from the packed parts (a void suit already emptied) and the hand size."""
    std = _standard(a, b, c, z, n)
    if n < 13:
        return std - 1
    s = a + b + c + z
    need = 7 - ((s >> _P) & _F)
    if need <= 0:
        return -1
    seven = need + max(0, need - ((s >> _O) & _F))
    return (std if std < seven else seven) - 1


def shanten_standard(counts: Counts, void: str | None = None) -> int:
    """Shanten of the sets-and-pair form only."""
    return _standard(*_voided(counts, void)) - 1


def shanten_seven_pairs(counts: Counts, void: str | None = None) -> int:
    """Shanten of the seven-pairs form (13 or 14 tiles); four identical tiles are two pairs."""
    parts = list(_parts(counts))
    n = (sum(parts) >> _S) & _F
    if n not in (13, 14):
        raise HandSizeError(f"seven pairs needs 13 or 14 concealed tiles, got {n}")
    if void is not None:
        parts[_void_index(void)] = _EMPTY
    s = sum(parts)
    need = max(0, 7 - ((s >> _P) & _F))
    return need + max(0, need - ((s >> _O) & _F)) - 1


def waits(counts: Counts, melds: Sequence[Meld] = (), void: str | None = None) -> list[Tile]:
    """The tiles that would complete this 3n+1-tile hand, ascending.

    A tile of which the hand (concealed and melds) already holds all four is not a wait. With
    ``void``, a hand that still holds a void tile waits on nothing.
    """
    parts = _parts(counts)
    a, b, c, z = parts
    s = a + b + c + z
    n = (s >> _S) & _F
    if n % 3 != 1 or n > _MAX_TILES:
        raise _hand_size_error(n, (1,), "waits")
    if void is not None and (parts[_void_index(void)] >> _S) & _F:
        return []
    total = s & _F
    mask = 0
    for i in range(4):
        p = parts[i]
        others = total - (p & _F)
        if others == 3:
            mask |= ((p >> _W1) & 511) << (9 * i)
        elif others == 6:
            mask |= ((p >> _W0) & 511) << (9 * i)
    if n == 13 and (s >> _P) & _F == 6:
        for t, count in enumerate(counts):
            if count & 1:
                mask |= 1 << t
    for meld in melds:
        tiles = meld.tiles
        for t in set(tiles):
            if tiles.count(t) + counts[t] >= 4:
                mask &= ~(1 << t)
    out: list[Tile] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
