"""Chaos: tables of bots and scripted clients while faults are injected, then the invariants.

Starts ``chuanma serve`` in a subprocess (SQLite in a temporary directory, or PostgreSQL) with short
timers. ``--tables`` scripted clients each open private tables of three bots and one seat for
themselves, one kind of client per table in turn (:data:`KINDS`): the control that plays at once,
clients that never act (托管 must take over) or never get ready, clients that drop and resume,
that send junk (malformed, unknown, deeply nested JSON, binary, oversized and huge frames, floods),
that act out of turn or with stale versions, and that sit at two tables at once (quick-join a room,
then join a private table by invite before the bot wait ends). With ``--early`` every timer of the
server fires that many seconds early (as uvloop's may); once during the run the server is killed
(``kill -9``) and started again on the same database; the clients reconnect and resume.

At the end, with the server still running: every table has finished or is still progressing (none
silent for longer than its timers allow), then, the server stopped: the balances equal the grants,
no balance is below zero, every settled hand's ledger sums to zero, every record verifies (with the
server's public key from ``GET /api/fairness/key`` when it has that route, else unsigned), no player
sat at two tables at once and every junk frame was refused with the connection kept open (frames over
the WebSocket limit excepted: those close it). Prints the figures as a table; exit status 1 if an
invariant fails.

    python benchmarks/chaos.py --seconds 60 --tables 14 --db sqlite
    python benchmarks/chaos.py --seconds 60 --tables 14 --db postgresql --early 0.5 --seed 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import random
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import func, select
from websockets.exceptions import WebSocketException

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from bench_server import KEEPALIVE_SECONDS, server_errors, start_server
from chuanma.fairness import RecordError
from chuanma.fairness.chain import verify_records
from chuanma.server.schema import decisions, hands, tables, users
from chuanma.server.store import Store, open_store, sqlite_url
from server_harness import Client, create_pg_database, drop_pg_database

RESTART_WARNINGS = ("the database's lease is held by",)
"""The warnings a restart after ``kill -9`` causes: the new process waits for the lease the killed one held."""

KINDS = {
    "player": "plays every prompt at once (the control)",
    "idle": "gets ready, never acts: 托管 must take over",
    "absent": "never gets ready: unseated when the ready time runs out",
    "reconnect": "drops its connection now and then, comes back and resumes",
    "junk": "sends junk frames between its decisions",
    "stale": "acts with stale versions, twice, out of turn",
    "double": "quick-joins a room, then joins a private table by invite before the bot wait ends",
}
JUNK: list[tuple[str, str | bytes]] = [
    ("malformed_json", '{"type": "ping", "v": '),
    ("nested_json", "[" * 2000 + "]" * 2000),  # 4,000 bytes: under the frame limit
    ("unknown_type", '{"type": "teleport", "v": 1}'),
    ("binary", b"\x00\xff" * 16),
    ("bad_version", '{"type": "ping", "v": 99}'),
    ("bad_field", '{"type": "act", "v": 1, "table": "t", "version": "1", "action": {}}'),
    ("oversized", json.dumps({"type": "ping", "v": 1, "pad": "x" * 8000})),
    ("flood", '{"type": "ping", "v": 1}'),
    ("huge", "x" * (2 << 20)),  # over the WebSocket limit (1 MiB): the server closes the connection
]
"""Junk frames, sent in this order, one between two decisions; ``flood`` is sent :data:`FLOOD` times."""
CLOSING_JUNK = {"huge"}
"""Junk after which the server may close the connection (every other junk gets an error, connection open)."""
FLOOD = 50
HANDS = 4
"""Hands per private table (a client opens another when its table closes)."""
SLACK = 5.0
"""Seconds a table may be silent beyond its longest timer (load, the database) before it counts as frozen."""
DOUBLE_ROOM = "chuji-xuezhan"
DOUBLE_BASE = 3_000
DOUBLE_HANDS = 64
"""The double-join client's private table plays many hands for high stakes, so that it is still
playing when the bot wait ends and two tables at once can take more than its balance (stakes its
starting grant does not fit: the server runs with ``--no-private-base-rule``)."""
THINK = (0.02, 0.1)
"""Seconds a scripted client takes for a decision (at bot speed a client would be over the
server's message rate)."""


@dataclass(frozen=True, slots=True)
class Timers:
    """The server's timers (seconds) and how early its timers fire (``early``)."""

    turn: float = 2.0
    claim: float = 1.0
    ready: float = 3.0
    bot_wait: float = 2.0
    auto_delay: float = 0.1
    """The pause before each decision 托管 makes (short, as the other timers here)."""
    early: float = 0.0

    def options(self) -> list[str]:
        return ["--turn-seconds", str(self.turn), "--claim-seconds", str(self.claim), "--ready-seconds",
                str(self.ready), "--bot-wait", str(self.bot_wait), "--auto-delay", str(self.auto_delay),
                "--early-timers", str(self.early),
                "--auth-per-minute", "10000", "--guests-per-hour", "10000", "--grants-per-day", "10000",
                "--private-tables-per-hour", "10000", "--no-private-base-rule"]

    @property
    def silence(self) -> float:
        """The longest a live table may go without a decision or a settlement."""
        return max(self.turn, self.claim, self.ready) + SLACK


@dataclass
class Tally:
    """What the clients did and saw, by client kind where it matters."""

    faults: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)
    kind_of_table: dict[str, str] = field(default_factory=dict)
    kind_of_user: dict[int, str] = field(default_factory=dict)
    double_seated: set[int] = field(default_factory=set)
    """Players seated at two tables at once."""
    junk_failed: Counter[str] = field(default_factory=Counter)
    """Junk not refused, or after which the connection was closed (by junk kind)."""
    auto_on: Counter[str] = field(default_factory=Counter)
    resumes: Counter[str] = field(default_factory=Counter)
    closed: Counter[str] = field(default_factory=Counter)
    """Tables closed for a scripted player, by kind and reason."""
    acts: int = 0
    hands: int = 0


class ServerProcess:
    """``chuanma serve`` in a subprocess that can be killed and started again on the same database."""

    def __init__(self, data: Path, db: str | None, timers: Timers) -> None:
        self.data, self.db, self.timers = data, db, timers
        self.log = data / "server.log"
        self.proc: subprocess.Popen[str] | None = None
        self.base = ""
        self.up = asyncio.Event()
        self.restarts = 0

    @property
    def url(self) -> str:
        return self.db or sqlite_url(self.data)

    async def start(self) -> None:
        self.proc, self.base = await asyncio.to_thread(start_server, self.data, self.db, None, self.log,
                                                       self.timers.options())
        self.up.set()

    async def kill_and_restart(self) -> None:
        """``kill -9``, then start again (on a new port)."""
        assert self.proc is not None
        self.up.clear()
        self.proc.send_signal(signal.SIGKILL)
        await asyncio.to_thread(self.proc.wait)
        self.close_pipe()
        await self.start()
        self.restarts += 1

    def close_pipe(self) -> None:
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.close_pipe()


class Dropped(Exception):
    """The client dropped its own connection (it comes back after ``away`` seconds)."""

    def __init__(self, away: float) -> None:
        super().__init__(f"dropped for {away:.1f} s")
        self.away = away


class Scripted:
    """One scripted player of a kind (:data:`KINDS`): it opens tables and plays until the run is over."""

    def __init__(self, kind: str, rng: random.Random, server: ServerProcess, http: httpx.AsyncClient,
                 tally: Tally, until: float) -> None:
        self.kind, self.rng, self.server, self.http, self.tally, self.until = kind, rng, server, http, tally, until
        self.token: str | None = None
        self.user_id = 0
        self.conn: Client | None = None
        self.seats: dict[str, int] = {}
        """The tables it sits at, with its seat at each."""
        self.junk = 0
        self.pending: str | None = None
        """The junk sent last, until the ping after it is answered."""
        self.refused = False
        self.joined = 0.0
        """When it last joined a room (the double joiner)."""

    async def run(self) -> None:
        while time.monotonic() < self.until:
            try:
                await self.session()
            except Dropped as drop:
                await asyncio.sleep(drop.away)
            except (WebSocketException, OSError, TimeoutError, httpx.HTTPError):  # the server went away
                if self.pending is not None and self.pending not in CLOSING_JUNK:
                    self.tally.junk_failed[self.pending] += 1
                self.pending = None
                await self.server.up.wait()
                await asyncio.sleep(0.2)

    def hang_up(self) -> None:
        """Stop: close the connection at once and open no other."""
        self.until = 0.0
        if self.conn is not None:
            self.conn.ws.transport.abort()

    async def session(self) -> None:
        """One connection: log in (once), take its seat back or sit down, then play."""
        if self.token is None:
            r = await self.http.post(f"{self.server.base}/api/guest")
            r.raise_for_status()
            self.token, self.user_id = r.json()["token"], int(r.json()["user"]["id"])
            self.tally.kind_of_user[self.user_id] = self.kind
        old, self.conn = self.conn, await Client.open(self.server.base, self.token, self.kind)
        conn = self.conn
        conn.rng = self.rng
        table = conn.seen[0]["table"]
        self.seats = {}
        if table is not None:
            same = old is not None and old.table == table
            await conn.send("resume", table=table, hand=old.hand if old and same else 0,
                            last=old.last if old and same else -1)
            self.tally.resumes[self.kind] += 1
        else:
            await self.sit_down()
        while time.monotonic() < self.until:
            msg = await conn.recv()
            conn.seen.clear()
            await self.on(msg)

    async def private_table(self, hands: int = HANDS, **options: Any) -> str:
        r = await self.http.post(f"{self.server.base}/api/tables", headers={"authorization": f"Bearer {self.token}"},
                                 json={"preset": "xuezhan", "hands": hands, "bots": 3, "options": options})
        r.raise_for_status()
        invite: str = r.json()["invite"]
        return invite

    async def sit_down(self) -> None:
        conn = self.conn
        assert conn is not None
        if time.monotonic() >= self.until:
            return
        if self.kind != "double":
            await conn.send("join_private", invite=await self.private_table())
            return
        invite = await self.private_table(DOUBLE_HANDS, base=DOUBLE_BASE)
        await conn.send("join", room=DOUBLE_ROOM, bots=True)
        if (await conn.expect("queued", "error"))["type"] == "queued":
            self.joined = time.monotonic()
            await conn.send("join_private", invite=invite)
            self.tally.faults["double_join"] += 1

    async def on(self, msg: dict[str, Any]) -> None:
        conn = self.conn
        assert conn is not None
        kind = msg["type"]
        if kind == "seated" and msg["seat"] is not None:
            self.seats[msg["table"]] = msg["seat"]
            self.tally.kind_of_table.setdefault(msg["table"], self.kind)
            if len(self.seats) > 1:
                self.tally.double_seated.add(self.user_id)
        elif kind == "table_closed":
            self.tally.closed[f"{self.kind}: {msg['reason']}"] += 1
            self.seats.pop(msg["table"], None)
            if not self.seats:
                await self.sit_down()
        elif kind == "hand_start" and not msg.get("dealt") and self.kind != "absent":
            # the double joiner gets ready late, so that its balance is still in the room's range
            # when the bot wait ends and the room's table seats it too
            await asyncio.sleep(max(0.0, self.joined + 0.75 * self.server.timers.bot_wait - time.monotonic()))
            await conn.send("ready")
        elif kind == "hand_end":
            self.tally.hands += 1
        elif kind == "auto" and msg["on"] and self.seats.get(msg["table"]) == msg["seat"]:
            self.tally.auto_on[self.kind] += 1
            if self.kind not in ("idle", "absent"):  # take the seat back
                await conn.send("auto", on=False)
        elif kind == "error":
            self.tally.refusals[msg["code"]] += 1
            self.refused = True
        elif kind == "pong" and self.pending is not None:
            if not self.refused:
                self.tally.junk_failed[self.pending] += 1
            self.pending = None
        elif kind == "prompt":
            await self.prompt(msg)
        elif kind == "events" and self.kind == "stale" and self.rng.random() < 0.1:
            self.tally.faults["out_of_turn"] += 1
            await conn.send("act", table=msg["table"], version=0, action={"discard": "1m"})

    async def prompt(self, msg: dict[str, Any]) -> None:
        conn = self.conn
        assert conn is not None
        if self.kind in ("idle", "absent"):
            self.tally.faults["ignored_prompt"] += 1
            return
        if self.kind == "reconnect" and self.rng.random() < 0.1:
            self.tally.faults["drop"] += 1
            conn.ws.transport.abort()
            raise Dropped(self.rng.uniform(0, 2 * self.server.timers.turn))
        if self.kind == "junk" and self.pending is None and self.rng.random() < 0.5:
            await self.send_junk()
        if self.kind == "stale" and msg["version"] > 0 and self.rng.random() < 0.3:
            self.tally.faults["stale_version"] += 1
            await conn.send("act", table=msg["table"], version=msg["version"] - 1, action=msg["legal"][0])
        await asyncio.sleep(self.rng.uniform(*THINK))
        action = conn.choose(msg["legal"])
        await conn.send("act", table=msg["table"], version=msg["version"], action=action)
        self.tally.acts += 1
        if self.kind == "stale" and self.rng.random() < 0.3:
            self.tally.faults["repeated_act"] += 1
            await conn.send("act", table=msg["table"], version=msg["version"], action=action)

    async def send_junk(self) -> None:
        """The next junk frame, then a ping: the error for the junk must come before the pong."""
        conn = self.conn
        assert conn is not None
        name, frame = JUNK[self.junk % len(JUNK)]
        self.junk += 1
        self.tally.faults[f"junk:{name}"] += 1
        if name == "flood":
            for _ in range(FLOOD):
                await conn.ws.send(frame)
            return
        self.pending, self.refused = name, False
        await conn.ws.send(frame)
        await conn.send("ping")


@dataclass
class Result:
    """The figures of a run and its invariants (name → failures; 0: held)."""

    figures: dict[str, Any]
    invariants: dict[str, int]
    by_kind: dict[str, dict[str, int]]
    """Per client kind: the failures of the invariants that can be told apart by kind."""

    @property
    def ok(self) -> bool:
        return not any(self.invariants.values())

    def figure(self, name: str) -> int:
        """A count among the figures (0 when nothing was counted under ``name``)."""
        value = self.figures.get(name, 0)
        assert isinstance(value, int), name
        return value


async def chaos(server: ServerProcess, *, kinds: Sequence[str], tables: int, seconds: float, seed: int,
                kill_at: float | None = None, progress: bool = False, seen: Callable[[Tally], bool] | None = None,
                most: float = 0.0) -> Result:
    """Run ``tables`` scripted clients (of ``kinds`` in turn) against ``server`` for ``seconds``,
    killing and restarting it at ``kill_at`` seconds; then check the invariants. With ``seen`` they
    play on past ``seconds`` (``most`` seconds at the most) until ``seen`` holds of what they did: on
    a busy machine a run of a fixed length may be over before every kind of fault has happened."""
    tally = Tally()
    rng = random.Random(seed)
    started = time.monotonic()
    await server.start()
    began = time.monotonic()
    until = began + seconds
    limits = httpx.Limits(max_connections=50, keepalive_expiry=KEEPALIVE_SECONDS)
    try:
        async with httpx.AsyncClient(timeout=30, limits=limits) as http:
            clients = [Scripted(kinds[i % len(kinds)], random.Random(rng.random()), server, http, tally, until)
                       for i in range(tables)]
            tasks = [asyncio.create_task(c.run()) for c in clients]
            shown = began
            while time.monotonic() < until:
                await asyncio.sleep(0.2)
                if kill_at is not None and server.restarts == 0 and time.monotonic() - began >= kill_at:
                    await server.kill_and_restart()
                    # the tables are checked once they have had their timers' time since the restart
                    until = max(until, time.monotonic() + server.timers.silence)
                    for client in clients:
                        client.until = until
                if seen is not None and until - time.monotonic() < 2.0 and not seen(tally):
                    until = max(until, min(began + most, time.monotonic() + 2.0))
                    for client in clients:
                        client.until = until
                if progress and time.monotonic() - shown >= 5:
                    shown = time.monotonic()
                    print(f"[{shown - began:5.0f} s] hands {tally.hands}, decisions {tally.acts}, "
                          f"faults {sum(tally.faults.values())}, refusals {sum(tally.refusals.values())}, "
                          f"restarts {server.restarts}", file=sys.stderr, flush=True)
            played = time.monotonic()
            store = await open_store(server.url)  # while the clients still play
            try:
                silent = await silent_tables(store, server.timers.silence)
            finally:
                await store.close()
            key = await public_key(http, server.base)
            failed = [t.exception() for t in tasks if t.done() and not t.cancelled() and t.exception()]
            for exc in failed:
                print("a client failed:", "".join(traceback.format_exception(exc)), file=sys.stderr)
            for client in clients:  # a cancellation can be lost (asyncio.wait_for): stop them twice
                client.hang_up()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        stopping = time.monotonic()
        server.stop()
    stopped = time.monotonic()
    store = await open_store(server.url)
    try:
        result = await verdict(store, tally, server, silent, key, len(failed))
    finally:
        await store.close()
    result.figures["seconds: start, play, check, stop, verify"] = " ".join(
        f"{b - a:.1f}" for a, b in itertools.pairwise((started, began, played, stopping, stopped, time.monotonic())))
    return result


async def public_key(http: httpx.AsyncClient, base: str) -> bytes | None:
    """The server's record-signing key, if it publishes one."""
    r = await http.get(f"{base}/api/fairness/key")
    return bytes.fromhex(r.json()["public_key"]) if r.status_code == 200 else None


async def silent_tables(store: Store, allowed: float) -> list[str]:
    """The open tables with every seat taken and no decision and no settlement in the last ``allowed``
    seconds (each printed)."""
    def work(conn: Any) -> list[str]:
        last: dict[str, float] = {r.id: r.created_at for r in conn.execute(
            select(tables.c.id, tables.c.created_at, tables.c.seats).where(tables.c.status == "open"))
            if None not in r.seats}  # a table with a free seat waits for a person: no timer runs
        moments = [select(hands.c.table_id, func.max(decisions.c.at))
                   .select_from(decisions.join(hands, decisions.c.hand_id == hands.c.id)).group_by(hands.c.table_id),
                   select(hands.c.table_id, func.max(hands.c.finished_at)).group_by(hands.c.table_id)]
        for query in moments:
            for table_id, at in conn.execute(query):
                if table_id in last and at is not None:
                    last[table_id] = max(last[table_id], at)
        now = time.time()
        for t, at in last.items():
            if now - at > allowed:
                print(f"table {t}: silent for {now - at:.1f} s (allowed: {allowed:.1f} s)", file=sys.stderr)
        return [t for t, at in last.items() if now - at > allowed]
    return await store.read(work)


async def verdict(store: Store, tally: Tally, server: ServerProcess, silent: list[str], key: bytes | None,
                  client_failures: int) -> Result:
    audit = await store.audit()

    def read(conn: Any) -> tuple[list[Any], list[Any], dict[str, int], int]:
        records = list(conn.execute(select(hands.c.table_id, hands.c.record).where(hands.c.status == "settled")
                                    .order_by(hands.c.table_id, hands.c.number)))
        balances = list(conn.execute(select(users.c.id, users.c.balance)))
        by = {str(b): int(n) for b, n in conn.execute(select(decisions.c.by, func.count()).group_by(decisions.c.by))}
        count = int(conn.execute(select(func.count()).select_from(tables)).scalar_one())
        return records, balances, by, count

    records, balances, by, table_count = await store.read(read)
    by_table: dict[str, list[Any]] = {}
    for table_id, record in records:
        by_table.setdefault(table_id, []).append(record)
    bad_records: Counter[str] = Counter()
    for table_id, recs in by_table.items():
        try:
            failed = sum(not v.ok for v in verify_records(recs, public_key=key))
        except RecordError:
            failed = len(recs)
        bad_records[tally.kind_of_table.get(table_id, "?")] += failed
    negative = Counter(tally.kind_of_user.get(int(u), "bot") for u, b in balances if b < 0)
    silent_kinds = Counter(tally.kind_of_table.get(t, "?") for t in silent)
    kinds = sorted(set(tally.kind_of_user.values()))
    by_kind = {k: {"silent_tables": silent_kinds[k], "negative_balances": negative[k],
                   "records_failed": bad_records[k],
                   "seated_at_two_tables": sum(1 for u in tally.double_seated if tally.kind_of_user[u] == k)}
               for k in kinds}
    unexpected, foreseen = server_errors(server.log, RESTART_WARNINGS)
    unexpected += max(0, foreseen - server.restarts)  # one lease waited for per restart, no more
    invariants = {
        "every table finished or progressing": len(silent),
        "balances = grants": abs(audit["balances"] - audit["grants"]),
        "no balance below zero": sum(1 for _, b in balances if b < 0),
        "every settled hand sums to zero": audit["unbalanced_hands"],
        "every record verifies": sum(bad_records.values()),
        "no player at two tables at once": len(tally.double_seated),
        "junk refused, connection kept": sum(tally.junk_failed.values()),
        "no client failed": client_failures,
        "no server warning but those the faults cause": unexpected,
    }
    figures = {
        "tables": table_count, "hands settled": audit["hands"], "decisions": sum(by.values()),
        **{f"decisions by {k}": v for k, v in sorted(by.items())},
        "scripted decisions sent": tally.acts, "restarts (kill -9)": server.restarts,
        **{f"fault {k}": v for k, v in sorted(tally.faults.items())},
        **{f"refusal {k}": v for k, v in sorted(tally.refusals.items())},
        **{f"托管 on for {k}": v for k, v in sorted(tally.auto_on.items())},
        **{f"resumes by {k}": v for k, v in sorted(tally.resumes.items())},
        **{f"closed for {k}": v for k, v in sorted(tally.closed.items())},
        **{f"junk failed {k}": v for k, v in sorted(tally.junk_failed.items())},
        "silent tables by kind": dict(silent_kinds), "balances": audit["balances"], "grants": audit["grants"],
        "lowest balance": audit["lowest"], "records verified": len(records),
        "record level": "signed, checked against GET /api/fairness/key" if key else "unsigned (no /api/fairness/key)",
        "server log warnings and errors": unexpected + foreseen,
        "of them caused by the restarts (a lease waited for)": foreseen,
    }
    return Result(figures, invariants, by_kind)


def print_result(result: Result) -> None:
    rows = [(k, str(v)) for k, v in result.figures.items()]
    rows += [(f"invariant: {k}", "ok" if not v else f"FAILED ({v})") for k, v in result.invariants.items()]
    rows += [(f"{kind}: {k}", str(v)) for kind, by in result.by_kind.items() for k, v in by.items() if v]
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k:<{width}}  {v}")


async def run(args: argparse.Namespace) -> Result:
    timers = Timers(early=args.early)
    kinds = list(KINDS) if args.kinds is None else args.kinds.split(",")
    kill_at = None if args.no_kill else args.seconds * 0.4
    db = None if args.db == "sqlite" else await create_pg_database() if args.db == "postgresql" else args.db
    try:
        with tempfile.TemporaryDirectory() as data:
            return await chaos(ServerProcess(Path(data), db, timers), kinds=kinds, tables=args.tables,
                               seconds=args.seconds, seed=args.seed, kill_at=kill_at, progress=True)
    finally:
        if args.db == "postgresql" and db is not None:
            await drop_pg_database(db)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the clients play")
    parser.add_argument("--tables", type=int, default=14, help="scripted clients, each at its own table")
    parser.add_argument("--db", default="sqlite",
                        help="sqlite, postgresql (a fresh database at 127.0.0.1:5432, dropped after) or a URL")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--early", type=float, default=0.5, help="the server's timers fire this many seconds early")
    parser.add_argument("--kinds", default=None, help=f"client kinds, comma-separated: {', '.join(KINDS)} (all)")
    parser.add_argument("--no-kill", action="store_true", help="no kill -9 and restart (at 40%% of the run)")
    args = parser.parse_args()
    if args.kinds and not set(args.kinds.split(",")) <= set(KINDS):
        parser.error(f"--kinds: one of {', '.join(KINDS)}")
    result = asyncio.run(run(args))
    print_result(result)
    if not result.ok:
        sys.exit("failed: see the invariants above")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
