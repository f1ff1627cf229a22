"""Worked examples for the rules pages, played through the engine when they are asked for.

Each example is a scripted hand: the four starting hands, the wall's draws and kong replacements,
the decisions in order, and, where the example needs the end of the hand, the rest played out by
:class:`DrawnTileDiscarder` (every seat throws what it draws, passes every claim and wins when
it can). What the page shows — the events, a refused decision and its reason, the payments, the
result — is what :class:`chuanma.engine.Game` did.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from chuanma.engine import (
    Action,
    Direction,
    Discard,
    Game,
    Hu,
    IllegalActionError,
    Pass,
    action_from_json,
    build_wall,
    format_counts,
    to_record,
)
from chuanma.rules import RuleSet

MAX_DECISIONS = 1000


class DrawnTileDiscarder:
    """Plays out a scripted hand: wins whenever it may, else discards the tile it drew (its first
    legal discard after a pong), and passes every claim."""

    def choose(self, game: Game, seat: int) -> Action:
        legal = game.legal_actions(seat)
        if Hu() in legal:
            return Hu()
        drawn = game.open_seat(seat).drawn
        if drawn is not None and Discard(drawn) in legal:
            return Discard(drawn)
        return next((a for a in legal if isinstance(a, Discard)), Pass() if Pass() in legal else legal[0])


@dataclass(frozen=True, slots=True)
class Example:
    """A scripted hand: ``decisions`` as in a record (``{"seat": 0, "discard": "5s"}``); a decision
    marked ``"refused": true`` is one the engine must refuse (its reason is shown)."""

    id: str
    topics: tuple[str, ...]
    preset: str
    hands: tuple[str, str, str, str]
    decisions: tuple[dict[str, Any], ...]
    draws: str = ""
    replacements: str = ""
    direction: Direction = "to_next"
    options: dict[str, Any] = field(default_factory=dict)
    play_out: bool = False


# 换三张 and 定缺: seat 2 holds two suits only, so its void (筒) is automatic.
SETUP_HANDS = ("1111234m567p99p58s", "9m12555p2346789s", "234567m3456789s", "777888m678p1234s")
# 一炮多响 and 呼叫转移: seat 0 konges 9s, then must discard its void 5p, on which seats 1, 2, 3 all wait.
MULTI_HANDS = ("123m456m789m9999s5p", "234567s345678s5p", "111222333m789m5p", "444555666m123p5p")
# 明杠: seat 0 throws its void 5s first; seat 1 holds three 5s.
CLAIM_HANDS = ("123456789m112p59s", "1234567m555666s", "3456789p22334s8m", "11223344m99p777s")
# The wall runs out: seat 0 has a concealed kong and is not waiting, seat 1 is a flower pig,
# seat 2 waits on 9p / 3s (all copies held by others), seat 3 is not waiting.
EXHAUST_HANDS = ("1111s13579m35799s", "22244466688m1p2s", "234567p888p99p33s", "11567p99p234s689s")
# Seat 1 pongs seat 0's 7p and later adds the fourth 7p; seat 2 waits on 4p 7p and robs it.
ROB_HANDS = ("456m789m789m1111s7p", "77p11p234s345s567s", "111222333m88p5p9s", "444555666m3578s")
ROB_DECISIONS = ({"seat": 0, "void": "p"}, {"seat": 2, "void": "s"}, {"seat": 0, "discard": "7p"},
                 {"seat": 1, "pong": "7p"}, {"seat": 1, "discard": "2s"}, {"seat": 2, "discard": "9s"},
                 {"seat": 3, "discard": "2p"}, {"seat": 0, "discard": "9m"}, {"seat": 1, "kong": "7p"},
                 {"seat": 2, "hu": True})

EXAMPLES: dict[str, Example] = {e.id: e for e in (
    Example("exchange", ("exchange",), "xuezhan", SETUP_HANDS, (
        {"seat": 0, "exchange": "567p"}, {"seat": 1, "exchange": "234s"},
        {"seat": 2, "exchange": "234m"}, {"seat": 3, "exchange": "777m"}),
        direction="opposite", options={"exchange": True}),
    Example("void", ("void",), "xuezhan", SETUP_HANDS, (
        {"seat": 0, "void": "s"}, {"seat": 1, "void": "m"}, {"seat": 3, "void": "p"},
        {"seat": 0, "discard": "2m", "refused": True}, {"seat": 0, "discard": "5s"})),
    Example("concealed_kong", ("kongs",), "xuezhan", SETUP_HANDS, (
        {"seat": 0, "void": "s"}, {"seat": 1, "void": "m"}, {"seat": 3, "void": "p"},
        {"seat": 0, "kong": "1m"}), draws="9m", replacements="6s"),
    Example("exposed_kong", ("kongs",), "xuezhan", CLAIM_HANDS, (
        {"seat": 0, "void": "s"}, {"seat": 2, "void": "m"}, {"seat": 3, "void": "p"},
        {"seat": 0, "discard": "5s"}, {"seat": 1, "kong": "5s"}), replacements="9p"),
    Example("added_kong", ("kongs",), "xuezhan", ROB_HANDS, (*ROB_DECISIONS[:-1], {"seat": 2, "pass": True}),
            draws="6p2p9m7p", replacements="3p"),
    Example("call_transfer", ("call_transfer", "kongs"), "xuezhan", MULTI_HANDS, (
        {"seat": 0, "void": "p"}, {"seat": 0, "kong": "9s"}, {"seat": 0, "discard": "5p"},
        {"seat": 3, "hu": True}, {"seat": 1, "hu": True}, {"seat": 2, "hu": True}), replacements="9m"),
    Example("exhaustive_draw", ("flower_pig", "chadajiao", "refund"), "xuezhan", EXHAUST_HANDS, (
        {"seat": 1, "void": "m"}, {"seat": 0, "kong": "1s"}), play_out=True),
    Example("xuezhan", ("xuezhan_xueliu",), "xuezhan", ROB_HANDS, ROB_DECISIONS,
            draws="6p2p9m7p" + "2p3p2m9p" + "9s3p3m1m" + "3p", replacements="3p4p", play_out=True),
    Example("xueliu", ("xuezhan_xueliu",), "xueliu", ROB_HANDS, ROB_DECISIONS,
            draws="6p2p9m7p" + "2p3p2m9p" + "9s3p3m1m" + "3p", replacements="3p4p", play_out=True),
)}
"""Every worked example by id."""

TOPICS = ("exchange", "void", "kongs", "call_transfer", "flower_pig", "chadajiao", "refund", "xuezhan_xueliu")
"""The rules pages, each with the examples whose ``topics`` name it."""


def _hands(game: Game) -> list[str]:
    return [format_counts(game.open_seat(s).hand) for s in range(4)]


def run(example: Example) -> dict[str, Any]:
    """Play ``example`` through the engine: its steps (each decision with the events it caused,
    or the engine's reason for refusing it), the hands before and after, payments and result."""
    rules = RuleSet.from_preset(example.preset, **{"exchange": False, **example.options})
    wall = build_wall(example.hands, example.draws, example.replacements)
    game = Game(rules, wall, 0, example.direction)
    before = _hands(game)
    steps: list[dict[str, Any]] = [{"decision": None, "events": [e.to_json() for e in game.events]}]
    for d in example.decisions:
        mark = len(game.events)
        move = {k: v for k, v in d.items() if k != "refused"}
        try:
            game.apply(d["seat"], action_from_json(move, rules.tiles))
        except IllegalActionError as exc:
            if not d.get("refused"):
                raise
            steps.append({"decision": move, "refused": str(exc)})
            continue
        if d.get("refused"):
            raise AssertionError(f"example {example.id}: the engine accepted {move}")
        steps.append({"decision": move, "events": [e.to_json() for e in game.events[mark:]]})
    if example.play_out:
        mark = len(game.events)
        _play_out(game, DrawnTileDiscarder())
        steps.append({"decision": "play_out", "events": [e.to_json() for e in game.events[mark:]]})
    return {
        "id": example.id, "topics": list(example.topics), "rules": rules.to_json(), "dealer": 0,
        "hands": before, "steps": steps, "hands_after": _hands(game),
        "melds": [[m.to_dict() for m in game.open_seat(s).melds] for s in range(4)],
        "voids": [game.open_seat(s).void for s in range(4)],
        "wins": [w.to_json() for w in game.wins],
        "payments": [p.to_json() for p in game.ledger], "deltas": game.deltas(),
        "finished": game.finished, "record": to_record(game),
    }


def _play_out(game: Game, player: DrawnTileDiscarder) -> None:
    for _ in range(MAX_DECISIONS):
        if game.finished:
            return
        seat = game.to_act()[0]
        game.apply(seat, player.choose(game, seat))
    raise AssertionError("a scripted hand did not finish")


@cache
def topic(name: str) -> dict[str, Any]:
    """The worked examples of the rules page ``name`` (one of :data:`TOPICS`), computed once."""
    if name not in TOPICS:
        raise KeyError(name)
    return {"topic": name, "examples": [run(e) for e in EXAMPLES.values() if name in e.topics]}


def example_ids(topics: Sequence[str] = TOPICS) -> list[str]:
    """The ids of the examples of ``topics``."""
    return [e.id for e in EXAMPLES.values() if set(e.topics) & set(topics)]
