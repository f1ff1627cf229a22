"""Rolling restarts behind the shipped proxies: three nodes, people playing, each node restarted in turn.

Three ``chuanma serve --redis`` nodes on a fresh PostgreSQL database behind nginx
(deploy/nginx-cluster.conf) or HAProxy (deploy/haproxy-cluster.cfg) over TLS, run as
tests/test_cluster_proxy.py runs them. ``--tables`` private tables, each of two people (scripted
clients connected through the proxy, thinking ``--think`` seconds a decision, connecting again
after a refusal as the browser's client does) and two bots, play ``--hands`` hands. Meanwhile a
poller asks the proxy for ``/healthz`` and ``/api/rooms`` every 50 ms. Each node in turn is stopped
with SIGTERM, as ``systemctl restart`` does (it drains: no new socket, its hands end, its tables
move to the others), and started again on its port; the next once it answers. Prints, per proxy:
the proxy's HTTP answers by status, the players' connections refused by status, their resyncs and
reconnections, the hands finished, and the books (every table closed, every hand settled and its
record verified, balances = grants).

With ``--from REV`` the nodes first run the release at git revision REV (a worktree in a
temporary directory, its compiled core built there when it differs) and are restarted onto this
checkout: an upgrade. When the two releases'
migrations differ, rolling is refused (a node of the new release started beside the old ones
must refuse to migrate: checked), and the script follows docs/operations.md instead: every old
node stopped, one new node started (it migrates), then the others; the seconds with no node
are printed (the 5xx answers of that time are the procedure's, not failures).

    python benchmarks/rolling_restart.py --proxy both
    python benchmarks/rolling_restart.py --proxy nginx --from 64951bf
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from chuanma.fairness.keys import write_key
from cluster_harness import REDIS, Player, check_books, private_table
from cluster_nodes import Node, free_port
from proxy_harness import Proxy, binary
from server_harness import DEALER_KEY, create_pg_database, drop_pg_database

ROOT = Path(__file__).resolve().parents[1]
MIGRATIONS = "src/chuanma/server/migrations/versions"
LEASE = 3.0
"""The nodes' lease time (as in the cluster tests)."""
REFUSED_UNDER_OLD = "of another release run on this database"
"""What a node of the new release says when it finds old nodes alive and will not migrate."""


@dataclass
class Release:
    """The package a node runs: this checkout's (``source`` None) or another revision's ``src``."""

    name: str
    source: Path | None = None
    migrations: frozenset[str] = field(default_factory=frozenset)


def this_release() -> Release:
    return Release("this checkout", None, frozenset(p.name for p in (ROOT / MIGRATIONS).glob("*.py")))


def older_release(revision: str, where: Path) -> Release:
    """``revision`` checked out at ``where`` (a git worktree), with this checkout's compiled core
    when the revision's native sources are the same, else its own, built by its scripts/build-native."""
    git = ["git", "-C", str(ROOT)]
    subprocess.run([*git, "worktree", "add", "--detach", str(where), revision], check=True, capture_output=True)
    same = subprocess.run([*git, "diff", "--quiet", revision, "HEAD", "--", "src/native", "CMakeLists.txt"])
    if same.returncode == 0:
        for core in (ROOT / "src" / "chuanma").glob("_core*.so"):
            shutil.copy2(core, where / "src" / "chuanma" / core.name)
    else:
        print(f"building the compiled core of {revision}...", file=sys.stderr)
        subprocess.run([str(where / "scripts" / "build-native"), sys.executable], check=True)
    listed = subprocess.run([*git, "ls-tree", "--name-only", f"{revision}:{MIGRATIONS}"], check=True,
                            capture_output=True, text=True).stdout.split()
    return Release(f"revision {revision}", where / "src", frozenset(n for n in listed if n.endswith(".py")))


@dataclass
class Poller:
    """Asks the proxy for a few pages every 50 ms, counting the answers by status."""

    base: str
    cert: Path
    answers: Counter[str] = field(default_factory=Counter)

    async def run(self, stop: asyncio.Event) -> None:
        async with httpx.AsyncClient(base_url=self.base, verify=str(self.cert), timeout=10) as http:
            while not stop.is_set():
                for path in ("/healthz", "/api/rooms"):
                    try:
                        self.answers[str((await http.get(path)).status_code)] += 1
                    except httpx.TransportError as exc:
                        self.answers[type(exc).__name__] += 1
                await asyncio.sleep(0.05)


async def stopped(node: Node, seconds: float) -> float:
    """Stop ``node`` as systemd does (SIGTERM: it drains); the seconds it took."""
    began = time.monotonic()
    node.proc.terminate()
    await asyncio.to_thread(node.proc.wait, seconds)
    node.alive = False
    return time.monotonic() - began


async def started(db: str, data: Path, key: Path, options: list[str], port: int, release: Release) -> Node:
    node = Node.start(db, REDIS, data, key, LEASE, options, port=port, source=release.source)
    await node.ready()
    return node


async def restart(kind: str, args: argparse.Namespace, old: Release, new: Release) -> dict[str, object]:
    db = await create_pg_database()
    work = Path(tempfile.mkdtemp(prefix="rolling-"))
    key = write_key(DEALER_KEY, work / "dealer.key")
    options = ["--drain-seconds", str(args.drain)]
    ports = [free_port() for _ in range(3)]
    nodes = [Node.start(db, REDIS, work / f"n{k}", key, LEASE, options, port=p, source=old.source)
             for k, p in enumerate(ports)]
    proxy: Proxy | None = None
    figures: dict[str, object] = {"proxy": kind, "from": old.name, "to": new.name}
    try:
        await asyncio.gather(*(n.ready() for n in nodes))
        proxy = Proxy.start(kind, work / kind, ports)
        os.environ["SSL_CERT_FILE"] = str(proxy.cert)  # the players trust the proxy's certificate
        players: list[Player] = []
        for _ in range(args.tables):
            players += await private_table(proxy.base, [proxy], [0, 0], args.hands)
        for player in players:
            player.think = args.think
        acted: asyncio.Queue[None] = asyncio.Queue()
        games = asyncio.gather(*(one.play(acted) for one in players))
        poller, stop = Poller(proxy.base, proxy.cert), asyncio.Event()
        polling = asyncio.create_task(poller.run(stop))
        await asyncio.sleep(args.warmup)
        if old.migrations == new.migrations:
            took: list[tuple[float, float]] = []
            for k in range(3):  # node by node, each once the one before answers
                drained = await stopped(nodes[k], args.drain + 30)
                began = time.monotonic()
                nodes[k] = await started(db, work / f"n{k}", key, options, ports[k], new)
                took.append((round(drained, 1), round(time.monotonic() - began, 1)))
            figures["procedure"] = "rolling, node by node"
            figures["seconds per node (drain, start)"] = took
        else:
            beside = Node.start(db, REDIS, work / "beside", key, LEASE, options, source=new.source)
            code = await asyncio.to_thread(beside.proc.wait, 120)
            said = (work / "beside" / "node.log").read_text()
            figures["a new node beside old ones"] = ("refused, nothing migrated" if code == 2 and REFUSED_UNDER_OLD
                                                     in " ".join(said.split()) else f"FAILED (exit {code}): {said}")
            drains = await asyncio.gather(*(stopped(n, args.drain + 30) for n in nodes))
            gone = time.monotonic()
            nodes[0] = await started(db, work / "n0", key, options, ports[0], new)  # it migrates
            figures["procedure"] = "every node stopped, one migrates, then the others"
            figures["seconds to drain the old nodes"] = [round(s, 1) for s in drains]
            figures["seconds with no node"] = round(time.monotonic() - gone, 1)
            nodes[1:] = await asyncio.gather(*(started(db, work / f"n{k}", key, options, ports[k], new)
                                                for k in (1, 2)))
        await asyncio.wait_for(games, args.deadline)
        stop.set()
        await polling
        finished = sum(one.ends == set(range(args.hands)) for one in players)
        figures["proxy answers by status"] = dict(sorted(poller.answers.items()))
        fives = sum(n for status, n in poller.answers.items() if status.startswith("5"))
        if old.migrations == new.migrations:
            figures["5xx answers"] = fives
        else:  # the procedure stops the cluster: players wait, as docs/operations.md says
            figures["5xx answers (a migration stops the cluster: the procedure's)"] = fives
        figures["connections refused by status"] = dict(Counter(s for one in players for s in one.refused))
        figures["reconnections"] = sum(one.seen.count("reconnected") for one in players)
        figures["resyncs"] = sum(one.seen.count("resync") for one in players)
        figures["players who saw every hand end"] = f"{finished} of {len(players)}"
        figures["errors told to players"] = dict(Counter(e for one in players for e in one.errors))
    finally:
        os.environ.pop("SSL_CERT_FILE", None)  # its certificate goes with this run's directory
        if proxy is not None:
            proxy.stop()
        for node in nodes:
            node.stop()
    try:
        await check_books(db, closed=args.tables, settled=args.tables * args.hands)
        figures["books (tables closed, hands settled and verified, balances = grants)"] = "ok"
    except AssertionError as exc:
        figures["books (tables closed, hands settled and verified, balances = grants)"] = f"FAILED {exc}"
    await drop_pg_database(db)
    shutil.rmtree(work, ignore_errors=True)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--proxy", choices=("nginx", "haproxy", "both"), default="both")
    parser.add_argument("--tables", type=int, default=4, help="private tables of two people and two bots")
    parser.add_argument("--hands", type=int, default=12, help="hands each table plays")
    parser.add_argument("--think", type=float, default=0.15, help="seconds a scripted person thinks a decision")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of play before the first restart")
    parser.add_argument("--drain", type=float, default=30.0, help="the nodes' --drain-seconds")
    parser.add_argument("--deadline", type=float, default=300.0, help="seconds the hands may take in all")
    parser.add_argument("--from", dest="revision", default=None,
                        help="a git revision whose release the nodes run first (an upgrade onto this checkout)")
    args = parser.parse_args()
    kinds = ("nginx", "haproxy") if args.proxy == "both" else (args.proxy,)
    missing = [name for name in (*kinds, "openssl") if binary(name) is None]
    if missing:
        raise SystemExit(f"{', '.join(missing)} not installed (scripts/ensure-system-packages installs them)")
    new = this_release()
    with contextlib.ExitStack() as stack:
        old = new
        if args.revision is not None:
            where = Path(tempfile.mkdtemp(prefix="release-")) / "tree"
            stack.callback(subprocess.run, ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(where)],
                           capture_output=True)
            old = older_release(args.revision, where)
        failed = False
        for kind in kinds:
            figures = asyncio.run(restart(kind, args, old, new))
            width = max(len(k) for k in figures)
            for name, value in figures.items():
                print(f"{name:<{width}}  {value}")
            print()
            failed |= bool(figures.get("5xx answers")) or any(str(v).startswith("FAILED") for v in figures.values())
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
