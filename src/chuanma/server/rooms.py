"""The rooms (docs/server.md, Rooms): each has a preset, a base and an entry range of chips."""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass

from chuanma.rules import RuleSet


@dataclass(frozen=True, slots=True)
class Room:
    """A room: its tables play ``preset`` at ``base``; a player sits only with ``low <= balance <= high``
    and at least level ``min_level`` (:mod:`chuanma.server.levels`; 0: any)."""

    id: str
    name: str
    preset: str
    base: int
    low: int
    high: int | None
    min_level: int = 0

    def rules(self) -> RuleSet:
        return RuleSet.from_preset(self.preset, base=self.base)

    def admits(self, balance: int) -> bool:
        return balance >= self.low and (self.high is None or balance <= self.high)

    def range_text(self) -> str:
        return f"{self.low:,}–{self.high:,}" if self.high is not None else f"{self.low:,}+"

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "preset": self.preset, "base": self.base,
                "low": self.low, "high": self.high, "min_level": self.min_level}


_TIERS = (
    ("chuji", "初级场", 400, 2_000, 100_000, 0),
    ("pingmin", "平民场", 1_000, 5_000, 300_000, 0),
    ("guanjia", "官甲场", 3_000, 20_000, None, 0),
    ("tuhao", "土豪场", 9_000, 50_000, None, 3),
    ("fushang", "富商场", 30_000, 150_000, None, 4),
    ("zunjue", "尊爵场", 80_000, 400_000, None, 5),
)

ROOMS: dict[str, Room] = {
    f"{tier}-{mode}": Room(f"{tier}-{mode}", f"{name} {label}", f"doublewin-{mode}", base, low, high, level)
    for tier, name, base, low, high, level in _TIERS
    for mode, label in (("xuezhan", "血战到底"), ("xueliu", "血流成河"))
}
ROOMS["classic"] = Room("classic", "经典场 血战到底", "classic", 6, 60, None)
ROOMS["classic-normal"] = Room("classic-normal", "经典场 普通场", "classic-normal", 6, 60, None)
ROOMS["dazhong"] = Room("dazhong", "初级场 大众麻将", "dazhong", *_TIERS[0][2:5])
"""Every room by id: DoubleWin's six tiers, each in 血战 and 血流, playing DoubleWin's rules
(``doublewin-xuezhan``, ``doublewin-xueliu``); ``classic`` and ``classic-normal`` (001's site,
base 6: its 血战场 and its 普通场); ``dazhong`` (004's 大众麻将, at the first tier). A room's
``preset`` is shown with it (``/api/rooms``, the lobby). The top three tiers want a level too
(土豪场 3, 富商场 4, 尊爵场 5)."""

LOWEST_ENTRY = min(tier[3] for tier in _TIERS)
"""Below this balance a player gets relief chips (破产补助)."""
PRIVATE_ROOM = "private"
INVITE_BYTES = 10
"""A private table's invite code is this many random bytes (80 bits), 16 characters of base32."""
INVITE_TRIES = 8
"""Invite codes drawn for a new private table before giving up (a collision is rarer than 2^-40)."""


def new_invite() -> str:
    """A fresh invite code: 16 lower-case base32 characters (the ``invite`` column's width)."""
    return base64.b32encode(secrets.token_bytes(INVITE_BYTES)).decode().lower()
