"""Fan (番) scoring of a winning hand: the Sichuan table and, on the same path, 大众麻将's
(``docs/rules.md`` §3 gives both).

>>> from chuanma.rules import HOUSE_FAN_DEFAULTS, RuleSet
>>> from chuanma.tiles import parse_tiles, parse_tile
>>> r = score_hand(RuleSet.from_preset("xuezhan"), parse_tiles("1112223334445m"), [], parse_tile("5m"),
...                self_drawn=False, void="s")
>>> [(f.id, f.fan) for f in r.fans], r.total, r.multiplier
([('qingyise', 2), ('duiduihu', 1)], 3, 8)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from chuanma.analysis import ConcealedSet, Decomposition, decompositions, waits
from chuanma.errors import HandSizeError, NotationError, shown
from chuanma.melds import Meld
from chuanma.rules import HOUSE_FAN_DEFAULTS, RuleSet
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

FIXED_FAN = 8
"""天胡 and 地胡 (and 大众麻将's limit hands) are worth exactly this, whatever else the hand holds."""
WINDS = range(27, 31)
"""東南西北 (1z–4z)."""
DRAGONS = range(31, 34)
"""白發中 (5z–7z)."""

@dataclass(frozen=True, slots=True)
class FanDef:
    """A fan of the table: its Chinese and English names, its value, and when it scores.

    ``fan`` is the value scoring gives it (for ``gen`` the value of each 根; house fans take theirs
    from the rule set, this is the default). ``option`` names the rule option it depends on.
    """

    id: str
    name: str
    en: str
    fan: int
    when_zh: str
    when_en: str
    option: str | None = None
    house: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The JSON form served to the fan-table page."""
        return {"id": self.id, "name": self.name, "en": self.en, "fan": self.fan, "when_zh": self.when_zh,
                "when_en": self.when_en, "option": self.option, "house": self.house}


FANS: dict[str, FanDef] = {f.id: f for f in (
    FanDef("tianhu", "天胡", "Heavenly hand", FIXED_FAN, "庄家起手十四张即成胡牌（固定 8 番）",
           "the dealer's dealt fourteen tiles already win (a fixed 8)"),
    FanDef("dihu", "地胡", "Earthly hand", FIXED_FAN,
           "闲家第一次摸牌自摸，此前无人碰杠；或按选项胡庄家的第一张打牌（固定 8 番）",
           "a non-dealer wins on its first draw before any pong or kong, or (by option) on the dealer's "
           "first discard (a fixed 8)", "dihu_on_dealer_discard"),
    FanDef("shisanyao", "十三幺", "Thirteen orphans", FIXED_FAN,
           "一万九万一筒九筒一条九条和七种字牌各一张，其中一种成对（大众麻将，满贯 8 番）",
           "one each of 1m 9m 1p 9p 1s 9s and the seven honours, one of them paired (大众麻将; a fixed 8)"),
    FanDef("dasixi", "大四喜", "Big four winds", FIXED_FAN, "四组风牌刻子（大众麻将，满贯 8 番）",
           "triplets of all four winds (大众麻将; a fixed 8)"),
    FanDef("dasanyuan", "大三元", "Big three dragons", FIXED_FAN, "三组箭牌刻子（大众麻将，满贯 8 番）",
           "triplets of all three dragons (大众麻将; a fixed 8)"),
    FanDef("ziyise", "字一色", "All honours", FIXED_FAN, "全部是字牌（大众麻将，满贯 8 番）",
           "every tile an honour (大众麻将; a fixed 8)"),
    FanDef("pinghu", "平胡", "Plain win", 0, "没有任何牌型番（大众麻将）",
           "no pattern fan at all (大众麻将)"),
    FanDef("qingyise", "清一色", "Pure suit", 2, "所有牌（含碰杠）同一花色", "every tile, melds included, of one suit"),
    FanDef("hunyise", "混一色", "Half flush", 1, "一种花色加字牌（大众麻将）",
           "one suit plus honours (大众麻将)"),
    FanDef("longqidui", "龙七对", "Dragon seven pairs", 4, "七对中含四张相同的牌；取代七对并抵一根",
           "seven pairs holding four of a kind; replaces 七对 and absorbs one 根", "longqidui"),
    FanDef("qidui", "七对", "Seven pairs", 2, "七个对子", "seven pairs"),
    FanDef("duiduihu", "对对胡", "All triplets", 1, "四组全是刻子或杠", "four sets, all triplets or kongs"),
    FanDef("duanyaojiu", "断幺九", "All simples", 1, "没有任何 1 或 9", "no 1 or 9 anywhere"),
    FanDef("zhongzhang", "中张", "All middle tiles", HOUSE_FAN_DEFAULTS["zhongzhang"],
           "没有任何 1 或 9；启用时取代断幺九",
           "no 1 or 9 anywhere; replaces 断幺九 when enabled", "house_fans", house=True),
    FanDef("daiyaojiu", "幺九", "Terminals in every set", 1, "每组牌和将都带 1 或 9（带幺九）",
           "every set and the pair hold a 1 or 9 (带幺九)", "yaojiu"),
    FanDef("yaojiu", "幺九", "All terminals", 1, "每张牌都是 1 或 9", "every tile is a 1 or 9", "yaojiu"),
    FanDef("jingoudiao", "金钩钓", "Golden hook", 1, "四组碰杠，单钓将牌胡",
           "four declared melds, won on the single pair tile"),
    FanDef("jiangdui", "将对", "2-5-8 triplets", HOUSE_FAN_DEFAULTS["jiangdui"], "刻子和将全是 2、5、8；叠加对对胡",
           "all triplets and the pair of 2, 5 or 8; stacks on 对对胡", "house_fans", house=True),
    FanDef("menqing", "门清", "Concealed hand", HOUSE_FAN_DEFAULTS["menqing"],
           "没有碰、吃或明杠（暗杠可以）；四川规则中为自选番，大众麻将中为常规番",
           "no claimed melds (concealed kongs allowed); a house fan in Sichuan rules, a standard fan in 大众麻将",
           "house_fans", house=True),
    FanDef("xiaosixi", "小四喜", "Little four winds", 3, "三组风牌刻子，第四种风作将（大众麻将）",
           "triplets of three winds and a pair of the fourth (大众麻将)"),
    FanDef("xiaosanyuan", "小三元", "Little three dragons", 2, "两组箭牌刻子，第三种箭牌作将；另计两个箭刻（大众麻将）",
           "triplets of two dragons and a pair of the third, on top of their two 箭刻 (大众麻将)"),
    FanDef("jianke", "箭刻", "Dragon triplet", 1, "每一组白、發、中的刻子或杠加 1 番（大众麻将）",
           "+1 for each triplet or kong of 白, 發 or 中 (大众麻将)"),
    FanDef("jiaxinwu", "夹心五", "Middle five", HOUSE_FAN_DEFAULTS["jiaxinwu"],
           "胡的 5 夹在手中的 456 中间", "the win tile is the 5 of a concealed 456",
           "house_fans", house=True),
    FanDef("shibaluohan", "十八罗汉", "Eighteen arhats", HOUSE_FAN_DEFAULTS["shibaluohan"],
           "开了四个杠", "four kongs", "house_fans", house=True),
    FanDef("zimo", "自摸", "Self-drawn", 1, "自己摸到胡牌（选 base 时不加番，改为每家多付 1 底）",
           "won on one's own draw (with zimo_bonus base: no fan, each payer pays 1 base more)", "zimo_bonus"),
    FanDef("gangshanghua", "杠上花", "Flower on the kong", 1, "开杠后补牌自摸（连杠且开启杠上双花为 2 番）",
           "self-drawn on a kong's replacement tile (2 after consecutive kongs with gangshang_shuanghua)",
           "gangshang_shuanghua"),
    FanDef("gangshangpao", "杠上炮", "Cannon after a kong", 1, "胡别人开杠后打出的牌",
           "won on the discard a player makes right after its kong", "gangshangpao"),
    FanDef("qiangganghu", "抢杠胡", "Robbing the kong", 1, "胡别人补杠的那张牌",
           "won on the tile another player adds to a pong",
           "robbing_kong"),
    FanDef("haidilaoyue", "海底捞月", "Moon from the sea bed", 1, "摸墙上最后一张牌自摸",
           "self-drawn on the last tile of the wall", "haidilaoyue"),
    FanDef("haidipao", "海底炮", "Cannon from the sea bed", 1, "胡最后一张牌摸完后打出的牌",
           "won on the discard after the last draw", "haidipao"),
    FanDef("gen", "根", "Root", 1, "每有一种牌四张都在自己手里（含碰杠和胡牌）加 1 番",
           "+1 for each tile kind of which the winner holds all four (melds and win tile included)"),
)}
"""Every fan, in the order results list them: the one table scoring and the fan-table page read."""

FAN_NAMES: dict[str, str] = {fan_id: f.name for fan_id, f in FANS.items()}
"""Every fan id with its Chinese name, in the order results list them."""

SITUATIONS = ("kong_replacement", "consecutive_kongs", "after_kong", "robbing_kong", "last_tile", "tianhu", "dihu")
"""Facts about how the hand was won that the tiles alone cannot show."""


@dataclass(frozen=True, slots=True)
class FanItem:
    """One fan of a result: its id, Chinese name and value (for ``gen``, the number of 根)."""

    id: str
    name: str
    fan: int

    def to_dict(self) -> dict[str, Any]:
        """``{"id": ..., "name": ..., "fan": ...}``."""
        return {"id": self.id, "name": self.name, "fan": self.fan}


@dataclass(frozen=True, slots=True)
class ScoreResult:
    """The value of a hand: its fans, the (capped) total, and the multiplier ``2 ** total``.

    ``label`` is the total as the rule set shows it (``fan_label_offset``); a hand that does not
    win has ``win`` false and a ``reason`` (in English; ``reason_zh`` in Chinese, for the portal).
    """

    win: bool
    fans: tuple[FanItem, ...] = ()
    total: int = 0
    multiplier: int = 0
    label: int = 0
    reason: str | None = None
    decomposition: Decomposition | None = field(default=None, compare=False)
    reason_zh: str | None = None

    def to_dict(self, *, with_label: bool = False) -> dict[str, Any]:
        """The JSON form used by ``chuanma score``."""
        if not self.win:
            return {"win": False, "reason": self.reason}
        out: dict[str, Any] = {
            "win": True,
            "fans": [f.to_dict() for f in self.fans],
            "total": self.total,
            "multiplier": self.multiplier,
        }
        if with_label:
            out["label"] = self.label
        return out


def _no_win(reason: str, reason_zh: str) -> ScoreResult:
    return ScoreResult(False, reason=reason, reason_zh=reason_zh)


def _item(fan_id: str, value: int | None = None) -> FanItem:
    """The fan ``fan_id`` worth ``value`` (by default, its value in :data:`FANS`)."""
    return FanItem(fan_id, FANS[fan_id].name, FANS[fan_id].fan if value is None else value)


def _check_input(rules: RuleSet, hand: Sequence[Tile], melds: Sequence[Meld], win_tile: Tile,
                 self_drawn: bool, situations: Collection[str]) -> None:
    expected = 13 - 3 * len(melds)
    if len(melds) > 4:
        raise HandSizeError(f"a hand has at most 4 melds, got {len(melds)}", "too_many_melds", melds=len(melds))
    if len(hand) != expected:
        raise HandSizeError(
            f"hand {format_tiles(hand)!r} has {len(hand)} tiles; with {len(melds)} melds it needs {expected} "
            "(the winning tile is given separately)", "hand_size", tiles=len(hand), expected=[expected]
        )
    all_tiles = [*hand, win_tile, *(t for m in melds for t in m.tiles)]
    to_counts(all_tiles)
    honours = [t for t in all_tiles if t >= NUM_SUITED]
    if honours and not rules.tiles.honours:
        raise NotationError(f"honour tiles ({format_tiles(honours)}) are not part of the 108-tile set", "no_honours")
    if any(m.kind == "chow" for m in melds) and not rules.game_variant.chow:
        raise NotationError("chow (吃) does not exist in Sichuan mahjong", "no_chow")
    unknown = [s for s in situations if s not in SITUATIONS]
    if unknown:
        raise NotationError(f"unknown situation {shown(unknown[0])}; valid situations: {', '.join(SITUATIONS)}")
    drawn_only = [s for s in ("kong_replacement", "consecutive_kongs", "tianhu") if s in situations]
    if drawn_only and not self_drawn:
        raise NotationError(f"situation {drawn_only[0]!r} needs a self-drawn win", "situation_self_drawn",
                            situation=drawn_only[0])
    discard_only = [s for s in ("after_kong", "robbing_kong") if s in situations]
    if discard_only and self_drawn:
        raise NotationError(f"situation {discard_only[0]!r} is a win on another player's tile, not self-drawn",
                            "situation_discard", situation=discard_only[0])
    if "consecutive_kongs" in situations and "kong_replacement" not in situations:
        raise NotationError("situation 'consecutive_kongs' goes with 'kong_replacement'", "consecutive_kongs")
    if ("tianhu" in situations or "dihu" in situations) and melds:
        raise NotationError("天胡/地胡 happen before any pong or kong", "heaven_earth_melds")


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


def score_hand(rules: RuleSet, hand: Sequence[Tile], melds: Sequence[Meld], win_tile: Tile, *,
               self_drawn: bool, void: str | None = None, situations: Collection[str] = ()) -> ScoreResult:
    """Score a win: ``hand`` is the concealed tiles without ``win_tile``; ``melds`` the declared sets.

    The best decomposition wins; 天胡/地胡 (and 大众麻将's limit hands) are a fixed 8; the total
    is capped by ``max_fan``. A hand that cannot win (incomplete; in Sichuan mahjong also holding
    its void suit, or all three suits) gives a result with ``win`` false and the reason.
    Malformed input raises a ``ValueError`` subclass.
    """
    _check_input(rules, hand, melds, win_tile, self_drawn, situations)
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


def max_static_fan(rules: RuleSet, hand: Sequence[Tile], melds: Sequence[Meld], void: str | None) -> int | None:
    """查大叫: the best total over every structural wait, won on a discard with no situational fans.

    ``None`` when the hand is not ready (a hand holding its void suit never is).
    """
    best: int | None = None
    for tile in waits(to_counts(hand), melds, void):
        result = score_hand(rules, hand, melds, tile, self_drawn=False, void=void)
        if result.win and (best is None or result.total > best):
            best = result.total
    return best
