"""RULES §2.2: the deal reads the wall by blocks of 13 from the dealer; draws and replacements."""

from __future__ import annotations

import pytest

from chuanma.engine.actions import Discard, Exchange, Hu, action_from_json
from chuanma.engine.wall import WallError, build_wall, check_wall, deal
from chuanma.errors import NotationError
from chuanma.tiles import SICHUAN_TILES, format_tiles, parse_tile


def test_deal_blocks_of_thirteen_from_the_dealer() -> None:
    wall = SICHUAN_TILES.wall()
    hands = deal(wall, 2)
    assert hands[2] == [*wall[0:13], wall[52]]
    assert hands[3] == wall[13:26]
    assert hands[0] == wall[26:39]
    assert hands[1] == wall[39:52]


def test_build_wall_places_hands_draws_and_replacements() -> None:
    hands = ["1112223334445m", "6667778889995m5p", "1112223334445p", "6667778889995p"]
    wall = build_wall(hands, draws="9s8s", replacements="1s", dealer=1)
    dealt = deal(wall, 1)
    for seat in range(4):
        assert format_tiles(dealt[seat]) == format_tiles(parse_tile_list(hands[seat]))
    assert wall[53] == parse_tile("9s") and wall[54] == parse_tile("8s")
    assert wall[107] == parse_tile("1s")


def parse_tile_list(text: str) -> list[int]:
    from chuanma.tiles import parse_tiles

    return parse_tiles(text)


def test_bad_walls_refused() -> None:
    with pytest.raises(WallError, match="copies of 1m"):
        build_wall(["11111m222m333m444m", "", "", ""])
    with pytest.raises(WallError, match="108"):
        check_wall([0] * 10)


def test_action_json_round_trip() -> None:
    for data in ({"discard": "5m"}, {"exchange": "789s"}, {"hu": True}, {"void": "p"}):
        assert action_from_json(data, SICHUAN_TILES).to_json() == data
    assert action_from_json({"seat": 1, "discard": "5m"}, SICHUAN_TILES) == Discard(parse_tile("5m"))
    assert action_from_json({"exchange": "978s"}, SICHUAN_TILES) == Exchange((24, 25, 26))
    assert action_from_json({"hu": True}, SICHUAN_TILES) == Hu()
    for bad in ({"discard": "5x"}, {"exchange": "78s9m"}, {"hu": False}, {"void": "z"}, {}):
        with pytest.raises(NotationError):
            action_from_json(bad, SICHUAN_TILES)
