"""The Python :class:`Game` played by a uniform random policy: the loop the engine benchmarks share."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import get_args

from chuanma.engine.game import Direction, Game
from chuanma.rules import RuleSet


def random_decisions(rules: RuleSet, rng: random.Random, hands: int) -> Iterator[Game]:
    """Play ``hands`` hands on walls shuffled by ``rng``, each decision a uniform choice among the
    legal actions of a seat to act; yields the game before each decision (for the caller to read)."""
    for _ in range(hands):
        wall = rules.tiles.wall()
        rng.shuffle(wall)
        g = Game(rules, wall, rng.randrange(4), rng.choice(get_args(Direction)))
        while not g.finished:
            yield g
            seat = rng.choice(g.to_act())
            g.apply(seat, rng.choice(g.legal_actions(seat)))
