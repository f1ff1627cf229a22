"""The compiled hand reads a ``chuanma-state/1`` state as untrusted input: anything malformed is
refused with a ``ValueError`` naming the field, never a crash.

The review's reproductions (a fifth seat, an event seat far out of range, a win of seat 9, a
current seat, dealer or tail outside the hand) are refused, also through ``pickle``; so are the
audit's states whose fields each hold but disagree (a robbing flag on a discard's window, a phase
rob with no added kong, a 大众麻将 window whose tile or options no longer match, a claim not among
the options, a seat one tile short). The fuzz
test runs ``tests/fuzz_state.py``'s short fuzz (states of random hands, each copy changed in one
place: refused with a ``ValueError``, or read back as itself and played on), a batch a child
process (with ``faulthandler``), so that a crash fails the test instead of ending the run.
``CHUANMA_STATE_FUZZ=N`` runs N copies a batch instead of the CI's few hundred.
"""

from __future__ import annotations

import copyreg
import io
import json
import os
import pickle
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from chuanma import _core
from chuanma.engine import Game
from chuanma.rules import RuleSet
from fuzz_state import SHORT, game_at

BATCHES = SHORT[0]
COPIES = int(os.environ.get("CHUANMA_STATE_FUZZ", str(SHORT[1])))
"""Changed copies a batch (CI: tests/fuzz_state.py's short fuzz)."""
FUZZ = Path(__file__).with_name("fuzz_state.py")


@pytest.mark.parametrize("batch", range(BATCHES))
def test_mutated_states_are_read_or_refused(batch: int) -> None:
    """Each batch in a child process: a crash there fails the test with its traceback."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-X", "faulthandler", str(FUZZ), str(batch), str(COPIES)],
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


# ------------------------------------------------------------------ the audit's: fields that disagree

def window_state(preset: str) -> dict[str, Any]:
    """The state of a hand of ``preset``, played at random, at its first claim window."""
    for seed in range(100):
        game = Game(RuleSet.from_preset(preset), random_wall(preset, seed), 0, "to_next")
        rng = random.Random(seed)
        while not game.finished:
            data = game.core.to_dict()
            if data["public"]["phase"] == "claim":
                return data
            seat = rng.choice(game.to_act())
            game.apply_index(seat, rng.choice(game.core.legal(seat)))
    raise AssertionError(f"no claim window in {preset}")


def random_wall(preset: str, seed: int) -> list[Any]:
    wall = RuleSet.from_preset(preset).tiles.wall()
    random.Random(seed).shuffle(wall)
    return wall


def asked(data: dict[str, Any]) -> int:
    return next(s for s, seat in enumerate(data["seats"]) if seat["claim_options"])


def test_a_robbing_flag_on_a_discards_window_is_refused() -> None:
    data = window_state("xuezhan")
    data["public"]["claim"]["rob"] = True
    refused(data, r"^state: public.claim.rob is true, but the phase is claim \(a discard's window\)$")


def test_a_robbing_phase_without_an_added_kong_is_refused() -> None:
    data = window_state("xuezhan")
    data["public"]["phase"] = "rob"
    refused(data, r"^state: public.claim.rob is false, but the phase is rob")
    data["public"]["claim"]["rob"] = True
    refused(data, r"^state: public.claim.tile is \w\w, but seat \d has no pong of it to add to$")


def test_a_robbing_window_naming_a_kong_is_refused() -> None:
    data = window_state("xuezhan")
    data["public"]["phase"] = "rob"
    data["public"]["claim"]["rob"] = True
    data["public"]["claim"]["kong"] = 0
    data["public"]["kongs"] = data["public"]["kongs"] or [
        {"seat": 0, "tile": "1m", "kind": "exposed", "seq": 0, "payments": [], "transferred": False}]
    refused(data, r"^state: public.claim.kong is given for an added kong's window")


def test_a_dazhong_window_on_another_tile_is_refused() -> None:
    data = window_state("dazhong")
    claim = data["public"]["claim"]
    claim["tile"] = "9s" if claim["tile"] != "9s" else "1s"
    refused(data, rf"^state: public.claim.tile is {claim['tile']}, but seat {claim['from']}'s last discard is ")


def test_an_option_the_window_does_not_offer_is_refused() -> None:
    data = window_state("dazhong")
    seat = asked(data)
    tile = data["public"]["claim"]["tile"]
    other = "1" + ("p" if tile[1] != "p" else "m")
    data["seats"][seat]["claim_options"] = [{"chow": other}, {"pass": True}]
    message = rf"^state: seats\[{seat}\].claim_options has \{{'chow': '{other}'\}}, which the window on {tile} does not"
    refused(data, message)
    data["seats"][seat]["claim_options"] = [{"pong": tile}, {"hu": True}, {"pass": True}]
    with pytest.raises(ValueError, match=rf"^state: seats\[{seat}\].claim_options has "):
        _core.Hand.from_dict(data)


def test_a_claim_not_among_the_options_is_refused() -> None:
    data = window_state("xuezhan")
    seat = asked(data)
    data["seats"][seat]["claim"] = {"discard": data["public"]["claim"]["tile"]}
    refused(data, rf"^state: seats\[{seat}\].claim is \{{'discard': '\w\w'\}}, not one of its claim_options$")
    data = window_state("xuezhan")
    data["seats"][data["public"]["claim"]["from"]]["claim_options"] = [{"pass": True}]
    refused(data, r"^state: seats\[\d\].claim_options is given for the window's own seat$")


def test_a_seat_a_tile_short_is_refused() -> None:
    """A tile moved from a hand to its river keeps every tile in one place; the hand could never finish."""
    data = start()
    seat = next(s for s in range(4) if s != data["public"]["current"])
    hand = data["seats"][seat]["hand"]
    digit = hand[0]
    suit = next(c for c in hand if c.isalpha())
    data["seats"][seat]["hand"] = hand[1:] if hand[1].isdigit() else hand[2:]
    data["public"]["discards"][seat] = digit + suit + data["public"]["discards"][seat]
    refused(data, rf"^state: seats\[{seat}\].hand has \d+ tiles beside \d+ melds, 12 in all, not 13$")


def test_options_outside_a_window_are_refused() -> None:
    data = start()
    assert data["public"]["phase"] != "claim"
    data["seats"][1]["claim_options"] = [{"pass": True}]
    refused(data, r"^state: seats\[1\].claim_options is given outside a claim window$")

