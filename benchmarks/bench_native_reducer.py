"""Random-policy hands per second: the compiled reducer's own loop (``chuanma._core.play_random``)
against the Python :class:`Game` played by the same policy (a uniform choice among the legal
actions of a seat to act), rounds interleaved, CPU time.

    python benchmarks/bench_native_reducer.py [--presets xuezhan,xueliu,dazhong] [--rounds 5]
        [--native-hands 20000] [--python-hands 300]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from chuanma import _core
from chuanma.rules import RuleSet
from chuanma.scoring import score_options
from random_hands import random_decisions


def python_hands(rules: RuleSet, seed: int, hands: int) -> int:
    """Play ``hands`` random-policy hands with the Python Game; returns the decisions made."""
    return sum(1 for _ in random_decisions(rules, random.Random(seed), hands))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--presets", default="xuezhan,xueliu,dazhong")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--native-hands", type=int, default=20000)
    parser.add_argument("--python-hands", type=int, default=300)
    args = parser.parse_args()
    _core.load_tables()
    for name in args.presets.split(","):
        rules = RuleSet.from_preset(name)
        native_rules = _core.Rules(rules, score_options(rules))
        native: list[float] = []
        python: list[float] = []
        decisions = {"native": 0, "python": 0}
        for r in range(args.rounds):
            start = time.process_time()
            decisions["native"] += _core.play_random(native_rules, r, args.native_hands)
            native.append(args.native_hands / (time.process_time() - start))
            start = time.process_time()
            decisions["python"] += python_hands(rules, r, args.python_hands)
            python.append(args.python_hands / (time.process_time() - start))
        n, p = statistics.median(native), statistics.median(python)
        per_hand_n = decisions["native"] / (args.rounds * args.native_hands)
        per_hand_p = decisions["python"] / (args.rounds * args.python_hands)
        print(f"{name:10} compiled {n:9,.0f} hands/s ({per_hand_n:.0f} decisions a hand)   "
              f"Python {p:7,.0f} hands/s ({per_hand_p:.0f})   ratio {n / p:6.1f}x")


if __name__ == "__main__":
    main()
