"""Sample events for the narration's tests: one of each kind a seat may be shown
(docs/protocol.md), hidden forms and every note (automatic, late, forced) included."""

from __future__ import annotations

from typing import Any

FANS: list[dict[str, Any]] = [{"id": "qingyise", "name": "清一色", "fan": 2}]
EVENTS: list[dict[str, Any]] = [
    {"type": "start", "dealer": 3, "base": 1, "wall": 108},
    {"type": "deal", "seat": 0, "hand": "2455m12899p1237s"},
    {"type": "deal_done", "wall": 55},
    {"type": "exchange_chosen", "seat": 0, "tiles": "245m"},
    {"type": "exchange_chosen", "seat": 1},
    {"type": "exchange", "direction": "opposite"},
    {"type": "exchange_received", "seat": 0, "tiles": "123s", "from": 2},
    {"type": "void_chosen", "seat": 0, "suit": "p"},
    {"type": "void_chosen", "seat": 0, "suit": "s", "automatic": True},
    {"type": "void_chosen", "seat": 2},
    {"type": "voids", "voids": ["p", "m", "s", "m"]},
    {"type": "draw", "seat": 0, "tile": "5m", "wall": 54, "replacement": False},
    {"type": "draw", "seat": 1, "wall": 53, "replacement": False},
    {"type": "draw", "seat": 0, "tile": "6s", "wall": 52, "replacement": True},
    {"type": "draw", "seat": 1, "wall": 51, "replacement": True},
    {"type": "discard", "seat": 1, "tile": "7p", "wall": 51},
    {"type": "discard", "seat": 2, "tile": "3s", "wall": 50, "automatic": True},
    {"type": "pong", "seat": 2, "tile": "7p", "from": 1},
    {"type": "chow", "seat": 2, "tile": "3m", "claimed": "4m", "from": 1},
    {"type": "kong", "seat": 3, "tile": "9s", "kind": "exposed", "from": 0},
    {"type": "kong", "seat": 0, "tile": "1m", "kind": "concealed"},
    {"type": "kong", "seat": 3, "kind": "concealed"},
    {"type": "kong", "seat": 2, "tile": "7p", "kind": "added", "late": False},
    {"type": "kong", "seat": 1, "tile": "4s", "kind": "added", "late": True},
    {"type": "kong_declared", "seat": 2, "tile": "7p", "kind": "added"},
    {"type": "kong_robbed", "seat": 2, "tile": "7p"},
    {"type": "claim", "seat": 0, "claim": {"pong": "7p"}},
    {"type": "hu", "seat": 0, "tile": "8p", "from": None, "self_drawn": True, "robbed_kong": False,
     "fans": FANS, "total": 2, "multiplier": 4},
    {"type": "hu", "seat": 1, "tile": "2s", "from": 3, "self_drawn": False, "robbed_kong": False,
     "fans": [], "total": 0, "multiplier": 1},
    {"type": "hu", "seat": 3, "tile": "7p", "from": 2, "self_drawn": False, "robbed_kong": True,
     "fans": FANS, "total": 2, "multiplier": 4},
    {"type": "hu", "seat": 2, "tile": "9m", "from": None, "self_drawn": True, "robbed_kong": False,
     "fans": FANS, "total": 2, "multiplier": 4, "forced": True},
    {"type": "payment", "payer": 1, "payee": 0, "amount": 4, "reason": "kong_concealed", "for": 9},
    {"type": "leave", "seat": 2, "wall": 20},
    {"type": "exhausted"},
    {"type": "end", "reason": "won"},
]

