"""The table's rules of play as a pure reducer: ``reduce(state, input, now)`` → effects.

:func:`reduce` takes a table's :class:`~chuanma.server.table_state.TableState` and one typed
input (:mod:`chuanma.server.table_inputs`), updates the state in place and returns what must
happen outside as plain data (:mod:`chuanma.server.effects`): messages for connections, the
timer, rows to store, seat changes. It reads no clock (``now`` is given), opens no socket and
touches no database; the shell (:class:`chuanma.server.table.LiveTable`) carries the effects
out. A command refused leaves the state as it was and yields a :class:`~.effects.Refuse`.

What a seat is sent comes only from the engine's redaction (``Game.view`` and
``Game.events_for``). A decision is checked once, by the engine, against the version at which
the seat's question was posed (``Game.apply``'s ``expected_version``).
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable, Sequence
from typing import Any

from chuanma.bots import decide
from chuanma.engine import Action, Game, IllegalActionError, Leave, action_from_json, hand_outcome, replay, settle_chips
from chuanma.errors import ChuanmaError
from chuanma.fairness import FairHand
from chuanma.fairness.keys import signing_key_of
from chuanma.fairness.seeds import validate_client_seed
from chuanma.fairness.session import SessionHand
from chuanma.server import protocol as p
from chuanma.server import table_inputs as i
from chuanma.server.dealer import DealerKeyError
from chuanma.server.effects import (
    REQUESTS,
    ClaimSeat,
    CreateHand,
    DealHand,
    Effect,
    HandVoided,
    LoadBalances,
    Refuse,
    RefusedError,
    Release,
    SeatBot,
    Send,
    SetTimer,
    SettleHand,
    StoreDecisions,
)
from chuanma.server.hints import hints, suggestion
from chuanma.server.honesty import capped
from chuanma.server.store import Row
from chuanma.server.table_state import Seat, Settling, TableState


def reduce(state: TableState, message: i.TableInput, now: float) -> list[Effect]:
    """Apply ``message`` (at time ``now``) to ``state``; returns the effects, in the order to run them."""
    step = Step(state, now)
    step.take(message)
    return step.effects


RECENT_EVENTS = 30
"""How many of the hand's latest events a ``resync`` carries (for the ticker and the latest discard)."""


def _size(data: Any) -> int:
    return len(json.dumps(data, separators=(",", ":"), ensure_ascii=False))


class Step:
    """One input's transition: the state, the moment, and the effects gathered so far."""

    def __init__(self, state: TableState, now: float) -> None:
        self.st = state
        self.now = now
        self.effects: list[Effect] = []
        self.decided: list[dict[str, Any]] = []

    # ------------------------------------------------------------------ the input

    def take(self, message: i.TableInput) -> None:
        st = self.st
        if isinstance(message, i.Said):
            try:
                self.said(message)
            except RefusedError as exc:
                self.effects.append(Refuse(message.conn, exc.code, str(exc)))
        elif isinstance(message, i.Expire):
            st.armed = None
            self.expire()
        elif isinstance(message, i.Seated):
            st.seats[message.place] = Seat.of(message.user_id, message.name, message.bot,
                                              st.setup.player_bot(message.bot), message.bot_seed)
            self.broadcast(lambda s: p.server_message("seated", **self.seating(s)))
            self.attach(message.place, message.conn, None)
        elif isinstance(message, i.SitRefused):
            self.effects.append(Refuse(message.conn, message.code, message.message))
        elif isinstance(message, i.BotSeated):
            st.seats[message.place] = Seat.of(message.user_id, message.name, True, st.setup.seat_bot,
                                              message.bot_seed)
            self.broadcast(lambda s: p.server_message("seated", **self.seating(s)))
        elif isinstance(message, i.Balances):
            st.balances = message.balances
        elif isinstance(message, i.Dealt):
            self.dealt(message)
        elif isinstance(message, i.Settled):
            self.settled(message.balances)
        if not self.waiting():
            self.advance()
        if not self.waiting():
            self.note_attendance()
            self.arm()

    def waiting(self) -> bool:
        """Whether the last effect is a request, whose answer is the next input."""
        return bool(self.effects) and isinstance(self.effects[-1], REQUESTS)

    def said(self, said: i.Said) -> None:
        st, msg, conn = self.st, said.message, said.conn
        if isinstance(msg, p.Watch):
            self.unwatch(conn)  # watching again replaces the first watch
            st.watchers.append(conn)
            if msg.views:
                st.watcher_views.append(conn)
            self.resend(None, conn, -1)
            return
        if isinstance(msg, i.Idle):
            if st.idle_for(self.now) >= st.setup.idle_seconds:
                self.close(f"no player for {st.setup.idle_seconds:g} s")
            return
        if isinstance(msg, i.Detach):
            for seat in st.seats:
                if seat is not None and conn in seat.conns:
                    seat.conns.remove(conn)
            self.unwatch(conn)
            return
        if isinstance(msg, i.Rest):
            st.resting = True
            return
        if isinstance(msg, i.Void):
            self.void_asked(conn, msg)
            return
        if isinstance(msg, i.Expel):
            expelled = st.seat_of(said.user_id)
            if expelled is not None:
                self.expel(expelled)
            return
        if isinstance(msg, i.Sit) and st.seat_of(said.user_id) is None:
            free = [k for k, s in enumerate(st.seats) if s is None]
            if not free:
                raise RefusedError("table_full", f"table {st.setup.table_id} has no free seat")
            self.effects.append(ClaimSeat(free[0], said.user_id, conn))
            return
        index = st.seat_of(said.user_id)
        if index is None:
            raise RefusedError("not_seated", f"you have no seat at table {st.setup.table_id}")
        seat = st.seats[index]
        assert seat is not None
        if isinstance(msg, i.Sit):
            self.attach(index, conn, None)
        elif isinstance(msg, i.Rejoin):
            # between hands, also the last one's end: a rebuilt table's people may have missed it
            ended = st.ended["hand"] if st.ended is not None and (st.game is None or st.game.finished) else None
            self.attach(index, conn, None, ended)
        elif isinstance(msg, p.Resume):
            # a client that saw some of hand ``msg.hand`` (not one that lost everything) may have missed its end
            self.attach(index, conn, msg.last if msg.hand == st.number else None, msg.hand if msg.last >= 0 else None)
        elif isinstance(msg, p.Ready):
            self.ready(index, msg)
        elif isinstance(msg, p.Act):
            self.act(index, msg)
        elif isinstance(msg, p.Auto):
            if msg.on != seat.auto:
                held = (seat.prompt_version, seat.prompt_legal, seat.deadline)
                seat.auto = msg.on
                seat.clear_prompt()
                if msg.on:
                    seat.held = held
                elif seat.held is not None:  # the same question comes back with the time it had left
                    seat.prompt_version, seat.prompt_legal, seat.deadline = seat.held
                    seat.held = None
            self.broadcast_auto(index, seat.auto)
            if not seat.auto and st.game is not None:
                self.prompt(force=index)
        elif isinstance(msg, p.Views):
            seat.views, seat.hints = msg.on, msg.on and msg.hints
            if seat.views and st.game is not None:
                self.send([conn], self.view_message(index))
        else:
            self.leave(index)

    def unwatch(self, conn: int) -> None:
        for watchers in (self.st.watchers, self.st.watcher_views):
            if conn in watchers:
                watchers.remove(conn)

    def attach(self, index: int, conn: int, last: int | None, hand: int | None = None) -> None:
        """Attach ``conn`` to seat ``index`` and tell it what it needs (:meth:`resend`); resuming
        from ``hand``, it is also told how that hand ended if it has ended since."""
        seat = self.st.seats[index]
        assert seat is not None
        if conn not in seat.conns:
            seat.conns.append(conn)
        self.resend(index, conn, last, hand)

    # ------------------------------------------------------------------ messages

    def send(self, conns: list[int], message: dict[str, Any]) -> None:
        if conns:
            self.effects.append(Send(tuple(conns), message))

    def broadcast(self, message: Callable[[int | None], dict[str, Any] | None]) -> None:
        """Send each seat (and the spectators, as seat ``None``) its own form of a message."""
        for k, seat in enumerate(self.st.seats):
            if seat is not None and seat.conns:
                msg = message(k)
                if msg is not None:
                    self.send(seat.conns, msg)
        if self.st.watchers:
            msg = message(None)
            if msg is not None:
                self.send(self.st.watchers, msg)

    def broadcast_auto(self, index: int, on: bool) -> None:
        message = p.server_message("auto", table=self.st.setup.table_id, seat=index, on=on)
        self.broadcast(lambda _s: message)

    def seating(self, index: int | None) -> dict[str, Any]:
        setup = self.st.setup
        return {"table": setup.table_id, "seat": index, "room": setup.room.id if setup.room else "private",
                "rules": setup.rules.to_json(), "players": self.st.players()}

    def hand_start(self) -> dict[str, Any]:
        """The first ``hand_start``; ``ready_in``: the seconds left to get ready."""
        st = self.st
        left = st.setup.ready_seconds if st.ready_deadline is None else max(0.0, st.ready_deadline - self.now)
        return p.server_message("hand_start", table=st.setup.table_id, hand=st.number, **self.committed(),
                                ready_in=left)

    def committed(self) -> dict[str, Any]:
        """What binds the hand's deal before the client seeds: the dealer's public key (VRF), or the
        server seed's commitment for a hand dealt before the server had its key."""
        assert self.st.fair is not None
        seeds = self.st.fair.seeds_record()
        return {"scheme": seeds["scheme"], "commitment": seeds.get("commitment"),
                "public_key": seeds.get("public_key")}

    def dealt_message(self) -> dict[str, Any]:
        """The second ``hand_start``: what binds the deal (:meth:`committed`) and the client seeds."""
        assert self.st.fair is not None
        return p.server_message("hand_start", table=self.st.setup.table_id, hand=self.st.number,
                                **self.committed(), client_seeds=list(self.st.fair.client_seeds), dealt=True)

    def view_message(self, index: int | None) -> dict[str, Any]:
        """The whole view of seat ``index`` (``None``: a spectator), with hints if the seat asked for them."""
        game = self.st.game
        assert game is not None
        view = game.view(index)
        seat = self.st.seats[index] if index is not None else None
        return p.server_message("view", table=self.st.setup.table_id, hand=self.st.number,
                                last=len(game.events) - 1, view=view.to_dict(),
                                hints=hints(view) if seat is not None and seat.hints else None,
                                suggest=suggestion(view))

    def send_views(self) -> None:
        """Send the seats and spectators that asked for views their view of the hand as it is now."""
        for k, seat in enumerate(self.st.seats):
            if seat is not None and seat.views and seat.conns:
                self.send(seat.conns, self.view_message(k))
        if self.st.watcher_views:
            self.send(self.st.watcher_views, self.view_message(None))

    def events_message(self, seat: int | None, since: int) -> dict[str, Any] | None:
        game = self.st.game
        assert game is not None
        events = game.events_for(seat, since)
        return p.server_message("events", table=self.st.setup.table_id, hand=self.st.number,
                                events=events) if events else None

    def resend(self, index: int | None, conn: int, last: int | None, hand: int | None = None) -> None:
        """What a (re)joining connection needs: its seating, the end of the last hand settled if it
        was in ``hand`` or later (it may have missed it), then what it missed of the hand now (or
        its whole view)."""
        st = self.st
        self.send([conn], p.server_message("seated", **self.seating(index)))
        if hand is not None and st.ended is not None and st.ended["hand"] >= hand:
            self.send([conn], st.ended)
        game = st.game
        if game is None:
            if st.fair is not None:
                self.send([conn], self.hand_start())
            return
        if st.fair is not None:
            self.send([conn], self.dealt_message())
        missed = game.events_for(index, last + 1) if last is not None else None
        view = game.view(index).to_dict()
        if missed is not None and _size(missed) <= _size(view):
            if missed:
                self.send([conn], p.server_message("events", table=st.setup.table_id, hand=st.number, events=missed))
        else:
            self.send([conn], p.server_message("resync", table=st.setup.table_id, hand=st.number, view=view,
                                               last=len(game.events) - 1,
                                               recent=game.events_for(index)[-RECENT_EVENTS:]))
        seat = st.seats[index] if index is not None else None
        if seat.views if seat is not None else conn in st.watcher_views:
            self.send([conn], self.view_message(index))
        if index is not None:
            self.prompt(force=index)

    def prompt(self, force: int | None = None) -> None:
        """Prompt each person who owes a decision (again if their question changed; ``force``: anyway)."""
        st = self.st
        game = st.game
        assert game is not None
        owing = () if game.finished else game.to_act()
        for k, seat in enumerate(st.seats):
            if seat is None or seat.bot:
                continue
            if k not in owing:
                seat.clear_prompt()
                continue
            if seat.auto:  # its bot decides once the pause is over
                if seat.deadline is None:
                    seat.deadline = self.now + st.setup.auto_delay
                continue
            legal = [a.to_json() for a in game.legal_actions(k)]
            asked = game.asked(k)
            if (seat.prompt_version, seat.prompt_legal) != (asked, legal):
                claim = game.phase in ("claim", "rob")
                seat.prompt_version, seat.prompt_legal = asked, legal
                seat.deadline = self.now + (st.setup.claim_seconds if claim else st.setup.turn_seconds)
            elif force != k:
                continue
            assert seat.deadline is not None
            if seat.conns:
                seat.asked_at = self.now
            self.send(seat.conns, p.server_message(
                "prompt", table=st.setup.table_id, hand=st.number, seat=k, version=seat.prompt_version,
                legal=legal, seconds=max(0.0, seat.deadline - self.now)))

    # ------------------------------------------------------------------ time

    def deadline(self) -> float | None:
        st = self.st
        if st.closed:
            return None
        if st.game is None:
            return st.ready_deadline
        times = [s.deadline for s in st.seats if s is not None and s.deadline is not None]
        return min(times) if times else None

    def arm(self) -> None:
        """Set the timer for the next deadline if it moved (once fired, it is set again)."""
        deadline = self.deadline()
        if deadline != self.st.armed:
            self.st.armed = deadline
            self.effects.append(SetTimer(deadline))

    def expire(self) -> None:
        """A person whose decision is overdue goes on 托管, its bot deciding at once (a seat on 托管
        whose pause is over: see :meth:`play`; an overdue ready: :meth:`advance`)."""
        if self.st.game is None:
            return
        for k, seat in enumerate(self.st.seats):
            if seat is not None and not seat.auto and seat.deadline is not None and self.now >= seat.deadline:
                seat.auto, seat.held = True, None  # the question ran out: none is held
                seat.clear_prompt()
                seat.deadline = self.now
                self.broadcast_auto(k, True)

    def note_attendance(self) -> None:
        """Start (or stop) the idle time: whether a person is seated here with a connection."""
        st = self.st
        if any(s is not None and not s.bot and s.conns for s in st.seats):
            st.unattended_since = None
        elif st.unattended_since is None:
            st.unattended_since = self.now

    # ------------------------------------------------------------------ what happens without a person

    def advance(self) -> None:
        """Hands open and deal, bots move, hands settle; leavers and late players are replaced by bots.
        Stops at a request (its answer comes back as the next input and goes on from here)."""
        st = self.st
        while not st.closed and st.settling is None:
            if st.game is None:
                if st.resting:  # its host drains: it is handed over or stops between hands
                    return
                if any(s is None for s in st.seats):
                    return
                leaver = next((k for k, s in enumerate(st.seats) if s is not None and s.leaving), None)
                if leaver is not None:
                    seat = st.seats[leaver]
                    assert seat is not None
                    seat.conns.clear()  # told when they left
                    self.replace_with_bot(leaver, "you left the table")
                    return
                if st.fair is None and not self.open_hand():
                    return
                if st.ready_deadline is not None and self.now >= st.ready_deadline:
                    late = [k for k in st.humans() if not self.seat(k).ready]
                    if late:
                        self.replace_with_bot(late[0], "not ready in time")
                        return
                if not all(s is not None and s.ready for s in st.seats):
                    return
                if not st.humans():  # everyone was unseated while getting ready: bots never play alone
                    self.close("no players left")
                    return
                assert st.hand_id is not None
                self.effects.append(DealHand(st.hand_id, tuple(self.seat(k).user_id for k in range(4)),
                                             tuple(self.seat(k).client_seed for k in range(4))))
                return
            self.play()
            if not st.game.finished:
                return
            self.settle()

    def seat(self, index: int) -> Seat:
        seat = self.st.seats[index]
        assert seat is not None
        return seat

    def replace_with_bot(self, index: int, reason: str) -> None:
        """Unseat the person at ``index`` (telling them why) and ask for a bot instead."""
        seat = self.seat(index)
        self.send(seat.conns, p.server_message("table_closed", table=self.st.setup.table_id, reason=reason))
        self.effects.append(SeatBot(index, seat.user_id))

    def open_hand(self) -> bool:
        """Start the next hand, dealt by the dealer's VRF key (its public key is shown before anyone
        is ready) from this table's id, the hand's number and the client seeds. In a room, a person
        whose balance it no longer admits is replaced by a bot first."""
        st, setup = self.st, self.st.setup
        if not st.humans() or (setup.hands_limit is not None and st.number + 1 >= setup.hands_limit):
            self.close("no players left" if not st.humans() else "all hands played")
            return False
        room = setup.room
        if room is not None:
            if st.balances is None:
                self.effects.append(LoadBalances(tuple(s.user_id for s in st.seats if s is not None)))
                return False
            for k in st.humans():
                if not room.admits(st.balances[self.seat(k).user_id]):
                    self.replace_with_bot(k, f"balance outside {room.name}'s range {room.range_text()}")
                    return False
        st.balances = None
        number = st.number + 1
        if number == 0 or st.session is None:
            session = SessionHand.first(setup.table_id, setup.rules.dealer)
        else:
            record, next_dealer = st.previous if st.previous is not None else (None, 0)
            session = st.session.following(record, next_dealer)
        fair = FairHand.with_vrf(setup.dealer_key, setup.table_id, number, tile_set=setup.rules.tiles)
        hand_id = f"{setup.table_id}-{number}"
        self.effects.append(CreateHand({
            "id": hand_id, "table_id": setup.table_id, "number": number, "server_seed": "", "commitment": "",
            "public_key": setup.dealer_key.public_key.hex(), "session": session.to_json(),
            "seats": [s.user_id if s else None for s in st.seats], "status": "collecting"}))
        self.begin_collecting(number, hand_id, fair, session)
        return True

    def begin_collecting(self, number: int, hand_id: str, fair: FairHand, session: SessionHand) -> None:
        st = self.st
        st.number, st.hand_id, st.fair, st.session = number, hand_id, fair, session
        for seat in st.seats:
            if seat is not None:
                seat.ready, seat.client_seed = seat.bot, None
        st.ready_deadline = self.now + st.setup.ready_seconds
        self.broadcast(lambda _s: self.hand_start())

    def dealt(self, dealt: i.Dealt) -> None:
        st = self.st
        st.sat_down = ([self.seat(k).user_id for k in range(4)], list(dealt.balances))
        st.escape_caps = dealt.escape_caps
        self.start_game(seeded(st, list(dealt.client_seeds)))

    def start_game(self, game: Game) -> None:
        st = self.st
        st.game, st.sent, st.ready_deadline = game, 0, None
        message = self.dealt_message()
        self.broadcast(lambda _s: message)

    def play(self) -> None:
        """Bots decide, and each seat on 托管 whose pause is over decides once; everything is stored,
        then sent; people are prompted (a seat on 托管 waits ``auto_delay`` for its next decision)."""
        st = self.st
        game = st.game
        assert game is not None
        while not game.finished:
            movers = [k for k in game.to_act() if self.automatic(k)]
            if not movers:
                break
            for k in movers:
                if k not in game.to_act():
                    continue
                seat = self.seat(k)
                legal = game.legal_actions(k)
                self.record_decision(k, decide(seat.player, game, k, legal), "bot" if seat.bot else "auto")
        self.flush()

    def automatic(self, index: int) -> bool:
        """Whether the seat's bot decides now: a bot seat, or a seat on 托管 whose pause is over
        (with no pause, ``auto_delay`` 0, it plays on at once as a bot does)."""
        seat = self.st.seats[index]
        if seat is None or seat.bot:
            return seat is not None
        return seat.auto and (self.st.setup.auto_delay <= 0
                              or (seat.deadline is not None and self.now >= seat.deadline))

    def record_decision(self, index: int, action: Action, by: str, expected: int | None = None) -> None:
        st = self.st
        game = st.game
        assert game is not None and st.hand_id is not None
        idx = len(game.decisions)
        events = game.apply(index, action, expected_version=expected)
        seat = self.seat(index)
        asked = seat.asked_at if by == "player" else None
        seat.clear_prompt()
        self.decided.append({"hand_id": st.hand_id, "idx": idx, "seat": index, "action": action.to_json(),
                             "by": by, "events": [e.to_json() for e in events], "at": self.now, "asked": asked})

    def flush(self) -> None:
        """Store the new decisions, then send the new events and prompts."""
        st = self.st
        game = st.game
        assert game is not None
        if self.decided:
            self.effects.append(StoreDecisions(tuple(self.decided)))
            self.decided = []
        if len(game.events) > st.sent:
            since = st.sent
            self.broadcast(lambda s: self.events_message(s, since))
            st.sent = len(game.events)
            self.send_views()
        self.prompt()

    def settle(self) -> None:
        """Settle the finished hand: its record and every seat's chips, stored in one transaction."""
        st = self.st
        game, fair, session = st.game, st.fair, st.session
        assert game is not None and fair is not None and session is not None and st.hand_id is not None
        ids, sat_down = st.sat_down
        names = [s.name if s else "" for s in st.seats]
        record = None
        try:  # computing alone: what fails here fails the same way at every rebuild
            record = fair.finish(game, session=session, extra={"table": st.setup.table_id, "hand_id": st.hand_id,
                                                               "players": names},
                                 signing_key=signing_key_of(st.setup.dealer_key))
            deltas = hand_chips(st, game, sat_down, st.escape_caps)
        except Exception as exc:
            self.void(exc, record)
            return
        escaped = {ids[k] for k in escapers(game)}
        st.settling = Settling(record, deltas)
        self.effects.append(SettleHand(st.hand_id, record, {ids[k]: deltas[k] for k in range(4)},
                                       {u: ("escape" if u in escaped else "hand") for u in ids}, tuple(ids)))

    def settled(self, balances: dict[int, int]) -> None:
        st = self.st
        game, settling = st.game, st.settling
        assert game is not None and settling is not None
        ids = st.sat_down[0]
        st.previous = (settling.record, game.next_dealer())
        assert st.hand_id is not None
        hand_end = hand_end_message(st, st.number, st.hand_id, game, settling.record, settling.deltas,
                                    [balances[u] for u in ids])
        self.broadcast(lambda _s: hand_end)
        st.ended = hand_end
        st.game, st.fair, st.settling = None, None, None
        for seat in st.seats:
            if seat is not None:
                seat.clear_prompt()

    def void(self, exc: Exception, record: dict[str, Any] | None) -> None:
        """The finished hand cannot be settled: it is voided (no chips move; its record, if made,
        and the reason are kept), its players are told, and the table closes."""
        st = self.st
        error = type(exc).__name__
        self.effects.append(HandVoided(st.hand_id, error, "".join(traceback.format_exception(exc))))
        told = p.server_message("hand_void", table=st.setup.table_id, hand=st.number, hand_id=st.hand_id,
                                reason=f"this hand could not be settled ({error}): it is void and no chips moved")
        self.close("the hand was voided", f"settlement failed: {error}: {exc}", record, told)

    def void_asked(self, conn: int, msg: i.Void) -> None:
        """An operator voids the hand in play (docs/operations.md, Voiding a hand): it is stored void
        with the reason (its decisions kept; no chip has moved before a settlement), its players and
        ``conn`` (the operator's) are told (``hand_void``) and the table closes. Refused if that hand
        is not the one in play here (settled, or another)."""
        st = self.st
        if st.hand_id != msg.hand_id or st.fair is None:
            raise RefusedError("not_in_play", f"hand {msg.hand_id[:40]} is not in play at table {st.setup.table_id}")
        told = p.server_message("hand_void", table=st.setup.table_id, hand=st.number, hand_id=st.hand_id,
                                reason=f"an operator voided this hand ({msg.reason}): no chips moved")
        self.close("the hand was voided by an operator", f"voided by an operator: {msg.reason}", None, told)
        self.send([conn], told)

    def close(self, reason: str, detail: str | None = None, record: dict[str, Any] | None = None,
              notice: dict[str, Any] | None = None) -> None:
        """Close the table and free its seats; a hand not settled is voided (no chips move), with
        ``detail`` (else ``reason``) and its ``record`` if it has one. Stored, then the players
        are sent ``notice`` (if any) and ``table_closed``."""
        st = self.st
        self.effects.append(Release(tuple(s.user_id for s in st.seats if s is not None), detail or reason,
                                    reason, record))
        st.closed = True
        closed = p.server_message("table_closed", table=st.setup.table_id, reason=reason)
        if notice is not None:
            self.broadcast(lambda _s: notice)
        self.broadcast(lambda _s: closed)

    # ------------------------------------------------------------------ commands

    def ready(self, index: int, msg: p.Ready) -> None:
        seat = self.seat(index)
        if self.st.game is not None or self.st.fair is None:
            raise RefusedError("not_now", "a hand is being played: ready is for the start of the next hand")
        if msg.client_seed is not None:
            try:
                seat.client_seed = validate_client_seed(msg.client_seed)
            except ChuanmaError as exc:
                raise RefusedError("bad_seed", f"client_seed: {exc}") from None
        seat.ready = True
        if seat.auto:  # ready for the next hand: the player plays it
            seat.auto, seat.held = False, None
            self.broadcast_auto(index, False)

    def act(self, index: int, msg: p.Act) -> None:
        """A person's decision: checked by the engine alone, stale or not (``stale_version``)."""
        st = self.st
        game = st.game
        seat = self.seat(index)
        if msg.table != st.setup.table_id:
            raise RefusedError("wrong_table", f"you sit at table {st.setup.table_id}, not {msg.table}")
        if game is None or game.finished:
            raise RefusedError("no_hand", "no hand is being played at this table now")
        try:
            action = action_from_json(msg.action, st.setup.rules.tiles)
        except ChuanmaError as exc:
            raise RefusedError("bad_action", f"action: {exc}") from None
        if isinstance(action, Leave):
            raise RefusedError("bad_action", "action: to leave, send a leave message")
        try:
            self.record_decision(index, action, "player", expected=msg.version)
        except IllegalActionError as exc:
            raise RefusedError(exc.code, str(exc)) from None
        if seat.auto:
            seat.auto, seat.held = False, None
            self.broadcast_auto(index, False)

    def expel(self, index: int) -> None:
        """A player banned or kicked (their sockets closed by the host): between hands unseated at
        once; mid-hand their seat plays on 托管 to the hand's end, then is unseated as a player who
        left between hands (no escape: the others lose nothing)."""
        seat = self.seat(index)
        seat.conns.clear()
        game = self.st.game
        if game is None or game.finished:
            self.replace_with_bot(index, "removed from the table")
            return
        seat.leaving = True
        if not seat.auto:
            seat.auto, seat.held = True, None
            seat.clear_prompt()
            self.broadcast_auto(index, True)

    def leave(self, index: int) -> None:
        st = self.st
        seat = self.seat(index)
        game = st.game
        if game is None or game.finished:
            self.replace_with_bot(index, "you left the table")
            return
        if seat.leaving:
            raise RefusedError("already_left", "you have already left this hand")
        seat.leaving = True
        self.record_decision(index, Leave(), "player")
        self.send(seat.conns, p.server_message("table_closed", table=st.setup.table_id,
                                               reason="you left the table (逃跑)"))


def seeded(st: TableState, client_seeds: list[str]) -> Game:
    """Give the client seeds to the fair hand and make the game of its deal."""
    assert st.fair is not None and st.session is not None
    for k, seed in enumerate(client_seeds):
        st.fair.add_client_seed(k, seed)
    deal = st.session.deal(st.fair.deal())
    return Game(st.setup.rules, list(deal.wall), deal.dealer, deal.direction)


def escapers(game: Game) -> list[int]:
    """The seat that left the finished ``game`` and so ended it (逃跑), if one did."""
    return [k for k, seat in enumerate(hand_outcome(game.events).seats) if seat.escaped]


def hand_chips(st: TableState, game: Game, sat_down: list[int], caps: Sequence[int | None]) -> list[int]:
    """The chips the finished ``game`` moves per seat, its players having sat down with ``sat_down``;
    a seat that escaped loses at most its cap in ``caps`` (the rest is not paid)."""
    base = st.setup.rules.base
    return settle_chips([(pay.payer, pay.payee, pay.amount * base) for pay in game.ledger],
                        capped(sat_down, caps, escapers(game)))


def hand_end_message(st: TableState, number: int, hand_id: str, game: Game, record: dict[str, Any],
                     chips: list[int], balances: list[int]) -> dict[str, Any]:
    """The ``hand_end`` of the settled hand ``number`` of this table."""
    return p.server_message("hand_end", table=st.setup.table_id, hand=number, hand_id=hand_id, result=game.result(),
                            end_reason=game.end_reason, chips=chips, balances=balances, seeds=record["seeds"],
                            record=f"/api/hands/{hand_id}/record")


def restored(st: TableState, hand: Row | None, decisions: list[Row], now: float, settled: Row | None) -> None:
    """Rebuild ``st`` (its seats already filled) after a restart from its last stored hand, that
    hand's stored decisions and its last settled hand (``settled``: the last hand itself, the one
    before it, or ``None``), whose end a player resuming from it is told."""
    if settled is not None:
        finished, sat_down = replay(settled["record"]), list(settled["balances"])
        chips = hand_chips(st, finished, sat_down, caps_of(settled))
        st.previous = (settled["record"], finished.next_dealer())
        st.ended = hand_end_message(st, int(settled["number"]), settled["id"], finished, settled["record"], chips,
                                    [b + c for b, c in zip(sat_down, chips, strict=True)])
    if hand is None:
        return
    number = int(hand["number"])
    session = SessionHand.from_json(hand["session"])
    if hand["status"] == "settled":
        st.number, st.session = number, session
        return
    step = Step(st, now)
    step.begin_collecting(number, hand["id"], resumed_fair(st, hand), session)
    if hand["status"] == "collecting":
        return
    st.sat_down = (list(hand["seats"]), list(hand["balances"]))
    st.escape_caps = caps_of(hand)
    for k, seed in enumerate(hand["client_seeds"]):
        step.seat(k).client_seed = seed
    game = seeded(st, list(hand["client_seeds"]))
    for row in decisions:
        game.apply(int(row["seat"]), action_from_json(row["action"], st.setup.rules.tiles))
    step.start_game(game)
    st.sent = len(game.events)


def caps_of(hand: Row) -> tuple[int | None, ...]:
    """The escape caps a stored hand was dealt with (none: a hand dealt before caps)."""
    return tuple(hand.get("escape_caps") or (None, None, None, None))


def resumed_fair(st: TableState, hand: Row) -> FairHand:
    """The fair hand of a stored, unfinished hand: dealt by the key it was opened with (refused if
    the server now holds another, which would deal another wall), or by its stored server seed."""
    number = int(hand["number"])
    tile_set = st.setup.rules.tiles
    if not hand.get("public_key"):
        return FairHand(number, server_seed=bytes.fromhex(hand["server_seed"]), tile_set=tile_set)
    key = st.setup.dealer_key
    if key.public_key.hex() != hand["public_key"]:
        raise DealerKeyError(
            f"hand {hand['id']} was opened with the dealer key {hand['public_key']}, but this server holds "
            f"{key.public_key.hex()}: start it with the key the hand was opened with")
    return FairHand.with_vrf(key, st.setup.table_id, number, tile_set=tile_set)
