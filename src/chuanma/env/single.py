"""The Gymnasium single-agent wrapper: one learning seat against three bots chosen by name."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt

from chuanma.bots import BOTS, Player, UnknownBotError, check_bot_name, decide, make_bot
from chuanma.env.aec import spaces
from chuanma.env.table import EnvOptionError, Table, rules_of
from chuanma.rules import RuleSet

Obs = dict[str, npt.NDArray[Any]]


class SingleSeatEnv(gymnasium.Env[Obs, int]):
    """One hand per episode: the agent plays ``seat`` (or, with ``seat="random"``, a seat drawn
    each episode) and the bots named in ``opponents`` play the others, in seat order after it
    (any name :func:`chuanma.bots.make_bot` takes: ``learned:PATH`` seats a trained policy, for
    self-play).

    Observations are the AEC environment's (``{"observation", "action_mask"}``); the reward is the
    agent's chip result in base units (``reward="end"``: all at the end; ``"event"``: as payments
    happen), divided by 32 with ``normalize``. :meth:`action_masks` gives the mask alone.

    :meth:`reset` always returns a decision to make: a hand the bots end before the agent's first
    decision (the dealer's 天胡 where there is no exchange or void to choose first, or a first-win
    hand won on a discard the agent cannot claim) is left out and another dealt, as Gymnasium's
    ``reset`` cannot report an episode already over; ``info["redealt"]`` counts the hands left out.
    """

    metadata = {"render_modes": []}  # noqa: RUF012 (Gymnasium declares it so)

    def __init__(self, rules: str | RuleSet = "xuezhan", *, opponents: str | Sequence[str] = "defensive",
                 seat: int | str = 0, encoder: str = "compact", reward: str = "end", normalize: bool = False,
                 **options: Any) -> None:
        if isinstance(opponents, str):
            names = [opponents] * 3
        else:
            names = list(opponents) if isinstance(opponents, Sequence) else []  # anything else is refused below
        if len(names) != 3:
            raise EnvOptionError(f"opponents must be one bot name or three, from {', '.join(BOTS)}; got {opponents!r}")
        for name in names:
            try:
                check_bot_name(name)
            except UnknownBotError as exc:
                raise EnvOptionError(f"opponents: {exc}") from None
        if seat != "random" and (isinstance(seat, bool) or seat not in range(4)):
            raise EnvOptionError(f"seat must be 0-3 or 'random', got {seat!r}")
        self.table = Table(rules_of(rules, options), encoder, reward, normalize)
        self.names = names
        self.fixed_seat = seat
        self.seat = 0 if seat == "random" else int(seat)
        self.bots: dict[int, Player] = {}
        obs_space, act_space = spaces(self.table.shape)
        self.observation_space: gymnasium.spaces.Dict = obs_space  # type: ignore[assignment]
        self.action_space: gymnasium.spaces.Discrete = act_space  # type: ignore[assignment]

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self.table.seed(seed)
        rng = self.table.rng
        redealt = -1
        while True:  # a hand the bots end before the agent's first decision is dealt again
            redealt += 1
            if self.fixed_seat == "random":
                self.seat = rng.randrange(4)
            self.table.deal()
            others = [(self.seat + k) % 4 for k in (1, 2, 3)]
            self.bots = {s: make_bot(n, rng.getrandbits(63)) for s, n in zip(others, self.names, strict=True)}
            reward = self._play_bots()
            if not self.table.game.finished:
                break
        return self.table.observe(self.seat), {"seat": self.seat, "reward_before": reward, "redealt": redealt}

    def step(self, action: int) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        if self.table.game.finished:
            raise gymnasium.error.ResetNeeded("the hand is over: call reset()")
        reward = self.table.act(self.seat, action)[self.seat]
        reward += self._play_bots()
        return self.table.observe(self.seat), reward, self.table.game.finished, False, {"seat": self.seat}

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The agent's legal-action mask now."""
        return self.table.game.legal_mask(self.seat)

    def _play_bots(self) -> float:
        """Let the bots decide until the agent owes a decision or the hand ends; the agent's reward."""
        game = self.table.game
        reward = 0.0
        while not game.finished:
            acting = game.to_act()
            if self.seat in acting:
                break
            seat = acting[0]
            action = decide(self.bots[seat], game, seat, game.legal_actions(seat))
            reward += self.table.play(seat, action)[self.seat]
        return reward

