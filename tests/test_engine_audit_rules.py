"""Scripted hands for the rules an audit found broken, one test per rule (docs/rules.md: 地胡 in
血流, 查花猪 and a winner who left, a 血流 winner who leaves, 定缺 of a one-suit hand, 极品, a
concealed kong shown face up, 查花猪 under ``ting_max``, and the replay of automatic moves).

Ledger amounts are in units of base (a ``classic`` amount of 16 is 16 × 6 = 96 chips).
"""

from __future__ import annotations

from itertools import chain, zip_longest

import pytest

from chuanma.engine.actions import ChooseVoid, Discard, Exchange, Hu, IllegalActionError, Kong, Pass, Pong
from chuanma.engine.game import Game
from chuanma.engine.record import RecordError, replay, to_record
from chuanma.engine.referee import flower_pig
from chuanma.engine.tables import format_counts
from chuanma.engine.wall import build_wall
from chuanma.melds import Meld
from chuanma.tiles import parse_tiles, suit_of
from engine_play import record_decisions, written_and_omitted
from engine_setup import game, play, rules, run_out, t, wall_at
from reference_engine.kongs import payers

XUELIU_PRESETS = ("xueliu", "doublewin-xueliu", "portal-xueliu")


def _ledger(g: Game, *reasons: str) -> list[tuple[int, int, int, str]]:
    """The ledger as (payer, payee, amount, reason), only ``reasons`` if given."""
    return [(p.payer, p.payee, p.amount, p.reason) for p in g.ledger if not reasons or p.reason in reasons]


def _fan_ids(g: Game, i: int) -> list[str]:
    return [f[0] for f in g.wins[i].fans]


def _pig_draws(hands: list[str], suit: str, seats: int) -> list[int]:
    """Live draws that give the seat drawing first (and every ``seats``-th draw after) the tiles of
    ``suit`` left in the wall, so that, holding that suit as its void, it stays a 花猪."""
    rest = build_wall(hands)[53:]
    pig = [x for x in rest if suit_of(x) == suit]
    others = iter(x for x in rest if suit_of(x) != suit)
    rounds = zip_longest(pig, *[others] * (seats - 1))
    return [x for x in chain.from_iterable(rounds) if x is not None]


# 地胡 in 血流: seat 1 waits on 5p, the dealer's void tile; seat 2 waits on 9p/3s.
DIHU = [
    "1111m2345678m99s5p",  # dealer, void p (chosen): discards 5p
    "123456789s111p5p",  # void m (automatic): waits on 5p
    "234567p888p99p33s",  # void m (automatic): waits on 9p and 3s, draws 3s first
    "2468m2468p2468s1s",  # void p (chosen)
]


@pytest.mark.parametrize("preset", XUELIU_PRESETS)
def test_dihu_only_for_a_seat_that_has_not_won_xueliu(preset: str) -> None:
    # live draws: seat 2 draws 3s, seat 3 7p, the dealer 3p, seat 1 5p (its first draw)
    g = game(DIHU, wall=wall_at(DIHU, {0: "3s", 1: "7p", 2: "3p", 3: "5p"}), voids="pmmp",
             ruleset=rules(preset))
    play(g, (0, Discard(t("5p"))), (1, Hu()))
    # seat 2 has not won: its first live draw, before any pong or kong, is 地胡 (8 fan, fixed;
    # portal caps every hand at 4 fan); 血流: all three others pay a self-drawn win
    g.apply(2, Hu())
    assert _fan_ids(g, 1) == ["dihu"]
    dihu = 2**4 if preset == "portal-xueliu" else 2**8
    assert _ledger(g, "zimo") == [(3, 2, dihu, "zimo"), (0, 2, dihu, "zimo"), (1, 2, dihu, "zimo")]
    play(g, (3, Discard(t("7p"))), (0, Discard(t("3p"))))
    # seat 1 won on the dealer's discard before its first draw: that draw is no 地胡 any more;
    # it scores its own fans: 自摸 1 → 2^1 = 2 from each of the three others
    assert g.current == 1 and g.state.seats[1].drawn == t("5p")
    g.apply(1, Hu())
    assert _fan_ids(g, 2) == ["zimo"] and g.wins[2].situations == ()
    assert _ledger(g, "zimo")[3:] == [(2, 1, 2, "zimo"), (3, 1, 2, "zimo"), (0, 1, 2, "zimo")]
    # its first win itself: 地胡 on the dealer's first discard where that option is on
    # (doublewin: off, a plain win of 0 fan → 2^0 = 1)
    first = {"xueliu": 2**8, "portal-xueliu": 2**4, "doublewin-xueliu": 1}[preset]
    assert _ledger(g, "dianpao") == [(0, 1, first, "dianpao")]


# 查花猪: seats 1 and 2 win on the dealer's 5s (一炮多响); seat 3 holds ten void tiles and draws
# every void tile left, so it is still a 花猪 when the wall runs out.
PIG = [
    "11223s66778899s5s",  # dealer, one suit: void m (chosen)
    "111p222p333p444p5s",  # void m (automatic): waits on 5s
    "666p777p888p999p5s",  # void m (automatic): waits on 5s
    "11122233344m5p4s",  # void m (chosen): the 花猪
]


@pytest.mark.parametrize("leaves", [False, True])
def test_flower_pig_pays_winners_at_the_table_not_one_who_left_classic(leaves: bool) -> None:
    # after the wins only seats 3 and 0 draw, seat 3 first
    g = game(PIG, draws=_pig_draws(PIG, "m", 2), voids="mmmm", ruleset=rules("classic"))
    play(g, (0, Discard(t("5s"))), (1, Hu()), (2, Hu()))
    if leaves:
        g.leave(1)
        assert not g.finished and _ledger(g, "escape") == []  # a winner leaves without penalty
    run_out(g)
    assert g.end_reason == "exhausted" and flower_pig(g.state, 3)
    # each win: 对对胡 1 fan → 2^1 = 2 from the discarder
    # 查花猪 (fixed, flower_pig_pays_winners): 16 × base from the pig to every non-pig player still
    # at the table — the dealer, winner 2 and winner 1 unless it has left
    paid = [0, 2] if leaves else [0, 1, 2]
    assert _ledger(g) == [(0, 1, 2, "dianpao"), (0, 2, 2, "dianpao")] + [
        (3, s, 16, "flower_pig") for s in paid]
    assert sum(g.deltas()) == 0


# A 血流 hand: seat 1 wins on the dealer's first discard (5p) and is locked waiting on 5p.
LOCKED = [
    "1111m2345678m99s5p",  # dealer, void p (chosen)
    "123456789s111p5p",  # void m (automatic): waits on 5p
    "2468m2468p24668s",  # void p (chosen)
    "2468m2468p2558s3s",  # void p (chosen)
]


def test_xueliu_winner_who_leaves_stops_playing_and_the_hand_goes_on() -> None:
    # live draws: 7p, 3p, 9p (discarded), seat 1's 5p (a win it leaves instead of taking), 5p, 1p, 3p
    wall = wall_at(LOCKED, {0: "7p", 1: "3p", 2: "9p", 3: "5p", 4: "5p", 5: "1p", 6: "3p"})
    g = game(LOCKED, wall=wall, voids="pmpp", ruleset=rules("xueliu"))
    play(g, (0, Discard(t("5p"))), (1, Hu()),
         (2, Discard(t("7p"))), (3, Discard(t("3p"))), (0, Discard(t("9p"))))
    assert g.current == 1 and g.legal_actions(1) == [Hu(), Discard(t("5p"))]
    g.leave(1)
    # no escape penalty, the hand goes on, and its turn passes on: seat 2 draws
    assert not g.finished and g.state.public.out[1] and g.state.public.left[1]
    assert _ledger(g) == [(0, 1, 2**8, "dianpao")]  # 地胡 on the dealer's first discard
    assert g.current == 2 and g.state.seats[2].drawn == t("5p")
    # nobody pays seat 1 or is paid by it any more
    assert [payers(g.state, s) for s in (0, 2, 3)] == [[2, 3], [3, 0], [0, 2]]
    # seat 1 waits on 5p but is offered no claim on it: seat 3 draws
    g.apply(2, Discard(t("5p")))
    assert g.phase == "turn" and g.current == 3
    play(g, (3, Discard(t("1p"))), (0, Kong(t("1m"))))
    # 暗杠: 2 × base from each payer still playing (not seat 1)
    assert _ledger(g, "kong_concealed") == [(2, 0, 2, "kong_concealed"), (3, 0, 2, "kong_concealed")]
    g.apply(0, Discard(t("3p")))
    assert g.current == 2 and g.state.seats[1].drawn is None  # seat 1 draws no more
    assert g.tile_total() == 108


def test_xueliu_winner_who_leaves_holding_its_draw_is_left_out_of_the_exhaustive_settlement() -> None:
    # as above, seat 1 leaves on its own turn, still holding the 5p it drew (14 tiles)
    wall = wall_at(LOCKED, {0: "7p", 1: "3p", 2: "9p", 3: "5p", 4: "5p", 5: "1p", 6: "3p"})
    g = game(LOCKED, wall=wall, voids="pmpp", ruleset=rules("xueliu"))
    play(g, (0, Discard(t("5p"))), (1, Hu()),
         (2, Discard(t("7p"))), (3, Discard(t("3p"))), (0, Discard(t("9p"))))
    g.leave(1)
    run_out(g)  # everyone discards what it draws: the hands below are those the wall runs out on
    assert g.end_reason == "exhausted" and sum(g.state.seats[1].hand) == 14
    assert [format_counts(g.state.seats[s].hand) for s in (0, 2, 3)] == [
        "11112345678m99s", "24567899m24668s", "24566789m23558s"]
    # 查大叫 among the seats still playing: the dealer waits on 6m/9m, at best 根 (1111m) 1 fan →
    # 2^1 = 2 from each of seats 2 and 3, who are not ready; seat 1 has left: it pays and is paid
    # nothing (no pigs, no kongs)
    assert _ledger(g) == [(0, 1, 2**8, "dianpao"), (2, 0, 2, "chadajiao"), (3, 0, 2, "chadajiao")]


def test_xueliu_non_winner_who_leaves_ends_the_hand_with_the_escape_penalty() -> None:
    g = game(LOCKED, voids="pmpp", ruleset=rules("xueliu"))
    play(g, (0, Discard(t("5p"))), (1, Hu()))
    g.leave(2)
    # 逃跑: 16 × base to each other player who has not won (not winner 1)
    assert g.finished and g.end_reason == "escape"
    assert _ledger(g, "escape") == [(2, 3, 16, "escape"), (2, 0, 16, "escape")]


# 定缺: after the exchange (to_next) seat 0 holds two suits, seat 1 one suit, seats 2 and 3 three.
DINGQUE = ["123456789m12p789s", "1234567899s999m", "1357m1357p1357s9s", "2468m2468p2468s1s"]
GIVEN = ["789s", "999m", "135m", "246p"]
AFTER_EXCHANGE = ["123456789m12246p", "1234567788999s", "7m1357p1357s9s999m", "2468m8p2468s1s135m"]


@pytest.mark.parametrize("exchange", [True, False])
def test_dingque_one_suit_hand_chooses_one_of_the_other_two(exchange: bool) -> None:
    g = game(DINGQUE if exchange else AFTER_EXCHANGE, exchange=exchange)
    if exchange:
        for seat, tiles in enumerate(GIVEN):
            a, b, c = parse_tiles(tiles)
            g.apply(seat, Exchange((a, b, c)))
    assert g.phase == "void"
    # two suits (m, p): the third is chosen automatically
    assert g.state.seats[0].void == "s" and g.legal_actions(0) == []
    assert (0, ChooseVoid("s")) in g.autos and g.to_act() == (1, 2, 3)
    # one suit (s): one of the other two
    assert g.legal_actions(1) == [ChooseVoid("m"), ChooseVoid("p")]
    with pytest.raises(IllegalActionError, match=r"\(m or p\)"):
        g.apply(1, ChooseVoid("s"))
    # three suits: any
    for seat in (2, 3):
        assert g.legal_actions(seat) == [ChooseVoid("m"), ChooseVoid("p"), ChooseVoid("s")]


# 极品: seat 1 discards 5p (after a concealed kong of 2s, or not); seat 2 wins on it with
# 清一色 2 + 对对胡 1 = 3 fan (杠上炮 +1 after the kong).
JIPIN = [
    "123m456m789m1134s9s",  # dealer, void p (automatic): discards 1s
    "2222s468m468p68s5p",  # void p (chosen)
    "111p222p333p444p5p",  # one suit: void m (chosen); waits on 5p
    "13579m7p13579s99s",  # void p (chosen)
]


def _jipin(preset: str, kong: bool) -> Game:
    g = game(JIPIN, draws="9m", replacements="9p", voids="ppmp", ruleset=rules(preset))
    g.apply(0, Discard(t("1s")))
    if kong:
        g.apply(1, Kong(t("2s")))
    play(g, (1, Discard(t("5p"))), (2, Hu()))
    return g


@pytest.mark.parametrize(("preset", "kong", "fan", "jipin"), [
    ("classic", False, 3, True),  # shown as 3 + fan_label_offset 1 = 4 fan: 极品
    ("xuezhan", False, 3, False),  # shown as 3: not 极品
    ("xuezhan", True, 4, True),  # 3 + 杠上炮 1 = 4: 极品
])
def test_jipin_a_win_shown_as_four_fan_or_more(preset: str, kong: bool, fan: int, jipin: bool) -> None:
    g = _jipin(preset, kong)
    assert g.wins[0].total == fan
    # 点炮: 2^fan from the discarder
    assert _ledger(g, "dianpao") == [(1, 2, 2**fan, "dianpao")]
    (hu,) = [e for e in g.events_for(None) if e["type"] == "hu"]
    assert hu["jipin"] is jipin
    assert [w["jipin"] for w in g.result()["winners"]] == [jipin]
    again = replay(to_record(g), complete=False)
    assert [w["jipin"] for w in again.result()["winners"]] == [jipin]


@pytest.mark.parametrize(("preset", "shown"), [("classic", True), ("xuezhan", False)])
def test_concealed_kong_shown_to_everyone_classic_only(preset: str, shown: bool) -> None:
    g = game(JIPIN, draws="9m", replacements="9p", voids="ppmp", ruleset=rules(preset))
    play(g, (0, Discard(t("1s"))), (1, Kong(t("2s"))))
    kong = Meld("kong", t("2s"), "concealed")
    seen = kong if shown else None
    written = {"kind": "kong", "tile": "2s" if shown else None, "kong": "concealed"}
    for viewer in (0, 2, 3, None):
        view = g.view(viewer)
        assert view.players[1].melds == (seen,)
        assert view.to_dict()["players"][1]["melds"] == [written]
        (event,) = [e for e in g.events_for(viewer) if e["type"] == "kong"]
        assert event.get("tile") == ("2s" if shown else None)
    # its owner always sees it, and everyone does once the hand is over
    assert g.view(1).players[1].melds == (kong,)
    g.leave(3)
    assert g.finished and g.view(0).players[1].melds == (kong,)


# 查花猪 under ting_max: seat 1 is a 花猪 (draws every void tile), the dealer waits on 9p/3p
# (0 fan), seat 2 on 5s (对对胡 1 + 断幺九 1 = 2 fan), seat 3 is not waiting.
TING_MAX = [
    "1m234567m999m99p33p",  # dealer, void s (automatic): discards 1m
    "22244466688m1p2s",  # void m (chosen): the 花猪
    "222p444p666p888p5s",  # void m (automatic)
    "1357m1357s2468s9s",  # void p (automatic)
]


@pytest.mark.parametrize("preset", ["doublewin-xuezhan", "doublewin-xueliu"])
def test_flower_pig_ting_max_pays_each_waiting_player_twice(preset: str) -> None:
    g = game(TING_MAX, draws=_pig_draws(TING_MAX, "m", 4), voids="smmp", ruleset=rules(preset))
    run_out(g)
    assert g.end_reason == "exhausted" and flower_pig(g.state, 1) and not g.wins
    # 查花猪 (ting_max): the pig pays each waiting player base × 2^(its max fan): 2^0 = 1 to the
    # dealer, 2^2 = 4 to seat 2; then 查大叫 as a non-waiting player: the same amounts again;
    # seat 3 (not waiting, not a pig) pays 查大叫 only; no 退税 (no kongs, and off)
    assert _ledger(g) == [
        (1, 0, 1, "flower_pig"), (1, 2, 4, "flower_pig"),
        (1, 0, 1, "chadajiao"), (1, 2, 4, "chadajiao"),
        (3, 0, 1, "chadajiao"), (3, 2, 4, "chadajiao"),
    ]


# Replay of automatic moves (血流, LOCKED): seat 1's first draw after its win, 6s, is discarded
# automatically and seat 2 pongs it; at the end seat 1 must win twice on 5p (its own draw at 3
# tiles left, then seat 2's discard).
def _locked_hand() -> Game:
    wall = wall_at(LOCKED, {0: "7p", 1: "3p", 2: "9p", 3: "6s", 50: "5p", 51: "5p"}, replacements="9s")
    g = game(LOCKED, wall=wall, voids="pmpp", ruleset=rules("xueliu"))
    play(g, (0, Discard(t("5p"))), (1, Hu()), (2, Discard(t("7p"))), (3, Discard(t("3p"))),
         (0, Kong(t("1m"))), (0, Discard(t("9p"))))
    assert (1, Discard(t("6s"))) in g.autos and g.legal_actions(2) == [Pong(t("6s")), Pass()]
    play(g, (2, Pong(t("6s"))), (2, Discard(t("2p"))))
    run_out(g)
    assert g.end_reason == "exhausted"
    return g


def test_replay_of_written_and_omitted_automatic_moves_xueliu() -> None:
    g = _locked_hand()
    record = to_record(g)
    written, omitted = written_and_omitted(g)
    # what the machine decided: seat 1's void (two suits), then its locked discards
    assert g.autos[0] == (1, ChooseVoid("m")) and all(isinstance(a, Discard) for s, a in g.autos[1:])
    assert len(g.autos) == 13 and all(s == 1 for s, _ in g.autos)
    # the locked discard of 6s is written just before seat 2's pong of it
    i = written.index((2, Pong(t("6s"))))
    assert written[i - 1] == (1, Discard(t("6s")))
    # the two forced wins in the last four and the passes are left out
    assert [(w.seat, w.from_seat, w.tile) for w in g.wins] == [(1, 0, t("5p")), (1, None, t("5p")), (1, 2, t("5p"))]
    assert len(omitted) == len(record["decisions"]) - 3
    assert [m for m in omitted if m[1] in (Hu(), Pass())] == [(1, Hu())]  # the first win only
    for moves in (written, omitted):
        again = replay(dict(record, decisions=record_decisions(moves)))
        assert again.events == g.events and again.result() == g.result()


def test_replay_refuses_a_written_automatic_move_that_did_not_happen() -> None:
    g = _locked_hand()
    written, _ = written_and_omitted(g)
    i = written.index((1, Discard(t("6s"))))
    wrong = [*written[:i], (1, Discard(t("7s"))), *written[i + 1:]]
    with pytest.raises(RecordError, match=rf"decision {i}: seat 1's discard was automatic \(discard 6s\)"):
        replay(dict(to_record(g), decisions=record_decisions(wrong)))


def test_replay_omitted_passes_on_a_discard_and_the_locked_discard_after_it() -> None:
    # the dealer's 5s could be ponged by seat 3 (it passes); seat 1's locked discard of 6s then
    # could be ponged by seat 2 (it passes); seat 2 draws 1p and discards it
    g = game(LOCKED, wall=wall_at(LOCKED, {0: "7p", 1: "3p", 2: "5s", 3: "6s", 4: "1p"}),
             voids="pmpp", ruleset=rules("xueliu"))
    play(g, (0, Discard(t("5p"))), (1, Hu()), (2, Discard(t("7p"))), (3, Discard(t("3p"))),
         (0, Discard(t("5s"))), (3, Pass()), (2, Pass()), (2, Discard(t("1p"))))
    record = to_record(g)
    silent = [d for d in record["decisions"] if "pass" not in d]
    assert replay(dict(record, decisions=silent), complete=False).events == g.events
