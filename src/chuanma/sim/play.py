"""Playing one hand between four bots, and the deals the simulator uses."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from chuanma.bots.base import Bot
from chuanma.engine.actions import IllegalActionError
from chuanma.engine.game import Game
from chuanma.engine.record import to_record
from chuanma.engine.settlement import flower_pig
from chuanma.engine.wins import seat_waits
from chuanma.fairness.derive import Deal, derive_deal
from chuanma.rules import RuleSet


def deal_for(seed: int, index: int) -> Deal:
    """The deal of hand ``index`` of a run seeded ``seed``: the fairness derivation, with the
    server seed ``SHA-256("chuanma-sim:<seed>")``, client seed ``"sim"`` and nonce ``index``."""
    server = hashlib.sha256(f"chuanma-sim:{seed}".encode()).digest()
    return derive_deal(server, "sim", index)


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
    record: dict[str, Any] | None = None


def play_hand(
    rules: RuleSet, deal: Deal, bots: Sequence[Bot], *, record: bool = False,
    max_decisions: int = 5000,
) -> HandResult:
    """Play one hand: each bot sees only its seat's view (``Game.view(seat)``).

    Raises :class:`IllegalActionError` if a bot returns a decision that is not legal.
    """
    game = Game(rules, list(deal.wall), deal.dealer, deal.direction)
    needs = [getattr(b, "needs_view", True) for b in bots]
    n = 0
    while not game.finished:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        action = bots[seat].choose(game.view(seat) if needs[seat] else None, legal)
        try:
            game.apply(seat, action)  # refuses anything not in ``legal``, changing nothing
        except IllegalActionError as exc:
            raise IllegalActionError(
                f"bot {bots[seat].name} at seat {seat} chose {action}, not one of "
                + ", ".join(str(a) for a in legal) + f" ({exc})") from None
        n += 1
        if n > max_decisions:  # pragma: no cover - a hand has a few hundred decisions at most
            raise RuntimeError("hand did not finish")
    return summarize(game, record=record)


def summarize(game: Game, *, record: bool = False) -> HandResult:
    """Per-seat results of a finished hand."""
    deltas = game.deltas()
    seats = [SeatResult(deltas[s]) for s in range(4)]
    for w in game.wins:
        seats[w.seat].wins += 1
        seats[w.seat].fans.append(w.total)
        if w.from_seat is not None:
            seats[w.from_seat].deal_ins += 1
    exhausted = game.end_reason == "exhausted"
    if exhausted:
        st = game.state
        for s in range(4):
            if st.public.out[s]:
                continue
            if flower_pig(st, s):
                seats[s].flower_pig = True
                continue
            # ready exactly when it has a wait: it holds no void tile, so every wait wins
            seats[s].ready_at_draw = bool(seat_waits(st, s))
    return HandResult(seats, exhausted, to_record(game) if record else None)
