"""The compiled seat view and encoders (``chuanma._core.Hand.encode_compact``, ``encode_planes``)
against the encoders in Python kept as the reference (:mod:`reference_encoding`): random hands of
every preset (and of the option overrides of the reducer's lockstep) played in both machines at
once (:class:`~native_lockstep.Lockstep`); at every step, each seat's compiled encodings equal
:func:`reference_encoding.compact.encode` and :func:`reference_encoding.planes.encode` of the
Python view of that seat. And neither compiled encoding changes when what the viewer may not know
does: another seat's concealed tile swapped with a tile of the live wall, or in 定缺 its secret
void changed (undecided, or chosen for a hand of two suits), in the compiled state
(``encode_swapped``, ``encode_void_swapped``).
"""

from __future__ import annotations

import random
import sys
from typing import Any

import numpy as np
import pytest

from chuanma import _core
from chuanma.encoding.common import RECENT, kinds_of
from chuanma.encoding.layout import compact_shape, planes_shape
from chuanma.engine import SeatView
from chuanma.rules import PRESETS, RuleSet
from chuanma.tiles import to_counts
from native_lockstep import Lockstep
from reference_encoding import planes
from reference_encoding.compact import encode
from test_native_reducer import OVERRIDES, RARE, SETUPS

CASES = [(name, {}) for name in PRESETS] + OVERRIDES
SEEDS = 4
"""Hands per case and policy."""


Floats = np.ndarray[Any, np.dtype[np.float32]]


def compiled(lockstep: Lockstep, seat: int) -> Floats:
    out = np.empty(compact_shape(kinds_of(lockstep.rules)), dtype=np.float32)
    lockstep.hand.encode_compact(seat, out)
    return out


def compiled_planes(lockstep: Lockstep, seat: int) -> Floats:
    out = np.empty(planes_shape(kinds_of(lockstep.rules)), dtype=np.float32)
    lockstep.hand.encode_planes(seat, out)
    return out


def agree(want: Floats, got: Floats, where: str) -> None:
    bad = [tuple(b) for b in np.argwhere(want != got).tolist()[:8]]
    assert not bad, f"{where}: positions {bad}: {[want[b] for b in bad]} != {[got[b] for b in bad]}"


def private_tiles(lockstep: Lockstep, seat: int) -> list[int]:
    """The seat's concealed tiles that no win of it laid open."""
    st = lockstep.game.state
    laid = [0] * 34
    for w in st.public.wins:
        if w.seat == seat:
            laid = to_counts(list(w.hand), limit=4)
    return [t for t in range(34) if st.seats[seat].hand[t] > laid[t]]


def swaps_agree(lockstep: Lockstep, rng: random.Random) -> int:
    """For each viewer and each other seat, a concealed tile of the other swapped with a live wall
    tile leaves the viewer's compiled encodings (compact and planes) as they were; returns the
    swaps checked."""
    pub = lockstep.game.state.public
    if lockstep.game.finished or pub.tail < pub.live:
        return 0
    checked = 0
    for seat in range(4):
        for plain in (compiled(lockstep, seat), compiled_planes(lockstep, seat)):
            for other in range(4):
                tiles = private_tiles(lockstep, other)
                if other == seat or not tiles:
                    continue
                out = np.empty_like(plain)
                at = rng.randint(pub.live, pub.tail)
                _core.encode_swapped(lockstep.hand, seat, other, rng.choice(tiles), at, out)
                assert np.array_equal(out, plain), lockstep.where(seat)
                checked += 1
                if pub.phase == "void" and not pub.void_chosen[other]:
                    void = lockstep.game.state.seats[other].void
                    _core.encode_void_swapped(lockstep.hand, seat, other, -1 if void else rng.randrange(3), out)
                    assert np.array_equal(out, plain), lockstep.where(seat)
                    checked += 1
    return checked


def agree_to_the_end(lockstep: Lockstep, seed: int) -> int:
    """Play the hand to its end, comparing every seat's encodings at every step (and after the
    last) and checking swaps of what each may not know; returns the swaps checked."""
    rng = random.Random(seed)
    swaps = 0
    while True:
        for seat in range(4):
            view = lockstep.game.view(seat)
            agree(encode(view), compiled(lockstep, seat), f"compact, {lockstep.where(seat)}")
            agree(planes.encode(view), compiled_planes(lockstep, seat), f"planes, {lockstep.where(seat)}")
        swaps += swaps_agree(lockstep, rng)
        if lockstep.game.finished:
            return swaps
        lockstep.step()


@pytest.mark.parametrize(("preset", "options"), CASES, ids=[f"{p}-{i}" for i, (p, _) in enumerate(CASES)])
@pytest.mark.parametrize("lean", [False, True], ids=["uniform", "leaning"])
def test_encodings_agree_and_hide_what_is_hidden(preset: str, options: dict[str, Any], lean: bool) -> None:
    rules = RuleSet.from_preset(preset, **options)
    swaps = sum(agree_to_the_end(Lockstep(rules, seed, lean=lean, leave=0.02), seed) for seed in range(SEEDS))
    assert swaps > 0


@pytest.mark.parametrize(("preset", "seed", "rule"), RARE)
def test_encodings_agree_in_hands_reaching_rare_rules(preset: str, seed: int, rule: str) -> None:
    """Robbed kongs (the rob phase), 呼叫转移, 查花猪, a discard won by several (in the first
    winner's pile)."""
    assert agree_to_the_end(Lockstep(RuleSet.from_preset(preset), seed, lean=True), seed) > 0


@pytest.mark.parametrize("name", list(SETUPS))
@pytest.mark.parametrize("preset", ["xuezhan", "xueliu"])
def test_encodings_agree_in_set_ups(name: str, preset: str) -> None:
    """天胡, 地胡, 一炮多响, concealed kongs (hidden from the others), 杠上炮."""
    wall, script, _, _ = SETUPS[name]
    rules = RuleSet.from_preset(preset, exchange=False)
    agree_to_the_end(Lockstep(rules, 0, lean=True, wall=wall, script=script), 0)


def test_swaps_of_what_the_viewer_knows_are_refused() -> None:
    lockstep = Lockstep(RuleSet.from_preset("xuezhan"), 0)
    out = np.empty(compact_shape(), dtype=np.float32)
    with pytest.raises(ValueError, match="no secret"):
        _core.encode_void_swapped(lockstep.hand, 0, 1, 0, out)
    with pytest.raises(ValueError, match="viewer"):
        _core.encode_swapped(lockstep.hand, 0, 0, private_tiles(lockstep, 0)[0], 60, out)
    with pytest.raises(ValueError, match="concealed tile"):
        _core.encode_swapped(lockstep.hand, 0, 1, 33, 60, out)
    with pytest.raises(ValueError, match="shape"):
        _core.encode_swapped(lockstep.hand, 0, 1, private_tiles(lockstep, 1)[0], 60, np.empty((144, 34), np.float32))


def reached(view: SeatView) -> set[str]:
    """What of the view the encodings compared show: its phase, and whether another seat's
    concealed kong is hidden, its hand laid open at a win before the end, a win pile, a void known,
    a seat's recent discards past the planes' six and a claimed discard among them."""
    out = {view.phase}
    rivers = sum(len(p.discards) for p in view.players)
    if rivers < len(view.discard_log):
        out.add("claimed discard")
    if any(view.turns(s) > RECENT for s in range(4)):
        out.add("more than six discards")
    for s, p in enumerate(view.players):
        other = s != view.seat
        out |= {name for name, on in (("hidden kong", other and None in p.melds),
                                      ("shown hand", other and p.hand is not None and not view.finished),
                                      ("win pile", bool(p.win_pile)), ("void known", other and p.void is not None),
                                      ("left", p.left), ("locked", p.locked)) if on}
    return out


def test_the_hands_compared_reach_every_part_of_the_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """The leaning hands and rare hands compared show every phase and every part of a view that
    depends on the moment (else the lockstep would compare little)."""
    seen: set[str] = set()
    plain = encode

    def noting(view: SeatView) -> np.ndarray[Any, np.dtype[np.float32]]:
        seen.update(reached(view))
        return plain(view)

    monkeypatch.setattr(sys.modules[__name__], "encode", noting)
    for preset in ("xuezhan", "xueliu"):
        for seed in range(SEEDS):
            agree_to_the_end(Lockstep(RuleSet.from_preset(preset), seed, lean=True, leave=0.02), seed)
    for preset, seed, _ in RARE[:2]:
        agree_to_the_end(Lockstep(RuleSet.from_preset(preset), seed, lean=True), seed)
    assert seen >= {"exchange", "void", "turn", "claim", "rob", "waiting", "end", "hidden kong", "shown hand",
                    "win pile", "void known", "left", "locked", "claimed discard", "more than six discards"}
