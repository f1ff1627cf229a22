"""Scripted hands for 大众麻将 (preset ``dazhong``, docs/rules.md and docs/engine.md): chow only from
the 上家 and only of suited tiles, every chow shape offered, claim priority win > pong > chow, the
first win ends the hand, dealer rotation (连庄 on a dealer win or a draw, else the 下家 deals) and
荒庄不荒杠. Payments are worked out from docs/rules.md's 大众麻将 fan table (a win of F fan is worth
2^F base)."""

from __future__ import annotations

import pytest

from chuanma.engine.actions import Chow, Discard, Hu, IllegalActionError, Kong, Pass, Pong, action_from_json
from chuanma.engine.game import Game
from chuanma.engine.indices import CHOW_STARTS
from chuanma.errors import NotationError
from chuanma.melds import Meld
from chuanma.tiles import ALL_TILES
from engine_play import pick, random_hand
from engine_setup import game, play, rules, run_out, t

# Seat 0 (dealer) opens with 9p; one round of unclaimable discards (so no 地胡); then seat 0
# discards 4m, which seat 1 (its 下家) can chow (23m), seat 2 can pong (44m) and seat 3 wins on
# (123p 456p 789s 111z 4m: the pair 44m).
THREE = ["4m9p111222333567s", "23m678m123s45s77z1p", "44m13579p234567z", "123p456p789s111z4m"]
THREE_DRAWS = "9m8p9m5z"


def _three() -> Game:
    g = game(THREE, THREE_DRAWS, ruleset=rules("dazhong"))
    play(g, (0, Discard(t("9p"))), (1, Discard(t("9m"))), (2, Discard(t("8p"))), (3, Discard(t("9m"))),
         (0, Discard(t("4m"))))
    return g


def _rows(g: Game, reason: str) -> list[tuple[int, int, int]]:
    return [(p.payer, p.payee, p.amount) for p in g.ledger if p.reason == reason]


def test_dazhong_has_no_exchange_and_no_void_phase() -> None:
    g = game(THREE, THREE_DRAWS, ruleset=rules("dazhong"))
    assert g.phase == "turn" and g.current == 0 and g.remaining == 136 - 53
    assert all(s.void is None for s in g.state.seats)
    assert not any(e.type in ("exchange", "void_chosen", "voids") for e in g.events)


def test_dazhong_claim_priority_win_over_pong_over_chow_with_three_claimants() -> None:
    g = _three()
    assert g.legal_actions(1) == [Chow(t("2m")), Pass()]
    assert g.legal_actions(2) == [Pong(t("4m")), Pass()]
    assert g.legal_actions(3) == [Hu(), Pass()]
    play(g, (1, Chow(t("2m"))), (2, Pong(t("4m"))), (3, Hu()))
    # the win beats the pong and the chow; seat 3's 123p 456p 789s 111z 44m has no claimed meld:
    # 门清 1 fan = 2 base, paid by the discarder alone
    assert [(w.seat, w.from_seat) for w in g.wins] == [(3, 0)]
    assert [f[0] for f in g.wins[0].fans] == ["menqing"]
    assert _rows(g, "dianpao") == [(0, 3, 2)]
    assert g.state.public.melds == [[], [], [], []]

    g = _three()
    play(g, (1, Chow(t("2m"))), (2, Pong(t("4m"))), (3, Pass()))
    assert g.state.public.melds[2] == [Meld("pong", t("4m"))] and g.current == 2  # pong beats chow
    assert g.state.public.melds[1] == []

    g = _three()
    play(g, (1, Chow(t("2m"))), (2, Pass()), (3, Pass()))
    assert g.state.public.melds[1] == [Meld("chow", t("2m"))] and g.current == 1
    # after a chow the claimer discards, without a draw: no win, no kong
    assert all(isinstance(a, Discard) for a in g.legal_actions(1))
    assert g.tile_total() == 136


def test_dazhong_the_first_win_ends_the_hand() -> None:
    g = _three()
    wall = g.remaining
    play(g, (1, Pass()), (2, Pass()), (3, Hu()))
    assert g.finished and g.end_reason == "won" and g.remaining == wall
    assert [e.type for e in g.events[-2:]] == ["payment", "end"]
    assert sum(g.deltas()) == 0 and g.tile_total() == 136


# Seat 1 holds 2m 3m 44m 5m 6m: on its 上家's 4m it may pong, or chow 234m, 345m or 456m.
SHAPES = ["4m9p111222333567s", "23m44m56m123s45s1p7z", "135789p234567z8s", "123p456p789s111z9s"]


def test_dazhong_every_chow_shape_is_offered_and_a_seat_that_could_pong_may_chow() -> None:
    g = game(SHAPES, ruleset=rules("dazhong"))
    g.apply(0, Discard(t("4m")))
    assert g.legal_actions(1) == [Pong(t("4m")), Chow(t("2m")), Chow(t("3m")), Chow(t("4m")), Pass()]
    g.apply(1, Chow(t("3m")))  # nobody claims a win or a pong: the chow is taken
    pub = g.state.public
    assert pub.melds[1] == [Meld("chow", t("3m"))] and pub.discards[0] == []
    assert [e for e in g.events_for(2) if e["type"] == "chow"][-1] == {
        "schema": 2, "seq": g.events[-1].seq, "type": "chow", "seat": 1, "tile": "3m", "from": 0,
        "claimed": "4m"}
    hand = g.state.seats[1].hand
    assert (hand[t("2m")], hand[t("3m")], hand[t("4m")], hand[t("5m")], hand[t("6m")]) == (1, 0, 2, 0, 1)
    # choosing the chow passed the pong (pass_rule same_turn): no pong of 4m until its own draw
    assert t("4m") in g.state.seats[1].pong_ban


def test_dazhong_chow_only_from_the_shangjia() -> None:
    g = game(SHAPES, "9m6z7z1z", ruleset=rules("dazhong"))
    g.apply(0, Discard(t("4m")))
    play(g, (1, Pass()), (1, Discard(t("9m"))), (2, Discard(t("8s"))))
    # seat 2's 8s: seat 3, its 下家, holds 7s 9s and may chow 789s; seat 0 holds 6s 7s (678s) but is
    # not seat 2's 下家: it is not asked
    assert g.legal_actions(3) == [Chow(t("7s")), Pass()]
    assert g.to_act() == (3,) and g.legal_actions(0) == []
    play(g, (3, Pass()), (3, Discard(t("9s"))))
    # seat 3's 9s: seat 0, its 下家, holds no 7s 8s; nobody may claim: seat 0 draws
    assert g.phase == "turn" and g.current == 0


def test_dazhong_chow_of_another_seat_than_the_xiajia_is_refused() -> None:
    hands = ["4m9p111222333567s", "1p3z7z123s45s789p11m", "44m35m13579p2345z", "123p456p789s111z9s"]
    g = game(hands, ruleset=rules("dazhong"))
    g.apply(0, Discard(t("4m")))
    # seat 2 holds 3m 5m but is seat 0's 对家: it may pong 4m, never chow it
    assert g.legal_actions(2) == [Pong(t("4m")), Pass()]
    with pytest.raises(IllegalActionError, match="only your 上家's discard"):
        g.apply(2, Chow(t("3m")))


def test_dazhong_chow_of_honours_is_refused() -> None:
    hands = ["7z9p111222333567s", "5z6z77z23m678m123s4s", "44m13579p123456z", "123p456p789s111z4m"]
    g = game(hands, ruleset=rules("dazhong"))
    g.apply(0, Discard(t("7z")))
    # seat 1 holds 5z 6z 7z 7z: honours make no sequence, so only the pong is offered
    assert g.legal_actions(1) == [Pong(t("7z")), Pass()]
    with pytest.raises(IllegalActionError, match="honours cannot be chowed"):
        g.apply(1, Chow(t("5z")))
    with pytest.raises(NotationError, match="a chow starts at a suited tile"):
        action_from_json({"chow": "5z"}, ALL_TILES)


# Seat 0 (dealer) waits on 3p 6p (123m 456m 789m 11s 45p); after a round nobody can claim it draws 3p.
DEALER_WINS = ["123m456m789m11s45p9p", "2233445566m777z", "13579p234567z99s", "123p456p789s111z4m"]


def _dealer_self_draw() -> Game:
    g = game(DEALER_WINS, "8s1m6z3p", ruleset=rules("dazhong"))
    play(g, (0, Discard(t("9p"))), (1, Discard(t("8s"))), (2, Discard(t("1m"))), (3, Discard(t("6z"))),
         (0, Hu()))
    return g


def test_dazhong_self_drawn_win_is_paid_by_all_three() -> None:
    g = _dealer_self_draw()
    # 123m 456m 789m 345p 11s: 门清 1 + 自摸 1 = 2 fan = 4 base from each of the three others
    assert sorted(f[0] for f in g.wins[0].fans) == ["menqing", "zimo"]
    assert sorted(_rows(g, "zimo")) == [(1, 0, 4), (2, 0, 4), (3, 0, 4)]
    assert g.end_reason == "won"


# Seat 0 (dealer) declares a concealed kong of 1s; then everyone discards what it draws.
KONG = ["1111s13579m2468p5z", "2233445566m777z", "13579p234567z99s", "123p456p789s111z4m"]


def _kong_then_draw(dealer: int = 0) -> Game:
    hands = KONG[-dealer:] + KONG[:-dealer] if dealer else KONG
    g = game(hands, dealer=dealer, ruleset=rules("dazhong"))
    g.apply(dealer, Kong(t("1s")))  # 下雨: 2 base from each of the three others
    run_out(g)
    return g


def test_dazhong_huangzhuang_bu_huanggang_kong_money_stands_after_a_draw() -> None:
    g = _kong_then_draw()
    assert g.end_reason == "exhausted" and g.wins == [] and g.tile_total() == 136
    # 荒庄不荒杠: the kong's 2 base from each payer stands; no 查花猪, no 查大叫, no 退税
    assert _rows(g, "kong_concealed") == [(1, 0, 2), (2, 0, 2), (3, 0, 2)]
    assert {p.reason for p in g.ledger} == {"kong_concealed"}
    assert g.deltas() == [6, -2, -2, -2]


def test_dazhong_dealer_rotation_over_several_hands() -> None:
    # hand 1: the dealer (seat 0) wins: it keeps the deal (连庄)
    dealer = _dealer_self_draw().next_dealer()
    assert dealer == 0
    # hand 2: an exhaustive draw (荒庄): the dealer keeps the deal
    drawn = _kong_then_draw(dealer)
    assert drawn.dealer == 0 and drawn.end_reason == "exhausted"
    dealer = drawn.next_dealer()
    assert dealer == 0
    # hand 3: seat 3, not the dealer, wins on the dealer's discard: the dealer's 下家 (seat 1) deals
    g = _three()
    assert g.dealer == dealer
    play(g, (1, Pass()), (2, Pass()), (3, Hu()))
    dealer = g.next_dealer()
    assert dealer == 1
    # hand 4, dealt by seat 1: an exhaustive draw keeps seat 1
    drawn = _kong_then_draw(dealer)
    assert drawn.dealer == 1 and drawn.end_reason == "exhausted" and drawn.next_dealer() == 1


def test_dazhong_chow_offers_are_exactly_the_shangjias_fitting_sequences_over_random_hands() -> None:
    windows = chows = 0
    for seed in range(40):
        g, rng = random_hand("dazhong", seed)
        while not g.finished:
            w = g.state.public.claim
            if w is not None and not w.rob:
                windows += 1
                for s in range(4):
                    options = g.state.seats[s].claim_options or []  # offered when the window opened
                    offered = {a.tile for a in options if isinstance(a, Chow)}
                    hand = g.state.seats[s].hand
                    # every chow of the 21 whose other two tiles the hand holds, for the 下家 only
                    fits = {low for low in CHOW_STARTS if w.tile in (low, low + 1, low + 2)
                            and all(hand[x] for x in (low, low + 1, low + 2) if x != w.tile)}
                    xiajia = s == (w.from_seat + 1) % 4 and g.phase == "claim"
                    assert offered == (fits if xiajia else set())
                    chows += len(offered)
            seat = rng.choice(g.to_act())
            g.apply(seat, pick(rng, g.legal_actions(seat), g, seat))
        assert g.tile_total() == 136
    assert windows > 200 and chows > 50
