"""Scripted hands for the first-win-ends flow: ``classic-normal`` (the classic club rules' 普通场,
docs/rules.md Presets) — the first win ends the hand, 一炮多响 pays each winner, an exhaustive
draw (nobody won) runs 查花猪, 查大叫 and 退税, and the discarder of the win deals next."""

from __future__ import annotations

from chuanma.engine.actions import Discard, Hu, Kong, Pass
from chuanma.engine.game import Game
from engine_setup import game, play, rules, run_out, t
from test_engine_rules import MULTI
from test_engine_situations import EXHAUST

# A self-drawn win after the first round (no 地胡): seat 1 waits on 5p (234567s 345678s 5p,
# void m), the others discard tiles nobody can claim until seat 1 draws 5p.
SELF_DRAW = ["123456789m11s258p", "234567s345678s5p", "111222333m789m5p", "444555666m123p7p"]


def _rows(g: Game, reason: str) -> list[tuple[int, int, int]]:
    return [(p.payer, p.payee, p.amount) for p in g.ledger if p.reason == reason]


def _multi() -> Game:
    """Seat 0 declares a concealed kong of 9s, then discards 5p, on which seats 1, 2, 3 wait."""
    g = game(MULTI, replacements="9m", voids="pmss", ruleset=rules("classic-normal"))
    g.apply(0, Kong(t("9s")))
    g.apply(0, Discard(t("5p")))
    return g


def test_classic_normal_the_first_win_ends_the_hand() -> None:
    g = _multi()
    wall = g.remaining
    play(g, (1, Hu()), (2, Pass()), (3, Pass()))
    # one winner: the hand ends at once, nobody draws again, no exhaustive settlement
    assert g.finished and g.end_reason == "won"
    assert [w.seat for w in g.wins] == [1] and g.remaining == wall
    assert [e.type for e in g.events[-2:]] == ["payment", "end"]
    assert not any(p.reason in ("flower_pig", "chadajiao", "refund") for p in g.ledger)
    assert g.tile_total() == 108 and sum(g.deltas()) == 0


def test_classic_normal_first_win_ends_on_a_self_draw_and_the_winner_deals_next() -> None:
    g = game(SELF_DRAW, "9m9s9s9p5p", voids="pmss", ruleset=rules("classic-normal"))
    play(g, (0, Discard(t("2p"))), (1, Discard(t("9m"))), (2, Discard(t("9s"))), (3, Discard(t("9s"))),
         (0, Discard(t("9p"))), (1, Hu()))
    assert g.end_reason == "won" and g.remaining == 55 - 5
    # 234s 567s 345s 678s 55p: 断幺九 1 fan, worth 2^1 = 2 base; 自摸加底 (zimo_bonus: base) adds
    # 1 base from each payer: each of the three others pays 3
    assert [f[0] for f in g.wins[0].fans] == ["duanyaojiu"]
    assert sorted(_rows(g, "zimo")) == [(0, 1, 3), (2, 1, 3), (3, 1, 3)]
    # 001 坐莊 非血戰: on a self-draw the winner deals the next hand
    assert g.next_dealer() == 1


def test_classic_normal_yipao_duoxiang_pays_each_winner() -> None:
    g = _multi()
    play(g, (3, Hu()), (1, Hu()), (2, Hu()))
    assert g.finished and g.end_reason == "won"
    assert [w.seat for w in g.wins] == [1, 2, 3]
    # the discarder pays each winner its own value: seat 1 234567s 345678s 55p is 断幺九 + 杠上炮
    # = 2 fan = 4 base; seats 2 and 3 have 杠上炮 only = 1 fan = 2 base
    assert _rows(g, "dianpao") == [(0, 1, 4), (0, 2, 2), (0, 3, 2)]
    # 呼叫转移 (each_winner): the concealed kong earned 2 from each of three, 6, handed to each winner
    assert _rows(g, "call_transfer") == [(0, 1, 6), (0, 2, 6), (0, 3, 6)]
    assert sum(g.deltas()) == 0
    # after 一炮多响 the discarder deals the next hand
    assert g.next_dealer() == 0


def test_classic_normal_the_discarder_deals_next() -> None:
    g = game(SELF_DRAW, "9m1p", voids="pmss", ruleset=rules("classic-normal"))
    play(g, (0, Discard(t("2p"))), (1, Discard(t("9m"))), (2, Discard(t("5p"))), (1, Hu()))
    # seat 1 wins on seat 2's 5p (断幺九, 1 fan = 2 base, paid by the discarder alone)
    assert g.end_reason == "won" and _rows(g, "dianpao") == [(2, 1, 2)]
    # 001 "第二局起點炮者坐莊": seat 2, the discarder, deals next (not the winner, not the dealer 0)
    assert g.next_dealer() == 2


def test_classic_normal_exhaustive_draw_runs_chahuazhu_chadajiao_and_refund() -> None:
    g = game(EXHAUST, voids="pmmm", ruleset=rules("classic-normal"))
    g.apply(0, Kong(t("1s")))  # 下雨: 2 base from each of the three others
    run_out(g)
    assert g.end_reason == "exhausted" and g.wins == [] and g.tile_total() == 108
    # 查花猪 (fixed): seat 1 still holds its void suit (m) and pays every non-pig 16 base
    assert _rows(g, "flower_pig") == [(1, 0, 16), (1, 2, 16), (1, 3, 16)]
    # 查大叫: seat 2 waits on 9p / 3s, worth 0 fan = 1 base; seats 0 and 3 are not ready and pay it
    assert _rows(g, "chadajiao") == [(0, 2, 1), (3, 2, 1)]
    # 退税: seat 0 is not ready and returns its concealed kong's 2 base to each payer
    assert _rows(g, "refund") == [(0, 1, 2), (0, 2, 2), (0, 3, 2)]
    assert sum(g.deltas()) == 0
    # a draw keeps the dealer (001 "流局則連莊")
    assert g.next_dealer() == 0
