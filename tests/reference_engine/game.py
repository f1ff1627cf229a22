"""The reference hand as a state machine: :class:`Game` applies decisions to a :class:`HandState`
(the Python reducer the compiled core was written from, played beside it by the lockstep tests).

A :class:`Game` is built from the rules, the wall (in draw order), the dealer and the exchange
direction; everything after that comes from the players' decisions, given one at a time with
:meth:`Game.apply`. Draws, the claim window's resolution, forced and automatic moves happen
inside the machine. Nothing here reads a clock, draws a random number or does I/O.

``apply`` is a thin reducer: the rules live in the modules named after them (:mod:`.setup`,
:mod:`.turn`, :mod:`.claims`, :mod:`.kongs`, :mod:`.wins`, :mod:`.settlement`, :mod:`.legal`),
the differences between 血战 and 血流 in :mod:`.variant`, what a seat may see in :mod:`.views`.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from chuanma.engine.actions import (
    Action,
    ChooseVoid,
    Chow,
    Discard,
    Exchange,
    Hu,
    IllegalActionError,
    Kong,
    Leave,
)
from chuanma.engine.events import Event
from chuanma.engine.game import check_version, no_such_seat, result_of
from chuanma.engine.indices import mask
from chuanma.engine.ledger import Payment, Win
from chuanma.engine.record_fields import record_of
from chuanma.engine.referee import OpenSeat, open_seat
from chuanma.engine.state import DIRECTIONS, Direction, HandState, Hidden, Public, SeatState
from chuanma.engine.tables import HU, PASS, format_counts
from chuanma.engine.views import SeatView, event_for
from chuanma.engine.wall import check_wall, deal
from chuanma.rules import RuleSet
from reference_engine import claims, kongs, setup, turn
from reference_engine.claims import owing, pass_rule_of
from reference_engine.dealer import next_dealer
from reference_engine.kongs import next_active
from reference_engine.legal import legal_actions, offered, refusal
from reference_engine.log import emit
from reference_engine.settlement import end, escape_payments
from reference_engine.tables import rules_json
from reference_engine.views import redact, to_act
from reference_engine.wins import claim_wins, seat_waits, self_drawn_win

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


class Game:
    """One hand. Read it through :meth:`view` and :meth:`events_for`; change it only with
    :meth:`apply` (and :meth:`leave`). Its whole state is :attr:`state`."""

    __slots__ = ("_legal", "pass_rule", "state", "variant")

    def __init__(
        self,
        rules: RuleSet,
        wall: Sequence[int],
        dealer: int = 0,
        direction: Direction = "to_next",
        *,
        seeds: dict[str, Any] | None = None,
    ) -> None:
        variant = rules.game_variant
        if isinstance(dealer, bool) or dealer not in range(4):
            raise IllegalActionError(f"dealer must be a seat 0-3, got {dealer!r}", "bad_setup")
        if direction not in DIRECTIONS:
            raise IllegalActionError(
                f"direction must be one of {', '.join(DIRECTIONS)}, got {direction!r}", "bad_setup")
        layout = variant.wall
        st = HandState(
            rules=rules,
            hidden=Hidden(check_wall(wall, layout.size), direction, dict(seeds) if seeds else None),
            public=Public(dealer=dealer, current=dealer, live=layout.deal_end, tail=layout.last),
            seats=[SeatState() for _ in range(4)],
        )
        self.state = st
        self.variant = variant
        self.pass_rule = pass_rule_of(rules)
        self._legal: dict[int, list[Action]] = {}
        emit(st, "start", None, {"dealer": dealer, "rules": rules_json(rules), "base": rules.base,
                                "wall": layout.size})
        for seat, tiles in enumerate(deal(st.hidden.wall, dealer)):
            for t in tiles:
                st.seats[seat].hand[t] += 1
            emit(st, "deal", seat, {}, {"hand": format_counts(st.seats[seat].hand)}, "private")
        emit(st, "deal_done", None, {"wall": st.remaining})
        if rules.has_exchange:
            st.public.phase = "exchange"
        elif variant.void:
            setup.enter_void(st)
        else:
            setup.first_turn(st)
        self._run()

    @classmethod
    def from_state(cls, state: HandState) -> Game:
        """As the facade's (:class:`chuanma.engine.game.Game`)."""
        game = cls.__new__(cls)
        game.state = state
        game.variant = state.rules.game_variant
        game.pass_rule = pass_rule_of(state.rules)
        game._legal = {}
        return game

    def __getstate__(self) -> dict[str, Any]:
        return {"state": self.state}

    def __setstate__(self, data: dict[str, Any]) -> None:
        state = data["state"]
        self.state = state
        self.variant = state.rules.game_variant
        self.pass_rule = pass_rule_of(state.rules)
        self._legal = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return Game.from_state(copy.deepcopy(self.state, memo))

    def __copy__(self) -> Game:
        """A whole copy: a game and its state are one piece (a shallow copy sharing the state
        would keep a list of legal actions that the other copy's moves make stale)."""
        return Game.from_state(copy.deepcopy(self.state))

    # ------------------------------------------------------------------ reading

    @property
    def rules(self) -> RuleSet:
        return self.state.rules

    @property
    def phase(self) -> str:
        return self.state.public.phase

    @property
    def current(self) -> int:
        return self.state.public.current

    @property
    def dealer(self) -> int:
        return self.state.public.dealer

    @property
    def direction(self) -> Direction:
        return self.state.hidden.direction

    @property
    def wall(self) -> list[int]:
        return self.state.hidden.wall

    @property
    def seeds(self) -> dict[str, Any] | None:
        return self.state.hidden.seeds

    @property
    def version(self) -> int:
        """As the facade's (:class:`chuanma.engine.game.Game`)."""
        return self.state.public.version

    def asked(self, seat: int) -> int | None:
        """As the facade's (:class:`chuanma.engine.game.Game`)."""
        if seat not in self.to_act():
            return None
        pub = self.state.public
        return pub.posed if pub.phase in ("exchange", "void", "claim", "rob") else pub.version

    @property
    def finished(self) -> bool:
        return self.state.public.phase == "end"

    @property
    def remaining(self) -> int:
        """As the facade's (:class:`chuanma.engine.game.Game`)."""
        return self.state.remaining

    @property
    def events(self) -> list[Event]:
        return self.state.events

    @property
    def decisions(self) -> list[tuple[int, Action]]:
        return self.state.decisions

    @property
    def autos(self) -> list[tuple[int, Action]]:
        return self.state.autos

    @property
    def wins(self) -> list[Win]:
        return self.state.public.wins

    @property
    def ledger(self) -> list[Payment]:
        return self.state.public.ledger

    @property
    def end_reason(self) -> str | None:
        return self.state.public.end_reason

    def to_act(self) -> tuple[int, ...]:
        """As the facade's (:class:`chuanma.engine.game.Game`)."""
        return to_act(self.state)

    def legal_actions(self, seat: int) -> list[Action]:
        """As the facade's (:class:`chuanma.engine.game.Game`)."""
        if type(seat) is not int:
            raise no_such_seat(seat)
        return list(self._legal_now(seat))

    def _legal_now(self, seat: int) -> list[Action]:
        """The seat's legal actions, kept until the state changes (the kept list itself: read it,
        hand out copies)."""
        hit = self._legal.get(seat)
        if hit is None:
            hit = self._legal[seat] = legal_actions(self.state, self.pass_rule, seat)
        return hit

    def legal_mask(self, seat: int) -> npt.NDArray[np.int8]:
        """As the facade's (:class:`chuanma.engine.game.Game`)."""
        return mask(self.legal_actions(seat))

    def view(self, seat: int | None) -> SeatView:
        """As the facade's (:class:`chuanma.engine.game.Game`)."""
        if seat is None:
            return redact(self.state, None)
        if type(seat) is not int or not 0 <= seat < 4:
            raise no_such_seat(seat)
        return redact(self.state, seat, self._legal_now(seat))

    def events_for(self, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
        """As the facade's (:class:`chuanma.engine.game.Game`)."""
        out = []
        for ev in self.state.events[since:]:
            shown = event_for(ev, seat)
            if shown is not None:
                out.append(shown)
        return out

    def deltas(self) -> list[int]:
        """As the facade's (:class:`chuanma.engine.game.Game`)."""
        return self.state.deltas()

    def next_dealer(self) -> int:
        """As the facade's (:class:`chuanma.engine.game.Game`)."""
        return next_dealer(self.state)

    def record(self) -> dict[str, Any]:
        """As the facade's (:class:`chuanma.engine.game.Game`)."""
        return record_of(self.state)

    def result(self) -> dict[str, Any]:
        return result_of(self.state)

    def tile_total(self) -> int:
        """As the facade's (:class:`chuanma.engine.game.Game`)."""
        return self.state.tile_total()

    def open_seat(self, seat: int) -> OpenSeat:
        """As the facade's (:class:`chuanma.engine.game.Game`)."""
        return open_seat(self.state, seat)

    def waits(self, seat: int) -> list[int]:
        """As the facade's (:class:`chuanma.engine.game.Game`)."""
        return seat_waits(self.state, seat)

    # ------------------------------------------------------------------ applying

    def apply(self, seat: int, action: Action, expected_version: int | None = None) -> list[Event]:
        """As the facade's (:class:`chuanma.engine.game.Game`)."""
        st = self.state
        if type(seat) is not int or not 0 <= seat < 4:
            raise no_such_seat(seat)
        if expected_version is not None:
            check_version(seat, expected_version, st.public.version, self.asked(seat))
        if isinstance(action, Leave):
            return self.leave(seat)
        legal = self._legal_now(seat)
        if not offered(action, legal):
            code, reason = refusal(st, legal, seat, action)
            raise IllegalActionError(reason, code, seat)
        start = len(st.events)
        st.decisions.append((seat, action))
        st.public.version += 1
        self._do(seat, action, legal)
        self._run()
        return st.events[start:]

    def leave(self, seat: int) -> list[Event]:
        """As the facade's (:class:`chuanma.engine.game.Game`)."""
        st = self.state
        pub = st.public
        if type(seat) is not int or not 0 <= seat < 4:
            raise no_such_seat(seat)
        if pub.phase == "end":
            raise IllegalActionError("the hand is over", "hand_over", seat)
        if pub.left[seat]:
            raise IllegalActionError(f"seat {seat} has already left", "already_left", seat)
        start = len(st.events)
        st.decisions.append((seat, Leave()))
        pub.version += 1
        self._legal.clear()
        pub.left[seat] = True
        ev = emit(st, "leave", seat, {"wall": st.remaining})
        if pub.out[seat]:
            return st.events[start:]
        if self.variant.winners_stay and pub.locked[seat]:
            self._winner_leaves(seat)
            return st.events[start:]
        if st.rules.escape_penalty:
            escape_payments(st, seat, ev.seq)
        end(st, self.variant, "escape")
        return st.events[start:]

    def _winner_leaves(self, seat: int) -> None:
        """血流: a winner who leaves stops playing; the hand goes on without it."""
        st = self.state
        pub = st.public
        pub.out[seat] = True
        if self.variant.hand_over(pub.out):
            end(st, self.variant, self.variant.over_reason)
            return
        seat_state = st.seats[seat]
        window = pub.claim
        if pub.phase == "rob" and window is not None and window.from_seat == seat:
            # its added kong is withdrawn (no kong after leaving): the next seat still playing draws
            claims.close_window(st)
            kongs.begin_turn(st, seat)
            nxt = next_active(st, seat)
            assert nxt is not None
            turn.draw_due(st, nxt)
            self._run()
        elif pub.phase in ("claim", "rob") and seat_state.claim_options is not None:
            seat_state.claim = PASS  # whatever it answered, it plays no more: it claims nothing
            self._run()
        elif pub.phase == "turn" and pub.current == seat:
            # its turn passes to the next seat still playing, which draws
            kongs.begin_turn(st, seat)
            nxt = next_active(st, seat)
            assert nxt is not None
            turn.draw_due(st, nxt)
            self._run()

    def pass_pending(self) -> list[Event]:
        """As the facade's (:class:`chuanma.engine.game.Game`)."""
        st = self.state
        start = len(st.events)
        if st.public.phase in ("claim", "rob"):
            for s in to_act(st):
                act: Action = HU if st.seats[s].claim_options == [HU] else PASS
                st.autos.append((s, act))
                self._do(s, act, ())
            self._run()
        return st.events[start:]

    def _do(self, seat: int, action: Action, legal: Sequence[Action]) -> None:
        """Carry out ``seat``'s ``action``, one of its ``legal`` actions."""
        st = self.state
        pub = st.public
        self._legal.clear()
        if pub.phase in ("claim", "rob"):
            st.seats[seat].claim = action
            emit(st, "claim", seat, {}, {"claim": action.to_json()}, "private")
        elif type(action) is Discard or type(action) is Kong:
            # on one's own turn: under ``forever`` declining a self-drawn win (not 天胡) bars that tile
            # (a self-drawn win the seat may declare is the first of its legal actions)
            drawn = st.seats[seat].drawn
            if (self.pass_rule.bars_declined_self_win and drawn is not None and not pub.turn.first
                    and legal[0] is HU):
                self.pass_rule.declined_self_win(st.seats[seat], drawn)
            if type(action) is Discard:
                turn.discard(st, seat, action.tile, self.pass_rule)
            else:
                self._own_kong(seat, action.tile)
        elif isinstance(action, Exchange):
            setup.choose_exchange(st, seat, action.tiles)
        elif isinstance(action, ChooseVoid):
            setup.choose_void(st, seat, action.suit)
        elif isinstance(action, Hu):
            self_drawn_win(st, self.variant, seat)
            self._after_wins(seat)
        else:  # pragma: no cover - legal_actions never offers anything else
            raise IllegalActionError(f"{action} is not a decision of this moment", "illegal_action", seat)

    def _own_kong(self, seat: int, t: int) -> None:
        st = self.state
        if st.seats[seat].hand[t] == 4:
            kongs.concealed_kong(st, seat, t)
            return
        kongs.declare_added_kong(st, seat, t)
        if st.rules.robbing_kong:
            claims.open_window(st, self.pass_rule, seat, t, ("robbing_kong",), rob=True)
            st.public.current = seat
        else:
            kongs.complete_added_kong(st, seat, t)

    def _after_wins(self, last: int) -> None:
        """After wins: the hand ends (血战: three have won) or the next seat after ``last`` draws."""
        st = self.state
        claims.close_window(st)
        if self.variant.hand_over(st.public.out):
            end(st, self.variant, self.variant.over_reason)
            return
        nxt = next_active(st, last)
        assert nxt is not None
        turn.draw_due(st, nxt)

    def _resolve(self) -> None:
        st = self.state
        w = st.public.claim
        assert w is not None
        kind, seats = claims.resolve(st, self.pass_rule)
        t, frm = w.tile, w.from_seat
        if kind == "win":
            if w.rob:
                kongs.robbed(st, frm, t)
            else:
                st.public.discards[frm].pop()
            claim_wins(st, self.variant, seats, frm, t, w.situations, robbed=w.rob)
            if not w.rob:
                kongs.call_transfer(st, w.kong, seats)
            self._after_wins(max(seats, key=lambda s: (s - frm) % 4))
        elif w.rob:
            claims.close_window(st)
            kongs.complete_added_kong(st, frm, t)
        elif kind == "kong":
            claims.close_window(st)
            kongs.exposed_kong(st, seats[0], frm, t)
        elif kind == "pong":
            claims.pong(st, seats[0], frm, t)
        elif kind == "chow":
            claim = st.seats[seats[0]].claim
            assert isinstance(claim, Chow)
            claims.chow(st, seats[0], frm, t, claim.tile)
        else:
            claims.close_window(st)
            nxt = next_active(st, frm)
            assert nxt is not None
            turn.draw_due(st, nxt)

    def _run(self) -> None:
        """Carry out everything that happens without a decision."""
        st = self.state
        pub = st.public
        legal = self._legal
        while True:
            if legal:
                legal.clear()
            phase = pub.phase
            if phase in ("claim", "rob"):
                if owing(st):
                    return
                self._resolve()
            elif phase == "draw":
                if not turn.draw(st, self.pass_rule):
                    end(st, self.variant, "exhausted")
            elif phase == "turn" and pub.locked[pub.current]:
                acts = legal_actions(st, self.pass_rule, pub.current)
                if len(acts) != 1 or not isinstance(acts[0], Discard):
                    return
                st.autos.append((pub.current, acts[0]))
                turn.discard(st, pub.current, acts[0].tile, self.pass_rule, automatic=True)
            else:
                return


__all__ = ["DIRECTIONS", "Direction", "Game"]
