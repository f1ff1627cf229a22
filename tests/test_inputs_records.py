"""Bad records get a clear error naming the field, from ``replay`` and ``fair verify`` alike."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from chuanma.cli import app
from chuanma.engine import RecordError, replay
from chuanma.errors import RuleSetError
from chuanma.fairness.cli import EXIT_UNVERIFIED
from chuanma.fans import MAX_TOTAL
from chuanma.rules import MAX_BASE, MAX_FAN, RuleSet
from fairness_records import played_copy

runner = CliRunner()


def fresh() -> dict[str, Any]:
    """A copy of one played, verifiable record."""
    return played_copy(5)


def _first(record: dict[str, Any], kind: str) -> int:
    return next(i for i, d in enumerate(record["decisions"]) if kind in d)


Mutation = Callable[[dict[str, Any]], object]

FIELD_ERRORS: list[tuple[str, Mutation, str]] = [
    ("direction_list", lambda r: r.update(direction=["to_next"]), "'direction' must be one of"),
    ("direction_object", lambda r: r.update(direction={"to": 1}), "'direction' must be one of"),
    ("dealer_float", lambda r: r.update(dealer=1.0), "'dealer' must be a seat 0-3, not 1.0"),
    ("dealer_true", lambda r: r.update(dealer=True), "'dealer' must be a seat 0-3, not True"),
    ("wall_null", lambda r: r["wall"].__setitem__(7, None), "wall position 7 must be a tile"),
    ("wall_pair", lambda r: r["wall"].__setitem__(7, ["5", "m"]), "wall position 7 must be a tile"),
    ("wall_newline", lambda r: r["wall"].__setitem__(7, r["wall"][7] + "\n"), "wall position 7:"),
]
"""Fields of the deal: refused by the record loader and by the verifier."""

REPLAY_ERRORS: list[tuple[str, Mutation, str]] = [
    ("wall_honour", lambda r: r["wall"].__setitem__(7, "1z"), "wall position 7: no honour tiles"),
    ("seat_true", lambda r: r["decisions"][0].update(seat=True), "decision 0: 'seat' must be a seat 0-3"),
    ("seat_five", lambda r: r["decisions"][0].update(seat=5), "decision 0: 'seat' must be a seat 0-3"),
    ("kong_honour", lambda r: r["decisions"].insert(3, {"seat": 0, "kong": "1z"}), 'decision 3: "kong": no honour'),
    ("pong_honour", lambda r: r["decisions"].insert(3, {"seat": 0, "pong": "7z"}), 'decision 3: "pong": no honour'),
    ("discard_spaced", lambda r: r["decisions"][_first(r, "discard")].update(discard="5m\n"),
     "\"discard\": unknown character '\\n'"),
    ("decisions_object", lambda r: r.update(decisions={"seat": 0}), "'decisions' must be a list"),
    ("base_text", lambda r: r.update(base="1"), "rule option 'base'"),
    ("base_true", lambda r: r.update(base=True), "rule option 'base'"),
    ("base_huge", lambda r: r.update(base=10**100), "rule option 'base'"),
    ("max_fan_true", lambda r: r.update(rules={"preset": "xuezhan", "options": {"max_fan": True}}),
     "rule option 'max_fan'"),
]
"""Fields only a replay reads (a 108-tile game): refused by the loader; the verifier (which also reads
136-tile deals) fails its replay check with them."""


@pytest.mark.parametrize(("name", "mutate", "message"), FIELD_ERRORS + REPLAY_ERRORS)
def test_record_field_errors_name_the_field(name: str, mutate: Mutation, message: str) -> None:
    record = fresh()
    mutate(record)
    with pytest.raises(RecordError, match=re.escape(message)):
        replay(record)


def _mutated_file(folder: Path, name: str, mutate: Mutation) -> Path:
    record = fresh()
    mutate(record)
    path = folder / f"{name}.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def _cli(args: list[str]) -> tuple[int, str]:
    result = runner.invoke(app, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a traceback: the test fails with it
    return result.exit_code, result.output


@pytest.mark.parametrize(("name", "mutate", "message"), FIELD_ERRORS)
def test_replay_and_fair_verify_refuse_bad_deal_fields(
    tmp_path: Path, name: str, mutate: Mutation, message: str
) -> None:
    path = _mutated_file(tmp_path, name, mutate)
    code, out = _cli(["replay", str(path)])
    assert code == 1 and message in out
    code, out = _cli(["fair", "verify", str(path)])
    assert code == 2 and message in out


@pytest.mark.parametrize(("name", "mutate", "message"), REPLAY_ERRORS)
def test_fair_verify_fails_the_replay_check_of_bad_decisions(
    tmp_path: Path, name: str, mutate: Mutation, message: str
) -> None:
    path = _mutated_file(tmp_path, name, mutate)
    code, out = _cli(["fair", "verify", "--json", str(path)])
    assert code == 1
    check = {c["name"]: c for c in json.loads(out)["checks"]}["replay"]
    assert check["status"] == "failed" and message in check["message"]


UNREADABLE: list[tuple[str, bytes, str]] = [
    ("latin1", '{"format": "café"}'.encode("latin-1"), "is not UTF-8 text"),
    ("deep", b"[" * 1000 + b"]" * 1000, "nested deeper than"),
    ("deep_object", b'{"a":' * 40 + b"1" + b"}" * 40, "nested deeper than"),
    ("long_integer", b'{"dealer": ' + b"9" * 5000 + b"}", "a number with thousands of digits"),
    ("not_json", b"{", "not valid JSON"),
]


@pytest.mark.parametrize(("name", "content", "message"), UNREADABLE)
def test_unreadable_record_files_get_a_clear_error(tmp_path: Path, name: str, content: bytes, message: str) -> None:
    path = tmp_path / f"{name}.json"
    path.write_bytes(content)
    code, out = _cli(["replay", str(path)])
    assert code == 1 and message in out
    code, out = _cli(["fair", "verify", str(path)])
    assert code == 2 and message in out


def test_rule_options_refuse_booleans_text_and_absurd_bases() -> None:
    for options, name in (({"max_fan": True}, "max_fan"), ({"base": "1"}, "base"), ({"base": True}, "base"),
                          ({"base": MAX_BASE + 1}, "base"), ({"fan_label_offset": True}, "fan_label_offset"),
                          ({"max_fan": 2.0}, "max_fan")):
        with pytest.raises(RuleSetError, match=f"rule option '{name}'"):
            RuleSet.from_preset("xuezhan", **options)
    assert RuleSet.from_preset("xuezhan", base=MAX_BASE).base == MAX_BASE


@pytest.mark.parametrize("options", [{"house_fans": {"menqing": 10**11}}, {"house_fans": {"menqing": 20_000}},
                                     {"house_fans": {"jiangdui": MAX_FAN + 1}}, {"max_fan": MAX_FAN + 1},
                                     {"max_fan": 10**11}])
def test_every_number_of_fan_is_bounded(options: dict[str, object]) -> None:
    # 2 ** (10**11) stalled scoring; 2 ** 20000 could not be written as JSON; 2 ** 600 not averaged
    with pytest.raises(RuleSetError, match=f"from 0 to {MAX_FAN}|from 1 to {MAX_FAN}"):
        RuleSet.from_preset("xuezhan", **options)
    # each number up to MAX_FAN, the rule set's highest total within MAX_TOTAL (test_rules_highest_total.py)
    rules = RuleSet.from_preset("xuezhan", house_fans={"menqing": MAX_FAN}, max_fan=MAX_TOTAL)
    assert rules.house_fans == {"menqing": MAX_FAN} and rules.max_fan == MAX_TOTAL
    assert RuleSet.from_preset("xuezhan", max_fan=MAX_FAN).max_fan == MAX_FAN


@pytest.mark.parametrize("command", [["score"], ["simulate", "--hands", "1"], ["play"]])
def test_commands_refuse_an_absurd_house_fan_in_one_line(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--set", 'house_fans={"menqing":600}'],
                                input='{"hand": "123m456m789m23p55p", "win_tile": "4p", "void": "s"}\n')
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert f"from 0 to {MAX_FAN}" in " ".join(result.output.replace("│", " ").split())  # as one line, unboxed
    assert RuleSet.from_preset("xuezhan").with_assignments(["base=6", "max_fan=none"]).base == 6


def test_a_valid_record_still_replays_and_verifies(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(fresh()), encoding="utf-8")
    assert _cli(["replay", "--json", str(path)])[0] == 0
    assert _cli(["fair", "verify", str(path)])[0] == EXIT_UNVERIFIED  # unsigned: consistent, not verified
