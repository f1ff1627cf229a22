"""``learned:PATH``: a bot that plays a trained policy (:mod:`chuanma.learn.policy`) greedily;
``learned``: the same with the policy the package ships (:data:`SHIPPED`).

The policy is a PyTorch network (the ``learn`` extra); without PyTorch the bot is refused with
a message saying what to install.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from chuanma.bots.base import SeededBot
from chuanma.engine import Action, SeatView, from_index, mask
from chuanma.learn import PolicyFileError

if TYPE_CHECKING:
    from chuanma.encoding import CompiledHand
    from chuanma.learn.policy import Policy

PREFIX = "learned:"
NAME = "learned"
SHIPPED = Path(__file__).parent / "weights" / "learned.pt"
"""The trained policy the package ships, played by the bot named :data:`NAME` (docs/bots.md says how
it was trained and how it ranks)."""


@lru_cache(maxsize=8)
def cached_policy(path: str) -> Policy:
    """The policy at ``path``, read once per process."""
    try:
        from chuanma.learn.policy import load  # PyTorch: the learn extra, only for learned bots
    except ImportError as exc:
        raise PolicyFileError(f"a learned policy needs PyTorch: pip install 'chuanma[learn]' ({exc})") from None
    return load(path)


class LearnedBot(SeededBot):
    """Chooses the legal action its policy finds most probable, from the compiled encoding of what
    its seat may know (a :class:`~chuanma.bots.base.HandReader`: :func:`~chuanma.bots.base.decide`
    hands it the compiled hand)."""

    def __init__(self, path: str, seed: int = 0, name: str | None = None) -> None:
        from chuanma.encoding import encoder  # NumPy: imported by a learned bot, not by every command

        super().__init__(seed)
        self.policy = cached_policy(path)
        self.encode, self.shape = encoder(self.policy.encoder)
        self.name = name or PREFIX + path

    def choose(self, view: SeatView | None, legal: Sequence[Action]) -> Action:
        raise TypeError(f"{self.name} decides from the compiled hand: ask it with chuanma.bots.decide")

    def choose_in(self, hand: CompiledHand, seat: int, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        import numpy as np

        obs = self.encode(hand, seat, np.empty(self.shape, dtype=np.float32))
        return from_index(self.policy.act(obs, mask(list(legal))))
