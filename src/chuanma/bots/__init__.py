"""Bots: strategies that play one seat from that seat's view alone.

>>> from chuanma.bots import make_bot
>>> make_bot("greedy", seed=1).name
'greedy'
"""

from __future__ import annotations

from collections.abc import Callable

from chuanma.bots.base import Bot, HandReader, Player, SeededBot, decide, needs_view
from chuanma.bots.defensive import DefensiveBot
from chuanma.bots.expert import ExpertBot
from chuanma.bots.greedy import GreedyBot
from chuanma.bots.learned import NAME, PREFIX, SHIPPED, LearnedBot, cached_policy
from chuanma.bots.random_bot import RandomBot
from chuanma.bots.search import SearchBot
from chuanma.engine import SeatView
from chuanma.errors import ChuanmaError
from chuanma.learn import PolicyFileError, unplayable
from chuanma.rules import RuleSet

BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "defensive": DefensiveBot,
    "search": SearchBot,
    "expert": ExpertBot,
}
"""Every bot by name: a constructor taking the bot's seed."""


class UnknownBotError(ChuanmaError, ValueError):
    """A bot name that is not in :data:`BOTS`."""


def policy_path(name: str) -> str | None:
    """The weights file a learned bot called ``name`` plays (``learned``: the shipped policy;
    ``learned:PATH``: PATH), or None for any other name."""
    if name == NAME:
        return str(SHIPPED)
    return name[len(PREFIX):] if name.startswith(PREFIX) else None


def check_bot_name(name: str, rules: RuleSet | None = None) -> None:
    """Raise :class:`UnknownBotError` unless ``name`` is a bot (for ``rules``, if given): a name
    of :data:`BOTS`, ``learned`` (the shipped policy) or ``learned:PATH`` with PATH a readable
    policy weights file (whose observations have the 27 kinds of the Sichuan presets: not 大众麻将)."""
    path = policy_path(name)
    if path is not None:
        try:
            cached_policy(path)
        except PolicyFileError as exc:
            raise UnknownBotError(f"bot {name!r}: {exc}") from None
        why = None if rules is None else unplayable(rules)
        if why is not None:
            raise UnknownBotError(f"bot {name!r}: {why}")
    elif name not in BOTS:
        raise UnknownBotError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}, {NAME}, {PREFIX}PATH")


def make_bot(name: str, seed: int = 0) -> Player:
    """The bot called ``name`` (see :func:`check_bot_name`), seeded ``seed``: a :class:`Bot`, or for a
    learned policy a :class:`HandReader` (:func:`decide` asks either)."""
    path = policy_path(name)
    if path is not None:
        check_bot_name(name)
        return LearnedBot(path, seed, name)
    try:
        factory = BOTS[name]
    except KeyError:
        raise UnknownBotError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}, {NAME}, {PREFIX}PATH") from None
    return factory(seed)


__all__ = ["BOTS", "Bot", "HandReader", "Player", "SeatView", "SeededBot", "UnknownBotError", "check_bot_name",
           "decide", "make_bot", "needs_view", "policy_path"]
