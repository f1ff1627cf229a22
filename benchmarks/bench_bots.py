"""Hands per second of the simulator: random and greedy bots, one process and two workers.

Run: ``PYTHONPATH=src python benchmarks/bench_bots.py [--hands N]``. Prints absolute figures,
the ratio greedy/random and the speed-up of two workers over one.
"""

from __future__ import annotations

import argparse
import time

from chuanma.analysis import shanten
from chuanma.sim.runner import SimSpec, chunks, run_chunks, simulate_chunk
from chuanma.sim.stats import Tally

TARGETS = {"random": 1000.0, "greedy": 300.0}


def rate(bot: str, hands: int, workers: int) -> float:
    spec = SimSpec("xuezhan", (bot, bot, bot, bot), 1)
    tally = Tally()
    start = time.perf_counter()
    for _, part in run_chunks(simulate_chunk, spec, chunks(hands, max(1, hands // (4 * workers))), workers=workers):
        tally.merge(part)
    return tally.hands / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=1000)
    args = ap.parse_args()
    shanten(bytes([1] * 13 + [0] * 14))  # load the tables before timing
    results: dict[tuple[str, int], float] = {}
    for bot in ("random", "greedy"):
        for workers in (1, 2):
            n = args.hands if bot == "random" else args.hands // 2
            results[bot, workers] = r = rate(bot, n, workers)
            print(f"{bot:7s} workers={workers}: {r:8.1f} hands/s  (one-core target {TARGETS[bot]:.0f})")
    for workers in (1, 2):
        ratio = results["greedy", workers] / results["random", workers]
        print(f"greedy/random speed ratio, workers={workers}: {ratio:.2f}")
    for bot in ("random", "greedy"):
        print(f"{bot}: two workers / one = {results[bot, 2] / results[bot, 1]:.2f}")


if __name__ == "__main__":
    main()
