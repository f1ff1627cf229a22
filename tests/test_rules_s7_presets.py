"""RULES.md §7: the named presets, their key options, overrides, validation and the JSON form."""

from __future__ import annotations

import json
from typing import Any

import pytest

from chuanma.errors import RuleSetError
from chuanma.rules import PRESETS, RuleSet, option_schema

ALL_PRESETS = ["xuezhan", "xueliu", "doublewin-xuezhan", "doublewin-xueliu", "classic", "portal-xuezhan",
               "portal-xueliu", "classic-normal", "dazhong"]
SCORED_PRESETS = ALL_PRESETS

EXPECTED: dict[str, dict[str, Any]] = {
    "xuezhan": {
        "variant": "xuezhan", "max_fan": None, "multiple_winners": True, "pass_rule": "same_turn",
        "robbing_kong": True, "gangshangpao": True, "call_transfer": "each_winner", "haidilaoyue": True,
        "haidipao": True, "no_kong_in_last_four": True, "forced_win_in_last_four": True,
        "late_added_kong_pays": False, "flower_pig": "fixed", "flower_pig_pays_winners": False,
        "chadajiao": True, "refund": True, "dihu_on_dealer_discard": True, "exposed_kong": "discarder_only",
        "dealer": "random", "longqidui": False, "yaojiu": "daiyaojiu", "zimo_bonus": "fan",
        "fan_label_offset": 0, "winners_kong": False, "exchange": True, "house_fans": {},
    },
    "xueliu": {
        "variant": "xueliu", "max_fan": None, "multiple_winners": True, "pass_rule": "forever",
        "longqidui": True, "winners_kong": True, "robbing_kong": True, "gangshangpao": True,
        "call_transfer": "each_winner", "haidilaoyue": True, "haidipao": True, "no_kong_in_last_four": True,
        "forced_win_in_last_four": True, "late_added_kong_pays": False, "flower_pig": "fixed",
        "chadajiao": True, "refund": True, "dihu_on_dealer_discard": True, "exposed_kong": "discarder_only",
        "dealer": "random", "yaojiu": "daiyaojiu", "house_fans": {},
    },
    "doublewin-xuezhan": {
        "variant": "xuezhan", "max_fan": None, "flower_pig": "ting_max", "chadajiao": True, "refund": False,
        "multiple_winners": False, "robbing_kong": False, "gangshangpao": False, "haidipao": False,
        "call_transfer": "off", "pass_rule": "none", "yaojiu": "literal", "longqidui": False,
        "haidilaoyue": True, "house_fans": {},
    },
    "doublewin-xueliu": {
        "variant": "xueliu", "max_fan": None, "multiple_winners": True, "pass_rule": "forever",
        "winners_kong": True, "longqidui": True, "flower_pig": "ting_max", "chadajiao": True,
        "robbing_kong": False, "yaojiu": "literal", "house_fans": {},
    },
    "classic": {
        "variant": "xuezhan", "base": 6, "fan_label_offset": 1, "zimo_bonus": "base",
        "exposed_kong": "discarder_only", "call_transfer": "each_winner", "robbing_kong": True,
        "multiple_winners": True, "flower_pig": "fixed", "flower_pig_pays_winners": True, "chadajiao": True,
        "refund": True, "escape_penalty": True, "forced_win_in_last_four": False, "longqidui": False,
        "yaojiu": "daiyaojiu", "house_fans": {},
    },
    "portal-xuezhan": {
        "variant": "xuezhan", "max_fan": 4, "late_added_kong_pays": False, "pass_rule": "same_turn",
        "no_kong_in_last_four": True, "forced_win_in_last_four": True, "gangshangpao": True, "haidipao": True,
        "robbing_kong": True, "dihu_on_dealer_discard": True, "dealer": "first_winner", "flower_pig": "fixed",
        "longqidui": False, "yaojiu": "daiyaojiu", "house_fans": {},
    },
    "portal-xueliu": {
        "variant": "xueliu", "max_fan": 4, "late_added_kong_pays": False, "pass_rule": "same_turn",
        "no_kong_in_last_four": True, "forced_win_in_last_four": True, "gangshangpao": True, "haidipao": True,
        "robbing_kong": True, "dihu_on_dealer_discard": True, "dealer": "first_winner", "flower_pig": "fixed",
        "longqidui": True, "winners_kong": True, "yaojiu": "daiyaojiu", "house_fans": {},
    },
    # 001 普通场: every rule of classic, the first win ends the hand, the discarder deals next
    "classic-normal": {
        "variant": "normal", "base": 6, "fan_label_offset": 1, "zimo_bonus": "base",
        "exposed_kong": "discarder_only", "call_transfer": "each_winner", "robbing_kong": True,
        "multiple_winners": True, "flower_pig": "fixed", "flower_pig_pays_winners": True, "chadajiao": True,
        "refund": True, "escape_penalty": True, "forced_win_in_last_four": False, "dealer": "discarder",
        "exchange": True, "concealed_kong_shown": True, "house_fans": {},
    },
    # 004 大众麻将: no 换三张, 连庄 or 下家, 荒庄不荒杠 (no 查大叫, no 退税)
    "dazhong": {
        "variant": "dazhong", "exchange": False, "dealer": "rotate", "chadajiao": False, "refund": False,
        "multiple_winners": False, "call_transfer": "off", "max_fan": None, "house_fans": {},
    },
}


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_preset_exists_by_name(preset: str) -> None:
    assert preset in PRESETS
    rules = RuleSet.from_preset(preset)
    assert rules.preset == preset
    assert RuleSet.from_json(preset) == rules


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_preset_key_options(preset: str) -> None:
    rules = RuleSet.from_preset(preset)
    actual = {name: getattr(rules, name) for name in EXPECTED[preset]}
    assert actual == EXPECTED[preset]


def test_default_preset_is_xuezhan() -> None:
    assert RuleSet.from_preset() == RuleSet.from_preset("xuezhan")
    assert RuleSet() == RuleSet.from_preset("xuezhan")
    assert RuleSet.from_json({}) == RuleSet.from_preset("xuezhan")


def test_presets_are_distinct() -> None:
    options = [json.dumps(RuleSet.from_preset(p).options(), sort_keys=True) for p in SCORED_PRESETS]
    assert len(set(options)) == len(options)


def test_longqidui_only_in_the_xueliu_presets() -> None:
    with_it = {p for p in SCORED_PRESETS if RuleSet.from_preset(p).longqidui}
    assert with_it == {"xueliu", "doublewin-xueliu", "portal-xueliu"}


def test_literal_yaojiu_only_in_doublewin_presets() -> None:
    literal = {p for p in SCORED_PRESETS if RuleSet.from_preset(p).yaojiu == "literal"}
    assert literal == {"doublewin-xuezhan", "doublewin-xueliu"}


def test_cap_only_in_portal_presets() -> None:
    capped = {p: RuleSet.from_preset(p).max_fan for p in SCORED_PRESETS if RuleSet.from_preset(p).max_fan}
    assert capped == {"portal-xuezhan": 4, "portal-xueliu": 4}


def test_multiple_winners_off_only_in_doublewin_xuezhan_and_dazhong() -> None:
    off = {p for p in SCORED_PRESETS if not RuleSet.from_preset(p).multiple_winners}
    assert off == {"doublewin-xuezhan", "dazhong"}


def test_robbing_kong_off_only_in_doublewin_presets() -> None:
    off = {p for p in SCORED_PRESETS if not RuleSet.from_preset(p).robbing_kong}
    assert off == {"doublewin-xuezhan", "doublewin-xueliu"}


# -- overrides -----------------------------------------------------------------------------------

def test_override_from_python() -> None:
    rules = RuleSet.from_preset("xuezhan", max_fan=4, pass_rule="none", robbing_kong=False)
    assert (rules.max_fan, rules.pass_rule, rules.robbing_kong) == (4, "none", False)
    assert rules.preset == "xuezhan"
    assert rules.multiple_winners is True  # untouched options keep the preset's value


def test_with_options_keeps_the_preset() -> None:
    rules = RuleSet.from_preset("portal-xueliu").with_options(max_fan=None, dealer="random")
    assert (rules.preset, rules.max_fan, rules.dealer, rules.pass_rule) == ("portal-xueliu", None, "random",
                                                                            "same_turn")


def test_override_from_json_object_and_text() -> None:
    data = {"preset": "xueliu", "options": {"pass_rule": "none", "max_fan": 5, "house_fans": ["jiangdui"]}}
    for source in (data, json.dumps(data)):
        rules = RuleSet.from_json(source)
        assert (rules.preset, rules.variant, rules.pass_rule, rules.max_fan) == ("xueliu", "xueliu", "none", 5)
        assert rules.house_fans == {"jiangdui": 2}
    assert RuleSet.from_json('"classic"') == RuleSet.from_preset("classic")


def test_override_from_assignments() -> None:
    rules = RuleSet.from_preset("xuezhan").with_assignments(
        ["max_fan=4", "pass_rule=forever", "robbing_kong=off", "refund=false", "house_fans={\"menqing\": 2}",
         "base=3", "fan_label_offset=1"])
    assert rules.max_fan == 4
    assert rules.pass_rule == "forever"
    assert rules.robbing_kong is False
    assert rules.refund is False
    assert rules.house_fans == {"menqing": 2}
    assert rules.base == 3
    assert rules.fan_label_offset == 1
    assert RuleSet.from_preset("portal-xuezhan").with_assignments(["max_fan=none"]).max_fan is None


@pytest.mark.parametrize("value", ["on", "true", "yes", "1", True])
def test_on_values(value: Any) -> None:
    assert RuleSet.from_preset("doublewin-xuezhan", refund=value).refund is True


@pytest.mark.parametrize("value", ["off", "false", "no", "0", False])
def test_off_values(value: Any) -> None:
    assert RuleSet.from_preset("xuezhan", refund=value).refund is False


def test_rule_sets_are_immutable() -> None:
    rules = RuleSet.from_preset("xuezhan")
    with pytest.raises(ValueError):
        rules.max_fan = 4  # type: ignore[misc]


# -- refusals ------------------------------------------------------------------------------------

def test_unknown_preset_lists_the_valid_ones() -> None:
    with pytest.raises(RuleSetError, match="xuezhen") as info:
        RuleSet.from_preset("xuezhen")
    for name in SCORED_PRESETS:
        assert name in str(info.value)


def test_unknown_option_lists_the_valid_ones() -> None:
    with pytest.raises(RuleSetError, match="max_fans") as info:
        RuleSet.from_preset("xuezhan", max_fans=4)
    message = str(info.value)
    assert "max_fan," in message or message.rstrip().endswith("max_fan")
    assert "pass_rule" in message and "house_fans" in message
    with pytest.raises(RuleSetError, match="fast_mode"):
        RuleSet.from_preset("xuezhan").with_assignments(["fast_mode=on"])
    with pytest.raises(RuleSetError, match="fast_mode"):
        RuleSet.from_json({"preset": "xuezhan", "options": {"fast_mode": True}})


@pytest.mark.parametrize(
    ("option", "value", "valid"),
    [
        ("pass_rule", "sometimes", ["none", "same_turn", "forever"]),
        ("flower_pig", "big", ["ting_max", "fixed"]),
        ("yaojiu", "both", ["daiyaojiu", "literal"]),
        ("exposed_kong", "nobody", ["discarder_only", "everyone"]),
        ("zimo_bonus", "double", ["fan", "base"]),
        ("call_transfer", "all", ["each_winner", "first_winner", "off"]),
        ("refund", "maybe", ["on", "off"]),
        ("fan_label_offset", 2, ["0", "1"]),
        ("max_fan", 0, ["none", "whole number"]),
        ("max_fan", "lots", ["none", "whole number"]),
        ("house_fans", {"sanlong": 2}, ["jiangdui", "menqing", "zhongzhang", "jiaxinwu", "shibaluohan"]),
    ],
)
def test_bad_value_lists_the_valid_ones(option: str, value: Any, valid: list[str]) -> None:
    with pytest.raises(RuleSetError) as info:
        RuleSet.from_preset("xuezhan", **{option: value})
    message = str(info.value)
    assert option in message
    for word in valid:
        assert word in message, (word, message)


def test_bad_value_in_assignment() -> None:
    with pytest.raises(RuleSetError, match="same_turn"):
        RuleSet.from_preset("xuezhan").with_assignments(["pass_rule=sometimes"])
    with pytest.raises(RuleSetError, match="name=value"):
        RuleSet.from_preset("xuezhan").with_assignments(["max_fan"])


def test_bad_json_is_refused() -> None:
    with pytest.raises(RuleSetError):
        RuleSet.from_json("{not json")
    with pytest.raises(RuleSetError, match="rules"):
        RuleSet.from_json({"preset": "xuezhan", "rules": {}})
    with pytest.raises(RuleSetError):
        RuleSet.from_json(42)


# -- JSON form -----------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", SCORED_PRESETS)
def test_to_json_of_a_plain_preset_is_its_name(preset: str) -> None:
    rules = RuleSet.from_preset(preset)
    assert rules.to_json() == preset
    assert RuleSet.from_json(rules.to_json()) == rules
    assert RuleSet.from_json(json.dumps(rules.to_json())) == rules


@pytest.mark.parametrize("preset", SCORED_PRESETS)
def test_to_json_round_trip_with_overrides(preset: str) -> None:
    rules = RuleSet.from_preset(preset, max_fan=6, pass_rule="none", house_fans={"jiangdui": 3}, base=2)
    spec = rules.to_json()
    assert isinstance(spec, dict)
    assert spec["preset"] == preset
    expected: dict[str, Any] = {"max_fan": 6, "house_fans": {"jiangdui": 3}, "base": 2}
    if RuleSet.from_preset(preset).pass_rule != "none":
        expected["pass_rule"] = "none"
    assert spec["options"] == expected
    assert RuleSet.from_json(spec) == rules
    assert RuleSet.from_json(json.dumps(spec)) == rules


def test_to_json_lists_only_what_differs() -> None:
    rules = RuleSet.from_preset("classic", base=6, zimo_bonus="fan")
    assert rules.to_json() == {"preset": "classic", "options": {"zimo_bonus": "fan"}}
    back = RuleSet.from_preset("classic").with_options(zimo_bonus="fan").with_options(zimo_bonus="base")
    assert back.to_json() == "classic"


def test_every_option_is_described_in_english_and_chinese() -> None:
    """The forms (lobby, calculator, rules page) show each option's description in the page's
    language: every option has both, and the Chinese one is Chinese."""
    schema = option_schema()
    assert [o["name"] for o in schema] == [n for n in RuleSet.model_fields if n != "preset"]
    for o in schema:
        assert o["description"] and o["description_zh"], o["name"]
        assert any("\u4e00" <= c <= "\u9fff" for c in o["description_zh"]), o["name"]
        assert o["description_zh"] != o["description"], o["name"]
