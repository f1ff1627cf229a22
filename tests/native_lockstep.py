"""The compiled reducer (``chuanma._core.Hand``) and the Python :class:`Game` side by side: the
events of both in one comparable form, and one random hand played in both at once."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any, get_args

from chuanma import _core
from chuanma.analysis import shanten
from chuanma.engine.actions import Exchange, action_from_json
from chuanma.engine.event_types import EndReason
from chuanma.engine.events import Event
from chuanma.engine.indices import HU_AT, PONG_AT, from_index, to_index
from chuanma.engine.ledger import Reason, Win
from chuanma.engine.state import DIRECTIONS, Direction, HandState
from chuanma.melds import KONG_KINDS, MELD_KINDS
from chuanma.rules import RuleSet
from chuanma.scoring import FANS, SITUATIONS, score_options
from chuanma.tiles import SUITS, parse_tile, parse_tiles
from reference_engine.game import Game

EVENT_TYPES = ("start", "deal", "deal_done", "exchange_chosen", "exchange", "exchange_received", "void_chosen",
               "voids", "draw", "discard", "claim", "pong", "chow", "kong", "kong_declared", "kong_robbed", "hu",
               "payment", "leave", "exhausted", "end")
"""The compiled events' type codes (src/native/events.hpp), in order."""
PHASES = ("exchange", "void", "turn", "claim", "rob", "draw", "end")
"""The compiled reducer's phases by number."""
END_REASONS = get_args(EndReason)
REASONS = get_args(Reason)

FAN_IDS = list(FANS)
"""Every fan by its index in the compiled scoring."""

CompactEvent = tuple[int, int, int, int, int, int, int]


def mask(tiles: list[int]) -> int:
    return sum(1 << t for t in tiles)


def seats_mask(flags: list[bool]) -> int:
    return sum(1 << s for s, on in enumerate(flags) if on)


def leaning(rng: random.Random, hand: _core.Hand, seat: int, legal: list[int], void: str | None) -> int:
    """One of the seat's ``legal`` actions, leaning: one that wins, claims and discards towards a
    win often enough to reach every rule (``void``: the seat's void suit)."""
    if HU_AT in legal and rng.random() < 0.85:
        return HU_AT
    claims = [a for a in legal if PONG_AT <= a < HU_AT]
    if claims and rng.random() < 0.6:
        return rng.choice(claims)
    discards = [a for a in legal if a < PONG_AT]
    if len(discards) > 1 and rng.random() < 0.8:
        counts = bytearray(hand.counts(seat))

        def after(t: int) -> int:
            counts[t] -= 1
            value = shanten(counts, void)
            counts[t] += 1
            return value

        return min(discards, key=after)
    return rng.choice(legal)


def exchange_index(text: str) -> int:
    a, b, c = sorted(parse_tiles(text))
    return to_index(Exchange((a, b, c)))


def compact(ev: Event, rules: RuleSet) -> CompactEvent:
    """A Python event in the compiled reducer's form."""
    d = {**ev.data, **ev.private}
    kind = ev.type
    tile = parse_tile(d["tile"]) if "tile" in d and kind not in ("exchange_chosen", "exchange_received") else -1
    frm = d.get("from")
    a = b = value = 0
    if kind == "start":
        a, b = d["dealer"], d["wall"]
    elif kind in ("deal_done", "draw", "discard", "leave"):
        a = d["wall"]
        b = int(d.get("replacement", False)) | int(d.get("last_four", False)) << 1 | int(d.get("automatic", False))
    elif kind in ("exchange_chosen", "exchange_received"):
        a = exchange_index(d["tiles"])
    elif kind == "exchange":
        a = DIRECTIONS[d["direction"]]
    elif kind == "void_chosen":
        a, b = SUITS.index(d["suit"]), int(d.get("automatic", False))
    elif kind == "voids":
        a = sum(SUITS.index(v) << 2 * s for s, v in enumerate(d["voids"]))
    elif kind == "claim":
        a = to_index(action_from_json(d["claim"], rules.tiles))
    elif kind == "chow":
        a = parse_tile(d["claimed"])
    elif kind == "kong":
        a, b = KONG_KINDS.index(d["kind"]), int(d.get("late", False))
    elif kind == "hu":
        a = sum(1 << SITUATIONS.index(x) for x in d["situations"])
        a |= d["robbed_kong"] << 16 | d.get("forced", False) << 17
        b, value = d["total"], mask(parse_tiles(d["waits"]))
    elif kind == "payment":
        frm, a, b, value = d["payer"], d["payee"] | REASONS.index(d["reason"]) << 4, d["for"], d["amount"]
    elif kind == "exhausted":
        a = seats_mask(d["part"]) | seats_mask(d["pig"]) << 4 | seats_mask(d["ready"]) << 8
        b, value = int("fan" in d), sum(0 if f is None else f + 1 << 8 * s for s, f in enumerate(d.get("fan", [])))
    elif kind == "end":
        a, b = END_REASONS.index(d["reason"]), seats_mask(d["pig"])
    return (EVENT_TYPES.index(kind), -1 if ev.seat is None else ev.seat, tile, -1 if frm is None else frm, a, b, value)


def win_tuple(w: Win) -> tuple[int, int, int, bool, int, int, list[tuple[int, int]], int]:
    """A win as the compiled reducer lists it."""
    return (w.seat, w.tile, -1 if w.from_seat is None else w.from_seat, w.robbed,
            sum(1 << SITUATIONS.index(x) for x in w.situations), w.total,
            [(FAN_IDS.index(fan_id), value) for fan_id, _, value in w.fans], w.seq)


def native_rules(rules: RuleSet) -> _core.Rules:
    """The compiled reducer's rules: the options and what the fan scoring reads of them."""
    return _core.Rules(rules, score_options(rules))


def unvalidated(rules: RuleSet, **options: Any) -> RuleSet:
    """``rules`` with ``options`` changed, not validated: a rule set RuleSet itself refuses, for the
    core to be shown it refuses it too."""
    return RuleSet.model_construct(**{**rules.model_dump(), **options})


def melds_of(game: Game, seat: int) -> list[tuple[int, int, int]]:
    return [(MELD_KINDS.index(m.kind), m.tile, KONG_KINDS.index(m.kong) if m.kong else 0)
            for m in game.state.public.melds[seat]]


class Lockstep:
    """One random hand in both machines: ``step`` applies one random decision to both, after
    checking that they agree on everything compared."""

    def __init__(self, rules: RuleSet, seed: int, *, lean: bool = False, wall: list[int] | None = None,
                 script: Sequence[int] = (), leave: float = 0.0, pass_pending: float = 0.0) -> None:
        """A hand on a wall shuffled by ``seed`` (or ``wall``, dealt by seat 0 to the next seat);
        ``lean``: the leaning policy; ``script``: actions taken first, each as soon as a seat to act
        may take it; ``leave``: the chance, at each step, that a winner still at the table
        leaves it (a quarter of it: any seat still there) instead; ``pass_pending``: the chance,
        at each step in a claim window, that every seat still owing an answer passes at once."""
        self.rules = rules
        self.lean = lean
        self.leave = leave
        self.pass_pending = pass_pending
        self.script = list(script)
        self.rng = random.Random(seed)
        direction: Direction = "to_next"
        if wall is None:
            wall = rules.tiles.wall()
            self.rng.shuffle(wall)
            direction = self.rng.choice(get_args(Direction))
            self.game = Game(rules, wall, self.rng.randrange(4), direction)
        else:
            self.game = Game(rules, wall, 0, direction)
        self.hand = _core.Hand(native_rules(rules), self.game.wall, self.game.dealer, DIRECTIONS[direction])
        self.steps = 0

    def events(self) -> list[CompactEvent]:
        return [compact(ev, self.rules) for ev in self.game.events]

    def check(self) -> None:
        """Both machines agree: the seats to act, every seat's legal actions, the events, the
        concealed tiles and the melds."""
        g, h = self.game, self.hand
        assert tuple(g.to_act()) == h.to_act(), self.where()
        for s in range(4):
            assert sorted(map(to_index, g.legal_actions(s))) == sorted(h.legal(s)), self.where(s)
            assert bytes(g.state.seats[s].hand) == h.counts(s), self.where(s)
            assert melds_of(g, s) == h.melds(s), self.where(s)
        assert PHASES.index(g.phase) == h.phase and g.remaining == h.remaining, self.where()
        assert g.version == h.version, self.where()
        assert [g.asked(s) for s in range(4)] == [None if a < 0 else a for a in map(h.asked, range(4))], self.where()
        assert self.events() == h.events(), self.where()
        assert g.deltas() == h.deltas(), self.where()
        assert [win_tuple(w) for w in g.wins] == h.wins(), self.where()
        assert g.finished == h.finished
        assert [(s, to_index(a)) for s, a in g.autos] == h.autos(), self.where()

    def check_state(self, *, events: bool = True) -> None:
        """Both machines give the same whole state in its JSON form (without ``events``: but for
        the events, which once logged never change)."""
        states = [self.game.state.to_dict(), self.hand.to_dict()]
        if not events:
            for state in states:
                del state["events"]
        python, core = (json.dumps(d, sort_keys=True) for d in states)
        assert python == core, self.where()

    def read_back(self, *, from_core: bool = False) -> None:
        """Both machines resumed from the state's JSON text (the Python one's, or with ``from_core``
        the compiled one's)."""
        text = json.dumps(self.hand.to_dict() if from_core else self.game.state.to_dict())
        self.game = Game.from_state(HandState.from_dict(json.loads(text)))
        self.hand = _core.Hand.from_dict(json.loads(text))

    def where(self, seat: int | None = None) -> str:
        return f"step {self.steps}, seat {seat}, phase {self.game.phase}, {self.rules.describe()}"

    def step(self) -> None:
        self.check()
        pub = self.game.state.public
        here = [s for s in range(4) if not pub.left[s]]
        winners = [s for s in here if any(w.seat == s for w in pub.wins)]
        leaver = (self.rng.choice(winners) if winners and self.rng.random() < self.leave
                  else self.rng.choice(here) if self.rng.random() < self.leave / 4 else None)
        if self.pass_pending and self.game.phase in ("claim", "rob") and self.rng.random() < self.pass_pending:
            self.game.pass_pending()
            self.hand.pass_pending()
            self.steps += 1
            return
        if leaver is not None:
            seat = leaver
            self.game.leave(seat)
            self.hand.leave(seat)
            self.steps += 1
            return
        to_act = self.hand.to_act()
        scripted = [s for s in to_act if self.script and self.script[0] in self.hand.legal(s)]
        if scripted:
            seat, action = scripted[0], self.script.pop(0)
        else:
            seat = self.rng.choice(to_act)
            action = self.choose(seat, sorted(self.hand.legal(seat)))
        self.game.apply(seat, from_index(action))
        self.hand.apply(seat, action)
        self.steps += 1

    def choose(self, seat: int, legal: list[int]) -> int:
        """A uniform choice; leaning, :func:`leaning`'s."""
        if self.lean:
            return leaning(self.rng, self.hand, seat, legal, self.game.state.seats[seat].void)
        return self.rng.choice(legal)

    def play(self) -> dict[str, Any]:
        """Play to the end; the end's standing waits compared too. Returns what the hand reached."""
        while not self.game.finished:
            self.step()
        self.check()
        end = self.game.events[-1].data
        for s in range(4):
            shown = end["waits"][s]
            assert (-1 if shown is None else mask(parse_tiles(shown))) == self.hand.standing_waits(s), self.where(s)
        assert self.game.next_dealer() == self.hand.next_dealer(), self.where()
        assert not self.script, f"scripted actions never legal: {self.script}"
        return {"reason": end["reason"], "types": {ev.type for ev in self.game.events}, "steps": self.steps}
