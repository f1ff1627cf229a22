"""Environment steps per second with uniformly random legal (masked) actions, one process each.

Measures the PettingZoo AEC environment (``chuanma.env.env`` and the bare ``raw_env``), the
Gymnasium single-seat wrapper (against ``random`` bots; its steps are the agent's), the batch
(``BatchEnv``, steps summed over its tables) and, in the same run, RLCard's mahjong environment
(when ``rlcard`` is installed); then the batch in 1…``--workers`` processes at once. The engine
alone, stepping the same kind of
hands without making any observation, gives the ceiling. One process's rate is counted in CPU
time (``time.process_time``: the machine is shared); processes together in wall time.

    python benchmarks/bench_env.py [--steps 20000] [--encoders compact,planes] [--batch 64] [--workers 2]

Every environment is measured with each encoder, and every job (RLCard's too) takes its turn in
each of ``--slices`` rounds, so the ratios to RLCard are like with like: the same process, the
same stretch of time.

``--parts`` instead times the parts of a step of the same random hands, step by step in one loop:
the engine (``to_act``, ``legal_actions``, ``apply``) and the observation (the compiled encoding of
``Game.core.observer(seat)`` for the seat asked: what the environments do).

``--against REV --instructions [--hands 20]`` counts instead, under valgrind's callgrind, the
instructions of ``--hands`` bare AEC hands with each encoder on both sides (the ratio: the other
side's over this checkout's).

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
import sys
import time
from collections.abc import Callable
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np

from chuanma.encoding import ENCODERS
from chuanma.env import BatchEnv, SingleSeatEnv, env, raw_env
from chuanma.env.table import Table
from chuanma.rules import RuleSet

Job = Callable[[int], tuple[int, float]]
"""A job: steps ``n`` more steps of its own environment (kept between calls); the steps it made and
the CPU seconds they took."""


def _timed(step: Callable[[], int], n: int) -> tuple[int, float]:
    """Call ``step`` (which makes some steps and says how many) until ``n`` steps are made."""
    made = 0
    start = time.process_time()
    while made < n:
        made += step()
    return made, time.process_time() - start


def aec_job(preset: str, encoder: str, seed: int = 1, wrapped: bool = True) -> Job:
    e = env(preset, encoder=encoder) if wrapped else raw_env(preset, encoder=encoder)
    e.reset(seed=seed)
    rng = random.Random(seed)

    def hand() -> int:
        n = 0
        for _ in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            e.step(int(legal[rng.randrange(len(legal))]))
            n += 1
        e.reset()
        return n

    return lambda n: _timed(hand, n)


def engine_job(preset: str, seed: int = 1) -> Job:
    """The ceiling: the same random hands through the engine alone (no view, no observation)."""
    table = Table(RuleSet.from_preset(preset))
    table.seed(seed)
    rng = random.Random(seed)

    def hand() -> int:
        game = table.deal()
        n = 0
        while not game.finished:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            game.apply(seat, legal[rng.randrange(len(legal))])
            n += 1
        return n

    return lambda n: _timed(hand, n)


def gym_job(preset: str, encoder: str, seed: int = 1) -> Job:
    g = SingleSeatEnv(preset, opponents="random", encoder=encoder)
    rng = random.Random(seed)
    obs = [g.reset(seed=seed)[0]]

    def step() -> int:
        legal = obs[0]["action_mask"].nonzero()[0]
        obs[0], _, done, _, _ = g.step(int(legal[rng.randrange(len(legal))]))
        if done:
            obs[0] = g.reset()[0]
        return 1

    return lambda n: _timed(step, n // 2)  # the learner's steps: the bots' three in four are not counted


def batch_job(preset: str, encoder: str, tables: int, seed: int = 1) -> Job:
    batch = BatchEnv(tables, preset, encoder=encoder)
    masks = [batch.reset(seed=seed)[1]]
    rng = np.random.default_rng(seed)

    def step() -> int:
        actions = (rng.random(masks[0].shape) * masks[0]).argmax(axis=1)  # a uniform legal action per table
        masks[0] = batch.step(actions)[1]
        return tables

    return lambda n: _timed(step, n)


def rlcard_job(seed: int = 1) -> Job | None:
    try:
        import rlcard
    except ImportError:
        return None
    e: Any = rlcard.make("mahjong", config={"seed": seed})
    rng = random.Random(seed)

    def hand() -> int:
        state, _ = e.reset()
        n = 0
        while not e.is_over():
            legal = list(state["legal_actions"])
            state, _ = e.step(legal[rng.randrange(len(legal))])
            n += 1
        return n

    return lambda n: _timed(hand, n)


def batch_steps(steps: int, preset: str, encoder: str, tables: int, seed: int = 1) -> float:
    """Steps per CPU second of a batch of ``tables`` over ``steps`` steps."""
    made, seconds = batch_job(preset, encoder, tables, seed)(steps)
    return made / seconds


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


ENGINE = "engine alone (no observations)"
RLCARD = "RLCard mahjong"


def rates(steps: int, preset: str, encoders: list[str], tables: int, rounds: int = 5) -> dict[str, float]:
    """Steps per CPU second of each environment with each encoder (``"name / encoder"``), of the
    engine alone and of RLCard (when installed), all in this process and interleaved.

    Every job keeps its environment and runs ``steps // rounds`` steps a round, in an order that
    turns each round, so that a change of the machine's load falls on every job alike (RLCard
    timed once at the end had moved its ratio from 7.08x quiet to 5.33x loaded). A process's first
    steps run slower: the engine's caches of what it has met fill up over some ten thousand steps,
    and each job's own objects warm up. So the engine first plays ``steps`` steps untimed, and
    each job a tenth as many of its own before the rounds."""
    jobs: dict[str, Job] = {}
    for encoder in encoders:
        jobs[f"AEC (PettingZoo, wrapped) / {encoder}"] = aec_job(preset, encoder)
        jobs[f"AEC (raw_env) / {encoder}"] = aec_job(preset, encoder, wrapped=False)
        jobs[f"Gymnasium single seat vs random / {encoder}"] = gym_job(preset, encoder)
        jobs[f"batch of {tables} / {encoder}"] = batch_job(preset, encoder, tables)
    jobs[ENGINE] = engine_job(preset)
    theirs = rlcard_job()
    if theirs is not None:
        jobs[RLCARD] = theirs
    engine_job(preset, seed=2)(steps)
    for job in jobs.values():
        job(steps // 10)
    made = dict.fromkeys(jobs, 0)
    seconds = dict.fromkeys(jobs, 0.0)
    names = list(jobs)
    for r in range(rounds):
        turn = r % len(names)
        for name in names[turn:] + names[:turn]:
            n, t = jobs[name](max(1, steps // rounds))
            made[name] += n
            seconds[name] += t
    return {name: made[name] / seconds[name] for name in names}


def print_rates(measured: dict[str, float], encoders: list[str]) -> None:
    """A row per environment, a column per encoder: steps/s and the ratio to RLCard's, measured in
    the same rounds (like with like)."""
    theirs = measured.get(RLCARD)
    rows = list(dict.fromkeys(name.rsplit(" / ", 1)[0] for name in measured if " / " in name))
    print(f"  {'':34s} " + " ".join(f"{e:>22s}" for e in encoders))
    for row in rows:
        cells = []
        for encoder in encoders:
            rate = measured[f"{row} / {encoder}"]
            cells.append(f"{rate:,.0f}" + (f" ({rate / theirs:.2f}x RLCard)" if theirs else ""))
        print(f"  {row:34s} " + " ".join(f"{c:>22s}" for c in cells))
    print(f"  {ENGINE:34s} {measured[ENGINE]:,.0f} steps/s")
    print(f"  {RLCARD:34s} {theirs:,.0f} steps/s" if theirs else "  rlcard not installed: no comparison")


PARTS = ("engine", "observation")


def parts(steps: int, preset: str, encoder: str, seed: int = 1) -> dict[str, float]:
    """CPU µs a step of each part (:data:`PARTS`) over ``steps`` steps of random hands, each part
    timed around its own calls at every step (after ``steps`` untimed engine steps: warm caches)."""
    engine_job(preset, seed=2)(steps)
    table = Table(RuleSet.from_preset(preset), encoder)
    table.seed(seed)
    rng = random.Random(seed)
    encode = ENCODERS[encoder][0]
    obs = np.empty(table.shape, dtype=np.float32)
    spent = dict.fromkeys(PARTS, 0.0)
    clock = time.process_time
    made = 0
    while made < steps:
        game = table.deal()
        while not game.finished:
            t0 = clock()
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            t1 = clock()
            encode(game.core.observer(seat), obs)
            t2 = clock()
            game.apply(seat, legal[rng.randrange(len(legal))])
            t3 = clock()
            spent["engine"] += t1 - t0 + t3 - t2
            spent["observation"] += t2 - t1
            made += 1
    return {part: 1e6 * took / made for part, took in spent.items()}


def print_parts(steps: int, preset: str, encoders: list[str]) -> None:
    """The parts of a step for each encoder, and the observation's share of a whole bare AEC step
    (``raw_env``, timed in the same process right after)."""
    print(f"{preset}: CPU µs a step, {steps} steps of random hands, each part timed at every step "
          f"(load average {os.getloadavg()[0]:.1f}):")
    print(f"  {'encoder':8} " + " ".join(f"{p:>12}" for p in PARTS)
          + f" {'AEC step':>9} {'observation ÷ AEC step':>23}")
    for encoder in encoders:
        took = parts(steps, preset, encoder)
        made, seconds = aec_job(preset, encoder, wrapped=False)(steps)
        step = 1e6 * seconds / made
        print(f"  {encoder:8} " + " ".join(f"{took[p]:12.2f}" for p in PARTS)
              + f" {step:9.2f} {took['observation'] / step:23.0%}")


AEC_HANDS = """
import random
from chuanma.env import raw_env
e = raw_env({preset!r}, encoder={encoder!r})
e.reset(seed=1)
rng = random.Random(1)
def hands(n):
    for _ in range(n):
        for _ in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            legal = obs["action_mask"].nonzero()[0]
            e.step(None if term or trunc else int(legal[rng.randrange(len(legal))]))
        e.reset()
hands({warm})
def play():
    hands({hands})
"""
"""Bare AEC hands of random legal actions, ``warm`` untimed first: the loop a revision's
instructions are counted in (``play``)."""

def instructions_against(revision: str, args: argparse.Namespace) -> None:
    """The instructions (callgrind) of ``--hands`` bare AEC hands with each encoder, this checkout
    against ``revision``: the same hands on both sides, a count the machine's load does not move."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_revisions import ROOT, checkout, instructions

    print(f"{args.preset}: instructions of {args.hands} bare AEC hands (raw_env, random legal actions, "
          f"{args.hands // 2} hands untimed first)")
    print(f"{'':24} {'this checkout':>16} {revision:>16} {'ratio':>7}")
    with checkout(revision) as other:
        for encoder in [e for e in args.encoders.split(",") if e]:
            code = AEC_HANDS.format(preset=args.preset, encoder=encoder, hands=args.hands, warm=args.hands // 2)
            here, there = instructions(ROOT / "src", code), instructions(other, code)
            print(f"{'AEC / ' + encoder:24} {here:>16,} {there:>16,} {there / here:>6.2f}×")


def against(revision: str, args: argparse.Namespace) -> None:
    """This checkout's environments against ``revision``'s, alternating fresh processes."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_revisions import alternating

    child = ["--child", "--steps", str(args.steps), "--preset", args.preset, "--encoders", args.encoders,
             "--batch", str(args.batch), "--slices", str(args.slices)]
    here, there = alternating(revision, args.rounds, __file__, child, child)
    figures: dict[str, list[dict[str, float]]] = {"this checkout": here, revision: there}
    print(f"{args.preset}: steps per CPU second, median of {args.rounds} fresh processes per side (range), "
          f"load average {os.getloadavg()[0]:.1f} at the end")
    print(f"{'':48} {'this checkout':>22} {revision:>22} {'ratio':>7}")
    for job in figures["this checkout"][0]:
        mine = [f[job] for f in figures["this checkout"]]
        theirs = [f[job] for f in figures[revision]]
        cells = [f"{statistics.median(v):,.0f} ({min(v):,.0f}–{max(v):,.0f})" for v in (mine, theirs)]
        print(f"{job:48} {cells[0]:>22} {cells[1]:>22} {statistics.median(mine) / statistics.median(theirs):6.2f}×")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=20000, help="steps each job is timed for")
    ap.add_argument("--preset", default="xuezhan")
    ap.add_argument("--encoders", default="compact,planes", help="the encoders measured, comma-separated")
    ap.add_argument("--batch", type=int, default=64, help="tables in the batch")
    ap.add_argument("--workers", type=int, default=2, help="largest number of batch processes")
    ap.add_argument("--slices", type=int, default=5, help="rounds in which the jobs take turns in one process")
    ap.add_argument("--against", help="compare with this revision (a commit, tag or branch) instead")
    ap.add_argument("--rounds", type=int, default=4, help="with --against: processes per side")
    ap.add_argument("--parts", action="store_true", help="time the parts of a step instead")
    ap.add_argument("--instructions", action="store_true",
                    help="with --against: count each side's instructions under callgrind (--hands bare AEC hands)")
    ap.add_argument("--hands", type=int, default=20, help="with --instructions: hands counted")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    encoders = [e for e in args.encoders.split(",") if e]
    if args.child:
        print(json.dumps(rates(args.steps, args.preset, encoders, args.batch, args.slices)))
        return
    if args.against:
        (instructions_against if args.instructions else against)(args.against, args)
        return
    if args.parts:
        print_parts(args.steps, args.preset, encoders)
        return
    measured = rates(args.steps, args.preset, encoders, args.batch, args.slices)
    print(f"chuanma.env, {args.preset}: steps per CPU second, the jobs interleaved in {args.slices} rounds "
          f"(load average {os.getloadavg()[0]:.1f}):")
    print_rates(measured, encoders)
    for w in range(1, args.workers + 1):
        rate = batch_workers(w, args.steps, args.preset, encoders[0], args.batch)
        print(f"  batch of {args.batch} ({encoders[0]}) in {w} process(es): {rate:10,.0f} steps/s")


if __name__ == "__main__":
    main()
