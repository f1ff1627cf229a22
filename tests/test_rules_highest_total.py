"""A rule set's highest total: a win is paid at most 2^MAX_TOTAL base (the compiled core's payments are
64-bit), so RuleSet refuses, wherever rules are given, the rule sets the core refuses, and only those."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from chuanma import _core
from chuanma.cli import app
from chuanma.errors import RuleSetError
from chuanma.fans import FANS, HOUSE_FAN_DEFAULTS, MAX_TOTAL, highest_total
from chuanma.rules import MAX_FAN, PRESETS, RuleSet
from chuanma.scoring import score_options

LIMIT_FANS = ("tianhu", "dihu", "shisanyao", "dasixi", "dasanyuan", "ziyise")
"""The limit hands (极品): each scores alone, so the highest total is at least the highest of them."""

OVER: dict[str, Any] = {"house_fans": {"menqing": 64}}
"""Options whose wins could reach 103 fan."""


def taken(make: Callable[[], object]) -> bool:
    """``make()`` returned (true) or was refused for its highest total (false)."""
    try:
        make()
    except (RuleSetError, _core.RulesRefused) as exc:
        assert "fan" in str(exc) and str(MAX_TOTAL) in str(exc), exc
        return False
    return True


def verdicts(preset: str, cases: list[dict[str, Any]]) -> list[tuple[int, bool]]:
    """Each case's highest total, checking RuleSet accepts it exactly when the core's Rules does."""
    out = []
    for options in cases:
        raw = RuleSet.model_construct(preset=preset, **{**PRESETS[preset], **options})  # not validated
        total = highest_total(raw.house_fans, raw.max_fan)
        ours = taken(lambda: RuleSet.from_preset(preset, **options))  # noqa: B023 - called at once
        core = taken(lambda: _core.Rules(raw, score_options(raw)))  # noqa: B023
        assert ours == core == (total <= MAX_TOTAL), (preset, options, total)
        out.append((total, ours))
    return out


def assert_spans_the_limit(found: list[tuple[int, bool]]) -> None:
    """The sweep reached the limit exactly and went past it (so both verdicts were compared there)."""
    totals = {t for t, _ in found}
    assert {MAX_TOTAL - 1, MAX_TOTAL, MAX_TOTAL + 1} <= totals, sorted(totals)


@pytest.mark.parametrize("preset", ["xuezhan", "dazhong"])
@pytest.mark.parametrize("fan", list(HOUSE_FAN_DEFAULTS))
def test_house_fans_are_taken_up_to_the_limit_as_the_core_takes_them(preset: str, fan: str) -> None:
    found = verdicts(preset, [{"house_fans": {fan: v}} for v in range(MAX_FAN + 1)])
    assert_spans_the_limit(found)
    assert (MAX_TOTAL, True) in found and (MAX_TOTAL + 1, False) in found


@pytest.mark.parametrize("preset", ["xuezhan", "classic"])
def test_max_fan_bounds_the_total_as_the_core_bounds_it(preset: str) -> None:
    found = verdicts(preset, [{**OVER, "max_fan": cap} for cap in [*range(1, MAX_FAN + 1), None]])
    assert_spans_the_limit(found)
    assert [ok for _, ok in found] == [cap <= MAX_TOTAL for cap in range(1, MAX_FAN + 1)] + [False]


@pytest.mark.parametrize("fan", LIMIT_FANS)
def test_limit_hands_count_alone_as_the_core_counts_them(fan: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A limit hand's value (the fan table's) is a highest total on its own. The core is given a rule
    set made under the table as it is (every preset is refused under a table over the limit) and the
    options made under the changed one: it reads the fans' values from the options alone."""
    made, rest = RuleSet.from_preset("dazhong"), highest_total({}, None)
    found = []
    for value in range(MAX_FAN + 1):
        monkeypatch.setitem(FANS, fan, replace(FANS[fan], fan=value))
        options = score_options(RuleSet.model_construct(**made.model_dump()))
        total = _core.highest_total(options)
        ours = taken(lambda: RuleSet.from_preset("dazhong"))
        core = taken(lambda: _core.Rules(made, options))  # noqa: B023 - called at once
        assert ours == core == (total <= MAX_TOTAL), (fan, value, total)
        found.append((total, ours))
    assert_spans_the_limit(found)
    assert [total for total, _ in found] == [max(v, rest) for v in range(MAX_FAN + 1)]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_is_within_the_limit(preset: str) -> None:
    rules = RuleSet.from_preset(preset)
    assert highest_total(rules.house_fans, rules.max_fan) <= MAX_TOTAL
    assert _core.Rules(rules, score_options(rules)).options() == rules.options()


def test_a_rule_set_over_the_limit_is_refused_whole_with_its_total() -> None:
    message = ("rules refused: a win under these rules could reach 103 fan (2^103 base); the most a rule set may "
               "reach is 50 fan: lower the house fans' values or set max_fan to 50 or less")
    with pytest.raises(RuleSetError) as caught:
        RuleSet.from_json({"preset": "xuezhan", "options": OVER})
    assert str(caught.value) == message
    assert caught.value.code == "rule_total" and caught.value.facts == {"total": 103, "most": MAX_TOTAL}
    near = RuleSet.from_preset("xuezhan", max_fan=MAX_TOTAL, **OVER)
    refused: list[Callable[[], RuleSet]] = [
        lambda: near.with_options(max_fan=None), lambda: near.with_assignments(["max_fan=none"]),
        lambda: RuleSet.from_json(json.dumps({"options": {**OVER, "max_fan": MAX_TOTAL + 1}}))]
    for make in refused:
        with pytest.raises(RuleSetError, match=r"reach (103|51) fan"):
            make()
    with pytest.raises(ValidationError, match="could reach 103 fan"):
        RuleSet(**OVER)


@pytest.mark.parametrize("command", [["rules"], ["hand", "123m456m789m23p55p", "--void", "s"], ["score"],
                                     ["simulate", "--hands", "1"], ["play", "--hands", "1"]])
def test_commands_refuse_such_rules_with_a_message(command: list[str]) -> None:
    result = CliRunner().invoke(app, [*command, "--set", 'house_fans={"menqing": 64}'], input="")
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    said = " ".join(word for word in result.output.split() if word != "│")  # unwrapped from the error box
    assert "could reach 103 fan (2^103 base); the most a rule set may reach is 50 fan" in said
    assert "Traceback" not in result.output


def test_a_scored_line_with_such_rules_is_an_error_line() -> None:
    line = json.dumps({"rules": {"options": OVER}, "hand": "123m456m789m23p55p", "win_tile": "4p", "void": "s"})
    result = CliRunner().invoke(app, ["score"], input=line + "\n")
    assert result.exit_code == 1
    error = json.loads(result.stdout)["error"]
    assert "could reach 103 fan" in error
