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
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any, Protocol

from chuanma.rules import RuleSet
from chuanma.server import protocol as p
from chuanma.server.config import ServerConfig
from chuanma.server.metrics import Metrics
from chuanma.server.rooms import LOWEST_ENTRY, PRIVATE_ROOM, ROOMS, Room
from chuanma.server.store import Row, Store
from chuanma.server.table import Command, LiveTable, RefusedError, Send

log = logging.getLogger("chuanma.server.host")
MAX_RESTARTS = 3
"""How many times a failed table is rebuilt from the database before it is left for the next start."""


class TableHost(Protocol):
    """The table runtime as the rest of the server sees it."""

    def table_of(self, user_id: int) -> str | None: ...

    def submit(self, table_id: str, cmd: Command) -> None: ...

    async def open_table(self, room: Room | None, rules: RuleSet, users: list[Row], *, bots: int = 0,
                         hands_limit: int | None = None, invite: str | None = None) -> str: ...

    def live(self) -> list[dict[str, Any]]: ...


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
    busy_bots: set[int] = field(default_factory=set)
    failures: dict[str, int] = field(default_factory=dict)
    restarts: set[asyncio.Task[None]] = field(default_factory=set)
    idle_bots: list[int] | None = None
    """Bot accounts seated nowhere (read from the database at the first need)."""
    bot_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """One bot taken at a time: the search awaits the store, and two tables must not take one bot."""

    # ---------------------------------------------------------------- Seats (for the tables)

    async def take_bot(self, room: Room | None) -> Row:
        """A bot account not seated anywhere, its balance brought inside ``room``'s range by a grant."""
        async with self.bot_lock:
            return await self._take_bot(room)

    async def _take_bot(self, room: Room | None) -> Row:
        now = self.config.clock.now()
        if self.idle_bots is None:
            self.idle_bots = [int(r["id"]) for r in await self.store.bots() if int(r["id"]) not in self.busy_bots]
        bot: Row | None = None
        for i in range(len(self.idle_bots) - 1, -1, -1):
            row = await self.store.user(self.idle_bots[i])
            if row is not None and (room is None or room.high is None or row["balance"] <= room.high):
                del self.idle_bots[i]
                bot = row
                break
        if bot is None:
            user_id = await self.store.create_user(f"bot_{secrets.token_hex(4)}", None, "bot", 0, now)
            assert user_id is not None
            bot = await self.store.user(user_id)
            assert bot is not None
        floor = room.low if room is not None else LOWEST_ENTRY
        target = floor * 5 if room is None or room.high is None else min(floor * 5, room.high)
        if bot["balance"] < floor:
            await self.store.grant(int(bot["id"]), target - int(bot["balance"]), now)
        self.busy_bots.add(int(bot["id"]))
        self.seated[int(bot["id"])] = ""
        return bot

    def mark(self, user_id: int, table_id: str) -> None:
        self.seated[user_id] = table_id

    def free(self, user_id: int, table_id: str) -> None:
        if self.seated.get(user_id) in (table_id, ""):
            del self.seated[user_id]
        if user_id in self.busy_bots:
            self.busy_bots.discard(user_id)
            if self.idle_bots is not None:
                self.idle_bots.append(user_id)

    # ---------------------------------------------------------------- TableHost

    def table_of(self, user_id: int) -> str | None:
        return self.seated.get(user_id) or None

    def submit(self, table_id: str, cmd: Command) -> None:
        table = self.tables.get(table_id)
        if table is None or table.closed:
            raise RefusedError("no_table", f"no open table {table_id}")
        table.submit(cmd)

    def live(self) -> list[dict[str, Any]]:
        """The open tables a player may watch: id, room, rules, hand number and who sits where."""
        return [{"table": t.id, "room": t.room.id if t.room else PRIVATE_ROOM, "rules": t.rules.to_json(),
                 "hand": t.number, "playing": t.game is not None, "players": t.players()}
                for t in self.tables.values() if not t.closed]

    def new_table(self, table_id: str, room: Room | None, rules: RuleSet, hands_limit: int | None) -> LiveTable:
        return LiveTable(table_id, room, rules, store=self.store, config=self.config, metrics=self.metrics,
                         host=self, hands_limit=hands_limit)

    async def open_table(self, room: Room | None, rules: RuleSet, users: list[Row], *, bots: int = 0,
                         hands_limit: int | None = None, invite: str | None = None) -> str:
        """A new table seating ``users`` then ``bots`` bots; private tables keep the rest free."""
        table_id = secrets.token_hex(8)
        table = self.new_table(table_id, room, rules, hands_limit)
        places = list(range(4))
        secrets.SystemRandom().shuffle(places)  # who sits where is drawn, bots included
        for place, user in zip(places, users, strict=False):
            table.seats[place] = table.make_seat(user)
            self.seated[int(user["id"])] = table_id
        for place in places[len(users):len(users) + bots]:
            bot = await self.take_bot(room)
            table.seats[place] = table.make_seat(bot)
            self.seated[int(bot["id"])] = table_id
        await self.store.create_table({
            "id": table_id, "room": room.id if room else PRIVATE_ROOM, "rules": rules.to_json(), "invite": invite,
            "hands_limit": hands_limit, "seats": [s.user_id if s else None for s in table.seats],
            "status": "open", "created_at": self.config.clock.now()})
        self.start(table)
        log.info("table opened", extra={"table": table_id, "room": room.id if room else PRIVATE_ROOM})
        return table_id

    def start(self, table: LiveTable) -> None:
        self.tables[table.id] = table
        task = asyncio.create_task(table.run(), name=f"table-{table.id}")
        self.tasks[table.id] = task
        table_id = table.id
        task.add_done_callback(lambda t: self._ended(table_id, t))

    def _ended(self, table_id: str, task: asyncio.Task[None]) -> None:
        old = self.tables.pop(table_id, None)
        self.tasks.pop(table_id, None)
        if task.cancelled() or task.exception() is None or old is None:
            return
        log.error("table failed", exc_info=task.exception(), extra={"table": table_id})
        self.failures[table_id] = self.failures.get(table_id, 0) + 1
        if self.failures[table_id] <= MAX_RESTARTS:  # rebuild it from the database, as after a restart
            restart = asyncio.create_task(self.resume_table(table_id, old))
            self.restarts.add(restart)
            restart.add_done_callback(self.restarts.discard)

    async def resume_all(self) -> int:
        """Rebuild every open table from the database (after a restart); returns how many."""
        for row in await self.store.open_tables():
            await self.resume(row, None)
        return len(self.tables)

    async def resume_table(self, table_id: str, failed: LiveTable) -> None:
        """Rebuild a table whose task failed; its connections get their seats back (resynced)."""
        for row in await self.store.open_tables():
            if row["id"] == table_id:
                await self.resume(row, failed)

    async def resume(self, row: Row, failed: LiveTable | None) -> None:
        room = ROOMS.get(row["room"])
        table = self.new_table(row["id"], room, RuleSet.from_json(row["rules"]), row["hands_limit"])
        for i, user_id in enumerate(row["seats"]):
            if user_id is not None:
                user = await self.store.user(int(user_id))
                assert user is not None
                table.seats[i] = table.make_seat(user)
                self.seated[int(user_id)] = row["id"]
                if user["kind"] == "bot":
                    self.busy_bots.add(int(user_id))
        await table.restore(await self.store.last_hand(row["id"]))
        self.start(table)
        if failed is None:
            return
        for seat in failed.seats:
            if seat is not None:
                for send in seat.sends:
                    table.submit(Command("resume", seat.user_id, send))
        for send in failed.spectators:
            table.submit(Command("watch", 0, send))

    async def stop(self) -> None:
        tasks = [*self.restarts, *self.tasks.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


@dataclass
class Lobby:
    """Quick-join: per room, four waiting people make a table; bots fill after the wait if allowed."""

    host: LocalHost
    queues: dict[str, list[Waiting]] = field(default_factory=dict)
    timers: dict[str, asyncio.Task[None]] = field(default_factory=dict)

    async def join(self, room: Room, user: Row, send: Send, bots: bool) -> None:
        user_id = int(user["id"])
        if self.host.table_of(user_id) is not None:
            raise RefusedError("already_seated", "you already sit at a table: resume it or leave it first")
        if not room.admits(int(user["balance"])):
            raise RefusedError("out_of_range", f"room: {room.name} admits balances {room.range_text()}; "
                                               f"yours is {user['balance']:,}")
        queue = self.queues.setdefault(room.id, [])
        if any(w.user["id"] == user_id for w in queue):
            raise RefusedError("already_queued", f"you are already waiting in {room.name}")
        for other in self.queues.values():
            other[:] = [w for w in other if w.user["id"] != user_id]
        queue.append(Waiting(user, send, bots, self.host.config.clock.now()))
        send(p.server_message("queued", room=room.id, waiting=len(queue),
                              bots_in=self.host.config.bot_wait if bots else None))
        await self.match(room)

    def drop(self, user_id: int) -> None:
        for queue in self.queues.values():
            queue[:] = [w for w in queue if w.user["id"] != user_id]

    async def match(self, room: Room) -> None:
        queue = self.queues.get(room.id, [])
        while len(queue) >= 4:
            group, queue[:] = queue[:4], queue[4:]
            await self.seat(room, group)
        willing = [w for w in queue if w.bots]
        if not willing:
            return
        due = min(w.since for w in willing) + self.host.config.bot_wait
        if self.host.config.clock.now() >= due:
            queue[:] = [w for w in queue if not w.bots]
            await self.seat(room, willing)
        elif room.id not in self.timers or self.timers[room.id].done():
            self.timers[room.id] = asyncio.create_task(self._fill_later(room, due))

    async def _fill_later(self, room: Room, due: float) -> None:
        await self.host.config.clock.sleep_until(due)
        self.timers.pop(room.id, None)
        await self.match(room)

    async def seat(self, room: Room, group: list[Waiting]) -> None:
        table_id = await self.host.open_table(room, room.rules(), [w.user for w in group], bots=4 - len(group))
        for w in group:
            self.host.submit(table_id, Command("sit", int(w.user["id"]), w.send))
