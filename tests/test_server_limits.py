"""What a connection may hold and send: its watches end with it, the message rate limit fits
the protocol, and the login rate limit counts the address that connects unless a proxy is trusted."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from server_harness import TIMEOUT, Client, account, db_url, make_config, pg_database, running

__all__ = ["db_url", "pg_database"]


async def eventually(condition: Callable[[], bool]) -> None:
    """Wait until ``condition`` holds (what a closed connection leaves behind is cleared a moment
    after it closes); fail if it still does not after the harness's timeout."""
    async with asyncio.timeout(TIMEOUT):
        while not condition():
            await asyncio.sleep(0.01)


async def seated_with_bots(base: str) -> Client:
    acc = await account(base)
    client = await Client.open(base, acc["token"], acc["user"]["username"])
    await client.send("join", room="classic", bots=True)
    await client.expect("seated")
    return client


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
