"""What compiling the engine with mypyc would give: this checkout compiled against itself as Python.

chuanma ships no compiled modules; this measures the one route to a much faster engine that keeps
one source (the code is ``mypy --strict`` clean, which is what mypyc compiles), so that the choice
rests on figures. It copies this checkout's ``src`` into temporary directories, compiles a set of
modules in each with mypyc (it needs the ``dev`` extra's mypy and a C compiler: one to three
minutes a set), then runs the engine and simulator jobs of ``bench_revisions.py`` with the tables loaded first
(the loop alone, CPU time) in fresh processes, alternating between the sides, or with
``--instructions`` counts each side's instructions once. The sets:

- ``core``: the rule modules of the engine and the win check: compiled, they pass the tests of
  the engine, the bots, the environments and the sessions as the Python does;
- ``wide``: every module of ``chuanma.engine`` and ``chuanma.analysis`` that mypyc compiles, with
  ``chuanma.tiles``, the greedy bot and the simulator's loop: fewer instructions still, but
  compiled code behaves differently in ways the tests catch.

``docs/engine.md`` (A compiled engine) has the figures and the differences.

    python benchmarks/bench_compiled.py [--sets core,wide] [--rounds 3] [--hands 400]
    python benchmarks/bench_compiled.py --instructions --hands 100
    python benchmarks/bench_compiled.py --sets core --keep /tmp/compiled --rounds 0   # then test it
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_revisions import ENGINE, GREEDY, PRELOAD, ROOT, add_job_options, instructions, need_valgrind, run

CORE = [
    *(f"chuanma/engine/{m}.py" for m in ("state", "claims", "wins", "tables", "wall")),
    "chuanma/analysis/hand.py",
]
LEFT_OUT = {
    "chuanma/engine/game.py",  # mypyc refuses Game.from_state's cls.__new__(cls)
}


def wide() -> list[str]:
    """Every module of the engine and the analysis that mypyc compiles, and three more."""
    src = ROOT / "src"
    found = [p.relative_to(src).as_posix() for package in ("chuanma/engine", "chuanma/analysis")
             for p in sorted((src / package).glob("*.py")) if p.name != "__init__.py"]
    return [m for m in found if m not in LEFT_OUT] + ["chuanma/tiles.py", "chuanma/bots/greedy.py",
                                                      "chuanma/sim/play.py"]


SETS: dict[str, list[str]] = {"core": CORE, "wide": wide()}


def compile_copy(name: str, modules: list[str], into: Path) -> Path:
    """A copy of this checkout's ``src`` in ``into`` with ``modules`` compiled in place."""
    src = into / "src"
    shutil.copytree(ROOT / "src", src, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info"))
    print(f"compiling the {name} set ({len(modules)} modules) with mypyc...", file=sys.stderr)
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "mypyc", *modules], cwd=src, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"mypyc could not compile the {name} set:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    print(f"  compiled in {time.monotonic() - start:.0f} s", file=sys.stderr)
    return src


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", default="core,wide", help="comma-separated: " + ", ".join(SETS))
    add_job_options(parser)
    parser.add_argument("--keep", metavar="DIR", type=Path,
                        help="compile into DIR/<set>/src and keep it (to run the tests on it: "
                             "PYTHONPATH=DIR/core/src pytest ...); with --rounds 0, only compile")
    args = parser.parse_args()
    names = list(dict.fromkeys(s for s in args.sets.split(",") if s))
    unknown = [s for s in names if s not in SETS]
    if unknown or not names:
        parser.error(f"unknown set {', '.join(unknown) or '(none)'}: choose from {', '.join(SETS)}")
    if args.keep is not None and any((args.keep / name).exists() for name in names):
        parser.error(f"{args.keep} already holds a compiled set: give an empty or new directory")
    if args.instructions:
        need_valgrind()
    with tempfile.TemporaryDirectory() as tmp:
        sides = {"Python": ROOT / "src"}
        for name in names:
            sides[name] = compile_copy(name, SETS[name], (args.keep or Path(tmp)) / name)
        # the tables loaded first: what is compared is the play, not a first load of the tables
        jobs = {"engine (random decisions)": PRELOAD + ENGINE.format(hands=args.hands),
                "simulator (4 greedy bots)": PRELOAD + GREEDY.format(hands=max(1, args.hands // 4))}
        if args.instructions:
            print(f"{'instructions, the loop':32}" + "".join(f"{s:>28}" for s in sides))
            for job, code in jobs.items():
                counts = [instructions(src, code) for src in sides.values()]
                cells = [f"{counts[0]:,}"] + [f"{c:,} ({counts[0] / c:.2f}× fewer)" for c in counts[1:]]
                print(f"{job:32}" + "".join(f"{c:>28}" for c in cells))
            return
        figures: dict[tuple[str, str], list[list[float]]] = {}
        order = list(sides.items())
        for r in range(args.rounds):
            for job, code in jobs.items():
                for side, src in order[r % len(order):] + order[: r % len(order)]:
                    figures.setdefault((job, side), []).append(run(src, code))
            print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    if not figures:
        return
    print(f"{'hands per CPU second':40}" + "".join(f"{s:>28}" for s in sides))
    for job in jobs:
        for i, what in ((0, "the loop"), (2, "the loop, warm")):
            python = statistics.median(f[i] for f in figures[(job, "Python")])
            cells = []
            for side in sides:
                v = [f[i] for f in figures[(job, side)]]
                ratio = "" if side == "Python" else f" {statistics.median(v) / python:.2f}×"
                cells.append(f"{min(v):,.0f}–{max(v):,.0f}/s{ratio}")
            print(f"{job + ', ' + what:40}" + "".join(f"{c:>28}" for c in cells))


if __name__ == "__main__":
    main()
