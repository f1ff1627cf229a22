"""WebSocket ping round-trips while players log in: does Argon2 hashing hold up the event loop?

Starts ``chuanma serve`` in a subprocess (SQLite in a temporary directory), registers ``--logins``
accounts, opens one WebSocket (a guest) that pings the server every 20 ms, and measures the
round-trips first idle, then during each of ``--rounds`` bursts of ``--logins`` concurrent logins.
Prints the idle and the during-logins median and worst round-trip, and the time the burst took.

    python benchmarks/bench_logins.py --logins 8 --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import ClientConnection, connect

from bench_server import start_server

PASSWORD = "a password to benchmark"
PING_EVERY = 0.02


class Pinger:
    """Pings over one socket until stopped, keeping every round-trip (seconds) in :attr:`rtts`."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.rtts: list[float] = []

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            sent = time.perf_counter()
            await self.ws.send(json.dumps({"type": "ping", "v": 1}))
            while json.loads(await self.ws.recv())["type"] != "pong":
                pass
            self.rtts.append(time.perf_counter() - sent)
            await asyncio.sleep(PING_EVERY)

    async def during(self, work: asyncio.Future[object] | None, seconds: float = 0.0) -> list[float]:
        """The round-trips measured while ``work`` runs (or for ``seconds``)."""
        stop = asyncio.Event()
        task = asyncio.create_task(self.run(stop))
        start = len(self.rtts)
        if work is None:
            await asyncio.sleep(seconds)
        else:
            await work
        stop.set()
        await task
        return self.rtts[start:]


def describe(rtts: list[float]) -> str:
    return f"median {1000 * statistics.median(rtts):.0f} ms, worst {1000 * max(rtts):.0f} ms ({len(rtts)} pings)"


async def measure(base: str, logins: int, rounds: int) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        names = [f"bench{i}" for i in range(logins)]
        for name in names:
            r = await http.post("/api/register", json={"username": name, "password": PASSWORD})
            r.raise_for_status()
        token = (await http.post("/api/guest")).json()["token"]
        async with connect(base.replace("http", "ws") + f"/ws?token={token}") as ws:
            await ws.recv()  # hello
            pinger = Pinger(ws)
            print(f"idle:          {describe(await pinger.during(None, 2.0))}")
            for n in range(rounds):
                started = time.perf_counter()
                burst = asyncio.gather(*(http.post("/api/login", json={"username": u, "password": PASSWORD})
                                         for u in names))
                rtts = await pinger.during(burst)
                statuses = sorted({r.status_code for r in burst.result()})
                print(f"{logins} logins #{n + 1}: {describe(rtts)}; the logins took "
                      f"{time.perf_counter() - started:.2f} s (status {statuses})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logins", type=int, default=8, help="concurrent logins per burst")
    parser.add_argument("--rounds", type=int, default=3, help="bursts measured")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_server(Path(tmp), None, None, Path(tmp) / "server.log")
        try:
            asyncio.run(measure(base, args.logins, args.rounds))
        finally:
            proc.terminate()
            proc.wait(30)


if __name__ == "__main__":
    main()
