"""RULES §2: deal, 换三张, 定缺, turns, void-first discards, claims, kongs and their payments."""

from __future__ import annotations

import pytest

from chuanma.engine.actions import (
    ChooseVoid,
    Discard,
    Exchange,
    Hu,
    IllegalActionError,
    Kong,
    Pass,
    Pong,
)
from chuanma.engine.game import Game
from chuanma.engine.views import event_for
from chuanma.engine.wall import build_wall
from engine_setup import game, play, rules, t

HANDS = [
    "1111234m567p99p58s",  # dealer: a concealed kong of 1m, void s
    "9m12555p2346789s",
    "234567m3456789s",  # two suits: void p is automatic
    "777888m678p1234s",
]
CLAIM_HANDS = [
    "123456789m112p59s",  # dealer, void s: discards 5s first
    "1234567m555666s",  # two suits (void p): can kong or pong 5s
    "3456789p22334s8m",
    "11223344m99p777s",
]


def test_exchange_three_is_secret_then_applied_by_direction() -> None:
    g = Game(rules(exchange=True), build_wall(HANDS), 0, "opposite")
    assert g.phase == "exchange" and g.to_act() == (0, 1, 2, 3)
    with pytest.raises(IllegalActionError, match="three tiles of one suit"):
        g.apply(0, Exchange((t("5s"), t("5s"), t("8s"))))
    g.apply(0, Exchange((t("5p"), t("6p"), t("7p"))))
    assert "exchange" not in g.view(1).to_dict()["players"][0]
    assert g.view(1).to_dict()["players"][0]["exchange_chosen"]
    assert g.view(0).to_dict()["players"][0]["exchange"] == "567p"
    assert g.view(1).to_dict()["direction"] is None
    with pytest.raises(IllegalActionError, match="already chosen"):
        g.apply(0, Exchange((t("1m"), t("1m"), t("1m"))))
    play(g, (1, Exchange((t("2s"), t("3s"), t("4s")))),
         (2, Exchange((t("2m"), t("3m"), t("4m")))), (3, Exchange((t("7m"), t("7m"), t("7m")))))
    assert g.phase == "void" and g.view(1).to_dict()["direction"] == "opposite"
    # opposite: 0 <-> 2, 1 <-> 3
    assert g.state.seats[0].hand[t("2m")] == 2 and g.state.seats[0].hand[t("5p")] == 0
    assert g.state.seats[2].hand[t("6p")] == 1 and g.state.seats[2].hand[t("2m")] == 0
    assert g.state.seats[1].hand[t("7m")] == 3 and g.state.seats[3].hand[t("2s")] == 2
    assert g.tile_total() == 108


def test_void_automatic_with_two_suits_and_void_first_discard() -> None:
    g = game(HANDS)
    assert g.phase == "void"
    assert g.state.seats[2].void == "p"  # 234567m3456789s has exactly two suits
    assert g.to_act() == (0, 1, 3)
    assert "void" not in g.view(1).to_dict()["players"][2]
    play(g, (0, ChooseVoid("s")), (1, ChooseVoid("m")), (3, ChooseVoid("p")))
    assert g.phase == "turn" and g.current == 0
    assert [p["void"] for p in g.view(1).to_dict()["players"]] == ["s", "m", "p", "p"]
    with pytest.raises(IllegalActionError, match="must discard a void-suit tile first: 5s 8s"):
        g.apply(0, Discard(t("2m")))
    before = g.view(None)
    with pytest.raises(IllegalActionError, match="do not hold"):
        g.apply(0, Discard(t("9m")))
    assert g.view(None) == before


def test_concealed_kong_pays_two_from_each_player() -> None:
    g = game(HANDS, draws="9m", replacements="6s", voids="smpp")
    assert Kong(t("1m")) in g.legal_actions(0)
    g.apply(0, Kong(t("1m")))
    assert [(p.payer, p.payee, p.amount, p.reason) for p in g.ledger] == [
        (1, 0, 2, "kong_concealed"), (2, 0, 2, "kong_concealed"), (3, 0, 2, "kong_concealed")]
    assert g.state.seats[g.current].drawn == t("6s") and g.state.public.turn.draw_kind == "replacement"
    assert g.view(1).to_dict()["players"][0]["melds"] == [{"kind": "kong", "tile": None, "kong": "concealed"}]
    assert g.view(0).to_dict()["players"][0]["melds"][0]["tile"] == "1m"
    assert g.deltas() == [6, -2, -2, -2]


@pytest.mark.parametrize(
    ("mode", "expected"),
    [("discarder_only", [(0, 1, 2)]), ("everyone", [(0, 1, 2), (2, 1, 1), (3, 1, 1)])],
)
def test_exposed_kong_chengbao_and_jiajiayou(mode: str, expected: list[tuple[int, int, int]]) -> None:
    g = game(CLAIM_HANDS, replacements="9p", voids="smmp", exposed_kong=mode)
    g.apply(0, Discard(t("5s")))
    assert g.phase == "claim" and g.to_act() == (1,)
    assert g.legal_actions(1) == [Kong(t("5s")), Pong(t("5s")), Pass()]
    assert g.view(2).to_dict()["phase"] == "waiting"  # nobody else learns that seat 1 may claim
    g.apply(1, Kong(t("5s")))
    assert [(p.payer, p.payee, p.amount) for p in g.ledger] == expected
    assert g.current == 1 and g.state.seats[g.current].drawn == t("9p")
    assert g.state.public.discards[0] == []


def test_pong_then_must_discard_and_play_continues_from_claimer() -> None:
    g = game(CLAIM_HANDS, draws="6p", voids="smmp")
    g.apply(0, Discard(t("5s")))
    g.apply(1, Pong(t("5s")))
    assert g.current == 1 and g.state.public.turn.after_pong
    assert all(isinstance(a, Discard) for a in g.legal_actions(1))
    with pytest.raises(IllegalActionError, match="after a pong or chow you must discard"):
        g.apply(1, Kong(t("5s")))
    g.apply(1, Discard(t("7m")))
    assert g.current == 2 and g.state.seats[g.current].drawn == t("6p")


def test_passing_a_pong_forbids_it_until_own_draw_same_turn() -> None:
    g = game(CLAIM_HANDS, draws="9s5p4p", voids="smmp")
    play(g, (0, Discard(t("5s"))), (1, Pass()))
    assert g.current == 1 and g.state.seats[g.current].drawn == t("9s") and not g.state.seats[1].pong_ban
    g.apply(1, Discard(t("1m")))
    assert g.legal_actions(3) == [Pong(t("1m")), Pass()]
    g.apply(3, Pass())
    assert g.state.seats[3].pong_ban == {t("1m")} and g.current == 2
    play(g, (2, Discard(t("8m"))))
    assert g.current == 3 and g.state.seats[g.current].drawn == t("4p") and not g.state.seats[3].pong_ban


def test_illegal_action_leaves_state_untouched() -> None:
    g = game(HANDS, voids="smpp")
    snap = (g.view(0), len(g.events), len(g.decisions))
    for seat, action in ((1, Discard(t("1p"))), (0, Pong(t("5s"))), (0, Pass()), (0, Hu()),
                         (0, Kong(t("9p"))), (7, Discard(t("5s"))), (0, ChooseVoid("m"))):
        with pytest.raises(IllegalActionError):
            g.apply(seat, action)
        assert (g.view(0), len(g.events), len(g.decisions)) == snap


def test_other_seats_draws_are_public_without_the_tile() -> None:
    g = game(CLAIM_HANDS, draws="6p", voids="smmp")
    play(g, (0, Discard(t("5s"))), (1, Pass()))
    draw = [e for e in g.events if e.type == "draw"][-1]
    own = event_for(draw, 1)
    assert own is not None and own["tile"] == "6p"
    shown = event_for(draw, 2)
    assert shown is not None and "tile" not in shown
    deal = [e for e in g.events if e.type == "deal"]
    assert [event_for(e, None) for e in deal] == [None] * 4
