"""What a running server holds, handed to the HTTP routes and the WebSocket handler."""

from __future__ import annotations

from dataclasses import dataclass, field

from chuanma.server.account_care import AccountCare
from chuanma.server.accounts import Accounts, RateLimiter
from chuanma.server.config import ServerConfig
from chuanma.server.host import Lobby, LocalHost
from chuanma.server.metrics import Metrics
from chuanma.server.moderation import Moderation
from chuanma.server.store import Store

READS_PER_MINUTE = 120
"""Profiles and leaderboards a client address may read a minute (all at once, or spread)."""


@dataclass
class Server:
    """The store, accounts, tables and lobby of one server (``app.state.server``)."""

    config: ServerConfig
    store: Store
    accounts: Accounts
    host: LocalHost
    lobby: Lobby
    metrics: Metrics
    auth_limit: RateLimiter
    """Logins and registrations per client address."""
    guest_limit: RateLimiter
    """Guest accounts made per client address (``guests_per_hour``)."""
    table_limit: RateLimiter
    """Private tables opened per client address (``private_tables_per_hour``)."""
    forgot_limit: RateLimiter
    """Password-reset e-mails asked for per client address, and per e-mail address (``forgot_per_hour``)."""
    read_limit: RateLimiter = field(init=False)
    """Profiles and leaderboards read per client address (:data:`READS_PER_MINUTE`)."""
    care: AccountCare = field(init=False)
    """What players do to their own accounts: passwords, e-mail, export, deletion."""
    moderation: Moderation = field(init=False)
    """Bans, kicks, adjustments, renames and their log; a ban or kick expels through the host."""

    def __post_init__(self) -> None:
        self.read_limit = RateLimiter(self.config.clock.now, READS_PER_MINUTE / 60, READS_PER_MINUTE)
        self.care = AccountCare(self.accounts, self.config.smtp, self.config.public_url)
        self.moderation = Moderation(self.store, self.config.clock, self.host.expel)
