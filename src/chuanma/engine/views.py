"""The redaction: what one seat (or a spectator) may know of a hand. The anti-cheat boundary.

:func:`seat_view` makes a typed :class:`SeatView` of a compiled hand (``chuanma._core.Hand``) from
the core's one redaction (src/native/view.cpp), the one the encoders read. :func:`shown_parts`
says what of a logged event a seat may see, and :func:`event_for` shows it to the seat as one
message. Every reader — the CLI, the bots, the simulator, records' replays, the server and the RL
environment — sees a hand only through these functions.

A seat sees its own concealed tiles and draws; everyone's melds (a concealed kong's tile only for
its owner, or for everyone under ``concealed_kong_shown``), discards, win piles, the wall count,
void choices once revealed, the wins and payments so far. A winner's hand is shown as it was when
it won (RULES §2.11: it lays its hand down); later draws of a locked 血流 winner stay hidden. Nobody
sees the wall order, the seeds, another seat's concealed tiles or whether another seat may claim.
Everything is revealed when the hand ends.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache
from operator import sub
from types import MappingProxyType
from typing import Any, NamedTuple

from chuanma import _core
from chuanma.engine.actions import Action
from chuanma.engine.events import EVENT_SCHEMA, Event
from chuanma.engine.indices import ACTIONS
from chuanma.engine.ledger import Payment, Win
from chuanma.engine.state import (
    AFTER,
    Direction,
    SeatState,
    Turn,
    turn_from,
)
from chuanma.engine.tables import TILE_TEXT, format_counts, format_river
from chuanma.melds import KongKind, Meld, MeldKind
from chuanma.rules import RuleSet
from chuanma.tiles import ALL_TILES, NUM_KINDS, SICHUAN_TILES, Tile, format_tiles, holds_suit, suit_of

VIEW_SCHEMA = 1
"""Version of the view's JSON form (the events': :data:`~chuanma.engine.events.EVENT_SCHEMA`)."""
_new = tuple.__new__
_SET_COUNTS = {s.kinds: tuple(s.copies if t in s else 0 for t in range(NUM_KINDS)) for s in (SICHUAN_TILES, ALL_TILES)}
"""Copies of each tile kind in each tile set, by its number of kinds (no honours in the 108 tiles)."""


class PlayerView(NamedTuple):
    """One seat as the viewer sees it (an immutable copy)."""

    seat: int
    melds: tuple[Meld | None, ...]
    """Declared melds in order; ``None`` is a concealed kong the viewer may not see."""
    discards: tuple[Tile, ...]
    """The river as it lies (claimed tiles taken out)."""
    win_pile: tuple[Tile, ...]
    tiles: int
    """Concealed tiles held."""
    won: int
    """Wins so far."""
    out: bool
    left: bool
    locked: bool
    exchange_chosen: bool
    void_chosen: bool
    void: str | None
    """The void suit, once revealed (one's own at once)."""
    hand: tuple[int, ...] | None
    """Concealed tiles as counts: one's own; a winner's as shown at its latest win; everyone's at
    the end. ``None`` when hidden."""
    exchange: tuple[Tile, ...] | None
    """One's own exchange choice until the exchange happens."""
    claimed_at: tuple[int, ...]
    """Tiles left in the wall at each of this seat's pongs and exposed kongs."""


class ClaimView(NamedTuple):
    """The tile on offer in an open claim window the viewer may answer."""

    tile: Tile
    from_seat: int
    robbing: bool
    situations: tuple[str, ...]
    """The situations a win on the tile would count (杠上炮, 海底炮, 地胡, 抢杠胡)."""
    kong: int | None
    """Index in ``SeatView.kongs`` of the kong the discarder declared this turn (呼叫转移)."""


class KongView(NamedTuple):
    """A declared kong and the ledger entries it earned; ``tile`` is ``None`` for a concealed kong
    the viewer may not see."""

    seat: int
    tile: Tile | None
    kind: str
    seq: int
    payments: tuple[int, ...]
    transferred: bool


class SeatView(NamedTuple):
    """Everything ``seat`` (``None``: a spectator) may know now. Tiles are ints; seats 0–3."""

    seat: int | None
    rules: RuleSet
    phase: str
    """``exchange``, ``void``, ``turn``, ``claim``, ``rob``, ``end``, or ``waiting`` (a claim window
    the viewer has no part in)."""
    dealer: int
    current: int | None
    wall: int
    """Tiles left in the wall."""
    direction: Direction | None
    players: tuple[PlayerView, ...]
    wins: tuple[Win, ...]
    payments: tuple[Payment, ...]
    totals: tuple[int, ...]
    acting: tuple[int, ...]
    """Seats owing a decision, as far as the viewer may know (in a claim window: only itself; in
    定缺: every seat whose choice it has not seen, a void chosen for a two-suit hand included)."""
    claim: ClaimView | None
    drawn: Tile | None
    """One's own tile drawn this turn."""
    legal_actions: tuple[Action, ...]
    discard_log: tuple[tuple[int, Tile], ...]
    """Every discard of the hand in order: (seat, tile), claimed or not."""
    voids_revealed: bool
    version: int
    finished: bool
    kongs: tuple[KongView, ...]
    turn: Turn
    """The current turn's public facts (a copy)."""
    own: SeatState | None
    """The viewer's own private part (a copy): its hand, draw, choices and what its passes bar."""
    declared: bool
    """Someone has declared a pong or kong."""
    live_draws: int
    dealer_discards: int
    first_multi_from: int | None

    # ------------------------------------------------------------------ own seat

    @property
    def me(self) -> PlayerView:
        assert self.seat is not None, "a spectator has no seat"
        return self.players[self.seat]

    @property
    def hand(self) -> tuple[int, ...]:
        """One's own concealed tiles as counts."""
        hand = self.me.hand
        assert hand is not None
        return hand

    @property
    def void(self) -> str | None:
        return self.me.void

    @property
    def voids(self) -> list[str | None]:
        return [p.void for p in self.players]

    @property
    def winners_stay(self) -> bool:
        """血流: winners keep playing (their hands locked)."""
        return self.rules.game_variant.winners_stay

    def own_melds(self) -> list[Meld]:
        return [m for m in self.me.melds if m is not None]

    def holds_void(self) -> bool:
        return holds_suit(self.hand, self.void)

    def opponents(self) -> Iterator[int]:
        assert self.seat is not None
        return iter(AFTER[self.seat])

    # ------------------------------------------------------------------ anyone

    def active(self, seat: int) -> bool:
        """Still drawing and discarding."""
        return not self.players[seat].out

    def melds(self, seat: int) -> list[Meld]:
        """The seat's melds the viewer can see."""
        return [m for m in self.players[seat].melds if m is not None]

    def hidden_kongs(self, seat: int) -> int:
        """The seat's concealed kongs the viewer cannot see."""
        return sum(1 for m in self.players[seat].melds if m is None)

    def turns(self, seat: int) -> int:
        """Discards the seat has made."""
        return sum(1 for s, _ in self.discard_log if s == seat)

    def discarded(self, seat: int) -> set[Tile]:
        """Every tile the seat ever discarded, claimed or not (its 现物)."""
        return {t for s, t in self.discard_log if s == seat}

    def passed(self, seat: int) -> set[Tile]:
        """Tiles the other seats discarded since the seat's own last discard."""
        out: set[Tile] = set()
        for s, t in reversed(self.discard_log):
            if s == seat:
                break
            out.add(t)
        return out

    def last_void_discard(self, seat: int) -> int:
        """The number (1-based, among the seat's discards) of its last void-suit discard; -1 if none."""
        void = self.players[seat].void
        n = 0
        last = -1
        for s, t in self.discard_log:
            if s == seat:
                n += 1
                if void is not None and suit_of(t) == void:
                    last = n
        return last

    def shown(self, seat: int) -> tuple[int, ...] | None:
        """Another seat's concealed tiles as the viewer sees them (a winner's shown hand)."""
        return self.players[seat].hand if seat != self.seat else None

    def unseen_counts(self) -> list[int]:
        """Copies of each tile the viewer cannot see (not in its hand, any meld, river, win pile
        or shown hand)."""
        left = list(_SET_COUNTS[self.rules.tiles.kinds])
        if self.seat is not None:
            left = list(map(sub, left, self.hand))
        for p in self.players:
            for t in p.discards:
                left[t] -= 1
            for t in p.win_pile:
                left[t] -= 1
            for m in p.melds:
                if m is None:
                    continue
                if m.kind == "chow":
                    for t in m.tiles:
                        left[t] -= 1
                else:
                    left[m.tile] -= 3 if m.kind == "pong" else 4
            if p.seat != self.seat and p.hand is not None:
                left = list(map(sub, left, p.hand))
        return [c if c > 0 else 0 for c in left]

    # ------------------------------------------------------------------ JSON

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (tiles in notation; documented in docs/engine.md)."""
        players = []
        for p in self.players:
            d: dict[str, Any] = {
                "seat": p.seat,
                "melds": [m.to_dict() if m is not None else {"kind": "kong", "tile": None, "kong": "concealed"}
                          for m in p.melds],
                "discards": format_river(p.discards),
                "win_pile": format_river(p.win_pile),
                "tiles": p.tiles,
                "won": p.won > 0,
                "out": p.out,
                "left": p.left,
                "locked": p.locked,
                "exchange_chosen": p.exchange_chosen,
                "void_chosen": p.void_chosen,
            }
            if self.voids_revealed or p.seat == self.seat:
                d["void"] = p.void
            if p.hand is not None:
                d["hand"] = format_counts(p.hand)
            if p.exchange is not None:
                d["exchange"] = format_tiles(p.exchange)
            players.append(d)
        out: dict[str, Any] = {
            "schema": VIEW_SCHEMA,
            "seat": self.seat,
            "phase": self.phase,
            "dealer": self.dealer,
            "current": self.current,
            "wall": self.wall,
            "direction": self.direction,
            "players": players,
            "wins": [w.to_json() for w in self.wins],
            "payments": [p.to_json() for p in self.payments],
            "totals": list(self.totals),
            "to_act": (self.seat in self.acting) if self.seat is not None else list(self.acting),
        }
        if self.claim is not None:
            out["claim"] = {"tile": TILE_TEXT[self.claim.tile], "from": self.claim.from_seat,
                            "robbing": self.claim.robbing}
        if self.seat is not None:
            if self.drawn is not None:
                out["drawn"] = TILE_TEXT[self.drawn]
            out["legal_actions"] = [a.to_json() for a in self.legal_actions]
        return out


def seat_view(hand: _core.Hand, seat: int | None, rules: RuleSet, legal: list[Action] | None = None) -> SeatView:
    """The view of ``seat`` (``None``: a spectator) of the compiled hand ``hand`` played under
    ``rules``; ``legal`` is the seat's legal actions. Made from the core's redaction
    (``_core.Hand.view``)."""
    (phase, dealer, current, wall, direction, players, wins, payments, totals, acting, claim, drawn, log,
     revealed, version, finished, kongs, turn, own, declared, live_draws, dealer_discards,
     first_multi_from) = hand.view(seat)
    return _new(SeatView, (
        seat, rules, phase, dealer, current, wall, direction,
        tuple([_new(PlayerView, (p[0], tuple([None if m is None else _meld(*m) for m in p[1]]), *p[2:]))
               for p in players]),
        tuple([Win.from_json(w) for w in wins]), tuple([Payment.from_json(p) for p in payments]),
        totals, acting, None if claim is None else _new(ClaimView, claim), drawn, tuple(legal or ()), log,
        revealed, version, finished, tuple([_new(KongView, k) for k in kongs]), turn_from(turn),
        None if own is None else _own_seat(*own), declared, live_draws, dealer_discards,
        first_multi_from,
    ))


def _own_seat(hand: bytes, drawn: Tile | None, exchange: tuple[Tile, Tile, Tile] | None, void: str | None,
              options: tuple[int, ...] | None, claim: int | None, banned: tuple[Tile, ...], pong_ban: tuple[Tile, ...],
              bar: int | None, late_pongs: tuple[Tile, ...], locked_waits: tuple[Tile, ...] | None,
              live_draws: int) -> SeatState:
    """The viewer's own seat from the core's numbers (actions as indices of :data:`.indices.ACTIONS`)."""
    return SeatState(bytearray(hand), drawn, exchange, void, None if options is None else [ACTIONS[i] for i in options],
                     None if claim is None else ACTIONS[claim], set(banned), set(pong_ban), bar, set(late_pongs),
                     None if locked_waits is None else list(locked_waits), live_draws)


@lru_cache(maxsize=1024)
def _meld(kind: MeldKind, tile: Tile, kong: KongKind | None) -> Meld:
    """A meld the core shows (melds are immutable: each is made once)."""
    return Meld(kind, tile, kong)


_NO_PRIVATE: Mapping[str, Any] = MappingProxyType({})


def shown_parts(ev: Event, seat: int | None) -> tuple[Mapping[str, Any], Mapping[str, Any]] | None:
    """What of the logged event ``seat`` (``None``: a spectator) may see: its data and its private
    part (empty unless the event is the seat's own); ``None`` when the event is hidden from it.

    Public events show their ``data`` to everyone and their ``private`` part to their own seat
    only; private events are shown to their own seat only. The parts are the event's own
    mappings: read them, do not change them.
    """
    own = seat is not None and seat == ev.seat
    if ev.visibility != "public" and not own:
        return None
    return ev.data, ev.private if own else _NO_PRIVATE


def event_for(ev: Event, seat: int | None) -> dict[str, Any] | None:
    """The logged event as ``seat`` (``None``: a spectator) may see it (:func:`shown_parts`), as one
    message; ``None`` when hidden."""
    parts = shown_parts(ev, seat)
    if parts is None:
        return None
    out: dict[str, Any] = {"schema": EVENT_SCHEMA, "seq": ev.seq, "type": ev.type}
    if ev.seat is not None:
        out["seat"] = ev.seat
    out.update(parts[0])
    out.update(parts[1])
    return out
