"""Every seat's compact observation of a hand, kept up to date from the hand's events, so that an
observation is not rebuilt from a fresh view at every step.

The tracker reads each event once, as its own seat sees it
(:func:`~chuanma.engine.views.shown_parts`, the redaction's rule; an event without a seat as
everyone does), and writes what it tells through the compact encoder's one writer
(:class:`~chuanma.encoding.compact.Rows`, kept for the four seats), the same writer that encodes a
view: what only that seat may know (its hand, draw, exchange choice, void, concealed kongs) into
that seat's row and private part alone; what every seat sees (melds, rivers, win piles, shown
hands, wins, voids once revealed, scores, the dealer, the exchange direction) into every row, and
only from what every seat sees of the event: a concealed kong's tile, for one, only when the
spectator's copy of the event names it. Reading an observation copies the seat's row and writes
in the moment the tracker keeps (:meth:`~chuanma.encoding.compact.Rows.observe`: the drawn tile,
the tile on offer, the phase, the seat on turn, tiles held, the wall).

``test_tracked_observations_equal_the_views`` checks, at every step of many random hands, that
an observation is the encoding of the seat's view; ``test_tracker_writes_no_seat_anothers_secrets``
replays hands with the other seats' private parts of the events made up, and checks that a seat's
row does not move; the leak test of the environments scrambles the other seats' rows and private
parts and checks that a seat's observation does not move.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from chuanma.encoding.common import RECENT, SCORE_SCALE, kinds_of
from chuanma.encoding.compact import (
    HIDDEN,
    LEFT,
    LOCKED,
    MELDS,
    OUT,
    PILE,
    RIVER,
    ROWS,
    SCALARS,
    SCORE,
    SHOWN,
    VOID_CHOSEN,
    WINS,
    Rows,
    Window,
    floats,
    layout,
)
from chuanma.encoding.planes import discarded, write_planes
from chuanma.engine import TILE_TEXT, Event, shown_parts
from chuanma.engine.event_types import (
    Chow,
    Deal,
    DealDone,
    Discard,
    Draw,
    End,
    Exchange,
    ExchangeChosen,
    ExchangeReceived,
    Hu,
    Kong,
    KongDeclared,
    KongRobbed,
    Leave,
    Payment,
    Pong,
    Start,
    VoidChosen,
    Voids,
    parse_event,
)
from chuanma.errors import ChuanmaError
from chuanma.melds import Meld
from chuanma.rules import RuleSet
from chuanma.tiles import parse_tiles, to_counts

Shown = Mapping[str, Any]
"""What every seat sees of an event (:func:`~chuanma.engine.views.shown_parts`): its public data."""

TILE = {text: t for t, text in enumerate(TILE_TEXT)}
"""A tile's text in an event, as its number."""
UNREAD = frozenset({"claim", "exhausted"})
"""The events that change nothing an observation shows (a seat's own claim answer, the wall's end)."""


class HandLog(Protocol):
    """What a tracker reads of a hand (a :class:`~chuanma.engine.game.Game` is one): its rules and
    its event log."""

    @property
    def rules(self) -> RuleSet: ...

    @property
    def events(self) -> Sequence[Event]: ...


class UnknownEventError(ChuanmaError, ValueError):
    """An event a tracker does not know how to read."""


class Private:
    """What one seat alone knows besides its row: its draw and its exchange choice."""

    __slots__ = ("drawn", "exchange")

    def __init__(self) -> None:
        self.drawn: int | None = None
        self.exchange: list[int] | None = None


class Tracker:
    """Every seat's knowledge of ``game`` (a hand nobody leaves: the environments' hands);
    :meth:`update` reads the events logged since the last call. Fields are by absolute seat."""

    __slots__ = ("current", "dealer", "game", "kinds", "own", "phase", "read", "recent", "rows", "tiles",
                 "totals", "wall", "window", "xueliu")

    def __init__(self, game: HandLog) -> None:
        self.game = game
        self.read = 0
        variant = game.rules.game_variant
        self.kinds = k = kinds_of(game.rules)
        self.xueliu = variant.winners_stay
        self.rows = Rows(layout(k, self.xueliu, (0, 1, 2, 3)))
        """Each seat's observation, but for what depends on the moment (:func:`encode_compact`)."""
        self.phase = "exchange" if game.rules.has_exchange else "void" if variant.void else "turn"
        """``exchange``, ``void``, ``turn``, ``window`` (a claim or robbing window) or ``end``."""
        self.window: Window | None = None
        """The open window's tile, from seat and whether it robs a kong."""
        self.dealer = self.current = 0
        self.wall = 0
        self.own = [Private() for _ in range(4)]
        """Each seat's private part: only its own observation reads it."""
        self.tiles = [0, 0, 0, 0]
        self.totals = [0, 0, 0, 0]
        self.recent = [[k] * RECENT for _ in range(4)]
        """Each seat's last :data:`~chuanma.encoding.common.RECENT` discards, most recent first
        (:func:`~chuanma.encoding.planes.discarded`)."""
        self.update()

    def update(self) -> None:
        """Read the events logged since the last update."""
        events = self.game.events
        read = self.read
        if read == len(events):
            return
        for ev in events[read:]:
            apply = _APPLY.get(ev.type)
            if apply is None:
                if ev.type in UNREAD:
                    continue
                raise UnknownEventError(f"an observation cannot follow a {ev.type!r} event")
            public = shown_parts(ev, None)  # what every seat sees of it (None: nothing)
            # the whole event is what its own seat sees of it
            apply(self, ev.seat, parse_event(ev), None if public is None else public[0])
        self.read = len(events)

    def observe(self, me: int, asked: bool, out: memoryview[float], row: int) -> None:
        """Write seat ``me``'s observation (``asked``: it owes a decision) at ``row`` of ``out``."""
        phase, current, window = self.phase, self.current, None
        drawn = self.own[me].drawn if phase == "turn" and current == me else None
        if phase == "window":
            if asked:
                window = self.window
                assert window is not None
                phase = "rob" if window[2] else "claim"
            else:
                phase = "waiting"
        self.rows.observe(me, out, row, phase, None if phase in ("exchange", "void", "end") else current,
                          drawn, window, self.wall, self.tiles)

    # ------------------------------------------------------------------ the events

    def _start(self, seat: int | None, ev: Start, everyone: Shown | None) -> None:
        self.dealer = self.current = ev.dealer
        self.rows.dealer(ev.dealer)

    def _deal(self, seat: int, ev: Deal, everyone: Shown | None) -> None:
        for t in parse_tiles(ev.hand or ""):
            self.rows.hand(seat, t, 1)

    def _deal_done(self, seat: int | None, ev: DealDone, everyone: Shown | None) -> None:
        self.wall = ev.wall
        hand = self.game.rules.game_variant.wall.hand
        self.tiles = [hand + (s == self.dealer) for s in range(4)]

    def _exchange_chosen(self, seat: int, ev: ExchangeChosen, everyone: Shown | None) -> None:
        self.own[seat].exchange = tiles = parse_tiles(ev.tiles or "")
        self.rows.exchange_choice(seat, tiles)

    def _exchange(self, seat: int | None, ev: Exchange, everyone: Shown | None) -> None:
        self.phase = "void"
        self.rows.exchanged(ev.direction)
        for v, own in enumerate(self.own):
            for t in own.exchange or ():
                self.rows.hand(v, t, -1)

    def _exchange_received(self, seat: int, ev: ExchangeReceived, everyone: Shown | None) -> None:
        for t in parse_tiles(ev.tiles or ""):
            self.rows.hand(seat, t, 1)

    def _void_chosen(self, seat: int, ev: VoidChosen, everyone: Shown | None) -> None:
        assert ev.suit is not None  # the seat's own event names it
        self.rows.void(seat, seat, ev.suit)
        if everyone is not None:  # an automatic choice is the seat's own business until the voids are revealed
            self.rows.scalar(seat, VOID_CHOSEN, 1)

    def _voids(self, seat: int | None, ev: Voids, everyone: Shown | None) -> None:
        for s, void in enumerate(ev.voids):
            assert void is not None
            for v in range(4):
                self.rows.void(v, s, void)
        self.phase = "turn"
        self.current = self.dealer

    def _draw(self, seat: int, ev: Draw, everyone: Shown | None) -> None:
        assert ev.tile is not None  # the seat's own event names it
        t = TILE[ev.tile]
        self.rows.hand(seat, t, 1)
        self.own[seat].drawn = t
        self.tiles[seat] += 1
        self.wall = ev.wall
        self.phase = "turn"
        self.current = seat

    def _leaves(self, seat: int, t: int) -> None:
        """A tile leaves the seat's concealed tiles (its turn's draw, if any, is no longer apart)."""
        self.rows.hand(seat, t, -1)
        self.own[seat].drawn = None
        self.tiles[seat] -= 1

    def _discard(self, seat: int, ev: Discard, everyone: Shown | None) -> None:
        t = TILE[ev.tile]
        self._leaves(seat, t)
        self.rows.add(seat, RIVER, t)
        discarded(self.recent[seat], t)
        self.wall = ev.wall
        self.phase = "window"  # until a draw or a claim says that it closed
        self.window = (t, seat, False)
        self.current = seat

    def _take(self, seat: int, frm: int, used: list[int], meld: Sequence[int]) -> None:
        """A claim of ``frm``'s discard: ``used`` leave the seat's hand, ``meld`` is laid down."""
        assert self.window is not None
        rows = self.rows
        rows.add(frm, RIVER, self.window[0], -1)
        self.window = None
        for t in used:
            rows.hand(seat, t, -1)
        for t in meld:
            rows.add(seat, MELDS, t)
        self.tiles[seat] -= len(used)
        self.phase = "turn"
        self.current = seat

    def _pong(self, seat: int, ev: Pong, everyone: Shown | None) -> None:
        t = TILE[ev.tile]
        self._take(seat, ev.from_seat, [t, t], (t, t, t))

    def _chow(self, seat: int, ev: Chow, everyone: Shown | None) -> None:
        claimed, run = TILE[ev.claimed], Meld("chow", TILE[ev.tile]).tiles
        self._take(seat, ev.from_seat, [t for t in run if t != claimed], run)

    def _kong(self, seat: int, ev: Kong, everyone: Shown | None) -> None:
        kind = ev.kind
        self.own[seat].drawn = None
        assert ev.tile is not None  # the seat's own event names it
        t = TILE[ev.tile]
        if kind == "exposed":
            assert ev.from_seat is not None
            self._take(seat, ev.from_seat, [t, t, t], (t, t, t, t))
            return
        self.phase = "turn"
        self.current = seat
        self.window = None
        rows = self.rows
        if kind == "added":
            self._leaves(seat, t)
            rows.add(seat, MELDS, t)
            return
        rows.hand(seat, t, -rows.in_hand(seat, t))  # a concealed kong's tile: in the public part, or in its owner's
        self.tiles[seat] -= 4
        if everyone is not None and "tile" in everyone:  # the kong as everyone sees it names its tile
            rows.add(seat, MELDS, t, 4)
        else:
            rows.add_own(seat, MELDS, t, 4)
            rows.count(seat, HIDDEN, 1, others=True)

    def _kong_declared(self, seat: int, ev: KongDeclared, everyone: Shown | None) -> None:
        if self.game.rules.robbing_kong:
            self.phase = "window"
            self.window = (TILE[ev.tile], seat, True)
            self.current = seat

    def _kong_robbed(self, seat: int, ev: KongRobbed, everyone: Shown | None) -> None:
        self._leaves(seat, TILE[ev.tile])

    def _hu(self, seat: int, ev: Hu, everyone: Shown | None) -> None:
        t = TILE[ev.tile]
        rows = self.rows
        if ev.self_drawn:
            self._leaves(seat, t)
            rows.add(seat, PILE, t)
        elif self.window is not None:  # the first winner on a tile takes it into its win pile
            if not ev.robbed_kong:
                assert ev.from_seat is not None
                rows.add(ev.from_seat, RIVER, t, -1)
            rows.add(seat, PILE, t)
            self.window = None
        rows.count(seat, WINS, 1)
        rows.write(seat, SHOWN, to_counts(parse_tiles(ev.hand)), own=False)
        rows.recount()
        rows.scalar(seat, LOCKED if self.xueliu else OUT, 1)
        self.phase = "turn"

    def _leave(self, seat: int, ev: Leave, everyone: Shown | None) -> None:
        self.rows.scalar(seat, LEFT, 1)
        if self.rows.flag(seat, LOCKED):  # a 血流 winner stops playing
            self.rows.scalar(seat, OUT, 1)

    def _payment(self, seat: int | None, ev: Payment, everyone: Shown | None) -> None:
        totals = self.totals
        for s, amount in ((ev.payer, -ev.amount), (ev.payee, ev.amount)):
            totals[s] += amount
            self.rows.scalar(s, SCORE, totals[s] * SCORE_SCALE)

    def _end(self, seat: int | None, ev: End, everyone: Shown | None) -> None:
        """Everything is revealed: every hand and every meld."""
        self.phase = "end"
        self.window = None
        rows, k = self.rows, self.kinds
        for s, (hand, melds) in enumerate(zip(ev.hands, ev.melds, strict=True)):
            rows.write(s, SHOWN, to_counts(parse_tiles(hand)), own=False)
            counts = [0] * k
            for m in melds:
                assert m.tile is not None  # the end shows every meld
                for t in Meld(m.kind, TILE[m.tile], m.kong).tiles:
                    counts[t] += 1
            rows.write(s, MELDS, counts)
            rows.scalar(s, HIDDEN, 0)
        rows.recount()


_APPLY: dict[str, Callable[[Tracker, Any, Any, Shown | None], None]] = {
    # each reads its event's type
    "start": Tracker._start, "deal": Tracker._deal, "deal_done": Tracker._deal_done,
    "exchange_chosen": Tracker._exchange_chosen, "exchange": Tracker._exchange,
    "exchange_received": Tracker._exchange_received, "void_chosen": Tracker._void_chosen,
    "voids": Tracker._voids, "draw": Tracker._draw, "discard": Tracker._discard, "pong": Tracker._pong,
    "chow": Tracker._chow, "kong": Tracker._kong, "kong_declared": Tracker._kong_declared,
    "kong_robbed": Tracker._kong_robbed, "hu": Tracker._hu, "leave": Tracker._leave, "payment": Tracker._payment,
    "end": Tracker._end,
}


def encode_compact(seats: Sequence[tuple[Tracker, int, bool]],
                   out: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The compact observations of ``seats`` (tracker, seat, whether the seat owes a decision; all
    under the same rules), written into the rows of ``out`` (``float32``, of shape
    ``(len(seats), *shape(kinds))``): each seat's row, and what depends on the moment."""
    mv = floats(out)  # refuses an array the writes would not reach
    flat = out.reshape(len(seats), -1)
    for i, (tracker, me, asked) in enumerate(seats):
        size = tracker.rows.lay.size
        if flat.shape[1] != size:
            raise ValueError(f"observations of {size} numbers are written into rows of {size}, not {flat.shape[1]}")
        tracker.observe(me, asked, mv, i * size)
    return out


def encode_planes(seats: Sequence[tuple[Tracker, int, bool]],
                  out: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The planes observations of ``seats`` (as :func:`encode_compact`), written into the rows of
    ``out`` (``float32``, of shape ``(len(seats), *planes.shape(kinds))``) in one NumPy pass."""
    k = out.shape[2]
    flat = encode_compact(seats, np.empty((len(seats), ROWS * k + SCALARS), dtype=np.float32))
    return write_planes(flat, [(seat, tracker.recent) for tracker, seat, _ in seats], out)
