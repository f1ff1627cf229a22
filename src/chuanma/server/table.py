"""One live table: an asyncio task that owns the engine :class:`Game` and consumes a command queue.

The task is the table's only writer. Connections put :class:`Command` objects on its queue and
receive messages through their :data:`Send` callbacks, which never block. Every decision (and
the events it caused) is stored before any message about it is sent; after a restart the table
is rebuilt from the stored decisions (:meth:`LiveTable.restore`). What a seat is sent comes only
from the engine's redaction (``Game.view`` and ``Game.events_for``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from chuanma.bots import Bot, make_bot, needs_view
from chuanma.engine import Action, Game, IllegalActionError, Leave, action_from_json, replay, settle_chips
from chuanma.errors import ChuanmaError
from chuanma.fairness import FairHand, VRFKey
from chuanma.fairness.seeds import validate_client_seed
from chuanma.fairness.session import SessionHand
from chuanma.rules import RuleSet
from chuanma.server import protocol as p
from chuanma.server.clock import Timer
from chuanma.server.config import ServerConfig
from chuanma.server.dealer import DealerKeyError
from chuanma.server.hints import hints, suggestion
from chuanma.server.metrics import Metrics
from chuanma.server.rooms import Room
from chuanma.server.store import Row, Store

log = logging.getLogger("chuanma.server.table")

Send = Callable[[dict[str, Any]], None]
"""A connection's way to receive a message (it queues it; it never blocks the table)."""


@dataclass(slots=True)
class Command:
    """Something a connection asks of a table: ``kind`` is ``sit``, ``resume``, ``watch``,
    ``detach``, ``ready``, ``act``, ``auto``, ``views`` or ``leave`` (or, from the host, ``idle``)."""

    kind: str
    user_id: int
    send: Send
    message: Any = None
    received: float = field(default_factory=time.perf_counter)


class Seats(Protocol):
    """What a table needs from its host: every change of its seats, each stored with the seats'
    one-place-per-player invariant (a refusal is a :class:`RefusedError`)."""

    async def sit(self, table_id: str, place: int, user_id: int) -> None: ...

    async def seat_bot(self, table_id: str, place: int, room: Room | None, replacing: int | None) -> Row: ...

    async def release(self, table_id: str, users: list[int], reason: str,
                      record: dict[str, Any] | None = None) -> None: ...


@dataclass(slots=True)
class Seat:
    user_id: int
    name: str
    bot: bool
    player: Bot
    """The bot that plays this seat: always for a bot seat, on 托管 for a person."""
    sends: list[Send] = field(default_factory=list)
    ready: bool = False
    client_seed: str | None = None
    auto: bool = False
    leaving: bool = False
    prompt_version: int | None = None
    prompt_legal: list[dict[str, Any]] | None = None
    deadline: float | None = None
    views: bool = False
    """Send this seat its whole view after each batch of events (browsers ask for it)."""
    hints: bool = False
    """With the view, the ready-hand hints computed from it."""

    def send(self, message: dict[str, Any]) -> None:
        for send in self.sends:
            send(message)

    def clear_prompt(self) -> None:
        self.prompt_version = self.prompt_legal = self.deadline = None


def _dumps(data: Any) -> int:
    return len(json.dumps(data, separators=(",", ":"), ensure_ascii=False))


class RefusedError(Exception):
    """A command refused by the table (sent back as an ``error``; nothing changed)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class LiveTable:
    """A table of four seats playing hands one after another."""

    def __init__(self, table_id: str, room: Room | None, rules: RuleSet, *, store: Store, config: ServerConfig,
                 metrics: Metrics, host: Seats, hands_limit: int | None = None) -> None:
        self.id = table_id
        self.room = room
        self.rules = rules
        self.store = store
        self.config = config
        self.clock = config.clock
        self.metrics = metrics
        self.host = host
        self.hands_limit = hands_limit
        self.seats: list[Seat | None] = [None] * 4
        self.spectators: list[Send] = []
        self.spectator_views: list[Send] = []
        self.queue: asyncio.Queue[Command | None] = asyncio.Queue()
        self.armed: tuple[float | None, Timer | None] = (None, None)
        self.number = -1
        self.hand_id: str | None = None
        self.fair: FairHand | None = None
        self.session: SessionHand | None = None
        self.previous: tuple[dict[str, Any], int] | None = None
        """The last finished hand's record and next dealer (for a chained session: dealer rule not ``random``)."""
        self.game: Game | None = None
        self.sent = 0
        self.unsaved: list[dict[str, Any]] = []
        self.ready_deadline: float | None = None
        self.sat_down: tuple[list[int], list[int]] = ([], [])
        """The hand's players (user ids by seat) and the balances they sat down with."""
        self.closed = False
        self.unattended_since: float | None = None
        """Since when no person has been seated and connected here (``None``: someone is)."""

    # ------------------------------------------------------------------ seats

    def make_seat(self, user: Row) -> Seat:
        bot = user["kind"] == "bot"
        return Seat(int(user["id"]), str(user["username"]), bot, make_bot(self.config.bot_name,
                                                                          secrets.randbelow(2**31)), ready=bot)

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.user_id == user_id:
                return i
        return None

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is not None and not s.bot]

    def players(self) -> list[dict[str, Any]]:
        return [None if s is None else {"seat": i, "name": s.name, "bot": s.bot, "auto": s.auto}  # type: ignore[misc]
                for i, s in enumerate(self.seats)]

    def note_attendance(self) -> None:
        """Start (or stop) the idle time: whether a person is seated here with a connection."""
        if any(s is not None and not s.bot and s.sends for s in self.seats):
            self.unattended_since = None
        elif self.unattended_since is None:
            self.unattended_since = self.clock.now()

    def idle_for(self) -> float:
        """Seconds without a person seated and connected (0 while one is)."""
        return 0.0 if self.unattended_since is None else self.clock.now() - self.unattended_since

    async def replace_with_bot(self, index: int, reason: str) -> None:
        """Unseat the person at ``index`` (telling them why) and seat a bot instead."""
        seat = self.seats[index]
        assert seat is not None
        seat.send(p.server_message("table_closed", table=self.id, reason=reason))
        self.seats[index] = self.make_seat(await self.host.seat_bot(self.id, index, self.room, seat.user_id))
        self.broadcast(lambda i: p.server_message("seated", **self.seating(i)))

    def seating(self, index: int | None) -> dict[str, Any]:
        return {"table": self.id, "seat": index, "room": self.room.id if self.room else "private",
                "rules": self.rules.to_json(), "players": self.players()}

    def broadcast(self, message: Callable[[int | None], dict[str, Any] | None]) -> None:
        """Send each seat (and the spectators, as seat ``None``) its own form of a message."""
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.sends:
                msg = message(i)
                if msg is not None:
                    seat.send(msg)
        if self.spectators:
            msg = message(None)
            if msg is not None:
                for send in self.spectators:
                    send(msg)

    def broadcast_auto(self, index: int, on: bool) -> None:
        message = p.server_message("auto", table=self.id, seat=index, on=on)
        self.broadcast(lambda _s: message)

    # ------------------------------------------------------------------ the task

    async def run(self) -> None:
        """Consume commands until the table closes (``None`` in the queue: a deadline may have passed)."""
        self.metrics.live_tables.inc()
        try:
            await self.step()
            while not self.closed:
                self.note_attendance()
                self.arm(self.deadline())
                cmd = await self.queue.get()
                if cmd is None:
                    await self.expire()
                else:
                    try:
                        await self.handle(cmd)
                    except RefusedError as exc:
                        self.metrics.errors.labels(exc.code).inc()
                        cmd.send(p.error(exc.code, str(exc)))
                await self.step()
                if cmd is not None and cmd.kind == "act":
                    self.metrics.latency.observe(time.perf_counter() - cmd.received)
        finally:
            self.arm(None)
            self.metrics.live_tables.dec()

    def submit(self, cmd: Command) -> None:
        self.queue.put_nowait(cmd)

    def arm(self, deadline: float | None) -> None:
        """Have the clock wake this table at ``deadline``: one timer, replaced when the deadline moves
        and set again once it has fired (a wake before the deadline, and :meth:`expire` does nothing)."""
        if deadline == self.armed[0]:
            return
        if self.armed[1] is not None:
            self.armed[1].cancel()
        timer = None if deadline is None else self.clock.call_at(deadline, self.wake)
        self.armed = (deadline, timer)

    def wake(self) -> None:
        """The timer fired: no timer is pending any more; the table looks at its deadlines."""
        self.armed = (None, None)
        self.queue.put_nowait(None)

    def deadline(self) -> float | None:
        if self.game is None:
            return self.ready_deadline
        times = [s.deadline for s in self.seats if s is not None and s.deadline is not None]
        return min(times) if times else None

    async def expire(self) -> None:
        now = self.clock.now()
        if self.game is None:
            if self.ready_deadline is not None and now >= self.ready_deadline:
                for i in self.humans():
                    seat = self.seats[i]
                    if seat is not None and not seat.ready:
                        await self.replace_with_bot(i, "not ready in time")
            return
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.deadline is not None and now >= seat.deadline:
                seat.auto = True
                seat.clear_prompt()
                self.broadcast_auto(i, True)

    async def step(self) -> None:
        """Everything that happens without a person: hands open and deal, bots move, hands settle."""
        while not self.closed:
            if self.game is None:
                if any(s is None for s in self.seats):
                    return
                if self.fair is None and not await self.open_hand():
                    return
                if not all(s is not None and s.ready for s in self.seats):
                    return
                if not self.humans():  # everyone was unseated while getting ready: bots never play alone
                    await self.close("no players left")
                    return
                await self.deal()
            assert self.game is not None
            await self.play()
            if not self.game.finished:
                return
            await self.settle()

    # ------------------------------------------------------------------ a hand

    async def open_hand(self) -> bool:
        """Start the next hand, dealt by the dealer's VRF key (its public key is shown before anyone
        is ready) from this table's id, the hand's number and the client seeds."""
        if not self.humans() or (self.hands_limit is not None and self.number + 1 >= self.hands_limit):
            await self.close("no players left" if not self.humans() else "all hands played")
            return False
        room = self.room
        balances = await self.store.balances([s.user_id for s in self.seats if s is not None]) if room else {}
        for i in self.humans():
            seat = self.seats[i]
            assert seat is not None
            if room is not None and not room.admits(balances[seat.user_id]):
                await self.replace_with_bot(i, f"balance outside {room.name}'s range {room.range_text()}")
        if not self.humans():
            await self.close("no players left")
            return False
        number = self.number + 1
        if number == 0 or self.session is None:
            session = SessionHand.first(self.id, self.rules.dealer)
        else:
            record, next_dealer = self.previous if self.previous is not None else (None, 0)
            session = self.session.following(record, next_dealer)
        key = self.dealer_key()
        fair = FairHand.with_vrf(key, self.id, number, tile_set=self.rules.tiles)
        hand_id = f"{self.id}-{number}"
        await self.store.create_hand({
            "id": hand_id, "table_id": self.id, "number": number, "server_seed": "", "commitment": "",
            "public_key": key.public_key.hex(), "session": session.to_json(),
            "seats": [s.user_id if s else None for s in self.seats], "status": "collecting"})
        self.begin_collecting(number, hand_id, fair, session)
        return True

    def dealer_key(self) -> VRFKey:
        key = self.config.dealer_key
        assert key is not None, "the app gives every table the dealer's key"
        return key

    def begin_collecting(self, number: int, hand_id: str, fair: FairHand, session: SessionHand) -> None:
        self.number, self.hand_id, self.fair, self.session = number, hand_id, fair, session
        for seat in self.seats:
            if seat is not None:
                seat.ready, seat.client_seed = seat.bot, None
        self.ready_deadline = self.clock.now() + self.config.ready_seconds
        self.broadcast(lambda _s: self.hand_start())

    def hand_start(self) -> dict[str, Any]:
        assert self.fair is not None
        return p.server_message("hand_start", table=self.id, hand=self.number, **self.committed(),
                                ready_in=self.config.ready_seconds)

    def committed(self) -> dict[str, Any]:
        """What binds the hand's deal before the client seeds: the dealer's public key (VRF), or the
        server seed's commitment for a hand dealt before the server had its key."""
        assert self.fair is not None
        seeds = self.fair.seeds_record()
        return {"scheme": seeds["scheme"], "commitment": seeds.get("commitment"),
                "public_key": seeds.get("public_key")}

    def seeded(self) -> tuple[FairHand, SessionHand, Game]:
        """Give the client seeds to the fair hand and make the game of its deal."""
        assert self.fair is not None and self.session is not None
        for i, seat in enumerate(self.seats):
            assert seat is not None
            self.fair.add_client_seed(i, seat.client_seed or secrets.token_hex(16))
        deal = self.session.deal(self.fair.deal())
        return self.fair, self.session, Game(self.rules, list(deal.wall), deal.dealer, deal.direction)

    async def deal(self) -> None:
        fair, _session, game = self.seeded()
        ids = [s.user_id for s in self.seats if s is not None]
        assert self.hand_id is not None
        self.sat_down = (ids, await self.store.deal_hand(self.hand_id, ids, fair.client_seeds))
        self.start_game(game)

    def start_game(self, game: Game) -> None:
        self.game, self.sent, self.ready_deadline = game, 0, None
        message = self.dealt()
        self.broadcast(lambda _s: message)

    def dealt(self) -> dict[str, Any]:
        """The second ``hand_start``: what binds the deal (:meth:`committed`) and the client seeds."""
        assert self.fair is not None
        return p.server_message("hand_start", table=self.id, hand=self.number, **self.committed(),
                                client_seeds=list(self.fair.client_seeds), dealt=True)

    async def play(self) -> None:
        """Bots and seats on 托管 decide; everything is stored, then sent; people are prompted."""
        game = self.game
        assert game is not None
        while not game.finished:
            movers = [s for s in game.to_act() if self._auto(s)]
            if not movers:
                break
            for s in movers:
                if s not in game.to_act():
                    continue
                seat = self.seats[s]
                assert seat is not None
                legal = game.legal_actions(s)
                view = game.view(s) if needs_view(seat.player) else None
                self.record_decision(s, seat.player.choose(view, legal), "bot" if seat.bot else "auto")
        await self.flush()

    def _auto(self, index: int) -> bool:
        seat = self.seats[index]
        return seat is not None and (seat.bot or seat.auto)

    def record_decision(self, index: int, action: Action, by: str, expected: int | None = None) -> None:
        game = self.game
        assert game is not None and self.hand_id is not None
        idx = len(game.decisions)
        events = game.apply(index, action, expected_version=expected)
        seat = self.seats[index]
        assert seat is not None
        seat.clear_prompt()
        self.metrics.decided[by].inc()
        self.unsaved.append({"hand_id": self.hand_id, "idx": idx, "seat": index, "action": action.to_json(),
                             "by": by, "events": [e.to_json() for e in events], "at": self.clock.now()})

    async def flush(self) -> None:
        """Store the new decisions, then send the new events and prompts."""
        await self.store.add_decisions(self.unsaved)
        self.unsaved = []
        game = self.game
        assert game is not None
        if len(game.events) > self.sent:
            since = self.sent
            self.broadcast(lambda s: self.events_message(s, since))
            self.sent = len(game.events)
            self.send_views()
        self.prompt()

    def view_message(self, index: int | None) -> dict[str, Any]:
        """The whole view of seat ``index`` (``None``: a spectator), with hints if the seat asked for them."""
        assert self.game is not None
        view = self.game.view(index)
        seat = self.seats[index] if index is not None else None
        return p.server_message("view", table=self.id, hand=self.number, last=len(self.game.events) - 1,
                                view=view.to_dict(), hints=hints(view) if seat is not None and seat.hints else None,
                                suggest=suggestion(view))

    def send_views(self) -> None:
        """Send the seats and spectators that asked for views their view of the hand as it is now."""
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.views and seat.sends:
                seat.send(self.view_message(i))
        if self.spectator_views:
            msg = self.view_message(None)
            for send in self.spectator_views:
                send(msg)

    def events_message(self, seat: int | None, since: int) -> dict[str, Any] | None:
        assert self.game is not None
        events = self.game.events_for(seat, since)
        return p.server_message("events", table=self.id, hand=self.number, events=events) if events else None

    def prompt(self, force: int | None = None) -> None:
        game = self.game
        assert game is not None
        owing = () if game.finished else game.to_act()
        for i, seat in enumerate(self.seats):
            if seat is None or seat.bot:
                continue
            if i not in owing or seat.auto:
                seat.clear_prompt()
                continue
            legal = [a.to_json() for a in game.legal_actions(i)]
            if seat.prompt_legal != legal:
                claim = game.phase in ("claim", "rob")
                seat.prompt_version, seat.prompt_legal = game.version, legal
                seat.deadline = self.clock.now() + (self.config.claim_seconds if claim else self.config.turn_seconds)
            elif force != i:
                continue
            assert seat.deadline is not None
            seat.send(p.server_message("prompt", table=self.id, hand=self.number, seat=i,
                                       version=seat.prompt_version, legal=legal,
                                       seconds=max(0.0, seat.deadline - self.clock.now())))

    async def settle(self) -> None:
        """Settle the finished hand: its record and every seat's chips in one transaction."""
        game, fair, session = self.game, self.fair, self.session
        assert game is not None and fair is not None and session is not None and self.hand_id is not None
        ids, sat_down = self.sat_down
        names = [s.name if s else "" for s in self.seats]
        record = None
        try:  # computing alone: what fails here fails the same way at every rebuild
            record = fair.finish(game, session=session, extra={"table": self.id, "hand_id": self.hand_id,
                                                               "players": names},
                                 signing_key=self.dealer_key())
            base = self.rules.base
            deltas = settle_chips([(pay.payer, pay.payee, pay.amount * base) for pay in game.ledger], sat_down)
        except Exception as exc:
            await self.void(exc, record)
            return
        escaped = {ids[pay.payer] for pay in game.ledger if pay.reason == "escape"}
        by_user = {ids[i]: deltas[i] for i in range(4)}
        kinds = {u: ("escape" if u in escaped else "hand") for u in ids}
        balances = await self.store.settle(self.hand_id, record, by_user, kinds, self.clock.now())
        if balances is None:  # settled before: nothing is paid twice
            balances = await self.store.balances(ids)
        else:
            self.metrics.hands.inc()
            log.info("hand settled", extra={"table": self.id, "hand": self.hand_id, "deltas": deltas})
        self.previous = (record, game.next_dealer())
        seeds = record["seeds"]
        self.broadcast(lambda _s: p.server_message(
            "hand_end", table=self.id, hand=self.number, hand_id=self.hand_id, result=game.result(),
            end_reason=game.end_reason, chips=deltas, balances=[balances[u] for u in ids], seeds=seeds,
            record=f"/api/hands/{self.hand_id}/record"))
        self.game, self.fair = None, None
        for seat in self.seats:
            if seat is not None:
                seat.clear_prompt()
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.leaving:
                seat.sends.clear()
                await self.replace_with_bot(i, "you left the table")

    async def void(self, exc: Exception, record: dict[str, Any] | None) -> None:
        """The finished hand cannot be settled: it is voided (no chips move; its record, if made,
        and the reason are kept), its players are told, and the table closes."""
        error = type(exc).__name__
        self.metrics.settlement_failures.labels(error).inc()
        log.error("hand voided", exc_info=exc, extra={"table": self.id, "hand": self.hand_id, "reason": error})
        told = p.server_message("hand_void", table=self.id, hand=self.number, hand_id=self.hand_id,
                                reason=f"this hand could not be settled ({error}): it is void and no chips moved")
        await self.close("the hand was voided", f"settlement failed: {error}: {exc}", record, told)

    async def close(self, reason: str, detail: str | None = None, record: dict[str, Any] | None = None,
                    notice: dict[str, Any] | None = None) -> None:
        """Close the table and free its seats; a hand not settled is voided (no chips move), with
        ``detail`` (else ``reason``) and its ``record`` if it has one. Stored, then the players
        are sent ``notice`` (if any) and ``table_closed``."""
        await self.host.release(self.id, [s.user_id for s in self.seats if s is not None], detail or reason, record)
        self.closed = True
        closed = p.server_message("table_closed", table=self.id, reason=reason)
        if notice is not None:
            self.broadcast(lambda _s: notice)
        self.broadcast(lambda _s: closed)
        log.info("table closed", extra={"table": self.id, "reason": reason})

    # ------------------------------------------------------------------ commands

    async def handle(self, cmd: Command) -> None:
        if cmd.kind == "watch":
            self.unwatch(cmd.send)  # watching again replaces the first watch
            self.spectators.append(cmd.send)
            if cmd.message is not None and cmd.message.views:
                self.spectator_views.append(cmd.send)
            self.resend(None, cmd.send, -1)
            return
        if cmd.kind == "idle":
            if self.idle_for() >= self.config.private_idle_seconds:
                await self.close(f"no player for {self.config.private_idle_seconds:g} s")
            return
        if cmd.kind == "detach":
            for seat in self.seats:
                if seat is not None and cmd.send in seat.sends:
                    seat.sends.remove(cmd.send)
            self.unwatch(cmd.send)
            return
        if cmd.kind == "sit" and self.seat_of(cmd.user_id) is None:
            await self.sit(cmd)
        index = self.seat_of(cmd.user_id)
        if index is None:
            raise RefusedError("not_seated", f"you have no seat at table {self.id}")
        seat = self.seats[index]
        assert seat is not None
        if cmd.kind in ("sit", "resume"):
            if cmd.send not in seat.sends:
                seat.sends.append(cmd.send)
            msg = cmd.message
            last = msg.last if isinstance(msg, p.Resume) and msg.hand == self.number else None
            self.resend(index, cmd.send, last)
        elif cmd.kind == "ready":
            self.ready(seat, cmd.message)
        elif cmd.kind == "act":
            self.act(index, cmd.message)
        elif cmd.kind == "auto":
            seat.auto = bool(cmd.message.on)
            self.broadcast_auto(index, seat.auto)
            if not seat.auto and self.game is not None:
                self.prompt(force=index)
        elif cmd.kind == "views":
            seat.views, seat.hints = cmd.message.on, cmd.message.on and cmd.message.hints
            if seat.views and self.game is not None:
                cmd.send(self.view_message(index))
        elif cmd.kind == "leave":
            await self.leave(index)

    def unwatch(self, send: Send) -> None:
        for watchers in (self.spectators, self.spectator_views):
            if send in watchers:
                watchers.remove(send)

    async def sit(self, cmd: Command) -> None:
        free = [i for i, s in enumerate(self.seats) if s is None]
        if not free:
            raise RefusedError("table_full", f"table {self.id} has no free seat")
        await self.host.sit(self.id, free[0], cmd.user_id)
        user = await self.store.user(cmd.user_id)
        assert user is not None
        self.seats[free[0]] = self.make_seat(user)
        self.broadcast(lambda i: p.server_message("seated", **self.seating(i)))

    def resend(self, index: int | None, send: Send, last: int | None) -> None:
        """What a (re)joining connection needs: its seating, then what it missed (or its whole view)."""
        send(p.server_message("seated", **self.seating(index)))
        if self.game is None:
            if self.fair is not None:
                send(self.hand_start())
            return
        if self.fair is not None:
            send(self.dealt())
        missed = self.game.events_for(index, last + 1) if last is not None else None
        view = self.game.view(index).to_dict()
        if missed is not None and _dumps(missed) <= _dumps(view):
            if missed:
                send(p.server_message("events", table=self.id, hand=self.number, events=missed))
        else:
            send(p.server_message("resync", table=self.id, hand=self.number, view=view,
                                  last=len(self.game.events) - 1))
        seat = self.seats[index] if index is not None else None
        if seat.views if seat is not None else send in self.spectator_views:
            send(self.view_message(index))
        if index is not None:
            self.prompt(force=index)

    def ready(self, seat: Seat, msg: p.Ready) -> None:
        if self.game is not None or self.fair is None:
            raise RefusedError("not_now", "a hand is being played: ready is for the start of the next hand")
        if msg.client_seed is not None:
            try:
                seat.client_seed = validate_client_seed(msg.client_seed)
            except ChuanmaError as exc:
                raise RefusedError("bad_seed", f"client_seed: {exc}") from None
        seat.ready = True

    def act(self, index: int, msg: p.Act) -> None:
        game = self.game
        seat = self.seats[index]
        assert seat is not None
        if msg.table != self.id:
            raise RefusedError("wrong_table", f"you sit at table {self.id}, not {msg.table}")
        if game is None or game.finished:
            raise RefusedError("no_hand", "no hand is being played at this table now")
        if seat.prompt_version is None:
            raise RefusedError("not_your_turn", f"seat {index} has no decision to make now")
        if msg.version != seat.prompt_version:
            raise RefusedError("stale_version", f"stale command: made against version {msg.version}, "
                                                f"your decision now is for version {seat.prompt_version}")
        try:
            action = action_from_json(msg.action, self.rules.tiles)
        except ChuanmaError as exc:
            raise RefusedError("bad_action", f"action: {exc}") from None
        if isinstance(action, Leave):
            raise RefusedError("bad_action", "action: to leave, send a leave message")
        try:
            self.record_decision(index, action, "player", expected=game.version)
        except IllegalActionError as exc:
            raise RefusedError(exc.code, str(exc)) from None
        if seat.auto:
            seat.auto = False
            self.broadcast_auto(index, False)

    async def leave(self, index: int) -> None:
        seat = self.seats[index]
        assert seat is not None
        game = self.game
        if game is None or game.finished:
            await self.replace_with_bot(index, "you left the table")
            return
        if seat.leaving:
            raise RefusedError("already_left", "you have already left this hand")
        seat.leaving = True
        self.record_decision(index, Leave(), "player")
        seat.send(p.server_message("table_closed", table=self.id, reason="you left the table (逃跑)"))

    # ------------------------------------------------------------------ recovery

    async def restore(self, hand: Row | None) -> None:
        """Rebuild this table after a restart from its last stored hand and its decisions."""
        if hand is None:
            return
        number = int(hand["number"])
        session = SessionHand.from_json(hand["session"])
        if hand["status"] == "settled":
            finished = replay(hand["record"])
            self.number, self.session = number, session
            self.previous = (hand["record"], finished.next_dealer())
            return
        self.begin_collecting(number, hand["id"], self.resumed_fair(hand), session)
        if hand["status"] == "collecting":
            return
        self.sat_down = (list(hand["seats"]), list(hand["balances"]))
        for i, seed in enumerate(hand["client_seeds"]):
            seat = self.seats[i]
            assert seat is not None
            seat.client_seed = seed
        _fair, _session, game = self.seeded()
        for row in await self.store.decisions_of(hand["id"]):
            game.apply(int(row["seat"]), action_from_json(row["action"], self.rules.tiles))
        self.start_game(game)
        self.sent = len(game.events)
        log.info("table resumed", extra={"table": self.id, "hand": hand["id"], "decisions": len(game.decisions)})

    def resumed_fair(self, hand: Row) -> FairHand:
        """The fair hand of a stored, unfinished hand: dealt by the key it was opened with (refused if
        the server now holds another, which would deal another wall), or by its stored server seed."""
        number = int(hand["number"])
        if not hand.get("public_key"):
            return FairHand(number, server_seed=bytes.fromhex(hand["server_seed"]), tile_set=self.rules.tiles)
        key = self.dealer_key()
        if key.public_key.hex() != hand["public_key"]:
            raise DealerKeyError(
                f"hand {hand['id']} was opened with the dealer key {hand['public_key']}, but this server holds "
                f"{key.public_key.hex()}: start it with the key the hand was opened with")
        return FairHand.with_vrf(key, self.id, number, tile_set=self.rules.tiles)
