"""One live table: an asyncio task that runs the table reducer's effects (the shell).

The rules of the table live in :func:`chuanma.server.reducer.reduce`, which turns the table's
state and one typed input into effects (plain data, :mod:`chuanma.server.effects`). This shell
is the table's only writer: connections put :class:`Command` objects on its queue; it numbers
their connections, calls the reducer, and carries the effects out in order: it sends messages
through the connections' :data:`Send` callbacks (which never block), sets the timer on the
injected clock, writes through the :class:`~chuanma.server.store.Store` and changes seats
through its host (:class:`Seats`). A request's answer is given back to the reducer at once.
Every decision is stored before any message about it is sent; after a restart the table is
rebuilt from the stored decisions (:meth:`LiveTable.restore`).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from chuanma.engine import Game
from chuanma.fairness import FairHand
from chuanma.rules import RuleSet
from chuanma.server import effects as fx
from chuanma.server import protocol as p
from chuanma.server import table_inputs as i
from chuanma.server.clock import Timer
from chuanma.server.config import ServerConfig
from chuanma.server.effects import RefusedError
from chuanma.server.honesty import Trust
from chuanma.server.metrics import Metrics
from chuanma.server.reducer import reduce, restored
from chuanma.server.rooms import Room
from chuanma.server.store import Row, Store
from chuanma.server.table_state import Seat, TableSetup, TableState

log = logging.getLogger("chuanma.server.table")

Send = Callable[[dict[str, Any]], None]
"""A connection's way to receive a message (it queues it; it never blocks the table)."""


@dataclass(slots=True)
class Command:
    """Something submitted to a table: a connection's (or the host's) typed message."""

    user_id: int
    send: Send
    message: i.CommandMessage
    received: float = field(default_factory=time.perf_counter)


class Seats(Protocol):
    """What a table needs from its host: every change of its seats, each stored with the seats'
    one-place-per-player invariant (a refusal is a :class:`RefusedError`)."""

    async def sit(self, table_id: str, place: int, user_id: int, stakes: int | None = None) -> None: ...

    async def seat_bot(self, table_id: str, place: int, room: Room | None, replacing: int | None) -> Row: ...

    async def release(self, table_id: str, users: list[int], reason: str,
                      record: dict[str, Any] | None = None) -> None: ...


def _bot_seed() -> int:
    return secrets.randbelow(2**31)


class LiveTable:
    """The shell of one table: its queue, its connections, its timer and its writes."""

    def __init__(self, table_id: str, room: Room | None, rules: RuleSet, *, store: Store, config: ServerConfig,
                 metrics: Metrics, host: Seats, hands_limit: int | None = None,
                 bot_level: str | None = None) -> None:
        self.state = TableState(TableSetup.of(table_id, room, rules, config, hands_limit, bot_level))
        self.store = store
        self.config = config
        self.clock = config.clock
        self.metrics = metrics
        self.host = host
        self.queue: asyncio.Queue[Command | None] = asyncio.Queue()
        self.timer: Timer | None = None
        self.links: dict[int, Send] = {}
        """The connections by number (the reducer knows them by number only)."""
        self.numbers: dict[int, int] = {}
        self.counter = itertools.count(1)
        """The number of each connection, by the identity of its callback."""

    # ------------------------------------------------------------------ reading

    @property
    def id(self) -> str:
        return self.state.setup.table_id

    @property
    def bot_level(self) -> str:
        """The level of the bots seated here (``ServerConfig.bot_levels``)."""
        return self.state.setup.bot_level

    @property
    def room(self) -> Room | None:
        return self.state.setup.room

    @property
    def rules(self) -> RuleSet:
        return self.state.setup.rules

    @property
    def seats(self) -> list[Seat | None]:
        return self.state.seats

    @property
    def game(self) -> Game | None:
        return self.state.game

    @property
    def fair(self) -> FairHand | None:
        return self.state.fair

    @property
    def number(self) -> int:
        return self.state.number

    @property
    def closed(self) -> bool:
        return self.state.closed

    @property
    def unattended_since(self) -> float | None:
        return self.state.unattended_since

    def idle_for(self) -> float:
        """Seconds without a person seated and connected (0 while one is)."""
        return self.state.idle_for(self.clock.now())

    @property
    def at_rest(self) -> bool:
        """Told to rest (its host drains) and between hands: it may stop, or move, without
        interrupting a hand."""
        return self.state.resting and self.state.game is None

    def stakes(self) -> int | None:
        """The base a player's balance must fit to sit here: a private table's (``private_base_rule``)."""
        return self.rules.base if self.room is None and self.config.private_base_rule else None

    def make_seat(self, user: Row) -> Seat:
        bot = user["kind"] == "bot"
        return Seat.of(int(user["id"]), str(user["username"]), bot, self.state.setup.player_bot(bot), _bot_seed())

    def sends_of(self, conns: list[int]) -> list[Send]:
        """The callbacks of these connections."""
        return [self.links[c] for c in conns if c in self.links]

    def handover(self) -> list[Command]:
        """This (failed) table's connections, as the commands that attach them to its rebuild: its
        seats', its spectators', and those it was handed but had not attached yet."""
        st = self.state
        cmds = [Command(seat.user_id, send, i.Rejoin())
                for seat in st.seats if seat is not None for send in self.sends_of(seat.conns)]
        cmds += [Command(0, self.links[c], p.Watch(type="watch", table=self.id, invite=None,
                                                         views=c in st.watcher_views))
                 for c in st.watchers if c in self.links]
        while not self.queue.empty():
            cmd = self.queue.get_nowait()
            if (cmd is not None and isinstance(cmd.message, p.Resume | i.Rejoin | p.Watch)
                    and all(c.send is not cmd.send for c in cmds)):
                again = cmd.message if isinstance(cmd.message, p.Watch) else i.Rejoin()
                cmds.append(Command(cmd.user_id, cmd.send, again))
        return cmds

    # ------------------------------------------------------------------ the task

    async def run(self) -> None:
        """Consume commands until the table closes (``None`` in the queue: the timer fired)."""
        self.metrics.live_tables.inc()
        try:
            await self.apply(i.Start())
            while not self.closed:
                cmd = await self.queue.get()
                if cmd is None:
                    await self.apply(i.Expire())
                    continue
                conn = self.number_of(cmd.send)
                await self.apply(i.Said(cmd.user_id, conn, cmd.message))
                if isinstance(cmd.message, i.Detach):
                    self.links.pop(conn, None)
                    self.numbers.pop(id(cmd.send), None)
                elif isinstance(cmd.message, p.Act):
                    self.metrics.latency.observe(time.perf_counter() - cmd.received)
        finally:
            self.set_timer(None)
            self.metrics.live_tables.dec()

    def submit(self, cmd: Command) -> None:
        self.queue.put_nowait(cmd)

    def number_of(self, send: Send) -> int:
        conn = self.numbers.get(id(send))
        if conn is None:
            conn = self.numbers[id(send)] = next(self.counter)
            self.links[conn] = send
        return conn

    async def apply(self, message: i.TableInput) -> None:
        """Reduce ``message`` and carry out its effects; a request's answer is reduced next."""
        answer: i.TableInput | None = message
        while answer is not None:
            effects = reduce(self.state, answer, self.clock.now())
            answer = None
            for effect in effects:
                answer = await self.perform(effect)

    async def perform(self, effect: fx.Effect) -> i.TableInput | None:
        """Carry out one effect; returns the answer to a request."""
        if isinstance(effect, fx.Send):
            for send in self.sends_of(list(effect.conns)):
                send(effect.message)
        elif isinstance(effect, fx.Refuse):
            self.metrics.errors.labels(effect.code).inc()
            for send in self.sends_of([effect.conn]):
                send(p.error(effect.code, effect.message))
        elif isinstance(effect, fx.SetTimer):
            self.set_timer(effect.at)
        elif isinstance(effect, fx.StoreDecisions):
            await self.store.add_decisions(effect.rows)
            for row in effect.rows:
                self.metrics.decided[row["by"]].inc()
        elif isinstance(effect, fx.CreateHand):
            await self.store.create_hand(effect.row)
        elif isinstance(effect, fx.HandVoided):
            self.metrics.settlement_failures.labels(effect.error).inc()
            log.error("hand voided", extra={"table": self.id, "hand": effect.hand_id, "reason": effect.error,
                                            "error": effect.trace})
        elif isinstance(effect, fx.Release):
            await self.host.release(self.id, list(effect.users), effect.reason, effect.record)
            log.info("table closed", extra={"table": self.id, "reason": effect.told})
        else:
            return await self.request(effect)
        return None

    async def request(self, effect: fx.Request) -> i.TableInput:
        """Carry out a request and return its answer."""
        if isinstance(effect, fx.ClaimSeat):
            try:
                await self.host.sit(self.id, effect.place, effect.user_id, self.stakes())
            except RefusedError as exc:
                return i.SitRefused(effect.conn, exc.code, str(exc))
            user = await self.store.user(effect.user_id)
            assert user is not None
            return i.Seated(effect.place, effect.user_id, str(user["username"]), user["kind"] == "bot",
                            _bot_seed(), effect.conn)
        if isinstance(effect, fx.SeatBot):
            bot = await self.host.seat_bot(self.id, effect.place, self.room, effect.replacing)
            return i.BotSeated(effect.place, int(bot["id"]), str(bot["username"]), _bot_seed())
        if isinstance(effect, fx.LoadBalances):
            return i.Balances(await self.store.balances(list(effect.users)))
        if isinstance(effect, fx.DealHand):
            seeds = tuple(seed or secrets.token_hex(16) for seed in effect.client_seeds)
            trust = Trust(self.config.trusted_hands, self.config.escape_cap)
            sat_down, caps = await self.store.deal_hand(effect.hand_id, list(effect.users), list(seeds), trust)
            return i.Dealt(seeds, tuple(sat_down), tuple(caps))
        balances = await self.store.settle(effect.hand_id, effect.record, effect.deltas, effect.kinds,
                                           self.clock.now())
        if balances is None:  # settled before: nothing is paid twice
            balances = await self.store.balances(list(effect.users))
        else:
            self.metrics.hands.inc()
            log.info("hand settled", extra={"table": self.id, "hand": effect.hand_id,
                                            "deltas": [effect.deltas[u] for u in effect.users]})
        return i.Settled(balances)

    def set_timer(self, at: float | None) -> None:
        """Have the clock wake this table at ``at`` (replacing the timer set before)."""
        if self.timer is not None:
            self.timer.cancel()
        self.timer = None if at is None else self.clock.call_at(at, self.wake)

    def wake(self) -> None:
        """The timer fired: the table looks at its deadlines."""
        self.timer = None
        self.queue.put_nowait(None)

    # ------------------------------------------------------------------ recovery

    async def restore(self, hand: Row | None) -> None:
        """Rebuild this table after a restart from its last stored hand and its decisions (and the
        last hand settled, whose end is told again to a player resuming from it)."""
        dealt = hand is not None and hand["status"] not in ("settled", "collecting")
        decisions = await self.store.decisions_of(hand["id"]) if hand is not None and dealt else []
        settled = hand if hand is None or hand["status"] == "settled" else await self.store.last_hand(self.id, True)
        restored(self.state, hand, decisions, self.clock.now(), settled)
        if self.game is not None:
            log.info("table resumed", extra={"table": self.id, "hand": self.state.hand_id,
                                             "decisions": len(self.game.decisions)})


__all__ = ["Command", "LiveTable", "RefusedError", "Seats", "Send"]
