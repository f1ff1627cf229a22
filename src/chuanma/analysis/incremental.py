"""Incremental shanten: one hand and its many one-tile changes (a bot's look-ahead).

A player deciding a discard asks for the shanten of its hand minus each discard, and of each of
those plus each tile that could be drawn: dozens of hands that differ from one hand in one or
two suits. :class:`HandEval` looks each part (the three suits and the honours) up once in the
analysis module's tables (by its base-5 code) and combines the parts, so a changed hand costs one
or two indexings instead of a full :func:`chuanma.analysis.shanten` call. Results are exactly
``shanten(counts, void)`` (tested), 十三幺 included: it is only counted for hands that hold an
honour, so Sichuan hands (27 kinds, or 34 with no honour) pay nothing for it.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import cache
from itertools import compress
from operator import mul

from chuanma.analysis import lookup
from chuanma.analysis import packing as pk
from chuanma.analysis.hand import pack_counts
from chuanma.analysis.lookup import shanten_of_parts
from chuanma.analysis.orphans import ORPHANS, thirteen_orphans_distance
from chuanma.errors import HandSizeError
from chuanma.tiles import NUM_KINDS, NUM_SUITED, SUITS, Tile

_C, _F, _P, _O = pk.F_CLASS, pk.FIELD, pk.F_PAIRS, pk.F_ODD
_SETS = pk.MAX_SETS + 1
_HONOURS = 5**9
"""Where the honour vectors' values start in :data:`_PACKED` (after the 5^9 suit vectors)."""
_PACKED = array("q")
"""Every suit vector's packed value by its base-5 code (rank 1 first), then every honour vector's
(code + :data:`_HONOURS`); filled by :func:`load`."""


@cache
def load() -> None:
    """Load the tables the evaluators (and the single-hand functions) index: once per process,
    on the first evaluator, or beforehand so that forked worker processes inherit them.

    The tables module (and NumPy with it) is imported here, not with this module: importing the
    command line, the engine or the bots costs no NumPy."""
    from chuanma.analysis.tables import tables

    lookup.load()
    t = tables()
    _PACKED.frombytes(t.suit.packed.data.cast("B"))  # a copy: an array indexes faster than a view
    _PACKED.frombytes(t.honor.packed.data.cast("B"))


_RANK_WEIGHT = [5 ** (8 - r) for r in range(9)]
_BIT = [1 << t for t in range(NUM_KINDS)]
_WEIGHT = [_RANK_WEIGHT[t % 9] for t in range(27)] + [5 ** (33 - t) for t in range(27, 34)]
_RANKS = [[tuple((r, _WEIGHT[lo + r]) for r in range(kinds) if bits >> r & 1) for bits in range(1 << kinds)]
          for lo, kinds in ((0, 9), (NUM_SUITED, NUM_KINDS - NUM_SUITED))]
"""For a suit (``[0]``) and the honours (``[1]``), by a mask of ranks: each rank in it, and the
weight of one tile of that rank in the part's code."""
# bits of the tiles that may be shifted by one or two ranks up (U) or down (D) within their suit
_U1 = sum(1 << t for t in range(27) if t % 9 <= 7)
_U2 = sum(1 << t for t in range(27) if t % 9 <= 6)
_D1 = sum(1 << t for t in range(27) if t % 9 >= 1)
_D2 = sum(1 << t for t in range(27) if t % 9 >= 2)
_SUIT_BITS = [511 << (9 * s) for s in range(3)]
_ORPHAN_BITS = sum(1 << t for t in ORPHANS)
_SUITED = (1 << NUM_SUITED) - 1
_USEFUL: dict[tuple[int, int, int, int, int, int, int], tuple[Tile, ...]] = {}
_USEFUL_LIMIT = 100_000


class HandEval:
    """Shanten of ``counts`` (27 suited kinds, or 34 with the honours) and of its one-tile
    changes, with ``void``.

    Each part is kept as its base-5 code, so a changed part is one addition and one look-up
    in the tables (loaded, with NumPy, by the first evaluator of a process).
    """

    __slots__ = ("codes", "counts", "held", "honours", "n", "parts", "vi")

    def __init__(self, counts: Sequence[int], void: str | None) -> None:
        load()
        codes = [sum(map(mul, counts[s : s + 9], _RANK_WEIGHT)) for s in range(0, 27, 9)]
        honours = sum(counts[NUM_SUITED:])
        codes.append(_HONOURS + sum(map(mul, counts[NUM_SUITED:], _WEIGHT[NUM_SUITED:])))
        self.codes = codes
        self.vi = vi = SUITS.index(void) if void is not None else -1
        self.parts = [lookup.EMPTY if s == vi else _PACKED[codes[s]] for s in range(4)]
        self.n = sum(counts)
        self.honours = honours
        # 十三幺 is looked at only for a hand holding an honour with no void (it needs every suit's
        # 1 and 9); with one honour at most it never beats seven pairs, so a hand without honours
        # that draws one need not be looked at either
        self.counts = [*counts, *[0] * (NUM_KINDS - len(counts))] if honours and vi < 0 else None
        self.held = sum(compress(_BIT, counts))

    def _orphans(self, counts: list[int], sh: int, n: int, out: Tile = -1, into: Tile = -1) -> int:
        """``sh`` or, if lower, the 十三幺 shanten of ``counts`` (this hand's) less ``out`` plus
        ``into``, of ``n`` tiles."""
        if n < 13:
            return sh
        work = counts.copy()
        if out >= 0:
            work[out] -= 1
        if into >= 0:
            work[into] += 1
        orphans = thirteen_orphans_distance(work) - 1
        return orphans if orphans < sh else sh

    def shanten(self) -> int:
        a, b, c, z = self.parts
        sh = shanten_of_parts(a, b, c, z, self.n)
        counts = self.counts
        return sh if counts is None else self._orphans(counts, sh, self.n)

    def _delta(self, p: list[int], s: int, d: int) -> None:
        if s != self.vi:
            p[s] = _PACKED[self.codes[s] + d]

    def without(self, t: Tile) -> int:
        """Shanten after discarding ``t``."""
        p = self.parts.copy()
        self._delta(p, t // 9, -_WEIGHT[t])
        sh = shanten_of_parts(p[0], p[1], p[2], p[3], self.n - 1)
        counts = self.counts
        return sh if counts is None else self._orphans(counts, sh, self.n - 1, t)

    def swap(self, t: Tile, u: Tile) -> int:
        """Shanten after discarding ``t`` and drawing ``u``."""
        st, su = t // 9, u // 9
        p = self.parts.copy()
        if st == su:
            self._delta(p, st, _WEIGHT[u] - _WEIGHT[t])
        else:
            self._delta(p, st, -_WEIGHT[t])
            self._delta(p, su, _WEIGHT[u])
        sh = shanten_of_parts(p[0], p[1], p[2], p[3], self.n)
        counts = self.counts
        return sh if counts is None else self._orphans(counts, sh, self.n, t, u)

    def with_(self, u: Tile) -> int:
        """Shanten after drawing ``u``."""
        p = self.parts.copy()
        self._delta(p, u // 9, _WEIGHT[u])
        sh = shanten_of_parts(p[0], p[1], p[2], p[3], self.n + 1)
        counts = self.counts
        return sh if counts is None else self._orphans(counts, sh, self.n + 1, into=u)

    def useful(self, counts: Sequence[int], t: Tile, sh: int, unseen: Sequence[int]) -> int:
        """Unseen copies of the tiles that, drawn after discarding ``t`` from ``counts`` (the
        hand of this evaluator), lower the shanten ``sh`` (that of the hand without ``t``)."""
        return sum(unseen[u] for u in self.useful_tiles(counts, t, sh))

    def useful_tiles(self, counts: Sequence[int], t: Tile, sh: int) -> tuple[Tile, ...]:
        """The tiles that, drawn after discarding ``t``, lower the shanten ``sh``: only tiles
        within two ranks of a held tile (an honour: the same honour) can, unless the hand holds
        tiles of its void suit or a tile four times (then any other tile can stand in for them) or
        is near 十三幺 (then any orphan can). An honour the hand does not hold is drawn only in a
        hand holding some honour: 34 counts with none may be a Sichuan hand's, which has none to
        draw. Remembered by hand (a hand recurs from one decision to the next)."""
        codes = self.codes
        st = t // 9
        wt = _WEIGHT[t]
        c0, c1, c2, cz = codes
        if st == 0:
            c0 -= wt
        elif st == 1:
            c1 -= wt
        elif st == 2:
            c2 -= wt
        else:
            cz -= wt
        vi = self.vi
        key = (c0, c1, c2, cz, vi, sh, len(counts))  # 27 or 34 kinds: honours may be drawn or not
        found = _USEFUL.get(key)
        if found is not None:
            return found
        held = self.held
        if counts[t] == 1:
            held &= ~(1 << t)
        if vi >= 0 and held & _SUIT_BITS[vi]:
            # the void-suit tiles held are dead weight: any other tile drawn can take their place
            # (a void exists only in Sichuan mahjong: any other suited tile)
            near = _SUITED & ~_SUIT_BITS[vi]
        elif 4 in counts and (counts[t] != 4 or counts.count(4) > 1):
            # a tile held four times is a set and a tile no copy can pair: any tile drawn that can
            # pair (or join a set) may take that lone copy's place, near a held tile or not; the
            # honours only in a hand holding one (counts without honours may be a Sichuan hand's)
            near = _SUITED if self.honours - (st == 3) <= 0 else (1 << len(counts)) - 1
            if vi >= 0:
                near &= ~_SUIT_BITS[vi]
        else:
            near = held | (held & _U1) << 1 | (held & _U2) << 2 | (held & _D1) >> 1 | (held & _D2) >> 2
            if vi >= 0:
                near &= ~_SUIT_BITS[vi]
        n = self.n
        # 十三幺: with one honour at most after the draw it never beats seven pairs (see __init__)
        orphan_kinds = orphan_pair = -1
        if self.counts is not None and n >= 13 and self.honours - (st == 3):
            work = list(counts)
            work[t] -= 1
            orphan_kinds = sum(1 for o in ORPHANS if work[o])
            orphan_pair = int(any(work[o] > 1 for o in ORPHANS))
            near |= _ORPHAN_BITS
        if 4 in counts:  # a tile held four times (after the discard) is never drawn
            for u in range(len(counts)):
                if counts[u] - (u == t) >= 4:
                    near &= ~(1 << u)
        packed, dist, j3 = _PACKED, lookup.DIST, lookup.J3
        n3, nz = lookup.N, lookup.NZ
        parts = self.parts.copy()
        if st != vi:
            parts[st] = packed[(c0, c1, c2, cz)[st]]
        a, b, c, z = parts
        ca, cb, cc, zc = a >> _C, b >> _C, c >> _C, z >> _C
        sets = n // 3
        total = a + b + c + z
        # seven pairs can only matter when one more pair brings it below ``sh``
        seven_pairs = n >= 13 and 5 - (total >> _P & _F) < sh
        stride, tail = nz * _SETS, zc * _SETS + sets
        # a suit's candidates change only its own class: the join of the three suits' classes is
        # j3[class * scale + rest], then the distance dist[join * stride + tail]; the honours' class
        # enters after the join, dist[class * _SETS + rest]
        out = []
        for su, code, part, scale, rest in (
            (0, c0, a, n3 * n3, cb * n3 + cc), (1, c1, b, n3, ca * n3 * n3 + cc), (2, c2, c, 1, (ca * n3 + cb) * n3),
            (3, cz, z, _SETS, j3[(ca * n3 + cb) * n3 + cc] * stride + sets),
        ):
            bits = (near >> (9 * su)) & (511 if su < 3 else 127)
            if not bits:
                continue
            low_tile = 9 * su
            others = total - part
            for r, weight in _RANKS[su == 3][bits]:
                p = packed[code + weight]
                std = dist[j3[(p >> _C) * scale + rest] * stride + tail] if su < 3 else dist[(p >> _C) * scale + rest]
                if seven_pairs:
                    q = others + p
                    need = 7 - ((q >> _P) & _F)
                    if need <= 0:
                        std = 0
                    else:
                        odd = (q >> _O) & _F
                        seven = need + (need - odd if need > odd else 0)
                        if seven < std:
                            std = seven
                if orphan_kinds >= 0:
                    u = low_tile + r
                    held_u = counts[u] - (u == t)
                    orphan = u in ORPHANS
                    kinds = orphan_kinds + (orphan and not held_u)
                    orphans = 14 - kinds - (orphan_pair or (orphan and held_u > 0))
                    if orphans < std:
                        std = orphans
                if std - 1 < sh:
                    out.append(low_tile + r)
        if len(_USEFUL) >= _USEFUL_LIMIT:
            _USEFUL.clear()
        found = _USEFUL[key] = tuple(out)
        return found


def useful_tiles(counts: Sequence[int], void: str | None) -> tuple[Tile, ...]:
    """The useful tiles of a 3n+1 hand (27 or 34 kinds): those that, drawn, lower its shanten
    (a tile held four times is never one). The one implementation: :meth:`HandEval.useful_tiles`
    of the hand with a tile added and discarded again. Counts that are not 0-4 of 27 or 34 kinds
    raise :class:`TileCountError`, a hand of another size :class:`HandSizeError`."""
    n = sum(pack_counts(counts))
    if n % 3 != 1:
        raise HandSizeError(f"useful tiles need 3n+1 concealed tiles, got {n}")
    probe = next(t for t in range(len(counts)) if counts[t] < 4)
    work = list(counts)
    work[probe] += 1
    ev = HandEval(work, void)
    return ev.useful_tiles(work, probe, ev.without(probe))


__all__ = ["HandEval", "load", "useful_tiles"]
