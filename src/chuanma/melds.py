"""Declared melds: pong (碰), kong (杠, exposed / added / concealed) and chow (吃, 大众 only)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from chuanma.errors import NotationError, shown
from chuanma.tiles import ALL_TILES, Tile, TileSet, parse_tile, rank_of, suit_of, tile_str

MeldKind = Literal["pong", "kong", "chow"]
KongKind = Literal["exposed", "added", "concealed"]
MELD_KINDS: tuple[MeldKind, ...] = ("pong", "kong", "chow")
KONG_KINDS: tuple[KongKind, ...] = ("exposed", "added", "concealed")


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set. ``tile`` is the meld's tile (the lowest tile of a chow)."""

    kind: MeldKind
    tile: Tile
    kong: KongKind | None = None

    def __post_init__(self) -> None:
        if self.kind not in MELD_KINDS:
            raise NotationError(f"unknown meld kind {self.kind!r}: use one of {', '.join(MELD_KINDS)}")
        if self.kind == "kong":
            if self.kong not in KONG_KINDS:
                raise NotationError(
                    f"kong of {tile_str(self.tile)} needs \"kong\": one of {', '.join(KONG_KINDS)}"
                )
        elif self.kong is not None:
            raise NotationError(f"only a kong takes \"kong\" (got a {self.kind} of {tile_str(self.tile)})")
        if self.kind == "chow" and (suit_of(self.tile) == "z" or rank_of(self.tile) > 7):
            raise NotationError(f"no chow starts at {tile_str(self.tile)}")

    @property
    def tiles(self) -> list[Tile]:
        """The tiles the meld holds."""
        if self.kind == "chow":
            return [self.tile, self.tile + 1, self.tile + 2]
        return [self.tile] * (4 if self.kind == "kong" else 3)

    @property
    def is_concealed(self) -> bool:
        """True only for a concealed kong (暗杠)."""
        return self.kong == "concealed"

    def to_dict(self) -> dict[str, str]:
        """The JSON form: ``{"kind": "kong", "tile": "7p", "kong": "exposed"}``."""
        out = {"kind": self.kind, "tile": tile_str(self.tile)}
        if self.kong is not None:
            out["kong"] = self.kong
        return out

    @classmethod
    def from_dict(cls, data: Any) -> Meld:
        """Read the JSON form; unknown keys and bad values raise :class:`NotationError`."""
        if not isinstance(data, dict):
            raise NotationError(f"a meld is an object like {_EXAMPLE}, got {shown(data)}")
        return parse_meld(data)

    def __str__(self) -> str:
        label = f"{self.kong} kong" if self.kind == "kong" else self.kind
        return f"{label} {tile_str(self.tile)}"


_EXAMPLE = '{"kind": "pong", "tile": "5p"}'


def parse_meld(value: object, *, tile_set: TileSet = ALL_TILES) -> Meld:
    """Read a meld in either notation ``chuanma score`` and ``chuanma hand`` accept.

    Text: ``pong:5p``, ``kong:7p`` (exposed), ``kong:7p:concealed``, ``kong:7p:added``,
    ``chow:3m``. JSON object: ``{"kind": "kong", "tile": "7p", "kong": "exposed"}`` (a kong names
    its kind). Its tile must be of ``tile_set`` (the 108-tile set refuses the honours).
    """
    if isinstance(value, str):
        parts = value.split(":")
        if len(parts) not in (2, 3):
            raise NotationError(f"meld {shown(value)} must look like pong:5p, kong:7p or kong:7p:concealed")
        kind, tile = parts[0], parts[1]
        kong: object = parts[2] if len(parts) == 3 else ("exposed" if kind == "kong" else None)
    elif isinstance(value, dict):
        extra = set(value) - {"kind", "tile", "kong"}
        if extra:
            raise NotationError(f"unknown meld keys {shown(sorted(map(str, extra)))}: use kind, tile, kong")
        raw_kind, raw_tile, kong = value.get("kind"), value.get("tile"), value.get("kong")
        if not isinstance(raw_kind, str) or not isinstance(raw_tile, str):
            raise NotationError(f"meld {shown(value)} needs \"kind\" and \"tile\" as strings")
        kind, tile = raw_kind, raw_tile
    else:
        raise NotationError(f"a meld is text like pong:5p or an object like {_EXAMPLE}, got {shown(value)}")
    if kong is not None and not isinstance(kong, str):
        raise NotationError(f"meld {shown(value)}: \"kong\" must be a string")
    try:
        parsed = parse_tile(tile, tile_set=tile_set)
    except NotationError as exc:
        raise NotationError(f"meld {shown(value)}: {exc}") from None
    return Meld(kind, parsed, kong)  # type: ignore[arg-type]  # Meld checks kind and kong
