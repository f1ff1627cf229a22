"""Simulated hands in sessions: hands are grouped in sessions of N played in order, each hand
dealt by the fair derivation with its dealer set by the preset's rule (``dealer: random``: the
stream's draw; ``first_winner``, ``discarder``, ``rotate``: the previous hand's next dealer)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from chuanma.bots.base import Player
from chuanma.fairness.session import SessionHand
from chuanma.rules import RuleSet
from chuanma.sim.play import HandResult, play_game, sim_hand, summarize

DEFAULT_SESSION_HANDS = 4


def sim_session_id(seed: int, session: int) -> str:
    """The id of session number ``session`` (0, 1, …) of a run seeded ``seed``."""
    return f"sim-{seed}-{session}"


def play_sessions(
    rules: RuleSet,
    seed: int,
    start: int,
    stop: int,
    bots_for: Callable[[int], Sequence[Player]],
    *,
    session_hands: int = DEFAULT_SESSION_HANDS,
    record: Mapping[str, Any] | None = None,
) -> Iterator[tuple[int, HandResult]]:
    """Yield ``(i, result)`` for hands ``start`` to ``stop - 1`` of the run seeded ``seed``.

    Hand ``i`` is hand ``i % session_hands`` of session ``i // session_hands``, with the bots
    ``bots_for(i)``. A session begun before ``start`` is played again from its first hand (not
    yielded), so every hand is the same however the run is cut into chunks. With ``record``
    (extra fields such as the bots) each result carries its complete, verifiable record.
    """
    if session_hands < 1:
        raise ValueError(f"a session has at least one hand, not {session_hands}")
    session: SessionHand | None = None
    result: HandResult | None = None
    for i in range(start - start % session_hands, stop):
        number, hand = divmod(i, session_hands)
        if session is None or result is None or hand == 0:
            session = SessionHand.first(sim_session_id(seed, number), rules.dealer)
        else:
            session = session.following(result.record, result.next_dealer)
        fair = sim_hand(seed, i, rules.tiles)
        game = play_game(rules, session.deal(fair.deal()), bots_for(i))
        chain = session.chained and hand < session_hands - 1
        keep = (record is not None and i >= start) or chain
        extra = {**(record or {}), "hand": i, "seed": seed}
        result = summarize(game, fair.finish(game, session=session, extra=extra) if keep else None)
        if i >= start:
            yield i, result
