"""The fan table and every rule option of every preset, from the definitions the engine uses."""

from __future__ import annotations

from typing import Any

from chuanma.rules import PRESETS, RuleSet, option_schema
from chuanma.scoring import FANS, SITUATIONS


def fan_table() -> dict[str, Any]:
    """Every fan (:data:`chuanma.scoring.FANS`) and the situations a win can be scored with."""
    return {"fans": [f.to_dict() for f in FANS.values()], "situations": list(SITUATIONS)}


def presets() -> dict[str, Any]:
    """Every preset (its variant, whether the engine plays it, the options it changes) and every
    option (:func:`chuanma.rules.option_schema`) with its value in each preset."""
    sets = {name: RuleSet.from_preset(name) for name in PRESETS}
    return {
        "presets": [{"name": p, "variant": r.variant,
                     "changes": PRESETS[p]} for p, r in sets.items()],
        "options": [{**o, "values": {p: r.options()[o["name"]] for p, r in sets.items()}} for o in option_schema()],
    }
