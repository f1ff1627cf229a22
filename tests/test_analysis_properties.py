"""Hand analysis invariants, checked over random hands of the 108-tile and the 136-tile sets."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis_reference import reference_shanten
from chuanma.analysis import (
    decompositions,
    is_win,
    is_win_batch,
    pack_counts,
    shanten,
    shanten_batch,
    shanten_standard,
    waits,
)
from chuanma.tiles import NUM_KINDS, NUM_SUITED, SUITS
from conftest import ORPHAN_KINDS, hands, winning_hands


def any_hands(sizes: tuple[int, ...] = (13, 14)) -> st.SearchStrategy[list[int]]:
    """Hands of the 108-tile set and of the 136-tile set (大众麻将, honours included)."""
    return st.one_of(hands(sizes), hands(sizes, honours=True))


def any_winning_hands() -> st.SearchStrategy[list[int]]:
    """Complete hands without honours, and with honours (十三幺 included)."""
    return st.one_of(winning_hands(), winning_hands(honours=True))


def _with(counts: list[int], tile: int) -> list[int]:
    out = list(counts)
    out[tile] += 1
    return out


@given(any_hands((1, 4, 7, 10, 13)))
def test_waits_are_exactly_the_winning_tiles(counts: list[int]) -> None:
    expected = [t for t in range(NUM_KINDS) if counts[t] < 4 and is_win(_with(counts, t))]
    assert waits(counts) == expected


@given(any_hands((2, 5, 8, 11, 14)))
def test_shanten_is_minus_one_exactly_when_the_hand_wins(counts: list[int]) -> None:
    assert (shanten(counts) == -1) == is_win(counts)


@given(any_winning_hands())
def test_complete_hands_win_and_have_shanten_minus_one(counts: list[int]) -> None:
    assert is_win(counts)
    assert shanten(counts) == -1
    assert decompositions(counts)


@given(any_hands((1, 4, 7, 10, 13)))
def test_shanten_is_zero_exactly_when_there_are_waits(counts: list[int]) -> None:
    assert (shanten(counts) == 0) == bool(waits(counts))


@given(any_hands((1, 4, 7, 10, 13)))
def test_the_best_draw_lowers_shanten_by_exactly_one(counts: list[int]) -> None:
    """No draw lowers shanten by more than one, some draw lowers it by one, and none wins above 0."""
    sh = shanten(counts)
    draws = [_with(counts, u) for u in range(NUM_KINDS) if counts[u] < 4]
    after = [shanten(h) for h in draws]
    assert min(after) == sh - 1
    if sh > 0:
        assert not any(is_win(h) for h in draws)


@given(any_hands((2, 5, 8, 11, 14)))
def test_the_best_swap_lowers_shanten_by_exactly_one(counts: list[int]) -> None:
    """A swap (one tile out, another in) changes shanten by at most one, the best swap lowers it
    by one until complete, and above 0 no swap wins."""
    sh = shanten(counts)
    after = []
    for t in range(NUM_KINDS):
        if not counts[t]:
            continue
        for u in range(NUM_KINDS):
            if u == t or counts[u] == 4:
                continue
            swapped = _with(counts, u)
            swapped[t] -= 1
            after.append(shanten(swapped))
            if sh > 0:
                assert not is_win(swapped)
    assert min(after) >= sh - 1
    assert max(after) <= sh + 1
    if sh >= 0:
        assert min(after) == sh - 1


@given(any_hands((1, 2, 4, 5, 7, 8, 10, 11, 13, 14)), st.integers(-1, 2))
def test_shanten_equals_the_brute_force_reference(counts: list[int], void: int) -> None:
    assert shanten(counts, SUITS[void] if void >= 0 else None) == reference_shanten(counts, void)


@given(st.lists(hands(sizes=(13, 14)), min_size=1, max_size=40)
       | st.lists(hands(sizes=(13, 14), honours=True), min_size=1, max_size=40), st.data())
def test_batch_results_equal_single_hand_results(batch: list[list[int]], data: st.DataObject) -> None:
    voids = data.draw(st.lists(st.integers(-1, 2), min_size=len(batch), max_size=len(batch)))
    arr = np.array(batch, dtype=np.uint8)
    assert shanten_batch(arr).tolist() == [shanten(h) for h in batch]
    assert is_win_batch(arr).tolist() == [is_win(h) for h in batch]
    expected = [shanten(h, SUITS[v] if v >= 0 else None) for h, v in zip(batch, voids, strict=True)]
    assert shanten_batch(arr, np.array(voids)).tolist() == expected
    if not arr[:, NUM_SUITED:].any():
        assert shanten_batch(arr[:, :NUM_SUITED]).tolist() == [shanten(h) for h in batch]


@given(any_hands((2, 5, 8, 11, 14)) | any_winning_hands())
def test_every_decomposition_uses_exactly_the_hand(counts: list[int]) -> None:
    found = decompositions(counts)
    assert bool(found) == is_win(counts)
    for d in found:
        used = [0] * 34
        if d.form == "seven_pairs":
            for t in d.pairs:
                used[t] += 2
        elif d.form == "thirteen_orphans":
            assert d.pair is not None
            for t in ORPHAN_KINDS:
                used[t] += 1 + (t == d.pair)
        else:
            assert d.pair is not None
            used[d.pair] += 2
            for s in d.sets:
                for t in s.tiles:
                    used[t] += 1
        assert used == counts


@given(any_winning_hands())
def test_decompositions_are_distinct(counts: list[int]) -> None:
    found = decompositions(counts)
    keys = [(d.form, tuple(sorted((s.kind, s.tile) for s in d.sets)), d.pair, d.pairs) for d in found]
    assert len(keys) == len(set(keys))


@given(any_hands((13, 14)), st.sampled_from(SUITS))
def test_void_aware_shanten_never_beats_plain_shanten(counts: list[int], void: str) -> None:
    assert shanten(counts, void) >= shanten(counts)


@given(any_hands((13, 14)), st.sampled_from(SUITS))
def test_void_aware_shanten_counts_void_tiles_as_useless(counts: list[int], void: str) -> None:
    """Removing the void suit's tiles costs exactly one draw each, never less."""
    s = SUITS.index(void)
    held = sum(counts[9 * s : 9 * s + 9])
    if held == 0:
        return
    assert shanten(counts, void) >= held - 1


@given(any_hands((13, 14)))
def test_packed_and_list_counts_agree(counts: list[int]) -> None:
    packed = pack_counts(counts)
    assert shanten(packed) == shanten(counts)
    assert is_win(packed) == is_win(counts)


mahjong = pytest.importorskip("mahjong.shanten")


@given(any_hands((13, 14)))
def test_standard_shanten_agrees_with_the_mahjong_package(counts: list[int]) -> None:
    """Where no tile is held four times (their wait-on-a-fifth-tile reading differs), both agree."""
    if max(counts) == 4:
        return
    expected = mahjong.Shanten().calculate_shanten_for_regular_hand(counts)
    assert shanten_standard(counts) == expected
