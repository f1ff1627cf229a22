"""Timers are never lost: a timer run early by the event loop waits again for the rest, and a
table woken before its deadline sets its timer again; many tables with tiny timers on a loop
that runs every timer early all keep playing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from chuanma.server.clock import EarlyClock, ManualClock
from server_harness import db_url, eventually, make_config, pg_database, running, seated_with_bots

__all__ = ["db_url", "pg_database"]
BOUND = 60.0
"""Real seconds a test waits for what should come at once (only a lost timer makes it wait)."""


def run_on_uvloop(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run ``main`` on uvloop (whose timers run up to a millisecond early) if it is installed."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(main())
        return
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(main())


def test_a_timer_run_early_by_the_loop_waits_for_its_moment() -> None:
    """On a loop that runs every timer up to 20 ms early, ``call_at`` and ``sleep_until`` still
    never return before their moment by the clock."""
    clock = EarlyClock(0.02, seed=1)

    async def main() -> None:
        start = clock.now()
        moments = [start + 0.001 * i for i in range(60)]
        fired: list[float] = []
        done = asyncio.Event()

        def record(moment: float) -> None:
            fired.append(clock.now() - moment)
            if len(fired) == len(moments):
                done.set()

        for moment in moments:
            clock.call_at(moment, lambda m=moment: record(m))
        cancelled = clock.call_at(start + 0.01, lambda: fired.append(-1.0))
        cancelled.cancel()
        await clock.sleep_until(start + 0.03)
        slept = clock.now() - (start + 0.03)
        await asyncio.wait_for(done.wait(), BOUND)
        assert len(fired) == len(moments) and min(fired) >= 0.0, min(fired)
        assert slept >= 0.0, slept

    run_on_uvloop(main)


def test_a_table_woken_before_its_deadline_sets_its_timer_again(db_url: str) -> None:
    """A clock whose timers fire a second early (and are not set again) wakes the table before a
    decision's deadline and before the ready deadline: the table sets its timer again, and the
    deadlines still expire (托管 on; then the player not ready is unseated)."""
    clock = ManualClock(early=1.0)

    async def main() -> None:
        async with running(make_config(db_url, clock=clock, bot_wait=0.0, turn_seconds=20.0,
                                        ready_seconds=60.0)) as run:
            c = await seated_with_bots(run.base)
            await c.send("ready")
            await c.expect("prompt")
            clock.advance(19.5)  # the timer fires (early); the deadline has not passed
            await c.send("resume", table=c.table, hand=c.hand, last=c.last)  # the table has woken
            await c.expect("seated")
            clock.advance(1.0)
            auto = await asyncio.wait_for(c.expect("auto"), BOUND)
            assert auto["seat"] == c.seat and auto["on"] is True
            await c.expect("hand_end")
            await c.expect("hand_start")  # the next hand: this player does not get ready
            clock.advance(59.5)
            await c.send("resume", table=c.table, hand=c.hand, last=c.last)
            await c.expect("seated")
            clock.advance(1.0)
            closed = await asyncio.wait_for(c.expect("table_closed"), BOUND)
            assert closed["reason"] == "not ready in time"

    asyncio.run(main())


def test_auto_play_makes_one_decision_per_pause_and_stops_when_turned_off(db_url: str) -> None:
    """On 托管 the bot decides once at the timeout, then once per ``auto_delay`` of the clock (no
    further decision while the clock stands still); turned off, the player is prompted again."""
    clock = ManualClock()

    async def main() -> None:
        async with running(make_config(db_url, clock=clock, bot_wait=0.0, turn_seconds=20.0,
                                        auto_delay=1.0)) as run:
            c = await seated_with_bots(run.base)
            await c.send("ready")
            await c.expect("prompt")
            table = run.server.host.tables[c.table]
            assert table.game is not None

            def autos() -> int:  # the player never acts: its seat's decisions are its bot's
                assert table.game is not None
                return sum(1 for seat, _ in table.game.decisions if seat == c.seat)
            clock.advance(20.0)
            assert (await asyncio.wait_for(c.expect("auto"), BOUND))["on"] is True
            await eventually(lambda: autos() == 1)
            for _ in range(20):
                await asyncio.sleep(0)  # the table runs, the clock stands still: no second decision
            assert autos() == 1
            clock.advance(1.0)
            await eventually(lambda: autos() == 2)
            await c.send("auto", on=False)
            assert (await c.expect("auto"))["on"] is False
            await c.expect("prompt")
            clock.advance(5.0)
            for _ in range(20):
                await asyncio.sleep(0)
            assert autos() == 2

    asyncio.run(main())


async def idle_player(base: str, hands: int) -> str:
    """A player who never decides: ready for ``hands`` hands, 托管 turned off each time the
    deadline turned it on, then not ready; returns why the table let it go."""
    c = await seated_with_bots(base)
    ready = 0
    while True:
        msg = await c.expect("hand_start", "auto", "table_closed")
        if msg["type"] == "table_closed":
            reason: str = msg["reason"]
            return reason
        if msg["type"] == "auto" and msg["seat"] == c.seat and msg["on"]:
            await c.send("auto", on=False)
        elif msg["type"] == "hand_start" and not msg.get("dealt") and ready < hands:
            ready += 1
            await c.send("ready")


def test_many_tables_with_tiny_timers_on_an_early_loop_all_keep_playing(db_url: str) -> None:
    """20 tables of three bots and a player who never decides, 0.05 s to decide and 0.1 s to get
    ready, on a loop that runs every timer up to 20 ms early: every decision of the player times
    out, 托管 plays it, and after two hands each table lets its player go for not being ready."""
    tables, hands = 20, 2
    config = make_config(db_url, clock=EarlyClock(0.02, seed=2), bot_wait=0.0, turn_seconds=0.05,
                         claim_seconds=0.05, ready_seconds=0.1)

    async def main() -> None:
        async with running(config) as run:
            players = [asyncio.create_task(idle_player(run.base, hands)) for _ in range(tables)]
            done, frozen = await asyncio.wait(players, timeout=BOUND)
            for task in frozen:
                task.cancel()
            outcomes = [repr(t.exception()) if t.exception() else t.result() for t in done]
            stopped = len(frozen) + sum(o != "not ready in time" for o in outcomes)
            assert stopped == 0, f"{stopped} of {tables} tables stopped (a timer was lost): {outcomes}"

    run_on_uvloop(main)
