"""The server's settings: where it stores data, its timers and its limits."""

from __future__ import annotations

import os
import secrets
import socket
from dataclasses import dataclass, field
from pathlib import Path

from chuanma.fairness.vrf import VRFKey
from chuanma.server.clock import Clock, SystemClock
from chuanma.server.mail import Smtp


def process_name() -> str:
    """This process as the database's lease names its holder: host, process id and a random part
    (a restarted process, or one in another container with the same process id, is another)."""
    return f"{socket.gethostname()[:48]}:{os.getpid()}:{secrets.token_hex(3)}"


BOT_LEVELS = {"easy": "greedy", "normal": "defensive", "hard": "expert"}
"""The bots at the table by level (docs/bots.md compares them)."""


@dataclass(slots=True)
class ServerConfig:
    """Everything ``chuanma serve`` can be told. Times are in seconds of the injected clock."""

    db_url: str
    data_dir: Path | None = None
    clock: Clock = field(default_factory=SystemClock)
    turn_seconds: float = 20.0
    """A seat's time for a decision on its turn (discard, kong, self-drawn win, exchange, void)."""
    claim_seconds: float = 8.0
    """A seat's time to answer a claim window (pong, kong, win or pass): shorter than a turn."""
    auto_delay: float = 1.0
    """On 托管 a seat's bot makes one decision at a time, this long after it was asked (a player can
    see each move, and turn 托管 off in time)."""
    ready_seconds: float = 60.0
    """Time to get ready for the next hand; a player not ready by then is unseated (no penalty)."""
    bot_wait: float = 10.0
    """How long quick-join waits for people before bots fill the empty seats (if allowed)."""
    starting_grant: int = 10_000
    """Play money given to every new account (and what relief chips bring a player back to)."""
    reliefs_per_day: int = 3
    """Relief chips (破产补助): a player below the lowest room's entry is brought back to
    ``starting_grant`` at most this many times a (UTC) day."""
    relief_hands: int = 5
    """Rated hands (a room's, played to the end) a player must play after a grant or relief before
    the next relief (docs/server.md, Keeping chips honest; 0: none)."""
    trusted_hands: int = 10
    """Rated hands after which an account's escapes pay in full; before, they cost it at most
    ``escape_cap`` chips in all (0: every account pays in full)."""
    escape_cap: int = 1_000
    """What the escapes of an account with fewer than ``trusted_hands`` rated hands cost it in all."""
    grants_per_day: int = 20
    """New accounts (guests and registrations, each with the starting grant) one client address may
    make a UTC day (429 ``too_many_grants``), counted in the database."""
    private_base_rule: bool = True
    """A private table's creator and players must have a balance some room of at least its base admits."""
    login_days: float = 90.0
    """Days the ``logins`` rows (address, user agent and device of registrations, guests, claims, logins) are kept."""
    leaderboard_min_hands: int = 10
    """Hands a player must have played (in the family and the period) to be on a leaderboard."""
    auth_per_minute: int = 20
    """Login and registration attempts allowed per client address per minute."""
    messages_per_second: float = 20.0
    """Steady message rate allowed per WebSocket connection (bursts of twice that), beyond the
    answers the server asks for (an ``act`` per prompt, a ``ready`` per hand), which are always allowed."""
    max_frame: int = 4096
    """Largest WebSocket message accepted, in bytes."""
    private_tables: int = 3
    """Private tables one account may have open at once (``POST /api/tables`` refuses more)."""
    guests_per_hour: int = 20
    """Guest accounts one client address may make within an hour (``POST /api/guest`` refuses more,
    429 ``too_many_guests``): a guest cannot dodge ``private_tables`` by making more guests."""
    private_tables_per_hour: int = 20
    """Private tables one client address may open within an hour, whatever its accounts
    (``POST /api/tables`` refuses more, 429 ``too_many_tables``)."""
    private_idle_seconds: float = 600.0
    """A private table with no person seated and connected for this long is closed."""
    bot_levels: dict[str, str] = field(default_factory=lambda: dict(BOT_LEVELS))
    """The bot (a name of ``chuanma.bots.BOTS``) that fills a seat at each level a table may ask for."""
    room_bot_level: str = "normal"
    """The level of the bots that fill seats in the rooms (a private table chooses its own)."""
    bot_name: str = "expert"
    """The bot that plays for a player on 托管 (a few milliseconds a decision)."""
    secure_cookies: bool = False
    """Always mark the session cookie ``Secure``; without it the cookie is ``Secure`` when the request
    came over TLS (``https``, as uvicorn sees it: behind a TLS proxy, when it forwards the scheme)."""
    session_days: float = 30.0
    """A session token unused this many days stops working; every use starts the period again."""
    password_threads: int = 2
    """Threads hashing and verifying passwords (Argon2, about half a second each), off the event loop."""
    password_jobs: int = 16
    """Password hashes and verifications running or waiting at once; beyond that a login or a
    registration is answered 503 (try again shortly) instead of queueing without bound."""
    allowed_origins: tuple[str, ...] = ()
    """Pages on these origins (``https://example.com``) may open ``/ws`` besides the server's own."""
    api_docs: bool = False
    """Serve FastAPI's ``/docs``, ``/redoc`` and ``/openapi.json``."""
    metrics_port: int | None = None
    """Serve ``/metrics`` on this port (of ``metrics_host``) only; without it ``/metrics`` is on the
    main port, to clients on the loopback interface only."""
    metrics_host: str = "127.0.0.1"
    """The address ``metrics_port`` listens on."""
    dealer_key: VRFKey | None = None
    """The dealer's VRF key (deals every hand; the records' signing key is derived from it);
    ``None``: ``dealer.key`` in
    ``data_dir``, created on first start (a fresh key for this process without a data directory)."""
    forwarded_allow_ips: str | None = None
    """The proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed (uvicorn's
    ``forwarded_allow_ips``: addresses or networks, comma-separated, or ``*``); ``None``: nobody's,
    so a client's address (which the login rate limit counts) is the one that connected."""
    lease_seconds: float = 15.0
    """The database's lease (one writing process at a time): renewed every third of this; after a
    crash the next process waits up to this long for it to lapse."""
    drain_seconds: float = 120.0
    """How long a stop (SIGTERM) or a drain waits for the hands in play to end before it hands their
    tables over (or stops) anyway."""
    redis_url: str | None = None
    """Redis of a cluster (``redis://host:6379/0``): this process is one of its nodes, over the
    PostgreSQL of ``db_url`` (docs/server.md, Cluster); ``None``: one process holds the database."""
    smtp: Smtp | None = None
    """Where password-reset links are e-mailed from (``POST /api/password/forgot``); ``None``: no e-mail."""
    public_url: str | None = None
    """The server's address as its players reach it (``https://example.com``): the e-mailed links
    point there (the operator's links too, when asked for by the API)."""
    forgot_per_hour: int = 10
    """``POST /api/password/forgot`` requests one client address may make within an hour, and
    that one e-mail address may be the subject of."""
    lease_holder: str = field(default_factory=process_name)
    """This process in the lease (set once: the start-up check and the app take it as one holder)."""
