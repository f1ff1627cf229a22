"""A hand rebuilt from one seat's view and the true hidden tiles plays on exactly as the real hand;
rebuilt from a random guess consistent with the view, it is a whole, playable hand that the seat
sees exactly as it saw the real one."""

from __future__ import annotations

import copy
import random

import pytest

from chuanma import _core
from chuanma.engine.actions import IllegalActionError
from chuanma.engine.determinize import HiddenGuess, rebuild
from chuanma.engine.game import Game
from chuanma.engine.state import HandState, copy_seat
from chuanma.rules import PRESETS
from chuanma.tiles import NUM_KINDS
from engine_play import pick, random_hand


def truth(g: Game, seat: int) -> HiddenGuess:
    """The real hidden part, as a guess."""
    st = g.state
    pub = st.public
    return HiddenGuess(
        hands={s: list(st.seats[s].hand) for s in range(4) if s != seat},
        wall=st.hidden.wall[pub.live:pub.tail + 1],
        kong_tiles={i: k.tile for i, k in enumerate(pub.kongs)},
        seats={s: copy_seat(st.seats[s]) for s in range(4) if s != seat},
        direction=st.hidden.direction,
    )


class Unguessable(Exception):
    """A locked winner's laid-down hand that a later face-down kong has made stale: this simple
    guesser does not work out which tiles went into the kong."""


def random_guess(g: Game, seat: int, rng: random.Random) -> HiddenGuess:
    """Unseen tiles dealt at random to the other seats' hands, the wall and the face-down kongs;
    a winner keeps the hand it laid down."""
    view = g.view(seat)
    pool = [t for t, c in enumerate(view.unseen_counts()) for _ in range(c)]
    # the viewer's own face-down kongs are seen by it; another seat's are among the unseen tiles
    hidden_kongs = [i for i, k in enumerate(view.kongs) if k.tile is None]
    rng.shuffle(pool)
    kong_tiles: dict[int, int] = {}
    for i in hidden_kongs:  # a kong takes four copies of one tile
        t = next(t for t in sorted(set(pool)) if pool.count(t) == 4)
        for _ in range(4):
            pool.remove(t)
        kong_tiles[i] = t
    hands = {}
    for p in view.players:
        if p.seat == seat:
            continue
        counts = list(p.hand) if p.hand is not None else [0] * NUM_KINDS
        extra = p.tiles - sum(counts)
        if extra < 0:
            raise Unguessable
        tiles, pool = pool[:extra], pool[extra:]
        for t in tiles:
            counts[t] += 1
        hands[p.seat] = counts
    return HiddenGuess(hands=hands, wall=pool, kong_tiles=kong_tiles)


def decision_points(preset: str, seed: int, every: int) -> list[tuple[Game, int]]:
    """Moments of a random hand where a seat owes a decision, with that seat."""
    g, rng = random_hand(preset, seed)
    out = []
    step = 0
    while not g.finished:
        seat = rng.choice(g.to_act())
        if step % every == 0 and g.phase not in ("exchange", "void"):
            out.append((copy.deepcopy(g), seat))
        g.apply(seat, pick(rng, g.legal_actions(seat), g, seat))
        step += 1
    return out


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rebuilt_from_the_truth_the_hand_plays_on_identically(preset: str) -> None:
    checked = 0
    for seed in range(6):
        for g, seat in decision_points(preset, seed, every=9):
            again = Game.from_state(rebuild(g.view(seat), truth(g, seat)))
            assert again.view(seat) == g.view(seat)
            rng = random.Random(seed)
            while not g.finished:
                assert again.to_act() == g.to_act()
                for s in range(4):
                    assert again.legal_actions(s) == g.legal_actions(s)
                s = rng.choice(g.to_act())
                action = pick(rng, g.legal_actions(s), g, s)
                g.apply(s, action)
                again.apply(s, action)
            assert again.finished and again.deltas() == g.deltas()
            assert again.tile_total() == len(again.wall)
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rebuilt_from_a_guess_the_seat_sees_the_same_hand(preset: str) -> None:
    rng = random.Random(preset)
    checked = 0
    for seed in range(6):
        for g, seat in decision_points(preset, seed, every=7):
            try:
                guess = random_guess(g, seat, rng)
            except Unguessable:
                continue
            st = rebuild(g.view(seat), guess)
            again = Game.from_state(st)
            assert st.tile_total() == len(st.hidden.wall)
            assert again.view(seat) == g.view(seat)
            while not again.finished:  # and it plays to the end
                s = rng.choice(again.to_act())
                again.apply(s, rng.choice(again.legal_actions(s)))
            assert sum(again.deltas()) == 0
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rederive_gives_the_claim_options_and_locked_waits_the_reducer_gave(preset: str) -> None:
    """A state with every seat's claim options and answers left out, and the locked waits of
    the seats not in the middle of a turn (3n+1 tiles), rederived by the core, has the options and
    waits the reducer gave while playing, and no answer yet."""
    windows = locked = 0
    for seed in range(4):
        for g, _ in decision_points(preset, seed, every=1):
            real = g.state
            st = HandState.from_dict(g.core.to_dict())
            for ss in st.seats:
                ss.claim_options = ss.claim = None
                if sum(ss.hand) % 3 == 1:
                    ss.locked_waits = None
            hand = _core.Hand.from_dict(st.to_dict())
            hand.rederive()
            back = HandState.from_dict(hand.to_dict())
            assert [s.claim_options for s in back.seats] == [s.claim_options for s in real.seats]
            assert [s.claim for s in back.seats] == [None] * 4
            assert [s.locked_waits for s in back.seats] == [s.locked_waits for s in real.seats]
            windows += real.public.claim is not None
            locked += any(s.locked_waits is not None for s in real.seats)
    assert windows >= 10
    if preset == "xueliu":  # winners stay, their hands locked
        assert locked >= 1


def test_a_guess_that_does_not_fit_is_refused() -> None:
    g, seat = decision_points("xuezhan", 1, every=5)[3]
    guess = truth(g, seat)
    guess.wall = guess.wall[1:]
    with pytest.raises(IllegalActionError, match="wall"):
        rebuild(g.view(seat), guess)
    guess = truth(g, seat)
    other = next(iter(guess.hands))
    guess.hands[other][0] += 1
    with pytest.raises(IllegalActionError):
        rebuild(g.view(seat), guess)
    with pytest.raises(IllegalActionError, match="spectator"):
        rebuild(g.view(None), truth(g, seat))
