"""Batch steps per second: this checkout's ``BatchEnv`` against another revision's (``--against``,
by default ``main``), for each encoder and number of tables, in fresh processes alternating between
the two sides (the order turning each round). Each process drives its batches by the same loop:
each step's actions a uniform legal action per table drawn in NumPy from the masks (the argmax of
uniform ``float32`` noise times the mask). CPU time (the machine is shared), medians; steps are
summed over the tables.

    python benchmarks/bench_native_batch.py [--against REV] [--preset xuezhan] [--tables 64,256]
        [--encoders compact,planes] [--steps 200000] [--against-steps 20000] [--rounds 5]

Each batch is given two rates: the whole loop (drawing the actions and stepping), and ``step``
alone (the environment's own share). This checkout's batch is measured returning copies of its
arrays (the default) and, when ``--copies`` says so, its own arrays too (``copy=False``, which a
revision before the compiled batch does not have). The ratio is this checkout's rate over the
other revision's. Against a revision whose ``BatchEnv`` is the Python one, that is the compiled
batch against the Python batch.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

Rates = tuple[int, float, float]
"""Steps made, the CPU seconds of the whole loop and of ``step`` alone."""


class BatchJob:
    """A batch environment stepped by uniform legal actions."""

    def __init__(self, env: Any, seed: int = 1) -> None:
        self.env = env
        self.masks = env.reset(seed=seed)[1]
        self.rng = np.random.default_rng(seed)

    def __call__(self, n: int) -> Rates:
        made, stepping = 0, 0.0
        start = time.process_time()
        while made < n:
            actions = (self.rng.random(self.masks.shape, dtype=np.float32) * self.masks).argmax(axis=1)
            before = time.process_time()
            self.masks = self.env.step(actions)[1]
            stepping += time.process_time() - before
            made += len(actions)
        return made, time.process_time() - start, stepping


def measure(args: argparse.Namespace) -> dict[str, tuple[float, float]]:
    """In this process (the side whose ``chuanma`` it imports): each batch's rates, whole loop and
    ``step`` alone, after a warm-up of a tenth of the steps."""
    from chuanma.env import BatchEnv

    out: dict[str, tuple[float, float]] = {}
    for encoder in args.encoders.split(","):
        for n in map(int, args.tables.split(",")):
            variants: dict[str, dict[str, Any]] = {f"{encoder}, {n} tables": {}}
            if args.copies:
                variants[f"{encoder}, {n} tables, copy=False"] = {"copy": False}
            for name, options in variants.items():
                job = BatchJob(BatchEnv(n, args.preset, encoder=encoder, **options))
                job(args.steps // 10)
                made, seconds, stepping = job(args.steps)
                out[name] = made / seconds, made / stepping
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", default="main", help="the other revision (a commit, tag or branch)")
    parser.add_argument("--preset", default="xuezhan")
    parser.add_argument("--tables", default="64,256")
    parser.add_argument("--encoders", default="compact,planes")
    parser.add_argument("--steps", type=int, default=200_000, help="this checkout's steps per job a round")
    parser.add_argument("--against-steps", type=int, default=20_000, help="the other revision's steps per job a round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--copies", action="store_true", help="also measure this checkout's copy=False")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args)))
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_revisions import alternating

    common = ["--child", "--preset", args.preset, "--tables", args.tables, "--encoders", args.encoders]
    here = [*common, "--steps", str(args.steps), *(["--copies"] if args.copies else [])]
    there = [*common, "--steps", str(args.against_steps)]
    ran: tuple[list[dict[str, list[float]]], list[dict[str, list[float]]]] = alternating(
        args.against, args.rounds, __file__, here, there)
    print(f"{args.preset}, CPU time, medians of {args.rounds} fresh processes per side "
          f"(steps/s: whole loop | step alone; ratio: this checkout over {args.against})")
    print(f"  {'':30} {'this checkout':>23} {args.against:>23} {'ratio':>15}")
    for name in ran[0][0]:
        mine = [statistics.median(f[name][i] for f in ran[0]) for i in range(2)]
        theirs = [statistics.median(f[name.removesuffix(", copy=False")][i] for f in ran[1]) for i in range(2)]
        cells = [f"{a:>11,.0f} | {b:>9,.0f}" for a, b in (mine, theirs)]
        print(f"  {name:30} {cells[0]:>23} {cells[1]:>23} "
              f"{mine[0] / theirs[0]:5.1f}x | {mine[1] / theirs[1]:5.1f}x")


if __name__ == "__main__":
    main()
