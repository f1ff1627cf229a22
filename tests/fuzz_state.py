"""A fuzz of the compiled hand's state reader: genuine states of random hands at random steps, each
copy changed in one place (a wrong type, a number out of range, an entry added or dropped, a key
deleted, a huge or negative number, bad tile text, or the same field of another genuine state),
fed to ``_core.Hand.from_dict`` (and to ``Game.from_state`` of what ``HandState.from_dict`` makes
of it). A copy is refused with a ``ValueError`` or read, and a hand read plays on: every seat's
legal actions and view, and random legal actions to the end; nothing may crash (run it under
``scripts/sanitize`` to catch a read out of bounds as well).

    python tests/fuzz_state.py SEED COUNT     one batch of COUNT copies, its counts as JSON
    python tests/fuzz_state.py [--long]       a short fuzz (4 batches of 300), or a long one (40 of 2000)

tests/test_native_state_input.py runs the short one, a batch a child process.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
from collections.abc import Iterator
from typing import Any

from chuanma import _core
from chuanma.engine import Game
from chuanma.engine.state import HandState
from chuanma.rules import PRESETS, RuleSet

SHORT = (4, 300)
LONG = (40, 2000)
"""Batches and copies a batch."""
PLAYED = 60
"""Decisions at most that a hand read from a changed copy plays on."""
ODD_VALUES: list[Any] = [
    None, True, False, 1.5, "x", "", "0m", "9z", "1m", "5p5p", "1m2", -1, 4, 40, 1_000_000, 2**40, 2**70,
    -(2**70), [], {}, [None] * 5, ["1m"],
]


def game_at(seed: int) -> Game:
    """A game of a random preset played with random legal actions to a random step."""
    rng = random.Random(seed)
    rules = RuleSet.from_preset(rng.choice(sorted(PRESETS)))
    wall = rules.tiles.wall()
    rng.shuffle(wall)
    game = Game(rules, wall, rng.randrange(4), "to_next")
    for _ in range(rng.randrange(200)):
        if game.finished:
            break
        seat = rng.choice(game.to_act())
        game.apply_index(seat, rng.choice(game.core.legal(seat)))
    return game


def places(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every value in a JSON tree (the root's excepted)."""
    if path:
        yield path
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        yield from places(value, (*path, key))


def value_at(node: Any, path: tuple[Any, ...]) -> tuple[bool, Any]:
    """Whether ``node`` has a value at ``path``, and that value."""
    for key in path:
        in_list = isinstance(node, list) and isinstance(key, int) and key < len(node)
        if in_list or (isinstance(node, dict) and key in node):
            node = node[key]
        else:
            return False, None
    return True, node


def mutated(data: dict[str, Any], rng: random.Random,
            other: dict[str, Any] | None = None) -> tuple[dict[str, Any], str]:
    """A copy of ``data`` with one thing changed (perhaps to what ``other`` holds there), and what was
    changed."""
    out = json.loads(json.dumps(data))
    path = rng.choice(list(places(out)))
    parent = out
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    value = parent[key]
    choices: list[tuple[str, Any]] = [("odd", v) for v in ODD_VALUES]
    if isinstance(value, int) and not isinstance(value, bool):
        choices += [("number", value + d) for d in (1, -1, 4, -value - 1, value * 1000 + 5)]
    if isinstance(value, bool):
        choices += [("flip", not value)] * 4
    if isinstance(value, str):
        choices += [("text", value + "1m"), ("text", value[:-1]), ("text", value + "9"), ("text", value * 2)]
    if isinstance(value, list):
        choices += [("append", None), ("pop", None), ("duplicate", None)]
    if isinstance(parent, dict):
        choices.append(("delete", None))
    found, theirs = value_at(other, path) if other is not None else (False, None)
    if found and theirs != value:
        choices += [("other", copy.deepcopy(theirs))] * 4
    how, new = rng.choice(choices)
    if how == "append":
        value.append(copy.deepcopy(value[-1]) if value else None)
    elif how == "pop":
        if value:
            value.pop()
        else:
            value.append(0)
    elif how == "duplicate":
        value.insert(0, copy.deepcopy(value[0]) if value else "1m")
    elif how == "delete":
        del parent[key]
    else:
        parent[key] = new
    return out, f"{how} {'/'.join(map(str, path))} {new!r}"[:120]


def played_on(hand: _core.Hand, rng: random.Random) -> None:
    """The hand's legal actions and views, then random legal actions until it ends (at most
    :data:`PLAYED` of them)."""
    for _ in range(PLAYED):
        for seat in range(4):
            hand.legal(seat)
            hand.view(seat)
        seats = hand.to_act()
        if hand.finished or not seats:
            return
        seat = rng.choice(seats)
        hand.apply(seat, rng.choice(hand.legal(seat)))
    hand.to_dict()


def read_or_refused(data: dict[str, Any], what: str, rng: random.Random) -> bool:
    """True when the compiled hand reads ``data`` (its own state of it reads back the same, and it
    plays on), False when it refuses it with a ValueError."""
    try:
        hand = _core.Hand.from_dict(data)
    except ValueError:
        return False
    again = hand.to_dict()
    assert _core.Hand.from_dict(again).to_dict() == again, what
    try:
        played_on(hand, rng)
    except ValueError as e:  # a count leaving 0-4: parts that disagree, which the reader let through
        raise AssertionError(f"{what}: {e}") from e
    return True


def game_read_or_refused(data: dict[str, Any], what: str) -> bool | None:
    """:func:`read_or_refused` through ``Game.from_state`` of ``HandState.from_dict``, which checks
    the format only and raises what it meets (None: it did not make a state of it)."""
    try:
        state = HandState.from_dict(data)
        state.to_dict()
    except Exception:  # the Python reader is not meant for untrusted input: anything may stop it
        return None
    try:
        game = Game.from_state(state)
    except ValueError:
        return False
    assert game.state.to_dict() == game.core.to_dict(), what
    return True


def fuzz(seed: int, count: int) -> dict[str, int]:
    """Read ``count`` changed copies of states of random hands; counts of what happened."""
    rng = random.Random(seed)
    seen = {"read": 0, "refused": 0, "game_read": 0, "game_refused": 0}
    data = game_at(seed).core.to_dict()
    other = game_at(seed + 1).core.to_dict()
    for i in range(count):
        if i % 50 == 0:
            data, other = other, game_at(rng.randrange(10**6)).core.to_dict()
        copy_, what = mutated(data, rng, other)
        seen["read" if read_or_refused(copy_, what, rng) else "refused"] += 1
        through_game = game_read_or_refused(copy_, what)
        if through_game is not None:
            seen["game_read" if through_game else "game_refused"] += 1
    return seen


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description="Fuzz the compiled hand's state reader.")
    parser.add_argument("seed", type=int, nargs="?", help="one batch from this seed")
    parser.add_argument("count", type=int, nargs="?", default=SHORT[1], help="copies in that batch")
    parser.add_argument("--long", action="store_true", help=f"{LONG[0]} batches of {LONG[1]}")
    args = parser.parse_args(argv)
    if args.seed is not None:
        print(json.dumps(fuzz(args.seed, args.count)))
        return
    batches, count = LONG if args.long else SHORT
    total: dict[str, int] = {}
    for batch in range(batches):
        for key, n in fuzz(batch, count).items():
            total[key] = total.get(key, 0) + n
    print(json.dumps(total))


if __name__ == "__main__":
    main(sys.argv[1:])
