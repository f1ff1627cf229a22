"""Scripted hands for the rules of RULES §2, §4, §5 and §9, one test per rule."""

from __future__ import annotations

from typing import Any

import pytest

from chuanma.engine.actions import ChooseVoid, Discard, Hu, IllegalActionError, Kong, Pass
from chuanma.engine.game import Game
from chuanma.engine.record import RecordError, replay, to_record
from chuanma.tiles import SICHUAN_TILES
from engine_setup import ROB, XUELIU_DRAWS, game, play, robbing_game, t

# 一炮多响: seat 0 konges 9s, then must discard its void 5p, on which seats 1, 2, 3 all wait.
MULTI = [
    "123m456m789m9999s5p",  # dealer, void p
    "234567s345678s5p",  # void m (automatic)
    "111222333m789m5p",  # void s (automatic)
    "444555666m123p5p",  # void s (automatic)
]


def _multi(**options: Any) -> Game:
    g = game(MULTI, replacements="9m", voids="pmss", **options)
    g.apply(0, Kong(t("9s")))
    g.apply(0, Discard(t("5p")))
    return g


def _rows(g: Game, reason: str) -> list[tuple[int, int, int]]:
    return [(p.payer, p.payee, p.amount) for p in g.ledger if p.reason == reason]


def test_yipao_duoxiang_three_winners_and_call_transfer_to_each() -> None:
    g = _multi()
    assert sorted(g.to_act()) == [1, 2, 3]
    for s in (1, 2, 3):
        assert g.legal_actions(s) == [Hu(), Pass()]
    play(g, (3, Hu()), (1, Hu()), (2, Hu()))
    wins = g.wins
    assert [w.seat for w in wins] == [1, 2, 3]
    assert all("after_kong" in w.situations for w in wins)
    assert all(any(f[0] == "gangshangpao" for f in w.fans) for w in wins)
    assert _rows(g, "dianpao") == [(0, w.seat, w.multiplier) for w in wins]
    # the kong earned 2 from each of three players: each winner receives all 6
    assert _rows(g, "call_transfer") == [(0, 1, 6), (0, 2, 6), (0, 3, 6)]
    assert g.finished and g.end_reason == "three_won"
    assert g.state.public.win_piles[1] == [t("5p")] and g.tile_total() == 108
    assert sum(g.deltas()) == 0


def test_call_transfer_first_winner_and_off() -> None:
    g = _multi(call_transfer="first_winner")
    play(g, (1, Hu()), (2, Hu()), (3, Pass()))
    assert _rows(g, "call_transfer") == [(0, 1, 6)]
    g = _multi(call_transfer="off")
    play(g, (1, Hu()), (2, Hu()), (3, Hu()))
    assert _rows(g, "call_transfer") == []


def test_one_winner_only_without_yipao_duoxiang() -> None:
    g = _multi(multiple_winners=False)
    play(g, (3, Hu()), (2, Hu()), (1, Pass()))
    # seat 1 passed; the first claimant in play order after the discarder is seat 2
    assert [w.seat for w in g.wins] == [2]
    assert g.current == 3 and not g.finished


def test_robbing_a_kong_cancels_it_and_the_declarer_pays() -> None:
    g = robbing_game()
    g.apply(1, Kong(t("7p")))
    assert g.phase == "rob" and g.legal_actions(2) == [Hu(), Pass()]
    g.apply(2, Hu())
    win = g.wins[0]
    assert (win.seat, win.from_seat, win.robbed) == (2, 1, True)
    assert any(f[0] == "qiangganghu" for f in win.fans)
    assert _rows(g, "qianggang") == [(1, 2, win.multiplier)]
    assert _rows(g, "kong_added") == []
    assert [m.kind for m in g.state.public.melds[1]] == ["pong"]
    assert g.current == 3 and g.tile_total() == 108


def test_added_kong_not_robbed_pays_one_from_each() -> None:
    g = robbing_game()
    play(g, (1, Kong(t("7p"))), (2, Pass()))
    assert _rows(g, "kong_added") == [(2, 1, 1), (3, 1, 1), (0, 1, 1)]
    assert g.state.seats[g.current].drawn == t("3p")


def test_guoshougang_a_late_added_kong_pays_nothing() -> None:
    late = ["456m789m789m1111s7p", "777p1p234s345s567s", *ROB[2:]]
    g = robbing_game(late, "6p2p9m3m")
    assert t("7p") in g.state.seats[1].late_pongs
    play(g, (1, Kong(t("7p"))), (2, Pass()))
    assert [m.kong for m in g.state.public.melds[1]] == ["added"]
    assert _rows(g, "kong_added") == []
    g = robbing_game(late, "6p2p9m3m", late_added_kong_pays=True)
    play(g, (1, Kong(t("7p"))), (2, Pass()))
    assert len(_rows(g, "kong_added")) == 3


def test_robbing_off_in_doublewin() -> None:
    from engine_setup import rules

    g = robbing_game(ruleset=rules("doublewin-xuezhan"))
    g.apply(1, Kong(t("7p")))
    assert g.phase == "turn" and g.state.seats[g.current].drawn == t("3p")


def test_record_replays_and_refuses_an_illegal_decision() -> None:
    g = _multi()
    play(g, (1, Hu()), (2, Hu()), (3, Hu()))
    record = to_record(g)
    assert replay(record).result() == g.result()
    # the passes and omitted claims: only seat 1's win written, seats 2 and 3 taken to pass
    short = dict(record, decisions=record["decisions"][:-2])
    assert [w["seat"] for w in replay(short, complete=False).result()["winners"]] == [1]
    bad = dict(record, decisions=[*record["decisions"][:1], {"seat": 0, "discard": "1m"}])
    with pytest.raises(RecordError, match=r"decision 1: .*must discard a void-suit tile first"):
        replay(bad)
    wrong_void = dict(record, decisions=[{"seat": 1, "void": "p"}, *record["decisions"]])
    with pytest.raises(RecordError, match="decision 0: seat 1's void was automatic"):
        replay(wrong_void)


def test_void_choice_is_refused_twice() -> None:
    g = game(MULTI)
    with pytest.raises(IllegalActionError, match="already chosen"):
        g.apply(1, ChooseVoid("p"))


def test_xueliu_locked_hand_auto_discard_winner_kong_and_second_win() -> None:
    from engine_setup import rules

    g = robbing_game(draws=XUELIU_DRAWS, replacements="4p", ruleset=rules("xueliu"))
    play(g, (1, Kong(t("7p"))), (2, Hu()))
    assert g.state.public.locked[2] and g.state.seats[2].locked_waits == [t("4p"), t("7p")]
    play(g, (3, Discard(t("2p"))), (0, Discard(t("3p"))), (1, Discard(t("2m"))))
    # seat 2 drew 9p: not a win, no kong, so it is discarded without a decision
    assert g.state.public.discards[2][-1] == t("9p") and (2, Discard(t("9p"))) in g.autos
    play(g, (3, Discard(t("9s"))), (0, Discard(t("3p"))), (1, Discard(t("3m"))))
    assert g.current == 2 and g.state.seats[g.current].drawn == t("1m")
    assert g.legal_actions(2) == [Kong(t("1m")), Discard(t("1m"))]
    with pytest.raises(IllegalActionError, match="locked"):
        g.apply(2, Discard(t("5p")))
    g.apply(2, Kong(t("1m")))
    assert _rows(g, "kong_concealed") == [(3, 2, 2), (0, 2, 2), (1, 2, 2)]
    assert g.state.seats[g.current].drawn == t("4p") and g.legal_actions(2) == [Hu(), Discard(t("4p"))]
    g.apply(2, Hu())
    second = g.wins[1]
    assert second.seat == 2 and second.self_drawn and "kong_replacement" in second.situations
    # 血流: a self-drawn win is paid by all three others, and the winner plays on
    assert [(p.payer, p.amount) for p in g.ledger if p.reason == "zimo"] == [
        (3, second.multiplier), (0, second.multiplier), (1, second.multiplier)]
    assert not g.finished and g.current == 3 and g.tile_total() == 108


def test_tianhu_dealer_wins_with_the_dealt_fourteen() -> None:
    g = game(["123m456m789m123p55p", "1112223334445s", "666777888m999p1s", "44m4556p678p2349s"],
             voids="smsm")
    assert g.legal_actions(0)[0] == Hu()
    g.apply(0, Hu())
    w = g.wins[0]
    assert w.situations == ("tianhu",) and w.total == 8
    assert _rows(g, "zimo") == [(1, 0, 256), (2, 0, 256), (3, 0, 256)]
    assert g.current == 1 and g.state.seats[g.current].drawn is not None


def test_escape_ends_the_hand_and_pays_sixteen_to_each_player_still_in() -> None:
    from chuanma.engine.actions import Leave

    g = _multi()
    g.apply(2, Leave())
    assert g.finished and g.end_reason == "escape"
    assert _rows(g, "escape") == [(2, 3, 16), (2, 0, 16), (2, 1, 16)]
    assert _rows(g, "kong_concealed") == [(1, 0, 2), (2, 0, 2), (3, 0, 2)]
    record = to_record(g)
    assert record["decisions"][-1] == {"seat": 2, "leave": True}
    assert replay(record).result() == g.result()


def test_a_xuezhan_winner_who_leaves_does_not_stop_the_hand() -> None:
    g = _multi(multiple_winners=False)
    play(g, (1, Hu()), (2, Pass()), (3, Pass()))
    g.leave(1)
    assert not g.finished and g.state.public.left[1] and g.current == 2
    with pytest.raises(IllegalActionError, match="already left"):
        g.leave(1)


def test_each_payment_names_the_event_it_belongs_to() -> None:
    g = _multi()
    play(g, (1, Hu()), (2, Hu()), (3, Hu()))
    by_seat = {w.seat: w.seq for w in g.wins}
    for p in g.ledger:
        if p.reason in ("dianpao", "call_transfer"):
            assert p.seq == by_seat[p.payee]
            assert g.events[p.seq].type == "hu"
        else:
            assert g.events[p.seq].type == "kong"


@pytest.mark.parametrize("seed", range(1, 6))
def test_replay_steps_yield_the_deal_then_each_decision(seed: int) -> None:
    from chuanma.bots import make_bot
    from chuanma.engine.record import replay_steps
    from chuanma.rules import RuleSet
    from chuanma.sim.play import deal_for, play_hand

    rules = RuleSet.from_preset("xueliu" if seed % 2 else "xuezhan")
    bots = [make_bot("greedy", s) for s in range(4)]
    record = play_hand(rules, deal_for(seed, 0, SICHUAN_TILES), bots, record=True).record
    assert record is not None
    counts = [len(g.events) for g in replay_steps(record)]
    # the deal, one step per decision, and one more only if closing the last claim window moved the hand on
    assert len(counts) - 1 - len(record["decisions"]) in (0, 1)
    assert counts == sorted(counts) and counts[0] > 0
    *_, last = replay_steps(record)
    assert last.finished and last.result() == replay(record).result() == record["result"]
