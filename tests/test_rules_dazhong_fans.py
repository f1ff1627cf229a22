"""The 大众麻将 fan table (docs/rules.md §3, "大众麻将"): one test per fan, worked out from the table.

A win of F fan pays 2^F base: on a discard the discarder pays it, on a self-draw each other
player does. A hand is written as the concealed tiles without the winning tile, then the
winning tile, then the melds. Values: 平胡 0, 自摸 1, 门清 1, 断幺九 1, 全带幺 1, 混一色 1,
清一色 2, 对对胡 1, 七对 2, 箭刻 1 each, 小三元 2, 小四喜 3, 杠上开花 1, 抢杠胡 1, 海底捞月 1,
河底捞鱼 1; 十三幺, 大四喜, 大三元, 字一色, 天胡, 地胡 a fixed 8.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest
from typer.testing import CliRunner

from chuanma.cli import app
from chuanma.errors import NotationError
from chuanma.melds import Meld, parse_meld
from chuanma.rules import RuleSet
from chuanma.scoring import FAN_NAMES, ScoreResult, score_hand
from chuanma.tiles import parse_tile, parse_tiles

DAZHONG = RuleSet.from_preset("dazhong")


def score(hand: str, win: str, melds: Sequence[str] = (), *, zimo: bool = False,
          situations: Sequence[str] = ()) -> ScoreResult:
    return score_hand(DAZHONG, parse_tiles(hand), [parse_meld(m) for m in melds], parse_tile(win),
                      self_drawn=zimo, situations=situations)


def assert_score(result: ScoreResult, fans: dict[str, int], total: int) -> None:
    assert result.win, result.reason
    assert {f.id: f.fan for f in result.fans} == fans
    assert [f.name for f in result.fans] == [FAN_NAMES[f.id] for f in result.fans]
    assert result.total == total
    assert result.multiplier == 2**total


def test_pinghu_is_the_plain_win_worth_nothing_more() -> None:
    # chow 123m, 456p 789s 234s, pair 55s: three suits (allowed), a claimed chow (no 门清),
    # no 幺九-free or one-suit pattern: 平胡 0, paid 2^0 = 1 base
    assert_score(score("456p789s234s5s", "5s", ["chow:1m"]), {"pinghu": 0}, 0)


def test_zimo() -> None:
    # the plain hand self-drawn: 平胡 0 + 自摸 1 = 1, each other player pays 2
    assert_score(score("456p789s234s5s", "5s", ["chow:1m"], zimo=True), {"pinghu": 0, "zimo": 1}, 1)


def test_menqing() -> None:
    # no claimed meld, won on a discard: 门清 1 (the discarder pays 2)
    assert_score(score("123m456p789s234s5s", "5s"), {"menqing": 1}, 1)
    # a concealed kong keeps the hand concealed: still 门清 1
    assert_score(score("123m456p789s5s", "5s", ["kong:1z:concealed"]), {"menqing": 1}, 1)


def test_menqing_near_miss_seven_pairs_is_concealed_by_definition() -> None:
    assert_score(score("1133m5577p99s22z4z", "4z"), {"qidui": 2}, 2)


def test_duanyaojiu() -> None:
    # 234m 456p 678s 345s 55s: no 1, 9 or honour: 断幺九 1 + 门清 1 = 2
    assert_score(score("234m456p678s345s5s", "5s"), {"duanyaojiu": 1, "menqing": 1}, 2)


def test_duanyaojiu_near_miss_an_honour_is_a_yaojiu_tile() -> None:
    # the pair 11z: honours count as 幺九, so only 门清 1
    assert_score(score("234m456p678s345s1z", "1z"), {"menqing": 1}, 1)


def test_daiyaojiu_quan_dai_yao() -> None:
    # 123m 789m 999p 111z 11s: every set and the pair hold a 1, a 9 or an honour: 全带幺 1 + 门清 1
    assert_score(score("123m789m999p111z1s", "1s"), {"daiyaojiu": 1, "menqing": 1}, 2)


def test_daiyaojiu_with_an_honour_pair() -> None:
    # 123m 789p 111s 999s and the pair 東東: the pair holds an honour, every set a 1 or 9: 全带幺 1
    # + 门清 1 = 2 (an honour pair counts as a 幺九 pair, as the table says)
    assert_score(score("12m789p111s999s11z", "3m"), {"daiyaojiu": 1, "menqing": 1}, 2)


def test_hunyise() -> None:
    # 123m 456m 789m 111z 22z: one suit and honours: 混一色 1 + 门清 1 = 2
    assert_score(score("123m456m789m111z2z", "2z"), {"hunyise": 1, "menqing": 1}, 2)


def test_qingyise() -> None:
    # 123m 456m 789m 234m 55m: one suit, no honour: 清一色 2 + 门清 1 = 3
    assert_score(score("123m456m789m234m5m", "5m"), {"qingyise": 2, "menqing": 1}, 3)


def test_duiduihu() -> None:
    # pong 1z, 222m 555p 888s, pair 33z: all triplets: 对对胡 1 (claimed pong: no 门清; winds score
    # no 箭刻)
    assert_score(score("222m555p888s3z", "3z", ["pong:1z"]), {"duiduihu": 1}, 1)


def test_duiduihu_near_miss_a_chow_is_a_sequence() -> None:
    assert_score(score("222m555p3z", "3z", ["pong:1z", "chow:6s"]), {"pinghu": 0}, 0)


def test_qidui() -> None:
    # 11m 33m 55p 77p 99s 22z 44z: 七对 2 (not 门清, see above)
    assert_score(score("1133m5577p99s22z4z", "4z"), {"qidui": 2}, 2)


def test_qidui_four_of_a_kind_is_two_pairs_and_no_gen() -> None:
    # 1111m counts as two pairs; 大众麻将 counts no 根: 七对 2
    assert_score(score("1111m5577p99s22z4z", "4z"), {"qidui": 2}, 2)


def test_shisanyao() -> None:
    # one each of 1m 9m 1p 9p 1s 9s 1z-7z and a second 5z: a fixed 8, self-drawn or not
    assert_score(score("19m19p19s1234567z", "5z"), {"shisanyao": 8}, 8)
    assert_score(score("19m19p19s1234567z", "5z", zimo=True), {"shisanyao": 8}, 8)
    assert_score(score("19m19p19s1234566z", "7z"), {"shisanyao": 8}, 8)


def test_ziyise() -> None:
    # 111z 222z 333z 555z 44z: every tile an honour: a fixed 8 (its 小四喜 and 箭刻 do not add)
    assert_score(score("111z222z333z555z4z", "4z"), {"ziyise": 8}, 8)
    # seven pairs of the seven honours is 字一色 too
    assert_score(score("1122334455667z", "7z"), {"ziyise": 8}, 8)


def test_jianke_each_dragon_triplet() -> None:
    # 123m 456p 789s 777z 55s: one dragon triplet: 箭刻 1 + 门清 1 = 2
    assert_score(score("123m456p789s777z5s", "5s"), {"jianke": 1, "menqing": 1}, 2)
    # two dragon triplets (555z pong, 777z): 箭刻 2; the chow ends 门清
    assert_score(score("456p777z5s", "5s", ["pong:5z", "chow:1m"]), {"jianke": 2}, 2)


def test_jianke_near_miss_a_wind_triplet_scores_nothing() -> None:
    assert_score(score("123m456p789s111z5s", "5s"), {"menqing": 1}, 1)


def test_xiaosanyuan() -> None:
    # 123m 456m 555z 666z 77z: two dragon triplets and the third dragon as the pair:
    # 混一色 1 + 门清 1 + 箭刻 2 + 小三元 2 = 6
    assert_score(score("123m456m555z666z7z", "7z"),
                 {"hunyise": 1, "menqing": 1, "jianke": 2, "xiaosanyuan": 2}, 6)


def test_dasanyuan() -> None:
    # 123m 555z 666z 777z 99m: three dragon triplets: a fixed 8
    assert_score(score("12m555z666z777z99m", "3m"), {"dasanyuan": 8}, 8)


def test_xiaosixi() -> None:
    # 456m 111z 222z 333z 44z: three wind triplets and the fourth wind as the pair:
    # 混一色 1 + 门清 1 + 小四喜 3 = 5
    assert_score(score("456m111z222z333z4z", "4z"), {"hunyise": 1, "menqing": 1, "xiaosixi": 3}, 5)


def test_dasixi() -> None:
    # 111z 222z 333z 444z 55m: four wind triplets: a fixed 8
    assert_score(score("111z222z333z444z5m", "5m"), {"dasixi": 8}, 8)


def test_gangshanghua_gang_shang_kai_hua() -> None:
    # concealed kong 1z, then 123m 456p 789s 55s self-drawn on the replacement:
    # 门清 1 + 自摸 1 + 杠上开花 1 = 3; each other player pays 8
    result = score("123m456p789s5s", "5s", ["kong:1z:concealed"], zimo=True, situations=["kong_replacement"])
    assert_score(result, {"menqing": 1, "zimo": 1, "gangshanghua": 1}, 3)


def test_qiangganghu() -> None:
    # won on the tile of a robbed added kong: 门清 1 + 抢杠胡 1 = 2; the declarer pays 4
    assert_score(score("123m456p789s234s5s", "5s", situations=["robbing_kong"]),
                 {"menqing": 1, "qiangganghu": 1}, 2)


def test_haidilaoyue() -> None:
    # self-drawn on the last wall tile: 门清 1 + 自摸 1 + 海底捞月 1 = 3
    assert_score(score("123m456p789s234s5s", "5s", zimo=True, situations=["last_tile"]),
                 {"menqing": 1, "zimo": 1, "haidilaoyue": 1}, 3)


def test_haidipao_he_di_lao_yu() -> None:
    # won on the discard after the last draw (河底捞鱼): 门清 1 + 海底炮 1 = 2
    assert_score(score("123m456p789s234s5s", "5s", situations=["last_tile"]), {"menqing": 1, "haidipao": 1}, 2)


def test_tianhu_and_dihu() -> None:
    assert_score(score("123m456p789s234s5s", "5s", zimo=True, situations=["tianhu"]), {"tianhu": 8}, 8)
    assert_score(score("123m456p789s234s5s", "5s", zimo=True, situations=["dihu"]), {"dihu": 8}, 8)


def test_no_jingoudiao_and_no_gen_in_dazhong() -> None:
    # four melds, won on the pair tile; a kong among them: 金钩钓 and 根 are Sichuan's.
    # pong 2m, pong 5p, pong 8s, kong 1z: 对对胡 1 only
    result = score("9s", "9s", ["pong:2m", "pong:5p", "pong:8s", "kong:1z"])
    assert_score(result, {"duiduihu": 1}, 1)


def test_honour_sequences_do_not_win() -> None:
    result = score("123z456p789s234s5s", "5s")
    assert not result.win and "十三幺" in str(result.reason)


def test_dazhong_has_no_void_and_sichuan_has_no_honours() -> None:
    with pytest.raises(NotationError, match="定缺"):
        score_hand(DAZHONG, parse_tiles("123m456p789s234s5s"), [], parse_tile("5s"), self_drawn=False, void="m")
    with pytest.raises(NotationError, match="108-tile"):
        score_hand(RuleSet.from_preset("xuezhan"), parse_tiles("123m456p789m111z5m"), [], parse_tile("5m"),
                   self_drawn=False)
    with pytest.raises(NotationError, match="chow"):
        score_hand(RuleSet.from_preset("xuezhan"), parse_tiles("456m789m234m5m"), [Meld("chow", 0)],
                   parse_tile("5m"), self_drawn=False)


def test_chuanma_score_shows_the_dazhong_fans() -> None:
    line = {"hand": "123m456m555z666z7z", "win_tile": "7z", "rules": "dazhong"}
    result = CliRunner().invoke(app, ["score"], input=json.dumps(line) + "\n")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert [(f["name"], f["fan"]) for f in out["fans"]] == [("混一色", 1), ("门清", 1), ("小三元", 2), ("箭刻", 2)]
    assert (out["total"], out["multiplier"]) == (6, 64)
    orphans = '{"hand": "19m19p19s1234567z", "win_tile": "1z"}\n'
    result = CliRunner().invoke(app, ["score", "--rules", "dazhong"], input=orphans)
    assert json.loads(result.stdout)["fans"] == [{"id": "shisanyao", "name": "十三幺", "fan": 8}]
