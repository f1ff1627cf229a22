"""Time for the server: the system clock, or a manual one that tests move by hand.

Every timer (decision deadlines, the bot-fill wait, rate limits, daily top-ups) reads an injected
:class:`Clock`, so tests never sleep: they call :meth:`ManualClock.advance`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Protocol


class Timer(Protocol):
    """A callback waiting for its moment; ``cancel`` stops it."""

    def cancel(self) -> object: ...


class Clock(Protocol):
    """Seconds since the epoch, and a way to wait until a moment."""

    def now(self) -> float: ...

    async def sleep_until(self, moment: float) -> None: ...

    def call_at(self, moment: float, callback: Callable[[], None]) -> Timer:
        """Call ``callback`` (in the event loop) once the time reaches ``moment``."""
        ...


class SystemClock:
    """The real time."""

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, moment: float) -> None:
        await asyncio.sleep(max(0.0, moment - time.time()))

    def call_at(self, moment: float, callback: Callable[[], None]) -> Timer:
        return asyncio.get_running_loop().call_later(max(0.0, moment - time.time()), callback)


class EarlyClock(SystemClock):
    """The real time, with timers that fire up to ``early`` seconds before their moment (as uvloop's
    may, rounding to its clock's resolution): here always the earliest, so a table that trusts its
    timer to come on time is caught every time."""

    def __init__(self, early: float) -> None:
        self.early = early

    def call_at(self, moment: float, callback: Callable[[], None]) -> Timer:
        return asyncio.get_running_loop().call_later(max(0.0, moment - self.early - time.time()), callback)


class ManualClock:
    """A clock that moves only when told to (:meth:`advance`); waiters wake when it passes them."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._waiters: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self._now

    async def sleep_until(self, moment: float) -> None:
        if moment <= self._now:
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append((moment, fut))
        await fut

    def call_at(self, moment: float, callback: Callable[[], None]) -> Timer:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        fut.add_done_callback(lambda f: None if f.cancelled() else callback())
        if moment <= self._now:
            fut.set_result(None)
        else:
            self._waiters.append((moment, fut))
        return fut

    def advance(self, seconds: float) -> None:
        """Move the time on by ``seconds`` and wake everyone whose moment has come."""
        self._now += seconds
        due = [(m, f) for m, f in self._waiters if m <= self._now]
        self._waiters = [(m, f) for m, f in self._waiters if m > self._now]
        for _, fut in due:
            if not fut.done():
                fut.set_result(None)
