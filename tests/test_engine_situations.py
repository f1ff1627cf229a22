"""地胡, the pass rules (§2.10, §9.1, §9.2), the last four tiles (§9.3, §9.10), 自摸加底,
杠上花 / 点杠花, and the exhaustive-draw settlement (§5: 查花猪, 查大叫, 退税)."""

from __future__ import annotations

from typing import Any

import pytest

from chuanma.engine.actions import Discard, Hu, IllegalActionError, Kong, Pass, Pong
from chuanma.engine.game import Game
from chuanma.engine.referee import flower_pig
from engine_setup import game, play, rules, run_out, t, wall_at
from reference_engine.claims import options_for, pass_rule_of

# 地胡: seat 1 waits on 5p, the dealer's void tile.
DIHU = [
    "1111m2345678m99s5p",  # dealer, void p (chosen)
    "123456789s111p5p",  # void m (automatic): waits on 5p
    "2468m2468p2468s1s",
    "2468m2468p2468s3s",
]


def _dihu(draws: dict[int, str] | None = None, **options: Any) -> Game:
    wall = wall_at(DIHU, draws or {})
    return game(DIHU, wall=wall, voids="pmmm", **options)


def _fan_ids(g: Game, i: int = 0) -> list[str]:
    return [f[0] for f in g.wins[i].fans]


def test_dihu_on_the_dealers_first_discard() -> None:
    g = _dihu()
    g.apply(0, Discard(t("5p")))
    assert g.legal_actions(1) == [Hu(), Pass()]
    g.apply(1, Hu())
    assert _fan_ids(g) == ["dihu"] and g.wins[0].total == 8
    assert [(p.payer, p.payee, p.amount) for p in g.ledger] == [(0, 1, 256)]


def test_dihu_on_dealer_discard_off() -> None:
    g = _dihu(dihu_on_dealer_discard=False)
    play(g, (0, Discard(t("5p"))), (1, Hu()))
    assert "dihu" not in _fan_ids(g)


def test_dihu_by_self_draw_on_the_first_draw() -> None:
    g = _dihu({0: "5p"})
    play(g, (0, Discard(t("5p"))), (1, Pass()))
    assert g.current == 1 and g.state.seats[g.current].drawn == t("5p")
    g.apply(1, Hu())
    assert _fan_ids(g) == ["dihu"]
    assert [(p.payer, p.amount) for p in g.ledger] == [(2, 256), (3, 256), (0, 256)]


def test_dihu_lost_after_a_kong() -> None:
    g = _dihu({0: "5p"})
    play(g, (0, Kong(t("1m"))), (0, Discard(t("5p"))), (1, Hu()))
    assert "dihu" not in _fan_ids(g) and "gangshangpao" in _fan_ids(g)
    g = _dihu({0: "5p"})
    play(g, (0, Kong(t("1m"))), (0, Discard(t("5p"))), (1, Pass()), (1, Hu()))
    assert "dihu" not in _fan_ids(g)


def test_zimo_bonus_base_adds_one_base_per_payer() -> None:
    g = _dihu({0: "5p"}, ruleset=rules("classic"))
    play(g, (0, Discard(t("5p"))), (1, Pass()), (1, Hu()))
    assert "zimo" not in _fan_ids(g)
    m = g.wins[0].multiplier
    assert [p.amount for p in g.ledger if p.reason == "zimo"] == [m + 1] * 3


# Pass rules: seat 3 waits on 5p (worth 0 fan on a plain discard).
PASS = [
    "12233445678m99s5p",  # dealer, void p
    "1111s2468m2468p5p",  # void p: konges 1s, then discards 5p
    "2468m2468p2468s3s",  # void m
    "234567789s111p5p",  # void m (automatic): waits on 5p
]


def _pass_game(pass_rule: str, draws: dict[int, str] | None = None) -> Game:
    # 地胡 on the dealer's first discard is off so the passed win is worth 0 fan
    g = game(PASS, wall=wall_at(PASS, draws or {}), voids="ppmm", pass_rule=pass_rule,
             dihu_on_dealer_discard=False)
    play(g, (0, Discard(t("5p"))))
    assert g.legal_actions(3) == [Hu(), Pass()]
    g.apply(3, Pass())
    return g


def test_same_turn_pass_bars_an_equal_win_until_own_draw() -> None:
    g = _pass_game("same_turn")
    assert g.state.seats[3].bar == 0
    g.apply(1, Discard(t("5p")))  # same fan (0): no win offered
    assert g.phase == "turn" and g.current == 2


def test_same_turn_pass_lifted_by_more_fan() -> None:
    g = _pass_game("same_turn")
    play(g, (1, Kong(t("1s"))), (1, Discard(t("5p"))))
    # 杠上炮 makes it worth 1 fan > 0: 加番解禁
    assert g.legal_actions(3) == [Hu(), Pass()]
    g.apply(3, Hu())
    assert "gangshangpao" in _fan_ids(g)


def test_forever_pass_never_wins_on_that_tile_again() -> None:
    g = _pass_game("forever", {2: "5p"})
    assert g.state.seats[3].banned == {t("5p")}
    play(g, (1, Kong(t("1s"))), (1, Discard(t("5p"))))
    assert g.phase == "turn" and g.current == 2  # no window: seat 3 cannot win on 5p
    run_out(g, lambda g: g.current == 3)
    assert g.state.seats[g.current].drawn == t("5p") and Hu() not in g.legal_actions(3)


def _declined_self_win(pass_rule: str) -> Game:
    """Seat 3 draws its winning 5p (its first draw; the dealer's void is s, so nobody may win on
    the first discards) and discards it instead of winning."""
    g = game(PASS, wall=wall_at(PASS, {2: "5p"}), voids="smmm", pass_rule=pass_rule,
             dihu_on_dealer_discard=False)
    play(g, (0, Discard(t("9s"))), (1, Discard(t("6m"))), (2, Discard(t("8m"))))
    assert g.current == 3 and g.state.seats[3].drawn == t("5p") and g.legal_actions(3)[0] == Hu()
    g.apply(3, Discard(t("5p")))
    return g


def test_forever_declining_a_self_drawn_win_bars_that_tile() -> None:
    """过水不胡 under ``forever`` holds for a self-drawn win declined too: 5p is barred, so another
    seat's 5p would offer seat 3 nothing (under ``none``: the win)."""
    g = _declined_self_win("forever")
    assert g.state.seats[3].banned == {t("5p")}
    assert options_for(g.state, pass_rule_of(g.rules), 3, t("5p"), rob=False, chow=False) is None
    free = _declined_self_win("none")
    assert options_for(free.state, pass_rule_of(free.rules), 3, t("5p"), rob=False, chow=False) == [Hu(), Pass()]


def test_same_turn_declining_a_self_drawn_win_bars_nothing() -> None:
    assert _declined_self_win("same_turn").state.seats[3].banned == set()
    assert _declined_self_win("none").state.seats[3].banned == set()


def test_no_pass_rule_lets_a_passed_win_be_taken_later() -> None:
    g = _pass_game("none")
    g.apply(1, Discard(t("5p")))
    assert g.legal_actions(3) == [Hu(), Pass()]


# Last four: seat 0 draws the fourth 5s at 3 tiles left; seat 3 draws its win as the last tile.
LAST4 = [
    "13579m13579p555s9s",  # dealer, void p
    "2468m2468p2468s1s",  # void m
    "2468m2468p2468s3s",  # void s
    "123m456m789m111p5p",  # void s (automatic): waits on 5p
]


def _last4(**options: Any) -> Game:
    g = game(LAST4, wall=wall_at(LAST4, {51: "5s", 54: "5p"}), voids="pmss", **options)
    run_out(g, lambda g: g.remaining == 3 and g.phase == "turn")
    assert g.current == 0 and g.state.seats[g.current].drawn == t("5s") and g.state.seats[0].hand[t("5s")] == 4
    return g


def test_no_kong_in_the_last_four() -> None:
    g = _last4()
    assert Kong(t("5s")) not in g.legal_actions(0)
    g = _last4(no_kong_in_last_four=False, forced_win_in_last_four=False)
    assert Kong(t("5s")) in g.legal_actions(0)


# No kong once the wall holds 4 tiles or fewer (§9.3): the other seats discard what they draw; the
# fourth 5s is drawn when the wall is left with 5 or 4 tiles. For a concealed or added kong seat 0
# draws it (after ponging the third 1p, or 5s, drawn and discarded early so that the turns fall
# so); for an exposed kong another seat draws and discards it.
BOUNDARY_OTHERS = ["22446688m24688p", "1133799m2468s88s", "3579p2468s12366s"]


def _kong_at(kind: str, left: int, **options: Any) -> tuple[Game, bool]:
    """The moment seat 0 may kong 5s with ``left`` tiles in the wall (under the rules' ``options``),
    and the kong's kind offered."""
    k = 54 - left  # the live draw that leaves ``left`` tiles
    ponged = {"concealed": "1p", "added": "5s"}.get(kind)
    hands = ["113579p" + ("455s" if kind == "added" else "555s") + "13799s", *BOUNDARY_OTHERS]
    j = k - 48  # the early draw seat 0 pongs: its own draws then fall on k (mod 4)
    g = game(hands, wall=wall_at(hands, {k: "5s", **({j: ponged} if ponged else {})}), **options)
    g.apply(0, Discard(t("3p")))
    if ponged is not None:
        run_out(g, lambda g: g.remaining == 54 - j and g.phase == "turn")
        play(g, (g.current, Discard(t(ponged))), (0, Pong(t(ponged))), (0, Discard(t("9s"))))
    run_out(g, lambda g: g.remaining == left and g.phase == "turn")
    if kind == "exposed":
        g.apply(g.current, Discard(t("5s")))
        assert g.phase == "claim" and Pong(t("5s")) in g.legal_actions(0)
    else:
        assert g.current == 0 and g.state.seats[0].drawn == t("5s")
    return g, Kong(t("5s")) in g.legal_actions(0)


@pytest.mark.parametrize("kind", ["concealed", "added", "exposed"])
def test_no_kong_once_the_wall_holds_4_tiles_or_fewer(kind: str) -> None:
    # 5 tiles left (the fifth-last tile not yet drawn; for an exposed kong, when the discard is
    # made): the kong is offered; 4 left: no kong of any kind
    assert _kong_at(kind, 5)[1]
    g, offered = _kong_at(kind, 4)
    assert not offered
    with pytest.raises(IllegalActionError, match=r"^no kong in the last four tiles$"):
        g.apply(0, Kong(t("5s")))


@pytest.mark.parametrize("kind", ["concealed", "added", "exposed"])
def test_without_the_last_four_rule_only_an_empty_wall_refuses_a_kong_and_says_so(kind: str) -> None:
    # no_kong_in_last_four off: with 4 tiles left the kong is offered; with none left there is no
    # replacement to draw, and the refusal says the wall is empty, not "the last four"
    options = {"no_kong_in_last_four": False, "forced_win_in_last_four": False}
    assert _kong_at(kind, 4, **options)[1]
    g, offered = _kong_at(kind, 0, **options)
    assert not offered
    with pytest.raises(IllegalActionError, match=r"^no kong: the wall is empty$"):
        g.apply(0, Kong(t("5s")))


def test_late_added_kong_needs_adding_to_have_been_legal() -> None:
    # 过手杠 (§9.6): seat 0 ends its turn holding the fourth 5s of its pong; with 5 tiles left
    # adding it was legal, so the pong is late; with 4 left it was not
    for left, late in ((5, True), (4, False)):
        g, _ = _kong_at("added", left)
        g.apply(0, Discard(t("9s")))
        assert (t("5s") in g.state.seats[0].late_pongs) is late


def test_forced_win_on_the_last_tile_haidilaoyue() -> None:
    g = _last4()
    run_out(g, lambda g: g.remaining == 0 and g.phase == "turn")
    assert g.current == 3 and g.legal_actions(3) == [Hu()]
    g.apply(3, Hu())
    assert "haidilaoyue" in _fan_ids(g, -1) and "zimo" in _fan_ids(g, -1)


def test_win_in_the_last_four_is_optional_without_forced_win() -> None:
    g2 = _last4(forced_win_in_last_four=False)
    run_out(g2, lambda g: g.remaining == 0 and g.phase == "turn")
    assert g2.legal_actions(3)[0] == Hu() and len(g2.legal_actions(3)) > 1


def test_gangshanghua_and_dianganghua_discarder_pays() -> None:
    hands = ["123456789m112p59s", "1234567m555666s", "3456789p22334s8m", "11223344m99p777s"]
    for mode, payers in (("zimo", [2, 3, 0]), ("discarder_pays", [0])):
        g = game(hands, replacements="7m", voids="smmp", exposed_kong_flower=mode)
        play(g, (0, Discard(t("5s"))), (1, Kong(t("5s"))))
        assert g.legal_actions(1)[0] == Hu()
        g.apply(1, Hu())
        assert "gangshanghua" in _fan_ids(g)
        assert [p.payer for p in g.ledger if p.reason == "zimo"] == payers


# Exhaustive draw: seat 0 collects a concealed kong and is not waiting, seat 1 is a flower pig,
# seat 2 waits on 9p / 3s (all copies held by others), seat 3 is not waiting.
EXHAUST = [
    "1111s13579m35799s",  # dealer, void p (automatic)
    "22244466688m1p2s",  # void m (chosen): a flower pig
    "234567p888p99p33s",  # void m (automatic): waits on 9p and 3s
    "11567p99p234s689s",  # void m (automatic)
]


def _exhaust(preset: str = "xuezhan", **options: Any) -> Game:
    g = game(EXHAUST, voids="pmmm", ruleset=rules(preset, **options))
    g.apply(0, Kong(t("1s")))
    run_out(g)
    assert g.end_reason == "exhausted" and g.tile_total() == 108
    return g


def _by(g: Game, reason: str) -> list[tuple[int, int, int]]:
    return [(p.payer, p.payee, p.amount) for p in g.ledger if p.reason == reason]


def test_exhaustive_draw_flower_pig_chadajiao_and_refund() -> None:
    g = _exhaust()
    assert g.state.seats[1].void == "m" and flower_pig(g.state, 1)
    assert _by(g, "flower_pig") == [(1, 0, 16), (1, 2, 16), (1, 3, 16)]
    (row0, row3) = _by(g, "chadajiao")
    assert row0[:2] == (0, 2) and row3[:2] == (3, 2) and row0[2] == row3[2] >= 1
    # seat 0 is not waiting: its kong money goes back to whoever paid it
    assert _by(g, "refund") == [(0, 1, 2), (0, 2, 2), (0, 3, 2)]
    assert sum(g.deltas()) == 0


def test_flower_pig_ting_max_pays_only_waiting_players_and_no_refund() -> None:
    g = _exhaust("doublewin-xuezhan")
    (row,) = _by(g, "flower_pig")
    assert row[:2] == (1, 2)
    assert _by(g, "refund") == []


def test_flower_pig_cap_value_with_max_fan() -> None:
    g = _exhaust("portal-xuezhan")
    assert [a for *_, a in _by(g, "flower_pig")] == [16, 16, 16]
    g = _exhaust("xuezhan", max_fan=3)
    assert [a for *_, a in _by(g, "flower_pig")] == [8, 8, 8]


def test_forced_wins_left_out_of_a_record_are_taken() -> None:
    from chuanma.engine.record import replay, to_record

    g = _last4()
    run_out(g)
    assert g.wins and g.wins[-1].seat == 3 and "haidilaoyue" in _fan_ids(g, -1)
    record = to_record(g)
    silent = [d for d in record["decisions"] if "hu" not in d and "pass" not in d]
    assert replay(dict(record, decisions=silent)).result() == g.result()
