"""Hand analysis on worked examples: the readings RULES.md fixes and the inputs it refuses."""

from __future__ import annotations

import numpy as np
import pytest

from chuanma.analysis import decompositions, is_win, pack_counts, shanten, shanten_batch, waits
from chuanma.errors import HandSizeError, TileCountError
from chuanma.melds import Meld
from chuanma.tiles import format_tiles, parse_tile, parse_tiles, to_counts


def c(text: str) -> list[int]:
    return to_counts(parse_tiles(text))


def test_nine_gates_waits_on_every_rank() -> None:
    assert format_tiles(waits(c("1112345678999m"))) == "123456789m"
    assert shanten(c("1112345678999m")) == 0


def test_seven_pairs_counts_four_identical_tiles_as_two_pairs() -> None:
    assert is_win(c("11112233445566m"))
    assert {d.form for d in decompositions(c("11112233445566m"))} == {"seven_pairs", "standard"}
    assert is_win(c("1111m22334455p66s"))
    assert [d.form for d in decompositions(c("1111m22334455p66s"))] == ["seven_pairs"]
    assert format_tiles(waits(c("1111m22334455p6s"))) == "6s"


def test_seven_pairs_wait_on_the_fourth_copy_of_a_triplet() -> None:
    assert format_tiles(waits(c("111m2233p4455s66s"))) == "1m23p"  # 1m: seven pairs; 2p/3p: sets


def test_a_tile_held_four_times_is_not_a_wait() -> None:
    hand = c("1111m234567888p")
    assert waits(hand) == []
    assert shanten(hand) == 1


def test_melds_take_copies_out_of_the_waits() -> None:
    hand = c("123456789m5p")
    assert format_tiles(waits(hand)) == "5p"
    assert waits(hand, [Meld("pong", parse_tile("5p"))]) == []
    assert waits(hand, [Meld("pong", parse_tile("6p"))]) == [parse_tile("5p")]


def test_void_suit_tiles_are_useless() -> None:
    hand = c("123m456m789m11s23s")
    assert format_tiles(waits(hand)) == "14s"
    assert waits(hand, void="s") == []
    assert shanten(hand) == 0
    assert shanten(hand, "s") == 4
    assert shanten_batch(np.array([hand]), "s").tolist() == [4]
    assert format_tiles(waits(c("1112345678999m"), void="p")) == "123456789m"


def test_every_reading_of_a_pure_hand() -> None:
    readings = {str(d) for d in decompositions(c("11122233344455m"))}
    assert readings == {
        "111m 234m 345m 345m 22m",
        "111m 222m 333m 444m 55m",
        "111m 234m 234m 234m 55m",
        "123m 123m 123m 444m 55m",
    }


def test_hands_with_melds_are_read_by_size() -> None:
    assert is_win(c("22m"))
    assert is_win(c("22m345p"))
    assert shanten(c("2m")) == 0
    assert waits(c("2m")) == [parse_tile("2m")]
    assert shanten(c("24m")) == 0
    assert format_tiles(waits(c("22m46p"))) == "5p"


def test_bad_counts_are_refused() -> None:
    with pytest.raises(TileCountError, match="5m"):
        is_win([0] * 4 + [5] + [0] * 29)
    with pytest.raises(TileCountError, match="27 or 34"):
        shanten([1] * 13)
    with pytest.raises(HandSizeError, match="got 12"):
        shanten(c("123456789m123p"))
    with pytest.raises(HandSizeError):
        waits(c("1112345678999m1p"))
    with pytest.raises(TileCountError):
        pack_counts([0] * 33 + [7])
    with pytest.raises(ValueError, match="void"):
        shanten(c("1112345678999m"), "x")
