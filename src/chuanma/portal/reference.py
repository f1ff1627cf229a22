"""The fan table and every rule option of every preset, from the definitions the engine uses."""

from __future__ import annotations

from typing import Any

from chuanma.rules import PRESETS, PLAYABLE_VARIANTS, RuleSet, valid_values
from chuanma.scoring import FANS, SITUATIONS


def fan_table() -> dict[str, Any]:
    """Every fan (:data:`chuanma.scoring.FANS`) and the situations a win can be scored with."""
    return {"fans": [f.to_dict() for f in FANS.values()], "situations": list(SITUATIONS)}


def presets() -> dict[str, Any]:
    """Every preset's options, with each option's meaning, default and accepted values."""
    sets = {name: RuleSet.from_preset(name) for name in PRESETS}
    options = [{"name": name, "description": info.description or name, "accepts": valid_values(name),
                "values": {p: r.options()[name] for p, r in sets.items()}}
               for name, info in RuleSet.model_fields.items() if name != "preset"]
    return {"presets": [{"name": p, "variant": r.variant, "playable": r.variant in PLAYABLE_VARIANTS,
                         "changes": PRESETS[p]} for p, r in sets.items()],
            "options": options}
