"""Import time of ``chuanma.analysis`` and the time of its first calls, each run in a fresh process.

Run: ``python benchmarks/bench_import.py [--src DIR] [--runs N] [--first NAME] [--fresh-home]``.
Every run starts a new interpreter with ``PYTHONPATH=DIR`` (default: this repository's ``src``),
which times ``import chuanma.analysis``, then the first call of ``shanten``, ``waits`` and
``is_win`` (``--first`` chooses which comes first: that call loads the tables), then one more
call. Prints the median and the minimum over the runs, in ms, with the whole process's wall time.
With ``--fresh-home`` every process gets its own empty home directory (``HOME``, and no
``XDG_CACHE_HOME``), so a version that keeps its tables in the home directory builds them again.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = """
import json, sys, time
start = time.perf_counter()
import chuanma.analysis as analysis
imported = time.perf_counter()
from chuanma.tiles import parse_tiles, to_counts
ready = to_counts(parse_tiles("1112345678999m"))
hands = {"shanten": (analysis.shanten, ready), "waits": (analysis.waits, ready),
         "is_win": (analysis.is_win, to_counts(parse_tiles("11123456789999m")))}
order = sys.argv[1:]
times = {"import": imported - start}
for name in order:
    fn, counts = hands[name]
    t = time.perf_counter()
    fn(counts)
    times[name] = time.perf_counter() - t
t = time.perf_counter()
hands[order[0]][0](hands[order[0]][1])
times["again"] = time.perf_counter() - t
print(json.dumps(times))
"""
CALLS = ("shanten", "waits", "is_win")


def run_once(src: Path, first: str, fresh_home: bool) -> dict[str, float]:
    """One fresh process: its own timings and its wall time, in seconds."""
    env = {k: v for k, v in os.environ.items() if k != "XDG_CACHE_HOME"}
    env["PYTHONPATH"] = str(src)
    order = [first, *(c for c in CALLS if c != first)]
    with tempfile.TemporaryDirectory() as home:
        if fresh_home:
            env["HOME"] = home
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", CHILD, *order], env=env, capture_output=True, text=True,
                             check=True).stdout
        wall = time.perf_counter() - start
    return {**json.loads(out), "process": wall}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parent.parent / "src")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--first", choices=CALLS, default="shanten")
    parser.add_argument("--fresh-home", action="store_true")
    args = parser.parse_args()
    runs = [run_once(args.src, args.first, args.fresh_home) for _ in range(args.runs)]
    home = "an empty home" if args.fresh_home else "the usual home"
    print(f"{args.runs} fresh processes, chuanma from {args.src}, {home}; ms, median (min)")
    labels = {"import": "import", **{c: f"first {c}" for c in CALLS}, "again": f"{args.first} again",
              "process": "whole process"}
    for key in runs[0]:
        values = [r[key] * 1e3 for r in runs]
        print(f"  {labels[key]:16} {statistics.median(values):9.3f} ({min(values):.3f})")


if __name__ == "__main__":
    main()
