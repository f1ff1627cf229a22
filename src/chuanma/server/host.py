"""Where tables live and how players reach them: the seam for scaling out.

:class:`TableHost` is the interface the connections and the lobby use: find a player's table,
submit a command to it, open a table. :class:`LocalHost` runs every table as an asyncio task in
this process and hands their messages to the connections' callbacks directly. A deployment of
several processes over one PostgreSQL (and a message bus) would replace this module only: the
game code (:mod:`chuanma.server.table`) talks to its host through the small
:class:`~chuanma.server.table.Seats` interface.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

from chuanma.rules import RuleSet
from chuanma.server import protocol as p
from chuanma.server.bans import ban_words, bans_after, latest_ban
from chuanma.server.config import ServerConfig
from chuanma.server.dealer import DealerKeyError
from chuanma.server.lease import LeaseLostError
from chuanma.server.levels import level_name, level_of
from chuanma.server.metrics import Metrics
from chuanma.server.notices import (
    MAINTENANCE,
    NOTICE,
    announcement_message,
    current_announcement,
    current_maintenance,
    maintenance_message,
)
from chuanma.server.progress import experiences
from chuanma.server.room_config import load_rooms
from chuanma.server.rooms import LOWEST_ENTRY, PRIVATE_ROOM, Room, RoomSet
from chuanma.server.seatings import BotNeed, Seatings, SeatTakenError, StakesError
from chuanma.server.store import Row, Store
from chuanma.server.table import Command, LiveTable, RefusedError, Send
from chuanma.server.table_inputs import Expel, Idle, Rest, Sit, Void

log = logging.getLogger("chuanma.server.host")
MAX_RESTARTS = 3
"""How many times a failed table is rebuilt from the database before it is given up (closed)."""
BAN_WATCH = 5.0
"""Seconds between two looks for the bans made elsewhere (``chuanma admin ban``), whose players are expelled."""
DRAIN_LOOK = 0.25
"""Seconds between two looks of a drain for the tables come to rest."""
VOID_WAIT = 10.0
"""Seconds an operator's void waits at most for the table's answer (from whichever node runs it)."""
FILL_RETRY = 1.0
"""Seconds after which a queue whose matching failed (a cluster's lobby lock not had) is matched again."""
CONFIG_WATCH = 5.0
"""Seconds between two readings of the rooms and the notices (those the command line changed reach
a server no other way; an announcement's end is sent then)."""


class TableHost(Protocol):
    """The table runtime as the rest of the server sees it."""

    async def seat_of(self, user_id: int) -> str | None: ...

    def submit(self, table_id: str, cmd: Command) -> None: ...

    async def open_table(self, room: Room | None, rules: RuleSet, users: list[Row], *, bots: int = 0,
                         hands_limit: int | None = None, invite: str | None = None,
                         creator: int | None = None, bot_level: str | None = None) -> str: ...

    async def live(self, user_id: int) -> list[dict[str, Any]]: ...

    async def watchable(self, table_id: str, user_id: int, invite: str | None) -> bool: ...


def bot_need(room: Room | None) -> BotNeed:
    """A bot for ``room`` (``None``: a private table) has at most its top; below its entry it is
    granted up to five entries (capped by the top)."""
    floor = room.low if room is not None else LOWEST_ENTRY
    high = room.high if room is not None else None
    return BotNeed(floor, high, floor * 5 if high is None else min(floor * 5, high))


def refused(exc: SeatTakenError) -> RefusedError:
    """What a player is told when the database refuses them a second place (or a seat once they
    left the queue)."""
    if exc.table is None and exc.room is None:
        return RefusedError("no_table", "you no longer wait for a table: join again")
    if exc.table is None and exc.room is not None:
        return RefusedError("already_queued", f"you are waiting for a table in {exc.room}: a player has one "
                                              "place at a time (close the connection to leave the queue)")
    return RefusedError("already_seated", "you already sit at a table: resume it or leave it first")


def not_opened(send: Send) -> None:
    """Tell a player that the table their queue made could not be opened (they left the queue)."""
    send(p.error("no_table", "the table could not be opened: join again"))


def handover(table: LiveTable) -> list[Command]:
    """The connections of a failed ``table``, as the commands that attach them to its rebuild: its
    seats', its spectators', and those it was handed but had not attached yet (it failed first)."""
    return table.handover()


def _nobody(_message: dict[str, Any]) -> None:
    """The connection of a command the server gives itself: nothing is sent."""


@dataclass(slots=True)
class Waiting:
    user: Row
    send: Send
    bots: bool
    since: float


@dataclass
class LocalHost:
    """Every table in this process, one asyncio task each."""

    store: Store
    config: ServerConfig
    metrics: Metrics
    tables: dict[str, LiveTable] = field(default_factory=dict)
    tasks: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    seated: dict[int, str] = field(default_factory=dict)
    """Who sits where, as the database's seatings say (kept in step after each of their writes)."""
    creators: dict[str, int] = field(default_factory=dict)
    """Who opened each live private table (they may watch it, and see it among the live tables)."""
    failures: dict[str, int] = field(default_factory=dict)
    restarts: set[asyncio.Task[None]] = field(default_factory=set)
    sweeper: asyncio.Task[None] | None = None
    ban_watch: asyncio.Task[None] | None = None
    on_close: Callable[[int, str, str | None, bool], None] | None = None
    """What closes a player's open sockets on this node, with the reason: those of one session only
    when given its token's digest, or with ``True`` after it those of every other (the app's)."""
    draining: bool = False
    """Set once the server drains (the app's drain, at once; :meth:`drain`): no new socket, table
    or hand here."""
    rooms: RoomSet = field(default_factory=RoomSet)
    """The rooms, as last read from the database (:meth:`reload`)."""
    notices: dict[str, dict[str, Any]] = field(default_factory=dict)
    """The ``announcement`` of each kind (an operator's, the maintenance's) as last read (``id``
    null: none)."""
    listeners: set[Send] = field(default_factory=set)
    """The connection of every socket open here (an announcement is sent to each)."""
    on_rooms: Callable[[], Awaitable[None]] | None = None
    """What is done once the rooms changed (the lobby turns away those waiting for a room closed)."""
    on_maintenance: Callable[[], Awaitable[None]] | None = None
    """What is done when a maintenance starts (the lobby turns away everyone waiting)."""
    chores: set[asyncio.Task[None]] = field(default_factory=set)
    """Work started here that nothing waits for (a maintenance's start, a reading asked by another node)."""
    config_watch: asyncio.Task[None] | None = None
    reloading: asyncio.Lock = field(default_factory=asyncio.Lock)
    """One reading of the rooms and notices at a time: an older one never lands after a newer."""
    seatings: Seatings = field(init=False)

    def __post_init__(self) -> None:
        self.seatings = Seatings(self.store)

    # ---------------------------------------------------------------- Seats (for the tables)

    def seatings_of(self, table_id: str) -> Seatings:
        """The seatings a table's own changes are written through (in one process: the host's)."""
        return self.seatings

    async def sit(self, table_id: str, place: int, user_id: int, stakes: int | None = None) -> None:
        fit = None if stakes is None else self.rooms.stakes(stakes)
        try:
            await self.seatings_of(table_id).sit(table_id, place, user_id, self.config.clock.now(), fit)
        except SeatTakenError as exc:
            raise refused(exc) from None
        except StakesError as exc:
            raise RefusedError("stakes_too_high", str(exc)) from None
        self.seated[user_id] = table_id

    async def seat_bot(self, table_id: str, place: int, room: Room | None, replacing: int | None) -> Row:
        bot = await self.seatings_of(table_id).seat_bot(table_id, place, bot_need(room), replacing,
                                                        self.config.clock.now())
        if replacing is not None and self.seated.get(replacing) == table_id:
            del self.seated[replacing]
        self.seated[int(bot["id"])] = table_id
        return bot

    async def release(self, table_id: str, users: list[int], reason: str,
                      record: dict[str, Any] | None = None) -> None:
        await self.seatings_of(table_id).close(table_id, reason, self.config.clock.now(), record)
        self.forget(table_id, users)

    def forget(self, table_id: str, users: list[int]) -> None:
        """``users`` no longer sit at ``table_id`` (here; the database is written by the caller)."""
        for user_id in users:
            if self.seated.get(user_id) == table_id:
                del self.seated[user_id]

    # ---------------------------------------------------------------- TableHost

    def table_of(self, user_id: int) -> str | None:
        return self.seated.get(user_id) or None

    async def seat_of(self, user_id: int) -> str | None:
        """The table ``user_id`` sits at (as :meth:`table_of`: this process knows every seat)."""
        return self.table_of(user_id)

    def submit(self, table_id: str, cmd: Command) -> None:
        table = self.tables.get(table_id)
        if table is None or table.closed:
            raise RefusedError("no_table", f"no open table {table_id}")
        table.submit(cmd)

    async def expel(self, user_id: int, reason: str) -> None:
        """A player banned or kicked: :meth:`expel_here` (one process holds every socket and table)."""
        self.expel_here(user_id, reason)

    def expel_here(self, user_id: int, reason: str) -> None:
        """Close ``user_id``'s sockets on this node (telling them ``reason``) and expel them from the
        tables run here: a seat mid-hand plays on 托管 to the hand's end, then is unseated."""
        self.close_here(user_id, reason, None, False)
        for table in list(self.tables.values()):
            if not table.closed and any(s is not None and s.user_id == user_id for s in table.seats):
                table.submit(Command(user_id, _nobody, Expel()))

    async def void(self, table_id: str, hand_id: str, reason: str) -> dict[str, Any]:
        """Give the table ``table_id`` (run here or, in a cluster, on its node) an operator's
        :class:`~chuanma.server.table_inputs.Void` of ``hand_id``; returns its answer (``hand_void``,
        or an ``error``: that hand not in play, no such table, or no answer in :data:`VOID_WAIT` seconds)."""
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

        def told(message: dict[str, Any]) -> None:
            if not answer.done():
                answer.set_result(message)
        try:
            self.submit(table_id, Command(0, told, Void(hand_id, reason)))
            return await asyncio.wait_for(answer, VOID_WAIT)
        except RefusedError as exc:
            return p.error(exc.code, str(exc))
        except TimeoutError:
            return p.error("no_answer", f"table {table_id} did not answer in {VOID_WAIT:g} s: look at the hand again")
        finally:
            self.hang_up(told)

    def hang_up(self, send: Send) -> None:
        """Forget the connection ``send`` the host gave itself, answered (one process keeps nothing of it)."""

    async def log_out(self, user_id: int, reason: str, digest: str | None, others: bool = False) -> None:
        """Sessions of ``user_id`` ended (all of them, the one whose token has ``digest``, or with
        ``others`` every one but it): their open sockets are closed (one process holds every
        socket); their seats are kept."""
        self.close_here(user_id, reason, digest, others)

    def close_here(self, user_id: int, reason: str, digest: str | None, others: bool) -> None:
        """Close the sockets of ended sessions of ``user_id`` on this node (:meth:`log_out`)."""
        if self.on_close is not None:
            self.on_close(user_id, reason, digest, others)

    async def live(self, user_id: int) -> list[dict[str, Any]]:
        """The open tables ``user_id`` may watch without an invite code (every room's, and the private
        ones they opened or sit at), as the database has them (whichever process runs them): id,
        room, rules, hand number (0 before the first), whether a hand is being played, and who sits where."""
        return [{"table": t["id"], "room": t["room"], "rules": t["rules"], "hand": t["number"] or 0,
                 "playing": t["hand_status"] == "playing",
                 "players": [None if u is None else {"seat": k, "name": u["username"], "bot": u["kind"] == "bot"}
                             for k, u in enumerate(t["users"])]}
                for t in await self.store.live_tables()
                if t["room"] != PRIVATE_ROOM or t["creator"] == user_id or user_id in t["seats"]]

    def of_its_people(self, table_id: str, user_id: int) -> bool:
        """Whether ``user_id`` sits at, or opened, the table ``table_id`` (one of its people)."""
        return self.seated.get(user_id) == table_id or self.creators.get(table_id) == user_id

    async def watchable(self, table_id: str, user_id: int, invite: str | None) -> bool:
        """Whether ``user_id`` may watch ``table_id``: a room's table anyone; a private table its
        players and whoever gives its invite code (an unknown table is left to :meth:`submit`)."""
        table = self.tables.get(table_id)
        if table is None or table.room is not None or self.of_its_people(table_id, user_id):
            return True
        row = await self.store.table_by_invite(invite) if invite is not None else None
        return row is not None and row["id"] == table_id

    def new_table(self, table_id: str, room: Room | None, rules: RuleSet, hands_limit: int | None,
                  bot_level: str | None = None) -> LiveTable:
        return LiveTable(table_id, room, rules, store=self.store, config=self.config, metrics=self.metrics,
                         host=self, hands_limit=hands_limit, bot_level=bot_level)

    async def open_table(self, room: Room | None, rules: RuleSet, users: list[Row], *, bots: int = 0,
                         hands_limit: int | None = None, invite: str | None = None,
                         creator: int | None = None, bot_level: str | None = None) -> str:
        """A new table seating ``users`` (who leave ``room``'s queue) then ``bots`` bots of
        ``bot_level`` (default: the rooms' level); private tables keep the rest free. Refused
        (:class:`SeatTakenError`) if one of ``users`` has a place elsewhere, or
        (:class:`~chuanma.server.seatings.TooManyTablesError`) if ``creator`` has as many open
        private tables as allowed."""
        closed = self.maintenance_refusal()
        if closed is not None:
            raise closed
        table_id = secrets.token_hex(8)
        table = self.new_table(table_id, room, rules, hands_limit, bot_level)
        places = list(range(4))
        secrets.SystemRandom().shuffle(places)  # who sits where is drawn, bots included
        people = {place: int(user["id"]) for place, user in zip(places, users, strict=False)}
        taken = await self.seatings.open_table(
            {"id": table_id, "room": room.id if room else PRIVATE_ROOM, "rules": rules.to_json(), "invite": invite,
             "hands_limit": hands_limit, "status": "open", "created_at": self.config.clock.now(), "creator": creator,
             "bot_level": table.bot_level},
            people, room.id if room else None, places[len(users):len(users) + bots], bot_need(room),
            self.config.private_tables if creator is not None else None, self.config.clock.now(),
            self.rooms.stakes(rules.base) if creator is not None and self.config.private_base_rule else None)
        for place, user in [*zip(places, users, strict=False), *taken.items()]:
            table.seats[place] = table.make_seat(user)
            self.seated[int(user["id"])] = table_id
        if creator is not None:
            self.creators[table_id] = creator
        await self.own(table_id)
        self.start(table)
        log.info("table opened", extra={"table": table_id, "room": room.id if room else PRIVATE_ROOM})
        return table_id

    async def own(self, table_id: str) -> None:
        """Make the table ``table_id``, just stored, this host's to run (one process owns them all)."""

    def start(self, table: LiveTable) -> None:
        table.state.resting = self.draining  # opened while draining: rests from the start
        self.tables[table.id] = table
        task = asyncio.create_task(table.run(), name=f"table-{table.id}")
        self.tasks[table.id] = task
        table_id = table.id
        task.add_done_callback(lambda t: self._ended(table_id, t))

    def _ended(self, table_id: str, task: asyncio.Task[None]) -> None:
        old = self.tables.pop(table_id, None)
        self.tasks.pop(table_id, None)
        self.creators.pop(table_id, None)
        if task.cancelled() or task.exception() is None or old is None:
            return
        if isinstance(task.exception(), LeaseLostError):  # not the table's fault: another process runs it now
            log.warning("table stopped: its lease was taken over", extra={"table": table_id})
        else:
            log.error("table failed", exc_info=task.exception(), extra={"table": table_id})
        self.failures[table_id] = self.failures.get(table_id, 0) + 1
        connections, users = handover(old), [s.user_id for s in old.seats if s is not None]
        if self.failures[table_id] <= MAX_RESTARTS:  # rebuild it from the database, as after a restart
            work = self.resume_or_give_up(table_id, users, connections,
                                          lambda: self.resume_table(table_id, connections))
        else:
            work = self.give_up(table_id, users, connections, f"it failed {self.failures[table_id]} times")
        restart = asyncio.create_task(work)
        self.restarts.add(restart)
        restart.add_done_callback(self.restarts.discard)

    async def give_up(self, table_id: str, users: list[int], connections: list[Command], why: str) -> None:
        """Close a table that cannot run: its unfinished hand is voided (no chips move; the record
        of its decisions is kept), its seats freed, ``connections`` told (``table_closed``). Best effort:
        if the database refuses even that, the players are still freed here (and it is logged)."""
        self.metrics.tables_given_up.inc()
        log.error("table given up", extra={"table": table_id, "reason": why})
        try:
            await self.release(table_id, users, f"the table was given up: {why}")
        except Exception:
            log.exception("table not closed", extra={"table": table_id})
            self.forget(table_id, users)
        closed = p.server_message("table_closed", table=table_id, reason="the table failed and was closed")
        for cmd in connections:
            cmd.send(closed)

    async def resume_all(self) -> int:
        """Rebuild every open table from the database (after a restart); returns how many. The
        queues of the stopped process are forgotten; a table that cannot be rebuilt is given up."""
        await self.seatings.clear_queues()
        await self.reload()
        for row in await self.store.open_tables():
            await self.resume_or_give_up(row["id"], [int(u) for u in row["seats"] if u is not None], [],
                                         functools.partial(self.resume, row, []))
        return len(self.tables)

    async def resume_table(self, table_id: str, connections: list[Command]) -> None:
        """Rebuild a table whose task failed; its ``connections`` get their seats back (resynced)."""
        for row in await self.store.open_tables():
            if row["id"] == table_id:
                await self.resume(row, connections)

    async def resume_or_give_up(self, table_id: str, users: list[int], connections: list[Command],
                                rebuild: Callable[[], Awaitable[None]]) -> None:
        """Run ``rebuild``; if it fails, :meth:`give_up` the table (telling ``connections``)."""
        try:
            await rebuild()
        except DealerKeyError:
            raise  # the server holds the wrong key: every such table would be lost, so it does not start
        except Exception as exc:
            log.exception("table not resumed", extra={"table": table_id})
            await self.give_up(table_id, users, connections, f"it could not be resumed ({type(exc).__name__}: {exc})")

    async def resume(self, row: Row, connections: list[Command]) -> None:
        """Rebuild the table of ``row`` from the database and give it ``connections``."""
        room = self.rooms.get(row["room"])
        table = self.new_table(row["id"], room, RuleSet.from_json(row["rules"]), row["hands_limit"], row["bot_level"])
        for i, user_id in enumerate(row["seats"]):
            if user_id is not None:
                user = await self.store.user(int(user_id))
                assert user is not None
                table.seats[i] = table.make_seat(user)
                self.seated[int(user_id)] = row["id"]
        if row.get("creator") is not None:
            self.creators[row["id"]] = int(row["creator"])
        await table.restore(await self.store.last_hand(row["id"]))
        self.start(table)
        for cmd in connections:
            table.submit(cmd)

    def watch_idle(self) -> None:
        """Start closing private tables no person has attended for ``config.private_idle_seconds``,
        and expelling the players of bans made elsewhere (:meth:`watch_bans`)."""
        self.sweeper = asyncio.create_task(self.sweep_idle(), name="idle-tables")
        self.ban_watch = asyncio.create_task(self.watch_bans(), name="bans")
        self.config_watch = asyncio.create_task(self.watch_config(), name="rooms-and-notices")

    async def watch_config(self) -> None:
        """Every :data:`CONFIG_WATCH` seconds, :meth:`reload`."""
        clock = self.config.clock
        while True:
            await clock.sleep_until(clock.now() + CONFIG_WATCH)
            try:
                await self.reload()
            except Exception:  # the database away: read again at the next look
                log.exception("rooms and notices not read")

    async def reconfigure(self) -> None:
        """The rooms or the notices changed (an operator's, through this server): :meth:`reload`
        (in a cluster, every node does)."""
        await self.reload()

    async def reload(self) -> None:
        """Read the rooms and the notices again, and act on what changed: the lobby turns away those
        waiting for a room now closed (:attr:`on_rooms`), every socket here is sent each
        ``announcement`` that changed, a maintenance's start is timed (:attr:`on_maintenance`)."""
        async with self.reloading:
            await self.read_config()

    async def read_config(self) -> None:
        """:meth:`reload`'s reading and acting, under its lock."""
        now = self.config.clock.now()
        rooms, said, closing = await self.store.read(
            lambda conn: (load_rooms(conn), current_announcement(conn, now), current_maintenance(conn)))
        if rooms != self.rooms.by_id:
            self.rooms = RoomSet(rooms)
            log.info("rooms read", extra={"rooms": len(self.rooms.open())})
            if self.on_rooms is not None:
                await self.on_rooms()
        for kind, message in ((NOTICE, announcement_message(said)), (MAINTENANCE, maintenance_message(closing))):
            if self.notices.get(kind) == message:
                continue
            self.notices[kind] = message
            for send in list(self.listeners):
                send(message)
            if kind == MAINTENANCE and message["id"] is not None and self.on_maintenance is not None:
                self.chore(self.maintenance_at(float(message["at"]), int(message["id"])))

    def chore(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background (stopped with the host)."""
        task = asyncio.create_task(work)
        self.chores.add(task)
        task.add_done_callback(self.chores.discard)

    async def maintenance_at(self, starts: float, maintenance_id: int) -> None:
        """At ``starts``, if that maintenance is still in force, :attr:`on_maintenance`."""
        await self.config.clock.sleep_until(starts)
        if self.notices[MAINTENANCE]["id"] == maintenance_id and self.on_maintenance is not None:
            await self.on_maintenance()

    def greetings(self) -> list[dict[str, Any]]:
        """The ``announcement`` of each notice in force, for a socket just opened."""
        now = self.config.clock.now()
        return [m for m in self.notices.values() if m["id"] is not None and (m["until"] is None or m["until"] > now)]

    def maintenance_refusal(self) -> RefusedError | None:
        """Why no table opens now (a maintenance started), or ``None``."""
        current = self.notices.get(MAINTENANCE)
        if current is None or current["id"] is None or self.config.clock.now() < current["at"]:
            return None
        words = f": {current['text']}" if current["text"] else ""
        return RefusedError("maintenance", f"maintenance: no new table opens now{words}")

    async def watch_bans(self) -> None:
        """Every :data:`BAN_WATCH` seconds, expel here the players of the bans made since the last look
        (the command line's reach no server otherwise; this node's own are expelled twice: harmless)."""
        clock = self.config.clock
        seen = await self.store.read(latest_ban)
        while True:
            await clock.sleep_until(clock.now() + BAN_WATCH)
            try:
                made = await self.store.read(functools.partial(bans_after, ban_id=seen))
            except Exception:  # the database away: looked for again at the next look
                log.exception("bans not read")
                continue
            for ban in made:
                seen = max(seen, int(ban["id"]))
                self.expel_here(int(ban["user_id"]), ban_words(ban))

    async def sweep_idle(self) -> None:
        """Every quarter of the idle time (a second at least), ask each private table idle that long to close."""
        clock, limit = self.config.clock, self.config.private_idle_seconds
        while True:
            await clock.sleep_until(clock.now() + max(limit / 4, 1.0))
            for table in list(self.tables.values()):
                if table.room is None and table.idle_for() >= limit:
                    with contextlib.suppress(RefusedError):
                        self.submit(table.id, Command(0, _nobody, Idle()))

    async def drain(self, seconds: float) -> int:
        """Deal no new hand here: every table plays the hand in play to its end and comes to rest
        (:meth:`rested` as it does), for at most ``seconds``; returns how many still play one then."""
        clock = self.config.clock
        until = clock.now() + seconds
        self.draining = True
        log.info("draining: no new hand is dealt here", extra={"tables": len(self.tables)})
        while True:
            playing = 0
            for table_id, table in list(self.tables.items()):
                if table.closed:
                    continue
                if not table.state.resting:
                    table.submit(Command(0, _nobody, Rest()))
                if table.at_rest:
                    await self.rested(table_id)
                else:
                    playing += 1
            if not playing or clock.now() >= until:
                log.info("drained", extra={"tables": playing})
                return playing
            await clock.sleep_until(min(until, clock.now() + DRAIN_LOOK))

    async def rested(self, table_id: str) -> None:
        """A draining table came to rest: it waits here for the stop (one process runs every table)."""

    async def stop(self) -> None:
        tasks = [*self.restarts, *self.chores, *self.tasks.values(),
                 *(t for t in (self.sweeper, self.ban_watch, self.config_watch) if t)]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


@dataclass
class Lobby:
    """Quick-join: per room, four waiting people make a table; bots fill after the wait if allowed."""

    host: LocalHost
    queues: dict[str, list[Waiting]] = field(default_factory=dict)
    timers: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    lock: contextlib.AbstractAsyncContextManager[Any] = field(default_factory=asyncio.Lock)
    """The lobby's one writer: joining, leaving and seating a queue never interleave (in a
    cluster, on every node at once)."""

    def __post_init__(self) -> None:
        self.host.on_rooms = self.rooms_closed
        self.host.on_maintenance = self.maintenance_started

    def takes(self, room: Room) -> Room | None:
        """``room`` as the rooms have it now, if it opens tables now (open, no maintenance started)."""
        current = self.host.rooms.get(room.id)
        if current is None or not current.enabled or self.host.maintenance_refusal() is not None:
            return None
        return current

    async def rooms_closed(self) -> None:
        """The rooms changed: those waiting here for one now disabled are told and leave its queue."""
        def closed(room_id: str) -> bool:
            room = self.host.rooms.get(room_id)
            return room is None or not room.enabled
        await self.turn_away(closed, RefusedError("room_closed", "room: it takes no new players now (an "
                                                                 "operator closed it): choose another"))

    async def maintenance_started(self) -> None:
        """A maintenance started: everyone waiting here is told and leaves the queues."""
        refusal = self.host.maintenance_refusal()
        if refusal is not None:
            await self.turn_away(lambda _room: True, refusal)

    async def turn_away(self, closed: Callable[[str], bool], why: RefusedError) -> None:
        """Take those waiting here for a room ``closed`` says is out of the queues, telling them ``why``."""
        for room_id, queue in list(self.queues.items()):
            if not closed(room_id):
                continue
            for w in list(queue):
                await self.drop(int(w.user["id"]))
                w.send(p.error(why.code, str(why)))
                w.send(p.server_message("queued", room=None, waiting=0, bots_in=None))

    async def join(self, room: Room, user: Row, send: Send, bots: bool) -> None:
        async with self.lock:
            await self._join(room, user, send, bots)

    async def _join(self, room: Room, user: Row, send: Send, bots: bool) -> None:
        user_id = int(user["id"])
        closed = self.host.maintenance_refusal()
        if closed is not None:
            raise closed
        if not room.enabled:
            raise RefusedError("room_closed", f"room: {room.name} takes no new players now: choose another")
        if await self.host.seat_of(user_id) is not None:
            raise RefusedError("already_seated", "you already sit at a table: resume it or leave it first")
        if not room.admits(int(user["balance"])):
            raise RefusedError("out_of_range", f"room: {room.name} admits balances {room.range_text()}; "
                                               f"yours is {user['balance']:,}")
        if room.min_level:
            xp = await self.host.store.read(lambda conn: experiences(conn, [user_id]))
            level = level_of(xp[user_id]).number
            if level < room.min_level:
                raise RefusedError("level_too_low", f"room: {room.name} wants {level_name(room.min_level)} "
                                                    f"or higher; yours is {level_name(level)}")
        queue = self.queues.setdefault(room.id, [])
        if any(w.user["id"] == user_id for w in queue):
            raise RefusedError("already_queued", f"you are already waiting in {room.name}")
        try:
            await self.host.seatings.queue(user_id, room.id, self.host.config.clock.now(),
                                           self.host.config.lease_holder, bots)
        except SeatTakenError as exc:
            raise refused(exc) from None
        self.forget(user_id)
        queue.append(Waiting(user, send, bots, self.host.config.clock.now()))
        send(p.server_message("queued", room=room.id, waiting=len(queue),
                              bots_in=self.host.config.bot_wait if bots else None))
        await self.match(room)

    def waiting_since(self) -> dict[str, list[float]]:
        """By room, when each of those waiting in its queue here joined it (the metrics')."""
        return {room: [w.since for w in self.queues.get(room, ())] for room in self.host.rooms.by_id}

    def forget(self, user_id: int) -> None:
        """``user_id`` waits here no more."""
        for queue in self.queues.values():
            queue[:] = [w for w in queue if w.user["id"] != user_id]

    async def drop(self, user_id: int) -> None:
        """Take ``user_id`` out of every queue (they left it, or their connection closed)."""
        async with self.lock:
            self.forget(user_id)
            await self.host.seatings.unqueue(user_id)

    async def match(self, room: Room) -> None:
        """Seat every four waiting in ``room``, then fill with bots if it is time (:meth:`fill`);
        nothing while it opens no table (:meth:`takes`)."""
        current = self.takes(room)
        if current is None:
            return
        room = current
        queue = self.queues.get(room.id, [])
        while len(queue) >= 4:
            group, queue[:] = queue[:4], queue[4:]
            await self.seat(room, group)
        await self.fill(room)

    async def fill(self, room: Room) -> None:
        """Seat those waiting in ``room`` who allow bots, with bots, once the first has waited
        ``bot_wait`` (or set a timer for then)."""
        queue = self.queues.get(room.id, [])
        willing = [w for w in queue if w.bots]
        if self.bots_due(room, [w.since for w in willing]):
            queue[:] = [w for w in queue if not w.bots]
            await self.seat(room, willing)

    def bots_due(self, room: Room, since: list[float]) -> bool:
        """Whether those waiting in ``room`` for bots since ``since`` are seated with them now: once
        the first has waited ``bot_wait``; before that, a timer is set for then (none are: ``False``)."""
        if not since:
            return False
        due = min(since) + self.host.config.bot_wait
        if self.host.config.clock.now() >= due:
            return True
        self.fill_at(room, due)
        return False

    def fill_at(self, room: Room, due: float) -> None:
        """Match ``room``'s queue at ``due`` (under the lock), unless a timer for it is set already."""
        if room.id not in self.timers or self.timers[room.id].done():
            self.timers[room.id] = asyncio.create_task(self._fill_later(room, due))

    async def _fill_later(self, room: Room, due: float) -> None:
        """Match ``room`` at ``due``; if that fails (a cluster's lock not had while Redis is away or
        another node holds it), again :data:`FILL_RETRY` later, until it is done."""
        clock = self.host.config.clock
        await clock.sleep_until(due)
        self.timers.pop(room.id, None)
        try:
            async with self.lock:
                await self.match(room)
        except RefusedError as exc:
            log.warning(f"queue not matched: {exc}", extra={"room": room.id})
            self.fill_at(room, clock.now() + FILL_RETRY)
        except Exception:
            log.exception("queue not matched", extra={"room": room.id})
            self.fill_at(room, clock.now() + FILL_RETRY)

    async def unqueue(self, user_ids: list[int]) -> None:
        """Delete the queue rows of ``user_ids``, whose table could not be opened (those the
        database, failing, lets be deleted)."""
        for user_id in user_ids:
            with contextlib.suppress(Exception):
                await self.host.seatings.unqueue(user_id)

    async def seat(self, room: Room, group: list[Waiting]) -> None:
        try:
            table_id = await self.host.open_table(room, room.rules(), [w.user for w in group],
                                                  bots=4 - len(group))
        except SeatTakenError as exc:  # a place written by another process: that player is told, the rest go on
            refusal = refused(exc)
            for w in group:
                if w.user["id"] == exc.user_id:
                    w.send(p.error(refusal.code, str(refusal)))
            self.queues[room.id][:0] = [w for w in group if w.user["id"] != exc.user_id]
            await self.match(room)
            return
        except Exception:  # a database error, a lost lease: the group is told, and their queue rows freed
            log.exception("table not opened", extra={"room": room.id})
            await self.unqueue([int(w.user["id"]) for w in group])
            for w in group:
                not_opened(w.send)
            return
        for w in group:
            self.host.submit(table_id, Command(int(w.user["id"]), w.send, Sit()))
