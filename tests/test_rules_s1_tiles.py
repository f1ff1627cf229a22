"""RULES.md §1: tiles, text notation, meld objects, names, and the errors bad notation raises."""

from __future__ import annotations

import pytest

from chuanma.errors import HandSizeError, NotationError, TileCountError
from chuanma.melds import Meld
from chuanma.tiles import (
    ALL_TILES,
    SICHUAN_TILES,
    format_tiles,
    parse_hand,
    parse_tile,
    parse_tiles,
    tile_name,
    to_counts,
)


def test_tile_numbering() -> None:
    assert [parse_tile(t) for t in ("1m", "9m", "1p", "9p", "1s", "9s", "1z", "7z")] == [0, 8, 9, 17, 18, 26, 27, 33]
    assert parse_tiles("123m") == [0, 1, 2]


def test_tile_set_sizes() -> None:
    assert len(SICHUAN_TILES.wall()) == SICHUAN_TILES.size == 108
    assert len(ALL_TILES.wall()) == ALL_TILES.size == 136
    assert to_counts(SICHUAN_TILES.wall()) == [4] * 27 + [0] * 7
    assert to_counts(ALL_TILES.wall()) == [4] * 34
    assert (SICHUAN_TILES.suits, ALL_TILES.suits) == ("mps", "mpsz")
    assert 26 in SICHUAN_TILES and 27 not in SICHUAN_TILES and 33 in ALL_TILES


@pytest.mark.parametrize("text", ["123m456p789s11z", "5m", "1112345678999m", "19m19p19s1234567z", "55p", "2s"])
def test_round_trip_canonical_text(text: str) -> None:
    assert format_tiles(parse_tiles(text)) == text


def test_every_tile_round_trips() -> None:
    for tile in range(34):
        assert parse_tile(format_tiles([tile])) == tile


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("9s1m5p3m", "13m5p9s"),
        ("1z9s9p9m", "9m9p9s1z"),
        ("321m", "123m"),
        ("5m 5m 5p", "55m5p"),
        ("11z2s1m", "1m2s11z"),
    ],
)
def test_canonical_order_suits_then_ranks(text: str, canonical: str) -> None:
    assert format_tiles(parse_tiles(text)) == canonical


def test_parse_keeps_written_order_and_format_can_keep_it() -> None:
    tiles = parse_tiles("9s1m")
    assert tiles == [26, 0]
    assert format_tiles(tiles, sort=False) == "9s1m"


@pytest.mark.parametrize(
    ("tile", "zh", "en"),
    [
        ("5m", "五万", "5 Characters"),
        ("9s", "九条", "9 Bamboo"),
        ("1p", "一筒", "1 Dots"),
        ("1z", "東", "East"),
        ("7z", "中", "Red"),
        ("6z", "發", "Green"),
    ],
)
def test_tile_names(tile: str, zh: str, en: str) -> None:
    assert tile_name(parse_tile(tile)) == zh
    assert tile_name(parse_tile(tile), "zh") == zh
    assert tile_name(parse_tile(tile), "en") == en


@pytest.mark.parametrize(
    ("text", "bad_part"),
    [
        ("5x", "x"),
        ("0m", "0m"),
        ("10m", "10m"),
        ("8z", "8z"),
        ("m", "m"),
        ("12", "12"),
        ("12 3m", "12"),
    ],
)
def test_bad_notation_names_the_bad_part(text: str, bad_part: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_tiles(text)
    assert bad_part in str(info.value)
    assert isinstance(info.value, ValueError)


def test_parse_tile_refuses_more_than_one_tile() -> None:
    with pytest.raises(NotationError, match="55m"):
        parse_tile("55m")


def test_fifth_copy_raises_tile_count_error() -> None:
    with pytest.raises(TileCountError, match="5m") as info:
        parse_hand("55555m")
    assert isinstance(info.value, NotationError)
    assert isinstance(info.value, ValueError)
    with pytest.raises(TileCountError, match="1p"):
        to_counts(parse_tiles("1111p1p"))


def test_four_copies_are_fine() -> None:
    assert parse_hand("5555m") == [4, 4, 4, 4]


def test_hand_of_the_wrong_size_raises_hand_size_error() -> None:
    with pytest.raises(HandSizeError) as info:
        parse_hand("123m456p", sizes=(13, 14))
    message = str(info.value)
    assert "6" in message and "13" in message and "14" in message
    assert isinstance(info.value, ValueError)
    assert len(parse_hand("1112345678999m", sizes=(13, 14))) == 13
    assert len(parse_hand("1112345678999m5m", sizes=(13, 14))) == 14


# -- melds ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "data",
    [
        {"kind": "pong", "tile": "5p"},
        {"kind": "kong", "tile": "7s", "kong": "exposed"},
        {"kind": "kong", "tile": "7s", "kong": "added"},
        {"kind": "kong", "tile": "1m", "kong": "concealed"},
        {"kind": "chow", "tile": "3m"},
    ],
)
def test_meld_json_round_trip(data: dict[str, str]) -> None:
    meld = Meld.from_dict(data)
    assert meld.to_dict() == data
    assert Meld.from_dict(meld.to_dict()) == meld


def test_meld_tiles() -> None:
    assert Meld.from_dict({"kind": "pong", "tile": "5p"}).tiles == parse_tiles("555p")
    assert Meld.from_dict({"kind": "kong", "tile": "7s", "kong": "exposed"}).tiles == parse_tiles("7777s")
    assert Meld.from_dict({"kind": "chow", "tile": "3m"}).tiles == parse_tiles("345m")
    assert Meld.from_dict({"kind": "kong", "tile": "7s", "kong": "concealed"}).is_concealed
    assert not Meld.from_dict({"kind": "kong", "tile": "7s", "kong": "added"}).is_concealed


def test_meld_unknown_kind_is_named() -> None:
    with pytest.raises(NotationError, match="chi") as info:
        Meld.from_dict({"kind": "chi", "tile": "3m"})
    assert "pong" in str(info.value) and "kong" in str(info.value)


def test_meld_kong_without_kong_type_is_refused() -> None:
    with pytest.raises(NotationError, match="7s") as info:
        Meld.from_dict({"kind": "kong", "tile": "7s"})
    assert "exposed" in str(info.value) and "added" in str(info.value) and "concealed" in str(info.value)


def test_meld_unknown_kong_type_is_refused() -> None:
    with pytest.raises(NotationError, match="exposed"):
        Meld.from_dict({"kind": "kong", "tile": "7s", "kong": "hidden"})


def test_meld_kong_type_on_a_pong_is_refused() -> None:
    with pytest.raises(NotationError, match="pong"):
        Meld.from_dict({"kind": "pong", "tile": "5p", "kong": "exposed"})


@pytest.mark.parametrize(
    ("data", "bad_part"),
    [
        ({"kind": "pong", "tile": "5x"}, "x"),
        ({"kind": "pong", "tile": "55p"}, "55p"),
        ({"kind": "pong"}, "tile"),
        ({"kind": "pong", "tile": "5p", "colour": "red"}, "colour"),
        ({"kind": "chow", "tile": "8m"}, "8m"),
        ("pong 5p", "pong 5p"),
    ],
)
def test_meld_bad_objects_are_refused(data: object, bad_part: str) -> None:
    with pytest.raises(NotationError) as info:
        Meld.from_dict(data)
    assert bad_part in str(info.value)
