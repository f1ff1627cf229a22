"""What a table reacts to (:func:`chuanma.server.reducer.reduce`): typed inputs, plain data.

A connection's command is :class:`Said`, carrying the protocol's own message
(:mod:`chuanma.server.protocol`) or one of the host's (:class:`Sit`, :class:`Rejoin`,
:class:`Detach`, :class:`Idle`, :class:`Expel`, :class:`Rest`, :class:`Void`). The rest come from the shell: the table
starting, its timer, the idle sweep, and the answers to the reducer's requests (:data:`chuanma.server.effects.Request`).
"""

from __future__ import annotations

from dataclasses import dataclass

from chuanma.server import protocol as p


@dataclass(frozen=True, slots=True)
class Sit:
    """Take a free seat (quick-join, an invite); for a player seated here: attach and resync."""


@dataclass(frozen=True, slots=True)
class Rejoin:
    """Attach a seated player's connection with a whole resync (a rebuilt table's connections)."""


@dataclass(frozen=True, slots=True)
class Detach:
    """The connection closed: it is sent nothing more."""


@dataclass(frozen=True, slots=True)
class Idle:
    """The host's sweep: close if no person has attended the table for the idle time."""


@dataclass(frozen=True, slots=True)
class Expel:
    """The host's, for a player banned or kicked (the command's user): on 托管 to the hand's end, then unseated."""


@dataclass(frozen=True, slots=True)
class Rest:
    """The host's, draining: the hand in play is played to its end, and no other opens or is dealt here."""


@dataclass(frozen=True, slots=True)
class Void:
    """An operator's (:meth:`chuanma.server.moderation.Moderation.void`): void the hand ``hand_id``
    if it is in play here (no chips move), tell its players (``hand_void``) and close the table;
    the command's connection is answered ``hand_void`` too, or an error (that hand is not in play)."""

    hand_id: str
    reason: str


HostInput = Sit | Rejoin | Detach | Idle | Expel | Rest | Void
"""The host's commands to a table (the rest of :data:`CommandMessage` are the protocol's)."""
CommandMessage = p.Ready | p.Act | p.Auto | p.Views | p.Leave | p.Resume | p.Watch | HostInput
"""What may be submitted to a table."""


@dataclass(frozen=True, slots=True)
class Said:
    """Connection ``conn`` of player ``user_id`` (0: the host) sent ``message``."""

    user_id: int
    conn: int
    message: CommandMessage


@dataclass(frozen=True, slots=True)
class Start:
    """The table's task begins (new, or rebuilt from the database)."""


@dataclass(frozen=True, slots=True)
class Expire:
    """The timer set by :class:`~chuanma.server.effects.SetTimer` fired."""


@dataclass(frozen=True, slots=True)
class Seated:
    """A :class:`~chuanma.server.effects.ClaimSeat` stored: the player, and their bot for 托管."""

    place: int
    user_id: int
    name: str
    bot: bool
    bot_seed: int
    conn: int


@dataclass(frozen=True, slots=True)
class SitRefused:
    """A :class:`~chuanma.server.effects.ClaimSeat` refused by the host (the player has a place)."""

    conn: int
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class BotSeated:
    """A :class:`~chuanma.server.effects.SeatBot` stored: the bot now sitting at ``place``."""

    place: int
    user_id: int
    name: str
    bot_seed: int


@dataclass(frozen=True, slots=True)
class Balances:
    """The answer to :class:`~chuanma.server.effects.LoadBalances`."""

    balances: dict[int, int]


@dataclass(frozen=True, slots=True)
class Dealt:
    """A :class:`~chuanma.server.effects.DealHand` stored: every seat's client seed, the
    balances the players sat down with and the most an escape may cost each (``None``: no cap), by seat."""

    client_seeds: tuple[str, ...]
    balances: tuple[int, ...]
    escape_caps: tuple[int | None, ...] = (None, None, None, None)


@dataclass(frozen=True, slots=True)
class Settled:
    """A :class:`~chuanma.server.effects.SettleHand` stored: the players' balances after it."""

    balances: dict[int, int]


TableInput = Said | Start | Expire | Seated | SitRefused | BotSeated | Balances | Dealt | Settled
