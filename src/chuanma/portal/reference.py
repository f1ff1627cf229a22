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


def preset_catalog() -> dict[str, Any]:
    """The one shape of the presets, served to every page (``GET /api/presets``): every preset (its
    id ``name``, its names ``zh`` and ``en`` (:data:`~chuanma.rules.PRESET_NAMES`), variant, the
    options it changes) and every
    option (:func:`chuanma.rules.option_schema`) with its value in each preset and whether the
    calculator offers it (``scoring``: :data:`~chuanma.portal.calculator.SCORING_OPTIONS`)."""
    sets = {name: RuleSet.from_preset(name) for name in PRESETS}
    return {
        "presets": [{"name": p, **PRESET_NAMES[p], "variant": r.variant,
                     "changes": PRESETS[p]} for p, r in sets.items()],
        "options": [{**o, "values": {p: r.options()[o["name"]] for p, r in sets.items()},
                     "scoring": o["name"] in SCORING_OPTIONS} for o in option_schema()],
    }


def tile_table() -> dict[str, Any]:
    """Every tile kind, ``1m`` … ``7z``, with its names (:func:`chuanma.tiles.tile_name`): the
    browser names and draws the tiles from this, so that a tile is called the same everywhere."""
    return {"tiles": [{"code": tile_str(t), "zh": tile_name(t, "zh"), "en": tile_name(t, "en")}
                      for t in range(NUM_KINDS)]}
