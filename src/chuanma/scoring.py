"""Fan (番) scoring of a winning hand: the Sichuan table and, on the same path, 大众麻将's
(``docs/rules.md`` §3 gives both).

>>> from chuanma.rules import RuleSet
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
from chuanma.rules import RuleSet
from chuanma.tiles import (
    NUM_SUITED,
    SUITS,
    Tile,
    format_tiles,
    is_terminal,
    is_terminal_or_honour,
    rank_of,
    suit_of,
    to_counts,
)

FAN_NAMES: dict[str, str] = {
    "tianhu": "天胡",
    "dihu": "地胡",
    "shisanyao": "十三幺",
    "dasixi": "大四喜",
    "dasanyuan": "大三元",
    "ziyise": "字一色",
    "pinghu": "平胡",
    "qingyise": "清一色",
    "hunyise": "混一色",
    "longqidui": "龙七对",
    "qidui": "七对",
    "duiduihu": "对对胡",
    "duanyaojiu": "断幺九",
    "zhongzhang": "中张",
    "daiyaojiu": "幺九",
    "yaojiu": "幺九",
    "jingoudiao": "金钩钓",
    "jiangdui": "将对",
    "menqing": "门清",
    "xiaosixi": "小四喜",
    "xiaosanyuan": "小三元",
    "jianke": "箭刻",
    "jiaxinwu": "夹心五",
    "shibaluohan": "十八罗汉",
    "zimo": "自摸",
    "gangshanghua": "杠上花",
    "gangshangpao": "杠上炮",
    "qiangganghu": "抢杠胡",
    "haidilaoyue": "海底捞月",
    "haidipao": "海底炮",
    "gen": "根",
}
"""Every fan id with its Chinese name, in the order results list them."""

FIXED_FAN = 8
"""天胡 and 地胡 (and 大众麻将's limit hands) are worth exactly this, whatever else the hand holds."""
WINDS = range(27, 31)
"""東南西北 (1z–4z)."""
DRAGONS = range(31, 34)
"""白發中 (5z–7z)."""
MENQING_FAN = 1
"""门清 in 大众麻将's table (a house fan elsewhere, of the value ``house_fans`` gives)."""
XIAOSIXI_FAN = 3
"""小四喜: three triplets of winds and a pair of the fourth (大众麻将)."""
XIAOSANYUAN_FAN = 2
"""小三元: two triplets of dragons and a pair of the third, on top of their two 箭刻 (大众麻将)."""

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
    win has ``win`` false and a ``reason``.
    """

    win: bool
    fans: tuple[FanItem, ...] = ()
    total: int = 0
    multiplier: int = 0
    label: int = 0
    reason: str | None = None
    decomposition: Decomposition | None = field(default=None, compare=False)

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


def _no_win(reason: str) -> ScoreResult:
    return ScoreResult(False, reason=reason)


def _item(fan_id: str, value: int) -> FanItem:
    return FanItem(fan_id, FAN_NAMES[fan_id], value)


def _check_input(rules: RuleSet, hand: Sequence[Tile], melds: Sequence[Meld], win_tile: Tile,
                 self_drawn: bool, situations: Collection[str]) -> None:
    expected = 13 - 3 * len(melds)
    if len(melds) > 4:
        raise HandSizeError(f"a hand has at most 4 melds, got {len(melds)}")
    if len(hand) != expected:
        raise HandSizeError(
            f"hand {format_tiles(hand)!r} has {len(hand)} tiles; with {len(melds)} melds it needs {expected} "
            "(the winning tile is given separately)"
        )
    all_tiles = [*hand, win_tile, *(t for m in melds for t in m.tiles)]
    to_counts(all_tiles)
    honours = [t for t in all_tiles if t >= NUM_SUITED]
    if honours and not rules.honors:
        raise NotationError(f"honour tiles ({format_tiles(honours)}) are not part of the 108-tile set")
    if any(m.kind == "chow" for m in melds) and not rules.honors:
        raise NotationError("chow (吃) does not exist in Sichuan mahjong")
    unknown = [s for s in situations if s not in SITUATIONS]
    if unknown:
        raise NotationError(f"unknown situation {shown(unknown[0])}; valid situations: {', '.join(SITUATIONS)}")
    drawn_only = [s for s in ("kong_replacement", "consecutive_kongs", "tianhu") if s in situations]
    if drawn_only and not self_drawn:
        raise NotationError(f"situation {drawn_only[0]!r} needs a self-drawn win")
    discard_only = [s for s in ("after_kong", "robbing_kong") if s in situations]
    if discard_only and self_drawn:
        raise NotationError(f"situation {discard_only[0]!r} is a win on another player's tile, not self-drawn")
    if "consecutive_kongs" in situations and "kong_replacement" not in situations:
        raise NotationError("situation 'consecutive_kongs' goes with 'kong_replacement'")
    if ("tianhu" in situations or "dihu" in situations) and melds:
        raise NotationError("天胡/地胡 happen before any pong or kong")


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
        return _item("shisanyao", FIXED_FAN)
    if d.form == "standard":
        triplets = {t for kind, t in _sets_of(d, melds) if kind == "triplet"}
        if triplets.issuperset(WINDS):
            return _item("dasixi", FIXED_FAN)
        if triplets.issuperset(DRAGONS):
            return _item("dasanyuan", FIXED_FAN)
    if all(t >= NUM_SUITED for t in all_tiles):
        return _item("ziyise", FIXED_FAN)
    return None


def _honour_fans(d: Decomposition, sets: Sequence[tuple[str, Tile]]) -> list[FanItem]:
    """箭刻 (each dragon triplet), 小三元 and 小四喜 (大众麻将; winds score only in 小四喜)."""
    fans: list[FanItem] = []
    triplets = [t for kind, t in sets if kind == "triplet"]
    dragons = sum(t in DRAGONS for t in triplets)
    if dragons:
        fans.append(_item("jianke", dragons))
    if dragons == 2 and d.pair in DRAGONS:
        fans.append(_item("xiaosanyuan", XIAOSANYUAN_FAN))
    if sum(t in WINDS for t in triplets) == 3 and d.pair in WINDS:
        fans.append(_item("xiaosixi", XIAOSIXI_FAN))
    return fans


def _pattern_fans(rules: RuleSet, d: Decomposition, melds: Sequence[Meld], win_tile: Tile,
                  all_tiles: Sequence[Tile], gen: int) -> list[FanItem]:
    """Fans that depend on the hand's shape (everything but the situational ones)."""
    fans: list[FanItem] = []
    house = rules.house_fans
    dazhong = rules.honors
    suits = _suits(all_tiles)
    if len(suits) == 1 and "z" not in suits:
        fans.append(_item("qingyise", 2))
    elif len(suits) == 2 and "z" in suits:
        fans.append(_item("hunyise", 1))
    if d.form == "seven_pairs":
        if rules.longqidui and gen:
            fans.append(_item("longqidui", 4))
            gen -= 1
        else:
            fans.append(_item("qidui", 2))
    else:
        sets = _sets_of(d, melds)
        assert d.pair is not None
        if all(kind == "triplet" for kind, _ in sets):
            fans.append(_item("duiduihu", 1))
            if "jiangdui" in house and all(rank_of(t) in (2, 5, 8) for _, t in sets) and rank_of(d.pair) in (2, 5, 8):
                fans.append(_item("jiangdui", house["jiangdui"]))
        if rules.yaojiu == "daiyaojiu" and is_terminal(d.pair) and all(_has_terminal(k, t) for k, t in sets):
            fans.append(_item("daiyaojiu", 1))
        if len(melds) == 4 and not dazhong:
            fans.append(_item("jingoudiao", 1))
        fans += _honour_fans(d, sets)
        if "jiaxinwu" in house and rank_of(win_tile) == 5 and ConcealedSet("sequence", win_tile - 1) in d.sets:
            fans.append(_item("jiaxinwu", house["jiaxinwu"]))
        if "shibaluohan" in house and sum(m.kind == "kong" for m in melds) == 4:
            fans.append(_item("shibaluohan", house["shibaluohan"]))
        menqing = house.get("menqing", MENQING_FAN if dazhong else 0)
        if menqing and all(m.is_concealed for m in melds):
            fans.append(_item("menqing", menqing))
    if not any(is_terminal_or_honour(t) for t in all_tiles):
        fans.append(_item("zhongzhang", house["zhongzhang"]) if "zhongzhang" in house else _item("duanyaojiu", 1))
    if rules.yaojiu == "literal" and all(is_terminal(t) for t in all_tiles):
        fans.append(_item("yaojiu", 1))
    if gen:
        fans.append(_item("gen", gen))
    if dazhong and not fans:
        fans.append(_item("pinghu", 0))
    return fans


def _situation_fans(rules: RuleSet, self_drawn: bool, situations: Collection[str]) -> list[FanItem]:
    fans: list[FanItem] = []
    if self_drawn and rules.zimo_bonus == "fan":
        fans.append(_item("zimo", 1))
    if "kong_replacement" in situations:
        double = rules.gangshang_shuanghua and "consecutive_kongs" in situations
        fans.append(_item("gangshanghua", 2 if double else 1))
    if "after_kong" in situations and rules.gangshangpao:
        fans.append(_item("gangshangpao", 1))
    if "robbing_kong" in situations:
        fans.append(_item("qiangganghu", 1))
    if "last_tile" in situations:
        if self_drawn and rules.haidilaoyue:
            fans.append(_item("haidilaoyue", 1))
        elif not self_drawn and rules.haidipao:
            fans.append(_item("haidipao", 1))
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
        raise NotationError(f"void must be one of m, p, s, got {void!r}")
    if void is not None and rules.honors:
        raise NotationError("大众麻将 has no void suit (定缺): give none")
    all_tiles = [*hand, win_tile, *(t for m in melds for t in m.tiles)]
    if void is not None:
        held = [t for t in all_tiles if suit_of(t) == void]
        if held:
            return _no_win(f"holds tiles of the void suit {void}: {format_tiles(held)}")
    suits = _suits(all_tiles) - {"z"}
    if len(suits) == 3 and not rules.honors:
        return _no_win("holds all three suits: a winning hand lacks at least one suit (缺一门)")
    if "robbing_kong" in situations and not rules.robbing_kong:
        return _no_win("robbing a kong (抢杠胡) is not allowed under these rules")
    counts = to_counts([*hand, win_tile])
    found = decompositions(counts)
    if not found:
        forms = "sets and a pair, seven pairs or 十三幺" if rules.honors else "sets and a pair, or seven pairs"
        return _no_win(f"not a complete hand: it needs {forms}")
    if "tianhu" in situations:
        return _result(rules, [_item("tianhu", FIXED_FAN)], found[0])
    if "dihu" in situations and (self_drawn or rules.dihu_on_dealer_discard):
        return _result(rules, [_item("dihu", FIXED_FAN)], found[0])
    # 根 is Sichuan's: 大众麻将 pays its kongs and counts no 根
    gen = 0 if rules.honors else sum(1 for c in to_counts(all_tiles) if c == 4)
    situational = _situation_fans(rules, self_drawn, situations)
    best: ScoreResult | None = None
    for d in found:
        limit = _limit_fan(d, melds, all_tiles)
        fans = [limit] if limit else _pattern_fans(rules, d, melds, win_tile, all_tiles, gen) + situational
        result = _result(rules, fans, d)
        if best is None or result.total > best.total:
            best = result
    assert best is not None
    return best


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
