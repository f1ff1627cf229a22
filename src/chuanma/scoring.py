"""Fan (番) scoring of a winning hand: the Sichuan table and, on the same path, 大众麻将's
(``docs/rules.md`` §3 gives both). The rules are the compiled core's (:mod:`chuanma._core`,
``src/native/score.cpp``); this module holds the fan table and is their typed facade.

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
from functools import cache
from typing import Any

from chuanma import _core
from chuanma.analysis import Decomposition, from_reading
from chuanma.errors import HandSizeError, NotationError, shown
from chuanma.melds import Meld
from chuanma.rules import HOUSE_FAN_DEFAULTS, RuleSet
from chuanma.tiles import NUM_SUITED, SUIT_NAMES_ZH, SUITS, Tile, format_tiles, suit_of, tile_name, to_counts

FIXED_FAN = 8
"""天胡 and 地胡 (and 大众麻将's limit hands) are worth exactly this, whatever else the hand holds."""


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


def _check_tiles(rules: RuleSet, hand: Sequence[Tile], melds: Sequence[Meld], extra: Sequence[Tile]) -> None:
    """The hand's size with its melds, and its tiles (``extra``: the win tile, if any)."""
    expected = 13 - 3 * len(melds)
    if len(melds) > 4:
        raise HandSizeError(f"a hand has at most 4 melds, got {len(melds)}", "too_many_melds", melds=len(melds))
    if len(hand) != expected:
        raise HandSizeError(
            f"hand {format_tiles(hand)!r} has {len(hand)} tiles; with {len(melds)} melds it needs {expected} "
            "(the winning tile is given separately)", "hand_size", tiles=len(hand), expected=[expected]
        )
    all_tiles = [*hand, *extra, *(t for m in melds for t in m.tiles)]
    to_counts(all_tiles)
    honours = [t for t in all_tiles if t >= NUM_SUITED]
    if honours and not rules.tiles.honours:
        raise NotationError(f"honour tiles ({format_tiles(honours)}) are not part of the 108-tile set", "no_honours")
    if any(m.kind == "chow" for m in melds) and not rules.game_variant.chow:
        raise NotationError("chow (吃) does not exist in Sichuan mahjong", "no_chow")


def _check_situations(self_drawn: bool, situations: Collection[str], melds: Sequence[Meld]) -> None:
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


def _void_index(rules: RuleSet, void: str | None) -> int:
    """The core's index of the void suit (-1 for none), checked against the rules."""
    if void is None:
        return -1
    if len(void) != 1 or void not in SUITS:
        raise NotationError(f"void must be one of m, p, s, got {void!r}", "void_suit")
    if not rules.game_variant.void:
        raise NotationError("大众麻将 has no void suit (定缺): give none", "no_void")
    return SUITS.index(void)


_MELD_KINDS = {"pong": _core.MeldKind.PONG, "kong": _core.MeldKind.KONG, "chow": _core.MeldKind.CHOW}
_SITUATION_BITS = {s: 1 << i for i, s in enumerate(SITUATIONS)}
"""Each situation's bit in the core's situation set (``_core.situation_ids()`` in this order)."""
_FAN_IDS = tuple(FANS)
"""Every fan by its index in the core (``_core.fan_ids()`` in this order)."""
_OPTIONS: dict[int, tuple[RuleSet, _core.ScoreOptions]] = {}
"""The core's options of each rule set scored lately, by the rule set's identity."""
_OPTIONS_KEPT = 64
"""How many rule sets' options are kept (a process scores with a few)."""


def _core_melds(melds: Sequence[Meld]) -> list[tuple[_core.MeldKind, int, bool]]:
    """Melds as the core takes them: (kind, tile, concealed)."""
    return [(_MELD_KINDS[m.kind], m.tile, m.is_concealed) for m in melds]


def score_options(rules: RuleSet) -> _core.ScoreOptions:
    """The options of ``rules`` that scoring reads, with every fan's value from :data:`FANS` (a
    house fan's from the rules when enabled), made once for a rule set (the compiled reducer's
    ``_core.Rules`` takes them too, and checks them against the rules). Each call returns a copy: a
    caller changing it changes no other's."""
    kept = _OPTIONS.get(id(rules))
    if kept is not None and kept[0] is rules:
        return _core.ScoreOptions(kept[1])
    o = _core.ScoreOptions()
    o.style = _core.FanStyle.DAZHONG if rules.game_variant.fans == "dazhong" else _core.FanStyle.SICHUAN
    o.void_suit = rules.game_variant.void
    o.longqidui = rules.longqidui
    o.yaojiu = _core.YaojiuRule.LITERAL if rules.yaojiu == "literal" else _core.YaojiuRule.DAIYAOJIU
    o.max_fan = -1 if rules.max_fan is None else rules.max_fan
    o.zimo_fan = rules.zimo_bonus == "fan"
    o.gangshangpao = rules.gangshangpao
    o.haidilaoyue = rules.haidilaoyue
    o.haidipao = rules.haidipao
    o.gangshang_shuanghua = rules.gangshang_shuanghua
    o.dihu_on_dealer_discard = rules.dihu_on_dealer_discard
    o.robbing_kong = rules.robbing_kong
    house = rules.house_fans
    o.house = sum(1 << i for i, f in enumerate(FANS.values()) if f.house and f.id in house)
    o.value = [house.get(f.id, f.fan) if f.house else f.fan for f in FANS.values()]
    if len(_OPTIONS) >= _OPTIONS_KEPT:
        _OPTIONS.clear()
    _OPTIONS[id(rules)] = (rules, o)
    return _core.ScoreOptions(o)


@cache
def _item(index: int, value: int) -> FanItem:
    fan_id = _FAN_IDS[index]
    return FanItem(fan_id, FANS[fan_id].name, value)


def _no_win(reason: _core.NoWin, rules: RuleSet, void: str | None, all_tiles: Sequence[Tile]) -> ScoreResult:
    """The result of a hand that does not win, with the reason in English and Chinese."""
    if reason is _core.NoWin.VOID_HELD:
        assert void is not None
        held = sorted(t for t in all_tiles if suit_of(t) == void)
        text = (f"holds tiles of the void suit {void}: {format_tiles(held)}",
                f"手里还有缺门（{SUIT_NAMES_ZH[void]}）的牌：{' '.join(tile_name(t) for t in held)}")
    elif reason is _core.NoWin.THREE_SUITS:
        text = ("holds all three suits: a winning hand lacks at least one suit (缺一门)", "三门都有：胡牌至少要缺一门")
    elif reason is _core.NoWin.ROBBING_KONG:
        text = ("robbing a kong (抢杠胡) is not allowed under these rules", "这套规则不许抢杠胡")
    elif rules.tiles.honours:
        text = ("not a complete hand: it needs sets and a pair, seven pairs or 十三幺",
                "还没成牌：要几组刻子或顺子加一对将、七对或十三幺")
    else:
        text = ("not a complete hand: it needs sets and a pair, or seven pairs",
                "还没成牌：要几组刻子或顺子加一对将，或七对")
    return ScoreResult(False, reason=text[0], reason_zh=text[1])


def score_hand(rules: RuleSet, hand: Sequence[Tile], melds: Sequence[Meld], win_tile: Tile, *,
               self_drawn: bool, void: str | None = None, situations: Collection[str] = ()) -> ScoreResult:
    """Score a win: ``hand`` is the concealed tiles without ``win_tile``; ``melds`` the declared sets.

    The best decomposition wins; 天胡/地胡 (and 大众麻将's limit hands) are a fixed 8; the total
    is capped by ``max_fan``. A hand that cannot win (incomplete; in Sichuan mahjong also holding
    its void suit, or all three suits) gives a result with ``win`` false and the reason.
    Malformed input raises a ``ValueError`` subclass.
    """
    _check_tiles(rules, hand, melds, (win_tile,))
    _check_situations(self_drawn, situations, melds)
    vi = _void_index(rules, void)
    counts = to_counts(hand)
    counts[win_tile] += 1
    bits = 0
    for s in situations:
        bits |= _SITUATION_BITS[s]
    reason, fans, total, reading = _core.score(bytes(counts), _core_melds(melds), win_tile, self_drawn, vi, bits,
                                               score_options(rules))
    if reading is None:
        return _no_win(reason, rules, void, [*hand, win_tile, *(t for m in melds for t in m.tiles)])
    items = tuple([_item(i, v) for i, v in fans])
    return ScoreResult(True, items, total, 2**total, rules.fan_label(total), None, from_reading(reading))


def max_static_fan(rules: RuleSet, hand: Sequence[Tile], melds: Sequence[Meld], void: str | None) -> int | None:
    """查大叫: the best total over every structural wait, won on a discard with no situational fans.

    ``None`` when the hand is not ready (a hand holding its void suit never is). Malformed input
    raises as :func:`score_hand`'s does, once there is a wait to score.
    """
    vi = _void_index(rules, void)
    best = _core.max_static_fan(bytes(to_counts(hand)), _core_melds(melds), vi, score_options(rules))
    if best != -1:  # a wait scored, or a hand the core refused: checked as score_hand checks it
        _check_tiles(rules, hand, melds, ())
        assert best >= 0, "the checks refuse every hand the core refuses"
    return None if best < 0 else best
