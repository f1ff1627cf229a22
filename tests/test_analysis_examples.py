"""Hand analysis on worked examples: the readings RULES.md fixes and the inputs it refuses."""

from __future__ import annotations

import numpy as np
import pytest

from chuanma.analysis import (
    decompositions,
    is_win,
    is_win_batch,
    pack_counts,
    shanten,
    shanten_batch,
    shanten_seven_pairs,
    shanten_standard,
    shanten_thirteen_orphans,
    waits,
)
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


def test_honours_form_triplets_and_pairs_never_sequences() -> None:
    assert not is_win(c("123m456p789s123z44z"))
    assert is_win(c("123m456p789s111z44z"))
    assert [str(d) for d in decompositions(c("123m456p789s111z44z"))] == ["123m 456p 789s 111z 44z"]
    assert format_tiles(waits(c("123m456p789s11z44z"))) == "14z"
    # 1234m would be ready on 1m/4m; 1234z needs two more 1z and one more 2z (111z 22z): shanten 2
    assert shanten_standard(c("123m456p789s1234m")) == 0
    assert shanten_standard(c("123m456p789s1234z")) == 2


def test_seven_pairs_with_honours() -> None:
    assert [d.form for d in decompositions(c("1122m3344p5566z77z"))] == ["seven_pairs"]
    assert format_tiles(waits(c("1122m3344p55667z"))) == "7z"
    assert shanten_seven_pairs(c("1111z2222z3333z44z")) == -1  # four identical honours are two pairs


def test_thirteen_orphans_is_a_win_with_its_own_reading() -> None:
    hand = c("19m19p19s12345677z")
    assert is_win(hand)
    assert shanten(hand) == -1
    assert [str(d) for d in decompositions(hand)] == ["19m19p19s12345677z"]
    assert decompositions(hand)[0].form == "thirteen_orphans"
    assert is_win_batch(np.array([hand])).tolist() == [True]
    assert not is_win(c("19m19p19s1234566z9m"))  # 14 orphan tiles lacking 7z


def test_thirteen_orphans_waits_single_and_thirteen_sided() -> None:
    assert format_tiles(waits(c("19m19p19s1234566z"))) == "7z"  # lacks 7z, holds a pair: one wait
    assert format_tiles(waits(c("19m19p19s1234567z"))) == "19m19p19s1234567z"  # 十三面: every orphan
    assert shanten_thirteen_orphans(c("19m19p19s1234567z")) == 0
    assert shanten(c("19m19p19s1234567z")) == 0
    assert shanten_batch(np.array([c("19m19p19s1234567z")])).tolist() == [0]


def test_thirteen_orphans_shanten_counts_kinds_and_one_pair() -> None:
    assert shanten_thirteen_orphans(c("19m19p1s12345z5z66m")) == 13 - 10 - 1  # ten kinds, 5z twice
    assert shanten(c("19m19p1s12345z5z66m")) == 2
    assert shanten(c("19m19p1s12345z5z66m"), void="s") > 2  # a void suit puts 十三幺 out of reach
