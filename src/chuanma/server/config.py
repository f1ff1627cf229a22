"""The server's settings: where it stores data, its timers and its limits."""

from __future__ import annotations

import os
import secrets
import socket
from dataclasses import dataclass, field
from pathlib import Path

from chuanma.server.clock import Clock, SystemClock


def process_name() -> str:
    """This process as the database's lease names its holder: host, process id and a random part
    (a restarted process, or one in another container with the same process id, is another)."""
    return f"{socket.gethostname()[:48]}:{os.getpid()}:{secrets.token_hex(3)}"


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
    ready_seconds: float = 60.0
    """Time to get ready for the next hand; a player not ready by then is unseated (no penalty)."""
    bot_wait: float = 10.0
    """How long quick-join waits for people before bots fill the empty seats (if allowed)."""
    starting_grant: int = 10_000
    """Play money given to every new account (and topped up to once a day below the lowest room)."""
    auth_per_minute: int = 20
    """Login and registration attempts allowed per client address per minute."""
    messages_per_second: float = 20.0
    """Steady message rate allowed per WebSocket connection (bursts of twice that)."""
    max_frame: int = 4096
    """Largest WebSocket message accepted, in bytes."""
    bot_name: str = "greedy"
    """The bot that fills seats and plays for a player on 托管."""
    secure_cookies: bool = False
    lease_seconds: float = 15.0
    """The database's lease (one writing process at a time): renewed every third of this; after a
    crash the next process waits up to this long for it to lapse."""
    lease_holder: str = field(default_factory=process_name)
    """This process in the lease (set once: the start-up check and the app take it as one holder)."""
