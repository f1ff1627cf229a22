"""The engine and the simulator of this checkout against another revision's, side by side.

Checks the other revision out into a temporary git worktree and measures, in fresh processes
alternating between the two sides, the CPU time each process spends (``time.process_time``: time
the process waits for a core on a busy machine is not counted, so both sides are measured alike):

- engine: complete 血战 hands per second with uniformly random legal decisions (``to_act``,
  ``legal_actions``, ``apply``), one process, no bots;
- greedy: complete hands per second of the simulator with four ``greedy`` bots (each decision
  reads the seat's view), one process.

Each figure is given for the loop alone and for the whole process (its start-up and imports, such
as tables loaded at import, counted too), and warm: the same hands played again in the same
process (the simulator's with new bots), so that nothing met in the first pass (a table look-up,
a cached choice) is new.
Each job also runs with its tables loaded first: the process makes one win check, one shanten and
one look-ahead evaluator before the loop starts. A revision that loads its tables at import has
them already (those calls then cost nothing); one that loads them on first use otherwise pays
that load inside the loop, so only these figures compare the two sides' play alone.

With ``--instructions`` each side's loop runs once under valgrind's callgrind instead, which
counts the machine instructions it executes: a figure that does not move from run to run, however
busy the machine, for telling small changes apart (an instruction is not a fixed time, so the
timed figures remain the measure of speed). Its ratio is the other side's count over this
checkout's: above 1, this checkout executes fewer.

    python benchmarks/bench_revisions.py --against f5c68ee [--rounds 3] [--hands 400]
    python benchmarks/bench_revisions.py --against f5c68ee --instructions --hands 100
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def source_env(src: Path) -> dict[str, str]:
    """The environment of a measuring process that imports chuanma from ``src``: ``PYTHONPATH``, and
    an editable install's import redirect switched off (it would import the installed checkout
    whatever ``PYTHONPATH`` says)."""
    redirects = [f for f in sys.meta_path if type(f).__name__ == "ScikitBuildRedirectingFinder"]
    editable = [str(getattr(f, "path", "")) for f in redirects]
    return {"PYTHONPATH": str(src), "SKBUILD_EDITABLE_SKIP": os.pathsep.join(editable)}

PRELOAD = """
from chuanma.analysis import is_win, shanten
is_win(bytes(27)); shanten(bytes([1] * 13 + [0] * 14))
try:  # revisions before the look-ahead evaluator have none to load
    from chuanma.analysis.incremental import HandEval
except ImportError:
    pass
else:
    HandEval([1] * 13 + [0] * 14, None)  # a hand it takes (13 tiles)
"""

ENGINE = """
import random, time
from chuanma.engine import Game
from chuanma.rules import RuleSet
rules = RuleSet.from_preset("xuezhan")
try:  # revisions before the tile set was the rules' have full_wall
    from chuanma.tiles import SICHUAN_TILES
    base = SICHUAN_TILES.wall()
except ImportError:
    from chuanma.tiles import full_wall
    base = full_wall()
n = {hands}
def play():
    rng = random.Random(1)
    for _ in range(n):
        wall = base[:]
        rng.shuffle(wall)
        g = Game(rules, wall, rng.randrange(4), rng.choice(("to_next", "opposite", "to_previous")))
        while not g.finished:
            seat = rng.choice(g.to_act())
            g.apply(seat, rng.choice(g.legal_actions(seat)))
"""

GREEDY = """
import time
from chuanma.bots import make_bot
from chuanma.rules import RuleSet
from chuanma.sim.play import bot_seed, deal_for, play_hand
rules = RuleSet.from_preset("xuezhan")
n = {hands}
tile_set = getattr(rules, "tiles", False)  # revisions before the tile set was the rules' took honors
deals = [deal_for(1, i, tile_set) for i in range(n)]
def play():
    for i, deal in enumerate(deals):
        play_hand(rules, deal, [make_bot("greedy", bot_seed(1, i, s)) for s in range(4)])
"""

TIMED = """
start = time.process_time()
play()
loop, whole = n / (time.process_time() - start), n / time.process_time()
start = time.process_time()
play()
print(loop, whole, n / (time.process_time() - start))
"""
"""After a job's definitions: the loop timed fresh (and over the whole process), then warm."""

COUNTED = """
eval("play()")
"""
"""After a job's definitions: the loop, fresh, as the only code that :func:`instructions` counts
(callgrind counts inside the C function of ``eval`` alone)."""


def child(command: list[str], src: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Run a measuring process on ``src``; one that fails ends the benchmark with its error."""
    done = subprocess.run(command, env={**source_env(src), **env}, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"a measuring process on {src} failed:\n{done.stderr[-3000:]}")
    return done


def run(src: Path, code: str) -> list[float]:
    """Hands per CPU second of the loop alone, of the whole process (start-up and imports
    included: what a fresh worker costs), and of the warm loop: ``code`` is a job's definitions."""
    out = child([sys.executable, "-c", code + TIMED], src)
    return [float(x) for x in out.stdout.strip().splitlines()[-1].split()]


def need_valgrind() -> None:
    """End the benchmark with a clear message if ``--instructions`` cannot run."""
    if shutil.which("valgrind") is None:
        sys.exit("--instructions needs valgrind (apt-get install valgrind)")


def instructions(src: Path, code: str) -> int:
    """The machine instructions the fresh loop of ``code`` (a job's definitions) executes, counted
    by valgrind's callgrind: the same on every run of the same code, however busy the machine
    (though not a time: an instruction may take more or less)."""
    need_valgrind()
    with tempfile.TemporaryDirectory() as tmp:
        out = child(["valgrind", "--tool=callgrind", "--toggle-collect=builtin_eval",
                     f"--callgrind-out-file={tmp}/out", sys.executable, "-c", code + COUNTED], src,
                    PYTHONHASHSEED="0")
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None or found.group(1) == "0":
        sys.exit("callgrind counted nothing (a Python without the symbol builtin_eval?):\n" + out.stderr[-2000:])
    return int(found.group(1))


def add_job_options(parser: argparse.ArgumentParser) -> None:
    """The options of how the jobs run: ``--rounds``, ``--hands``, ``--instructions``."""
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hands", type=int, default=400, help="hands per engine run (greedy runs a quarter)")
    parser.add_argument("--instructions", action="store_true",
                        help="count each side's instructions once under valgrind instead of timing it "
                             "(the same on any run: for a busy machine; use --hands 100, valgrind runs ~50x slower)")


@contextmanager
def checkout(revision: str) -> Iterator[Path]:
    """The ``src`` directory of ``revision``, checked out into a temporary git worktree (its compiled
    core, if it has one, built there)."""
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "other"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(other), revision],
                       check=True)
        try:
            if (other / "src" / "native").is_dir():
                subprocess.run([str(other / "scripts" / "build-native"), sys.executable], check=True)
            yield other / "src"
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)], check=False)


def alternating(revision: str, rounds: int, script: str, here: list[str], there: list[str]) -> tuple[
        list[Any], list[Any]]:
    """Run ``script`` in fresh processes alternating between this checkout (with arguments ``here``)
    and ``revision`` (``there``), ``rounds`` each, the order turning each round; the JSON each
    process printed, this checkout's and the revision's."""
    figures: tuple[list[Any], list[Any]] = ([], [])
    with checkout(revision) as other:
        sides = [(0, ROOT / "src", here), (1, other, there)]
        for r in range(rounds):
            for side, src, args in sides if r % 2 == 0 else sides[::-1]:
                out = subprocess.run([sys.executable, script, *args], env=source_env(src),
                                     capture_output=True, text=True, check=True)
                figures[side].append(json.loads(out.stdout))
            print(f"round {r + 1} of {rounds} done", file=sys.stderr)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", required=True, help="the other revision (a commit, tag or branch)")
    add_job_options(parser)
    args = parser.parse_args()
    with checkout(args.against) as other:
        sides = {"this checkout": ROOT / "src", args.against: other}
        engine, greedy = ENGINE.format(hands=args.hands), GREEDY.format(hands=max(1, args.hands // 4))
        jobs = {"engine (random decisions)": engine, "engine, tables loaded first": PRELOAD + engine,
                "simulator (4 greedy bots)": greedy, "simulator, tables loaded first": PRELOAD + greedy}
        if args.instructions:
            need_valgrind()
            # the ratio is theirs / ours: above 1, this checkout executes fewer instructions
            print(f"{'instructions, the loop':48} {'this checkout':>16} {args.against:>16} {'ratio':>7}")
            for job, code in jobs.items():
                here, there = (instructions(src, code) for src in sides.values())
                print(f"{job:48} {here:>16,} {there:>16,} {there / here:>6.2f}×")
            return
        figures: dict[tuple[str, str], list[list[float]]] = {}
        for r in range(args.rounds):
            for job, code in jobs.items():
                for side, src in (sides.items() if r % 2 == 0 else reversed(sides.items())):
                    figures.setdefault((job, side), []).append(run(src, code))
            print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    print(f"{'':48} {'this checkout':>16} {args.against:>16} {'ratio':>7}")
    for job in jobs:
        for i in range(len(figures[(job, args.against)][0])):
            what = ("the loop", "whole process", "the loop, warm")[i]
            mine = [f[i] for f in figures[(job, "this checkout")]]
            theirs = [f[i] for f in figures[(job, args.against)]]
            span = [f"{min(v):,.0f}–{max(v):,.0f}/s" for v in (mine, theirs)]
            ratio = statistics.median(mine) / statistics.median(theirs)
            print(f"{job + ', ' + what:48} {span[0]:>16} {span[1]:>16} {ratio:>6.2f}×")


if __name__ == "__main__":
    main()
