"""What each seat knows of a hand, kept up to date from the hand's events as the engine redacts
them (:func:`~chuanma.engine.views.event_for`), so that an observation is not rebuilt from a
fresh view at every step.

Each event is read once, as its own seat sees it (a public event as everyone does). What only
that seat may know (its hand, draw, exchange choice, void, concealed kongs) goes into that seat's
private part, which only its own observation reads; the public part (melds, rivers, win piles,
shown hands, tiles held, wins, voids once revealed, scores, the wall, the phase) is written only
from what every seat sees of the event: a concealed kong's tile, for one, only when the
spectator's copy of the event names it. The leak tests of the environments scramble the other
seats' private parts and check that a seat's observation does not move. The encoders write a
seat's observation from it (``encode_tracked``), and ``test_tracked_observations_equal_the_views``
checks, at every step of many random hands, that it is the observation of the seat's view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chuanma.engine.game import Game
from chuanma.engine.tables import TILE_TEXT
from chuanma.engine.variant import variant_of
from chuanma.engine.views import event_for
from chuanma.melds import Meld
from chuanma.tiles import NUM_KINDS, parse_tiles, to_counts

TILE = {text: t for t, text in enumerate(TILE_TEXT)}
"""A tile's text in an event, as its number."""


def _counts(text: str) -> bytearray:
    return bytearray(to_counts(parse_tiles(text)))


class Private:
    """What one seat alone knows: its hand, its draw, its exchange choice, its void and its
    concealed kongs (the tiles of those nobody else sees)."""

    __slots__ = ("drawn", "exchange", "hand", "kongs", "void")

    def __init__(self) -> None:
        self.hand = bytearray(NUM_KINDS)
        self.drawn: int | None = None
        self.exchange: list[int] | None = None
        self.void: str | None = None
        self.kongs: list[int] = []


class Tracker:
    """Every seat's knowledge of ``game`` (a hand nobody leaves: the environments' hands);
    :meth:`update` reads the events logged since the last call. Counts are per tile kind (34),
    by absolute seat."""

    __slots__ = ("current", "dealer", "direction", "exchanged", "game", "hidden", "locked", "log", "melds",
                 "out", "own", "phase", "piles", "read", "rivers", "shown", "tiles", "totals", "void_chosen",
                 "voids", "wall", "window", "wins", "xueliu")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.read = 0
        variant = variant_of(game.rules)
        self.xueliu = variant.winners_stay
        self.phase = "exchange" if variant.has_exchange(game.rules) else "void" if variant.void else "turn"
        """``exchange``, ``void``, ``turn``, ``window`` (a claim or robbing window) or ``end``."""
        self.window: tuple[int, int, bool] | None = None
        """The open window's tile, from seat and whether it robs a kong."""
        self.dealer = self.current = 0
        self.wall = 0
        self.direction: str | None = None
        self.melds = [bytearray(NUM_KINDS) for _ in range(4)]
        """Meld tiles everyone sees."""
        self.hidden = [0, 0, 0, 0]
        self.rivers = [bytearray(NUM_KINDS) for _ in range(4)]
        self.piles = [bytearray(NUM_KINDS) for _ in range(4)]
        self.shown: list[bytearray | None] = [None, None, None, None]
        self.own = [Private() for _ in range(4)]
        """Each seat's private part: only its own observation reads it."""
        self.exchanged = [False, False, False, False]
        self.voids: list[str | None] | None = None
        """Everyone's void, once revealed."""
        self.void_chosen = [False, False, False, False]
        self.tiles = [0, 0, 0, 0]
        self.wins = [0, 0, 0, 0]
        self.out = [False, False, False, False]
        self.locked = [False, False, False, False]
        self.totals = [0, 0, 0, 0]
        self.log: list[tuple[int, int]] = []
        self.update()

    def voids_seen(self, seat: int) -> list[str | None]:
        """The voids ``seat`` knows: everyone's once revealed, else its own alone."""
        if self.voids is not None:
            return self.voids
        return [self.own[s].void if s == seat else None for s in range(4)]

    def update(self) -> None:
        """Read the events logged since the last update."""
        events = self.game.events
        for ev in events[self.read:]:
            shown = event_for(ev, ev.seat)  # as the event's own seat sees it (a spectator: no seat)
            assert shown is not None
            apply = _APPLY.get(ev.type)
            if apply is not None:  # the others (a seat's own ``claim`` answer, ``exhausted``) change nothing seen
                apply(self, ev.seat, shown, ev.visibility == "public")
        self.read = len(events)

    # ------------------------------------------------------------------ the events

    def _start(self, seat: int | None, ev: dict[str, Any], public: bool) -> None:
        self.dealer = self.current = ev["dealer"]

    def _deal(self, seat: int, ev: dict[str, Any], public: bool) -> None:
        self.own[seat].hand = _counts(ev["hand"])

    def _deal_done(self, seat: int | None, ev: dict[str, Any], public: bool) -> None:
        self.wall = ev["wall"]
        hand = variant_of(self.game.rules).wall.hand
        self.tiles = [hand + (s == self.dealer) for s in range(4)]

    def _exchange_chosen(self, seat: int, ev: dict[str, Any], public: bool) -> None:
        self.exchanged[seat] = True
        self.own[seat].exchange = parse_tiles(ev["tiles"])

    def _exchange(self, seat: int | None, ev: dict[str, Any], public: bool) -> None:
        self.direction = ev["direction"]
        self.phase = "void"
        for own in self.own:
            for t in own.exchange or ():
                own.hand[t] -= 1

    def _exchange_received(self, seat: int, ev: dict[str, Any], public: bool) -> None:
        for t in parse_tiles(ev["tiles"]):
            self.own[seat].hand[t] += 1

    def _void_chosen(self, seat: int, ev: dict[str, Any], public: bool) -> None:
        self.own[seat].void = ev["suit"]
        if public:  # an automatic choice is the seat's own business until the voids are revealed
            self.void_chosen[seat] = True

    def _voids(self, seat: int | None, ev: dict[str, Any], public: bool) -> None:
        self.voids = list(ev["voids"])
        self.void_chosen = [True] * 4
        self.phase = "turn"
        self.current = self.dealer

    def _draw(self, seat: int, ev: dict[str, Any], public: bool) -> None:
        t = TILE[ev["tile"]]
        self.own[seat].hand[t] += 1
        self.own[seat].drawn = t
        self.tiles[seat] += 1
        self.wall = ev["wall"]
        self.phase = "turn"
        self.current = seat

    def _leaves(self, seat: int, t: int) -> None:
        """A tile leaves the seat's concealed tiles (its turn's draw, if any, is no longer apart)."""
        self.own[seat].hand[t] -= 1
        self.own[seat].drawn = None
        self.tiles[seat] -= 1

    def _discard(self, seat: int, ev: dict[str, Any], public: bool) -> None:
        t = TILE[ev["tile"]]
        self._leaves(seat, t)
        self.rivers[seat][t] += 1
        self.log.append((seat, t))
        self.wall = ev["wall"]
        self.phase = "window"  # until a draw or a claim says that it closed
        self.window = (t, seat, False)
        self.current = seat

    def _take(self, seat: int, frm: int, used: list[int], meld: list[int]) -> None:
        """A claim of ``frm``'s discard: ``used`` leave the seat's hand, ``meld`` is laid down."""
        assert self.window is not None
        self.rivers[frm][self.window[0]] -= 1
        self.window = None
        hand = self.own[seat].hand
        for t in used:
            hand[t] -= 1
        for t in meld:
            self.melds[seat][t] += 1
        self.tiles[seat] -= len(used)
        self.phase = "turn"
        self.current = seat

    def _pong(self, seat: int, ev: dict[str, Any], public: bool) -> None:
        t = TILE[ev["tile"]]
        self._take(seat, ev["from"], [t, t], [t, t, t])

    def _chow(self, seat: int, ev: dict[str, Any], public: bool) -> None:
        claimed, run = TILE[ev["claimed"]], Meld("chow", TILE[ev["tile"]]).tiles
        self._take(seat, ev["from"], [t for t in run if t != claimed], run)

    def _kong(self, seat: int, ev: dict[str, Any], public: bool) -> None:
        kind = ev["kind"]
        self.own[seat].drawn = None
        if kind == "exposed":
            t = TILE[ev["tile"]]
            self._take(seat, ev["from"], [t, t, t], [t, t, t, t])
            return
        self.phase = "turn"
        self.current = seat
        self.window = None
        if kind == "added":
            t = TILE[ev["tile"]]
            self._leaves(seat, t)
            self.melds[seat][t] += 1
            return
        t = TILE[ev["tile"]]  # a concealed kong's tile: in the public part, or in its owner's
        self.own[seat].hand[t] = 0
        self.tiles[seat] -= 4
        public_part = event_for(self.game.events[ev["seq"]], None)  # the kong as everyone sees it
        if public_part is not None and "tile" in public_part:
            self.melds[seat][t] += 4
        else:
            self.own[seat].kongs.append(t)
            self.hidden[seat] += 1

    def _kong_declared(self, seat: int, ev: dict[str, Any], public: bool) -> None:
        if self.game.rules.robbing_kong:
            self.phase = "window"
            self.window = (TILE[ev["tile"]], seat, True)
            self.current = seat

    def _kong_robbed(self, seat: int, ev: dict[str, Any], public: bool) -> None:
        self._leaves(seat, TILE[ev["tile"]])

    def _hu(self, seat: int, ev: dict[str, Any], public: bool) -> None:
        t = TILE[ev["tile"]]
        if ev["self_drawn"]:
            self._leaves(seat, t)
            self.piles[seat][t] += 1
        elif self.window is not None:  # the first winner on a tile takes it into its win pile
            if not ev["robbed_kong"]:
                self.rivers[ev["from"]][t] -= 1
            self.piles[seat][t] += 1
            self.window = None
        self.wins[seat] += 1
        self.shown[seat] = _counts(ev["hand"])
        if self.xueliu:
            self.locked[seat] = True
        else:
            self.out[seat] = True
        self.phase = "turn"

    def _payment(self, seat: int | None, ev: dict[str, Any], public: bool) -> None:
        self.totals[ev["payer"]] -= ev["amount"]
        self.totals[ev["payee"]] += ev["amount"]

    def _end(self, seat: int | None, ev: dict[str, Any], public: bool) -> None:
        """Everything is revealed: every hand and every meld."""
        self.phase = "end"
        self.window = None
        self.shown = [_counts(h) for h in ev["hands"]]
        for s, melds in enumerate(ev["melds"]):
            row = bytearray(NUM_KINDS)
            for m in melds:
                for t in Meld.from_dict(m).tiles:
                    row[t] += 1
            self.melds[s] = row
        for own in self.own:
            own.kongs = []
        self.hidden = [0, 0, 0, 0]


_APPLY: dict[str, Callable[[Tracker, Any, dict[str, Any], bool], None]] = {
    "start": Tracker._start, "deal": Tracker._deal, "deal_done": Tracker._deal_done,
    "exchange_chosen": Tracker._exchange_chosen, "exchange": Tracker._exchange,
    "exchange_received": Tracker._exchange_received, "void_chosen": Tracker._void_chosen,
    "voids": Tracker._voids, "draw": Tracker._draw, "discard": Tracker._discard, "pong": Tracker._pong,
    "chow": Tracker._chow, "kong": Tracker._kong, "kong_declared": Tracker._kong_declared,
    "kong_robbed": Tracker._kong_robbed, "hu": Tracker._hu, "payment": Tracker._payment, "end": Tracker._end,
}
