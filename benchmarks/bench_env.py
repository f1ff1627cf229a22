"""Environment steps per second with uniformly random legal (masked) actions, one process each.

Measures the PettingZoo AEC environment (``chuanma.env.env`` and the bare ``raw_env``), the
Gymnasium single-seat wrapper (against ``random`` bots; its steps are the agent's), the batch
(``BatchEnv``, steps summed over its tables) and, in the same run, RLCard's mahjong environment
(when ``rlcard`` is installed); then the batch in 1…``--workers`` processes at once. The engine
alone, stepping the same kind of
hands without making any observation, gives the ceiling. One process's rate is counted in CPU
time (``time.process_time``: the machine is shared); processes together in wall time.

    python benchmarks/bench_env.py [--steps 20000] [--encoder compact] [--batch 64] [--workers 2]
"""

from __future__ import annotations

import argparse
import random
import time
from multiprocessing import get_context
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
            legal = np.flatnonzero(obs["action_mask"])
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
        legal = np.flatnonzero(obs["action_mask"])
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--preset", default="xuezhan")
    ap.add_argument("--encoder", default="compact")
    ap.add_argument("--batch", type=int, default=64, help="tables in the batch")
    ap.add_argument("--workers", type=int, default=2, help="largest number of batch processes")
    args = ap.parse_args()
    rates = {
        "AEC (PettingZoo, wrapped)": aec_steps(args.steps, args.preset, args.encoder),
        "AEC (raw_env)": aec_steps(args.steps, args.preset, args.encoder, wrapped=False),
        "Gymnasium single seat vs random": gym_steps(args.steps // 2, args.preset, args.encoder),
        f"batch of {args.batch}": batch_steps(args.steps, args.preset, args.encoder, args.batch),
        "engine alone (no observations)": engine_steps(args.steps, args.preset),
    }
    theirs = rlcard_steps(args.steps)
    print(f"chuanma.env, {args.preset}, {args.encoder} observations:")
    for name, rate in rates.items():
        ratio = f"  ({rate / theirs:.2f}x RLCard)" if theirs else ""
        print(f"  {name:34s} {rate:10,.0f} steps/s{ratio}")
    print(f"  {'RLCard mahjong':34s} {theirs:10,.0f} steps/s" if theirs else "  rlcard not installed: no comparison")
    for w in range(1, args.workers + 1):
        rate = batch_workers(w, args.steps, args.preset, args.encoder, args.batch)
        print(f"  batch of {args.batch} in {w} process(es): {rate:10,.0f} steps/s")


if __name__ == "__main__":
    main()
