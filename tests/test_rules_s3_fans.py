"""RULES.md §3: the fan table, its decisions, house fans, the cap, labels and 查大叫's static fan.

Every expected fan list and total below is worked out by hand from the specification. A hand is
written as the concealed tiles *without* the winning tile, then the winning tile, then the melds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from chuanma.errors import NotationError
from chuanma.fans import HOUSE_FAN_DEFAULTS
from chuanma.melds import Meld
from chuanma.rules import RuleSet
from chuanma.scoring import FAN_NAMES, ScoreResult, max_static_fan, score_hand
from chuanma.tiles import parse_tile, parse_tiles

PLAIN = "123m456m789m234p5p"
"""A fanless hand (123m 456m 789m 234p, waits 2p/5p); won on 5p it is worth 0 fan."""


def meld(text: str) -> Meld:
    """``"pong 5m"`` or ``"kong 7s exposed"``."""
    kind, tile, *kong = text.split()
    return Meld(kind, parse_tile(tile), kong[0] if kong else None)  # type: ignore[arg-type]


def score(hand: str, win: str, melds: Sequence[str] = (), *, preset: str = "xuezhan", zimo: bool = False,
          void: str | None = None, situations: Sequence[str] = (), **options: Any) -> ScoreResult:
    rules = RuleSet.from_preset(preset, **options)
    return score_hand(rules, parse_tiles(hand), [meld(m) for m in melds], parse_tile(win), self_drawn=zimo,
                      void=void, situations=situations)


def fan_map(result: ScoreResult) -> dict[str, int]:
    ids = [f.id for f in result.fans]
    assert len(ids) == len(set(ids)), f"a fan is listed twice: {ids}"
    return {f.id: f.fan for f in result.fans}


def assert_score(result: ScoreResult, fans: dict[str, int], total: int) -> None:
    assert result.win, result.reason
    assert fan_map(result) == fans
    assert result.total == total
    assert result.multiplier == 2**total
    for f in result.fans:
        assert f.name == FAN_NAMES[f.id]


def static(hand: str, melds: Sequence[str] = (), *, void: str | None = None, preset: str = "xuezhan",
           **options: Any) -> int | None:
    rules = RuleSet.from_preset(preset, **options)
    return max_static_fan(rules, parse_tiles(hand), [meld(m) for m in melds], void)


# -- one test per fan of the table: worked examples and near misses ------------------------------

Case = tuple[str, str, tuple[str, ...], dict[str, Any], dict[str, int], int]


def _run(case: Case) -> None:
    hand, win, melds, kwargs, fans, total = case
    assert_score(score(hand, win, melds, **kwargs), fans, total)


QINGYISE: list[Case] = [
    ("1112345678999m", "5m", (), {}, {"qingyise": 2}, 2),
    ("1112345678999m", "5m", (), {"zimo": True}, {"qingyise": 2, "zimo": 1}, 3),
    ("34567p99p", "5p", ("pong 2p", "pong 8p"), {}, {"qingyise": 2}, 2),
]


@pytest.mark.parametrize("case", QINGYISE)
def test_qingyise_scores(case: Case) -> None:
    _run(case)


def test_qingyise_near_miss_pair_of_another_suit() -> None:
    # 123m 456m 789m 99m + 111p: two suits, no fan at all
    assert_score(score("123456789m99m11p", "1p"), {}, 0)


def test_qingyise_near_miss_meld_of_another_suit() -> None:
    assert_score(score("34567p99p", "5p", ("pong 2p", "pong 8m")), {}, 0)


QIDUI: list[Case] = [
    ("113355m77m99m22p4p", "4p", (), {}, {"qidui": 2}, 2),
    ("223344m6688m22p5p", "5p", (), {}, {"qidui": 2, "duanyaojiu": 1}, 3),
    ("223344m6688m22p5p", "5p", (), {"zimo": True}, {"qidui": 2, "duanyaojiu": 1, "zimo": 1}, 4),
    # four of a kind counts as two pairs; without 龙七对 it is 七对 + 根
    ("1111335577m99p2p", "2p", (), {}, {"qidui": 2, "gen": 1}, 3),
]


@pytest.mark.parametrize("case", QIDUI)
def test_qidui_scores(case: Case) -> None:
    _run(case)


def test_qidui_near_miss_five_pairs_and_a_triplet() -> None:
    # 123m 123m 44p 666p 789p: pairs everywhere but a standard hand only
    assert_score(score("112233m44p666p78p", "9p"), {}, 0)


LONGQIDUI: list[Case] = [
    ("1111335577m99p2p", "2p", (), {"preset": "xueliu"}, {"longqidui": 4}, 4),
    ("2222m4466m5588p3p", "3p", (), {"preset": "xueliu"}, {"longqidui": 4, "duanyaojiu": 1}, 5),
    ("2222m4466m5588p3p", "3p", (), {"preset": "doublewin-xueliu", "zimo": True},
     {"longqidui": 4, "duanyaojiu": 1, "zimo": 1}, 6),
    ("1111335577m99p2p", "2p", (), {"preset": "portal-xueliu"}, {"longqidui": 4}, 4),
]


@pytest.mark.parametrize("case", LONGQIDUI)
def test_longqidui_scores(case: Case) -> None:
    _run(case)


def test_longqidui_near_miss_seven_pairs_without_four_of_a_kind() -> None:
    assert_score(score("113355m77m99m22p4p", "4p", preset="xueliu"), {"qidui": 2}, 2)


@pytest.mark.parametrize("preset", ["xuezhan", "doublewin-xuezhan", "portal-xuezhan", "classic"])
def test_longqidui_near_miss_presets_without_it(preset: str) -> None:
    assert_score(score("1111335577m99p2p", "2p", preset=preset), {"qidui": 2, "gen": 1}, 3)


def test_longqidui_near_miss_standard_hand_with_a_kong() -> None:
    assert_score(score("123m789m11p22p", "2p", ("kong 5m exposed",), preset="xueliu"), {"gen": 1}, 1)


DUIDUIHU: list[Case] = [
    ("111m333m555m77p99p", "7p", (), {}, {"duiduihu": 1}, 1),
    ("555m66p88p", "8p", ("pong 2m", "kong 8m exposed"), {}, {"duiduihu": 1, "duanyaojiu": 1, "gen": 1}, 3),
    ("111m333m555m77p99p", "7p", (), {"zimo": True}, {"duiduihu": 1, "zimo": 1}, 2),
]


@pytest.mark.parametrize("case", DUIDUIHU)
def test_duiduihu_scores(case: Case) -> None:
    _run(case)


def test_duiduihu_near_miss_one_sequence() -> None:
    assert_score(score("111m333m567m77p99p", "7p"), {}, 0)


DUANYAOJIU: list[Case] = [
    ("234m567m888p44p66p", "6p", (), {}, {"duanyaojiu": 1}, 1),
    ("223344m6688m22p5p", "5p", (), {}, {"qidui": 2, "duanyaojiu": 1}, 3),
    ("234m567m888p44p66p", "6p", (), {"zimo": True}, {"duanyaojiu": 1, "zimo": 1}, 2),
]


@pytest.mark.parametrize("case", DUANYAOJIU)
def test_duanyaojiu_scores(case: Case) -> None:
    _run(case)


def test_duanyaojiu_near_miss_one_terminal() -> None:
    assert_score(score("234m567m888p44p99p", "9p"), {}, 0)


def test_duanyaojiu_near_miss_terminal_in_a_meld() -> None:
    assert_score(score("234m567m44p66p", "6p", ("pong 9p",)), {}, 0)


DAIYAOJIU: list[Case] = [
    ("123m789m111p789p9p", "9p", (), {}, {"daiyaojiu": 1}, 1),
    ("112233s78s99s", "9s", ("pong 1p",), {"zimo": True}, {"daiyaojiu": 1, "zimo": 1}, 2),
    ("123m789m111p789p9p", "9p", (), {"preset": "portal-xuezhan"}, {"daiyaojiu": 1}, 1),
]


@pytest.mark.parametrize("case", DAIYAOJIU)
def test_daiyaojiu_scores(case: Case) -> None:
    _run(case)


def test_daiyaojiu_near_miss_middle_sequence() -> None:
    assert_score(score("123m789m111p456p9p", "9p"), {}, 0)


def test_daiyaojiu_near_miss_middle_pair() -> None:
    # 123m 789m 111p 999p with the pair 55p
    assert_score(score("123m789m111p999p5p", "5p"), {}, 0)


YAOJIU: list[Case] = [
    ("1111m9999m1111p9p", "9p", (), {"preset": "doublewin-xuezhan"}, {"qidui": 2, "yaojiu": 1, "gen": 3}, 6),
    ("1111m9999m1111p9p", "9p", (), {"preset": "doublewin-xueliu"}, {"longqidui": 4, "yaojiu": 1, "gen": 2}, 7),
    ("1111m9999m111p99p", "1p", (), {"preset": "doublewin-xuezhan", "zimo": True},
     {"qidui": 2, "yaojiu": 1, "zimo": 1, "gen": 3}, 7),
]


@pytest.mark.parametrize("case", YAOJIU)
def test_yaojiu_scores(case: Case) -> None:
    _run(case)


def test_yaojiu_near_miss_sets_with_terminals_are_not_literal_yaojiu() -> None:
    assert_score(score("123m789m111p789p9p", "9p", preset="doublewin-xuezhan"), {}, 0)


def test_yaojiu_near_miss_outside_doublewin() -> None:
    assert_score(score("1111m9999m1111p9p", "9p"), {"qidui": 2, "gen": 3}, 5)


JINGOUDIAO: list[Case] = [
    ("3p", "3p", ("pong 2m", "pong 5m", "pong 7p", "pong 8p"), {},
     {"duiduihu": 1, "jingoudiao": 1, "duanyaojiu": 1}, 3),
    ("7m", "7m", ("kong 1m exposed", "pong 9m", "pong 3m", "pong 5m"), {},
     {"qingyise": 2, "duiduihu": 1, "jingoudiao": 1, "gen": 1}, 5),
    ("3p", "3p", ("pong 2m", "kong 5m concealed", "pong 7p", "pong 8p"), {"zimo": True},
     {"duiduihu": 1, "jingoudiao": 1, "duanyaojiu": 1, "zimo": 1, "gen": 1}, 5),
]


@pytest.mark.parametrize("case", JINGOUDIAO)
def test_jingoudiao_scores(case: Case) -> None:
    _run(case)


def test_jingoudiao_near_miss_one_concealed_triplet() -> None:
    assert_score(score("888p3p", "3p", ("pong 2m", "pong 5m", "pong 7p")), {"duiduihu": 1, "duanyaojiu": 1}, 2)


ZIMO: list[Case] = [
    (PLAIN, "5p", (), {"zimo": True}, {"zimo": 1}, 1),
    ("1112345678999m", "5m", (), {"zimo": True}, {"qingyise": 2, "zimo": 1}, 3),
    (PLAIN, "5p", (), {"zimo": True, "preset": "doublewin-xuezhan"}, {"zimo": 1}, 1),
]


@pytest.mark.parametrize("case", ZIMO)
def test_zimo_scores(case: Case) -> None:
    _run(case)


def test_zimo_near_miss_win_on_a_discard() -> None:
    assert_score(score(PLAIN, "5p"), {}, 0)


def test_zimo_near_miss_classic_base_bonus_has_no_fan() -> None:
    result = score("1112345678999m", "5m", preset="classic", zimo=True)
    assert_score(result, {"qingyise": 2}, 2)
    assert result.label == 3


GANGSHANGHUA: list[Case] = [
    ("456m789m11p22p", "2p", ("kong 3m concealed",), {"zimo": True, "situations": ["kong_replacement"]},
     {"zimo": 1, "gangshanghua": 1, "gen": 1}, 3),
    ("234p777p8p", "8p", ("kong 5p added", "kong 6p concealed"), {"zimo": True, "situations": ["kong_replacement"]},
     {"qingyise": 2, "duanyaojiu": 1, "zimo": 1, "gangshanghua": 1, "gen": 2}, 7),
    # 杠上双花 is off by default: consecutive kongs still give 1
    ("234p777p8p", "8p", ("kong 5p added", "kong 6p concealed"),
     {"zimo": True, "situations": ["kong_replacement", "consecutive_kongs"]},
     {"qingyise": 2, "duanyaojiu": 1, "zimo": 1, "gangshanghua": 1, "gen": 2}, 7),
    ("234p777p8p", "8p", ("kong 5p added", "kong 6p concealed"),
     {"zimo": True, "situations": ["kong_replacement", "consecutive_kongs"], "gangshang_shuanghua": True},
     {"qingyise": 2, "duanyaojiu": 1, "zimo": 1, "gangshanghua": 2, "gen": 2}, 8),
]


@pytest.mark.parametrize("case", GANGSHANGHUA)
def test_gangshanghua_scores(case: Case) -> None:
    _run(case)


def test_gangshanghua_near_miss_ordinary_draw() -> None:
    assert_score(score("456m789m11p22p", "2p", ("kong 3m concealed",), zimo=True), {"zimo": 1, "gen": 1}, 2)


def test_gangshanghua_needs_a_self_drawn_win() -> None:
    with pytest.raises(NotationError, match="kong_replacement"):
        score(PLAIN, "5p", situations=["kong_replacement"])


GANGSHANGPAO: list[Case] = [
    (PLAIN, "5p", (), {"situations": ["after_kong"]}, {"gangshangpao": 1}, 1),
    ("111m333m555m77p99p", "7p", (), {"situations": ["after_kong"]}, {"duiduihu": 1, "gangshangpao": 1}, 2),
    (PLAIN, "5p", (), {"situations": ["after_kong"], "preset": "portal-xueliu"}, {"gangshangpao": 1}, 1),
]


@pytest.mark.parametrize("case", GANGSHANGPAO)
def test_gangshangpao_scores(case: Case) -> None:
    _run(case)


def test_gangshangpao_near_miss_off_in_doublewin_xuezhan() -> None:
    assert_score(score(PLAIN, "5p", preset="doublewin-xuezhan", situations=["after_kong"]), {}, 0)


def test_gangshangpao_near_miss_discard_not_after_kong() -> None:
    assert_score(score("111m333m555m77p99p", "7p"), {"duiduihu": 1}, 1)


def test_gangshangpao_is_not_self_drawn() -> None:
    with pytest.raises(NotationError, match="after_kong"):
        score(PLAIN, "5p", zimo=True, situations=["after_kong"])


QIANGGANGHU: list[Case] = [
    (PLAIN, "5p", (), {"situations": ["robbing_kong"]}, {"qiangganghu": 1}, 1),
    ("1112345678999m", "5m", (), {"situations": ["robbing_kong"], "preset": "classic"},
     {"qingyise": 2, "qiangganghu": 1}, 3),
    ("234m567m888p44p66p", "6p", (), {"situations": ["robbing_kong"], "preset": "portal-xuezhan"},
     {"duanyaojiu": 1, "qiangganghu": 1}, 2),
]


@pytest.mark.parametrize("case", QIANGGANGHU)
def test_qiangganghu_scores(case: Case) -> None:
    _run(case)


@pytest.mark.parametrize("preset", ["doublewin-xuezhan", "doublewin-xueliu"])
def test_qiangganghu_near_miss_robbing_off_is_not_a_win(preset: str) -> None:
    result = score(PLAIN, "5p", preset=preset, situations=["robbing_kong"])
    assert not result.win
    assert result.reason and "抢杠胡" in result.reason
    assert result.fans == () and result.total == 0


def test_qiangganghu_near_miss_ordinary_discard() -> None:
    assert_score(score("234m567m888p44p66p", "6p"), {"duanyaojiu": 1}, 1)


HAIDILAOYUE: list[Case] = [
    (PLAIN, "5p", (), {"zimo": True, "situations": ["last_tile"]}, {"zimo": 1, "haidilaoyue": 1}, 2),
    ("234m567m888p44p66p", "6p", (), {"zimo": True, "situations": ["last_tile"]},
     {"duanyaojiu": 1, "zimo": 1, "haidilaoyue": 1}, 3),
    (PLAIN, "5p", (), {"zimo": True, "situations": ["last_tile"], "preset": "doublewin-xuezhan"},
     {"zimo": 1, "haidilaoyue": 1}, 2),
]


@pytest.mark.parametrize("case", HAIDILAOYUE)
def test_haidilaoyue_scores(case: Case) -> None:
    _run(case)


def test_haidilaoyue_near_miss_last_tile_won_on_a_discard_is_haidipao() -> None:
    assert_score(score(PLAIN, "5p", situations=["last_tile"]), {"haidipao": 1}, 1)


def test_haidilaoyue_near_miss_option_off() -> None:
    assert_score(score(PLAIN, "5p", zimo=True, situations=["last_tile"], haidilaoyue=False), {"zimo": 1}, 1)


HAIDIPAO: list[Case] = [
    (PLAIN, "5p", (), {"situations": ["last_tile"]}, {"haidipao": 1}, 1),
    ("111m333m555m77p99p", "7p", (), {"situations": ["last_tile"]}, {"duiduihu": 1, "haidipao": 1}, 2),
    ("111m333m555m77p99p", "7p", (), {"situations": ["last_tile"], "preset": "portal-xuezhan"},
     {"duiduihu": 1, "haidipao": 1}, 2),
]


@pytest.mark.parametrize("case", HAIDIPAO)
def test_haidipao_scores(case: Case) -> None:
    _run(case)


@pytest.mark.parametrize("preset", ["doublewin-xuezhan", "doublewin-xueliu"])
def test_haidipao_near_miss_off_in_doublewin(preset: str) -> None:
    assert_score(score(PLAIN, "5p", preset=preset, situations=["last_tile"]), {}, 0)


def test_haidipao_near_miss_self_drawn_last_tile() -> None:
    result = score(PLAIN, "5p", zimo=True, situations=["last_tile"])
    assert "haidipao" not in fan_map(result)


GEN: list[Case] = [
    # a kong
    ("123m789m11p22p", "2p", ("kong 5m exposed",), {}, {"gen": 1}, 1),
    # a pong plus the fourth tile in the concealed hand
    ("567m123p456p8p", "8p", ("pong 5m",), {}, {"gen": 1}, 1),
    # a pong plus the fourth tile as the winning tile
    ("34m123p456p88p", "5m", ("pong 5m",), {}, {"gen": 1}, 1),
    # four in the concealed hand, split across the pair and two sequences (11m 123m 123m)
    ("11112233m789m55p", "5p", (), {}, {"gen": 1}, 1),
    # four in the concealed hand, as a triplet and a sequence (111m 123m)
    ("1111m23m456p789p5p", "5p", (), {}, {"gen": 1}, 1),
    # two 根: two kongs
    ("123m789m2p", "2p", ("kong 5m exposed", "kong 4p concealed"), {}, {"gen": 2}, 2),
]


@pytest.mark.parametrize("case", GEN)
def test_gen_scores(case: Case) -> None:
    _run(case)


def test_gen_near_miss_three_copies() -> None:
    assert_score(score("67m123p456p88p", "8m", ("pong 5m",)), {}, 0)


def test_gen_near_miss_triplets_of_terminals_without_a_fourth() -> None:
    assert_score(score("1112345678999m", "5m"), {"qingyise": 2}, 2)


def test_gen_four_in_concealed_hand_with_daiyaojiu() -> None:
    # 999p pong, concealed 11s 123s 123s 789s: 1s held four times, split over the pair and two sequences
    result = score("1112233s789s", "1s", ("pong 9p",))
    assert_score(result, {"daiyaojiu": 1, "gen": 1}, 2)


TIANHU: list[Case] = [
    (PLAIN, "5p", (), {"zimo": True, "situations": ["tianhu"]}, {"tianhu": 8}, 8),
    ("1112345678999m", "5m", (), {"zimo": True, "situations": ["tianhu"]}, {"tianhu": 8}, 8),
    ("1111m3333m55m77p9p", "9p", (), {"zimo": True, "situations": ["tianhu"], "preset": "xueliu"},
     {"tianhu": 8}, 8),
]


@pytest.mark.parametrize("case", TIANHU)
def test_tianhu_scores(case: Case) -> None:
    _run(case)


def test_tianhu_near_miss_not_self_drawn() -> None:
    with pytest.raises(NotationError, match="tianhu"):
        score(PLAIN, "5p", situations=["tianhu"])


def test_tianhu_near_miss_incomplete_hand_is_not_a_win() -> None:
    result = score("123m456m789m234p6p", "5p", zimo=True, situations=["tianhu"])
    assert not result.win


DIHU: list[Case] = [
    (PLAIN, "5p", (), {"zimo": True, "situations": ["dihu"]}, {"dihu": 8}, 8),
    # on the dealer's first discard: allowed by dihu_on_dealer_discard in xuezhan
    ("1112345678999m", "5m", (), {"situations": ["dihu"]}, {"dihu": 8}, 8),
    ("1112345678999m", "5m", (), {"situations": ["dihu"], "preset": "portal-xueliu"}, {"dihu": 8}, 4),
    ("1112345678999m", "5m", (), {"zimo": True, "situations": ["dihu"], "preset": "classic"}, {"dihu": 8}, 8),
]


@pytest.mark.parametrize("case", DIHU)
def test_dihu_scores(case: Case) -> None:
    _run(case)


@pytest.mark.parametrize("preset", ["classic", "doublewin-xuezhan", "doublewin-xueliu"])
def test_dihu_near_miss_discard_without_dihu_on_dealer_discard(preset: str) -> None:
    assert_score(score("1112345678999m", "5m", preset=preset, situations=["dihu"]), {"qingyise": 2}, 2)


def test_dihu_near_miss_option_off_by_override() -> None:
    result = score(PLAIN, "5p", situations=["dihu"], dihu_on_dealer_discard=False)
    assert_score(result, {}, 0)


def test_dihu_with_melds_is_refused() -> None:
    with pytest.raises(NotationError):
        score("123m789m11p22p", "2p", ("kong 5m exposed",), zimo=True, situations=["dihu"])


# -- house fans ------------------------------------------------------------------------------

def test_house_fans_are_off_in_every_preset() -> None:
    for preset in ["xuezhan", "xueliu", "doublewin-xuezhan", "doublewin-xueliu", "classic",
                   "portal-xuezhan", "portal-xueliu"]:
        assert RuleSet.from_preset(preset).house_fans == {}
        # 将对 hand: only duiduihu + duanyaojiu without house fans
        assert_score(score("222m555m888m22p55p", "5p", preset=preset), {"duiduihu": 1, "duanyaojiu": 1}, 2)


def test_house_fan_list_form_uses_the_documented_defaults() -> None:
    rules = RuleSet.from_preset("xuezhan", house_fans=list(HOUSE_FAN_DEFAULTS))
    assert rules.house_fans == HOUSE_FAN_DEFAULTS
    assert HOUSE_FAN_DEFAULTS == {"jiangdui": 2, "menqing": 1, "zhongzhang": 1, "jiaxinwu": 1, "shibaluohan": 2}


JIANGDUI: list[Case] = [
    ("222m555m888m22p55p", "5p", (), {"house_fans": ["jiangdui"]},
     {"duiduihu": 1, "duanyaojiu": 1, "jiangdui": 2}, 4),
    ("555m88m55p", "5p", ("pong 8p", "kong 2m exposed"), {"house_fans": {"jiangdui": 2}},
     {"duiduihu": 1, "duanyaojiu": 1, "jiangdui": 2, "gen": 1}, 5),
    ("555m88m55p", "5p", ("pong 8p", "kong 2m exposed"), {"house_fans": {"jiangdui": 3}},
     {"duiduihu": 1, "duanyaojiu": 1, "jiangdui": 3, "gen": 1}, 6),
]


@pytest.mark.parametrize("case", JIANGDUI)
def test_jiangdui_scores(case: Case) -> None:
    _run(case)


def test_jiangdui_near_miss_pair_not_258() -> None:
    result = score("222m555m888m33p55p", "5p", house_fans=["jiangdui"])
    assert_score(result, {"duiduihu": 1, "duanyaojiu": 1}, 2)


def test_jiangdui_near_miss_seven_pairs_of_258() -> None:
    # 22 22 55 88m 22 55 88p: pairs, not triplets
    result = score("222255m88m2255p8p", "8p", house_fans=["jiangdui"])
    assert_score(result, {"qidui": 2, "duanyaojiu": 1, "gen": 1}, 4)


MENQING: list[Case] = [
    (PLAIN, "5p", (), {"house_fans": ["menqing"]}, {"menqing": 1}, 1),
    ("456m789m11p22p", "2p", ("kong 3m concealed",), {"house_fans": ["menqing"]}, {"menqing": 1, "gen": 1}, 2),
    ("1112345678999m", "5m", (), {"house_fans": {"menqing": 2}, "zimo": True},
     {"qingyise": 2, "menqing": 2, "zimo": 1}, 5),
]


@pytest.mark.parametrize("case", MENQING)
def test_menqing_scores(case: Case) -> None:
    _run(case)


def test_menqing_not_for_seven_pairs() -> None:
    """Seven pairs is concealed by definition: 门清 on it would bring back the rejected 暗七对."""
    result = score("223344m6688m22p5p", "5p", house_fans=["menqing"])
    assert_score(result, {"qidui": 2, "duanyaojiu": 1}, 3)


@pytest.mark.parametrize("claimed", ["pong 3m", "kong 3m exposed", "kong 3m added"])
def test_menqing_near_miss_claimed_meld(claimed: str) -> None:
    gen = {"gen": 1} if claimed.startswith("kong") else {}
    result = score("456m789m11p22p", "2p", (claimed,), house_fans=["menqing"])
    assert_score(result, gen, len(gen))


ZHONGZHANG: list[Case] = [
    ("234m567m888p44p66p", "6p", (), {"house_fans": ["zhongzhang"]}, {"zhongzhang": 1}, 1),
    ("223344m6688m22p5p", "5p", (), {"house_fans": {"zhongzhang": 2}}, {"qidui": 2, "zhongzhang": 2}, 4),
]


@pytest.mark.parametrize("case", ZHONGZHANG)
def test_zhongzhang_scores_and_replaces_duanyaojiu(case: Case) -> None:
    _run(case)


def test_zhongzhang_near_miss_terminal() -> None:
    assert_score(score("234m567m888p44p99p", "9p", house_fans=["zhongzhang"]), {}, 0)


JIAXINWU: list[Case] = [
    ("46m123p567p888p22p", "5m", (), {"house_fans": ["jiaxinwu"]}, {"jiaxinwu": 1}, 1),
    ("46m234m678p555p88p", "5m", (), {"house_fans": ["jiaxinwu"], "zimo": True},
     {"duanyaojiu": 1, "zimo": 1, "jiaxinwu": 1}, 3),
    ("46p123m789m11m", "5p", ("pong 9p",), {"house_fans": {"jiaxinwu": 2}}, {"jiaxinwu": 2}, 2),
]


@pytest.mark.parametrize("case", JIAXINWU)
def test_jiaxinwu_scores(case: Case) -> None:
    _run(case)


def test_jiaxinwu_near_miss_five_on_the_edge() -> None:
    assert_score(score("34m123p567p888p22p", "5m", house_fans=["jiaxinwu"]), {}, 0)


def test_jiaxinwu_near_miss_four_completes_456() -> None:
    assert_score(score("56m123p567p888p22p", "4m", house_fans=["jiaxinwu"]), {}, 0)


def test_jiaxinwu_near_miss_five_in_a_pair() -> None:
    # 123m 789m 123p 888p with the pair 55m, won on 5m
    assert_score(score("123m789m5m123p888p", "5m", house_fans=["jiaxinwu"]), {}, 0)


SHIBALUOHAN: list[Case] = [
    ("6p", "6p", ("kong 2m exposed", "kong 5m concealed", "kong 8m added", "kong 3p exposed"),
     {"house_fans": ["shibaluohan"]},
     {"duiduihu": 1, "duanyaojiu": 1, "jingoudiao": 1, "shibaluohan": 2, "gen": 4}, 9),
    ("9m", "9m", ("kong 1m exposed", "kong 3m exposed", "kong 5m exposed", "kong 7m concealed"),
     {"house_fans": {"shibaluohan": 3}},
     {"qingyise": 2, "duiduihu": 1, "jingoudiao": 1, "shibaluohan": 3, "gen": 4}, 11),
]


@pytest.mark.parametrize("case", SHIBALUOHAN)
def test_shibaluohan_scores(case: Case) -> None:
    _run(case)


def test_shibaluohan_near_miss_three_kongs_and_a_pong() -> None:
    result = score("6p", "6p", ("kong 2m exposed", "kong 5m concealed", "kong 8m added", "pong 3p"),
                   house_fans=["shibaluohan"])
    assert_score(result, {"duiduihu": 1, "duanyaojiu": 1, "jingoudiao": 1, "gen": 3}, 6)


# -- the recorded decisions ----------------------------------------------------------------------

def test_yaojiu_literal_vs_daiyaojiu() -> None:
    sets_with_terminals = ("123m789m111p789p9p", "9p")
    all_terminals = ("1111m9999m1111p9p", "9p")
    for preset in ["xuezhan", "xueliu", "classic", "portal-xuezhan", "portal-xueliu"]:
        assert RuleSet.from_preset(preset).yaojiu == "daiyaojiu"
        assert_score(score(*sets_with_terminals, preset=preset), {"daiyaojiu": 1}, 1)
    for preset in ["doublewin-xuezhan", "doublewin-xueliu"]:
        assert RuleSet.from_preset(preset).yaojiu == "literal"
        assert_score(score(*sets_with_terminals, preset=preset), {}, 0)
    assert_score(score(*all_terminals), {"qidui": 2, "gen": 3}, 5)
    assert_score(score(*all_terminals, preset="doublewin-xuezhan"), {"qidui": 2, "yaojiu": 1, "gen": 3}, 6)
    assert FAN_NAMES["yaojiu"] == FAN_NAMES["daiyaojiu"] == "幺九"


def test_longqidui_absorbs_one_gen() -> None:
    two_fours = ("1111m3333m55m77p9p", "9p")
    assert_score(score(*two_fours, preset="xueliu"), {"longqidui": 4, "gen": 1}, 5)
    assert_score(score(*two_fours, preset="doublewin-xueliu"), {"longqidui": 4, "gen": 1}, 5)
    assert_score(score(*two_fours, preset="portal-xueliu"), {"longqidui": 4, "gen": 1}, 4)
    assert_score(score(*two_fours, preset="xuezhan"), {"qidui": 2, "gen": 2}, 4)
    assert_score(score(*two_fours, preset="xuezhan", longqidui=True), {"longqidui": 4, "gen": 1}, 5)
    assert_score(score("1111335577m99p2p", "2p", preset="xueliu"), {"longqidui": 4}, 4)


def test_jingoudiao_stacks_with_duiduihu() -> None:
    result = score("3p", "3p", ("pong 2m", "pong 5m", "pong 7p", "pong 8p"))
    assert_score(result, {"duiduihu": 1, "jingoudiao": 1, "duanyaojiu": 1}, 3)
    result = score("7m", "7m", ("pong 1m", "pong 9m", "pong 3m", "pong 5m"), preset="portal-xuezhan")
    assert_score(result, {"qingyise": 2, "duiduihu": 1, "jingoudiao": 1}, 4)


def test_tianhu_dihu_fixed_eight() -> None:
    # the hand is worth 8 whatever else it has: 111 222 333 123 55m alone is 清一色 + 3 根 (5) or more
    rich = ("1111222233335m", "5m")
    assert_score(score(*rich, zimo=True, situations=["tianhu"]), {"tianhu": 8}, 8)
    assert_score(score(*rich, zimo=True, situations=["dihu"]), {"dihu": 8}, 8)
    assert_score(score(*rich, situations=["dihu"]), {"dihu": 8}, 8)
    assert_score(score(PLAIN, "5p", zimo=True, situations=["tianhu"]), {"tianhu": 8}, 8)
    # 8 even on top of a fanless hand, and the cap still applies
    assert_score(score(PLAIN, "5p", zimo=True, situations=["tianhu"], max_fan=6), {"tianhu": 8}, 6)
    assert_score(score(PLAIN, "5p", zimo=True, situations=["dihu"], preset="portal-xuezhan"), {"dihu": 8}, 4)


def test_anqidui_is_not_a_separate_fan() -> None:
    assert "anqidui" not in FAN_NAMES
    for preset in ["xueliu", "doublewin-xueliu", "xuezhan"]:
        assert_score(score("113355m77m99m22p4p", "4p", preset=preset), {"qidui": 2}, 2)
        assert_score(score("113355m77m99m22p4p", "4p", preset=preset, zimo=True), {"qidui": 2, "zimo": 1}, 3)


def test_daiyaojiu_never_for_seven_pairs() -> None:
    all_terminal_pairs = ("1111m9999m1111p9p", "9p")
    assert_score(score(*all_terminal_pairs), {"qidui": 2, "gen": 3}, 5)
    assert_score(score(*all_terminal_pairs, preset="xueliu"), {"longqidui": 4, "gen": 2}, 6)
    assert_score(score(*all_terminal_pairs, preset="classic"), {"qidui": 2, "gen": 3}, 5)


def test_max_over_decompositions_seven_pairs_beats_sets() -> None:
    # 22 33 44 55 66 77 88m: 七对 (2+2+1 = 5) or 234 234 678 678 55 (清一色 断幺九 = 3)
    assert_score(score("2233446677885m", "5m"), {"qingyise": 2, "qidui": 2, "duanyaojiu": 1}, 5)


def test_max_over_decompositions_three_readings() -> None:
    # 1111 2222 3333 99m: 111 222 333 123 99 (清一色 2 + 根 3 = 5), 123×4 99 (+ 带幺九 = 6),
    # or seven pairs 11 11 22 22 33 33 99 (清一色 2 + 七对 2 + 根 3 = 7) -> 7
    assert_score(score("1111222233339m", "9m"), {"qingyise": 2, "qidui": 2, "gen": 3}, 7)
    # in xueliu: 龙七对 4 + 清一色 2 + 根 2 = 8
    assert_score(score("1111222233339m", "9m", preset="xueliu"), {"qingyise": 2, "longqidui": 4, "gen": 2}, 8)


def test_max_over_decompositions_sets_beat_seven_pairs() -> None:
    # 11 22 33 44 55 66m 99p: 七对 (2) or 123m 123m 456m 456m 99p won on the 5 of 456 (夹心五 3)
    result = score("1122334466m5m99p", "5m", house_fans={"jiaxinwu": 3})
    assert_score(result, {"jiaxinwu": 3}, 3)
    assert_score(score("1122334466m5m99p", "5m"), {"qidui": 2}, 2)


def test_max_over_decompositions_triplets_beat_sequences() -> None:
    # 111 222 333m 555p 99p (对对胡 1) or 123 123 123m 555p 99p (nothing) -> 对对胡
    assert_score(score("111222333m55p99p", "5p"), {"duiduihu": 1}, 1)


def test_max_over_decompositions_sequences_beat_triplets() -> None:
    # 111 222 333 789 99m (清一色 2) or 123 123 123 789 99m (清一色 2 + 带幺九 1) -> 3
    assert_score(score("111222333789m9m", "9m"), {"qingyise": 2, "daiyaojiu": 1}, 3)


def test_cap_max_fan_four() -> None:
    hand = ("7m", "7m", ("kong 1m exposed", "pong 9m", "pong 3m", "pong 5m"))
    uncapped = score(*hand)
    assert_score(uncapped, {"qingyise": 2, "duiduihu": 1, "jingoudiao": 1, "gen": 1}, 5)
    for result in (score(*hand, max_fan=4), score(*hand, preset="portal-xuezhan"),
                   score(*hand, preset="portal-xueliu")):
        assert_score(result, {"qingyise": 2, "duiduihu": 1, "jingoudiao": 1, "gen": 1}, 4)
        assert result.multiplier == 16
    # below the cap nothing changes
    assert_score(score("1112345678999m", "5m", preset="portal-xuezhan"), {"qingyise": 2}, 2)


def test_capped_score_lists_the_fans_of_the_best_decomposition() -> None:
    # 111 222 333 44m + concealed kong 7m, self-drawn: as triplets 清一色 2 + 对对胡 1 + 自摸 1 + 根 1
    # = 5; as 123 123 123 44m 清一色 2 + 自摸 1 + 根 1 = 4. The cap of 4 applies to the best, 5, and
    # its fans are listed: 4 fan, 16 base from each of the three others
    hand = ("1112223334m", "4m", ["kong 7m concealed"])
    fans = {"qingyise": 2, "duiduihu": 1, "zimo": 1, "gen": 1}
    assert_score(score(*hand, zimo=True), fans, 5)
    assert_score(score(*hand, zimo=True, preset="portal-xuezhan"), fans, 4)


@pytest.mark.parametrize("preset", ["xuezhan", "xueliu", "doublewin-xuezhan", "doublewin-xueliu"])
def test_no_cap_in_uncapped_presets(preset: str) -> None:
    assert RuleSet.from_preset(preset).max_fan is None
    result = score("9m", "9m", ("kong 1m exposed", "kong 3m exposed", "kong 5m exposed", "kong 7m concealed"),
                   preset=preset)
    assert_score(result, {"qingyise": 2, "duiduihu": 1, "jingoudiao": 1, "gen": 4}, 8)
    assert result.multiplier == 256


def test_fan_label_offset_classic() -> None:
    plain = score(PLAIN, "5p", preset="classic")
    assert_score(plain, {}, 0)
    assert plain.label == 1
    assert plain.multiplier == 1
    rich = score("1112345678999m", "5m", preset="classic")
    assert_score(rich, {"qingyise": 2}, 2)
    assert (rich.label, rich.multiplier) == (3, 4)
    assert rich.to_dict(with_label=True)["label"] == 3
    # offset 0 elsewhere, and the option alone changes only the label
    assert score("1112345678999m", "5m").label == 2
    shifted = score("1112345678999m", "5m", fan_label_offset=1)
    assert_score(shifted, {"qingyise": 2}, 2)
    assert shifted.label == 3


# -- non-wins ------------------------------------------------------------------------------------

def test_not_a_win_holding_the_void_suit() -> None:
    result = score(PLAIN, "5p", void="p")
    assert not result.win
    assert result.reason and "void" in result.reason
    assert result.to_dict() == {"win": False, "reason": result.reason}


def test_not_a_win_void_tile_only_in_a_meld() -> None:
    result = score("123m456m789m5p", "5p", ("pong 2s",), void="s")
    assert not result.win


def test_not_a_win_three_suits() -> None:
    result = score("123m456p789s234m5m", "5m")
    assert not result.win
    assert result.reason and "three suits" in result.reason


def test_not_a_win_incomplete() -> None:
    result = score("123m456m789m234p6p", "5p")
    assert not result.win
    assert result.reason and "complete" in result.reason
    assert result.fans == () and result.total == 0


def test_bad_input_raises() -> None:
    with pytest.raises(ValueError, match="13"):
        score("123m456m789m234p", "5p")
    with pytest.raises(ValueError):
        score("5555m456m789m234p", "5m")
    with pytest.raises(ValueError, match="situation"):
        score(PLAIN, "5p", situations=["moonlight"])


# -- JSON shape --------------------------------------------------------------------------------

def test_to_dict_shape_gen_listed_once_with_its_count() -> None:
    result = score("123m789m2p", "2p", ("kong 5m exposed", "kong 4p concealed"), zimo=True)
    assert result.to_dict() == {
        "win": True,
        "fans": [{"id": "zimo", "name": "自摸", "fan": 1}, {"id": "gen", "name": "根", "fan": 2}],
        "total": 3,
        "multiplier": 8,
    }


def test_to_dict_lists_fans_in_table_order() -> None:
    result = score("234p777p8p", "8p", ("kong 5p added", "kong 6p concealed"), zimo=True,
                   situations=["kong_replacement"])
    assert [f["id"] for f in result.to_dict()["fans"]] == ["qingyise", "duanyaojiu", "zimo", "gangshanghua", "gen"]
    assert result.to_dict()["total"] == 7


# -- 查大叫: max_static_fan ------------------------------------------------------------------------

def test_max_static_fan_best_over_all_waits() -> None:
    # waits 6p (123m 789m 111p 678p 99p: 0) and 9p (… 789p 99p: 带幺九 1)
    assert static("123m789m111p789p9p", void="s") == 1


def test_max_static_fan_no_situational_fans() -> None:
    # waits 2p and 5p, both fanless: no 自摸 is counted
    assert static(PLAIN, void="s") == 0
    assert static(PLAIN, void="s", preset="classic") == 0


def test_max_static_fan_includes_gen_from_kongs() -> None:
    # kong 5m + 123m 789m with 11p 22p: waits 1p / 2p, each worth one 根
    assert static("123m789m11p22p", ["kong 5m exposed"], void="s") == 1
    # 九莲: qingyise everywhere, a 根 on 1m or 9m -> 3
    assert static("1112345678999m", void="p") == 3


def test_max_static_fan_capped() -> None:
    assert static("1111m3333m55m77p9p", void="s", preset="xueliu") == 5
    assert static("1111m3333m55m77p9p", void="s", preset="portal-xueliu") == 4
    assert static("1111m3333m55m77p9p", void="s", preset="xuezhan", max_fan=3) == 3


def test_max_static_fan_four_held_copies_are_not_a_wait() -> None:
    # 111m + 1m single: the only structural wait is a fifth 1m
    assert static("1111m456m789m123p", void="s") is None
    # pong 5m + single 5m: the fourth copy would be a fifth
    assert static("5m123p456p789p", ["pong 5m"], void="s") is None
    # a four held as two pairs is fine: 11 11 33 55m 77 99p waits 4p for 七对 + 根
    assert static("1111m3355m77p99p4p", void="s") == 3


def test_max_static_fan_none_when_not_ready() -> None:
    assert static("13579m13579p135p", void="s") is None
    assert static(PLAIN, void="p") is None


def test_max_static_fan_seven_pairs_wait_on_a_held_triplet() -> None:
    # 111 22 33 44 55 66m waits 1m for 七对 (1111 is two pairs): 清一色 2 + 七对 2 + 根 1 = 5,
    # better than any standard wait (清一色 2, or 3 with the 根 of 1m)
    assert static("1112233445566m", void="p") == 5
    assert static("1112233445566m", void="p", preset="xueliu") == 6  # 龙七对 4 + 清一色 2
