"""What a review of the redesigned engine found, each fixed: a 血流 winner who leaves while its own
added kong may be robbed, an automatic 定缺 told to everyone, a shallow copy of a game, and a hand
rebuilt at a moment its seat owes no decision."""

from __future__ import annotations

import copy

import pytest

from chuanma.engine.actions import ChooseVoid, Discard, Hu, IllegalActionError, Kong, Pass, Pong
from chuanma.engine.determinize import HiddenGuess, rebuild
from chuanma.engine.game import Game
from chuanma.engine.wall import build_wall
from chuanma.rules import RuleSet
from chuanma.tiles import parse_tile
from engine_play import pick, random_hand


def _locked_winner_declaring_an_added_kong() -> Game:
    """血流: seat 1 pongs 5m, wins on 2p, and later declares the added kong of its drawn 5m while
    seats 2 and 0 could rob it."""
    rules = RuleSet.from_preset("xueliu", exchange=False)
    hands = ["112233567789m33p", "55m123m9m2456789p", "46m234567888p2p9p", "4466888m144567p"]
    g = Game(rules, build_wall(hands, draws="9p1s2s3s5m", dealer=0), dealer=0)
    t = parse_tile
    g.apply(0, Discard(t("5m")))
    g.apply(1, Pong(t("5m")))
    g.apply(1, Discard(t("9m")))
    g.apply(2, Discard(t("2p")))
    g.apply(1, Hu())
    for seat, tile in ((2, "1s"), (3, "2s"), (0, "3s")):
        g.apply(seat, Discard(t(tile)))
    g.apply(1, Kong(t("5m")))
    assert g.phase == "rob" and set(g.to_act()) == {0, 2}
    return g


def test_a_xueliu_winner_who_leaves_during_its_own_robbing_window_withdraws_the_kong() -> None:
    """A winner who leaves stops playing (RULES §6): no kong is completed or paid after it left,
    and the next seat still playing draws."""
    g = _locked_winner_declaring_an_added_kong()
    paid_before = list(g.ledger)
    g.leave(1)
    st = g.state
    assert st.public.out[1] and st.public.left[1] and not g.finished
    assert g.ledger == paid_before  # no 刮风 for the seat that left, no escape penalty
    assert g.phase == "turn" and g.current == 2 and st.seats[2].drawn is not None
    assert not any(m.kind == "kong" for m in st.public.melds[1])


def test_an_automatic_void_is_told_to_its_seat_only() -> None:
    """A two-suit hand's 定缺 is automatic; the others must not learn which hands hold two suits."""
    rules = RuleSet.from_preset("xuezhan", exchange=False)
    # a deal where some hands hold exactly two suits and some do not
    hands = ["123456789m12345p", "12345m1234p1234s", "6789m5678p56789s", "11m99p11999s6677s"]
    g = Game(rules, build_wall(hands, dealer=0), dealer=0)
    auto = [s for s, seat in enumerate(g.state.seats) if seat.void is not None]
    assert auto, "the set-up has a two-suit hand"
    for viewer in range(4):
        view = g.view(viewer)
        for s in auto:
            assert view.players[s].void_chosen == (s == viewer)
        shown = g.events_for(viewer)
        assert [e["seat"] for e in shown if e["type"] == "void_chosen"] == [s for s in auto if s == viewer]
    assert g.to_act() == tuple(s for s in range(4) if s not in auto)
    for s in g.to_act():
        g.apply(s, ChooseVoid(next(a.suit for a in g.legal_actions(s) if isinstance(a, ChooseVoid))))
    assert g.phase == "turn" and all(p.void_chosen for p in g.view(0).players)


def test_a_shallow_copy_of_a_game_is_a_whole_copy() -> None:
    g, rng = random_hand("xuezhan", 4)
    for _ in range(20):
        s = rng.choice(g.to_act())
        g.apply(s, pick(rng, g.legal_actions(s), g, s))
    other = copy.copy(g)
    assert other.state == g.state and other.state is not g.state
    s = rng.choice(g.to_act())
    g.apply(s, pick(rng, g.legal_actions(s), g, s))
    assert other.version == g.version - 1
    for seat in range(4):
        assert other.legal_actions(seat) == Game.from_state(other.state).legal_actions(seat)


def test_a_hand_is_rebuilt_only_when_its_seat_owes_a_decision() -> None:
    g, rng = random_hand("xueliu", 2)
    while g.phase != "turn":
        s = rng.choice(g.to_act())
        g.apply(s, pick(rng, g.legal_actions(s), g, s))
    idle = next(s for s in range(4) if s != g.current)
    guess = HiddenGuess(hands={}, wall=[])
    with pytest.raises(IllegalActionError, match="owes a decision"):
        rebuild(g.view(idle), guess)


def test_a_seat_that_has_answered_is_told_so() -> None:
    g = _locked_winner_declaring_an_added_kong()
    g.apply(2, Pass())
    with pytest.raises(IllegalActionError, match="already answered"):
        g.apply(2, Pass())
    assert g.to_act() == (0,)
    g.apply(0, Hu() if Hu() in g.legal_actions(0) else Pass())
