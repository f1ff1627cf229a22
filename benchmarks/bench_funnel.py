"""The chip funnel, attacked: fresh guests from one address feed one account through its private
tables, each guest escaping (逃跑) right after the deal, asking for relief chips, escaping again, for a
simulated day (``--guests``, up to ``--grants-per-day`` and beyond, ``--rounds`` escapes each: the
starting grant and the day's three reliefs).

It runs twice against this checkout's server (``chuanma serve``) on SQLite: with the limits of
docs/server.md, Keeping chips honest, off (the old behaviour: ``--relief-hands 0 --trusted-hands 0
--grants-per-day 10000 --no-private-base-rule``) and on (the defaults), and prints side by side the
chips moved to the collector in all and per guest, the guests refused and the reliefs paid. The
server's other limits (guests and private tables per hour) are opened in both runs: a day's attack
is played in seconds.

    python benchmarks/bench_funnel.py [--guests 40] [--rounds 4] [--base 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from bench_server import start_server
from chuanma.server.store import open_store, sqlite_url

OPEN = ("--auth-per-minute", "10000", "--guests-per-hour", "10000", "--private-tables-per-hour", "10000",
        "--private-tables", "100", "--auto-delay", "0")
"""Both runs: the per-hour limits out of the way (a day in seconds)."""
OFF = ("--relief-hands", "0", "--trusted-hands", "0", "--grants-per-day", "10000", "--no-private-base-rule")
"""The limits of Keeping chips honest off: the old behaviour."""
TIMEOUT = 30.0


class Socket:
    """One WebSocket of a player."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws

    @classmethod
    async def open(cls, base: str, token: str) -> Socket:
        socket = cls(await connect(base.replace("http", "ws") + f"/ws?token={token}"))
        await socket.expect("hello")
        return socket

    async def send(self, type_: str, **fields: Any) -> None:
        await self.ws.send(json.dumps({"type": type_, "v": 1, **fields}))

    async def expect(self, *types: str) -> dict[str, Any]:
        while True:
            msg: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), TIMEOUT))
            if msg["type"] in types:
                return msg


async def escape_round(http: httpx.AsyncClient, base: str, collector: dict[str, Any], guest: dict[str, Any],
                       stakes: int) -> bool:
    """The collector opens a one-hand private table (two bots); the guest joins by invite and leaves
    once dealt, then asks ``/api/me`` (relief). False if the guest could not sit."""
    r = await http.post("/api/tables", json={"preset": "xuezhan", "hands": 1, "bots": 2, "bot_level": "easy",
                                             "options": {"base": stakes}},
                        headers={"authorization": f"Bearer {collector['token']}"})
    if r.status_code != 200:
        return False
    invite = r.json()["invite"]
    c, g = await Socket.open(base, collector["token"]), await Socket.open(base, guest["token"])
    try:
        await c.send("join_private", invite=invite)
        await c.expect("seated")
        await g.send("join_private", invite=invite)
        if (await g.expect("seated", "error"))["type"] == "error":
            await c.send("leave")
            await c.expect("table_closed")
            return False
        await c.send("ready")
        await g.send("ready")
        while not (await g.expect("hand_start")).get("dealt"):
            pass
        await g.send("leave")
        await c.expect("hand_end")
        await c.expect("table_closed")
    finally:
        await c.ws.close()
        await g.ws.close()
    await http.get("/api/me", headers={"authorization": f"Bearer {guest['token']}"})
    return True


async def attack(options: tuple[str, ...], args: argparse.Namespace) -> dict[str, Any]:
    """One simulated day of the attack against a fresh server with ``options``."""
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        proc, base = start_server(data, None, None, data / "server.log", (*OPEN, *options))
        try:
            async with httpx.AsyncClient(base_url=base, timeout=TIMEOUT) as http:
                collector = (await http.post("/api/register", json={"username": "collector",
                                                                    "password": "correct horse"})).json()
                made, refused, rounds = 0, 0, 0
                for _ in range(args.guests):
                    r = await http.post("/api/guest")
                    if r.status_code != 200:
                        refused += 1
                        continue
                    made += 1
                    for _ in range(args.rounds):
                        rounds += await escape_round(http, base, collector, r.json(), args.base)
                me = (await http.get("/api/me", headers={"authorization": f"Bearer {collector['token']}"})).json()
        finally:
            proc.terminate()
            proc.wait()
        store = await open_store(sqlite_url(data))
        try:
            reliefs, lost = await store.read(lambda conn: conn.exec_driver_sql(
                "SELECT sum(kind = 'relief'), -sum(CASE WHEN kind = 'escape' THEN amount ELSE 0 END) "
                "FROM ledger").one())
        finally:
            await store.close()
    moved = int(me["balance"]) - 10_000
    return {"guests made": made, "guests refused": refused, "escapes": rounds, "reliefs paid": int(reliefs),
            "chips the guests lost": int(lost), "chips to the collector": moved,
            "per guest": round(moved / made) if made else 0}


async def run(args: argparse.Namespace) -> None:
    started = time.perf_counter()
    off = await attack(OFF, args)
    on = await attack((), args)
    print(f"{args.guests} guests from one address, {args.rounds} escapes each at base {args.base:,}:")
    print(f"{'':24}{'limits off':>14}{'limits on':>14}")
    for key in off:
        print(f"{key:24}{off[key]:>14,}{on[key]:>14,}")
    print(f"({time.perf_counter() - started:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guests", type=int, default=40, help="guests the attacker makes in the day")
    parser.add_argument("--rounds", type=int, default=4, help="escapes per guest (the grant and three reliefs)")
    parser.add_argument("--base", type=int, default=1_000, help="the private tables' base")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
