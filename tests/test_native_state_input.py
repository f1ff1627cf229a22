"""The compiled hand reads a ``chuanma-state/1`` state as untrusted input: anything malformed is
refused with a ``ValueError`` naming the field, never a crash.

The review's reproductions (a fifth seat, an event seat far out of range, a win of seat 9, a
current seat, dealer or tail outside the hand) are refused, also through ``pickle``. The fuzz
test takes the states of random hands at random steps, changes one thing in each copy (a wrong
type, a number out of range, an entry added or dropped, a key deleted, a huge or negative number,
bad tile text) and checks that ``_core.Hand.from_dict`` either refuses it with a ``ValueError`` or
gives a hand whose own state reads back the same; and that ``Game.from_state`` of what
``HandState.from_dict`` makes of the copy does likewise. It runs in a child process per batch
(with ``faulthandler``), so that a crash fails the test instead of ending the run.
``CHUANMA_STATE_FUZZ=N`` runs N copies a batch instead of the CI's few hundred.

Run as a script (``python tests/test_native_state_input.py SEED COUNT``) it fuzzes one batch and
prints what it saw as JSON.
"""

from __future__ import annotations

import copy
import copyreg
import io
import json
import os
import pickle
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from chuanma import _core
from chuanma.engine import Game
from chuanma.engine.state import HandState
from chuanma.rules import PRESETS, RuleSet

BATCHES = 4
COPIES = int(os.environ.get("CHUANMA_STATE_FUZZ", "300"))
"""Mutated copies a batch (CI: 300)."""
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


def mutated(data: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str]:
    """A copy of ``data`` with one thing changed, and what was changed."""
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
    if isinstance(value, str):
        choices += [("text", value + "1m"), ("text", value[:-1]), ("text", value + "9"), ("text", value * 2)]
    if isinstance(value, list):
        choices += [("append", None), ("pop", None), ("duplicate", None)]
    if isinstance(parent, dict):
        choices.append(("delete", None))
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


def read_or_refused(data: dict[str, Any], what: str) -> bool:
    """True when the compiled hand reads ``data`` (and its own state of it reads back the same),
    False when it refuses it with a ValueError."""
    try:
        hand = _core.Hand.from_dict(data)
    except ValueError:
        return False
    again = hand.to_dict()
    assert _core.Hand.from_dict(again).to_dict() == again, what
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
    """Read ``count`` mutated copies of states of random hands; counts of what happened."""
    rng = random.Random(seed)
    seen = {"read": 0, "refused": 0, "game_read": 0, "game_refused": 0}
    data = game_at(seed).core.to_dict()
    for i in range(count):
        if i % 50 == 0:
            data = game_at(rng.randrange(10**6)).core.to_dict()
        copy_, what = mutated(data, rng)
        seen["read" if read_or_refused(copy_, what) else "refused"] += 1
        through_game = game_read_or_refused(copy_, what)
        if through_game is not None:
            seen["game_read" if through_game else "game_refused"] += 1
    return seen


@pytest.mark.parametrize("batch", range(BATCHES))
def test_mutated_states_are_read_or_refused(batch: int) -> None:
    """Each batch in a child process: a crash there fails the test with its traceback."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-X", "faulthandler", __file__, str(batch), str(COPIES)],
                          capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    seen = json.loads(done.stdout)
    assert seen["read"] + seen["refused"] == COPIES
    # most single changes break the state; some (a flag flipped, a count moved) leave a valid one
    assert seen["refused"] > COPIES // 2 and seen["read"] > 0, seen
    assert seen["game_refused"] > 0 and seen["game_read"] > 0, seen


# ------------------------------------------------------------------ the review's reproductions

def start() -> dict[str, Any]:
    return game_at(3).core.to_dict()


def refused(data: dict[str, Any], message: str) -> None:
    """Both ``Hand.from_dict`` and unpickling a hand of that state refuse ``data`` with ``message``."""
    with pytest.raises(ValueError, match=message):
        _core.Hand.from_dict(data)
    with pytest.raises(ValueError, match=message):
        pickle.loads(pickled_with(game_at(0).core, lambda _: data))


def pickled_with(obj: object, change: Callable[[dict[str, Any]], dict[str, Any]]) -> bytes:
    """``obj`` pickled, each compiled hand in it with its state (its pickled form) changed by ``change``."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer)
    pickler.dispatch_table = {
        _core.Hand: lambda hand: (copyreg.__newobj__, (_core.Hand,), change(hand.__getstate__())),  # type: ignore[attr-defined]
    }
    pickler.dump(obj)
    return buffer.getvalue()


def test_a_fifth_seat_is_refused() -> None:
    data = start()
    data["seats"].append(data["seats"][0])
    refused(data, r"^state: seats has 5 entries, a hand has 4$")


def test_an_event_seat_out_of_range_is_refused() -> None:
    data = start()
    deal = next(ev for ev in data["events"] if ev[1] == "deal")
    deal[2] = 1_000_000
    refused(data, rf"^state: events\[{deal[0]}\]\[2\] is 1000000, not 0-3$")


def test_a_win_of_no_seat_is_refused() -> None:
    data = start()
    data["public"]["wins"] = [{"seat": 9}]
    refused(data, r"^state: public.wins\[0\].seat is 9, not 0-3$")


@pytest.mark.parametrize(("field", "value", "message"), [
    ("current", 40, "public.current is 40, not 0-3"),
    ("dealer", -50, "public.dealer is -50, not 0-3"),
    ("tail", 5000, "public.tail is 5000, not"),
    ("live", True, "public.live is not an integer: True"),
    ("version", 1.0, "public.version is not an integer: 1.0"),
    ("phase", "nap", "public.phase is 'nap', not one of exchange, void"),
    ("melds", [[], [], []], "public.melds has 3 entries, a hand has 4"),
])
def test_public_fields_out_of_range_are_refused(field: str, value: object, message: str) -> None:
    data = start()
    data["public"][field] = value
    refused(data, "^state: " + message.replace("[", r"\[").replace("]", r"\]"))


def test_a_wall_of_another_size_is_refused() -> None:
    data = start()
    data["hidden"]["wall"].pop()
    refused(data, r"^state: hidden.wall has \d+ tiles, these rules' wall \d+$")


def test_tiles_outside_the_set_and_a_fifth_copy_are_refused() -> None:
    data = start()
    seat = data["seats"][0]
    seat["hand"] = "1z" + seat["hand"]
    refused(data, r"^state: seats\[0\].hand has 1z, not a tile of this hand's set$")
    seat["hand"] = "11111m"
    refused(data, r"^state: seats\[0\].hand holds more than 4 of 1m$")


def test_a_tile_in_two_places_is_refused() -> None:
    data = start()
    seat = data["seats"][0]
    tile = seat["hand"][:1] + next(c for c in seat["hand"] if c.isalpha())
    data["public"]["discards"][1] += tile
    refused(data, rf"^state: tile {tile} is in 5 places \(the wall from live to tail, hands, melds, rivers, win "
                  r"piles\), not 4$")


def test_a_missing_key_is_named() -> None:
    data = start()
    del data["public"]["turn"]["kongs"]
    refused(data, r"^state: public.turn.kongs is missing$")


def test_seeds_that_are_not_json_are_refused() -> None:
    data = start()
    data["hidden"]["seeds"] = {"wall": {1, 2}}
    refused(data, r"^state: hidden.seeds is not JSON data: ")
    data["hidden"]["seeds"] = [5]
    refused(data, r"^state: hidden.seeds is not an object: \[5\]$")


def test_a_tampered_game_pickle_is_refused() -> None:
    """A pickled Game whose compiled hand's state was changed: unpickling it raises ValueError."""
    game = game_at(5)

    def tamper(data: dict[str, Any]) -> dict[str, Any]:
        data["public"]["current"] = 7
        return data

    with pytest.raises(ValueError, match=r"^state: public.current is 7, not 0-3$"):
        pickle.loads(pickled_with(game, tamper))
    assert pickle.loads(pickled_with(game, lambda data: data)).core.to_dict() == game.core.to_dict()


if __name__ == "__main__":
    print(json.dumps(fuzz(int(sys.argv[1]), int(sys.argv[2]))))
