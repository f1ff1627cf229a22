"""The per-address limits of a cluster are counted in Redis: every node spends one address's
budget, a restarted node finds what was spent, and a Redis out of reach locks nobody out."""

from __future__ import annotations

import asyncio
import logging
import secrets

import httpx
import pytest

from chuanma.server.limits import LocalLimit, Reach, SharedLimit, limiter
from cluster_harness import REDIS, cluster_db, redis_reachable
from cluster_nodes import free_port
from server_harness import TIMEOUT, ManualClock, make_config, pg_database, running

__all__ = ["cluster_db", "pg_database"]


@pytest.fixture
def redis() -> str:
    why = redis_reachable()
    if why is not None:
        pytest.skip(f"Redis at 127.0.0.1:6379 is not reachable ({why}): the cluster tests skip")
    return REDIS


def test_two_nodes_spend_one_budget_that_a_restarted_node_still_counts(redis: str) -> None:
    """Three logins a minute per address: two nodes' limits (each its own Redis connection) spend
    one address's three together, a node started again finds none left, another address has its
    own, and a minute later the budget is back."""
    async def scenario() -> None:
        clock, prefix = ManualClock(1000.0), f"chuanma:test-{secrets.token_hex(4)}:"
        a, b = Reach.of(redis, prefix, clock.now), Reach.of(redis, prefix, clock.now)
        try:
            on_a, on_b = limiter(clock.now, a)("auth", 3, 60.0), limiter(clock.now, b)("auth", 3, 60.0)
            assert isinstance(on_a, SharedLimit)
            assert [await on_a.allow("1.2.3.4"), await on_b.allow("1.2.3.4"), await on_a.allow("1.2.3.4")] == [True] * 3
            assert not await on_b.allow("1.2.3.4") and not await on_a.allow("1.2.3.4")
            assert await on_b.allow("5.6.7.8")
            assert await limiter(clock.now, b)("guests", 3, 60.0).allow("1.2.3.4")  # another limit, its own budget
        finally:
            await a.close()
        restarted = Reach.of(redis, prefix, clock.now)
        try:
            again = limiter(clock.now, restarted)("auth", 3, 60.0)
            assert not await again.allow("1.2.3.4")
            clock.advance(20.0)  # one back
            assert await again.allow("1.2.3.4") and not await again.allow("1.2.3.4")
            clock.advance(60.0)
            assert [await again.allow("1.2.3.4") for _ in range(4)] == [True] * 3 + [False]
        finally:
            await restarted.close()
            await b.close()
    asyncio.run(scenario())


def test_a_redis_out_of_reach_counts_in_process_and_says_so_once(caplog: pytest.LogCaptureFixture) -> None:
    """No Redis answers: the limit still allows (and refuses) as the in-process bucket does, the
    warning is logged once, and Redis is tried again only after a while."""
    async def scenario() -> None:
        clock = ManualClock(0.0)
        reach = Reach.of(f"redis://127.0.0.1:{free_port()}/0", "chuanma:gone:", clock.now)
        try:
            limit = limiter(clock.now, reach)("auth", 2, 60.0)
            with caplog.at_level(logging.WARNING, "chuanma.server.limits"):
                assert [await limit.allow("1.2.3.4") for _ in range(3)] == [True, True, False]
            assert ["out of reach" in r.getMessage() for r in caplog.records] == [True]
            assert reach.down_until > clock.now()
        finally:
            await reach.close()
    asyncio.run(scenario())


def test_a_lone_server_counts_in_process() -> None:
    assert isinstance(limiter(lambda: 0.0, None)("auth", 1, 60.0), LocalLimit)


def test_two_nodes_of_a_cluster_share_an_addresss_guests(cluster_db: str) -> None:
    """Two guests an hour per address: one made on each node, the next is refused on both."""
    async def scenario() -> None:
        clock = ManualClock()
        async with running(make_config(cluster_db, clock=clock, redis_url=REDIS, lease_holder="a",
                                       guests_per_hour=2)) as a, \
                running(make_config(cluster_db, clock=clock, redis_url=REDIS, lease_holder="b",
                                    guests_per_hour=2)) as b:
            codes = []
            for base in (a.base, b.base, a.base, b.base):
                async with httpx.AsyncClient(base_url=base, timeout=TIMEOUT) as http:
                    r = await http.post("/api/guest")
                    codes.append((r.status_code, r.json().get("code")))
            assert codes == [(200, None), (200, None), (429, "too_many_guests"), (429, "too_many_guests")]
    asyncio.run(scenario())
