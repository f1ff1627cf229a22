"""Microseconds per seat view: :func:`chuanma.engine.views.seat_view` of a compiled hand (the core's
redaction) against the Python redaction it replaced (``tests/reference_engine/views.py``) of the
same state as a Python ``HandState``, on every state of random hands, for each seat and a
spectator. The hands lean towards wins (the lockstep tests' leaning policy: wins, claims often,
mostly the discard of the lowest shanten), so that the views show melds, wins and payments as
played hands do. The two are timed in turns, the
order turning each round; CPU time (the machine is shared), medians over the rounds.

    python benchmarks/bench_native_view.py [--preset xuezhan] [--hands 20] [--rounds 7]
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from chuanma import _core
from chuanma.engine.actions import Action
from chuanma.engine.indices import from_index
from chuanma.engine.state import HandState
from chuanma.engine.views import seat_view
from chuanma.rules import RuleSet
from chuanma.scoring import score_options

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from native_lockstep import leaning
from reference_engine.views import redact

Case = tuple[_core.Hand, HandState, int | None, list[Action]]
"""A state in both forms, a viewer and its legal actions."""


def cases(rules: RuleSet, hands: int, seed: int) -> list[Case]:
    """Every state of ``hands`` random hands, seen by each seat and a spectator."""
    rng = random.Random(seed)
    native = _core.Rules(rules, score_options(rules))
    out: list[Case] = []
    for _ in range(hands):
        wall = rules.tiles.wall()
        rng.shuffle(wall)
        hand = _core.Hand(native, wall, rng.randrange(4), rng.randint(1, 3))
        while True:
            state = HandState.from_dict(hand.to_dict())
            snapshot = copy.copy(hand)
            for seat in (0, 1, 2, 3, None):
                legal = [] if seat is None else [from_index(a) for a in hand.legal(seat)]
                out.append((snapshot, state, seat, legal))
            if hand.finished:
                break
            seat = rng.choice(hand.to_act())
            hand.apply(seat, leaning(rng, hand, seat, sorted(hand.legal(seat)), state.seats[seat].void))
    return out


def timed(run: Callable[[], None], calls: int) -> float:
    """CPU microseconds per call of one pass of ``run`` over ``calls`` cases."""
    start = time.process_time()
    run()
    return (time.process_time() - start) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="xuezhan")
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    rules = RuleSet.from_preset(args.preset)
    todo = cases(rules, args.hands, 1)

    def core() -> None:
        for hand, _, seat, legal in todo:
            seat_view(hand, seat, rules, legal)

    def python() -> None:
        for _, state, seat, legal in todo:
            redact(state, seat, legal)

    sides = {"seat_view (core)": core, "redact (Python)": python}
    times: dict[str, list[float]] = {name: [] for name in sides}
    for r in range(args.rounds):
        for name in (list(sides) if r % 2 == 0 else list(reversed(sides))):
            times[name].append(timed(sides[name], len(todo)))
    medians = {name: statistics.median(t) for name, t in times.items()}
    print(f"{args.preset}: {len(todo)} views of {args.hands} hands, median of {args.rounds} rounds")
    for name, us in medians.items():
        print(f"  {name:18} {us:7.2f} µs per view")
    core_us, python_us = medians.values()
    print(f"  ratio (core / Python) {core_us / python_us:.2f}")


if __name__ == "__main__":
    main()
