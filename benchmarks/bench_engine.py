"""Complete hands per second: uniformly random legal decisions, one process.

Runs RLCard's mahjong environment with random agents in the same run when ``rlcard`` is
installed (``pip install rlcard``), and prints both figures and their ratio; then what a
client's reads cost: ``view(seat)`` and ``events_for`` (per event and seat); and what a copy of a
hand costs (``copy.deepcopy``, a pickle round trip) beside the generic deepcopy of the same fields.

    python benchmarks/bench_engine.py [--hands 300] [--preset xuezhan]
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import random
import time

from chuanma.engine.game import Game
from chuanma.rules import RuleSet
from random_hands import random_decisions

DIRECTIONS = ("to_next", "opposite", "to_previous")


def chuanma_hands(n: int, preset: str, seed: int = 1) -> float:
    start = time.perf_counter()
    for _ in random_decisions(RuleSet.from_preset(preset), random.Random(seed), n):
        pass
    return n / (time.perf_counter() - start)


def read_costs(n: int, preset: str, seed: int = 2) -> tuple[float, float]:
    """Microseconds per ``view(seat)`` (at every 8th decision, the seat's legal actions already
    listed, as a bot's are) and per event and seat of ``events_for`` (every seat reading each new
    event once, as a bot does)."""
    rng = random.Random(seed)
    rules = RuleSet.from_preset(preset)
    base = rules.tiles.wall()
    view_time = events_time = 0.0
    views = events = 0
    for _ in range(n):
        wall = base[:]
        rng.shuffle(wall)
        g = Game(rules, wall, rng.randrange(4), rng.choice(DIRECTIONS))
        seen = [0] * 4
        steps = 0
        while not g.finished:
            seat = rng.choice(g.to_act())
            legal = g.legal_actions(seat)
            if steps % 8 == 0:
                start = time.perf_counter()
                g.view(seat)
                view_time += time.perf_counter() - start
                views += 1
            start = time.perf_counter()
            got = g.events_for(seat, seen[seat])
            events_time += time.perf_counter() - start
            events += len(got)
            seen[seat] = len(g.events)
            g.apply(seat, rng.choice(legal))
            steps += 1
    return view_time / views * 1e6, events_time / max(events, 1) * 1e6


def copy_costs(n: int, preset: str, seed: int = 3) -> tuple[float, float]:
    """Microseconds per copy of a hand's state at every 4th decision (counted over the hands):
    ``copy.deepcopy`` (the state's own, a pickle round trip) and the generic deepcopy of the same
    fields, interleaved."""
    own = generic = 0.0
    copies = 0
    for steps, g in enumerate(random_decisions(RuleSet.from_preset(preset), random.Random(seed), n)):
        if steps % 4 == 0:
            fields = [getattr(g.state, f.name) for f in dataclasses.fields(g.state)]
            start = time.perf_counter()
            copy.deepcopy(g.state)
            middle = time.perf_counter()
            copy.deepcopy(fields)
            generic += time.perf_counter() - middle
            own += middle - start
            copies += 1
    return own / copies * 1e6, generic / copies * 1e6


def rlcard_hands(n: int, seed: int = 1) -> float | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    start = time.perf_counter()
    for _ in range(n):
        env.run(is_training=False)
    return n / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--preset", default="xuezhan")
    args = ap.parse_args()
    ours = chuanma_hands(args.hands, args.preset)
    print(f"chuanma ({args.preset}): {ours:,.0f} hands/s")
    theirs = rlcard_hands(args.hands)
    if theirs is None:
        print("rlcard not installed: no comparison")
    else:
        print(f"rlcard mahjong (random agents): {theirs:,.0f} hands/s")
        print(f"ratio chuanma / rlcard: {ours / theirs:.2f}x")
    view_us, event_us = read_costs(max(1, args.hands // 5), args.preset)
    print(f"view(seat): {view_us:.1f} us; events_for: {event_us:.2f} us per event and seat")
    own_us, generic_us = copy_costs(max(1, args.hands // 10), args.preset)
    print(f"copy of a hand: {own_us:.0f} us (pickle round trip); generic deepcopy of its fields "
          f"{generic_us:.0f} us; ratio {generic_us / own_us:.2f}x")


if __name__ == "__main__":
    main()
