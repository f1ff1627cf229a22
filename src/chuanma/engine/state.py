"""The state of one hand, as plain data: the hidden part, the public part, each seat's private part.

:class:`HandState` is everything a hand is at one moment. It holds no functions, closures or
shared singletons, so ``copy.deepcopy``, ``pickle`` and :meth:`HandState.to_dict` /
:meth:`HandState.from_dict` (JSON) all give the same hand: the same legal actions from then on
and the same settlement. The parts are kept apart as the core's redaction (which :mod:`.views`
reads) keeps them: a seat sees its own :class:`SeatState`, the :class:`Public` part and nothing of
:class:`Hidden`:

- :class:`Hidden` — the wall order, the exchange direction until it is revealed, the seeds;
- :class:`Public` — phase, whose turn, melds, rivers, win piles, voids once revealed, winners,
  payments, the claim window's tile;
- :class:`SeatState` — one seat's concealed tiles, draw, exchange and void choices, claim options
  and claim, and what its passes bar it from.

The claim window's fan cache is excluded from equality and from the JSON form: it is rebuilt on
demand.
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from chuanma.engine.actions import Action, action_from_json
from chuanma.engine.events import Event
from chuanma.engine.ledger import KongRecord, Payment, Win, totals
from chuanma.melds import Meld
from chuanma.rules import RuleSet
from chuanma.tiles import NUM_KINDS, Tile, TileSet, format_tiles, parse_tile, parse_tiles, tile_str

Direction = Literal["to_next", "opposite", "to_previous"]
DIRECTIONS: dict[str, int] = {"to_next": 1, "opposite": 2, "to_previous": 3}
"""Exchange directions and how many seats on each one's tiles travel."""
Phase = Literal["exchange", "void", "turn", "claim", "rob", "draw", "end"]
"""``draw`` is a draw due: it happens inside :meth:`Game.apply`, so no reader ever sees it."""
DrawKind = Literal["live", "replacement"]

STATE_FORMAT = "chuanma-state/1"
AFTER = [((s + 1) % 4, (s + 2) % 4, (s + 3) % 4) for s in range(4)]
"""The other seats in play order."""


@dataclass(slots=True)
class Hidden:
    """What no player may see before the hand ends."""

    wall: list[Tile]
    direction: Direction
    seeds: dict[str, Any] | None = None


@dataclass(slots=True)
class SeatState:
    """One seat's private part."""

    hand: bytearray = field(default_factory=lambda: bytearray(NUM_KINDS))
    """Concealed tiles as counts by tile kind (a ``bytearray``: the win check reads it as ``bytes``
    without converting each count)."""
    drawn: Tile | None = None
    """The tile drawn this turn (``None`` after a pong or outside the seat's turn)."""
    exchange: tuple[Tile, Tile, Tile] | None = None
    void: str | None = None
    """The chosen void suit (public once ``Public.voids_revealed``)."""
    claim_options: list[Action] | None = None
    """What the seat may claim in the open claim window (``None``: nothing)."""
    claim: Action | None = None
    """What it claimed in the open window (``None``: not yet)."""
    banned: set[Tile] = field(default_factory=set)
    """``pass_rule: forever``: tiles it may never win on."""
    pong_ban: set[Tile] = field(default_factory=set)
    """``pass_rule: same_turn``: tiles it may not pong until its next draw."""
    bar: int | None = None
    """``pass_rule: same_turn``: the fan a win on a discard must beat until its next draw."""
    late_pongs: set[Tile] = field(default_factory=set)
    """Pongs whose added kong is a 过手杠."""
    locked_waits: list[Tile] | None = None
    """血流: the waits fixed at the seat's first win."""
    live_draws: int = 0


def copy_seat(s: SeatState) -> SeatState:
    """A copy of a seat's private part (its lists and sets copied too)."""
    return SeatState(
        bytearray(s.hand), s.drawn, s.exchange, s.void,
        None if s.claim_options is None else list(s.claim_options), s.claim, set(s.banned),
        set(s.pong_ban), s.bar, set(s.late_pongs),
        None if s.locked_waits is None else list(s.locked_waits), s.live_draws,
    )


def copy_turn(t: Turn) -> Turn:
    """A copy of the turn's facts."""
    return Turn(t.draw_kind, t.after_pong, t.kong, t.kongs, t.drew_last, t.first, t.dihu)


@dataclass(slots=True)
class ClaimWindow:
    """The tile on offer: a discard (``rob`` false) or an added kong (``rob`` true)."""

    tile: Tile
    from_seat: int
    situations: tuple[str, ...]
    rob: bool
    kong: int | None = None
    """Index in ``Public.kongs`` of the kong the discarder declared this turn (呼叫转移)."""
    fans: dict[int, int] | None = field(default=None, compare=False)
    """Cache: each claimant's fan for a win on the tile (made on the first question)."""


@dataclass(slots=True)
class Turn:
    """The current turn's public facts."""

    draw_kind: DrawKind | None = None
    after_pong: bool = False
    """The seat claimed a pong or a chow this turn: it must discard (no kong, no win)."""
    kong: int | None = None
    """Index in ``Public.kongs`` of the last kong declared this turn."""
    kongs: int = 0
    drew_last: bool = False
    first: bool = False
    """The dealer's first turn (天胡 possible)."""
    dihu: bool = False
    """This turn's draw may give 地胡."""


@dataclass(slots=True)
class Public:
    """What every seat may see."""

    dealer: int
    phase: Phase = "exchange"
    current: int = 0
    live: int = 0
    """Index of the next live draw in the wall."""
    tail: int = 0
    """Index of the next kong replacement in the wall."""
    melds: list[list[Meld]] = field(default_factory=lambda: [[] for _ in range(4)])
    discards: list[list[Tile]] = field(default_factory=lambda: [[] for _ in range(4)])
    """Each seat's river as it lies (claimed tiles taken out)."""
    discard_log: list[tuple[int, Tile]] = field(default_factory=list)
    """Every discard of the hand in order: (seat, tile), claimed or not."""
    claimed_at: list[list[int]] = field(default_factory=lambda: [[] for _ in range(4)])
    """Tiles left in the wall at each pong or exposed kong a seat made."""
    win_piles: list[list[Tile]] = field(default_factory=lambda: [[] for _ in range(4)])
    voids_revealed: bool = False
    direction: Direction | None = None
    """The exchange direction once revealed."""
    exchanged: list[bool] = field(default_factory=lambda: [False] * 4)
    """Who has chosen the tiles to exchange."""
    void_chosen: list[bool] = field(default_factory=lambda: [False] * 4)
    out: list[bool] = field(default_factory=lambda: [False] * 4)
    """No longer playing (a 血战 winner, a seat that left)."""
    left: list[bool] = field(default_factory=lambda: [False] * 4)
    locked: list[bool] = field(default_factory=lambda: [False] * 4)
    """血流 winners: the concealed tiles are fixed."""
    wins: list[Win] = field(default_factory=list)
    ledger: list[Payment] = field(default_factory=list)
    kongs: list[KongRecord] = field(default_factory=list)
    turn: Turn = field(default_factory=Turn)
    claim: ClaimWindow | None = None
    declared: bool = False
    """Someone has declared a pong or kong (地胡 is gone)."""
    live_draws: int = 0
    dealer_discards: int = 0
    first_multi_from: int | None = None
    """The discarder of the hand's first 一炮多响 (dealer rule ``first_winner``)."""
    end_reason: str | None = None
    version: int = 0
    """Counts applied commands (every seat's)."""
    posed: int = 0
    """The version at which the open question asked of several seats at once (the exchange, the
    void, a claim window) was posed: the other seats' answers move :attr:`version`, not this."""


@dataclass(slots=True)
class HandState:
    """A whole hand: rules, the three parts, and the logs."""

    rules: RuleSet
    hidden: Hidden
    public: Public
    seats: list[SeatState]
    events: list[Event] = field(default_factory=list)
    decisions: list[tuple[int, Action]] = field(default_factory=list)
    """Every decision made, in order (what a record holds)."""
    autos: list[tuple[int, Action]] = field(default_factory=list)
    """Decisions the machine made for a seat (forced voids, locked discards, omitted passes)."""

    # ------------------------------------------------------------------ small facts

    @property
    def remaining(self) -> int:
        """Tiles left in the wall."""
        return self.public.tail - self.public.live + 1

    def tiles(self, seat: int) -> list[Tile]:
        """The seat's concealed tiles, sorted."""
        hand: Sequence[int] = self.seats[seat].hand  # typed so for mypyc, which cannot enumerate a bytearray
        return [t for t, c in enumerate(hand) if c for _ in range(c)]

    def deltas(self) -> list[int]:
        """Net result per seat so far, in units of base."""
        return totals(self.public.ledger)

    def tile_total(self) -> int:
        """Tiles in wall + hands + melds + discards + win piles (the whole set, always)."""
        pub = self.public
        n = self.remaining
        for s in range(4):
            n += sum(self.seats[s].hand)
            n += sum(len(m.tiles) for m in pub.melds[s])
            n += len(pub.discards[s]) + len(pub.win_piles[s])
        return n

    def __deepcopy__(self, memo: dict[int, Any]) -> HandState:
        """A whole copy, by a pickle round trip: the state is plain data, and pickling it copies it
        about three times as fast as ``copy.deepcopy`` walking it (``benchmarks/bench_engine.py``).
        The rule set is immutable and shared, as the caches keyed by it expect."""
        parts = pickle.loads(pickle.dumps([getattr(self, f.name) for f in fields(self)[1:]], pickle.HIGHEST_PROTOCOL))
        copied = HandState(self.rules, *parts)  # rules is the first field
        memo[id(self)] = copied
        return copied

    # ------------------------------------------------------------------ JSON

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (read back by :meth:`from_dict`)."""
        pub, hid = self.public, self.hidden
        claim = pub.claim
        return {
            "format": STATE_FORMAT,
            "rules": self.rules.to_json(),
            "base": self.rules.base,
            "hidden": {"wall": [tile_str(t) for t in hid.wall], "direction": hid.direction,
                       "seeds": hid.seeds},
            "public": {
                "dealer": pub.dealer, "phase": pub.phase, "current": pub.current,
                "live": pub.live, "tail": pub.tail,
                "melds": [[m.to_dict() for m in ms] for ms in pub.melds],
                "discards": [_tiles(d) for d in pub.discards],
                "discard_log": [[s, tile_str(t)] for s, t in pub.discard_log],
                "claimed_at": [list(c) for c in pub.claimed_at],
                "win_piles": [_tiles(p) for p in pub.win_piles],
                "voids_revealed": pub.voids_revealed, "direction": pub.direction,
                "exchanged": list(pub.exchanged), "void_chosen": list(pub.void_chosen),
                "out": list(pub.out), "left": list(pub.left), "locked": list(pub.locked),
                "wins": [w.to_json() for w in pub.wins],
                "ledger": [p.to_json() for p in pub.ledger],
                "kongs": [k.to_json() for k in pub.kongs],
                "turn": {"draw_kind": pub.turn.draw_kind, "after_pong": pub.turn.after_pong,
                         "kong": pub.turn.kong, "kongs": pub.turn.kongs,
                         "drew_last": pub.turn.drew_last, "first": pub.turn.first,
                         "dihu": pub.turn.dihu},
                "claim": None if claim is None else {
                    "tile": tile_str(claim.tile), "from": claim.from_seat,
                    "situations": list(claim.situations), "rob": claim.rob, "kong": claim.kong},
                "declared": pub.declared, "live_draws": pub.live_draws,
                "dealer_discards": pub.dealer_discards, "first_multi_from": pub.first_multi_from,
                "end_reason": pub.end_reason, "version": pub.version, "posed": pub.posed,
            },
            "seats": [_seat_json(s) for s in self.seats],
            "events": [list(ev) for ev in self.events],
            "decisions": [{"seat": s, **a.to_json()} for s, a in self.decisions],
            "autos": [{"seat": s, **a.to_json()} for s, a in self.autos],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandState:
        """Rebuild a state from :meth:`to_dict`'s form."""
        if data.get("format") != STATE_FORMAT:
            raise ValueError(f"not a {STATE_FORMAT} state: format {data.get('format')!r}")
        rules = RuleSet.from_json(data["rules"])
        if data["base"] != rules.base:
            rules = rules.with_options(base=data["base"])
        h, p = data["hidden"], data["public"]
        turn, claim = p["turn"], p["claim"]
        pub = Public(
            dealer=p["dealer"], phase=p["phase"], current=p["current"], live=p["live"],
            tail=p["tail"],
            melds=[[Meld.from_dict(m) for m in ms] for ms in p["melds"]],
            discards=[parse_tiles(d) for d in p["discards"]],
            discard_log=[(s, parse_tile(t)) for s, t in p["discard_log"]],
            claimed_at=[list(c) for c in p["claimed_at"]],
            win_piles=[parse_tiles(w) for w in p["win_piles"]],
            voids_revealed=p["voids_revealed"], direction=p["direction"],
            exchanged=list(p["exchanged"]), void_chosen=list(p["void_chosen"]),
            out=list(p["out"]), left=list(p["left"]), locked=list(p["locked"]),
            wins=[Win.from_json(w) for w in p["wins"]],
            ledger=[Payment.from_json(x) for x in p["ledger"]],
            kongs=[KongRecord.from_json(k) for k in p["kongs"]],
            turn=turn_from(turn),
            claim=None if claim is None else ClaimWindow(
                parse_tile(claim["tile"]), claim["from"], tuple(claim["situations"]),
                claim["rob"], claim["kong"]),
            declared=p["declared"], live_draws=p["live_draws"],
            dealer_discards=p["dealer_discards"], first_multi_from=p["first_multi_from"],
            end_reason=p["end_reason"], version=p["version"], posed=p["posed"],
        )
        return cls(
            rules=rules,
            hidden=Hidden([parse_tile(t) for t in h["wall"]], h["direction"], h["seeds"]),
            public=pub,
            seats=[seat_from(s, rules.tiles) for s in data["seats"]],
            events=[Event(*ev) for ev in data["events"]],
            decisions=[(d["seat"], action_from_json(d, rules.tiles)) for d in data["decisions"]],
            autos=[(d["seat"], action_from_json(d, rules.tiles)) for d in data["autos"]],
        )


def _tiles(tiles: list[Tile]) -> str:
    return format_tiles(tiles, sort=False)


def _action(action: Action | None) -> dict[str, Any] | None:
    return None if action is None else action.to_json()


def _seat_json(s: SeatState) -> dict[str, Any]:
    hand: Sequence[int] = s.hand  # typed so for mypyc, which cannot enumerate a bytearray
    return {
        "hand": format_tiles(t for t, c in enumerate(hand) for _ in range(c)),
        "drawn": None if s.drawn is None else tile_str(s.drawn),
        "exchange": None if s.exchange is None else format_tiles(s.exchange),
        "void": s.void,
        "claim_options": None if s.claim_options is None else [a.to_json() for a in s.claim_options],
        "claim": _action(s.claim),
        "banned": format_tiles(s.banned),
        "pong_ban": format_tiles(s.pong_ban),
        "bar": s.bar,
        "late_pongs": format_tiles(s.late_pongs),
        "locked_waits": None if s.locked_waits is None else format_tiles(s.locked_waits),
        "live_draws": s.live_draws,
    }


def turn_from(d: dict[str, Any]) -> Turn:
    """The turn's facts from their JSON form."""
    return Turn(d["draw_kind"], d["after_pong"], d["kong"], d["kongs"], d["drew_last"], d["first"], d["dihu"])


def seat_from(d: dict[str, Any], tile_set: TileSet) -> SeatState:
    """A seat's private part from its JSON form."""
    hand = bytearray(NUM_KINDS)
    for t in parse_tiles(d["hand"]):
        hand[t] += 1
    ex = d["exchange"]
    exchange = None
    if ex is not None:
        a, b, c = parse_tiles(ex)
        exchange = (a, b, c)
    opts = d["claim_options"]
    return SeatState(
        hand=hand,
        drawn=None if d["drawn"] is None else parse_tile(d["drawn"]),
        exchange=exchange,
        void=d["void"],
        claim_options=None if opts is None else [action_from_json(a, tile_set) for a in opts],
        claim=None if d["claim"] is None else action_from_json(d["claim"], tile_set),
        banned=set(parse_tiles(d["banned"])),
        pong_ban=set(parse_tiles(d["pong_ban"])),
        bar=d["bar"],
        late_pongs=set(parse_tiles(d["late_pongs"])),
        locked_waits=None if d["locked_waits"] is None else parse_tiles(d["locked_waits"]),
        live_draws=d["live_draws"],
    )
