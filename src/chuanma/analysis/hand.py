"""Single-hand analysis: win check, waits and shanten, by table look-up.

Every function takes *counts*: the copies held of each of the 34 (or 27) tile kinds
(``chuanma.tiles.to_counts``), as a sequence of ints or, fastest, as ``bytes``
(:func:`pack_counts`). Only concealed tiles are counted; declared melds are implied by the hand
size (3n+1 or 3n+2 concealed tiles need n sets and a pair).

Counts must be 0–4 each: other values raise :class:`TileCountError`.
"""

from __future__ import annotations

from collections.abc import Sequence

from chuanma.analysis import lookup
from chuanma.analysis import packing as pk
from chuanma.analysis.lookup import COUNT_VALUES, part_value, shanten_of_parts, standard_distance
from chuanma.analysis.orphans import is_thirteen_orphans, thirteen_orphans_distance, thirteen_orphans_waits
from chuanma.analysis.packing import MAX_TILES as _MAX_TILES
from chuanma.errors import HandSizeError, TileCountError
from chuanma.melds import Meld
from chuanma.tiles import NUM_KINDS, SUITS, Tile, format_tiles

Counts = bytes | Sequence[int]

# Each part of a hand seen so far (nine suit counts, or seven or no honour counts, as bytes) →
# its packed value; filled by _learn on a miss, which also loads the tables on the first call.
_SUIT: dict[bytes, int] = {}
_HONOR: dict[bytes, int] = {}
# each part a winning hand can hold → its win, even and size fields, filled on the first win check
# (_win_parts); a suit part not listed is in no winning hand, an honour part not listed is _NOT_WIN
_WIN: dict[bytes, int] = {}
_WIN_HONOR: dict[bytes, int] = {}
_NOT_WIN = 1 << 30
# a suit part that 十三幺 can hold (its 1 and 9, one of them twice) is listed in _WIN as this, so that a
# hand of three such parts reaches the end of the win check (and no other hand pays for 十三幺)
_ORPHAN_SUIT = 1 << 60
_ORPHAN_SHAPES = (bytes([1, 0, 0, 0, 0, 0, 0, 0, 1]), bytes([2, 0, 0, 0, 0, 0, 0, 0, 1]),
                  bytes([1, 0, 0, 0, 0, 0, 0, 0, 2]))
_F = pk.FIELD
_S, _P, _O = pk.F_SIZE, pk.F_PAIRS, pk.F_ODD
_W0, _W1 = pk.F_WAIT0, pk.F_WAIT1
_SEVEN_MASK = (_F << pk.F_EVEN) | (_F << _S)
_SEVEN_VALUE = (4 << pk.F_EVEN) | (_MAX_TILES << _S)


def _learn(k: bytes) -> bool:
    """Remember the four parts of the counts ``k``; False (remembering nothing more) at a bad part."""
    lookup.load()
    for i, part in enumerate((k[:9], k[9:18], k[18:27], k[27:])):
        honor = i == 3
        if part in (_HONOR if honor else _SUIT):
            continue
        value = part_value(part, honor)
        if value is None:
            return False
        (_HONOR if honor else _SUIT)[part] = value
    return True


def _win_parts() -> None:
    """Fill ``_WIN_HONOR``, then ``_WIN`` in one update, from the tables' winning parts (once, a few
    milliseconds): a thread that finds ``_WIN`` filled finds both whole."""
    honours = lookup.win_parts(honor=True)
    honours[b""] = honours[bytes(7)]  # 27-kind counts: no honours
    _WIN_HONOR.update(honours)
    suits = lookup.win_parts(honor=False)
    suits.update(dict.fromkeys(_ORPHAN_SHAPES, _ORPHAN_SUIT))
    _WIN.update(suits)


def pack_counts(counts: Sequence[int]) -> bytes:
    """Counts as ``bytes``, checked: the fastest input of this module's functions.

    ``bytes`` passed to the functions are taken as made by this function and not re-checked.
    """
    try:
        packed = bytes(counts)
    except (ValueError, TypeError):
        raise TileCountError(_bad_counts(counts)) from None
    if packed.translate(None, COUNT_VALUES) or len(packed) not in (27, 34):
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
    except ValueError:
        raise TileCountError(_bad_counts(counts)) from None
    except KeyError:
        if not _learn(k):
            raise TileCountError(_bad_counts(counts)) from None
    return _parts(k)


def is_win(counts: Counts) -> bool:
    """True when the concealed tiles are n sets and a pair, or seven pairs (14 tiles), or 十三幺.

    Four identical tiles count as two pairs of a seven-pairs hand.
    """
    k = counts if type(counts) is bytes else pack_counts(counts)
    if not _WIN:
        _win_parts()
    win = _WIN.get
    a = win(k[:9])
    if a is None:
        return False
    b = win(k[9:18])
    if b is None:
        return False
    c = win(k[18:27])
    if c is None:
        return False
    s = a + b + c + _WIN_HONOR.get(k[27:], _NOT_WIN)
    if s >= _ORPHAN_SUIT:
        return len(k) == NUM_KINDS and is_thirteen_orphans(k)
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
        e = lookup.EMPTY
        a, b, c = (e if i == 0 else a), (e if i == 1 else b), (e if i == 2 else c)
    return a, b, c, z, n


def shanten(counts: Counts, void: str | None = None) -> int:
    """Tiles away from ready: -1 complete, 0 ready, 1 one tile from ready, …

    The best of the sets-and-pair form, seven pairs and 十三幺 (these two: 13–14 tiles, no
    melds). With ``void`` (``m``, ``p`` or ``s``) the tiles of that suit are useless: each must be
    replaced (so 十三幺, which needs that suit's 1 and 9, is out of reach).
    """
    a, b, c, z, n = _voided(counts, void)
    sh = shanten_of_parts(a, b, c, z, n)
    # 十三幺 holds at most six suited kinds and as many honour kinds as honours: its shanten is at
    # least 6 minus the honours held, so only a hand holding honours can find it lower
    if n >= 13 and void is None and 6 - ((z >> _S) & _F) < sh:
        orphans = thirteen_orphans_distance(counts) - 1
        return orphans if orphans < sh else sh
    return sh


def shanten_standard(counts: Counts, void: str | None = None) -> int:
    """Shanten of the sets-and-pair form only."""
    return standard_distance(*_voided(counts, void)) - 1


def shanten_seven_pairs(counts: Counts, void: str | None = None) -> int:
    """Shanten of the seven-pairs form (13 or 14 tiles); four identical tiles are two pairs."""
    parts = list(_parts(counts))
    n = (sum(parts) >> _S) & _F
    if n not in (13, 14):
        raise HandSizeError(f"seven pairs needs 13 or 14 concealed tiles, got {n}")
    if void is not None:
        parts[_void_index(void)] = lookup.EMPTY
    s = sum(parts)
    need = max(0, 7 - ((s >> _P) & _F))
    return need + max(0, need - ((s >> _O) & _F)) - 1


def shanten_thirteen_orphans(counts: Counts) -> int:
    """Shanten of the 十三幺 form (13 or 14 concealed tiles): 13 minus the orphan kinds held,
    minus one if one of them is held twice."""
    n = (sum(_parts(counts)) >> _S) & _F
    if n not in (13, 14):
        raise HandSizeError(f"thirteen orphans needs 13 or 14 concealed tiles, got {n}")
    return thirteen_orphans_distance(counts) - 1


def waits(counts: Counts, melds: Sequence[Meld] = (), void: str | None = None) -> list[Tile]:
    """The tiles that would complete this 3n+1-tile hand (十三幺 included), ascending.

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
    if n == 13 and (z >> _S) & _F:
        for t in thirteen_orphans_waits(counts):
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
