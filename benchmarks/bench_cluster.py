"""The cluster's capacity and costs: tables held by 1, 2 and 3 nodes, routing, failover.

Starts ``chuanma serve --redis`` nodes (``cluster_nodes.py``) on a fresh PostgreSQL database of
their own (``chuanma_bench_<pid>_<n>``, dropped afterwards; the bus's channels are named after it,
so other clusters on the same Redis are left alone). The load is ``bench_server.py``'s: one client
and three bots per private table, each client deciding about once a second.

**Throughput** (``--throughput``): for each node count of ``--nodes``, tables are added
``--step`` at a time (clients spread round robin over the nodes, each connected to the node its
table was opened on) until a node falls behind: its p50, from an ``act`` to its ``events``,
reaches 100 ms (or a client fails, or the new tables do not deal); a step is held while every
node's p99 stays under 100 ms. Each step is warmed up and measured for
``--seconds``, with every node's p50/p99 and CPU, the nodes' CPU per client decision, the load
generator's, PostgreSQL's and Redis's CPU, the database's commits per client decision and the
load average. **Routing** (``--routing``): ``--routing-tables`` tables over three
nodes, every other client connected to another node than its table's (its commands and messages
cross the bus), all played at once: p50/p99 per case and the difference. **Failover**
(``--failover``): three nodes; ``--victims`` tables opened on one node, their clients on the
others; once they play, the node is killed (``kill -9``) and the time until every client hears
from its table again (``resync``, from the new owner) is measured; a fresh node replaces it, and
again, ``--kills`` times; then likewise ``--pauses`` times with the node stopped (``SIGSTOP``)
instead, woken (``SIGCONT``) once every client got ``resync``, while the hands end on the new
owners. Without a mode, all three run. After each cluster the database's chips are audited
(balances equal grants, none negative, every hand sums to zero: else exit 1).

    python benchmarks/bench_cluster.py --throughput --nodes 1 2 3 3 2 1 --start 10 --step 15 --seconds 30
    python benchmarks/bench_cluster.py --routing --routing-tables 40 --seconds 60
    python benchmarks/bench_cluster.py --failover --kills 10 --pauses 3 --victims 8 --lease 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import httpx
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from websockets.asyncio.client import ClientConnection, connect

from bench_server import KEEPALIVE_SECONDS, LOAD_OPTIONS, Load, audit, cpu_seconds, latency_ms, warm_up
from chuanma.fairness import VRFKey
from chuanma.fairness.keys import write_key
from cluster_nodes import Node

ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
REDIS = "redis://127.0.0.1:6379/0"
LIMIT_MS = 100.0
"""The p99 a node must stay under for its tables to count as held, and the p50 to count as kept up."""
LOAD_LEASE = 15.0
"""The nodes' lease under load (``serve``'s default): a busy node's stalls must not pass for deaths."""
Start = Callable[[int, int], Node]
"""Starts node ``index`` (its ``generation``-th process) of a cluster."""


@dataclass
class Bench:
    """What every mode shares: the options, the progress display and the failures found."""

    args: argparse.Namespace
    progress: Progress
    out: Console = field(default_factory=Console)
    failures: list[str] = field(default_factory=list)

    @contextlib.asynccontextmanager
    async def cluster(self, count: int, lease: float) -> AsyncIterator[tuple[list[Node], Start, str]]:
        """``count`` nodes on a new database (audited, then dropped, after they are killed); yields
        them, what starts another and the database's name."""
        name = f"chuanma_bench_{os.getpid()}_{secrets.token_hex(2)}"
        await on_admin(self.args.admin, f"CREATE DATABASE {name}")
        db = self.args.admin.replace("postgresql://", "postgresql+asyncpg://").rsplit("/", 1)[0] + f"/{name}"
        work = Path(tempfile.mkdtemp(prefix="bench_cluster_"))
        key = write_key(VRFKey(secrets.token_bytes(32)), work / "dealer.key")

        def start(index: int, generation: int) -> Node:
            return Node.start(db, self.args.redis, work / f"n{index}-{generation}", key, lease, LOAD_OPTIONS)

        nodes: list[Node] = []
        try:
            nodes += [start(k, 0) for k in range(count)]
            await asyncio.gather(*(n.ready() for n in nodes))
            yield nodes, start, name
        finally:
            for node in nodes:
                if node.alive:
                    node.kill()
            figures = await audit(db)
            await on_admin(self.args.admin, f"DROP DATABASE {name} WITH (FORCE)")
            self.out.print(f"audit of {count} node(s): {figures}; node logs in {work}")
            if not figures["ok"]:
                self.failures.append(f"the audit of {count} node(s) failed")

    @contextlib.asynccontextmanager
    async def shown(self, label: str, total: float, done: Callable[[], float]) -> AsyncIterator[None]:
        """A progress bar of ``done()`` out of ``total`` while the block runs."""
        task = self.progress.add_task(label, total=total)

        async def update() -> None:
            while True:
                self.progress.update(task, completed=done())
                await asyncio.sleep(0.5)

        updater = asyncio.create_task(update())
        try:
            yield
        finally:
            updater.cancel()
            self.progress.update(task, completed=done())
            self.progress.stop_task(task)

    async def warm(self, label: str, loads: Sequence[Load], tables: int) -> None:
        """Wait until the tables of the ``tables`` clients of ``loads`` have dealt (``warm_up``)."""
        async with self.shown(f"{label}: tables dealt", tables,
                              lambda: sum(len(load.dealt | load.failed) for load in loads)):
            await warm_up(loads, tables, self.args.warmup)

    async def measure(self, label: str) -> float:
        """Let the clients play ``--seconds``; returns the seconds measured."""
        began = time.monotonic()
        async with self.shown(f"{label}: measuring (s)", self.args.seconds, lambda: time.monotonic() - began):
            await asyncio.sleep(self.args.seconds)
        return time.monotonic() - began


async def on_admin(admin: str, sql: str) -> None:
    conn = await asyncpg.connect(admin)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def committed(admin: str, db: str) -> int:
    """The transactions committed so far on database ``db`` (PostgreSQL's statistics)."""
    conn = await asyncpg.connect(admin)
    try:
        count: int = await conn.fetchval("SELECT xact_commit FROM pg_stat_database WHERE datname = $1", db)
    finally:
        await conn.close()
    return count


def load_average() -> str:
    """The machine's load averages (1, 5, 15 minutes) and, where the kernel tells, the share of
    the last minute in which some task waited for a core (``/proc/pressure/cpu``)."""
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    with contextlib.suppress(OSError, IndexError):
        waited = Path("/proc/pressure/cpu").read_text().split()[2].split("=")[1]
        load += f", CPU waited {waited}%"
    return load


def pids_named(name: str) -> list[int]:
    """The processes whose command is ``name`` (PostgreSQL's, Redis's: shared with whoever else uses them)."""
    found = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            if entry.name.isdigit() and (entry / "comm").read_text().strip() == name:
                found.append(int(entry.name))
    return found


def cpu_of(pids: Sequence[int]) -> dict[int, float]:
    """The CPU seconds so far of each of ``pids`` still running."""
    out = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            out[pid] = sum(cpu_seconds(pid))
    return out


def percent(before: dict[int, float], after: dict[int, float], seconds: float) -> float:
    """The CPU of the processes in both ``before`` and ``after`` over ``seconds``, in % of a core."""
    return round(sum(after[pid] - before[pid] for pid in before if pid in after) / seconds * 100, 1)


@dataclass
class Clients:
    """``bench_server.py``'s clients over several nodes: each opens its table on one node's HTTP
    and plays through a load (its socket's node); cancelled on leaving."""

    nodes: list[Node]
    http: list[httpx.AsyncClient] = field(default_factory=list)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    async def __aenter__(self) -> Clients:
        limits = httpx.Limits(max_connections=50, keepalive_expiry=KEEPALIVE_SECONDS)
        self.http = [httpx.AsyncClient(base_url=n.base, timeout=120, limits=limits) for n in self.nodes]
        return self

    def add(self, opener: int, load: Load) -> None:
        """One more client: its table opened on node ``opener``, played through ``load``."""
        self.tasks.append(asyncio.create_task(load.table(self.http[opener], len(self.tasks))))

    async def __aexit__(self, *_exc: object) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await asyncio.gather(*(http.aclose() for http in self.http))


# ---------------------------------------------------------------- throughput


async def throughput(bench: Bench) -> None:
    runs = []
    for count in bench.args.nodes:
        async with bench.cluster(count, LOAD_LEASE) as (nodes, _start, name):
            steps = await ramp(bench, nodes, name)
        show(bench.out, f"{count} node(s): tables added {bench.args.step} at a time", steps)
        runs.append(steps)
    for criterion, title in (("held", f"most tables held with every node's p99 < {LIMIT_MS:.0f} ms"),
                             ("kept_up", f"most tables every node kept up with (p50 < {LIMIT_MS:.0f} ms)")):
        show(bench.out, title, [most(steps, criterion) for steps in runs])


def most(steps: list[dict[str, Any]], criterion: str) -> dict[str, Any]:
    """The step of the most tables that met ``criterion`` (``"none"`` tables if none did)."""
    met = [s for s in steps if s[criterion]]
    return met[-1] if met else {"nodes": steps[0]["nodes"], "tables": "none"}


async def ramp(bench: Bench, nodes: list[Node], db: str) -> list[dict[str, Any]]:
    """Add tables until a node falls behind: its p50 reaches the limit, a client fails or tables do
    not deal (its p99 reaching the limit is noted: on a loaded machine it may from the start)."""
    args, count = bench.args, len(nodes)
    loads = [Load(n.base, args.think) for n in nodes]
    steps: list[dict[str, Any]] = []
    async with Clients(nodes) as clients:
        for tables in range(args.start, args.max_tables + 1, args.step):
            while len(clients.tasks) < tables:
                k = len(clients.tasks) % count
                clients.add(k, loads[k])
            step = await measured(bench, nodes, db, loads, tables)
            steps.append(step)
            print(json.dumps(step), flush=True)
            if not step["kept_up"]:
                break
    return steps


async def measured(bench: Bench, nodes: list[Node], db: str, loads: list[Load], tables: int) -> dict[str, Any]:
    """One step of the ramp: ``tables`` clients (of the nodes on database ``db``) warmed up and measured."""
    label = f"{len(nodes)} node(s), {tables} tables"
    await bench.warm(label, loads, tables)
    processes = {**{f"node {k}": [n.proc.pid] for k, n in enumerate(nodes)},
                 "postgres": pids_named("postgres"), "redis": pids_named("redis-server")}
    before = {name: cpu_of(pids) for name, pids in processes.items()}
    own, marks = time.process_time(), [len(load.latencies) for load in loads]
    commits = await committed(bench.args.admin, db)
    seconds = await bench.measure(label)
    commits = await committed(bench.args.admin, db) - commits
    cpu = {name: percent(before[name], cpu_of(pids), seconds) for name, pids in processes.items()}
    per_node = [load.latencies[mark:] for load, mark in zip(loads, marks, strict=True)]
    p50s, p99s = zip(*(latency_ms(lat) for lat in per_node), strict=True)
    p50, p99 = latency_ms([t for lat in per_node for t in lat])
    failed = sum(len(load.failed) for load in loads)
    dealt = sum(len(load.dealt) for load in loads)
    handovers = sum([await n.metric("chuanma_table_handovers_total") for n in nodes])
    decisions = sum(map(len, per_node))

    def ms_each(cpu_percent: float) -> float | None:
        """CPU milliseconds per client decision at ``cpu_percent`` of a core."""
        return round(cpu_percent * seconds * 10 / decisions, 2) if decisions else None

    return {
        "nodes": len(nodes), "tables": tables, "dealt": dealt, "failed": failed,
        "decisions_per_s": round(decisions / seconds, 1), "p50_ms": p50, "p99_ms": p99,
        "nodes_cpu_ms_per_decision": ms_each(sum(cpu[f"node {k}"] for k in range(len(nodes)))),
        "postgres_cpu_ms_per_decision": ms_each(cpu["postgres"]),
        "commits_per_decision": round(commits / decisions, 2) if decisions else None,
        "node_p50_ms": list(p50s), "node_p99_ms": list(p99s), "node_cpu": [cpu[f"node {k}"] for k in range(len(nodes))],
        "loadgen_cpu": round((time.process_time() - own) / seconds * 100, 1),
        "postgres_cpu": cpu["postgres"], "redis_cpu": cpu["redis"],
        "handovers": int(handovers), "load": load_average(),
        "held": not failed and dealt == tables and all(p is not None and p < LIMIT_MS for p in p99s),
        "kept_up": not failed and dealt == tables and all(p is not None and p < LIMIT_MS for p in p50s),
    }


def show(out: Console, title: str, steps: list[dict[str, Any]]) -> None:
    columns = ("nodes", "tables", "decisions_per_s", "p50_ms", "p99_ms", "node_p50_ms", "node_p99_ms", "node_cpu",
               "nodes_cpu_ms_per_decision", "loadgen_cpu", "postgres_cpu", "postgres_cpu_ms_per_decision",
               "commits_per_decision",
               "redis_cpu", "handovers", "failed", "load", "held", "kept_up")
    table = Table(*columns, title=title)
    for step in steps:
        table.add_row(*(str(step.get(c, "")) for c in columns))
    out.print(table)


# ---------------------------------------------------------------- routing


async def routing(bench: Bench) -> None:
    """Clients on their table's node against clients on another, interleaved, under the same load."""
    args = bench.args
    async with bench.cluster(3, LOAD_LEASE) as (nodes, _start, _name):
        cases = {"same node": 0, "other node": 1}
        loads = {(case, k): Load(nodes[(k + shift) % len(nodes)].base, args.think)
                 for case, shift in cases.items() for k in range(len(nodes))}
        async with Clients(nodes) as clients:
            for n in range(args.routing_tables):
                opener = (n // 2) % len(nodes)
                clients.add(opener, loads[(list(cases)[n % 2], opener)])
            label = f"routing, {args.routing_tables} tables"
            await bench.warm(label, list(loads.values()), args.routing_tables)
            marks = {key: len(load.latencies) for key, load in loads.items()}
            await bench.measure(label)
        taken = {case: [t for (c, k), load in loads.items() if c == case for t in load.latencies[marks[c, k]:]]
                 for case in cases}
        figures = {case: latency_ms(lat) for case, lat in taken.items()}
        for case, (p50, p99) in figures.items():
            bench.out.print(f"routing, client on the {case}: p50 {p50} ms, p99 {p99} ms ({len(taken[case])} acts)")
        (same50, same99), (other50, other99) = figures.values()
        if same50 and same99 and other50 and other99:
            bench.out.print(f"routing: crossing nodes adds {other50 - same50:.2f} ms at p50 ({other50 / same50:.2f}x), "
                            f"{other99 - same99:.2f} ms at p99 ({other99 / same99:.2f}x); "
                            f"load average {load_average()}")
        failed = sum(len(load.failed) for load in loads.values())
        if failed:
            bench.failures.append(f"{failed} routing client(s) failed")


# ---------------------------------------------------------------- failover


async def seated(opener: Node, player: Node, hands: int) -> ClientConnection:
    """A guest's private table on ``opener`` (three easy bots), the guest connected to ``player``
    and seated."""
    async with httpx.AsyncClient(base_url=opener.base, timeout=30) as http:
        guest = (await http.post("/api/guest")).json()
        auth = {"authorization": f"Bearer {guest['token']}"}
        answer = await http.post("/api/tables", headers=auth, json={"bots": 3, "hands": hands, "bot_level": "easy"})
        assert answer.status_code == 200, answer.text
    ws = await connect(player.base.replace("http", "ws") + f"/ws?token={guest['token']}")
    await ws.send(json.dumps({"type": "join_private", "v": 1, "invite": answer.json()["invite"]}))
    return ws


async def next_message(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 60))
    return message


async def play(ws: ClientConnection, rng: random.Random, acts: int | None = None) -> bool:
    """Get ready and answer prompts until the hand ends (or ``acts`` are answered); whether the
    table moved meanwhile (``resync``: its lease lapsed under its busy node)."""
    answered, moved = 0, False
    while acts is None or answered < acts:
        msg = await next_message(ws)
        if msg["type"] == "hand_start" and not msg.get("dealt"):
            await ws.send(json.dumps({"type": "ready", "v": 1}))
        elif msg["type"] == "prompt":
            wins = [a for a in msg["legal"] if "hu" in a]
            action = wins[0] if wins else rng.choice(msg["legal"])
            await ws.send(json.dumps({"type": "act", "v": 1, "table": msg["table"], "version": msg["version"],
                                      "action": action}))
            answered += 1
        elif msg["type"] == "resync":
            moved = True
        elif msg["type"] in ("hand_end", "table_closed"):
            break
    return moved


async def resynced(ws: ClientConnection, since: float) -> float:
    """Seconds from ``since`` until ``ws`` gets ``resync``."""
    while (await next_message(ws))["type"] != "resync":
        pass
    return time.perf_counter() - since


async def takeovers(bench: Bench, nodes: list[Node], start: Start, pause: bool) -> list[float]:
    """``--kills`` times (``--pauses`` if ``pause``) a node with ``--victims`` tables is killed
    (stopped) and the seconds until the last of their clients (on the other nodes) got ``resync``
    are taken (but for tables that moved before, their lease lapsing under the busy node); a
    killed node is replaced, a stopped one woken while the hands end elsewhere."""
    args, rng = bench.args, random.Random(13 if pause else 11)
    times = args.pauses if pause else args.kills
    took: list[float] = []
    done = 0
    async with bench.shown("pauses" if pause else "kills", times, lambda: done):
        for k in range(times):
            owner, others = k % len(nodes), [n for j, n in enumerate(nodes) if j != k % len(nodes)]
            clients = await asyncio.gather(*(seated(nodes[owner], others[v % len(others)], 1 if pause else 16)
                                             for v in range(args.victims)))
            moved = await asyncio.gather(*(play(ws, random.Random(rng.random()), acts=3) for ws in clients))
            stayed = [ws for ws, gone in zip(clients, moved, strict=True) if not gone]
            if pause:
                nodes[owner].proc.send_signal(signal.SIGSTOP)
            else:
                nodes[owner].kill()
            since = time.perf_counter()
            try:
                each = await asyncio.gather(*(resynced(ws, since) for ws in stayed))
            finally:
                if pause:
                    nodes[owner].proc.send_signal(signal.SIGCONT)
            took += [max(each)] if each else []
            bench.out.print(f"{'pause' if pause else 'kill'} {k + 1}: {len(each)} tables playing again after "
                            f"{min(each, default=0):.2f}–{max(each, default=0):.2f} s, {len(clients) - len(each)} "
                            f"moved before (load average {load_average()})")
            if pause:  # the hands end on their new owners; the woken node writes nothing more for them
                await asyncio.gather(*(play(ws, random.Random(rng.random())) for ws in clients))
            await asyncio.gather(*(ws.close() for ws in clients))
            if not pause:
                nodes[owner] = start(owner, k + 1)
                await nodes[owner].ready()
            done += 1
    return took


async def failover(bench: Bench) -> None:
    args = bench.args
    async with bench.cluster(3, args.lease) as (nodes, start, _name):
        for pause, times in ((False, args.kills), (True, args.pauses)):
            took = await takeovers(bench, nodes, start, pause) if times else []
            if took:
                what = "SIGSTOP of the tables' node (then SIGCONT)" if pause else "kill -9 of the tables' node"
                bench.out.print(f"{what} to the last of its tables' clients getting resync, lease {args.lease} s, "
                                f"{len(took)} times: " + ", ".join(f"{t:.2f}" for t in took)
                                + f" s; median {statistics.median(took):.2f} s, max {max(took):.2f} s")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--admin", default=ADMIN, help="a PostgreSQL URL to create the benchmark's databases from")
    parser.add_argument("--redis", default=REDIS)
    parser.add_argument("--throughput", action="store_true", help="the tables 1, 2, 3 nodes hold")
    parser.add_argument("--routing", action="store_true", help="a client on its table's node against on another")
    parser.add_argument("--failover", action="store_true", help="kills and pauses of a node")
    parser.add_argument("--nodes", type=int, nargs="+", default=[1, 2, 3], help="the node counts of --throughput")
    parser.add_argument("--start", type=int, default=100, help="the tables of --throughput's first step")
    parser.add_argument("--step", type=int, default=100, help="the tables each further step adds")
    parser.add_argument("--max-tables", type=int, default=1500)
    parser.add_argument("--routing-tables", type=int, default=60)
    parser.add_argument("--think", type=float, default=1.0, help="seconds a client takes per decision")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds per step (and of --routing)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring, at least "
                        "(and until every table has dealt a hand)")
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--pauses", type=int, default=3)
    parser.add_argument("--victims", type=int, default=6, help="tables on the node killed or paused")
    parser.add_argument("--lease", type=float, default=2.0, help="the nodes' --lease-seconds in --failover")
    args = parser.parse_args()
    if not (args.throughput or args.routing or args.failover):
        args.throughput = args.routing = args.failover = True
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True)) as progress:
        bench = Bench(args, progress)
        bench.out.print(f"load average at the start: {load_average()}")
        for chosen, mode in ((args.routing, routing), (args.failover, failover), (args.throughput, throughput)):
            if chosen:
                await mode(bench)
    if bench.failures:
        raise SystemExit("failed: " + "; ".join(bench.failures))


if __name__ == "__main__":
    asyncio.run(main())
