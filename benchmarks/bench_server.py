"""The server under load: N concurrent tables, each with one WebSocket client and three bots.

Starts ``chuanma serve`` in a subprocess (SQLite in a temporary directory, or ``--db``), opens
``--tables`` private tables with three bot seats each, and connects one client per table (the
load generator, in this process). Each client answers its prompts after ``--think`` seconds
(``0``: at once) with a random legal decision (a win when it can), and gets ready for the next
hand at once. Reports hands per minute, the p50/p99 latency from sending a decision to receiving
its events, the server's memory per table (and its growth while measured) and its garbage
collector's pauses (from ``/metrics``); with ``--think 0`` also the in-process simulator's
hands per minute with the same bots, so the server's overhead is a ratio. Then it audits the
database: the sum of balances equals the grants, no balance is negative, every hand sums to zero.
A client that fails is reported at once (with its traceback) and counted in the result, and so are
the server's logged warnings and errors; any of them, or a failed audit, makes the exit status 1.

    python benchmarks/bench_server.py --tables 500 --think 1 --seconds 60
    python benchmarks/bench_server.py --tables 8 --think 0 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pstats
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from chuanma.server.store import open_store, sqlite_url
from chuanma.tiles import SICHUAN_TILES

HANDS_PER_TABLE = 64
MAX_WARMUP = 180.0
"""The longest the warm-up waits for every table to deal its first hand."""
KEEPALIVE_SECONDS = 1.0
"""How long the clients' HTTP pool keeps an idle connection: well under the server's 5 s (uvicorn's
``timeout_keep_alive``). At equal timeouts a request sent on a connection the server is closing
fails (``ReadError``, ``RemoteProtocolError``), and its client with it."""


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User and system CPU time of process ``pid``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / os.sysconf("SC_CLK_TCK"), int(fields[12]) / os.sysconf("SC_CLK_TCK")


LOAD_OPTIONS = ("--auth-per-minute", "10000", "--guests-per-hour", "10000", "--grants-per-day", "10000",
                "--private-tables-per-hour", "10000", "--turn-seconds", "600", "--claim-seconds", "600")
"""The server's options under load: no login, guest or private-table limit in the way, timers that
never run out (the message limit stays: it allows every answer the server asks for)."""
SRC = Path(__file__).resolve().parents[1] / "src"


def start_server(data: Path, db: str | None, profile: str | None, log: Path,
                 options: Sequence[str] = LOAD_OPTIONS) -> tuple[subprocess.Popen[str], str]:
    """This checkout's server in a subprocess with ``options``, its log (stderr) appended to ``log``;
    returns it and its address."""
    python = [sys.executable, str(Path(__file__).with_name("profiler.py")), profile] if profile else [sys.executable]
    cmd = [*python, "-m", "chuanma", "serve", "--port", "0", "--data", str(data), *options]
    if db:
        cmd += ["--db", db]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(SRC), os.environ.get("PYTHONPATH"))))}
    with log.open("a") as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = re.search(r"http://[\d.]+:\d+", line)
    if not found:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, found.group(0)


class Load:
    """The clients: each plays until it is cancelled; cheap, since it shares the machine's cores."""

    def __init__(self, base: str, think: float) -> None:
        self.base, self.think = base, think
        self.latencies: list[float] = []
        self.hands = 0
        self.dealt: set[int] = set()
        """The clients whose table has dealt its first hand (the warm-up waits for all of them)."""
        self.failed: set[int] = set()
        """The clients that stopped with an error (each printed with its traceback when it happened)."""

    async def table(self, http: httpx.AsyncClient, seed: int) -> None:
        """One client: a private table with three bots, then another when its hands are played."""
        try:
            await self.play_tables(http, seed)
        except Exception:
            self.failed.add(seed)
            print(f"client {seed} failed ({'after' if seed in self.dealt else 'before'} its table dealt):\n"
                  f"{traceback.format_exc()}", file=sys.stderr, flush=True)

    async def play_tables(self, http: httpx.AsyncClient, seed: int) -> None:
        rng = random.Random(seed)
        response = await http.post("/api/guest")
        response.raise_for_status()
        token = response.json()["token"]
        auth = {"authorization": f"Bearer {token}"}
        async with connect(self.base.replace("http", "ws") + f"/ws?token={token}", max_size=1 << 22,
                           ping_interval=None) as ws:
            while True:
                response = await http.post("/api/tables", json={"preset": "xuezhan", "hands": HANDS_PER_TABLE,
                                                                "bots": 3}, headers=auth)
                response.raise_for_status()
                invite = response.json()["invite"]
                await ws.send(json.dumps({"type": "join_private", "v": 1, "invite": invite}))
                await self.play(ws, rng, seed)

    async def play(self, ws: ClientConnection, rng: random.Random, seed: int) -> None:
        sent: float | None = None
        while True:
            text = await ws.recv()
            # most messages are events, which this client only times: the server writes "type" first
            if text.startswith('{"type":"events"'):
                if sent is not None:
                    self.latencies.append(time.perf_counter() - sent)
                    sent = None
                continue
            msg: dict[str, Any] = json.loads(text)
            kind = msg["type"]
            if kind == "hand_start" and not msg.get("dealt"):
                await ws.send(json.dumps({"type": "ready", "v": 1}))
            elif kind == "hand_start":
                self.dealt.add(seed)
            elif kind == "hand_end":
                self.hands += 1
            elif kind == "table_closed":
                return
            elif kind == "prompt":
                if self.think:
                    await asyncio.sleep(self.think * rng.uniform(0.5, 1.5))
                wins = [a for a in msg["legal"] if "hu" in a]
                action = wins[0] if wins else rng.choice(msg["legal"])
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "v": 1, "table": msg["table"],
                                          "version": msg["version"], "action": action}))


def simulator_hands_per_minute(seconds: float) -> float:
    from chuanma.bots import make_bot
    from chuanma.rules import RuleSet
    from chuanma.sim.play import play_game, sim_hand

    rules = RuleSet.from_preset("xuezhan")
    start, n = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        play_game(rules, sim_hand(1, n, SICHUAN_TILES).deal(), [make_bot("greedy", s) for s in range(4)])
        n += 1
    return n / (time.perf_counter() - start) * 60


async def run(args: argparse.Namespace) -> dict[str, Any]:
    if args.url:
        return await measure(args, args.url, None)
    with tempfile.TemporaryDirectory() as data:
        log = Path(data) / "server.log"
        proc, base = start_server(Path(data), args.db, args.profile, log)
        try:
            out = await measure(args, base, proc.pid)
            proc.send_signal(signal.SIGINT)  # a clean stop (cProfile writes its stats)
            proc.wait()
            out["server_errors"] = server_errors(log)[0]
            out["audit"] = await audit(args.db or sqlite_url(Path(data)))
            if args.profile:
                print_profile(args.profile)
            if args.think == 0:
                sim = simulator_hands_per_minute(min(10.0, args.seconds))
                out["simulator_hands_per_minute"] = round(sim, 1)
                out["server_over_simulator"] = round(out["hands_per_minute"] / sim, 3)
            return out
        finally:
            proc.terminate()
            proc.wait()


async def measure(args: argparse.Namespace, base: str, pid: int | None) -> dict[str, Any]:
    """Drive the server at ``base`` (its process ``pid``, for memory and CPU) and measure."""
    idle = rss_kib(pid) if pid else 0
    load = Load(base, args.think)
    limits = httpx.Limits(max_connections=50, keepalive_expiry=KEEPALIVE_SECONDS)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as http:
        tasks = [asyncio.create_task(load.table(http, i)) for i in range(args.tables)]
        warmup = await warm_up([load], args.tables, args.warmup)
        gc0 = await gc_pauses(http)
        hands0, lat0, start = load.hands, len(load.latencies), time.monotonic()
        loaded = rss_kib(pid) if pid else 0
        cpu0 = cpu_seconds(pid) if pid else (0.0, 0.0)
        own0 = time.process_time()
        if pid and args.profile:
            os.kill(pid, signal.SIGUSR1)  # the profiler: on for the measured seconds
        await asyncio.sleep(args.seconds)
        if pid and args.profile:
            os.kill(pid, signal.SIGUSR1)
        elapsed = time.monotonic() - start
        cpu1 = cpu_seconds(pid) if pid else (0.0, 0.0)
        grown = rss_kib(pid) - loaded if pid else 0
        user, system = cpu1[0] - cpu0[0], cpu1[1] - cpu0[1]
        cpu = user + system if pid else None
        own = time.process_time() - own0  # this process: the load generator
        hands, lat = load.hands - hands0, load.latencies[lat0:]
        p50, p99 = latency_ms(lat)
        gc1 = await gc_pauses(http)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "tables": args.tables, "think_seconds": args.think, "warmup_seconds": round(warmup, 1),
        "tables_dealt": len(load.dealt), "client_failures": len(load.failed), "seconds": round(elapsed, 1),
        "hands_per_minute": round(hands / elapsed * 60, 1),
        "client_decisions_per_second": round(len(lat) / elapsed, 1),
        "latency_p50_ms": p50, "latency_p99_ms": p99,
        "memory_per_table_kib": round((loaded - idle) / max(1, args.tables), 1) if pid else None,
        "memory_growth_per_table_kib": round(grown / max(1, args.tables), 1) if pid else None,
        "server_cpu_percent": round(cpu / elapsed * 100, 1) if cpu is not None else None,
        "server_system_cpu_percent": round(system / elapsed * 100, 1) if cpu is not None else None,
        "server_cpu_ms_per_client_decision": round(cpu / len(lat) * 1000, 2) if cpu is not None and lat else None,
        "load_generator_cpu_percent": round(own / elapsed * 100, 1),
        "server_gc_pauses": {g: {k: round(v - gc0.get(g, {}).get(k, 0), 3) for k, v in by.items()}
                             for g, by in gc1.items()},
    }


async def warm_up(loads: Sequence[Load], tables: int, at_least: float) -> float:
    """Wait ``at_least`` seconds, and until the tables of all ``tables`` clients of ``loads`` have
    dealt a hand (a failed client's table is not waited for; :data:`MAX_WARMUP` at most); returns
    the seconds waited."""
    began = time.monotonic()
    while time.monotonic() - began < at_least or (
            sum(len(load.dealt | load.failed) for load in loads) < tables and time.monotonic() - began < MAX_WARMUP):
        await asyncio.sleep(0.5)
    return time.monotonic() - began


def latency_ms(latencies: Sequence[float]) -> tuple[float | None, float | None]:
    """The p50 and p99 of ``latencies`` (seconds) in milliseconds; ``None`` for none."""
    if not latencies:
        return None, None
    ordered = sorted(latencies)
    return round(statistics.median(ordered) * 1000, 2), round(ordered[int(len(ordered) * 0.99) - 1] * 1000, 2)


async def gc_pauses(http: httpx.AsyncClient) -> dict[str, dict[str, float]]:
    """The server's garbage-collector pauses so far, from its metrics, by generation: how many,
    their total seconds and how many took over 50 ms."""
    out: dict[str, dict[str, float]] = {}
    for line in (await http.get("/metrics")).text.splitlines():
        if not line.startswith("chuanma_gc_pause_seconds"):
            continue
        name, value = line.rsplit(" ", 1)
        generation = name.split('generation="')[1].split('"')[0]
        by = out.setdefault(generation, {"count": 0.0, "seconds": 0.0, "over_50ms": 0.0})
        if name.startswith("chuanma_gc_pause_seconds_count"):
            by["count"] = float(value)
        elif name.startswith("chuanma_gc_pause_seconds_sum"):
            by["seconds"] = float(value)
        elif 'le="0.05"' in name:
            by["over_50ms"] = -float(value)  # the count is added below: over 50 ms = count - (≤ 50 ms)
    for by in out.values():
        by["over_50ms"] += by["count"]
    return out


def server_errors(log: Path, expected: Sequence[str] = ()) -> tuple[int, int]:
    """How many lines of the server's log are not informational (each is printed): warnings,
    errors and anything that is not one of its JSON lines, such as a traceback from uvicorn; as
    (unexpected, expected), a warning whose message starts with one of ``expected`` being one the
    run caused on purpose (a restart after ``kill -9`` waits for the lease it held)."""
    unexpected = foreseen = 0
    for line in log.read_text().splitlines():
        try:
            entry = json.loads(line)
            level, message = entry.get("level"), str(entry.get("message", ""))
        except (ValueError, AttributeError):
            level, message = None, ""
        if level in ("info", "debug"):
            continue
        if level == "warning" and message.startswith(tuple(expected)):
            foreseen += 1
            print(f"server (expected): {line}", file=sys.stderr)
        else:
            unexpected += 1
            print(f"server: {line}", file=sys.stderr)
    return unexpected, foreseen


def print_profile(path: str) -> None:
    """The profile of the measured seconds (benchmarks/profiler.py): CPU by thread, the top functions."""
    print(f"CPU seconds by thread: {Path(path + '.json').read_text()}", file=sys.stderr)
    stats = pstats.Stats(path, stream=sys.stderr)
    stats.sort_stats("tottime").print_stats(35)
    stats.sort_stats("cumtime").print_stats("chuanma|sqlalchemy|starlette|uvicorn|json|prometheus", 60)


async def audit(url: str) -> dict[str, Any]:
    """The chips invariants over every hand played: balances = grants, none negative, hands sum to zero."""
    store = await open_store(url)
    try:
        result: dict[str, Any] = dict(await store.audit())
    finally:
        await store.close()
    result["ok"] = (result["balances"] == result["grants"] and result["lowest"] >= 0
                    and result["unbalanced_hands"] == 0)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--think", type=float, default=1.0, help="seconds a client takes per decision (0: instant)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="seconds before measuring, at least (and until every table has dealt a hand)")
    parser.add_argument("--db", default=None, help="a database URL instead of SQLite in a temporary directory")
    parser.add_argument("--profile", default=None, help="profile the server while measuring "
                        "(benchmarks/profiler.py), write the profile here and print the top functions")
    parser.add_argument("--url", default=None, help="drive a server already running there instead (no audit)")
    out = asyncio.run(run(parser.parse_args()))
    print(json.dumps(out, indent=2))
    if out["client_failures"] or out.get("server_errors") or not out.get("audit", {"ok": True})["ok"]:
        sys.exit("failed: see the client failures, server errors or audit above")


if __name__ == "__main__":
    main()
