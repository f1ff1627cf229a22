"""What a bot knows: one seat's view, built only from the events that seat may see.

:class:`SeatView` is filled by :class:`Observer`, which reads ``Game.events_for(seat)`` — the
engine's own per-seat visibility filter — and nothing else of the game. It never holds the
game, the wall or another seat's concealed tiles (except a winner's hand, which the rules show
when the win is declared). Everything a bot decides on comes from this object and the list of
legal decisions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chuanma.engine.events import Event
from chuanma.melds import Meld
from chuanma.rules import RuleSet
from chuanma.tiles import NUM_SUITED, SUITS, Tile, parse_tiles, tile_str

TILE_INDEX: dict[str, Tile] = {tile_str(t): t for t in range(NUM_SUITED)}


def _tiles(text: str) -> list[Tile]:
    if len(text) == 2:
        return [TILE_INDEX[text]]
    return parse_tiles(text) if text else []


@dataclass(slots=True)
class SeatView:
    """One seat's knowledge of the hand so far. Tiles are ints 0–26; seats 0–3."""

    seat: int
    rules: RuleSet
    dealer: int = 0
    wall: int = 55
    """Tiles left in the wall."""
    hand: list[int] = field(default_factory=lambda: [0] * NUM_SUITED)
    """Own concealed tiles as counts."""
    drawn: Tile | None = None
    """Own tile drawn this turn (``None`` after a pong or when it is not the seat's turn)."""
    melds: list[list[Meld]] = field(default_factory=lambda: [[] for _ in range(4)])
    """Everyone's declared melds; another seat's concealed kong is counted in ``hidden_kongs``."""
    hidden_kongs: list[int] = field(default_factory=lambda: [0] * 4)
    discards: list[list[Tile]] = field(default_factory=lambda: [[] for _ in range(4)])
    """Each seat's river as it lies now (claimed tiles removed), in order."""
    discarded: list[set[Tile]] = field(default_factory=lambda: [set() for _ in range(4)])
    """Every tile each seat ever discarded, claimed or not (its 现物)."""
    passed: list[set[Tile]] = field(default_factory=lambda: [set() for _ in range(4)])
    """Tiles discarded by others since each seat's last own discard that it did not win on."""
    tiles: list[int] = field(default_factory=lambda: [13] * 4)
    """Concealed tile count per seat."""
    voids: list[str | None] = field(default_factory=lambda: [None] * 4)
    won: list[int] = field(default_factory=lambda: [0] * 4)
    """Wins per seat."""
    shown: list[list[int] | None] = field(default_factory=lambda: [None] * 4)
    """A winner's concealed tiles as counts, as shown at its latest win."""
    melds_at_win: list[int] = field(default_factory=lambda: [0] * 4)
    pongs_at: list[list[int]] = field(default_factory=lambda: [[] for _ in range(4)])
    """Wall count at each pong or exposed kong a seat made (a late pong hints at a ready hand)."""
    void_discards: list[int] = field(default_factory=lambda: [0] * 4)
    """Void-suit tiles each seat has discarded since the voids were revealed."""
    last_void_discard: list[int] = field(default_factory=lambda: [-1] * 4)
    """Turn index (own discards) of each seat's last void-suit discard."""
    turns: list[int] = field(default_factory=lambda: [0] * 4)
    """Discards each seat has made."""
    win_piles: list[list[Tile]] = field(default_factory=lambda: [[] for _ in range(4)])
    claim_tile: Tile | None = None
    claim_from: int | None = None
    robbing: bool = False
    exchange_given: tuple[Tile, ...] = ()
    exchange_received: tuple[Tile, ...] = ()
    direction: str | None = None
    totals: list[int] = field(default_factory=lambda: [0] * 4)
    """Net payments so far by seat."""
    finished: bool = False

    # ------------------------------------------------------------------ queries

    @property
    def void(self) -> str | None:
        return self.voids[self.seat]

    @property
    def xueliu(self) -> bool:
        return self.rules.variant == "xueliu"

    def active(self, seat: int) -> bool:
        """Still drawing and discarding (血战 winners leave)."""
        return not (self.won[seat] and not self.xueliu)

    def unseen_counts(self) -> list[int]:
        """Copies of each tile this seat cannot see (not in its hand, any meld, river, win pile
        or shown hand)."""
        left = [4 - c for c in self.hand]
        for s in range(4):
            for t in self.discards[s]:
                left[t] -= 1
            for t in self.win_piles[s]:
                left[t] -= 1
            if s != self.seat:
                for m in self.melds[s]:
                    left[m.tile] -= 3 if m.kind == "pong" else 4
                shown = self.shown[s]
                if shown is not None:
                    for t in range(NUM_SUITED):
                        left[t] -= shown[t]
            else:
                for m in self.melds[s]:
                    left[m.tile] -= 3 if m.kind == "pong" else 4
        return [c if c > 0 else 0 for c in left]

    def own_melds(self) -> list[Meld]:
        return self.melds[self.seat]

    def holds_void(self) -> bool:
        v = self.void
        if v is None:
            return False
        i = SUITS.index(v) * 9
        return any(self.hand[i : i + 9])

    def opponents(self) -> Iterable[int]:
        return ((self.seat + k) % 4 for k in (1, 2, 3))


class Observer:
    """Keeps a :class:`SeatView` up to date from the seat's visible event stream.

    ``feed`` takes events in the form of ``Game.events_for(seat)``; :meth:`observe` reads the
    new ones through that method and nothing else.
    """

    __slots__ = ("_pending", "cursor", "view")

    def __init__(self, seat: int, rules: RuleSet) -> None:
        self.view = SeatView(seat, rules)
        self.cursor = 0
        self._pending: tuple[int, Tile] | None = None  # the last discard, until claimed or passed

    def observe(self, events_for: Callable[[int, int], list[dict[str, Any]]]) -> SeatView:
        """Read the new events of ``events_for(seat, since)`` (i.e. ``Game.events_for``)."""
        evs = events_for(self.view.seat, self.cursor)
        if evs:
            self.feed(evs)
            self.cursor = evs[-1]["seq"] + 1
        return self.view

    def observe_log(self, events: Sequence[Event]) -> SeatView:
        """Read the new entries of the game's event log (``Game.events``) as this seat sees
        them: the same filter as ``Game.events_for`` (:meth:`Event.for_seat`) — events of
        ``private`` visibility only for their own seat, the ``private`` data only to that seat —
        without building a dictionary per event. The simulator's fast path."""
        me = self.view.seat
        apply = self._apply
        for _, kind, s, data, private, visibility in events[self.cursor :]:
            if s == me:
                apply(kind, s, {**data, **private} if private else data)
            elif visibility == "public":
                apply(kind, -1 if s is None else s, data)
        self.cursor = len(events)
        return self.view

    def feed(self, events: Iterable[dict[str, Any]]) -> None:
        """Apply events in the form of ``Game.events_for(seat)``."""
        apply = self._apply
        for ev in events:
            apply(ev["type"], ev.get("seat", -1), ev)

    def _apply(self, kind: str, s: int, ev: Mapping[str, Any]) -> None:
        v = self.view
        me = v.seat
        if kind == "draw":
            v.wall = ev["wall"]
            v.tiles[s] += 1
            self._pending = None
            v.claim_tile = None
            if s == me:
                t = TILE_INDEX[ev["tile"]]
                v.hand[t] += 1
                v.drawn = t
                v.passed[me].clear()
        elif kind == "discard":
            t = TILE_INDEX[ev["tile"]]
            v.wall = ev["wall"]
            v.tiles[s] -= 1
            v.discards[s].append(t)
            v.discarded[s].add(t)
            v.turns[s] += 1
            v.passed[s].clear()
            for o in range(4):
                if o != s:
                    v.passed[o].add(t)
            vs = v.voids[s]
            if vs is not None and SUITS[t // 9] == vs:
                v.void_discards[s] += 1
                v.last_void_discard[s] = v.turns[s]
            if s == me:
                v.hand[t] -= 1
            v.drawn = None
            self._pending = (s, t)
            v.claim_tile, v.claim_from, v.robbing = t, s, False
        elif kind == "payment":
            amount = ev["amount"]
            v.totals[ev["payer"]] -= amount
            v.totals[ev["payee"]] += amount
        elif kind in ("pong", "kong"):
            self._meld(kind, s, ev)
        elif kind == "kong_declared":
            v.claim_tile, v.claim_from, v.robbing = TILE_INDEX[ev["tile"]], s, True
        elif kind == "kong_robbed":
            t = TILE_INDEX[ev["tile"]]
            v.tiles[s] -= 1
            if s == me:
                v.hand[t] -= 1
            self._pending = (-1, t)  # goes to the (first) robber's win pile
        elif kind == "hu":
            self._win(s, ev)
        elif kind == "deal":
            if s == me:
                for t in _tiles(ev["hand"]):
                    v.hand[t] += 1
        elif kind == "start":
            v.dealer = ev["dealer"]
            v.tiles = [14 if i == v.dealer else 13 for i in range(4)]
        elif kind == "deal_done":
            v.wall = ev["wall"]
        elif kind == "exchange_chosen" and s == me:
            v.exchange_given = tuple(_tiles(ev["tiles"]))
        elif kind == "exchange":
            v.direction = ev["direction"]
            for t in v.exchange_given:
                v.hand[t] -= 1
        elif kind == "exchange_received" and s == me:
            got = _tiles(ev["tiles"])
            v.exchange_received = tuple(got)
            for t in got:
                v.hand[t] += 1
        elif kind == "void_chosen" and s == me:
            v.voids[me] = ev["suit"]
        elif kind == "voids":
            v.voids = list(ev["voids"])
        elif kind == "end":
            v.finished = True
            v.claim_tile = None

    def _meld(self, kind: str, s: int, ev: Mapping[str, Any]) -> None:
        v = self.view
        me = v.seat
        v.claim_tile, v.claim_from, v.robbing = None, None, False
        how = ev.get("kind")
        v.drawn = None
        if kind == "kong" and how == "concealed":
            v.tiles[s] -= 4
            if s == me:
                t = TILE_INDEX[ev["tile"]]
                v.hand[t] -= 4
                v.melds[s].append(Meld("kong", t, "concealed"))
            else:
                v.hidden_kongs[s] += 1
            return
        t = TILE_INDEX[ev["tile"]]
        if kind == "kong" and how == "added":
            v.tiles[s] -= 1
            if s == me:
                v.hand[t] -= 1
            v.melds[s] = [Meld("kong", t, "added") if m.kind == "pong" and m.tile == t else m
                          for m in v.melds[s]]
            return
        # pong or exposed kong of a discard: the discard leaves the river, into the meld
        if self._pending is not None:
            frm = self._pending[0]
            v.discards[frm].pop()
            self._pending = None
        n = 2 if kind == "pong" else 3
        v.tiles[s] -= n
        if s == me:
            v.hand[t] -= n
        v.melds[s].append(Meld("pong", t) if kind == "pong" else Meld("kong", t, "exposed"))
        v.pongs_at[s].append(v.wall)

    def _win(self, s: int, ev: Mapping[str, Any]) -> None:
        v = self.view
        t = TILE_INDEX[ev["tile"]]
        v.won[s] += 1
        hand = [0] * NUM_SUITED
        for x in _tiles(ev["hand"]):
            hand[x] += 1
        if ev["self_drawn"]:
            v.tiles[s] -= 1
            if s == v.seat:
                v.hand[t] -= 1
            v.win_piles[s].append(t)
            v.drawn = None
        elif self._pending is not None:
            frm = self._pending[0]
            if frm >= 0:
                v.discards[frm].pop()
            v.win_piles[s].append(t)
            self._pending = None
        if s != v.seat:
            v.shown[s] = hand
        v.melds_at_win[s] = len(v.melds[s])
        v.claim_tile = None
