"""The chips' invariants over thousands of hands played through the server: the longest of the
server's tests, in a file for each database (``test_server_many_hands_*.py``) so that the test run's
workers play the two at once."""

from __future__ import annotations

import asyncio

from server_harness import auto_table, hands_of, make_config, running


def thousands_of_hands_keep_every_chip(db_url: str) -> None:
    """2,048 hands on 32 tables (64 hands each, a private table's most) of eight presets, every
    seat decided by the server's bots: the sum of balances is the sum of grants, no balance is
    below zero, every hand's ledger sums to zero, and every hand is settled once. The chips'
    invariants do not depend on how well the bots play: the cheapest bot plays every seat."""
    hands_per_table = 64

    async def scenario() -> None:
        async with running(make_config(db_url, bot_name="greedy")) as run:
            presets = ["xuezhan", "xueliu", "classic", "classic-normal", "dazhong", "portal-xueliu",
                       "doublewin-xuezhan", "doublewin-xueliu"] * 4
            clients = await asyncio.gather(*(auto_table(run, hands_per_table, p) for p in presets))
            assert sum(len(hands_of(c.seen)) for c in clients) == 32 * hands_per_table
            audit = await run.server.store.audit()
            assert audit["hands"] == 32 * hands_per_table
            assert audit["balances"] == audit["grants"] and audit["lowest"] >= 0 and audit["unbalanced_hands"] == 0
    asyncio.run(scenario())
