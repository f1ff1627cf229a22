"""``chuanma score`` and ``chuanma hand`` refuse bad input with a clear error, never a traceback."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from chuanma.cli import app
from chuanma.errors import NotationError
from chuanma.melds import Meld, parse_meld
from chuanma.tiles import SICHUAN_TILES, parse_tile, parse_tiles

runner = CliRunner()
GOOD = {"hand": "123m456m789m23p55p", "win_tile": "4p"}


def _score(lines: list[bytes | str]) -> tuple[int, list[dict[str, object]]]:
    data = b"".join((x if isinstance(x, bytes) else x.encode()) + b"\n" for x in lines)
    result = runner.invoke(app, ["score"], input=data)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, [json.loads(line) for line in result.stdout.splitlines()]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({**GOOD, "melds": None}, "'melds' must be a list, got None"),
        ({**GOOD, "situations": None}, "'situations' must be a list, got None"),
        ({**GOOD, "self_drawn": None}, "'self_drawn' must be true or false"),
        ({**GOOD, "hand": None}, "'hand' must be a string"),
        ({**GOOD, "void": "mp"}, "void must be one of m, p, s, got 'mp'"),
        ({**GOOD, "void": ""}, "void must be one of m, p, s, got ''"),
        ({**GOOD, "melds": [None]}, "a meld is text like pong:5p"),
        ({**GOOD, "melds": [{"kind": "pong", "tile": ["5s"]}]}, "needs \"kind\" and \"tile\" as strings"),
        ({**GOOD, "hand": "123m456m789m23p5z"}, "'hand': no honour tiles"),
        ({**GOOD, "win_tile": "4p\n"}, "'win_tile': unknown character '\\n'"),
        ({**GOOD, "rules": "dazhong", "void": "s"}, "大众麻将 has no void suit (定缺)"),
        ({**GOOD, "hand": "123m456m789m23p5z", "win_tile": "5z", "rules": "dazhong"}, "needs 13"),
        ({**GOOD, "melds": ["chow:1z"], "rules": "dazhong"}, "no chow starts at 1z"),
        ({**GOOD, "rules": {"preset": "xuezhan", "options": {"max_fan": True}}}, "rule option 'max_fan'"),
        ({**GOOD, "melds": [[[[1]]]] * 3}, "a meld is text like pong:5p"),
    ],
)
def test_score_bad_fields_get_an_error_naming_the_field(line: dict[str, object], message: str) -> None:
    code, out = _score([json.dumps(line), json.dumps(GOOD)])
    assert code == 1
    assert message in str(out[0]["error"])
    assert out[1] == {"win": True, "fans": [], "total": 0, "multiplier": 1}  # the stream goes on


def test_score_unreadable_lines_get_an_error_and_the_stream_goes_on() -> None:
    lines: list[bytes | str] = [
        "[" * 5000 + "]" * 5000,
        json.dumps({**GOOD, "melds": json.loads("[" * 500 + "]" * 500)}),
        '{"hand": ' + "9" * 5000 + "}",
        b'{"hand": "caf\xe9"}',
        json.dumps(GOOD),
    ]
    code, out = _score(lines)
    assert code == 1
    assert [str(o.get("error", ""))[:7] for o in out[:4]] == ["line 1:", "line 2:", "line 3:", "line 4:"]
    assert "nested deeper" in str(out[0]["error"]) and "nested deeper" in str(out[1]["error"])
    assert "thousands of digits" in str(out[2]["error"]) and "not UTF-8" in str(out[3]["error"])
    assert out[4]["win"] is True


def test_score_and_hand_share_the_meld_notation() -> None:
    pong = {**GOOD, "hand": "123m456m789m4p", "win_tile": "4p"}
    as_text = _score([json.dumps({**pong, "melds": ["pong:5s"]})])
    as_object = _score([json.dumps({**pong, "melds": [{"kind": "pong", "tile": "5s"}]})])
    assert as_text == as_object and as_text[0] == 0
    assert parse_meld("kong:7p") == Meld("kong", parse_tile("7p"), "exposed")
    assert parse_meld("kong:7p:added") == parse_meld({"kind": "kong", "tile": "7p", "kong": "added"})
    hand = runner.invoke(app, ["hand", "123m456m789m4p", "--meld", "pong:5s", "--json"])
    assert hand.exit_code == 0 and json.loads(hand.stdout)["shanten"] == 0


def test_tiles_refuse_stray_whitespace_and_honours_where_asked() -> None:
    for text in ("5m\n", " 5m", "5m "):
        with pytest.raises(NotationError):
            parse_tile(text)
    with pytest.raises(NotationError, match="unknown character '\\\\t'"):
        parse_tiles("123m\t456p")
    with pytest.raises(NotationError, match="no honour tiles"):
        parse_tiles("123m1z", tile_set=SICHUAN_TILES)
    assert parse_tiles("123m 1z") == [0, 1, 2, 27]


def _hand(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["hand", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["123m456p789s1122z"], "tiles: no honour tiles"),
        (["123m456m789m2345p", "--seen", "1z"], "--seen: no honour tiles"),
        (["123m456m789m2345p", "--meld", "pong:5z"], "no honour tiles"),
        (["123m456m789m2345p", "--seen", "22222m"], "--seen: more than 4 copies of 2m"),
        (["123m456m789m2345p", "--seen", "1111m"], "tiles, --meld and --seen together: more than 4 copies of 1m"),
        (["123m456m789m4p", "--meld", "pong:5s", "--void", "s"], "cannot be of the void suit s"),
        (["123m456m789m2345p", "--void", "x"], "--void: unknown suit 'x'"),
        (["123m456m789m4p", "--meld", "chow:1s"], "chow"),
        (["123m456m789m4p", "--meld", "pong"], "must look like pong:5p"),
    ],
)
def test_hand_refuses_bad_input_naming_the_part(args: list[str], message: str) -> None:
    code, out = _hand(*args)
    assert code == 2 and message in out


def test_hand_three_suit_complete_hand_is_not_called_a_win() -> None:
    code, out = _hand("123m456p789s11m234p")
    assert code == 0
    assert "complete (胡)" not in out and "cannot win" in out
    data = json.loads(_hand("123m456p789s11m234p", "--json")[1])
    assert data["shanten"] == -1 and data["win"] is False
    assert json.loads(_hand("123m456m789m11m234p", "--json")[1])["win"] is True
