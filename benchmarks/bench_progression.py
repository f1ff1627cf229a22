"""What progression costs: a settlement with and without its figures (``hand_players`` rows and two
ratings updates), and the reads of a profile and a leaderboard once many hands are stored.

Run: ``python benchmarks/bench_progression.py`` (``--hands``, ``--players``, ``--db``; SQLite in a
temporary directory by default). Prints the CPU ms (``time.process_time``: steadier than the wall
clock on a busy machine) per settlement both ways (the median, the commit included), then per
profile (one's own, and another player's: a private table's hands left out) and per leaderboard
(the median, their queries and their reading alone).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from chuanma.bots import make_bot
from chuanma.rules import RuleSet
from chuanma.server.config import BOT_LEVELS
from chuanma.server.progress import leaderboard, profile, settle_hook
from chuanma.server.store import Store, open_store, sqlite_url
from chuanma.sim.play import deal_for, play_hand
from chuanma.tiles import SICHUAN_TILES

RECORDS = 20
"""Different records the hands cycle through (greedy bots' 血战 hands)."""


def records() -> list[dict[str, Any]]:
    out = []
    for seed in range(RECORDS):
        result = play_hand(RuleSet.from_preset("xuezhan"), deal_for(seed, 0, SICHUAN_TILES),
                           [make_bot("greedy", seat) for seat in range(4)], record=True)
        assert result.record is not None
        out.append(result.record)
    return out


async def settle_many(store: Store, users: list[int], hands: int, tag: str, recs: list[dict[str, Any]]) -> list[float]:
    rng = random.Random(7)
    await store.create_table({"id": f"t-{tag}", "room": "chuji-xuezhan", "rules": "xuezhan", "seats": [None] * 4,
                              "status": "open", "created_at": 0.0})
    times = []
    for n in range(hands):
        seats = rng.sample(users, 4)
        hand_id = f"{tag}-{n}"
        await store.create_hand({"id": hand_id, "table_id": f"t-{tag}", "number": n, "server_seed": "",
                                 "commitment": "", "session": {}, "seats": seats, "status": "playing"})
        record = recs[n % len(recs)]
        deltas = {u: int(d) for u, d in zip(seats, record["result"]["deltas"], strict=True)}
        start = time.process_time()
        await store.settle(hand_id, record, deltas, {}, float(n))
        times.append(time.process_time() - start)
    return times


def timed(call: Callable[[], object], times: int = 20) -> list[float]:
    """``call``'s CPU times, each in seconds (on the database's own thread: no hop counted)."""
    out = []
    for _ in range(times):
        start = time.process_time()
        call()
        out.append(time.process_time() - start)
    return out


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(args.db or sqlite_url(Path(tmp)))
        try:
            users = [await store.create_user(f"p{i}", None, "player", 1_000_000, 0.0) for i in range(args.players)]
            ids = [u for u in users if u is not None]
            recs = records()
            plain = await settle_many(store, ids, args.hands, "plain", recs)
            store.on_settle = settle_hook(BOT_LEVELS)
            rated = await settle_many(store, ids, args.hands, "rated", recs)
            ms = 1000.0
            print(f"settlement without progression: {statistics.median(plain) * ms:.2f} ms (median of {len(plain)})")
            print(f"settlement with progression:    {statistics.median(rated) * ms:.2f} ms (median of {len(rated)})")
            user = await store.user(ids[0])
            assert user is not None
            reads = await store.read(lambda conn: timed(lambda: profile(conn, user, ids[0])))
            seen = await store.read(lambda conn: timed(lambda: profile(conn, user, ids[1])))
            now = float(args.hands)
            board = await store.read(lambda conn: timed(lambda: leaderboard(conn, "all", "all", 1, now, 100)))
            per_player = args.hands * 4 // len(ids)
            print(f"profile ({per_player} hands of the player): {statistics.median(reads) * ms:.2f} ms,"
                  f" seen by another player {statistics.median(seen) * ms:.2f} ms")
            print(f"leaderboard ({args.hands} hands, {len(ids)} players): {statistics.median(board) * ms:.2f} ms")
        finally:
            await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--db", default=None, help="a database URL (default: SQLite in a temporary directory)")
    asyncio.run(main(parser.parse_args()))
