"""Profile a running server for chosen seconds only (standard library only).

    python benchmarks/profiler.py OUT.prof -m chuanma serve ...

runs the module like ``python -m``; ``SIGUSR1`` switches :mod:`cProfile` on in the main thread
(the event loop: tables, connections, SQLAlchemy) and off again, so a benchmark profiles its
measured seconds only (``bench_server.py --profile``). It also counts every thread's CPU time
while on, since the database driver works in threads of its own. On exit it writes the
profile to OUT.prof and the CPU seconds by thread to OUT.prof.json.
"""

from __future__ import annotations

import cProfile
import json
import os
import runpy
import signal
import sys
import threading
import time
from collections import Counter
from pathlib import Path


def thread_cpu() -> dict[int, float]:
    """CPU seconds (user + system) of every thread of this process, by native thread id."""
    out = {}
    for task in Path("/proc/self/task").iterdir():
        fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        out[int(task.name)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def thread_name(native_id: int) -> str:
    for t in threading.enumerate():
        if t.native_id == native_id:
            return "main" if t is threading.main_thread() else t.name.split("-")[0].split(" ")[0]
    return "ended"


class Switch:
    def __init__(self) -> None:
        self.profile = cProfile.Profile(time.process_time)  # CPU time, not waits for the machine
        self.on = False
        self.cpu: Counter[str] = Counter()
        self.cpu_at: dict[int, float] = {}

    def toggle(self, _signum: int, _frame: object) -> None:
        now = thread_cpu()
        if self.on:
            self.profile.disable()
            for tid, seconds in now.items():
                self.cpu[thread_name(tid)] += seconds - self.cpu_at.get(tid, 0.0)
        else:
            self.cpu_at = now
            self.profile.enable()
        self.on = not self.on


def main() -> None:
    out, module, args = sys.argv[1], sys.argv[3], sys.argv[4:]
    switch = Switch()
    signal.signal(signal.SIGUSR1, switch.toggle)
    sys.argv = [module, *args]
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    finally:
        switch.profile.disable()
        switch.profile.dump_stats(out)
        Path(out + ".json").write_text(json.dumps({n: round(c, 2) for n, c in switch.cpu.items()}))


if __name__ == "__main__":
    main()
