"""The server's settings: where it stores data, its timers and its limits."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from chuanma.server.clock import Clock, SystemClock


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
    private_tables: int = 3
    """Private tables one account may have open at once (``POST /api/tables`` refuses more)."""
    private_idle_seconds: float = 600.0
    """A private table with no person seated and connected for this long is closed."""
    bot_name: str = "greedy"
    """The bot that fills seats and plays for a player on 托管."""
    secure_cookies: bool = False
