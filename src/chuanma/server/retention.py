"""How long identity data is kept (docs/server.md, Privacy): the ``logins`` rows, and when each
decision's prompt was sent (``decisions.asked``), are forgotten ``login_days`` after they were
written, by the server once a day and by ``chuanma admin purge-logins``."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from sqlalchemy import Connection

from chuanma.server.bot_timing import forget_times
from chuanma.server.clock import Clock
from chuanma.server.honesty import purge_visits
from chuanma.server.store import Store

log = logging.getLogger("chuanma.server.retention")
DAY = 86_400.0


async def purge_logins(store: Store, now: float, days: float) -> int:
    """Delete the ``logins`` rows more than ``days`` old at ``now`` and forget the prompts' times of
    the decisions as old; returns how many ``logins`` rows."""
    def work(conn: Connection) -> int:
        forget_times(conn, now - days * DAY)
        return purge_visits(conn, now - days * DAY)
    return await store.write(work)


async def every_day(clock: Clock, what: str, job: Callable[[], Awaitable[dict[str, float]]]) -> None:
    """Run ``job`` now, then once a day, until cancelled: ``what`` is logged with the figures it
    returns; a failure is logged and tried again the next day."""
    while True:
        try:
            log.info(what, extra=await job())
        except Exception:
            log.exception("failed: %s", what)
        await clock.sleep_until(clock.now() + DAY)


async def purge_daily(store: Store, clock: Clock, days: float) -> None:
    """Purge the old ``logins`` rows now, then once a day, until cancelled."""
    async def purge() -> dict[str, float]:
        return {"rows": await purge_logins(store, clock.now(), days), "days": days}
    await every_day(clock, "logins purged", purge)
