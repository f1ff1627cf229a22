"""The reference reducer's tables: every 换三张 choice of a hand, a rule set's
JSON form, each remembered (the compiled core has its own)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any

from chuanma.engine.actions import Action, Exchange
from chuanma.engine.tables import EXCHANGE
from chuanma.rules import RuleSet


def exchange_options(counts: Sequence[int]) -> list[Action]:
    """Every 换三张 choice of a hand: three tiles of one suit it holds (the three may be equal)."""
    out: list[Action] = []
    for lo in (0, 9, 18):
        # only whether a tile is held once, twice or three times or more matters
        out.extend(_suit_exchanges(lo, bytes(counts[lo : lo + 9]).translate(_UP_TO_THREE)))
    return out


_UP_TO_THREE = bytes([0, 1, 2, 3, 3]) + bytes(251)  # counts are 0-4


@lru_cache(maxsize=1 << 14)
def _suit_exchanges(lo: int, counts: bytes) -> tuple[Exchange, ...]:
    pool = [lo + i for i in range(9) if counts[i]]
    return tuple([
        EXCHANGE[a, b, c] for a, b, c in combinations_with_replacement(pool, 3)
        if (a != b or counts[a - lo] >= 2 + (b == c)) and (b != c or counts[b - lo] >= 2)
    ])


_RULES_JSON: dict[int, tuple[RuleSet, str | dict[str, Any]]] = {}


def rules_json(rules: RuleSet) -> str | dict[str, Any]:
    """``rules.to_json()``, remembered for the last few rule sets (a fresh copy each time)."""
    hit = _RULES_JSON.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_RULES_JSON) >= 64:
            _RULES_JSON.clear()
        hit = _RULES_JSON[id(rules)] = (rules, rules.to_json())
    spec = hit[1]
    return spec if isinstance(spec, str) else copy.deepcopy(spec)
