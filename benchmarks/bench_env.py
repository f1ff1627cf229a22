"""Environment steps per second with uniformly random legal (masked) actions, one process each.

Measures the PettingZoo AEC environment (``chuanma.env.env`` and the bare ``raw_env``), the
Gymnasium single-seat wrapper (against ``random`` bots; its steps are the agent's), the batch
(``BatchEnv``, steps summed over its tables) and, in the same run, RLCard's mahjong environment
(when ``rlcard`` is installed); then the batch in 1…``--workers`` processes at once. The engine
alone, stepping the same kind of
hands without making any observation, gives the ceiling. One process's rate is counted in CPU
time (``time.process_time``: the machine is shared); processes together in wall time.

    python benchmarks/bench_env.py [--steps 20000] [--encoder compact] [--batch 64] [--workers 2]

``--against REV`` instead measures this checkout's environments against another revision's, in
fresh processes alternating between the two (each process measures RLCard too), and prints the
median of each side and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np

from chuanma.env import BatchEnv, SingleSeatEnv, env, raw_env
from chuanma.env.table import Table
from chuanma.rules import RuleSet


def aec_steps(steps: int, preset: str, encoder: str, seed: int = 1, wrapped: bool = True) -> float:
    e = env(preset, encoder=encoder) if wrapped else raw_env(preset, encoder=encoder)
    e.reset(seed=seed)
    rng = random.Random(seed)
    n = 0
    start = time.process_time()
    while n < steps:
        for _ in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            e.step(int(legal[rng.randrange(len(legal))]))
            n += 1
        e.reset()
    return n / (time.process_time() - start)


def engine_steps(steps: int, preset: str, seed: int = 1) -> float:
    """The ceiling: the same random hands through the engine alone (no view, no observation)."""
    table = Table(RuleSet.from_preset(preset))
    table.seed(seed)
    rng = random.Random(seed)
    n = 0
    start = time.process_time()
    while n < steps:
        game = table.deal()
        while not game.finished:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            game.apply(seat, legal[rng.randrange(len(legal))])
            n += 1
    return n / (time.process_time() - start)


def gym_steps(steps: int, preset: str, encoder: str, seed: int = 1) -> float:
    g = SingleSeatEnv(preset, opponents="random", encoder=encoder)
    rng = random.Random(seed)
    obs, _ = g.reset(seed=seed)
    n = 0
    start = time.process_time()
    while n < steps:
        legal = obs["action_mask"].nonzero()[0]
        obs, _, done, _, _ = g.step(int(legal[rng.randrange(len(legal))]))
        n += 1
        if done:
            obs, _ = g.reset()
    return n / (time.process_time() - start)


def batch_steps(steps: int, preset: str, encoder: str, tables: int, seed: int = 1) -> float:
    batch = BatchEnv(tables, preset, encoder=encoder)
    _, masks, _ = batch.reset(seed=seed)
    rng = np.random.default_rng(seed)
    n = 0
    start = time.process_time()
    while n < steps:
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)  # a uniform legal action per table
        _, masks, _, _, _ = batch.step(actions)
        n += tables
    return n / (time.process_time() - start)


def _batch_worker(args: tuple[int, str, str, int, int]) -> tuple[int, float]:
    steps, preset, encoder, tables, seed = args
    start = time.perf_counter()
    batch_steps(steps, preset, encoder, tables, seed)
    return -(-steps // tables) * tables, time.perf_counter() - start  # the steps it made, wall time


def batch_workers(workers: int, steps: int, preset: str, encoder: str, tables: int) -> float:
    """Steps per second of ``workers`` processes each running a batch (total steps ÷ the slowest
    one's wall time: processes running together share the machine)."""
    with get_context("spawn").Pool(workers) as pool:
        done = pool.map(_batch_worker, [(steps, preset, encoder, tables, 100 + w) for w in range(workers)])
    return sum(n for n, _ in done) / max(t for _, t in done)


def rlcard_steps(steps: int, seed: int = 1) -> float | None:
    try:
        import rlcard
    except ImportError:
        return None
    e: Any = rlcard.make("mahjong", config={"seed": seed})
    rng = random.Random(seed)
    n = 0
    start = time.process_time()
    while n < steps:
        state, _ = e.reset()
        while not e.is_over():
            legal = list(state["legal_actions"])
            state, _ = e.step(legal[rng.randrange(len(legal))])
            n += 1
    return n / (time.process_time() - start)


def rates(steps: int, preset: str, encoder: str, tables: int) -> dict[str, float]:
    """Steps per CPU second of each environment in this process, RLCard's last (when installed).

    A process's first steps run slower: the engine's caches of what it has met fill up over some
    ten thousand steps, and each job's own objects warm up. So the engine first plays ``steps``
    steps untimed, and each job is measured after a tenth as many of its own untimed; else
    whichever job came first would pay for the warming."""
    jobs: dict[str, Callable[[int], float | None]] = {
        "AEC (PettingZoo, wrapped)": lambda n: aec_steps(n, preset, encoder),
        "AEC (raw_env)": lambda n: aec_steps(n, preset, encoder, wrapped=False),
        "Gymnasium single seat vs random": lambda n: gym_steps(n // 2, preset, encoder),
        f"batch of {tables}": lambda n: batch_steps(n, preset, encoder, tables),
        "engine alone (no observations)": lambda n: engine_steps(n, preset),
        "RLCard mahjong": rlcard_steps,
    }
    engine_steps(steps, preset)
    out = {}
    for name, job in jobs.items():
        job(steps // 10)
        rate = job(steps)
        if rate is not None:
            out[name] = rate
    return out


def against(revision: str, args: argparse.Namespace) -> None:
    """This checkout's environments against ``revision``'s, alternating fresh processes."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_revisions import ROOT, checkout

    child = ["--child", "--steps", str(args.steps), "--preset", args.preset, "--encoder", args.encoder,
             "--batch", str(args.batch)]
    figures: dict[str, list[dict[str, float]]] = {"this checkout": [], revision: []}
    with checkout(revision) as other:
        sides = [("this checkout", ROOT / "src"), (revision, other)]
        for r in range(args.rounds):
            for side, src in sides if r % 2 == 0 else sides[::-1]:
                out = subprocess.run([sys.executable, __file__, *child], env={"PYTHONPATH": str(src)},
                                     capture_output=True, text=True, check=True)
                figures[side].append(json.loads(out.stdout))
            print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    print(f"{args.preset}, {args.encoder} observations: steps per CPU second, median of {args.rounds} "
          f"fresh processes per side (range), load average {os.getloadavg()[0]:.1f} at the end")
    print(f"{'':34} {'this checkout':>22} {revision:>22} {'ratio':>7}")
    for job in figures["this checkout"][0]:
        mine = [f[job] for f in figures["this checkout"]]
        theirs = [f[job] for f in figures[revision]]
        cells = [f"{statistics.median(v):,.0f} ({min(v):,.0f}–{max(v):,.0f})" for v in (mine, theirs)]
        print(f"{job:34} {cells[0]:>22} {cells[1]:>22} {statistics.median(mine) / statistics.median(theirs):6.2f}×")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--preset", default="xuezhan")
    ap.add_argument("--encoder", default="compact")
    ap.add_argument("--batch", type=int, default=64, help="tables in the batch")
    ap.add_argument("--workers", type=int, default=2, help="largest number of batch processes")
    ap.add_argument("--against", help="compare with this revision (a commit, tag or branch) instead")
    ap.add_argument("--rounds", type=int, default=4, help="with --against: processes per side")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(rates(args.steps, args.preset, args.encoder, args.batch)))
        return
    if args.against:
        against(args.against, args)
        return
    measured = rates(args.steps, args.preset, args.encoder, args.batch)
    theirs = measured.pop("RLCard mahjong", None)
    print(f"chuanma.env, {args.preset}, {args.encoder} observations (load average {os.getloadavg()[0]:.1f}):")
    for name, rate in measured.items():
        ratio = f"  ({rate / theirs:.2f}x RLCard)" if theirs else ""
        print(f"  {name:34s} {rate:10,.0f} steps/s{ratio}")
    print(f"  {'RLCard mahjong':34s} {theirs:10,.0f} steps/s" if theirs else "  rlcard not installed: no comparison")
    for w in range(1, args.workers + 1):
        rate = batch_workers(w, args.steps, args.preset, args.encoder, args.batch)
        print(f"  batch of {args.batch} in {w} process(es): {rate:10,.0f} steps/s")


if __name__ == "__main__":
    main()
