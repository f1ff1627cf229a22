"""The per-address (and per-device) limits of the HTTP routes (logins and registrations, guests,
private tables, password-reset requests, reads): one :class:`Limit` interface, chosen at start.

- A lone server counts in process (:class:`LocalLimit`, a :class:`RateLimiter` token bucket).
- A node of a cluster counts in Redis (:class:`SharedLimit`): the same token bucket, kept in one
  Redis hash per limit and key (``<prefix>limit:<name>:<key>``) and spent by a Lua script in one
  step, so every node spends one address's budget and a restarted node finds what was spent. The
  time is the node's clock (the nodes' clocks agree closely enough for budgets of minutes and hours).
  A Redis out of reach locks nobody out: the node counts in process meanwhile (logged once, and once
  again when Redis answers), trying Redis again after :data:`RETRY` seconds.

The per-connection message budget of :mod:`chuanma.server.ws` stays in process: it is a socket's.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from chuanma.server.accounts import RateLimiter
from chuanma.server.bus import UNREACHABLE

log = logging.getLogger("chuanma.server.limits")
WAIT = 0.5
"""Seconds a limit waits at most for Redis before counting in process."""
RETRY = 5.0
"""Seconds a node counts in process after Redis failed it, before trying Redis again."""
BUCKET = """
local rate, burst, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local held = redis.call('HMGET', KEYS[1], 'level', 'at')
local level, at = tonumber(held[1]), tonumber(held[2])
if level == nil or at == nil then level, at = burst, now end
level = math.min(burst, level + math.max(0, now - at) * rate)
local allowed = 0
if level >= 1 then level = level - 1; allowed = 1 end
redis.call('HSET', KEYS[1], 'level', string.format('%.17g', level), 'at', string.format('%.17g', now))
if rate > 0 then redis.call('PEXPIRE', KEYS[1], math.ceil((burst - level) / rate * 1000) + 1000) end
return allowed
"""
"""Redis's script of :class:`SharedLimit`: :meth:`RateLimiter.allow`'s token bucket, one step; the
hash expires once the bucket is full again (a full bucket is the same as none)."""


class Limit(Protocol):
    """So many requests per key (a client address, or ``device:<id>``) within a time, in bursts up to the count."""

    async def allow(self, key: str) -> bool:
        """Spend one of ``key``'s budget; ``False``: none left."""
        ...


@dataclass(slots=True)
class LocalLimit:
    """A limit counted in this process."""

    bucket: RateLimiter

    async def allow(self, key: str) -> bool:
        return self.bucket.allow(key)


@dataclass
class Reach:
    """One node's Redis for its limits, and whether it answers (shared by the node's limits)."""

    redis: Any
    prefix: str
    now: Callable[[], float]
    down_until: float = -math.inf
    """Until when the limits count in process (Redis failed them)."""
    down: bool = False

    @classmethod
    def of(cls, url: str, prefix: str, now: Callable[[], float]) -> Reach:
        """A client of Redis at ``url`` (connected at its first use) for the cluster of ``prefix``."""
        import redis.asyncio as aioredis

        return cls(aioredis.from_url(url, socket_timeout=WAIT, socket_connect_timeout=WAIT), prefix, now)

    async def close(self) -> None:
        await self.redis.aclose()

    async def spend(self, key: str, rate: float, burst: float) -> bool | None:
        """Spend one of the bucket of ``key`` in Redis; ``None``: Redis is out of reach."""
        now = self.now()
        if now < self.down_until:
            return None
        try:
            allowed = await self.redis.eval(BUCKET, 1, f"{self.prefix}limit:{key}", repr(rate), repr(burst), repr(now))
        except UNREACHABLE as exc:
            self.down_until = now + RETRY
            if not self.down:
                log.warning("Redis is out of reach (%s): the rate limits count in this process meanwhile", exc)
                self.down = True
            return None
        if self.down:
            log.warning("Redis answers again: the rate limits count in the cluster")
            self.down = False
        return bool(allowed)


@dataclass(slots=True)
class SharedLimit:
    """A limit counted in Redis by every node of the cluster (in process while Redis is out of reach)."""

    reach: Reach
    name: str
    fallback: RateLimiter

    async def allow(self, key: str) -> bool:
        allowed = await self.reach.spend(f"{self.name}:{key}", self.fallback.rate, self.fallback.burst)
        return self.fallback.allow(key) if allowed is None else allowed


def limiter(now: Callable[[], float], reach: Reach | None) -> Callable[[str, int, float], Limit]:
    """What makes a node's limits: ``(name, count, seconds)``, ``count`` per ``seconds`` (all at once,
    or spread); in Redis with ``reach``, else in process."""
    def make(name: str, count: int, seconds: float) -> Limit:
        bucket = RateLimiter(now, count / seconds, count)
        return LocalLimit(bucket) if reach is None else SharedLimit(reach, name, bucket)
    return make
