"""Which toolchain for a native rules core: the same small kernel built and measured in each.

The kernel (``benchmarks/toolchains/``, the same algorithm in each language) is a win check of a
hand given as 34 tile counts (n sets and a pair, or seven pairs) and a table — four hands of
counts, a wall of the 108 tiles, a turn — stepped as the engine's loop would: the seat to act
draws, the win is checked, the seat discards the tile the action names (or its first tile), the
turn passes; a won or drawn hand deals again. Each module offers ``is_win(bytes)``,
``Table(seed).step(action) -> int`` and ``Batch(n, seed).step(actions, obs, rewards)``, which
steps n tables per call with the actions in a NumPy ``int32`` array and writes each table's hand
to act into a preallocated ``uint8`` array and the results into an ``int8`` one. Candidates:

- ``C++17/nanobind``: built by scikit-build-core and CMake, stubs generated at build time by
  nanobind's stubgen;
- ``Cython``: the kernel written in Cython, built by setuptools, a hand-written ``.pyi``;
- ``C API``: plain C against the CPython C API, built by setuptools, a hand-written ``.pyi``.

(Rust is not a candidate: crates.io is out of reach and Debian packages no NumPy crate for the
PyO3 0.17 it has; see docs/engine.md.)

Each candidate is built from a clean copy of its sources with ``pip --isolated wheel`` (its build
requirements come from PyPI in pip's isolated build environment, the compiler from the machine),
and its wheel is unpacked into a temporary directory. Then, in fresh processes, the candidates
(and chuanma's pure-Python ``is_win``, for scale) take turns, round after round; each process
times every job five times (CPU time, the best of the five) and the table shows the median
over the rounds. The processes also return checksums of what they computed, which must agree
across the candidates (and with chuanma's win check on the same hands). Instructions per call
are counted under valgrind's callgrind (``--no-instructions`` skips them), and mypy
``--strict`` checks a small caller against each candidate's stubs (that a wrong call is caught).

    python benchmarks/bench_toolchains.py [--rounds 5] [--hands 20000] [--calls 100]
"""

from __future__ import annotations

import os

# one thread for NumPy's BLAS in every process, the counted ones too: its idle threads spin,
# and callgrind would count their spinning
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import importlib
import json
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

import numpy as np

from bench_revisions import ROOT, instructions

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "toolchains"
MARKER = "glue: the Python bindings"
BATCH = 1024
PYTHON = "chuanma.analysis"
JOBS = ("call", "is_win", "step", "batch")
PYTHON_JOBS = JOBS[:2]  # chuanma's analysis has the win check only


class Figure(TypedDict):
    """A job's figures from one measuring process."""

    ns: float
    sums: list[int]


Runs = dict[str, list[dict[str, Figure]]]
"""Each side's measuring processes: their figures by job."""


@dataclass(frozen=True)
class Candidate:
    """One toolchain: its source directory, module, kernel source, build files and how it gets stubs."""

    name: str
    directory: str
    module: str
    source: str
    build_files: tuple[str, ...]
    needs: str
    stubs: str


CANDIDATES = (
    Candidate("C++17/nanobind", "nanobind", "kernel_cpp", "kernel_cpp.cpp", ("pyproject.toml", "CMakeLists.txt"),
              "scikit-build-core, nanobind (PyPI); CMake ≥ 3.15 (PyPI's cmake if the system has none); g++",
              "generated (nanobind stubgen, at build)"),
    Candidate("Cython", "cython", "kernel_cy", "kernel_cy.pyx", ("pyproject.toml", "setup.py"),
              "setuptools, Cython (PyPI); gcc", "hand-written .pyi"),
    Candidate("C API", "capi", "kernel_c", "kernel_c.c", ("pyproject.toml", "setup.py"),
              "setuptools (PyPI); gcc", "hand-written .pyi"),
)


def sample_hands(n: int, seed: int) -> list[bytes]:
    """``n`` hands of 34 counts (the suited 27 kinds only): alternately 14 tiles drawn from the
    108 and a winning hand of four random sets and a pair."""
    rng = random.Random(seed)
    wall = [k for k in range(27) for _ in range(4)]
    hands: list[bytes] = []
    while len(hands) < n:
        counts = [0] * 34
        if len(hands) % 2 == 0:
            for k in rng.sample(wall, 14):
                counts[k] += 1
        else:
            for _ in range(4):
                if rng.random() < 0.4:
                    counts[rng.randrange(27)] += 3
                else:
                    first = 9 * rng.randrange(3) + rng.randrange(7)
                    for k in range(first, first + 3):
                        counts[k] += 1
            counts[rng.randrange(27)] += 2
            if max(counts) > 4:
                continue
        hands.append(bytes(counts))
    return hands


def jobs(module: str, hands: int, calls: int) -> dict[str, Callable[[], int]]:
    """The measured jobs of ``module`` (a candidate's, or chuanma's analysis: its win check only),
    each returning a checksum of what it computed."""
    kernel = importlib.import_module(module)
    is_win = kernel.is_win
    sample = sample_hands(hands, 7)
    is_win(sample[0])  # chuanma loads its tables on first use
    empty = [bytes(34)] * hands  # no tiles: the call and the kernel's count of the tiles, little more
    found: dict[str, Callable[[], int]] = {"call": lambda: sum(map(is_win, empty)),
                                           "is_win": lambda: sum(map(is_win, sample))}
    if module == PYTHON:
        return found
    rng = np.random.default_rng(11)
    step = kernel.Table(1).step
    actions = [int(a) for a in rng.integers(0, 34, hands)]
    batch = kernel.Batch(BATCH, 1)
    table_actions = rng.integers(0, 34, (calls, BATCH), dtype=np.int32)
    obs = np.zeros((BATCH, 34), np.uint8)
    rewards = np.zeros(BATCH, np.int8)

    def play_batch() -> int:
        for row in table_actions:
            batch.step(row, obs, rewards)
        return zlib.crc32(obs.tobytes() + rewards.tobytes())

    found["step"] = lambda: sum(map(step, actions))
    found["batch"] = play_batch
    return found


def child(module: str, hands: int, calls: int) -> None:
    """A measuring process: print each job's best CPU ns per unit (a call, a step) of five runs and
    its checksums, as JSON."""
    units = {"call": hands, "is_win": hands, "step": hands, "batch": calls * BATCH}
    out: dict[str, Figure] = {}
    for job, play in jobs(module, hands, calls).items():
        times, sums = [], []
        for _ in range(5):
            start = time.process_time_ns()
            sums.append(play())
            times.append(time.process_time_ns() - start)
        out[job] = {"ns": min(times) / units[job], "sums": sums}
    print(json.dumps(out))


@dataclass
class Built:
    """A candidate built: where its wheel is unpacked and what the build took."""

    site: Path
    seconds: float
    cpu_seconds: float
    so_kb: float
    stripped_kb: float


def children_cpu() -> float:
    """CPU seconds (user and system) spent so far by this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build(candidate: Candidate, tmp: Path) -> Built:
    """Build ``candidate``'s wheel from a clean copy of its sources and unpack it."""
    source = tmp / "src" / candidate.directory
    shutil.copytree(SOURCES / candidate.directory, source)
    wheels, site = tmp / "wheels" / candidate.directory, tmp / "site" / candidate.directory
    start, cpu = time.perf_counter(), children_cpu()
    done = subprocess.run([sys.executable, "-m", "pip", "--isolated", "wheel", "-q", "--no-deps", "-w", str(wheels),
                           str(source)], capture_output=True, text=True)
    seconds, cpu_seconds = time.perf_counter() - start, children_cpu() - cpu
    if done.returncode != 0:
        sys.exit(f"{candidate.name} did not build:\n{done.stdout[-2000:]}{done.stderr[-3000:]}")
    (wheel,) = wheels.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    (so,) = site.glob(f"{candidate.module}.*.so")
    stripped = tmp / f"{candidate.module}.stripped.so"
    subprocess.run(["strip", "--strip-unneeded", "-o", str(stripped), str(so)], check=True)
    return Built(site, seconds, cpu_seconds, so.stat().st_size / 1024, stripped.stat().st_size / 1024)


def measure(module: str, site: Path | None, hands: int, calls: int) -> dict[str, Figure]:
    """One fresh measuring process on ``module``."""
    path = os.pathsep.join([*([str(site)] if site else []), str(ROOT / "src")])
    done = subprocess.run([sys.executable, __file__, "--child", module, "--hands", str(hands), "--calls", str(calls)],
                          env={"PYTHONPATH": path}, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"measuring {module} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Figure] = json.loads(done.stdout)
    return result


def counted(module: str, site: Path | None, job: str, hands: int, calls: int) -> float:
    """Instructions per unit of ``job`` (a call, a step), counted by callgrind: the difference
    between a run of twice the units and a run of the units, over the units (what a run costs
    whatever its length cancels out)."""
    # instructions() sets PYTHONPATH to the path it is given: the unpacked wheel and chuanma's src
    path = Path(os.pathsep.join([*([str(site)] if site else []), str(ROOT / "src")]))
    runs = [instructions(path, f"import sys\nsys.path.insert(0, {str(HERE)!r})\nfrom bench_toolchains import jobs\n"
                                f"play = jobs({module!r}, {k * hands}, {k * calls})[{job!r}]\n") for k in (1, 2)]
    return (runs[1] - runs[0]) / (calls * BATCH if job == "batch" else hands)


CALLER = """import numpy as np
import {module} as k

won: bool = k.is_win(bytes(34))
result: int = k.Table(1).step(3)
k.Batch(4, 1).step(np.zeros(4, np.int32), np.zeros((4, 34), np.uint8), np.zeros(4, np.int8))
k.is_win("not bytes")
"""


def stubs_check(candidate: Candidate, site: Path, tmp: Path) -> str:
    """Whether mypy --strict passes a right caller and catches the one wrong call of :data:`CALLER`."""
    stubs = tmp / "stubs" / candidate.directory
    stubs.mkdir(parents=True)
    if not (site / f"{candidate.module}.pyi").exists():
        shutil.copy(SOURCES / "kernel.pyi", stubs / f"{candidate.module}.pyi")
    caller = stubs / "caller.py"
    caller.write_text(CALLER.format(module=candidate.module))
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--config-file", os.devnull,
                           str(caller)], env={**os.environ, "MYPYPATH": os.pathsep.join([str(stubs), str(site)])},
                          capture_output=True, text=True)
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    return "caught" if len(errors) == 1 and "caller.py:7:" in errors[0] else "; ".join(errors) or "missed"


def lines(path: Path) -> int:
    """Non-blank lines of ``path``."""
    return sum(1 for line in path.read_text().splitlines() if line.strip())


def glue_lines(candidate: Candidate) -> tuple[int, int, int]:
    """Non-blank lines of the kernel, of its Python bindings (after the marker) and of its build
    files and hand-written stub."""
    text = (SOURCES / candidate.directory / candidate.source).read_text().splitlines()
    cut = next(i for i, line in enumerate(text) if MARKER in line)
    kernel, glue = (sum(1 for line in part if line.strip()) for part in (text[:cut], text[cut + 1:]))
    other = sum(lines(SOURCES / candidate.directory / f) for f in candidate.build_files)
    if candidate.stubs.startswith("hand-written"):
        other += lines(SOURCES / "kernel.pyi")
    return kernel, glue, other


def agree(figures: Runs) -> None:
    """End the benchmark if the candidates computed different results from the same input."""
    for job in JOBS:
        sums = {name: runs[0][job]["sums"] for name, runs in figures.items() if job in runs[0]}
        if len({json.dumps(s) for s in sums.values()}) != 1:
            sys.exit(f"the candidates disagree on {job}: {sums}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hands", type=int, default=20000, help="win checks and Python-driven steps per run")
    parser.add_argument("--calls", type=int, default=100, help=f"batch calls of {BATCH} tables per run")
    parser.add_argument("--no-instructions", action="store_true", help="skip the callgrind counts")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.hands, args.calls)
        return
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        built = {c.name: build(c, tmp) for c in CANDIDATES}
        print("built: " + ", ".join(f"{n} {b.seconds:.0f} s" for n, b in built.items()), file=sys.stderr)
        sides: list[tuple[str, str, Path | None]] = [(c.name, c.module, built[c.name].site) for c in CANDIDATES]
        sides.append(("Python (chuanma.analysis)", PYTHON, None))
        figures: Runs = {name: [] for name, _, _ in sides}
        for r in range(args.rounds):
            for name, module, site in sides[r % len(sides):] + sides[:r % len(sides)]:
                figures[name].append(measure(module, site, args.hands, args.calls))
            print(f"round {r + 1} of {args.rounds} done, load {os.getloadavg()[0]:.2f}", file=sys.stderr)
        agree(figures)
        counts = {} if args.no_instructions else {
            (name, job): counted(module, site, job, min(args.hands, 2000), min(args.calls, 5))
            for name, module, site in sides for job in (JOBS if site else PYTHON_JOBS)}
        checks = {c.name: stubs_check(c, built[c.name].site, tmp) for c in CANDIDATES}
    print(f"load average after: {os.getloadavg()[0]:.2f}", file=sys.stderr)

    def median(name: str, job: str) -> float:
        return statistics.median(run[job]["ns"] for run in figures[name])

    print(f"{'candidate':26} {'ns/call':>8} {'ns/is_win':>10} {'ns/step':>8} {'batch steps/s':>14} "
          f"{'build s (CPU)':>14} {'.so KB (stripped)':>18} {'kernel/glue/build lines':>24}  "
          "stubs (mypy --strict on a wrong call)")
    for c in CANDIDATES:
        b = built[c.name]
        kernel, glue, other = glue_lines(c)
        print(f"{c.name:26} {median(c.name, 'call'):>8.0f} {median(c.name, 'is_win'):>10.0f} "
              f"{median(c.name, 'step'):>8.0f} {1e9 / median(c.name, 'batch'):>14,.0f} "
              f"{f'{b.seconds:.0f} ({b.cpu_seconds:.0f})':>14} "
              f"{b.so_kb:>8.0f} ({b.stripped_kb:>5.0f}) "
              f"{f'{kernel}/{glue}/{other}':>24}  {c.stubs}: {checks[c.name]}")
    python = sides[-1][0]
    print(f"{python:26} {median(python, 'call'):>8.0f} {median(python, 'is_win'):>10.0f}")
    if counts:
        print(f"\n{'instructions per unit':26} {'call':>8} {'is_win':>10} {'step':>8} {'batch step':>14}")
        for name, _, _ in sides:
            row = [f"{counts[(name, job)]:,.0f}" if (name, job) in counts else "" for job in JOBS]
            print(f"{name:26} {row[0]:>8} {row[1]:>10} {row[2]:>8} {row[3]:>14}")
    print("\nneeds to build: " + "; ".join(f"{c.name}: {c.needs}" for c in CANDIDATES))


if __name__ == "__main__":
    main()
