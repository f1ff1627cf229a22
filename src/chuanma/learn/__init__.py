"""A learning agent on PyTorch (the ``learn`` extra): a small masked actor-critic network
(:mod:`.policy`) trained by imitating the ``defensive`` bot, then by PPO against the bots
(:mod:`chuanma.train`, which sits above the bots, the environments and the simulator it plays
through, so that the bots may load a policy from here). See docs/rl.md.

This package itself imports no PyTorch: :class:`PolicyFileError` is what a bot reports when a
weights file cannot be played, PyTorch missing included.
"""

from chuanma.errors import ChuanmaError
from chuanma.rules import RuleSet


class PolicyFileError(ChuanmaError, ValueError):
    """A weights file that cannot be read as a policy (the message says why)."""


def unplayable(rules: RuleSet) -> str | None:
    """Why a policy cannot play ``rules``, or None: its observations have the 27 tile kinds of the
    Sichuan presets, not the 34 of a preset with honours (大众麻将)."""
    if rules.tiles.honours:
        return f"a learned policy plays the Sichuan presets' 27 tile kinds, not the 34 of {rules.preset}"
    return None


__all__ = ["PolicyFileError", "unplayable"]
