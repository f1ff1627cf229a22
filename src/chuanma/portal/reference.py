"""The fan table, every rule option of every preset and the tiles' names, from the definitions the
engine uses."""

from __future__ import annotations

from typing import Any

from chuanma.portal.calculator import SCORING_OPTIONS
from chuanma.rules import PRESET_NAMES, PRESETS, RuleSet, option_schema
from chuanma.scoring import FANS, SITUATIONS
from chuanma.tiles import NUM_KINDS, tile_name, tile_str


def fan_table() -> dict[str, Any]:
    """Every fan (:data:`chuanma.scoring.FANS`) and the situations a win can be scored with."""
    return {"fans": [f.to_dict() for f in FANS.values()], "situations": list(SITUATIONS)}


CHOICE_NAMES: dict[str, dict[str, dict[str, str]]] = {
    "variant": {"xuezhan": {"zh": "血战到底", "en": "Bloody battle (血战)"},
                "xueliu": {"zh": "血流成河", "en": "Bloody river (血流)"},
                "normal": {"zh": "普通场", "en": "first win ends the hand"},
                "dazhong": {"zh": "大众麻将", "en": "Popular mahjong (大众)"}},
    "dealer": {"random": {"zh": "随机", "en": "at random"},
               "first_winner": {"zh": "首家胡牌者", "en": "the first winner"},
               "discarder": {"zh": "首家胡牌的点炮者", "en": "who dealt in the first win"},
               "rotate": {"zh": "庄家胡或无人胡则连庄，否则下家",
                          "en": "the dealer again if it won or nobody did, else the next seat"}},
    "pass_rule": {"none": {"zh": "不限制", "en": "nothing"},
                  "same_turn": {"zh": "同巡过手：到自己下次摸牌前", "en": "until one's next draw (同巡过手)"},
                  "forever": {"zh": "过水不胡：整局不再胡这张", "en": "never that tile again (过水不胡)"}},
    "yaojiu": {"daiyaojiu": {"zh": "带幺九", "en": "every set has a 1 or 9"},
               "literal": {"zh": "按字面", "en": "every tile is a 1 or 9"}},
    "fan_label_offset": {"0": {"zh": "0（平胡 0 番）", "en": "0 (a plain win is 0)"},
                         "1": {"zh": "1（平胡 1 番）", "en": "1 (a plain win is 1)"}},
    "zimo_bonus": {"fan": {"zh": "加 1 番", "en": "+1 fan"},
                   "base": {"zh": "每家多付 1 倍底分", "en": "+1× base from each"}},
    "exposed_kong": {"discarder_only": {"zh": "承包制", "en": "the discarder pays 2× (承包制)"},
                     "everyone": {"zh": "家家有", "en": "the others pay 1× too (家家有)"}},
    "call_transfer": {"each_winner": {"zh": "每位胡牌者", "en": "to each winner"},
                      "first_winner": {"zh": "首家胡牌者", "en": "to the first winner"},
                      "off": {"zh": "不转移", "en": "off"}},
    "exposed_kong_flower": {"zimo": {"zh": "算自摸", "en": "counts as self-drawn"},
                            "discarder_pays": {"zh": "点杠者付", "en": "the kong's discarder pays"}},
    "flower_pig": {"ting_max": {"zh": "按听牌者最大番", "en": "by each waiting player's best fan"},
                   "fixed": {"zh": "固定 16 倍", "en": "a fixed 16×"}},
}
"""Every choice of every option that has choices, in Chinese and English (``choice_names`` in the
catalog): a form shows these, never the choice's id."""


def preset_catalog() -> dict[str, Any]:
    """The one shape of the presets, served to every page (``GET /api/presets``): every preset (its
    id ``name``, its names ``zh`` and ``en`` (:data:`~chuanma.rules.PRESET_NAMES`), variant, the
    options it changes) and every
    option (:func:`chuanma.rules.option_schema`) with its value in each preset, its choices' names
    (:data:`CHOICE_NAMES`) and whether the calculator offers it (``scoring``:
    :data:`~chuanma.portal.calculator.SCORING_OPTIONS`)."""
    sets = {name: RuleSet.from_preset(name) for name in PRESETS}
    return {
        "presets": [{"name": p, **PRESET_NAMES[p], "variant": r.variant,
                     "changes": PRESETS[p]} for p, r in sets.items()],
        "options": [{**o, "values": {p: r.options()[o["name"]] for p, r in sets.items()},
                     "scoring": o["name"] in SCORING_OPTIONS, "choice_names": CHOICE_NAMES.get(o["name"], {})}
                    for o in option_schema()],
    }


def tile_table() -> dict[str, Any]:
    """Every tile kind, ``1m`` … ``7z``, with its names (:func:`chuanma.tiles.tile_name`): the
    browser names and draws the tiles from this, so that a tile is called the same everywhere."""
    return {"tiles": [{"code": tile_str(t), "zh": tile_name(t, "zh"), "en": tile_name(t, "en")}
                      for t in range(NUM_KINDS)]}
