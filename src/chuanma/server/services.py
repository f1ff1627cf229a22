"""What a running server holds, handed to the HTTP routes and the WebSocket handler."""

from __future__ import annotations

from dataclasses import dataclass

from chuanma.server.accounts import Accounts, RateLimiter
from chuanma.server.config import ServerConfig
from chuanma.server.host import Lobby, LocalHost
from chuanma.server.metrics import Metrics
from chuanma.server.store import Store


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
