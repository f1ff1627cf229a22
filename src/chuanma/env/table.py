"""One table of the environments: the hand in play, how it is dealt, observed and rewarded.

The AEC environment and the Gymnasium wrapper play through a :class:`Table` (the batch plays in
the compiled core: :mod:`chuanma.env.batch`), which reads the hand only through the engine's
public API: an observation is the compiled encoding of what the seat may know of the hand
(:mod:`chuanma.encoding`, of the seat's ``Game.core.observer(seat)``, kept while the table plays
that hand), its mask ``Game.legal_mask(seat)``.
"""

from __future__ import annotations

import random
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from chuanma.encoding import SeatObserver, encoder
from chuanma.engine import DIRECTIONS, Action, Direction, Game
from chuanma.errors import ChuanmaError
from chuanma.rules import RuleSet

RewardMode = Literal["end", "event"]
REWARD_MODES = ("end", "event")
NORMALISER = 32
"""``normalize=True`` gives rewards in units of 32 base."""
_DIRECTIONS: tuple[Direction, ...] = tuple(DIRECTIONS)  # type: ignore[arg-type]


class EnvOptionError(ChuanmaError, ValueError):
    """An environment option that is not valid (the message names it)."""


def rules_of(rules: str | RuleSet, options: dict[str, Any]) -> RuleSet:
    """The rules of an environment: a preset name with rule ``options``, or a :class:`RuleSet`."""
    if isinstance(rules, RuleSet):
        if options:
            raise EnvOptionError(f"rule options ({', '.join(options)}) go with a preset name, not a RuleSet")
        ruleset = rules
    elif isinstance(rules, str):
        ruleset = RuleSet.from_preset(rules, **options)
    else:
        raise EnvOptionError(f"rules must be a preset name or a RuleSet, got {rules!r}")
    return ruleset


MAX_TABLES = 1_000_000
"""The most tables a batch takes (a million tables' observations are already gigabytes)."""


def check_tables(n: object) -> int:
    """``n`` as a batch's number of tables (a whole number, 1 to :data:`MAX_TABLES`)."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_TABLES:
        raise EnvOptionError(f"n must be a whole number of tables from 1 to {MAX_TABLES:,}, got {n!r}")
    return n


def reward_scale(reward: str, normalize: bool) -> float:
    """What rewards are multiplied by under ``normalize``, once ``reward`` (a mode of
    :data:`REWARD_MODES`) and ``normalize`` are checked."""
    if reward not in REWARD_MODES:
        raise EnvOptionError(f"reward must be one of {', '.join(REWARD_MODES)}, got {reward!r}")
    if not isinstance(normalize, bool):
        raise EnvOptionError(f"normalize must be true or false, got {normalize!r}")
    return 1 / NORMALISER if normalize else 1.0


class Table:
    """A hand in play with its dealing generator, encoder and reward bookkeeping."""

    __slots__ = ("encode", "game", "observed", "observers", "paid", "reward", "rng", "rules", "scale",
                 "shape")

    def __init__(self, rules: RuleSet, encoder_name: str = "compact", reward: str = "end",
                 normalize: bool = False) -> None:
        self.scale = reward_scale(reward, normalize)
        self.rules = rules
        self.encode, self.shape = encoder(encoder_name, rules)
        self.reward = reward
        self.rng = random.Random()
        self.paid = [0, 0, 0, 0]
        self.observed: object = None
        """The compiled hand :attr:`observers` watch (``Game.core``)."""
        self.observers: tuple[SeatObserver, ...] = ()
        self.game = self.deal()

    def seed(self, seed: int | None) -> None:
        """Restart the dealing generator from ``seed`` (``None``: from fresh entropy)."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | np.integer)):
            raise EnvOptionError(f"seed must be a whole number, got {seed!r}")
        self.rng = random.Random(None if seed is None else int(seed))

    def deal(self) -> Game:
        """Deal a new hand from the generator: a shuffled wall of the rules' tile set, a dealer and a
        direction."""
        wall = self.rules.tiles.wall()
        self.rng.shuffle(wall)
        dealer = self.rng.randrange(4)
        direction = _DIRECTIONS[self.rng.randrange(3)]
        self.game = Game(self.rules, wall, dealer, direction)
        self.paid = [0, 0, 0, 0]
        return self.game

    def __getstate__(self) -> dict[str, object]:
        """Copied and pickled without the seat observers: windows on the live hand, made again."""
        return {name: getattr(self, name) for name in self.__slots__ if name not in ("observed", "observers")}

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self.observed, self.observers = None, ()

    def acting(self) -> int:
        """The seat whose decision is asked next (the first seat that owes one)."""
        return self.game.to_act()[0]

    def observe(self, seat: int) -> dict[str, npt.NDArray[Any]]:
        """``seat``'s observation and its legal-action mask."""
        core = self.game.core
        if core is not self.observed:  # a new hand (dealt, given, or its game's state replaced)
            self.observers = tuple(core.observer(s) for s in range(4))
            self.observed = core
        obs = np.empty(self.shape, dtype=np.float32)
        observation = self.encode(self.observers[seat], obs)
        return {"observation": observation, "action_mask": self.game.legal_mask(seat)}

    def act(self, seat: int, index: int) -> list[float]:
        """Apply action ``index`` for ``seat``; the rewards it brings each seat.

        Raises :class:`~chuanma.engine.indices.ActionIndexError` or
        :class:`~chuanma.engine.actions.IllegalActionError` (nothing changed) for an index that is
        not in the action space or not legal now.
        """
        self.game.apply_index(seat, index)
        return self.rewards()

    def play(self, seat: int, action: Action) -> list[float]:
        """Apply ``action`` for ``seat`` (as :meth:`act`, given the action itself)."""
        self.game.apply(seat, action)
        return self.rewards()

    def rewards(self) -> list[float]:
        """The rewards the last decision brought each seat."""
        game = self.game
        if self.reward == "end" and not game.finished:
            return [0.0, 0.0, 0.0, 0.0]
        totals = game.deltas()
        out = [(totals[s] - self.paid[s]) * self.scale for s in range(4)]
        self.paid = totals
        return out

