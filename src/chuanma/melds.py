"""Declared melds: pong (碰), kong (杠, exposed / added / concealed) and chow (吃, 大众 only)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from chuanma.errors import NotationError
from chuanma.tiles import Tile, parse_tile, rank_of, suit_of, tile_str

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
            raise NotationError(f"a meld is an object like {{\"kind\": \"pong\", \"tile\": \"5p\"}}, got {data!r}")
        extra = set(data) - {"kind", "tile", "kong"}
        if extra:
            raise NotationError(f"unknown meld keys {sorted(extra)}: use kind, tile, kong")
        kind, tile = data.get("kind"), data.get("tile")
        if not isinstance(kind, str) or not isinstance(tile, str):
            raise NotationError(f"meld {data!r} needs \"kind\" and \"tile\" as strings")
        kong = data.get("kong")
        if kong is not None and not isinstance(kong, str):
            raise NotationError(f"meld {data!r}: \"kong\" must be a string")
        return cls(kind, parse_tile(tile), kong)  # type: ignore[arg-type]

    def __str__(self) -> str:
        label = f"{self.kong} kong" if self.kind == "kong" else self.kind
        return f"{label} {tile_str(self.tile)}"
