"""Payments and wins: what the ledger of a hand holds."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from chuanma.tiles import Tile, format_tiles, parse_tile, parse_tiles, tile_str

Reason = Literal[
    "zimo",
    "dianpao",
    "qianggang",
    "kong_exposed",
    "kong_concealed",
    "kong_added",
    "call_transfer",
    "flower_pig",
    "chadajiao",
    "refund",
    "escape",
]


@dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` pays ``payee`` ``amount`` units of base, because of the event ``seq``."""

    payer: int
    payee: int
    amount: int
    reason: Reason
    seq: int

    def to_json(self) -> dict[str, Any]:
        return {
            "payer": self.payer,
            "payee": self.payee,
            "amount": self.amount,
            "reason": self.reason,
            "seq": self.seq,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Payment:
        return cls(data["payer"], data["payee"], data["amount"], data["reason"], data["seq"])


@dataclass(frozen=True, slots=True)
class Win:
    """One win: self-drawn (``from_seat`` is ``None``), on a discard, or on a robbed kong."""

    seat: int
    tile: Tile
    from_seat: int | None
    robbed: bool
    fans: tuple[tuple[str, str, int], ...]
    total: int
    multiplier: int
    situations: tuple[str, ...]
    hand: tuple[Tile, ...]
    seq: int
    jipin: bool = False
    """极品: shown as 4 fan or more (RULES §6)."""

    @property
    def self_drawn(self) -> bool:
        return self.from_seat is None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "tile": tile_str(self.tile),
            "from": self.from_seat,
            "self_drawn": self.self_drawn,
            "robbed_kong": self.robbed,
            "hand": format_tiles(self.hand),
            "fans": [{"id": i, "name": n, "fan": f} for i, n, f in self.fans],
            "total": self.total,
            "multiplier": self.multiplier,
            "situations": list(self.situations),
            "seq": self.seq,
            "jipin": self.jipin,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Win:
        return cls(
            data["seat"], parse_tile(data["tile"]), data["from"], data["robbed_kong"],
            tuple((f["id"], f["name"], f["fan"]) for f in data["fans"]), data["total"],
            data["multiplier"], tuple(data["situations"]), tuple(parse_tiles(data["hand"])),
            data["seq"], data["jipin"],
        )


@dataclass(slots=True)
class KongRecord:
    """A declared kong and the ledger entries it earned (for 呼叫转移 and 退税)."""

    seat: int
    tile: Tile
    kind: Literal["exposed", "concealed", "added"]
    seq: int
    payments: list[int] = field(default_factory=list)
    transferred: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "tile": tile_str(self.tile), "kind": self.kind, "seq": self.seq,
                "payments": list(self.payments), "transferred": self.transferred}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> KongRecord:
        return cls(data["seat"], parse_tile(data["tile"]), data["kind"], data["seq"],
                   list(data["payments"]), data["transferred"])


def totals(payments: Iterable[Payment]) -> list[int]:
    """Per-seat net result in units of base."""
    out = [0, 0, 0, 0]
    for p in payments:
        out[p.payer] -= p.amount
        out[p.payee] += p.amount
    return out
