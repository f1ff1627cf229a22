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

from chuanma.bots.base import HandReader
from chuanma.engine import Action, from_index, mask
from chuanma.learn import PolicyFileError

if TYPE_CHECKING:
    from chuanma.encoding import SeatObserver
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


class LearnedBot(HandReader):
    """Chooses the legal action its policy finds most probable, from the compiled encoding of what
    its seat may know (a :class:`~chuanma.bots.base.HandReader`: :func:`~chuanma.bots.base.decide`
    hands it an observer of its seat). The policy is greedy: ``seed`` only names the bot's place."""

    def __init__(self, path: str, seed: int = 0, name: str | None = None) -> None:
        from chuanma.encoding import encoder  # NumPy: imported by a learned bot, not by every command

        self.seed = seed
        self.policy = cached_policy(path)
        self.encode, self.shape = encoder(self.policy.encoder)
        self.name = name or PREFIX + path

    def choose_in(self, observer: SeatObserver, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        import numpy as np

        obs = self.encode(observer, np.empty(self.shape, dtype=np.float32))
        return from_index(self.policy.act(obs, mask(list(legal))))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, seed={self.seed})"
