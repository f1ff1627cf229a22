"""The compiled reducer (``chuanma._core.Hand``) in lockstep with the Python :class:`Game`.

Random hands of every preset and of a few option overrides, played by a uniform random policy and by
one leaning to wins and claims, the same decisions fed to both: at every step the seats to act,
every seat's legal actions (as action indices), the events so far, every seat's concealed tiles,
melds, wins (their fans included), net result, version and each seat's question's version agree, and
so does the end (its reason, each seat's 花猪 and standing waits, the next dealer). Set-ups and
chosen seeds reach what random hands rarely do: 天胡, 地胡 (on a draw and on the dealer's discard),
一炮多响, 杠上花 after consecutive kongs, 杠上炮 with 呼叫转移, 抢杠胡, 查花猪.

Covered: 换三张, 定缺 (chosen and automatic), draws (live and replacement, the last-four flag),
discards (a locked 血流 hand's automatic ones), pong, chow, exposed / concealed / added kongs
(过手杠 included), claim windows with pass and priority, 一炮多响 or the first winner, 抢杠胡, wins
on a discard and self-drawn with their situations and fan total (the compiled scoring's, called from
the compiled reducer), 血战 winners leaving and 血流 winners staying (locked hands, kongs that keep
the waits), forced wins and no kongs in the last four tiles, the pass rules none / same_turn /
forever; every payment as it is made and each seat's net result: wins (自摸加底 included), 刮风下雨
(明杠 承包制 or 家家有, 过手杠), 呼叫转移, 点杠花, and the exhaustive draw's settlement (查花猪
fixed or ting_max, 查大叫, 退税) with its findings (who takes part, 花猪, who is waiting, the 查大叫
fans); leaving (逃跑: a winner's, and a player's who pays for it).

The automatic moves (forced voids, a locked hand's discards) are compared at every step too; the
whole state's JSON form and ``pass_pending``: tests/test_native_state.py; the refusals:
tests/test_native_refusals.py. Not covered yet (the compiled reducer does not make them): the
records and views of :class:`Game`.
"""

from __future__ import annotations

import copy
import random
from itertools import pairwise
from typing import Any

import pytest

from chuanma import _core
from chuanma.engine.indices import CHOW_AT, DISCARD_AT, HU_AT, KONG_AT, PONG_AT, to_index
from chuanma.engine.wall import build_wall
from chuanma.rules import PRESETS, RuleSet
from chuanma.scoring import score_options
from chuanma.tiles import parse_tile, parse_tiles
from native_lockstep import Lockstep, native_rules, unvalidated

SEEDS = 4
"""Hands per case and policy: a few seconds in all."""
OVERRIDES: list[tuple[str, dict[str, Any]]] = [
    ("xueliu", {"pass_rule": "same_turn"}),
    ("xueliu", {"pass_rule": "none", "winners_kong": False}),
    ("xuezhan", {"pass_rule": "forever", "multiple_winners": False}),
    ("xuezhan", {"robbing_kong": False, "exchange": False}),
    ("xuezhan", {"no_kong_in_last_four": False, "forced_win_in_last_four": False, "concealed_kong_shown": True}),
    ("dazhong", {"pass_rule": "forever", "multiple_winners": True}),
    ("xuezhan", {"exposed_kong": "everyone", "call_transfer": "first_winner", "exposed_kong_flower": "discarder_pays"}),
    ("xuezhan", {"flower_pig": "ting_max", "flower_pig_pays_winners": True, "max_fan": 3, "zimo_bonus": "base"}),
]
CASES = [(name, {}) for name in PRESETS] + OVERRIDES


@pytest.mark.parametrize(("preset", "options"), CASES, ids=[f"{p}-{i}" for i, (p, _) in enumerate(CASES)])
@pytest.mark.parametrize("lean", [False, True], ids=["uniform", "leaning"])
def test_random_hands_agree(preset: str, options: dict[str, Any], lean: bool) -> None:
    rules = RuleSet.from_preset(preset, **options)
    for seed in range(SEEDS):
        Lockstep(rules, seed, lean=lean).play()


@pytest.mark.parametrize("preset", ["xuezhan", "xueliu", "doublewin-xueliu", "dazhong"])
def test_hands_with_leavers_agree(preset: str) -> None:
    """逃跑: a seat leaves now and then (a winner: the hand goes on; else it ends, paid for)."""
    reasons = {Lockstep(RuleSet.from_preset(preset), seed, lean=True, leave=0.05).play()["reason"]
               for seed in range(2 * SEEDS)}
    assert "escape" in reasons


RARE = [("xuezhan", 108, "kong_robbed"), ("xueliu", 492, "kong_robbed"), ("xuezhan", 132, "call_transfer"),
        ("classic", 24, "flower_pig"), ("xueliu", 88, "multiple winners"), ("xuezhan", 291, "multiple winners")]
"""Leaning hands (preset, seed) that reach what random hands seldom do."""


@pytest.mark.parametrize(("preset", "seed", "rule"), RARE)
def test_hands_reaching_rare_rules_agree(preset: str, seed: int, rule: str) -> None:
    lockstep = Lockstep(RuleSet.from_preset(preset), seed, lean=True)
    lockstep.play()
    events = lockstep.game.events
    wins = [ev.data for ev in events if ev.type == "hu" and ev.data["from"] is not None]
    reached = {ev.type for ev in events} | {ev.data["reason"] for ev in events if ev.type == "payment"}
    if any(a["from"] == b["from"] and a["tile"] == b["tile"] for a, b in pairwise(wins)):
        reached.add("multiple winners")
    assert rule in reached, f"the hand no longer reaches {rule}: pick another seed"


def test_leaning_hands_reach_the_rules() -> None:
    """The random hands compared reach wins, kongs and forced wins (else the lockstep would compare
    little); robbed kongs are the seeds of RARE's."""
    seen: set[str] = set()
    for seed in range(8):
        for preset in ("xuezhan", "dazhong"):
            lockstep = Lockstep(RuleSet.from_preset(preset), seed, lean=True)
            seen |= lockstep.play()["types"]
            seen |= {"forced hu" for ev in lockstep.game.events if ev.type == "hu" and ev.data.get("forced")}
    assert {"hu", "pong", "chow", "kong", "kong_declared", "exhausted", "exchange", "voids", "forced hu"} <= seen


def wall_for(hands: dict[int, str], draws: str = "", replacements: str = "") -> list[int]:
    """A 108-tile wall dealing ``hands`` (by seat; the dealer, seat 0, has 14 tiles), the seats not
    given taking what is left in a fixed shuffle."""
    rest = RuleSet.from_preset("xuezhan").tiles.wall()
    for t in parse_tiles("".join(hands.values()) + draws + replacements):
        rest.remove(t)
    random.Random(0).shuffle(rest)
    dealt = [hands.get(s) or [rest.pop() for _ in range(14 if s == 0 else 13)] for s in range(4)]
    return build_wall(dealt, draws, replacements)


def discard(tile: str) -> int:
    return DISCARD_AT + parse_tile(tile)


def kong(tile: str) -> int:
    return KONG_AT + parse_tile(tile)


WAITING_ON_5M = {1: "123m789m456p11p46m", 2: "123p789p456m22p46m", 3: "111s222s333s444s9s"}
SETUPS: dict[str, tuple[list[int], list[int], set[str], set[str]]] = {
    "tianhu": (wall_for({0: "123m456m789m123p55p"}), [HU_AT], {"tianhu"}, {"zimo"}),
    "multiple winners, dihu on the dealer's discard": (
        wall_for({0: "1m3m5m7m9m13579s2468s", **WAITING_ON_5M}), [discard("5m"), HU_AT, HU_AT], {"dihu"},
        {"dianpao"}),
    "dihu on a draw": (
        wall_for({0: "1m3m6m7m9m13579s2468s", **WAITING_ON_5M}, draws="5m"), [discard("1m"), HU_AT], {"dihu"},
        {"zimo"}),
    "consecutive kongs": (
        wall_for({0: "1111m2222m345p66p9p"}, replacements="9p9p"), [kong("1m"), kong("2m"), HU_AT],
        {"kong_replacement", "consecutive_kongs"}, {"kong_concealed", "zimo"}),
    "杠上炮 to two winners, 呼叫转移": (
        wall_for({0: "1m3m5m7m9m2s4s5s6s7s8888s", **WAITING_ON_5M}, replacements="9m"),
        [kong("8s"), discard("5m"), HU_AT, HU_AT], {"after_kong"}, {"kong_concealed", "dianpao", "call_transfer"}),
}
"""Each set-up: its wall, the decisions made as soon as they are legal, the first win's situations
(at least), the payments' reasons (at least)."""


@pytest.mark.parametrize("name", list(SETUPS))
def test_set_ups_agree(name: str) -> None:
    wall, script, situations, reasons = SETUPS[name]
    for preset in ("xuezhan", "xueliu"):
        lockstep = Lockstep(RuleSet.from_preset(preset, exchange=False), 0, lean=True, wall=wall, script=script)
        lockstep.play()
        events = lockstep.game.events
        wins = [ev.data for ev in events if ev.type == "hu"]
        assert situations <= set(wins[0]["situations"])
        assert reasons <= {ev.data["reason"] for ev in events if ev.type == "payment"}
        if script.count(HU_AT) == 2:
            assert wins[1]["from"] == wins[0]["from"] == 0


def test_a_wait_all_four_copies_of_which_are_melded_is_none() -> None:
    """大众麻将: a pong of 1m and a chow of 123m hold all four 1m, so 23m55p789p waits on 4m alone
    (the win's waits, compared, would show 1m too if each meld were counted apart)."""
    hands = {0: "11m58m147p12457s89s", 1: "1122m33m55p789p12z", 2: "5679m2468p13579s", 3: "6789m1369p2368s2p"}
    wall = build_wall([hands[s] for s in range(4)], draws="3z4z5z6z7z3z4m", size=136)
    script = [discard("1m"), PONG_AT + parse_tile("1m"), discard("1z"), discard("3z"), discard("4z"), discard("1m"),
              CHOW_AT, discard("2z"), discard("6z"), discard("7z"), discard("3z"), HU_AT]
    lockstep = Lockstep(RuleSet.from_preset("dazhong"), 0, wall=wall, script=script)
    lockstep.play()
    [win] = [ev.data for ev in lockstep.game.events if ev.type == "hu"]
    assert win["seat"] == 1 and win["waits"] == "4m"


@pytest.mark.parametrize(("preset", "options"), CASES, ids=[f"{p}-{i}" for i, (p, _) in enumerate(CASES)])
def test_the_core_takes_every_option(preset: str, options: dict[str, Any]) -> None:
    rules = RuleSet.from_preset(preset, **options)
    assert native_rules(rules).options() == rules.options()
    house = rules.with_options(house_fans={"jiangdui": 3, "shibaluohan": True}, max_fan=None, base=7)
    assert native_rules(house).options() == house.options()


def test_the_core_refuses_rules_it_cannot_pay() -> None:
    """Payments are 64-bit: the core pays up to 2^50 base a payment, and refuses a rule set whose
    wins could reach more (Python's integers would pay it; the core's would wrap). RuleSet refuses
    those rules itself (tests/test_rules_highest_total.py): the core is given them unvalidated."""
    near = RuleSet.from_preset("xuezhan", max_fan=50, house_fans={"menqing": 64})
    assert native_rules(near).options() == near.options()
    Lockstep(near, 19, lean=True).play()
    over_cap, over_house = unvalidated(near, max_fan=51), unvalidated(near, max_fan=None)
    for over in (over_cap, over_house):
        with pytest.raises(_core.RulesRefused, match=r"pays up to 2\^50 base a payment"):
            native_rules(over)


@pytest.mark.parametrize(("name", "value"), [("max_fan", 4), ("robbing_kong", False), ("zimo_bonus", "base"),
                                             ("dihu_on_dealer_discard", False), ("house_fans", {"menqing": 2}),
                                             ("longqidui", True), ("yaojiu", "literal")])
def test_the_scoring_options_agree_with_the_rules(name: str, value: Any) -> None:
    """The core reads those options from the scoring options alone: they must be the rule set's."""
    rules = RuleSet.from_preset("xuezhan")
    with pytest.raises(_core.RulesRefused, match=f"disagree with the rule set on {name}"):
        _core.Rules(rules, score_options(rules.with_options(**{name: value})))


def test_a_copy_plays_on_apart() -> None:
    lockstep = Lockstep(RuleSet.from_preset("xueliu"), 3, lean=True)
    for _ in range(40):
        lockstep.step()
    copied, made = copy.copy(lockstep.hand), len(lockstep.game.decisions)
    before = copied.events()
    lockstep.play()
    assert copied.events() == before != lockstep.hand.events()
    for seat, action in lockstep.game.decisions[made:]:  # the copy, played on as the original was
        copied.apply(seat, to_index(action))
    assert copied.finished and copied.events() == lockstep.hand.events()
    assert copy.deepcopy(copied).events() == copied.events()


def test_illegal_actions_are_refused() -> None:
    hand = _core.Hand(native_rules(RuleSet.from_preset("xuezhan")), RuleSet.from_preset("xuezhan").tiles.wall(), 0, 1)
    before = hand.events()
    with pytest.raises(ValueError, match="not a legal action"):
        hand.apply(0, HU_AT)
    assert hand.events() == before
    with pytest.raises(ValueError, match="whole set"):
        _core.Hand(native_rules(RuleSet.from_preset("xuezhan")), [0] * 108, 0, 1)
    with pytest.raises(ValueError, match="every action index"):
        hand.legal_of(0, (HU_AT,))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_play_in_the_core_is_repeatable(preset: str) -> None:
    rules = native_rules(RuleSet.from_preset(preset))
    first = _core.play_random(rules, 7, 20)
    assert first == _core.play_random(rules, 7, 20) > 20 * 40
