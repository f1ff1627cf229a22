"""``learned:PATH``: a bot that plays a trained policy (:mod:`chuanma.learn.policy`) greedily."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from chuanma.bots.base import SeededBot
from chuanma.encoding import encoder
from chuanma.engine.actions import Action
from chuanma.engine.indices import from_index, mask
from chuanma.engine.views import SeatView
from chuanma.learn.policy import Policy, load

PREFIX = "learned:"


@lru_cache(maxsize=8)
def cached_policy(path: str) -> Policy:
    """The policy at ``path``, read once per process."""
    return load(path)


class LearnedBot(SeededBot):
    """Chooses the legal action its policy finds most probable, from its seat's view alone."""

    def __init__(self, path: str, seed: int = 0) -> None:
        super().__init__(seed)
        self.policy = cached_policy(path)
        self.encode = encoder(self.policy.encoder)[0]
        self.name = PREFIX + path

    def choose(self, view: SeatView | None, legal: Sequence[Action]) -> Action:
        assert view is not None
        if len(legal) == 1:
            return legal[0]
        return from_index(self.policy.act(self.encode(view), mask(list(legal))))
