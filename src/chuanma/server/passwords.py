"""Argon2 password hashing off the event loop: a few worker threads and a bounded number of jobs.

One Argon2 hash or verification takes about half a second of CPU; on the event loop it would stall
every table and socket meanwhile. :class:`Passwords` runs them in a thread pool (argon2-cffi releases
the GIL while it hashes) and refuses a job with :class:`PasswordsBusy` once ``limit`` are running or
waiting, so a burst of logins gets a quick refusal instead of an unbounded backlog.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

T = TypeVar("T")


@cache
def dummy_hash() -> str:
    """Verified against when a name is unknown, so that its answer takes as long as a known one's
    (made once, in a worker thread, at the first such login)."""
    return PasswordHasher().hash("not a password of anyone")


class PasswordsBusy(RuntimeError):
    """Too many password hashes or verifications are running or waiting: try again shortly."""


class Passwords:
    """Hash and verify passwords in ``threads`` worker threads, at most ``limit`` jobs at a time."""

    def __init__(self, threads: int, limit: int) -> None:
        self.hasher = PasswordHasher()
        self.limit = limit
        self.pending = 0
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="argon2")

    async def _run(self, job: Callable[[], T]) -> T:
        if self.pending >= self.limit:
            raise PasswordsBusy(f"{self.limit} password checks are already running or waiting")
        self.pending += 1
        future = asyncio.wrap_future(self.pool.submit(job))
        future.add_done_callback(self._finished)  # counted until the thread is done, even if the caller left
        return await asyncio.shield(future)

    def _finished(self, _future: object) -> None:
        self.pending -= 1

    async def hash(self, password: str) -> str:
        return await self._run(lambda: self.hasher.hash(password))

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches the ``stored`` hash (``None``: no password; the check still runs)."""
        def check() -> bool:
            try:
                return self.hasher.verify(stored or dummy_hash(), password) and stored is not None
            except (VerificationError, InvalidHashError):
                return False
        return await self._run(check)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
