"""Batch steps per second: the native batch (``NativeBatchEnv``, the hands inside the compiled
core) against the Python ``BatchEnv``, the same number of tables and the compact encoder, both
driven by the same loop: each step's actions a uniform legal action per table drawn in NumPy from
the masks (the argmax of uniform ``float32`` noise times the mask); RLCard's mahjong environment
too when ``rlcard`` is installed. Rounds interleaved (the order turning each round), CPU time (the
machine is shared), medians; steps are summed over the tables.

    python benchmarks/bench_native_batch.py [--preset xuezhan] [--tables 64,256] [--steps 200000]
        [--python-steps 20000] [--rounds 5]

Each batch is given two rates: the whole loop (drawing the actions and stepping), and ``step``
alone (the environment's own share). The native batch is measured returning copies of its arrays
(``BatchEnv``'s contract) and returning its own arrays (``copy=False``).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np

from bench_env import rlcard_job
from chuanma.env import BatchEnv, NativeBatchEnv

Rates = tuple[int, float, float]
"""Steps made, the CPU seconds of the whole loop and of ``step`` alone."""


class BatchJob:
    """A batch environment stepped by uniform legal actions, kept between rounds."""

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", default="xuezhan")
    parser.add_argument("--tables", default="64,256")
    parser.add_argument("--steps", type=int, default=200_000, help="native steps per job a round")
    parser.add_argument("--python-steps", type=int, default=20_000, help="Python batch and RLCard steps a round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    jobs: dict[str, tuple[BatchJob, int]] = {}
    for n in map(int, args.tables.split(",")):
        jobs[f"native, {n} tables"] = BatchJob(NativeBatchEnv(n, args.preset)), args.steps
        jobs[f"native, {n} tables, copy=False"] = BatchJob(NativeBatchEnv(n, args.preset, copy=False)), args.steps
        jobs[f"Python, {n} tables"] = BatchJob(BatchEnv(n, args.preset, encoder="compact")), args.python_steps
    rlcard = rlcard_job()
    for job, steps in jobs.values():  # warm up
        job(steps // 10)
    whole: dict[str, list[float]] = {name: [] for name in jobs}
    alone: dict[str, list[float]] = {name: [] for name in jobs}
    theirs: list[float] = []
    names = list(jobs)
    for r in range(args.rounds):
        turn = r % len(names)
        for name in names[turn:] + names[:turn]:
            job, steps = jobs[name]
            made, seconds, stepping = job(steps)
            whole[name].append(made / seconds)
            alone[name].append(made / stepping)
        if rlcard is not None:
            made, seconds = rlcard(args.python_steps // 4)
            theirs.append(made / seconds)
    rlcard_rate = statistics.median(theirs) if theirs else None
    print(f"{args.preset}, compact encoder, CPU time, medians of {args.rounds} rounds "
          "(steps/s: whole loop | step alone):")
    for name in names:
        rate, own = statistics.median(whole[name]), statistics.median(alone[name])
        line = f"  {name:32s} {rate:>11,.0f} | {own:>11,.0f}"
        python = name.replace("native", "Python").removesuffix(", copy=False")
        if name != python:
            line += (f"   {rate / statistics.median(whole[python]):5.1f}x | "
                     f"{own / statistics.median(alone[python]):5.1f}x the Python batch")
        if rlcard_rate:
            line += f"   {rate / rlcard_rate:6.1f}x RLCard (whole loop)"
        print(line)
    print(f"  {'RLCard mahjong':32s} {rlcard_rate:>11,.0f}" if rlcard_rate else "  rlcard not installed: no comparison")


if __name__ == "__main__":
    main()
