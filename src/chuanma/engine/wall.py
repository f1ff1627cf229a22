"""The wall: the 108 tiles (136 with the honours, 大众麻将) in draw order, how the deal reads
it, and a builder for set-ups.

RULES §2.2: the k-th player from the dealer takes wall tiles ``[13k, 13k+13)``, the dealer also
takes tile 52; live draws take tiles from index 53 upward, kong replacements from the wall's last
index (107, or 135) downward.
"""

from __future__ import annotations

from collections.abc import Sequence

from chuanma.errors import ChuanmaError
from chuanma.tiles import COPIES, Tile, parse_tiles, tile_str

WALL_SIZE = 108
"""The Sichuan set; 大众麻将 plays ``HONORS_WALL_SIZE``."""
HONORS_WALL_SIZE = 136
DEAL_END = 53
"""Index of the first live draw."""


_FULL_SETS = {size: [t // COPIES for t in range(size)] for size in (WALL_SIZE, HONORS_WALL_SIZE)}


LAST_FOUR = 3
"""The last-four zone (forced wins) begins once the wall holds this many tiles or fewer: from the
draw of the fourth-last tile (RULES §9.3)."""
NO_KONG = 4
"""Under ``no_kong_in_last_four`` no kong once the wall holds this many tiles or fewer: not by the
player who has just drawn the fifth-last tile, nor on a discard made then (RULES §9.3)."""


def in_last_four(remaining: int) -> bool:
    """Whether a wall with ``remaining`` tiles is in the last-four zone (the one place this
    boundary is written: forced wins, 查大叫 escape amounts)."""
    return remaining <= LAST_FOUR


class WallError(ChuanmaError, ValueError):
    """A wall that is not the whole set (108 or 136 tiles), or a set-up that cannot be built."""


def check_wall(wall: Sequence[Tile], size: int = WALL_SIZE) -> list[Tile]:
    """``wall`` as a list, after checking it holds each of the set's ``size // 4`` tiles (27, or 34
    with the honours) exactly four times."""
    tiles = list(wall)
    if set(map(type, tiles)) == {int} and sorted(tiles) == _FULL_SETS[size]:
        return tiles
    if len(tiles) != size:
        raise WallError(f"a wall has {size} tiles, got {len(tiles)}")
    kinds = size // COPIES
    counts = [0] * kinds
    for t in tiles:
        if not isinstance(t, int) or not 0 <= t < kinds:
            raise WallError(f"not a tile of the {size}-tile set: {t!r}")
        counts[t] += 1
    for t, c in enumerate(counts):
        if c != COPIES:
            raise WallError(f"the wall holds {c} copies of {tile_str(t)}, not {COPIES}")
    return tiles


def deal(wall: Sequence[Tile], dealer: int) -> list[list[Tile]]:
    """The four starting hands by seat (the dealer's has 14 tiles)."""
    hands: list[list[Tile]] = [[] for _ in range(4)]
    for k in range(4):
        hands[(dealer + k) % 4] = list(wall[13 * k : 13 * k + 13])
    hands[dealer].append(wall[52])
    return hands


def _tiles(value: str | Sequence[Tile]) -> list[Tile]:
    return parse_tiles(value) if isinstance(value, str) else list(value)


def build_wall(
    hands: Sequence[str | Sequence[Tile]],
    draws: str | Sequence[Tile] = (),
    replacements: str | Sequence[Tile] = (),
    dealer: int = 0,
    size: int = WALL_SIZE,
) -> list[Tile]:
    """A wall of ``size`` tiles that deals ``hands`` (by seat; the dealer's has 14 tiles), then
    draws ``draws`` in order, with kong replacements ``replacements`` in order. Unused tiles fill
    the middle.

    >>> w = build_wall(["123456789m11223p", "1m", "", ""], draws="9s")
    Traceback (most recent call last):
    ...
    chuanma.engine.wall.WallError: seat 1 needs 13 tiles, got 1
    """
    if len(hands) != 4:
        raise WallError("give the four starting hands by seat")
    wall: list[Tile | None] = [None] * size
    kinds = size // COPIES
    used = [0] * kinds

    def take(t: Tile) -> Tile:
        if t >= kinds:
            raise WallError(f"{tile_str(t)} is not a tile of the {size}-tile set")
        used[t] += 1
        if used[t] > COPIES:
            raise WallError(f"more than {COPIES} copies of {tile_str(t)} in the set-up")
        return t

    for k in range(4):
        seat = (dealer + k) % 4
        tiles = _tiles(hands[seat])
        want = 14 if seat == dealer else 13
        if len(tiles) != want:
            raise WallError(f"seat {seat} needs {want} tiles, got {len(tiles)}")
        for i, t in enumerate(tiles[:13]):
            wall[13 * k + i] = take(t)
        if seat == dealer:
            wall[52] = take(tiles[13])
    live = _tiles(draws)
    repl = _tiles(replacements)
    if len(live) + len(repl) > size - DEAL_END:
        raise WallError("more draws and replacements than the wall holds")
    for i, t in enumerate(live):
        wall[DEAL_END + i] = take(t)
    for i, t in enumerate(repl):
        wall[size - 1 - i] = take(t)
    rest = [t for t in range(kinds) for _ in range(COPIES - used[t])]
    it = iter(rest)
    out = [t if t is not None else next(it) for t in wall]
    return check_wall(out, size)
