"""The fan scoring as it was written in Python before the compiled core took it over
(``src/native/score.cpp``), kept as the reference the lockstep test compares the core with. Input
is taken as valid (the facade's checks are not repeated)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from chuanma.analysis import ConcealedSet, Decomposition, decompositions, waits
from chuanma.errors import NotationError
from chuanma.melds import Meld
from chuanma.rules import RuleSet
from chuanma.scoring import FAN_NAMES, FANS, FanItem, ScoreResult
from chuanma.tiles import (
    NUM_SUITED,
    SUIT_NAMES_ZH,
    SUITS,
    Tile,
    format_tiles,
    is_terminal,
    is_terminal_or_honour,
    rank_of,
    suit_of,
    tile_name,
    to_counts,
)

WINDS = range(27, 31)
"""東南西北 (1z–4z)."""
DRAGONS = range(31, 34)
"""白發中 (5z–7z)."""


def _no_win(reason: str, reason_zh: str) -> ScoreResult:
    return ScoreResult(False, reason=reason, reason_zh=reason_zh)


def _item(fan_id: str, value: int | None = None) -> FanItem:
    """The fan ``fan_id`` worth ``value`` (by default, its value in :data:`FANS`)."""
    return FanItem(fan_id, FANS[fan_id].name, FANS[fan_id].fan if value is None else value)


def _suits(tiles: Sequence[Tile]) -> set[str]:
    return {suit_of(t) for t in tiles}


def _sets_of(d: Decomposition, melds: Sequence[Meld]) -> list[tuple[str, Tile]]:
    """Every set of a standard decomposition as (kind, tile): sequence, triplet (pongs and kongs too)."""
    sets: list[tuple[str, Tile]] = [(s.kind, s.tile) for s in d.sets]
    sets += [("sequence" if m.kind == "chow" else "triplet", m.tile) for m in melds]
    return sets


def _has_terminal(kind: str, tile: Tile) -> bool:
    return is_terminal_or_honour(tile) or (kind == "sequence" and is_terminal(tile + 2))


def _limit_fan(d: Decomposition, melds: Sequence[Meld], all_tiles: Sequence[Tile]) -> FanItem | None:
    """大众麻将's limit hands (满贯, a fixed 8 like 天胡): 十三幺, 大四喜, 大三元, 字一色 (the first
    that applies). They all need honours, so no Sichuan hand has one."""
    if d.form == "thirteen_orphans":
        return _item("shisanyao")
    if d.form == "standard":
        triplets = {t for kind, t in _sets_of(d, melds) if kind == "triplet"}
        if triplets.issuperset(WINDS):
            return _item("dasixi")
        if triplets.issuperset(DRAGONS):
            return _item("dasanyuan")
    if all(t >= NUM_SUITED for t in all_tiles):
        return _item("ziyise")
    return None


def _honour_fans(d: Decomposition, sets: Sequence[tuple[str, Tile]]) -> list[FanItem]:
    """箭刻 (each dragon triplet), 小三元 and 小四喜 (大众麻将; winds score only in 小四喜)."""
    fans: list[FanItem] = []
    triplets = [t for kind, t in sets if kind == "triplet"]
    dragons = sum(t in DRAGONS for t in triplets)
    if dragons:
        fans.append(_item("jianke", dragons * FANS["jianke"].fan))
    if dragons == 2 and d.pair in DRAGONS:
        fans.append(_item("xiaosanyuan"))
    if sum(t in WINDS for t in triplets) == 3 and d.pair in WINDS:
        fans.append(_item("xiaosixi"))
    return fans


def _pattern_fans(rules: RuleSet, d: Decomposition, melds: Sequence[Meld], win_tile: Tile,
                  all_tiles: Sequence[Tile], gen: int) -> list[FanItem]:
    """Fans that depend on the hand's shape (everything but the situational ones)."""
    fans: list[FanItem] = []
    house = rules.house_fans
    dazhong = rules.game_variant.fans == "dazhong"
    suits = _suits(all_tiles)
    if len(suits) == 1 and "z" not in suits:
        fans.append(_item("qingyise"))
    elif len(suits) == 2 and "z" in suits:
        fans.append(_item("hunyise"))
    if d.form == "seven_pairs":
        if rules.longqidui and gen:
            fans.append(_item("longqidui"))
            gen -= 1
        else:
            fans.append(_item("qidui"))
    else:
        sets = _sets_of(d, melds)
        assert d.pair is not None
        if all(kind == "triplet" for kind, _ in sets):
            fans.append(_item("duiduihu"))
            if "jiangdui" in house and all(rank_of(t) in (2, 5, 8) for _, t in sets) and rank_of(d.pair) in (2, 5, 8):
                fans.append(_item("jiangdui", house["jiangdui"]))
        if rules.yaojiu == "daiyaojiu" and is_terminal_or_honour(d.pair) and all(_has_terminal(k, t) for k, t in sets):
            fans.append(_item("daiyaojiu"))
        if len(melds) == 4 and not dazhong:
            fans.append(_item("jingoudiao"))
        fans += _honour_fans(d, sets)
        if "jiaxinwu" in house and rank_of(win_tile) == 5 and ConcealedSet("sequence", win_tile - 1) in d.sets:
            fans.append(_item("jiaxinwu", house["jiaxinwu"]))
        if "shibaluohan" in house and sum(m.kind == "kong" for m in melds) == 4:
            fans.append(_item("shibaluohan", house["shibaluohan"]))
        menqing = house.get("menqing", FANS["menqing"].fan if dazhong else 0)
        if menqing and all(m.is_concealed for m in melds):
            fans.append(_item("menqing", menqing))
    if not any(is_terminal_or_honour(t) for t in all_tiles):
        fans.append(_item("zhongzhang", house["zhongzhang"]) if "zhongzhang" in house else _item("duanyaojiu"))
    if rules.yaojiu == "literal" and all(is_terminal(t) for t in all_tiles):
        fans.append(_item("yaojiu"))
    if gen:
        fans.append(_item("gen", gen * FANS["gen"].fan))
    if dazhong and not fans:
        fans.append(_item("pinghu"))
    return fans


def _situation_fans(rules: RuleSet, self_drawn: bool, situations: Collection[str]) -> list[FanItem]:
    fans: list[FanItem] = []
    if self_drawn and rules.zimo_bonus == "fan":
        fans.append(_item("zimo"))
    if "kong_replacement" in situations:
        double = rules.gangshang_shuanghua and "consecutive_kongs" in situations
        fans.append(_item("gangshanghua", 2 * FANS["gangshanghua"].fan if double else None))
    if "after_kong" in situations and rules.gangshangpao:
        fans.append(_item("gangshangpao"))
    if "robbing_kong" in situations:
        fans.append(_item("qiangganghu"))
    if "last_tile" in situations:
        if self_drawn and rules.haidilaoyue:
            fans.append(_item("haidilaoyue"))
        elif not self_drawn and rules.haidipao:
            fans.append(_item("haidipao"))
    return fans


def _order(fans: list[FanItem]) -> tuple[FanItem, ...]:
    rank = {fan_id: i for i, fan_id in enumerate(FAN_NAMES)}
    return tuple(sorted(fans, key=lambda f: rank[f.id]))


def _result(rules: RuleSet, fans: Sequence[FanItem], d: Decomposition | None) -> ScoreResult:
    total = sum(f.fan for f in fans)
    if rules.max_fan is not None:
        total = min(total, rules.max_fan)
    return ScoreResult(True, _order(list(fans)), total, 2**total, rules.fan_label(total), None, d)


def reference_score_hand(rules: RuleSet, hand: Sequence[Tile], melds: Sequence[Meld], win_tile: Tile, *,
                         self_drawn: bool, void: str | None = None,
                         situations: Collection[str] = ()) -> ScoreResult:
    """:func:`chuanma.scoring.score_hand` as it was, its input checks left out."""
    if void is not None and (len(void) != 1 or void not in SUITS):
        raise NotationError(f"void must be one of m, p, s, got {void!r}", "void_suit")
    if void is not None and not rules.game_variant.void:
        raise NotationError("大众麻将 has no void suit (定缺): give none", "no_void")
    all_tiles = [*hand, win_tile, *(t for m in melds for t in m.tiles)]
    if void is not None:
        held = [t for t in all_tiles if suit_of(t) == void]
        if held:
            return _no_win(f"holds tiles of the void suit {void}: {format_tiles(held)}",
                           f"手里还有缺门（{SUIT_NAMES_ZH[void]}）的牌：{' '.join(tile_name(t) for t in sorted(held))}")
    suits = _suits(all_tiles) - {"z"}
    if len(suits) == 3 and rules.game_variant.void:
        return _no_win("holds all three suits: a winning hand lacks at least one suit (缺一门)",
                       "三门都有：胡牌至少要缺一门")
    if "robbing_kong" in situations and not rules.robbing_kong:
        return _no_win("robbing a kong (抢杠胡) is not allowed under these rules", "这套规则不许抢杠胡")
    counts = to_counts([*hand, win_tile])
    found = decompositions(counts)
    if not found:
        if rules.tiles.honours:
            return _no_win("not a complete hand: it needs sets and a pair, seven pairs or 十三幺",
                           "还没成牌：要几组刻子或顺子加一对将、七对或十三幺")
        return _no_win("not a complete hand: it needs sets and a pair, or seven pairs",
                       "还没成牌：要几组刻子或顺子加一对将，或七对")
    if "tianhu" in situations:
        return _result(rules, [_item("tianhu")], found[0])
    if "dihu" in situations and (self_drawn or rules.dihu_on_dealer_discard):
        return _result(rules, [_item("dihu")], found[0])
    # 根 is Sichuan's: 大众麻将 pays its kongs and counts no 根
    gen = 0 if rules.game_variant.fans == "dazhong" else sum(1 for c in to_counts(all_tiles) if c == 4)
    situational = _situation_fans(rules, self_drawn, situations)
    # the best decomposition by its total before the cap (capped, a weaker one could tie with it)
    best: tuple[int, list[FanItem], Decomposition] | None = None
    for d in found:
        limit = _limit_fan(d, melds, all_tiles)
        fans = [limit] if limit else _pattern_fans(rules, d, melds, win_tile, all_tiles, gen) + situational
        value = sum(f.fan for f in fans)
        if best is None or value > best[0]:
            best = (value, fans, d)
    assert best is not None
    return _result(rules, best[1], best[2])


def reference_max_static_fan(rules: RuleSet, hand: Sequence[Tile], melds: Sequence[Meld],
                             void: str | None) -> int | None:
    """:func:`chuanma.scoring.max_static_fan` as it was: the best :func:`reference_score_hand` over the waits."""
    best: int | None = None
    for tile in waits(to_counts(hand), melds, void):
        result = reference_score_hand(rules, hand, melds, tile, self_drawn=False, void=void)
        if result.win and (best is None or result.total > best):
            best = result.total
    return best
