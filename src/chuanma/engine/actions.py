"""Decisions a seat can make, as small immutable values that carry their tile.

Each action has a JSON form used in records: ``{"discard": "5m"}``, ``{"exchange": "789s"}``,
``{"void": "s"}``, ``{"pong": "5m"}``, ``{"kong": "7p"}``, ``{"chow": "3m"}`` (the lowest tile of
the sequence, 大众麻将), ``{"hu": true}``, ``{"pass": true}``;
a record decision adds ``"seat"``. ``repr`` of an action is valid Python (``Discard(tile=4)``)
and ``str`` is what a player reads (``discard 5m``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from chuanma.errors import ChuanmaError, NotationError, shown
from chuanma.tiles import (
    NUM_SUITED,
    SICHUAN_TILES,
    SUITS,
    Tile,
    TileSet,
    format_tiles,
    parse_tile,
    parse_tiles,
    suit_of,
    tile_str,
)

_TEXT = [tile_str(t) for t in range(34)]


class IllegalActionError(ChuanmaError, ValueError):
    """A decision the rules do not allow now; the state is left untouched.

    ``code`` is stable (for programs: ``not_your_turn``, ``illegal_action``, ``must_win``,
    ``hand_over``, ``no_such_seat``, ``already_left``, ``stale_version``, ``bad_command``,
    ``bad_setup``), ``seat`` the seat that was refused (if any), ``reason`` the words a player reads.
    """

    def __init__(self, reason: str, code: str = "illegal_action", seat: int | None = None) -> None:
        super().__init__(reason, code, seat)  # all in args: the error pickles whole
        self.reason = reason
        self.code = code
        self.seat = seat

    def __str__(self) -> str:
        return self.reason

    def to_json(self) -> dict[str, object]:
        return {"code": self.code, "seat": self.seat, "reason": self.reason}


class StaleCommandError(IllegalActionError):
    """A command made against another version of the hand than the current one."""


@dataclass(frozen=True, slots=True)
class Exchange:
    """换三张: the three tiles (of one suit) given away."""

    tiles: tuple[Tile, Tile, Tile]

    def to_json(self) -> dict[str, Any]:
        return {"exchange": format_tiles(self.tiles)}

    def __str__(self) -> str:
        return f"exchange {format_tiles(self.tiles)}"


@dataclass(frozen=True, slots=True)
class ChooseVoid:
    """定缺: the suit given up for the hand."""

    suit: str

    def to_json(self) -> dict[str, Any]:
        return {"void": self.suit}

    def __str__(self) -> str:
        return f"void {self.suit}"


@dataclass(frozen=True, slots=True)
class Discard:
    tile: Tile

    def to_json(self) -> dict[str, Any]:
        return {"discard": _TEXT[self.tile]}

    def __str__(self) -> str:
        return f"discard {tile_str(self.tile)}"


@dataclass(frozen=True, slots=True)
class Pong:
    tile: Tile

    def to_json(self) -> dict[str, Any]:
        return {"pong": _TEXT[self.tile]}

    def __str__(self) -> str:
        return f"pong {tile_str(self.tile)}"


@dataclass(frozen=True, slots=True)
class Chow:
    """吃 (大众麻将): the 上家's discard with two tiles of the hand, a sequence starting at ``tile``."""

    tile: Tile

    def to_json(self) -> dict[str, Any]:
        return {"chow": _TEXT[self.tile]}

    def __str__(self) -> str:
        return f"chow {format_tiles((self.tile, self.tile + 1, self.tile + 2))}"


@dataclass(frozen=True, slots=True)
class Kong:
    """A kong of ``tile``: exposed on a discard, concealed or added on one's own turn."""

    tile: Tile

    def to_json(self) -> dict[str, Any]:
        return {"kong": _TEXT[self.tile]}

    def __str__(self) -> str:
        return f"kong {tile_str(self.tile)}"


@dataclass(frozen=True, slots=True)
class Hu:
    """Declare a win: self-drawn on one's own turn, or on a discard / robbed kong."""

    def to_json(self) -> dict[str, Any]:
        return {"hu": True}

    def __str__(self) -> str:
        return "hu"


@dataclass(frozen=True, slots=True)
class Pass:
    """Claim nothing on a discard or an added kong."""

    def to_json(self) -> dict[str, Any]:
        return {"pass": True}

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Leave:
    """逃跑: leave the table (RULES §6). Always possible, so never listed as a legal action."""

    def to_json(self) -> dict[str, Any]:
        return {"leave": True}

    def __str__(self) -> str:
        return "leave"


Action = Exchange | ChooseVoid | Discard | Pong | Chow | Kong | Hu | Pass | Leave
CLAIMS = (Hu, Kong, Pong, Chow, Pass)
"""Actions that answer a discard or an added kong."""


_KINDS = ("exchange", "void", "discard", "pong", "chow", "kong", "hu", "pass", "leave")
"""The key of each decision's JSON form."""


def action_from_json(data: Mapping[str, Any], tile_set: TileSet) -> Action:
    """Read one action from its JSON form (an extra ``"seat"`` key is ignored).

    Tiles are of ``tile_set`` (``rules.tiles``): in the 108-tile set of Sichuan mahjong an honour
    tile such as ``1z`` is refused.
    """
    keys = [k for k in data if k != "seat"]
    if len(keys) != 1 or keys[0] not in _KINDS:
        raise NotationError(
            f"a decision has exactly one of {', '.join(_KINDS)}: {shown(dict(data))}"
        )
    key = keys[0]
    value = data[key]
    if key in ("hu", "pass", "leave"):
        if value is not True:
            raise NotationError(f'"{key}" takes true, got {shown(value)}')
        return Hu() if key == "hu" else Pass() if key == "pass" else Leave()
    if not isinstance(value, str):
        raise NotationError(f'"{key}" takes a string, got {shown(value)}')
    if key == "void":
        if value not in SUITS or len(value) != 1:
            raise NotationError(f"void suit must be one of m, p, s, got {shown(value)}")
        return ChooseVoid(value)
    try:
        if key == "exchange":
            tiles = parse_tiles(value, tile_set=SICHUAN_TILES)
        else:
            tiles = [parse_tile(value, tile_set=tile_set)]
    except NotationError as exc:
        raise NotationError(f'"{key}": {exc}') from None
    if key == "exchange":
        if len(tiles) != 3 or len({suit_of(t) for t in tiles}) != 1:
            raise NotationError(f"exchange takes three tiles of one suit, got {shown(value)}")
        a, b, c = sorted(tiles)
        return Exchange((a, b, c))
    tile = tiles[0]
    if key == "chow":
        if tile >= NUM_SUITED or tile % 9 > 6:
            raise NotationError(f"a chow starts at a suited tile of rank 1-7, got {shown(value)}")
        return Chow(tile)
    return Discard(tile) if key == "discard" else Pong(tile) if key == "pong" else Kong(tile)

