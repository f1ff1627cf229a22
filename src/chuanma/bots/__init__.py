"""Bots: strategies that play one seat from that seat's view alone.

>>> from chuanma.bots import make_bot
>>> make_bot("greedy", seed=1).name
'greedy'
"""

from __future__ import annotations

from collections.abc import Callable

from chuanma.bots.base import Bot, SeededBot
from chuanma.bots.defensive import DefensiveBot
from chuanma.bots.greedy import GreedyBot
from chuanma.bots.random_bot import RandomBot
from chuanma.bots.search import SearchBot
from chuanma.engine.views import SeatView
from chuanma.errors import ChuanmaError

BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "defensive": DefensiveBot,
    "search": SearchBot,
}
"""Every bot by name: a constructor taking the bot's seed."""


class UnknownBotError(ChuanmaError, ValueError):
    """A bot name that is not in :data:`BOTS`."""


def make_bot(name: str, seed: int = 0) -> Bot:
    """The bot called ``name``, seeded ``seed``."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise UnknownBotError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}") from None
    return factory(seed)


__all__ = ["BOTS", "Bot", "SeatView", "SeededBot", "UnknownBotError", "make_bot"]
