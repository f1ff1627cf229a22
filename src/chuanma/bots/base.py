"""The bot interface: a bot sees one seat's :class:`SeatView` (or, a :class:`HandReader`, its
encodings) and the legal decisions."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, TypeAlias, runtime_checkable

from chuanma.engine import Action, Game, SeatView

if TYPE_CHECKING:
    from chuanma.encoding import SeatObserver


@runtime_checkable
class Bot(Protocol):
    """Chooses one of ``legal`` for the seat whose view it is given.

    A bot never receives the game: only :class:`SeatView` (what that seat may know, the engine's
    own redaction) and the list of legal decisions (a :class:`HandReader` is handed its seat's
    read-only :class:`~chuanma.encoding.SeatObserver` instead of the view). It is deterministic given the seed it was
    built with. A bot whose ``needs_view`` is false is handed ``None`` instead of a view.
    """

    name: str

    def choose(self, view: SeatView | None, legal: Sequence[Action]) -> Action: ...


def needs_view(bot: Bot) -> bool:
    """Whether ``bot`` reads its view (false: it is handed ``None`` and no view is made)."""
    return bool(getattr(bot, "needs_view", True))


class HandReader:
    """Base class of a bot that decides from compiled encodings (a learned policy) rather than a
    :class:`SeatView`: it is handed a :class:`~chuanma.encoding.SeatObserver` of its seat, a
    read-only object that writes that seat's encodings and holds nothing else, so that it reads
    what its seat may know alone and cannot change the hand."""

    name: str = "reader"

    def choose_in(self, observer: SeatObserver, legal: Sequence[Action]) -> Action:  # pragma: no cover
        raise NotImplementedError


Player: TypeAlias = Bot | HandReader
"""Anything that plays a seat (what :func:`decide` asks)."""


def decide(player: Player, game: Game, seat: int, legal: Sequence[Action]) -> Action:
    """``player``'s choice among ``legal`` for ``seat`` of ``game``: a :class:`HandReader` is handed
    an observer of the seat (``game.core.observer(seat)``), a bot the seat's view (``None`` when it
    reads none)."""
    if isinstance(player, HandReader):  # a class check: a runtime protocol check costs more than a greedy decision
        return player.choose_in(game.core.observer(seat), legal)
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
