"""The rooms (docs/server.md, Rooms): each has a preset, a base and an entry range of chips.

The rooms are the database's (``rooms``, migration 0016, seeded with :data:`DEFAULT_ROOMS`), changed
by operators (:mod:`chuanma.server.room_config`); a running server holds them in a :class:`RoomSet`
(``host.rooms``), replaced whole when they change.
"""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass, field

from chuanma.rules import RuleSet


@dataclass(frozen=True, slots=True)
class Room:
    """A room, named in Chinese (``name``) and English (``en``): its tables play ``preset`` at ``base``; a
    player sits only with ``low <= balance <= high`` and at least level ``min_level``
    (:mod:`chuanma.server.levels`; 0: any)."""

    id: str
    name: str
    en: str
    preset: str
    base: int
    low: int
    high: int | None
    min_level: int = 0
    enabled: bool = True
    """A disabled room takes no new player (its open tables play on)."""

    def rules(self) -> RuleSet:
        return RuleSet.from_preset(self.preset, base=self.base)

    def admits(self, balance: int) -> bool:
        return balance >= self.low and (self.high is None or balance <= self.high)

    def range_text(self) -> str:
        return f"{self.low:,}–{self.high:,}" if self.high is not None else f"{self.low:,}+"

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "en": self.en, "preset": self.preset, "base": self.base,
                "low": self.low, "high": self.high, "min_level": self.min_level, "enabled": self.enabled}


_TIERS = (
    ("chuji", "初级场", "Beginners' room", 400, 2_000, 100_000, 0),
    ("pingmin", "平民场", "Commoners' room", 1_000, 5_000, 300_000, 0),
    ("guanjia", "官甲场", "Officials' room", 3_000, 20_000, None, 0),
    ("tuhao", "土豪场", "Tycoons' room", 9_000, 50_000, None, 3),
    ("fushang", "富商场", "Merchants' room", 30_000, 150_000, None, 4),
    ("zunjue", "尊爵场", "Nobles' room", 80_000, 400_000, None, 5),
)
_MODES = (("xuezhan", "血战到底", "Bloody battle (血战)"), ("xueliu", "血流成河", "Bloody river (血流)"))

DEFAULT_ROOMS: dict[str, Room] = {
    f"{tier}-{mode}": Room(f"{tier}-{mode}", f"{name} {label}", f"{en} · {label_en}", f"doublewin-{mode}",
                           base, low, high, level)
    for tier, name, en, base, low, high, level in _TIERS
    for mode, label, label_en in _MODES
}
DEFAULT_ROOMS["classic"] = Room("classic", "经典场 血战到底", "Classic room · Bloody battle (血战)", "classic",
                                6, 60, None)
DEFAULT_ROOMS["classic-normal"] = Room("classic-normal", "经典场 普通场", "Classic room · first win ends the hand",
                               "classic-normal", 6, 60, None)
DEFAULT_ROOMS["dazhong"] = Room("dazhong", "初级场 大众麻将", "Beginners' room · Popular mahjong (大众)", "dazhong",
                        *_TIERS[0][3:6])
"""The rooms a new database is seeded with (migration 0016), by id (named in Chinese and English):
DoubleWin's six tiers, each in 血战 and 血流, playing
DoubleWin's rules (``doublewin-xuezhan``, ``doublewin-xueliu``); ``classic`` and ``classic-normal`` (001's
site, base 6: its 血战场 and its 普通场); ``dazhong`` (004's 大众麻将, at the first tier). A room's
``preset`` is shown with it (``/api/rooms``, the lobby). The top three tiers want a level too
(土豪场 3, 富商场 4, 尊爵场 5)."""

LOWEST_ENTRY = min(tier[4] for tier in _TIERS)
"""Below this balance a player gets relief chips (破产补助): the default first tier's entry (2,000),
fixed whatever the operators make of the rooms (docs/server.md, Chips)."""
PRIVATE_ROOM = "private"


@dataclass(frozen=True, slots=True)
class Stakes:
    """What a private table of ``base`` asks of a balance (docs/server.md, Keeping chips honest): that
    some open room (of ``rooms``) of at least that base admits it (:meth:`Room.admits`)."""

    base: int
    rooms: tuple[Room, ...]

    def admit(self, balance: int) -> bool:
        return any(room.base >= self.base and room.admits(balance) for room in self.rooms)

    def text(self) -> str:
        """What it asks, in words."""
        entries = [room.low for room in self.rooms if room.base >= self.base]
        if not entries:
            top = max((room.base for room in self.rooms), default=0)
            return f"no open room plays a base above {top:,}"
        return f"a balance an open room of base {self.base:,} or more admits (from {min(entries):,})"


@dataclass
class RoomSet:
    """The rooms a running server offers, by id (disabled ones too), as last read from the database."""

    by_id: dict[str, Room] = field(default_factory=lambda: dict(DEFAULT_ROOMS))

    def get(self, room_id: str) -> Room | None:
        return self.by_id.get(room_id)

    def open(self) -> list[Room]:
        """The rooms taking new players."""
        return [room for room in self.by_id.values() if room.enabled]

    def stakes(self, base: int) -> Stakes:
        """What a private table of ``base`` asks, by the open rooms."""
        return Stakes(base, tuple(self.open()))
INVITE_BYTES = 10
"""A private table's invite code is this many random bytes (80 bits), 16 characters of base32."""
INVITE_TRIES = 8
"""Invite codes drawn for a new private table before giving up (a collision is rarer than 2^-40)."""


def new_invite() -> str:
    """A fresh invite code: 16 lower-case base32 characters (the ``invite`` column's width)."""
    return base64.b32encode(secrets.token_bytes(INVITE_BYTES)).decode().lower()
