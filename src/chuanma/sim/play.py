"""Playing one hand between four bots, and the deals the simulator uses."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from chuanma.bots.base import Player, decide
from chuanma.engine import Game, IllegalActionError, hand_outcome
from chuanma.fairness.derive import Deal
from chuanma.fairness.hand import FairHand
from chuanma.fairness.records import complete_record
from chuanma.fairness.seeds import SEATS
from chuanma.rules import RuleSet
from chuanma.tiles import TileSet

SIM_CLIENT_SEED = "sim"


def sim_hand(seed: int, index: int, tile_set: TileSet) -> FairHand:
    """Hand ``index`` of a run seeded ``seed``, dealt by the fairness protocol: the server seed
    ``SHA-256("chuanma-sim:<seed>")``, client seed ``"sim"`` at every seat and nonce ``index``
    (a wall of ``tile_set``: ``rules.tiles``)."""
    hand = FairHand(index, server_seed=hashlib.sha256(f"chuanma-sim:{seed}".encode()).digest(),
                    tile_set=tile_set)
    for seat in range(SEATS):
        hand.add_client_seed(seat, SIM_CLIENT_SEED)
    hand.deal()
    return hand


def deal_for(seed: int, index: int, tile_set: TileSet) -> Deal:
    """The deal of hand ``index`` of a run seeded ``seed`` (see :func:`sim_hand`)."""
    return sim_hand(seed, index, tile_set).deal()


def bot_seed(seed: int, index: int, seat: int) -> int:
    """A bot's private seed for one hand (independent of which bot sits where)."""
    h = hashlib.sha256(f"chuanma-bot:{seed}:{index}:{seat}".encode()).digest()
    return int.from_bytes(h[:8], "big")


@dataclass(slots=True)
class SeatResult:
    """What happened to one seat in one hand."""

    delta: int
    wins: int = 0
    fans: list[int] = field(default_factory=list)
    deal_ins: int = 0
    ready_at_draw: bool = False
    flower_pig: bool = False


@dataclass(slots=True)
class HandResult:
    seats: list[SeatResult]
    exhausted: bool
    next_dealer: int
    """Who deals the next hand under the rule set's ``dealer`` rule (unused under ``random``)."""
    record: dict[str, Any] | None = None


def play_game(rules: RuleSet, deal: Deal, bots: Sequence[Player], *, max_decisions: int = 5000) -> Game:
    """Play one hand to its end: each bot sees only its seat's view (``Game.view(seat)``).

    Raises :class:`IllegalActionError` if a bot returns a decision that is not legal.
    """
    game = Game(rules, list(deal.wall), deal.dealer, deal.direction)
    n = 0
    while not game.finished:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        action = decide(bots[seat], game, seat, legal)
        try:
            game.apply(seat, action)  # refuses anything not in ``legal``, changing nothing
        except IllegalActionError as exc:
            raise IllegalActionError(
                f"bot {bots[seat].name} at seat {seat} chose {action}, not one of "
                + ", ".join(str(a) for a in legal) + f" ({exc})") from None
        n += 1
        if n > max_decisions:  # pragma: no cover - a hand has a few hundred decisions at most
            raise RuntimeError("hand did not finish")
    return game


def play_hand(
    rules: RuleSet, deal: Deal, bots: Sequence[Player], *, record: bool = False,
    max_decisions: int = 5000,
) -> HandResult:
    """Play one hand (:func:`play_game`) and summarize it, with its complete record (no seeds)
    if ``record``."""
    game = play_game(rules, deal, bots, max_decisions=max_decisions)
    return summarize(game, complete_record(game) if record else None)


def summarize(game: Game, record: dict[str, Any] | None = None) -> HandResult:
    """Per-seat results of a finished hand (read from its outcome), carrying its ``record`` if given."""
    outcome = hand_outcome(game.events)
    seats = [SeatResult(r.delta, len(r.wins), [w.total for w in r.wins], r.dealt_in, r.ready_at_draw, r.pig_at_draw)
             for r in outcome.seats]
    return HandResult(seats, outcome.exhausted, game.next_dealer(), record)
