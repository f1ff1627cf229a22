"""The cluster's costs: a command that crosses nodes against one that does not, and failover time.

Starts ``chuanma serve --redis`` nodes (``cluster_nodes.py``) on a fresh PostgreSQL database and
Redis. **Routing:** private tables opened on node 0 (three bots and one client), the client
connected to node 0 itself or to node 1, one hand each, the two alternating: the time from sending
an ``act`` to receiving its ``events``, medians and p90 per case and their ratio. **Failover:**
three nodes; a table opened on one node, its client on another; once it plays, the table's node is
killed (``kill -9``) and the time until the client hears from the table again (``resync``, from
its new owner) is measured; a fresh node replaces the dead one, and again, ``--kills`` times.
**Pause:** likewise with the table's node stopped (``SIGSTOP``) until the client's ``resync``, then
woken (``SIGCONT``) while the hand ends on the new owner, ``--pauses`` times. Then the database's
chips are audited (balances equal grants, none negative, every hand sums to zero: else exit 1).

    python benchmarks/bench_cluster.py --rounds 4 --kills 5 --pauses 3 --lease 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import signal
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import httpx
from websockets.asyncio.client import ClientConnection, connect

from chuanma.fairness import VRFKey
from chuanma.fairness.keys import write_key
from chuanma.server.store import open_store
from cluster_nodes import Node

ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
REDIS = "redis://127.0.0.1:6379/0"


async def on_admin(admin: str, sql: str) -> None:
    conn = await asyncpg.connect(admin)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def seated(opener: Node, player: Node, hands: int) -> tuple[ClientConnection, str]:
    """A guest's private table on ``opener`` (three easy bots), the guest connected to ``player``
    and seated; returns the connection and the table."""
    async with httpx.AsyncClient(base_url=opener.base, timeout=30) as http:
        guest = (await http.post("/api/guest")).json()
        auth = {"authorization": f"Bearer {guest['token']}"}
        answer = await http.post("/api/tables", headers=auth, json={"bots": 3, "hands": hands, "bot_level": "easy"})
        assert answer.status_code == 200, answer.text
        made = answer.json()
    ws = await connect(player.base.replace("http", "ws") + f"/ws?token={guest['token']}")
    await ws.send(json.dumps({"type": "join_private", "v": 1, "invite": made["invite"]}))
    return ws, made["table"]


async def next_message(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 60))
    return message


async def play(ws: ClientConnection, rng: random.Random, acts: int | None = None) -> list[float]:
    """Get ready and answer prompts until the hand ends (or ``acts`` are answered); returns the
    seconds from each ``act`` sent to its ``events`` received."""
    took: list[float] = []
    sent: float | None = None
    while acts is None or len(took) < acts:
        msg = await next_message(ws)
        if msg["type"] == "hand_start" and not msg.get("dealt"):
            await ws.send(json.dumps({"type": "ready", "v": 1}))
        elif msg["type"] == "prompt":
            wins = [a for a in msg["legal"] if "hu" in a]
            action = wins[0] if wins else rng.choice(msg["legal"])
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "v": 1, "table": msg["table"], "version": msg["version"],
                                      "action": action}))
        elif msg["type"] == "events" and sent is not None:
            took.append(time.perf_counter() - sent)
            sent = None
        elif msg["type"] in ("hand_end", "table_closed"):
            break
    return took


def figures(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return f"median {statistics.median(ordered) * 1000:.2f} ms, p90 {p90 * 1000:.2f} ms ({len(ordered)} acts)"


async def routing(nodes: list[Node], rounds: int) -> None:
    rng = random.Random(7)
    times: dict[str, list[float]] = {"same node": [], "other node": []}
    for _ in range(rounds):
        for case, player in (("same node", nodes[0]), ("other node", nodes[1])):
            ws, _table = await seated(nodes[0], player, 1)
            times[case] += await play(ws, rng)
            await ws.close()
    for case, values in times.items():
        print(f"routing, client on the {case}: {figures(values)}")
    ratio = statistics.median(times["other node"]) / statistics.median(times["same node"])
    print(f"routing: a command and its events crossing nodes take {ratio:.2f}x the median of the same node")


async def failover(nodes: list[Node], kills: int, start: Any) -> None:
    rng = random.Random(11)
    took: list[float] = []
    for k in range(kills):
        owner = k % len(nodes)
        ws, _table = await seated(nodes[owner], nodes[(owner + 1) % len(nodes)], 16)
        await play(ws, rng, acts=3)
        nodes[owner].kill()
        killed = time.perf_counter()
        while (await next_message(ws))["type"] != "resync":
            pass
        took.append(time.perf_counter() - killed)
        await ws.close()
        nodes[owner] = start(owner, k)
        await nodes[owner].ready()
    print(f"failover (kill -9 of the table's node to its client's resync), {kills} kills: "
          + ", ".join(f"{t:.2f}" for t in took) + f" s; median {statistics.median(took):.2f} s")


async def pauses(nodes: list[Node], count: int) -> None:
    rng = random.Random(13)
    took: list[float] = []
    for k in range(count):
        owner = k % len(nodes)
        ws, _table = await seated(nodes[owner], nodes[(owner + 1) % len(nodes)], 1)
        await play(ws, rng, acts=3)
        nodes[owner].proc.send_signal(signal.SIGSTOP)
        paused = time.perf_counter()
        try:
            while (await next_message(ws))["type"] != "resync":
                pass
            took.append(time.perf_counter() - paused)
        finally:
            nodes[owner].proc.send_signal(signal.SIGCONT)
        await play(ws, rng)  # the hand ends on its new owner; the woken node writes nothing more for it
        await ws.close()
    print(f"pause (SIGSTOP of the table's node to its client's resync; then SIGCONT), {count} pauses: "
          + ", ".join(f"{t:.2f}" for t in took) + f" s; median {statistics.median(took):.2f} s")


async def audit(db: str) -> bool:
    """Print the chips invariants of ``db``; whether they hold."""
    store = await open_store(db)
    try:
        figures = await store.audit()
    finally:
        await store.close()
    held = figures["balances"] == figures["grants"] and figures["lowest"] >= 0 and not figures["unbalanced_hands"]
    print(f"audit: {figures} ({'held' if held else 'FAILED'})")
    return held


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--admin", default=ADMIN, help="a PostgreSQL URL to create the benchmark's database from")
    parser.add_argument("--redis", default=REDIS)
    parser.add_argument("--rounds", type=int, default=4, help="hands per routing case")
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--pauses", type=int, default=3)
    parser.add_argument("--lease", type=float, default=2.0, help="the nodes' --lease-seconds")
    args = parser.parse_args()
    name = f"chuanma_bench_{secrets.token_hex(4)}"
    await on_admin(args.admin, f"CREATE DATABASE {name}")
    db = args.admin.replace("postgresql://", "postgresql+asyncpg://").rsplit("/", 1)[0] + f"/{name}"
    work = Path(tempfile.mkdtemp(prefix="bench_cluster_"))
    key = write_key(VRFKey(secrets.token_bytes(32)), work / "dealer.key")

    def start(index: int, generation: int) -> Node:
        return Node.start(db, args.redis, work / f"n{index}-{generation}", key, args.lease)

    nodes = [start(k, -1) for k in range(3)]
    try:
        await asyncio.gather(*(n.ready() for n in nodes))
        await routing(nodes, args.rounds)
        await failover(nodes, args.kills, start)
        await pauses(nodes, args.pauses)
    finally:
        for node in nodes:
            node.stop()
    held = await audit(db)
    await on_admin(args.admin, f"DROP DATABASE {name} WITH (FORCE)")
    print(f"node logs in {work}")
    if not held:
        raise SystemExit(1)


if __name__ == "__main__":
    asyncio.run(main())
