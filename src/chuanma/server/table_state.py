"""The state of one live table, as the reducer (:mod:`chuanma.server.reducer`) keeps it.

No sockets, no clock, no database: connections are numbers (the shell knows where each one
goes), times are moments given with each input. After a restart the state is rebuilt from the
stored hand and its decisions (:func:`chuanma.server.reducer.restored`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from chuanma.bots import Player, make_bot
from chuanma.engine import Game
from chuanma.fairness import FairHand, VRFKey
from chuanma.fairness.session import SessionHand
from chuanma.rules import RuleSet
from chuanma.server.config import ServerConfig
from chuanma.server.rooms import Room


@dataclass(frozen=True, slots=True)
class TableSetup:
    """What a table is, and the times it plays to: fixed for its life."""

    table_id: str
    room: Room | None
    rules: RuleSet
    dealer_key: VRFKey
    bot_name: str
    """The bot that plays for a person on 托管."""
    bot_level: str
    """The level of the bots seated here (a key of ``ServerConfig.bot_levels``; stored with the table)."""
    seat_bot: str
    """The bot of that level, which plays every bot seat."""
    turn_seconds: float
    claim_seconds: float
    ready_seconds: float
    idle_seconds: float
    auto_delay: float
    hands_limit: int | None = None

    @classmethod
    def of(cls, table_id: str, room: Room | None, rules: RuleSet, config: ServerConfig,
           hands_limit: int | None, bot_level: str | None = None) -> TableSetup:
        """``bot_level``: the table's bots' level (None: the rooms')."""
        key = config.dealer_key
        assert key is not None, "the app gives every table the dealer's key"
        level = bot_level or config.room_bot_level
        return cls(table_id, room, rules, key, config.bot_name, level, config.bot_levels[level], config.turn_seconds,
                   config.claim_seconds, config.ready_seconds, config.private_idle_seconds, config.auto_delay,
                   hands_limit)

    def player_bot(self, bot: bool) -> str:
        """The bot that plays a seat: the table's bots' for a bot, the 托管 bot for a person."""
        return self.seat_bot if bot else self.bot_name


@dataclass(slots=True)
class Seat:
    """A seat's player and what the table knows of them."""

    user_id: int
    name: str
    bot: bool
    player: Player
    """The bot that plays this seat: always for a bot seat, on 托管 for a person."""
    conns: list[int] = field(default_factory=list)
    """The connections this seat's messages go to."""
    ready: bool = False
    client_seed: str | None = None
    auto: bool = False
    leaving: bool = False
    """Unseated once the hand ends (they left it, or were banned or kicked)."""
    prompt_version: int | None = None
    """The version at which the seat's open question was posed, as its prompt said."""
    prompt_legal: list[dict[str, Any]] | None = None
    deadline: float | None = None
    """When the open prompt runs out; on 托管, when its bot makes the next decision."""
    asked_at: float | None = None
    """When the open question's last prompt was sent (stored with the answer: ``decisions.asked``)."""
    held: tuple[int | None, list[dict[str, Any]] | None, float | None] | None = None
    """The open question (version, legal, deadline) when 托管 was turned on: turned off before its bot
    answered, the question comes back with the time it had, so toggling 托管 never buys time."""
    views: bool = False
    """Send this seat its whole view after each batch of events (browsers ask for it)."""
    hints: bool = False
    """With the view, the ready-hand hints computed from it."""

    @classmethod
    def of(cls, user_id: int, name: str, bot: bool, bot_name: str, bot_seed: int) -> Seat:
        """A newly seated player (a bot is ready at once)."""
        return cls(user_id, name, bot, make_bot(bot_name, bot_seed), ready=bot)

    def clear_prompt(self) -> None:
        self.prompt_version = self.prompt_legal = self.deadline = self.asked_at = None


@dataclass(slots=True)
class Settling:
    """A finished hand whose settlement is being stored: its record and chips by seat."""

    record: dict[str, Any]
    deltas: list[int]


@dataclass(slots=True)
class TableState:
    """A table of four seats playing hands one after another."""

    setup: TableSetup
    seats: list[Seat | None] = field(default_factory=lambda: [None] * 4)
    watchers: list[int] = field(default_factory=list)
    """The spectators' connections."""
    watcher_views: list[int] = field(default_factory=list)
    """The spectators that asked for the public view after each batch of events."""
    armed: float | None = None
    """The moment the timer is set for."""
    number: int = -1
    hand_id: str | None = None
    fair: FairHand | None = None
    session: SessionHand | None = None
    previous: tuple[dict[str, Any], int] | None = None
    """The last finished hand's record and next dealer (for a chained session: dealer rule not ``random``)."""
    ended: dict[str, Any] | None = None
    """The ``hand_end`` of the last hand settled here, told again to a player who resumes from it."""
    game: Game | None = None
    sent: int = 0
    """Events sent so far."""
    ready_deadline: float | None = None
    sat_down: tuple[list[int], list[int]] = ([], [])
    """The hand's players (user ids by seat) and the balances they sat down with."""
    escape_caps: tuple[int | None, ...] = (None, None, None, None)
    """The most an escape may cost each seat of the hand (a new account; ``None``: no cap)."""
    balances: dict[int, int] | None = None
    """Balances read to open the next hand of a room (its range admits whom)."""
    settling: Settling | None = None
    closed: bool = False
    resting: bool = False
    """Its host drains (:class:`~chuanma.server.table_inputs.Rest`): no hand opens or is dealt here."""
    unattended_since: float | None = None
    """Since when no person has been seated and connected here (``None``: someone is)."""

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.user_id == user_id:
                return i
        return None

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is not None and not s.bot]

    def players(self) -> list[dict[str, Any] | None]:
        return [None if s is None else {"seat": i, "name": s.name, "bot": s.bot, "auto": s.auto}
                for i, s in enumerate(self.seats)]

    def idle_for(self, now: float) -> float:
        """Seconds without a person seated and connected (0 while one is)."""
        return 0.0 if self.unattended_since is None else now - self.unattended_since
