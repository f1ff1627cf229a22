"""The hand as a state machine: :class:`Game`, the Python face of the compiled ``_core.Hand``.

A :class:`Game` is built from the rules, the wall (in draw order), the dealer and the exchange
direction; everything after that comes from the players' decisions, given one at a time with
:meth:`Game.apply`. Draws, the claim window's resolution, forced and automatic moves happen
inside the machine. Nothing here reads a clock, draws a random number or does I/O.

Every rule of the hand lives in the compiled core (``chuanma._core.Hand``, src/native/). The
facade checks what has no action index (the seat, the command's version, leaving, an action
outside the action space), words the core's refusals (:mod:`.refusal_text`), keeps the events as
:class:`Event` objects and the decisions as :class:`Action` objects, and gives the whole state as a
read-only :class:`HandState` snapshot (:attr:`Game.state`) to the readers that take one.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from chuanma import _core
from chuanma.analysis import waits
from chuanma.engine.actions import Action, Chow, Exchange, IllegalActionError, Leave, StaleCommandError
from chuanma.engine.events import Event
from chuanma.engine.indices import (
    ACTION_COUNT,
    ACTIONS,
    DISCARD_AT,
    PASS_AT,
    ActionIndexError,
    from_index,
    to_index,
)
from chuanma.engine.ledger import Payment, Win
from chuanma.engine.record_fields import record_of
from chuanma.engine.referee import OpenSeat, open_seat
from chuanma.engine.refusal_text import refusal_message
from chuanma.engine.state import DIRECTIONS, Direction, HandState
from chuanma.engine.views import SeatView, event_for, seat_view
from chuanma.engine.wall import check_wall
from chuanma.rules import RuleSet
from chuanma.scoring import score_options
from chuanma.tiles import NUM_SUITED, tile_str

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

PHASES = ("exchange", "void", "turn", "claim", "rob", "draw", "end")
"""The core's phases by number."""
_DIRECTION_NAMES: dict[int, Direction] = {v: k for k, v in DIRECTIONS.items()}  # type: ignore[misc]

LEFT = Leave()
"""A leave as :attr:`Game.decisions` lists it."""
_RULES: dict[int, tuple[RuleSet, _core.Rules]] = {}
"""The core's rules of each rule set played lately, by the rule set's identity."""
_RULES_KEPT = 64
"""How many rule sets' core rules are kept (a process plays a few)."""
_INDEX_BY_ID = {id(action): i for i, action in enumerate(ACTIONS)}
"""The index of each of :data:`ACTIONS` by its identity: ``ACTIONS`` keeps them alive, so no other
object has one of these ids (an equal action built elsewhere is looked up by :func:`index_of`)."""


def core_rules(rules: RuleSet) -> _core.Rules:
    """The compiled core's rules of ``rules``, made once for a rule set."""
    kept = _RULES.get(id(rules))
    if kept is not None and kept[0] is rules:
        return kept[1]
    made = _core.Rules(rules, score_options(rules))
    if len(_RULES) >= _RULES_KEPT:
        _RULES.clear()
    _RULES[id(rules)] = (rules, made)
    return made


def index_of(action: object) -> int | None:
    """The index of ``action`` in the action space, ``None`` for anything it does not number (leaving,
    a malformed action, an object that is no action)."""
    try:
        index = to_index(action)  # type: ignore[arg-type]
    except (ActionIndexError, KeyError, TypeError, ValueError, IndexError):  # a malformed action
        return None
    if type(index) is not int or not 0 <= index < ACTION_COUNT:  # tiles of another type give other numbers
        return None
    listed = ACTIONS[index]
    return index if listed is action or listed == action else None


def described(action: object) -> str:
    """``action`` as a refusal names it: its notation, or its fields when they are no tiles."""
    try:
        return str(action)
    except (IndexError, KeyError, TypeError, ValueError):  # a malformed action: a tile out of range...
        return repr(action)


def no_such_seat(seat: object) -> IllegalActionError:
    """The refusal of a seat that is not one of 0-3."""
    return IllegalActionError(f"no seat {seat!r}: seats are the whole numbers 0-3", "no_such_seat")


def check_seat(seat: object) -> None:
    """Refuses (``no_such_seat``) anything but a seat 0-3."""
    if type(seat) is not int or not 0 <= seat < 4:
        raise no_such_seat(seat)


def check_version(seat: int, expected_version: object, now: int, asked: int | None) -> None:
    """Refuse ``seat``'s command made at ``expected_version`` unless it answers the seat's open
    question, posed at version ``asked`` (``None``: the seat owes nothing), the hand being at ``now``."""
    if type(expected_version) is not int:
        raise IllegalActionError(
            f"expected_version must be a whole number, got {expected_version!r}", "bad_command", seat)
    since = now if asked is None else asked
    if not since <= expected_version <= now:
        posed = "" if asked is None or asked == now else f", your question was posed at version {asked}"
        raise StaleCommandError(
            f"stale command: made against version {expected_version}, the hand is at "
            f"version {now}{posed}", "stale_version", seat)


def result_of(st: HandState) -> dict[str, Any]:
    """A hand's net results, payments and wins as JSON (:meth:`Game.result`)."""
    pub = st.public
    return {
        "deltas": st.deltas(),
        "payments": [p.to_json() for p in pub.ledger],
        "winners": [w.to_json() for w in pub.wins],
    }


class Game:
    """One hand. Read it through :meth:`view` and :meth:`events_for`; change it only with
    :meth:`apply` (and :meth:`leave`, :meth:`pass_pending`). Its state lives in the compiled
    :attr:`core`; :attr:`state` is a snapshot of it."""

    __slots__ = ("_core", "_events", "_rules", "_state")

    def __init__(
        self,
        rules: RuleSet,
        wall: Sequence[int],
        dealer: int = 0,
        direction: Direction = "to_next",
        *,
        seeds: dict[str, Any] | None = None,
    ) -> None:
        if isinstance(dealer, bool) or dealer not in range(4):
            raise IllegalActionError(f"dealer must be a seat 0-3, got {dealer!r}", "bad_setup")
        if direction not in DIRECTIONS:
            raise IllegalActionError(
                f"direction must be one of {', '.join(DIRECTIONS)}, got {direction!r}", "bad_setup")
        hand = _core.Hand(core_rules(rules), check_wall(wall, rules.game_variant.wall.size), dealer,
                          DIRECTIONS[direction])
        if seeds:
            hand.set_seeds(dict(seeds))
        self._start(rules, hand)

    def _start(self, rules: RuleSet, hand: _core.Hand) -> None:
        self._rules = rules
        self._core = hand
        self._events: list[Event] = []
        self._state: HandState | None = None
        self._log()

    @classmethod
    def from_state(cls, state: HandState) -> Game:
        """The game of a state (for instance one read back with :meth:`HandState.from_dict`)."""
        game = cls.__new__(cls)
        game._start(state.rules, _core.Hand.from_dict(state.to_dict()))
        return game

    def __getstate__(self) -> dict[str, Any]:
        return {"rules": self._rules, "hand": self._core}

    def __setstate__(self, data: dict[str, Any]) -> None:
        if "state" in data:  # pickled before the game ran on the compiled core: its HandState
            state: HandState = data["state"]
            self._start(state.rules, _core.Hand.from_dict(state.to_dict()))
        else:
            self._start(data["rules"], data["hand"])

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.__copy__()

    def __copy__(self) -> Game:
        """A whole copy: the two play on apart (a copy shares the immutable rule set)."""
        game = Game.__new__(Game)
        game._start(self._rules, self._core.__copy__())
        return game

    # ------------------------------------------------------------------ reading

    @property
    def core(self) -> _core.Hand:
        """The compiled hand itself: read it (the encoders take it); change the hand only through
        this game, which keeps its events, decisions and legal actions in step with it."""
        return self._core

    @property
    def state(self) -> HandState:
        """The whole state as a :class:`HandState`: a new snapshot read back from the core's JSON
        form at each call. Changing it changes nothing."""
        return HandState.from_dict(self._core.to_dict())

    def _read(self) -> HandState:
        """The snapshot this game's own readers share, kept until the game changes (never handed
        out: what the readers return is copied or immutable)."""
        if self._state is None:
            self._state = self.state
        return self._state

    @property
    def rules(self) -> RuleSet:
        return self._rules

    @property
    def phase(self) -> str:
        return PHASES[self._core.phase]

    @property
    def current(self) -> int:
        return self._core.current

    @property
    def dealer(self) -> int:
        return self._core.dealt()[1]

    @property
    def direction(self) -> Direction:
        return _DIRECTION_NAMES[self._core.dealt()[2]]

    @property
    def wall(self) -> list[int]:
        return self._core.dealt()[0]

    @property
    def seeds(self) -> dict[str, Any] | None:
        seeds = self._read().hidden.seeds
        return None if seeds is None else copy.deepcopy(seeds)

    @property
    def version(self) -> int:
        """Applied commands so far (every seat's)."""
        return self._core.version

    def asked(self, seat: int) -> int | None:
        """The version at which ``seat``'s open question was posed (``None``: it owes no decision).

        On one's turn that is :attr:`version`; in the exchange, the void and a claim window, which
        ask several seats at once, it is the version the question opened at: the other seats'
        answers move :attr:`version` but do not change this seat's question. A command made at any
        version from this one to :attr:`version` answers the question the seat has now."""
        if type(seat) is not int or not 0 <= seat < 4:
            return None
        posed = self._core.asked(seat)
        return None if posed < 0 else posed

    @property
    def finished(self) -> bool:
        return self._core.finished

    @property
    def remaining(self) -> int:
        """Tiles left in the wall."""
        return self._core.remaining

    @property
    def events(self) -> list[Event]:
        return self._events

    @property
    def decisions(self) -> list[tuple[int, Action]]:
        """Every decision the seats made, in order (a new list each call)."""
        return [(seat, LEFT if index < 0 else ACTIONS[index]) for seat, index in self._core.decisions()]

    @property
    def autos(self) -> list[tuple[int, Action]]:
        """The decisions the machine made for a seat (forced and automatic moves), in order (a new
        list each call)."""
        return [(seat, ACTIONS[index]) for seat, index in self._core.autos()]

    @property
    def wins(self) -> list[Win]:
        return list(self._read().public.wins)

    @property
    def ledger(self) -> list[Payment]:
        return list(self._read().public.ledger)

    @property
    def end_reason(self) -> str | None:
        return self._read().public.end_reason

    def to_act(self) -> tuple[int, ...]:
        """Seats that owe a decision now."""
        return self._core.to_act()

    def legal_actions(self, seat: int) -> list[Action]:
        """Every decision ``seat`` may make now (empty when it has none to make)."""
        check_seat(seat)
        return self._core.legal_of(seat, ACTIONS)

    def legal_mask(self, seat: int) -> npt.NDArray[np.int8]:
        """:meth:`legal_actions` as a new 0/1 array over the fixed action space (:mod:`.indices`)."""
        check_seat(seat)
        return self._core.legal_mask(seat)

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may know now (``None``: a spectator)."""
        if seat is None:
            return seat_view(self._core, None, self._rules)
        return seat_view(self._core, seat, self._rules, self.legal_actions(seat))

    def events_for(self, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
        """The events from ``since`` (a count of events, 0 or more) on, as ``seat`` (``None``: a
        spectator) may see them."""
        if seat is not None:
            check_seat(seat)
        if type(since) is not int or since < 0:
            raise IllegalActionError(f"since must be a whole number 0 or more, got {since!r}", "bad_command", seat)
        out = []
        for ev in self._events[since:]:
            shown = event_for(ev, seat)
            if shown is not None:
                out.append(shown)
        return out

    def deltas(self) -> list[int]:
        """Net result per seat so far, in units of base."""
        return self._core.deltas()

    def next_dealer(self) -> int:
        """Who deals the next hand under the rule set's ``dealer`` rule."""
        return self._core.next_dealer()

    def record(self) -> dict[str, Any]:
        """The ``chuanma-record/2`` record of this hand (docs/engine.md, Records)."""
        return record_of(self._read())

    def result(self) -> dict[str, Any]:
        return result_of(self._read())

    def tile_total(self) -> int:
        """Tiles in wall + hands + melds + discards + win piles (always the whole set)."""
        return self._read().tile_total()

    def open_seat(self, seat: int) -> OpenSeat:
        """Seat ``seat`` unredacted (the referee's read model; a player reads :meth:`view`)."""
        check_seat(seat)
        return open_seat(self._read(), seat)

    def waits(self, seat: int) -> list[int]:
        """The tiles seat ``seat``'s concealed hand waits on (none while it holds its void suit)."""
        check_seat(seat)
        st = self._read()
        return waits(st.seats[seat].hand, st.public.melds[seat], st.seats[seat].void)

    # ------------------------------------------------------------------ applying

    def apply(self, seat: int, action: Action, expected_version: int | None = None) -> list[Event]:
        """Apply ``seat``'s decision; returns the events it caused.

        Raises :class:`IllegalActionError` (state untouched) for anything not in
        :meth:`legal_actions`, and :class:`StaleCommandError` when ``expected_version`` is given
        and the command was made against another question than the seat's open one: before it was
        posed (:meth:`asked`; for a seat that owes nothing, :attr:`version`) or after :attr:`version`.
        """
        check_seat(seat)
        if expected_version is not None:
            check_version(seat, expected_version, self._core.version, self.asked(seat))
        index = _INDEX_BY_ID.get(id(action))
        if index is None:
            if isinstance(action, Leave):
                return self.leave(seat)
            index = index_of(action)
            if index is None:
                raise self._refusal(seat, action, None)
        return self._apply(seat, action, index)

    def apply_index(self, seat: int, index: int, expected_version: int | None = None) -> list[Event]:
        """:meth:`apply` of the action numbered ``index`` in the action space (:mod:`.indices`), as
        the environments decide. Raises :class:`~chuanma.engine.indices.ActionIndexError` for an
        index outside the space, and what :meth:`apply` raises for an action it refuses."""
        check_seat(seat)
        if expected_version is not None:
            check_version(seat, expected_version, self._core.version, self.asked(seat))
        if type(index) is not int or not 0 <= index < ACTION_COUNT:
            from_index(index)  # ActionIndexError outside the space (a NumPy integer is in it)
            index = int(index)
        return self._apply(seat, ACTIONS[index], index)

    def _apply(self, seat: int, action: object, index: int) -> list[Event]:
        """Carry out ``seat``'s action numbered ``index`` (``action``, as the seat gave it) if the core
        finds it legal; refuse it otherwise."""
        try:
            self._core.apply(seat, index)
        except _core.NotLegal:  # not a legal action of the seat now: the core changed nothing
            raise self._refusal(seat, action, index) from None
        return self._log()

    def _refusal(self, seat: int, action: object, index: int | None) -> IllegalActionError:
        """Why ``seat`` may not take ``action`` (of action index ``index``) now, in the words of the
        rule that refuses it. An action the space does not number is refused as the core refuses
        one the moment does not offer (a discard in a claim window, a pass otherwise), naming it."""
        if index is not None:
            code, rule, facts = self._core.refusal(seat, index)
            return IllegalActionError(refusal_message(rule, facts), code, seat)
        claim = self.phase in ("claim", "rob")
        code, rule, facts = self._core.refusal(seat, DISCARD_AT if claim else PASS_AT)
        if code == "illegal_action":
            facts = {**facts, "action": described(action), "legal": self._core.legal(seat)}
            if rule == "exchange_first" and isinstance(action, Exchange):
                rule = "bad_exchange"
            elif rule == "nothing_to_pass":
                rule = "choose_on_turn"
            elif claim and isinstance(action, Chow):
                rule = self._chow_rule(seat, facts)
        return IllegalActionError(refusal_message(rule, facts), code, seat)

    def _chow_rule(self, seat: int, facts: dict[str, object]) -> str:
        """The rule refusing a chow the space does not number (of an honour, or from rank 8 or 9): 吃
        exists only in a variant that has it, of suited tiles, from the 上家. ``facts`` gets what it names."""
        window = self._read().public.claim
        assert window is not None
        if not self._rules.game_variant.chow:
            return "no_chow"
        if window.tile >= NUM_SUITED:
            facts["tile"] = tile_str(window.tile)
            return "honour_chow"
        if seat != (window.from_seat + 1) % 4:
            facts["seat"] = (seat + 3) % 4
            return "chow_from_left"
        return "choose_on_claim"

    def leave(self, seat: int) -> list[Event]:
        """逃跑 (RULES §6): ``seat`` leaves the table.

        A seat that has already won (血战 or 血流) leaves without stopping the hand and stops
        playing; it is no longer refunded by 退税 nor paid by 查花猪. Any other leaver ends the
        hand at once: with ``escape_penalty`` it pays each other seat that has not won 16 base,
        or inside the last four tiles that seat's 查大叫 amount if higher. Payments made so far
        stand; no exhaustive-draw settlement runs.
        """
        check_seat(seat)
        if self._core.finished:
            raise IllegalActionError("the hand is over", "hand_over", seat)
        if self._core.left[seat]:
            raise IllegalActionError(f"seat {seat} has already left", "already_left", seat)
        self._core.leave(seat)
        return self._log()

    def pass_pending(self) -> list[Event]:
        """Every seat that still owes an answer in a claim window passes (or, if it must win,
        wins). This is how a record's omitted answers are read."""
        self._core.pass_pending()
        return self._log()

    def _log(self) -> list[Event]:
        """After a change: forget what was kept of the old state; log and return the new events."""
        self._state = None
        new = self._core.logged(len(self._events))
        self._events.extend(new)
        return new


__all__ = ["DIRECTIONS", "Direction", "Game", "check_version", "core_rules", "index_of", "no_such_seat", "result_of"]
