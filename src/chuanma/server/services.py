"""What a running server holds, handed to the HTTP routes and the WebSocket handler."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from chuanma.server.account_care import AccountCare
from chuanma.server.accounts import Accounts
from chuanma.server.config import ServerConfig
from chuanma.server.host import Lobby, LocalHost
from chuanma.server.limits import Limit
from chuanma.server.metrics import Metrics
from chuanma.server.moderation import Moderation
from chuanma.server.notes import Notes
from chuanma.server.notices import Notices
from chuanma.server.reports import Reports
from chuanma.server.room_config import RoomConfig
from chuanma.server.store import Store

READS_PER_MINUTE = 120
"""Profiles and leaderboards a client address may read a minute (all at once, or spread)."""
MINUTE, HOUR = 60.0, 3600.0


@dataclass
class Server:
    """The store, accounts, tables and lobby of one server (``app.state.server``)."""

    config: ServerConfig
    store: Store
    accounts: Accounts
    host: LocalHost
    lobby: Lobby
    metrics: Metrics
    limit: Callable[[str, int, float], Limit]
    """What makes the limits below (:func:`chuanma.server.limits.limiter`: in Redis in a cluster)."""
    auth_limit: Limit = field(init=False)
    """Logins and registrations per client address (``auth_per_minute``)."""
    guest_limit: Limit = field(init=False)
    """Guest accounts made per client address (``guests_per_hour``)."""
    table_limit: Limit = field(init=False)
    """Private tables opened per client address (``private_tables_per_hour``)."""
    forgot_limit: Limit = field(init=False)
    """Password-reset e-mails asked for per client address, and per e-mail address (``forgot_per_hour``)."""
    read_limit: Limit = field(init=False)
    """Profiles and leaderboards read per client address (:data:`READS_PER_MINUTE`)."""
    care: AccountCare = field(init=False)
    """What players do to their own accounts: passwords, e-mail, export, deletion."""
    moderation: Moderation = field(init=False)
    """Bans, kicks, adjustments, renames and their log; a ban or kick expels through the host."""
    reports: Reports = field(init=False)
    """Players' reports (举报) and their handling."""
    room_config: RoomConfig = field(init=False)
    """The rooms as operators change them (every node reads them again)."""
    notices: Notices = field(init=False)
    """Announcements and maintenance (every socket of every node is told)."""
    notes: Notes = field(init=False)
    """Staff notes on players."""

    def __post_init__(self) -> None:
        config = self.config
        self.auth_limit = self.limit("auth", config.auth_per_minute, MINUTE)
        self.guest_limit = self.limit("guests", config.guests_per_hour, HOUR)
        self.table_limit = self.limit("tables", config.private_tables_per_hour, HOUR)
        self.forgot_limit = self.limit("forgot", config.forgot_per_hour, HOUR)
        self.read_limit = self.limit("reads", READS_PER_MINUTE, MINUTE)
        self.care = AccountCare(self.accounts, self.config.smtp, self.config.public_url)
        self.moderation = Moderation(self.store, self.config.clock, self.host.expel, self.host.void)
        self.reports = Reports(self.moderation)
        self.room_config = RoomConfig(self.moderation, self.host.reconfigure)
        self.notices = Notices(self.moderation, self.host.reconfigure)
        self.notes = Notes(self.moderation)
