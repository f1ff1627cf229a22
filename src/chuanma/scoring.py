"""Fan (番) scoring of a winning hand: the Sichuan table and, on the same path, 大众麻将's
(``docs/rules.md`` §3 gives both). The rules are the compiled core's (:mod:`chuanma._core`,
``src/native/score.cpp``); this module is their typed facade, and re-exports the fan table
(:mod:`chuanma.fans`).

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
from functools import cache
from typing import Any

from chuanma import _core
from chuanma.analysis import Decomposition, from_reading
from chuanma.errors import HandSizeError, NotationError, shown
from chuanma.fans import FAN_NAMES as FAN_NAMES
from chuanma.fans import FANS as FANS
from chuanma.fans import FIXED_FAN as FIXED_FAN
from chuanma.fans import FanDef as FanDef
from chuanma.fans import fan_options
from chuanma.melds import Meld
from chuanma.rules import RuleSet
from chuanma.tiles import NUM_SUITED, SUIT_NAMES_ZH, SUITS, Tile, format_tiles, suit_of, tile_name, to_counts

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
    o = fan_options(rules.house_fans, rules.max_fan)
    o.style = _core.FanStyle.DAZHONG if rules.game_variant.fans == "dazhong" else _core.FanStyle.SICHUAN
    o.void_suit = rules.game_variant.void
    o.longqidui = rules.longqidui
    o.yaojiu = _core.YaojiuRule.LITERAL if rules.yaojiu == "literal" else _core.YaojiuRule.DAIYAOJIU
    o.zimo_fan = rules.zimo_bonus == "fan"
    o.gangshangpao = rules.gangshangpao
    o.haidilaoyue = rules.haidilaoyue
    o.haidipao = rules.haidipao
    o.gangshang_shuanghua = rules.gangshang_shuanghua
    o.dihu_on_dealer_discard = rules.dihu_on_dealer_discard
    o.robbing_kong = rules.robbing_kong
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
