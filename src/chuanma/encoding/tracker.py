"""Every seat's compact observation of a hand, kept up to date from the hand's events, so that an
observation is not rebuilt from a fresh view at every step.

The tracker holds one ``float32`` row per seat in the compact encoder's layout
(:mod:`.compact`), written as the events come: each event is read once, as its own seat sees it
(:func:`~chuanma.engine.views.shown_parts`, the redaction's rule; an event without a seat as
everyone does). What only that seat may know (its hand, draw, exchange choice,
void, concealed kongs) is written into that seat's row and private part alone; what every seat
sees (melds, rivers, win piles, shown hands, wins, voids once revealed, scores, the dealer, the
exchange direction) into every row, each at its place relative to the row's seat, and only from
what every seat sees of the event: a concealed kong's tile, for one, only when the spectator's
copy of the event names it. A seat's unseen row follows each write into the rows it sees (its
hand, the melds, rivers, win piles and shown hands). Reading an observation copies the seat's row
and writes in what depends on the moment and on whether the seat is asked (the drawn tile, the
tile on offer, the phase, the seat on turn, tiles held, the wall).

``test_tracked_observations_equal_the_views`` checks, at every step of many random hands, that
an observation is the encoding of the seat's view; ``test_tracker_writes_no_seat_anothers_secrets``
replays hands with the other seats' private parts of the events made up, and checks that a seat's
row does not move; the leak test of the environments scrambles the other seats' rows and private
parts and checks that a seat's observation does not move.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from chuanma.encoding.common import HELD_SCALE, RECENT, SCORE_SCALE, WALL_SCALE, kinds_of
from chuanma.encoding.compact import (
    CLAIM,
    CURRENT_AT,
    DEALER_AT,
    DIRECTION_INDEX,
    DRAWN,
    EXCHANGE,
    EXCHANGE_CHOSEN,
    FROM_AT,
    HAND,
    HELD,
    HIDDEN,
    LEFT,
    LOCKED,
    OUT,
    PHASE_INDEX,
    ROB_AT,
    ROWS,
    SCORE,
    SEAT_ROWS,
    SEAT_SCALARS,
    UNSEEN,
    VOID_CHOSEN,
    VOID_INDEX,
    WALL_AT,
    WINS,
    XUELIU_AT,
    count_seen,
    count_unseen,
    shape,
)
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
from chuanma.tiles import COPIES, parse_tiles, to_counts

Shown = Mapping[str, Any]
"""What every seat sees of an event (:func:`~chuanma.engine.views.shown_parts`): its public data."""

TILE = {text: t for t, text in enumerate(TILE_TEXT)}
"""A tile's text in an event, as its number."""
MELDS, RIVER, PILE, SHOWN = range(4)
"""A seat's four rows of counts, in order."""
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


def floats(array: npt.NDArray[np.float32]) -> memoryview[float]:
    """A flat view of a C-contiguous ``float32`` array, whose items Python reads and writes
    faster than NumPy's."""
    view = array.data
    if view.format != "f" or not view.c_contiguous:
        raise ValueError("observations are written into a C-contiguous float32 array")
    return view.cast("B").cast("f")


class Layout:
    """Where things lie in the four rows of a tracker (flat offsets), for ``k`` tile kinds, and
    the rows a hand begins with (``xueliu``: winners keep playing)."""

    __slots__ = ("blank", "counts", "hands", "held", "rows", "scalars", "sees", "size", "unseen")

    def __init__(self, k: int, xueliu: bool) -> None:
        self.size = size = shape(k)[0]
        self.counts = ROWS * k
        self.hands = tuple(s * size + HAND * k for s in range(4))
        """Where each seat's own concealed tiles begin, in its row."""
        self.unseen = tuple(s * size + UNSEEN * k for s in range(4))
        """Where each seat's unseen counts begin, in its row."""
        self.rows = [[tuple(v * size + (SEAT_ROWS + 4 * ((s - v) % 4) + j) * k for v in range(4))
                      for j in range(4)] for s in range(4)]
        """``rows[s][j]``: where seat ``s``'s row ``j`` (:data:`MELDS`…) begins, in each seat's row."""
        self.sees = [[tuple((base, v * k, self.unseen[v]) for v, base in enumerate(row)) for row in rows]
                     for rows in self.rows]
        """``sees[s][j]``: for each seat, where seat ``s``'s row ``j`` begins in its row, where its own
        seen counts begin (:attr:`Tracker.seen`) and where its unseen row begins."""
        self.held = [tuple((ROWS * k + r * SEAT_SCALARS + HELD, (s + r) % 4) for r in range(4)) for s in range(4)]
        """``held[s]``: in seat ``s``'s observation, where each seat's tiles held lie, and that seat."""
        self.scalars = [tuple(v * size + ROWS * k + ((s - v) % 4) * SEAT_SCALARS for v in range(4))
                        for s in range(4)]
        """``scalars[s]``: where seat ``s``'s scalars begin, in each seat's row."""
        self.blank = np.zeros((4, size), dtype=np.float32)
        """The rows before the first event: every copy unseen, no void known, and whether winners
        keep playing."""
        self.blank[:, UNSEEN * k:UNSEEN * k + k] = COPIES
        blank = floats(self.blank)
        for v in range(4):
            blank[v * size + self.counts + XUELIU_AT] = float(xueliu)
            for base in self.scalars[v]:
                blank[base + VOID_INDEX[None]] = 1


layout = cache(Layout)


class Tracker:
    """Every seat's knowledge of ``game`` (a hand nobody leaves: the environments' hands);
    :meth:`update` reads the events logged since the last call. Fields are by absolute seat."""

    __slots__ = ("current", "dealer", "game", "kinds", "lay", "mv", "own", "phase", "read", "recent",
                 "rows", "seen", "tiles", "totals", "wall", "window", "xueliu")

    def __init__(self, game: HandLog) -> None:
        self.game = game
        self.read = 0
        variant = game.rules.game_variant
        self.kinds = k = kinds_of(game.rules)
        self.xueliu = variant.winners_stay
        self.lay = layout(k, self.xueliu)
        self.rows = self.lay.blank.copy()
        """Each seat's observation, but for what depends on the moment (:func:`encode_compact`)."""
        self.mv = floats(self.rows)
        self.seen: list[float] = [0] * (4 * k)
        """``seen[s * kinds + t]``: the copies of tile ``t`` that seat ``s`` sees (in its hand, any
        meld, river, win pile or shown hand), which its unseen row is written from at once."""
        self.phase = "exchange" if game.rules.has_exchange else "void" if variant.void else "turn"
        """``exchange``, ``void``, ``turn``, ``window`` (a claim or robbing window) or ``end``."""
        self.window: tuple[int, int, bool] | None = None
        """The open window's tile, from seat and whether it robs a kong."""
        self.dealer = self.current = 0
        self.wall = 0
        self.own = [Private() for _ in range(4)]
        """Each seat's private part: only its own observation reads it."""
        self.tiles = [0, 0, 0, 0]
        self.totals = [0, 0, 0, 0]
        self.recent = [[k] * RECENT for _ in range(4)]
        """Each seat's last :data:`~chuanma.encoding.common.RECENT` discards, most recent first
        (claimed ones included; ``kinds`` stands for none)."""
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

    # ------------------------------------------------------------------ writing the rows

    def _add(self, seat: int, row: int, t: int, n: int) -> None:
        """``n`` more of tile ``t`` on ``seat``'s ``row`` (:data:`MELDS`…), in every seat's row."""
        mv, seen = self.mv, self.seen
        for base, i, unseen in self.lay.sees[seat][row]:
            mv[base + t] += n
            i += t
            c = seen[i] = seen[i] + n
            mv[unseen + t] = COPIES - c if c < COPIES else 0

    def _see(self, seat: int, t: int, n: int) -> None:
        """``seat`` sees ``n`` more copies of tile ``t``: its unseen count follows (never below
        zero)."""
        i = seat * self.kinds + t
        c = self.seen[i] = self.seen[i] + n
        self.mv[self.lay.unseen[seat] + t] = COPIES - c if c < COPIES else 0

    def _hand(self, seat: int, t: int, n: int) -> None:
        """``n`` more of tile ``t`` in ``seat``'s hand (seen by it: its unseen count follows)."""
        mv, i = self.mv, seat * self.kinds + t
        mv[self.lay.hands[seat] + t] += n
        c = self.seen[i] = self.seen[i] + n
        mv[self.lay.unseen[seat] + t] = COPIES - c if c < COPIES else 0

    def _recount(self) -> None:
        """Count what every seat sees afresh from its row (after a hand is laid down: a shown hand
        is written whole, not tile by tile)."""
        self.seen = count_seen(self.rows).reshape(-1).tolist()
        count_unseen(self.rows)

    def _scalar(self, seat: int, at: int, value: float) -> None:
        """``seat``'s scalar ``at`` (:data:`HELD`…) is ``value``, in every seat's row."""
        mv = self.mv
        for base in self.lay.scalars[seat]:
            mv[base + at] = value

    def _void(self, viewer: int, seat: int, void: str) -> None:
        """``viewer`` knows ``seat``'s void."""
        base = self.lay.scalars[seat][viewer]
        mv = self.mv
        mv[base + VOID_INDEX[None]] = 0
        mv[base + VOID_INDEX[void]] = 1
        mv[base + VOID_CHOSEN] = 1

    # ------------------------------------------------------------------ the events

    def _start(self, seat: int | None, ev: Start, everyone: Shown | None) -> None:
        self.dealer = self.current = dealer = ev.dealer
        size, base = self.lay.size, self.lay.counts + DEALER_AT
        for v in range(4):
            self.mv[v * size + base + (dealer - v) % 4] = 1

    def _deal(self, seat: int, ev: Deal, everyone: Shown | None) -> None:
        for t in parse_tiles(ev.hand or ""):
            self._hand(seat, t, 1)

    def _deal_done(self, seat: int | None, ev: DealDone, everyone: Shown | None) -> None:
        self.wall = ev.wall
        hand = self.game.rules.game_variant.wall.hand
        self.tiles = [hand + (s == self.dealer) for s in range(4)]

    def _exchange_chosen(self, seat: int, ev: ExchangeChosen, everyone: Shown | None) -> None:
        self._scalar(seat, EXCHANGE_CHOSEN, 1)
        self.own[seat].exchange = tiles = parse_tiles(ev.tiles or "")
        at = seat * self.lay.size + EXCHANGE * self.kinds
        for t in tiles:
            self.mv[at + t] += 1

    def _exchange(self, seat: int | None, ev: Exchange, everyone: Shown | None) -> None:
        base = self.lay.counts + DIRECTION_INDEX[ev.direction]
        self.phase = "void"
        k = self.kinds
        for v, own in enumerate(self.own):
            self.mv[v * self.lay.size + base] = 1
            at = v * self.lay.size + EXCHANGE * k
            self.rows.reshape(-1)[at:at + k] = 0  # the choice is shown until the exchange happens
            for t in own.exchange or ():
                self._hand(v, t, -1)

    def _exchange_received(self, seat: int, ev: ExchangeReceived, everyone: Shown | None) -> None:
        for t in parse_tiles(ev.tiles or ""):
            self._hand(seat, t, 1)

    def _void_chosen(self, seat: int, ev: VoidChosen, everyone: Shown | None) -> None:
        assert ev.suit is not None  # the seat's own event names it
        self._void(seat, seat, ev.suit)
        if everyone is not None:  # an automatic choice is the seat's own business until the voids are revealed
            self._scalar(seat, VOID_CHOSEN, 1)

    def _voids(self, seat: int | None, ev: Voids, everyone: Shown | None) -> None:
        for s, void in enumerate(ev.voids):
            assert void is not None
            for v in range(4):
                self._void(v, s, void)
        self.phase = "turn"
        self.current = self.dealer

    def _draw(self, seat: int, ev: Draw, everyone: Shown | None) -> None:
        assert ev.tile is not None  # the seat's own event names it
        t = TILE[ev.tile]
        self._hand(seat, t, 1)
        self.own[seat].drawn = t
        self.tiles[seat] += 1
        self.wall = ev.wall
        self.phase = "turn"
        self.current = seat

    def _leaves(self, seat: int, t: int) -> None:
        """A tile leaves the seat's concealed tiles (its turn's draw, if any, is no longer apart)."""
        self._hand(seat, t, -1)
        self.own[seat].drawn = None
        self.tiles[seat] -= 1

    def _discard(self, seat: int, ev: Discard, everyone: Shown | None) -> None:
        t = TILE[ev.tile]
        self._leaves(seat, t)
        self._add(seat, RIVER, t, 1)
        recent = self.recent[seat]
        recent.pop()
        recent.insert(0, t)
        self.wall = ev.wall
        self.phase = "window"  # until a draw or a claim says that it closed
        self.window = (t, seat, False)
        self.current = seat

    def _take(self, seat: int, frm: int, used: list[int], meld: Sequence[int]) -> None:
        """A claim of ``frm``'s discard: ``used`` leave the seat's hand, ``meld`` is laid down."""
        assert self.window is not None
        self._add(frm, RIVER, self.window[0], -1)
        self.window = None
        for t in used:
            self._hand(seat, t, -1)
        for t in meld:
            self._add(seat, MELDS, t, 1)
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
        if kind == "added":
            self._leaves(seat, t)
            self._add(seat, MELDS, t, 1)
            return
        size = self.lay.size  # a concealed kong's tile: in the public part, or in its owner's
        self._hand(seat, t, -int(self.mv[self.lay.hands[seat] + t]))
        self.tiles[seat] -= 4
        if everyone is not None and "tile" in everyone:  # the kong as everyone sees it names its tile
            self._add(seat, MELDS, t, 4)
        else:
            self.mv[seat * size + SEAT_ROWS * self.kinds + t] += 4  # one's own melds row
            self._see(seat, t, 4)
            for v, base in enumerate(self.lay.scalars[seat]):
                if v != seat:
                    self.mv[base + HIDDEN] += 1

    def _kong_declared(self, seat: int, ev: KongDeclared, everyone: Shown | None) -> None:
        if self.game.rules.robbing_kong:
            self.phase = "window"
            self.window = (TILE[ev.tile], seat, True)
            self.current = seat

    def _kong_robbed(self, seat: int, ev: KongRobbed, everyone: Shown | None) -> None:
        self._leaves(seat, TILE[ev.tile])

    def _hu(self, seat: int, ev: Hu, everyone: Shown | None) -> None:
        t = TILE[ev.tile]
        if ev.self_drawn:
            self._leaves(seat, t)
            self._add(seat, PILE, t, 1)
        elif self.window is not None:  # the first winner on a tile takes it into its win pile
            if not ev.robbed_kong:
                assert ev.from_seat is not None
                self._add(ev.from_seat, RIVER, t, -1)
            self._add(seat, PILE, t, 1)
            self.window = None
        for base in self.lay.scalars[seat]:
            self.mv[base + WINS] += 1
        self._show(seat, ev.hand)
        self._recount()
        self._scalar(seat, LOCKED if self.xueliu else OUT, 1)
        self.phase = "turn"

    def _leave(self, seat: int, ev: Leave, everyone: Shown | None) -> None:
        self._scalar(seat, LEFT, 1)
        if self.mv[self.lay.scalars[seat][seat] + LOCKED]:  # a 血流 winner stops playing
            self._scalar(seat, OUT, 1)

    def _payment(self, seat: int | None, ev: Payment, everyone: Shown | None) -> None:
        totals = self.totals
        for s, amount in ((ev.payer, -ev.amount), (ev.payee, ev.amount)):
            totals[s] += amount
            self._scalar(s, SCORE, totals[s] * SCORE_SCALE)

    def _end(self, seat: int | None, ev: End, everyone: Shown | None) -> None:
        """Everything is revealed: every hand and every meld."""
        self.phase = "end"
        self.window = None
        k, mv = self.kinds, self.mv
        for s, (hand, melds) in enumerate(zip(ev.hands, ev.melds, strict=True)):
            self._show(s, hand)
            row = [0] * k
            for m in melds:
                assert m.tile is not None  # the end shows every meld
                for t in Meld(m.kind, TILE[m.tile], m.kong).tiles:
                    row[t] += 1
            counts = memoryview(array("f", row))  # converted once, copied into each row
            for base in self.lay.rows[s][MELDS]:
                mv[base:base + k] = counts
            self._scalar(s, HIDDEN, 0)
        self._recount()

    def _show(self, seat: int, hand: str) -> None:
        """``seat`` lays ``hand`` (an event's tiles) down: every other seat sees it."""
        k, mv = self.kinds, self.mv
        counts = memoryview(array("f", to_counts(parse_tiles(hand))[:k]))
        for v, base in enumerate(self.lay.rows[seat][SHOWN]):
            if v != seat:  # one's own shown hand is one's hand
                mv[base:base + k] = counts


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
        lay = tracker.lay
        size = lay.size
        if flat.shape[1] != size:
            raise ValueError(f"observations of {size} numbers are written into rows of {size}, not {flat.shape[1]}")
        row = i * size
        mv[row:row + size] = tracker.mv[me * size:me * size + size]  # faster than NumPy's copy of a row
        k = tracker.kinds
        sc = row + lay.counts
        phase = tracker.phase
        current = tracker.current
        drawn = tracker.own[me].drawn
        if phase == "turn" and current == me and drawn is not None:
            mv[row + DRAWN * k + drawn] = 1
        if phase == "window":
            window = tracker.window
            if asked:
                assert window is not None
                t, frm, rob = window
                mv[row + CLAIM * k + t] = 1
                mv[sc + FROM_AT + (frm - me) % 4] = 1
                mv[sc + ROB_AT] = float(rob)
                phase = "rob" if rob else "claim"
            else:
                phase = "waiting"
        mv[sc + PHASE_INDEX[phase]] = 1
        if phase not in ("exchange", "void", "end"):
            mv[sc + CURRENT_AT + (current - me) % 4] = 1
        mv[sc + WALL_AT] = tracker.wall * WALL_SCALE
        tiles = tracker.tiles
        for at, s in lay.held[me]:
            mv[row + at] = tiles[s] * HELD_SCALE
    return out
