"""The fan (番) table and the scoring options the compiled core reads (:mod:`chuanma._core`):
the one source of every fan's value, read by :mod:`chuanma.rules` (a rule set's highest total)
and by :mod:`chuanma.scoring` (which re-exports the table).

>>> highest_total({}, None), highest_total({"menqing": 11}, None), highest_total({"menqing": 64}, 4), MAX_TOTAL
(40, 50, 4, 50)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from chuanma import _core

HOUSE_FAN_DEFAULTS: dict[str, int] = {
    "jiangdui": 2,
    "menqing": 1,
    "zhongzhang": 1,
    "jiaxinwu": 1,
    "shibaluohan": 2,
}
"""House fans for private tables (off in every preset) and the value each takes when enabled."""

MAX_TOTAL: int = _core.MAX_TOTAL
"""The highest total a win may reach under a rule set: a payment is at most ``2 ** MAX_TOTAL`` base,
which the compiled core's 64-bit payments hold (a rule set that could reach more is refused)."""

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


def fan_options(house_fans: Mapping[str, int], max_fan: int | None) -> _core.ScoreOptions:
    """The core's scoring options with every fan's value from :data:`FANS` (a house fan's from
    ``house_fans`` when enabled there) and 封顶 ``max_fan`` (``None``: no cap); the other options
    are the core's defaults (:func:`chuanma.scoring.score_options` sets them from a rule set)."""
    o = _core.ScoreOptions()
    o.max_fan = -1 if max_fan is None else max_fan
    o.house = sum(1 << i for i, f in enumerate(FANS.values()) if f.house and f.id in house_fans)
    o.value = [house_fans.get(f.id, f.fan) if f.house else f.fan for f in FANS.values()]
    return o


def highest_total(house_fans: Mapping[str, int], max_fan: int | None) -> int:
    """The highest total a win can reach with these house fans and 封顶 (an upper bound, the
    core's: 封顶 when set, else the larger of the limit hands' value and every other fan at its most)."""
    return _core.highest_total(fan_options(house_fans, max_fan))
