"""Accounts: usernames, Argon2 password hashes, session tokens, guests (and their claim to a name),
grants, relief chips and rate limits.

Usernames are unique without regard to case (the database holds a unique index on the lower-cased
name) and a login finds its account whatever the case typed; the name keeps the case it was
registered with. A session token expires after ``session_seconds`` without use (sliding).
"""

from __future__ import annotations

import hashlib
import math
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chuanma.server.bans import ban_of, ban_words
from chuanma.server.clock import Clock
from chuanma.server.honesty import GrantsSpentError, Visit
from chuanma.server.passwords import Passwords
from chuanma.server.rooms import LOWEST_ENTRY
from chuanma.server.store import Row, Store

USERNAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,19}")
"""3 to 20 letters, digits or underscores, starting with a letter."""
MIN_PASSWORD = 8
MAX_PASSWORD = 256
DAY = 86_400.0
LOGIN_FAILED = "wrong username or password"
"""The only answer to a failed login: it never says whether the username exists."""


TAKEN = "username: taken, choose another name"
"""Registering (or claiming a guest account) under a name taken, in any case: a name's format is
``bad_username``, this ``username_taken``."""


class AccountError(ValueError):
    """A registration or login refused; the message names the field and is safe to show."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def check_username(name: object) -> str:
    if not isinstance(name, str) or not USERNAME.fullmatch(name):
        raise AccountError("username: 3-20 letters, digits or _, starting with a letter", "bad_username")
    return name


def check_password(password: object) -> str:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(f"password: {MIN_PASSWORD}-{MAX_PASSWORD} characters", "bad_password")
    return password


def token_digest(token: str) -> str:
    """What the database keeps of a token (its SHA-256): a stolen database holds no usable token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class Accounts:
    """Registration, login and tokens over a :class:`Store`."""

    store: Store
    clock: Clock
    passwords: Passwords
    starting_grant: int
    session_seconds: float
    """A token unused this long stops working (each use starts the period again)."""
    reliefs_per_day: int = 3
    """Relief chips (破产补助) paid at most this many times a day to one player."""
    relief_hands: int = 0
    """Rated hands a player must play after a grant or relief before the next relief."""
    grants_per_day: int | None = None
    """New accounts one address, or one device, may make a UTC day (``None``: any number)."""

    async def _create(self, username: str, password_hash: str | None, kind: str, visit: Visit) -> int | None:
        """A new account with the starting grant, within the address's and device's grants of the day."""
        now = self.clock.now()
        grants = None if self.grants_per_day is None else (self.grants_per_day, day_start(now))
        try:
            return await self.store.create_user(username, password_hash, kind, self.starting_grant, now, visit, grants)
        except GrantsSpentError as exc:
            raise AccountError(str(exc), "too_many_grants") from None

    async def register(self, username: object, password: object, visit: Visit) -> tuple[Row, str]:
        name, pw = check_username(username), check_password(password)
        user_id = None
        if await self.store.user_by_name(name) is None:  # no hash spent on a name taken
            user_id = await self._create(name, await self.passwords.hash(pw), "player", visit)
        if user_id is None:
            # registering cannot hide that a name is taken; logging in never tells
            raise AccountError(TAKEN, "username_taken")
        return await self._issue(user_id)

    async def guest(self, visit: Visit) -> tuple[Row, str]:
        while True:
            user_id = await self._create(f"guest_{secrets.token_hex(4)}", None, "guest", visit)
            if user_id is not None:
                return await self._issue(user_id)

    async def login(self, username: object, password: object, visit: Visit) -> tuple[Row, str]:
        row = None
        if isinstance(username, str) and USERNAME.fullmatch(username):  # else no name to look up
            row = await self.store.user_by_name(username)
        stored = row["password_hash"] if row is not None else None
        if not await self.passwords.verify(stored, password if isinstance(password, str) else "") or row is None:
            raise AccountError(LOGIN_FAILED, "login_failed")
        ban = await ban_of(self.store, int(row["id"]), self.clock.now())
        if ban is not None:  # told only with the right password: it names the ban's end
            raise AccountError(ban_words(ban), "banned")
        return await self._issue(int(row["id"]), visit)

    async def _issue(self, user_id: int, login: Visit | None = None) -> tuple[Row, str]:
        """A session of ``user_id``; a ``login`` is kept in ``logins`` (a new account's is already)."""
        token = secrets.token_urlsafe(32)
        await self.store.add_token(token_digest(token), user_id, self.clock.now(), login)
        row = await self.relieve(user_id)
        return row, token

    async def user(self, token: str | None) -> Row | None:
        """The token's user, if the token exists and was used within ``session_seconds`` (this use
        starts the period again)."""
        if not token:
            return None
        return await self.store.user_for_token(token_digest(token), self.clock.now(), self.session_seconds)

    async def logout(self, token: str, everywhere: bool = False, keep_this: bool = False) -> None:
        """End this token's session or, ``everywhere``, every session of its user (but this one, with
        ``keep_this``: a password changed)."""
        await self.store.drop_token(token_digest(token), everywhere, keep_this)

    async def relieve(self, user_id: int) -> Row:
        """Relief chips (破产补助): a player below the lowest room's entry is brought back to the
        starting grant, up to ``reliefs_per_day`` times a day (UTC; the starting grant is not one),
        once they played ``relief_hands`` rated hands since their last grant or relief."""
        now = self.clock.now()
        row = await self.store.relieve(user_id, LOWEST_ENTRY, self.starting_grant, now, day_start(now),
                                       self.reliefs_per_day, self.relief_hands)
        assert row is not None
        return row

    async def relief(self, row: Row) -> dict[str, Any]:
        """What the lobby tells of relief: below what it comes, to what, how many are left today and
        when the next can come (``next``: now or the next day's start; ``None`` while not below, or
        while ``hands``, the rated hands still to play before it, is not 0)."""
        now = self.clock.now()
        left = max(0, self.reliefs_per_day - await self.store.reliefs_since(int(row["id"]), day_start(now)))
        hands = await self.store.relief_hands_left(int(row["id"]), self.relief_hands)
        following = None
        if int(row["balance"]) < LOWEST_ENTRY and not hands:
            following = now if left else day_start(now) + DAY
        return {"below": LOWEST_ENTRY, "to": self.starting_grant, "per_day": self.reliefs_per_day,
                "left": left, "next": following, "hands": hands}

    async def claim(self, user_id: int, username: object, password: object, visit: Visit | None = None) -> Row:
        """A guest becomes a registered player with this name and password, keeping its account
        (balance, hands, ledger and sessions)."""
        current = await self.store.user(user_id)
        if current is None or current["kind"] != "guest":
            raise AccountError("only a guest account can be claimed: this one has a name already", "not_guest")
        name, pw = check_username(username), check_password(password)
        if await self.store.user_by_name(name) is not None:  # no hash spent on a name taken
            raise AccountError(TAKEN, "username_taken")
        row = await self.store.claim_guest(user_id, name, await self.passwords.hash(pw), visit, self.clock.now())
        if row is None:
            raise AccountError(TAKEN, "username_taken")
        return row


def day_start(now: float) -> float:
    """The start of the (UTC) day of ``now``: reliefs are counted per day from it."""
    return now - now % DAY


class RateLimiter:
    """A token bucket per key: ``rate`` per second, bursts up to ``burst``; time from ``now``.

    A bucket left alone until it is full again is the same as none: such buckets are dropped (looked
    for at most once per time a bucket takes to fill), so the keys held are those of the last while."""

    def __init__(self, now: Callable[[], float], rate: float, burst: float) -> None:
        self.now, self.rate, self.burst = now, rate, burst
        self._buckets: dict[str, tuple[float, float]] = {}
        self._refill = burst / rate if rate > 0 else math.inf
        """Seconds an empty bucket takes to fill (never, at no rate)."""
        self._pruned = now()

    def __len__(self) -> int:
        """The buckets held."""
        return len(self._buckets)

    def allow(self, key: str) -> bool:
        now = self.now()
        if now - self._pruned >= self._refill:
            self._prune(now)
        level, at = self._buckets.get(key, (self.burst, now))
        level = min(self.burst, level + (now - at) * self.rate)
        if level < 1:
            self._buckets[key] = (level, now)
            return False
        self._buckets[key] = (level - 1, now)
        return True

    def _prune(self, now: float) -> None:
        """Drop every bucket full again by ``now``."""
        self._pruned = now
        self._buckets = {k: (level, at) for k, (level, at) in self._buckets.items()
                         if level + (now - at) * self.rate < self.burst}
