"""What a connection may hold and send: its watches end with it, the message rate limit fits
the protocol, and the login rate limit counts the address that connects unless a proxy is trusted."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx

from chuanma.server import protocol as p
from chuanma.server.accounts import RateLimiter
from chuanma.server.config import ServerConfig
from chuanma.server.ws import MAX_OWED, Budget
from server_harness import TIMEOUT, Client, account, db_url, make_config, pg_database, running, seated_with_bots

__all__ = ["db_url", "pg_database"]
DEFAULT_RATE = ServerConfig(db_url="").messages_per_second


async def eventually(condition: Callable[[], bool]) -> None:
    """Wait until ``condition`` holds (what a closed connection leaves behind is cleared a moment
    after it closes); fail if it still does not after the harness's timeout."""
    async with asyncio.timeout(TIMEOUT):
        while not condition():
            await asyncio.sleep(0.01)


def test_a_closed_connection_stops_watching_every_table(db_url: str) -> None:
    """A spectator of two tables (one watched twice, with views) and a player watching another
    table: once they disconnect, no table keeps sending to them."""
    async def scenario() -> None:
        async with running(make_config(db_url, bot_wait=0.0)) as run:
            first, second = await seated_with_bots(run.base), await seated_with_bots(run.base)
            one, two = run.server.host.tables[first.table], run.server.host.tables[second.table]
            seat = two.seats[second.seat]
            acc = await account(run.base)
            watcher = await Client.open(run.base, acc["token"])
            for table, views in ((one.id, False), (two.id, True), (one.id, True)):
                await watcher.send("watch", table=table, views=views)
                await watcher.expect("seated")
            await second.send("watch", table=one.id)
            await second.expect("seated")
            assert (len(one.spectators), len(one.spectator_views)) == (2, 1)
            assert (len(two.spectators), len(two.spectator_views)) == (1, 1) and len(seat.sends) == 1
            await watcher.close()
            await second.close()
            await eventually(lambda: not (one.spectators or one.spectator_views or two.spectators
                                          or two.spectator_views or seat.sends))
            assert len(one.seats[first.seat].sends) == 1  # the player still connected keeps its seat's messages
    asyncio.run(scenario())


def test_a_forwarded_address_counts_only_from_a_trusted_proxy(db_url: str) -> None:
    """Three logins a minute per address: by default ``X-Forwarded-For`` is ignored, so a client
    cannot get a fresh allowance by naming another address; behind a trusted proxy the address it
    forwards is the one counted."""
    async def guests(run_base: str, addresses: list[str]) -> list[int]:
        async with httpx.AsyncClient(base_url=run_base, timeout=TIMEOUT) as http:
            return [(await http.post("/api/guest", headers={"x-forwarded-for": a})).status_code for a in addresses]

    async def scenario() -> None:
        spoofed = [f"203.0.113.{i}" for i in range(4)]
        async with running(make_config(db_url, auth_per_minute=3)) as run:
            assert await guests(run.base, spoofed) == [200, 200, 200, 429]
        async with running(make_config(db_url, auth_per_minute=3, forwarded_allow_ips="127.0.0.1")) as run:
            assert await guests(run.base, spoofed) == [200] * 4
            assert await guests(run.base, spoofed[:1] * 3) == [200, 200, 429]
    asyncio.run(scenario())


def test_a_player_answering_every_prompt_at_once_is_never_refused_but_a_flood_is(db_url: str) -> None:
    """At the default message rate: against three bots a player who answers each prompt the
    moment it comes sends far more than 20 messages a second, and all are answers the server
    asked for, so none is refused; 200 pings at once are refused beyond the burst."""
    async def scenario() -> None:
        async with running(make_config(db_url, bot_wait=0.0, messages_per_second=DEFAULT_RATE)) as run:
            c = await seated_with_bots(run.base)
            for _ in range(6):
                end = await c.play_hand()  # any error but a stale decision fails it
                assert end["type"] == "hand_end"
            assert c.acts > 2 * DEFAULT_RATE  # more than the steady rate's burst
            for _ in range(200):
                await c.send("ping")
            replies = [await c.expect("pong", "error") for _ in range(200)]
            refused = [r for r in replies if r["type"] == "error"]
            assert refused and {r["code"] for r in refused} == {"rate_limited"}
    asyncio.run(scenario())


def test_each_answer_asked_for_is_allowed_beyond_the_rate_and_no_more() -> None:
    budget = Budget(RateLimiter(lambda: 0.0, 1.0, 2.0))  # the time stands still: no refill
    assert [budget.allow() for _ in range(3)] == [True, True, False]
    budget.asked(p.server_message("prompt", table="t", hand=0, seat=0, version=3, legal=[], seconds=8.0))
    budget.asked(p.server_message("hand_start", table="t", hand=1, commitment="c"))
    budget.asked(p.server_message("hand_start", table="t", hand=1, commitment="c", client_seeds=[], dealt=True))
    budget.asked(p.server_message("events", table="t", hand=1, events=[]))
    assert [budget.allow() for _ in range(3)] == [True, True, False]  # a prompt and a hand to get ready for
    for _ in range(3 * MAX_OWED):
        budget.asked(p.server_message("prompt", table="t", hand=0, seat=0, version=3, legal=[], seconds=8.0))
    assert sum(budget.allow() for _ in range(3 * MAX_OWED)) == MAX_OWED
