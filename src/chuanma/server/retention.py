"""How long identity data is kept (docs/server.md, Privacy): the ``logins`` rows are forgotten
``login_days`` after they were written, by the server once a day and by ``chuanma admin purge-logins``."""

from __future__ import annotations

import logging

from chuanma.server.clock import Clock
from chuanma.server.honesty import purge_visits
from chuanma.server.store import Store

log = logging.getLogger("chuanma.server.retention")
DAY = 86_400.0


async def purge_logins(store: Store, now: float, days: float) -> int:
    """Delete the ``logins`` rows more than ``days`` old at ``now``; returns how many."""
    return await store.write(lambda conn: purge_visits(conn, now - days * DAY))


async def purge_daily(store: Store, clock: Clock, days: float) -> None:
    """Purge the old ``logins`` rows now, then once a day, until cancelled (a failure is logged and
    tried again the next day)."""
    while True:
        try:
            purged = await purge_logins(store, clock.now(), days)
            log.info("logins purged", extra={"rows": purged, "days": days})
        except Exception:
            log.exception("logins not purged")
        await clock.sleep_until(clock.now() + DAY)
