"""Time for the server: the system clock, or test clocks (moved by hand, firing early, or sped up).

Every timer (decision deadlines, the bot-fill wait, rate limits, relief chips) reads an injected
:class:`Clock`, so tests never sleep: they call :meth:`ManualClock.advance`. A timer's callback
never runs before its moment by :meth:`Clock.now`: the event loop may run it a little early
(uvloop rounds delays to whole milliseconds), and then it waits again for the rest.
"""

from __future__ import annotations

import asyncio
import random
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
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        timer = self.call_at(moment, lambda: None if woken.done() else woken.set_result(None))
        try:
            await woken
        finally:
            timer.cancel()

    def call_at(self, moment: float, callback: Callable[[], None]) -> Timer:
        return _Alarm(self, moment, callback)

    def call_later(self, delay: float, callback: Callable[[], None]) -> asyncio.TimerHandle:
        """The event loop's timer, which may run ``callback`` a little before ``delay`` has passed."""
        return asyncio.get_running_loop().call_later(delay, callback)


RETRY_SLACK = 0.001
"""Added to the rest of a wait when a timer ran early: the loop's granularity (uvloop: 1 ms)."""


class _Alarm:
    """A :meth:`SystemClock.call_at` timer: run early by the loop, it waits again for the rest."""

    def __init__(self, clock: SystemClock, moment: float, callback: Callable[[], None]) -> None:
        self.clock, self.moment, self.callback = clock, moment, callback
        self.handle = clock.call_later(max(0.0, moment - clock.now()), self.fire)

    def fire(self) -> None:
        left = self.moment - self.clock.now()
        if left > 0:
            self.handle = self.clock.call_later(left + RETRY_SLACK, self.fire)
        else:
            self.callback()

    def cancel(self) -> None:
        self.handle.cancel()


class EarlyClock(SystemClock):
    """The real time, with an event loop that runs each timer up to ``early`` seconds before its
    moment (as uvloop's do, by less than a millisecond): a test clock for the re-arming."""

    def __init__(self, early: float, seed: int = 0) -> None:
        self.early = early
        self.rng = random.Random(seed)

    def call_later(self, delay: float, callback: Callable[[], None]) -> asyncio.TimerHandle:
        return super().call_later(delay - self.rng.uniform(0.0, min(self.early, delay)), callback)


class ScaledClock(SystemClock):
    """The real time run ``speed`` times faster from the moment it is made: a benchmark's clock, whose
    timers and measured answer times are in the game's seconds while the run takes ``1/speed`` of them."""

    def __init__(self, speed: float) -> None:
        self.speed = speed
        self.origin = time.time()

    def now(self) -> float:
        return self.origin + (time.time() - self.origin) * self.speed

    def call_later(self, delay: float, callback: Callable[[], None]) -> asyncio.TimerHandle:
        return super().call_later(delay / self.speed, callback)


class ManualClock:
    """A clock that moves only when told to (:meth:`advance`); waiters wake when it passes them.

    With ``early``, a :meth:`call_at` timer whose moment is more than ``early`` seconds ahead
    fires that much before it, and is not set again (the callers' own re-arming is tested so).
    """

    def __init__(self, start: float = 1_800_000_000.0, early: float = 0.0) -> None:
        self._now = start
        self.early = early
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
        if moment - self.early > self._now:
            self._waiters.append((moment - self.early, fut))
        elif moment <= self._now:
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
