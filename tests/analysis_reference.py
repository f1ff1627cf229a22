"""An independent reference for the hand analysis, for the tests to compare with: shanten by brute
force over every complete hand of the same size, the win check (and so the waits) by search."""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

import numpy as np
import numpy.typing as npt

from chuanma.tiles import NUM_KINDS
from conftest import ORPHAN_KINDS


def _units(honours: bool) -> list[list[int]]:
    """The sets of one part as count vectors: nine triplets and seven sequences of a suit, or
    the seven triplets of the honours (honours form no sequences)."""
    kinds = 7 if honours else 9
    triplets = [[3 if r == i else 0 for r in range(kinds)] for i in range(kinds)]
    if honours:
        return triplets
    sequences = [[1 if i <= r < i + 3 else 0 for r in range(9)] for i in range(7)]
    return triplets + sequences


@cache
def _targets(honours: bool, sets: int, pair: int) -> npt.NDArray[np.int64]:
    """Every count vector of one part made of ``sets`` sets and ``pair`` pairs, at most 4 a kind."""
    units = _units(honours)
    kinds = len(units[0])
    found = set()
    for combo in combinations_with_replacement(units, sets):
        base = [sum(u[r] for u in combo) for r in range(kinds)]
        for p in range(kinds) if pair else [-1]:
            target = tuple(c + 2 * (r == p) for r, c in enumerate(base))
            if max(target) <= 4:
                found.add(target)
    return np.array(sorted(found), dtype=np.int64).reshape(-1, kinds)


def reference_shanten(counts: list[int], void: int) -> int:
    """Shanten by brute force: the fewest tiles missing from any complete hand of the same size
    (n // 3 sets and a pair; with 14 tiles also seven pairs or 十三幺), minus one. The void suit
    holds nothing."""
    n = sum(counts)
    sets = n // 3
    parts = [np.array(counts[9 * s : 9 * s + 9]) for s in range(3)] + [np.array(counts[27:34])]
    missing = {}
    for i, part in enumerate(parts):
        for m in range(sets + 1):
            for h in (0, 1):
                if i == void:
                    missing[i, m, h] = 0 if m == h == 0 else 99
                else:
                    missing[i, m, h] = int(np.maximum(_targets(i == 3, m, h) - part, 0).sum(axis=1).min())
    best = min(
        missing[0, m0, h0] + missing[1, m1, h1] + missing[2, m2, h2] + missing[3, sets - m0 - m1 - m2, 1 - h0 - h1 - h2]
        for m0 in range(sets + 1) for m1 in range(sets + 1 - m0) for m2 in range(sets + 1 - m0 - m1)
        for h0 in (0, 1) for h1 in range(2 - h0) for h2 in range(2 - h0 - h1)
    )
    if n >= 13:
        # seven pairs (four of a kind is two pairs): the seven cheapest pairs to complete
        costs = []
        for t in range(NUM_KINDS):
            if t // 9 != void:
                c = counts[t]
                costs += [max(0, 2 - c), max(0, 4 - c) - max(0, 2 - c)]
        best = min(best, sum(sorted(costs)[:7]))
    if n >= 13 and void < 0:
        # 十三幺: every orphan kind once and one of them twice, whichever is cheapest
        for p in ORPHAN_KINDS:
            best = min(best, sum(max(0, 1 + (t == p) - counts[t]) for t in ORPHAN_KINDS))
    return best - 1


def _sets(counts: list[int]) -> bool:
    """Whether the counts split into sets (triplets; sequences within a suit), by trying the
    lowest tile held as a triplet and as the start of a sequence."""
    t = next((t for t, c in enumerate(counts) if c), None)
    if t is None:
        return True
    if counts[t] >= 3:
        counts[t] -= 3
        found = _sets(counts)
        counts[t] += 3
        if found:
            return True
    if t < 27 and t % 9 <= 6 and counts[t + 1] and counts[t + 2]:
        for u in (t, t + 1, t + 2):
            counts[u] -= 1
        found = _sets(counts)
        for u in (t, t + 1, t + 2):
            counts[u] += 1
        return found
    return False


def reference_is_win(counts: list[int]) -> bool:
    """Sets and a pair, seven pairs (four of a kind is two pairs) or 十三幺, by search."""
    n = sum(counts)
    if n % 3 != 2:
        return False
    work = list(counts)
    for t, c in enumerate(counts):
        if c >= 2:
            work[t] -= 2
            if _sets(work):
                return True
            work[t] += 2
    if n == 14 and all(c % 2 == 0 for c in counts):
        return True
    return n == 14 and len(counts) == NUM_KINDS and all(counts[t] for t in ORPHAN_KINDS) and \
        sum(counts[t] for t in ORPHAN_KINDS) == 14


def reference_waits(counts: list[int]) -> list[int]:
    """The kinds (fewer than four held) whose addition completes the hand."""
    return [t for t in range(len(counts)) if counts[t] < 4
            and reference_is_win([c + (u == t) for u, c in enumerate(counts)])]


Reading = tuple[str, int | None, tuple[tuple[str, int], ...], tuple[int, ...]]
"""A decomposition as (form, pair, sets as (kind, lowest tile), seven pairs' tiles)."""


def reference_decompositions(counts: list[int]) -> list[Reading]:
    """Every reading by brute force: for each pair, every multiset of n // 3 sets (triplets and
    sequences of the kinds held) whose tiles add up to the rest; in the documented order (by pair,
    then the sets listed lowest tile first, a triplet before a sequence of its tile, compared in
    that order), then seven pairs. A 十三幺 hand has only its own reading."""
    n = sum(counts)
    if n % 3 != 2:
        return []
    kinds = len(counts)
    if n == 14 and kinds == NUM_KINDS and all(counts[t] for t in ORPHAN_KINDS) and \
            sum(counts[t] for t in ORPHAN_KINDS) == 14:
        return [("thirteen_orphans", next(t for t in ORPHAN_KINDS if counts[t] == 2), (), ())]
    candidates = [("triplet", t) for t in range(kinds) if counts[t] >= 3]
    candidates += [("sequence", t) for t in range(27) if t % 9 <= 6 and all(counts[t : t + 3])]
    found: list[Reading] = []
    for pair in range(kinds):
        if counts[pair] < 2:
            continue
        readings = []
        for combo in combinations_with_replacement(candidates, n // 3):
            used = [0] * kinds
            used[pair] += 2
            for kind, t in combo:
                for u in (t, t + 1, t + 2) if kind == "sequence" else (t, t, t):
                    used[u] += 1
            if used == counts:
                readings.append(tuple(sorted(combo, key=lambda s: (s[1], s[0] == "sequence"))))
        found += [("standard", pair, sets, ()) for sets in
                  sorted(readings, key=lambda sets: [(t, kind == "sequence") for kind, t in sets])]
    if n == 14 and all(c % 2 == 0 for c in counts):
        found.append(("seven_pairs", None, (), tuple(t for t, c in enumerate(counts) for _ in range(c // 2))))
    return found
