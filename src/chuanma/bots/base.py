"""The bot interface: a bot sees one seat's :class:`SeatView` and the legal decisions."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, cast, runtime_checkable

from chuanma.engine import Action, Game, SeatView

if TYPE_CHECKING:
    from chuanma.encoding import CompiledHand


@runtime_checkable
class Bot(Protocol):
    """Chooses one of ``legal`` for the seat whose view it is given.

    A bot never receives the game: only :class:`SeatView` (what that seat may know, the engine's
    own redaction) and the list of legal decisions. It is deterministic given the seed it was
    built with. A bot whose ``needs_view`` is false is handed ``None`` instead of a view.
    """

    name: str

    def choose(self, view: SeatView | None, legal: Sequence[Action]) -> Action: ...


def needs_view(bot: Bot) -> bool:
    """Whether ``bot`` reads its view (false: it is handed ``None`` and no view is made)."""
    return bool(getattr(bot, "needs_view", True))


class HandReader(Protocol):
    """A bot that decides from the compiled hand (``Game.core``) through the compiled seat view,
    which shows it what its seat may know alone (a learned policy reads the compiled encoding)."""

    name: str

    def choose_in(self, hand: CompiledHand, seat: int, legal: Sequence[Action]) -> Action: ...


def decide(bot: Bot | HandReader, game: Game, seat: int, legal: Sequence[Action]) -> Action:
    """``bot``'s choice among ``legal`` for ``seat`` of ``game``: a :class:`HandReader` is handed
    the compiled hand and the seat, any other bot the seat's view (``None`` when it reads none)."""
    # a HandReader is told by its method: the runtime protocol check took longer than a greedy bot's decision
    choose_in: Callable[[CompiledHand, int, Sequence[Action]], Action] | None = getattr(bot, "choose_in", None)
    if choose_in is not None:
        return choose_in(game.core, seat, legal)
    player = cast(Bot, bot)
    return player.choose(game.view(seat) if needs_view(player) else None, legal)


class SeededBot:
    """Base class: a name, a seed and a private random generator."""

    name: str = "bot"
    needs_view: bool = True
    """False for a bot that never reads its view (``random``): it is handed ``None``, and the
    simulator skips making the view."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: SeatView | None, legal: Sequence[Action]) -> Action:  # pragma: no cover
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"
