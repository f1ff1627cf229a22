"""The compiled seat view (``chuanma._core.Hand.view``, read by :func:`chuanma.engine.views.seat_view`)
against the Python redaction (the reference's ``redact``): random hands of every preset (and
of the option overrides of the reducer's lockstep) played in both machines at once
(:class:`~native_lockstep.Lockstep`); at every step, and at the end, each seat's and a spectator's
view of the compiled hand equals ``redact`` of the hand's state read back from the compiled one's JSON
form. And the compiled view does not change when what the viewer may not know does: another seat's
concealed tile swapped with a tile of the live wall, the live wall reordered, or in 定缺 another
seat's secret void changed; nor when the hand is resumed from its JSON form mid-hand.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from chuanma import _core
from chuanma.engine.indices import from_index
from chuanma.engine.state import HandState
from chuanma.engine.views import SeatView, seat_view
from chuanma.rules import PRESETS, RuleSet
from chuanma.tiles import SUITS, format_tiles, parse_tiles, to_counts
from native_lockstep import Lockstep
from reference_engine.views import redact
from test_native_reducer import OVERRIDES, RARE, SETUPS

CASES: list[tuple[str, dict[str, Any]]] = [(name, {}) for name in PRESETS] + OVERRIDES
VIEWERS: tuple[int | None, ...] = (0, 1, 2, 3, None)
SWAP_EVERY = 5
"""Steps between two checks of swapped secrets (each reads the state back several times)."""
RESUME_AT = 20
"""The step at which the hand is resumed from its JSON form."""


def views_agree(lockstep: Lockstep) -> list[SeatView]:
    """Every viewer's compiled view equals the Python redaction of the same state; returns them."""
    hand, rules = lockstep.hand, lockstep.rules
    state = HandState.from_dict(hand.to_dict())
    views = []
    for seat in VIEWERS:
        legal = [] if seat is None else [from_index(a) for a in hand.legal(seat)]
        view = seat_view(hand, seat, rules, legal)
        assert view == redact(state, seat, legal), lockstep.where(seat)
        views.append(view)
    return views


def private_tiles(data: dict[str, Any], seat: int) -> list[int]:
    """The seat's concealed tiles (in a state's JSON form) that no win of it laid open."""
    laid = [0] * 34
    for w in data["public"]["wins"]:
        if w["seat"] == seat:
            laid = to_counts(parse_tiles(w["hand"]), limit=4)
    held = to_counts(parse_tiles(data["seats"][seat]["hand"]), limit=4)
    return [t for t in range(34) if held[t] > laid[t]]


def with_secret_changed(data: dict[str, Any], other: int, rng: random.Random) -> bool:
    """Change in ``data`` (a state's JSON form) what only ``other`` may know: one of its concealed
    tiles swapped with a live wall tile (and a drawn copy of it in the wall with that tile: the
    wall stays the whole set), the live wall reordered, in 定缺 its void if still secret. False
    when there is nothing to change."""
    pub, seat, wall = data["public"], data["seats"][other], data["hidden"]["wall"]
    tiles = private_tiles(data, other)
    if not tiles or pub["tail"] < pub["live"]:
        return False
    live = wall[pub["live"]:pub["tail"] + 1]
    at = rng.randrange(len(live))
    tile = rng.choice(tiles)
    given = live[at]
    held = parse_tiles(seat["hand"])
    held[held.index(tile)] = parse_tiles(given)[0]
    seat["hand"] = format_tiles(held)
    live[at] = format_tiles([tile])
    if seat["drawn"] == live[at]:  # the tile drawn this turn is the one given away
        seat["drawn"] = given
    drawn = next(i for i, t in enumerate(wall) if t == live[at] and not pub["live"] <= i <= pub["tail"])
    wall[drawn] = given
    rng.shuffle(live)
    wall[pub["live"]:pub["tail"] + 1] = live
    if pub["phase"] == "void" and not pub["void_chosen"][other]:
        seat["void"] = None if seat["void"] else rng.choice(SUITS)
    return True


def secrets_hidden(lockstep: Lockstep, rng: random.Random) -> int:
    """For each viewer and each other seat, the compiled hand with the other's secrets changed
    (:func:`with_secret_changed`) shows the viewer the view it showed; the other seat itself sees
    the change. Returns the changes checked."""
    hand = lockstep.hand
    checked = 0
    for seat in VIEWERS:
        shown = hand.view(seat)
        for other in range(4):
            data = hand.to_dict()
            if other == seat or not with_secret_changed(data, other, rng):
                continue
            changed = _core.Hand.from_dict(data)
            assert changed.view(seat) == shown, lockstep.where(seat)
            if changed.counts(other) != hand.counts(other):
                assert changed.view(other) != hand.view(other), lockstep.where(other)
            checked += 1
    return checked


def agree_to_the_end(lockstep: Lockstep, seed: int) -> tuple[set[str], int]:
    """Play the hand to its end comparing every viewer's views at every step (and after the
    last), checking changed secrets every few steps and resuming the compiled hand from its JSON
    form once; returns what the views showed (:func:`reached`) and the changes checked."""
    rng = random.Random(seed)
    seen: set[str] = set()
    checked = 0
    while True:
        views = views_agree(lockstep)
        for view in views:
            seen |= reached(view)
        if lockstep.steps % SWAP_EVERY == 0 and not lockstep.game.finished:  # at the end everything is shown
            checked += secrets_hidden(lockstep, rng)
        if lockstep.steps == RESUME_AT:
            lockstep.read_back(from_core=True)
            assert [lockstep.hand.view(seat) for seat in VIEWERS] == [
                _core.Hand.from_dict(lockstep.hand.to_dict()).view(seat) for seat in VIEWERS]
            assert views_agree(lockstep) == views, lockstep.where()
            seen.add("resumed")
        if lockstep.game.finished:
            return seen, checked
        lockstep.step()


def reached(view: SeatView) -> set[str]:
    """The parts of the view that depend on the moment and that it shows."""
    out = {view.phase}
    if view.seat is None:
        out.add("spectator")
    if view.claim is not None and view.claim.kong is not None:
        out.add("claim on a kong's turn")
    if view.claim is not None and view.claim.situations:
        out.add("claim situations")
    if any(k.tile is None for k in view.kongs):
        out.add("hidden kong")
    if view.own is not None and view.own.claim_options:
        out.add("claim options")
    for s, p in enumerate(view.players):
        other = s != view.seat
        out |= {name for name, on in (("shown hand", other and p.hand is not None and not view.finished),
                                      ("win pile", bool(p.win_pile)), ("void known", other and p.void is not None),
                                      ("exchange shown", p.exchange is not None), ("claimed_at", bool(p.claimed_at)),
                                      ("left", p.left), ("locked", p.locked)) if on}
    return out


@pytest.mark.parametrize(("preset", "options"), CASES, ids=[f"{p}-{i}" for i, (p, _) in enumerate(CASES)])
@pytest.mark.parametrize("lean", [False, True], ids=["uniform", "leaning"])
def test_views_agree_and_hide_what_is_hidden(preset: str, options: dict[str, Any], lean: bool) -> None:
    rules = RuleSet.from_preset(preset, **options)
    seen, checked = agree_to_the_end(Lockstep(rules, 0, lean=lean, leave=0.02), 0)
    assert checked > 0
    assert {"turn", "waiting", "end", "spectator", "resumed"} <= seen


def test_views_reach_every_part_that_depends_on_the_moment() -> None:
    """The leaning hands, the rare ones and the set-ups compared show every phase and every part
    of a view that depends on the moment (else the lockstep would compare little)."""
    seen: set[str] = set()
    for preset, seed in (("xuezhan", 3), ("xueliu", 6)):
        seen |= agree_to_the_end(Lockstep(RuleSet.from_preset(preset), seed, lean=True, leave=0.02), seed)[0]
    for preset, seed, _ in RARE[:3]:
        seen |= agree_to_the_end(Lockstep(RuleSet.from_preset(preset), seed, lean=True), seed)[0]
    for wall, script, _, _ in SETUPS.values():
        seen |= agree_to_the_end(Lockstep(RuleSet.from_preset("xuezhan", exchange=False), 0, lean=True, wall=wall,
                                          script=script), 0)[0]
    assert seen >= {"exchange", "void", "turn", "claim", "rob", "waiting", "end", "spectator", "resumed",
                    "claim on a kong's turn", "claim situations", "hidden kong", "claim options", "shown hand",
                    "win pile", "void known", "exchange shown", "claimed_at", "left", "locked"}


def test_a_view_is_of_a_seat_or_a_spectator() -> None:
    hand = Lockstep(RuleSet.from_preset("xuezhan"), 0).hand
    with pytest.raises(ValueError, match="seats are 0-3"):
        hand.view(4)
    assert hand.view(None)[5][0][12] is None  # a spectator sees no concealed tiles
