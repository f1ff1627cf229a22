"""Deriving a hand's dealer, exchange direction and wall from the random stream."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from chuanma.fairness.stream import RandomStream
from chuanma.tiles import TileSet, tile_str

Direction = Literal["to_next", "opposite", "to_previous"]
DIRECTIONS: tuple[Direction, Direction, Direction] = ("to_next", "opposite", "to_previous")


@dataclass(frozen=True, slots=True)
class Deal:
    """What the random stream decides for one hand.

    ``wall`` is in draw order: tile ints (0–26 suited, 27–33 honours), 108 or 136 of them.
    """

    dealer: int
    direction: Direction
    wall: tuple[int, ...]

    def wall_strings(self) -> list[str]:
        """The wall as tile strings (``"5m"``), in draw order."""
        return [tile_str(t) for t in self.wall]


def shuffled_indices(size: int, uniform: Callable[[int], int]) -> list[int]:
    """Fisher–Yates over ``[0, size)``: for ``i`` from ``size-1`` down to 1, swap ``i`` and
    ``uniform(i + 1)``."""
    order = list(range(size))
    for i in range(size - 1, 0, -1):
        j = uniform(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def derive_from_stream(stream: RandomStream, tile_set: TileSet) -> Deal:
    """Draw dealer, direction and a wall of ``tile_set``, in that order, from ``stream``."""
    dealer = stream.uniform(4)
    direction = DIRECTIONS[stream.uniform(3)]
    order = list(range(tile_set.size))
    stream.shuffle(order)
    return Deal(dealer, direction, tuple([t // tile_set.copies for t in order]))


def derive_deal(server_seed: bytes, client_seed: str, nonce: int, tile_set: TileSet) -> Deal:
    """The hand decided by ``server_seed``, the joined ``client_seed`` and ``nonce``: a shuffle of
    ``tile_set`` (the 108-tile set of Sichuan mahjong, or the 136 of 大众麻将)."""
    return derive_from_stream(RandomStream(server_seed, client_seed, nonce), tile_set)
