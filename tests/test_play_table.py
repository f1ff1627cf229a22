"""The table of ``chuanma play`` drawn from one seat's view: settlement lines against the ledger,
the ticker's words, the board at 80 columns, and the answers a player types."""

from __future__ import annotations

import io
import re
from collections import Counter

import pytest
from rich.cells import cell_len
from rich.console import Console

from chuanma.bots import BOTS, make_bot
from chuanma.engine.actions import ChooseVoid, Chow, Discard, Exchange, Hu, Kong, Pass, Pong
from chuanma.engine.game import Game
from chuanma.narration import DIRECTIONS, end_text
from chuanma.rules import RuleSet
from chuanma.sim.play import deal_for, play_game
from chuanma.terminal.answers import AnswerError, label, parse_answer
from chuanma.terminal.board import board
from chuanma.terminal.seat import Human
from chuanma.terminal.settlement import Settlement
from chuanma.terminal.ticker import Ticker
from chuanma.terminal.words import tile_label
from chuanma.tiles import ALL_TILES, SICHUAN_TILES, parse_tile

NAMES = ["you", "east", "north", "west"]
PAY = re.compile(r"^\s+(you|[上对下]家 \S+) pays? (you|[上对下]家 \S+) (\d+)", re.M)
OFFSET = {"you": 0, "下家": 1, "对家": 2, "上家": 3}


def rendered(renderable: object, width: int = 80) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def bots_game(preset: str, seed: int) -> Game:
    bots = [make_bot(n, seed * 4 + i) for i, n in enumerate(["random", "greedy", "random", "greedy"])]
    rules = RuleSet.from_preset(preset)
    return play_game(rules, deal_for(seed, 0, rules.tiles), bots)


def listed(game: Game, me: int) -> Counter[tuple[int, int, int]]:
    view = game.view(me)
    text = rendered(Settlement(view, game.events_for(me), NAMES).render([0, 0, 0, 0]))
    return Counter(((me + OFFSET[a.split()[0]]) % 4, (me + OFFSET[b.split()[0]]) % 4, int(n))
                   for a, b, n in PAY.findall(text))


def test_settlement_lists_every_payment_of_the_ledger() -> None:
    reasons: set[str] = set()
    for preset in ("xuezhan", "xueliu", "classic"):
        for seed in range(12):
            game = bots_game(preset, seed)
            reasons |= {p.reason for p in game.ledger}
            for me in (0, 2):
                assert listed(game, me) == Counter((p.payer, p.payee, p.amount) for p in game.ledger)
    assert reasons >= {"zimo", "dianpao", "kong_concealed", "kong_added", "kong_exposed", "chadajiao",
                       "refund", "flower_pig"}


def test_settlement_shows_escape_penalties_and_only_what_happened() -> None:
    game = Game(RuleSet.from_preset("xuezhan"), deal_for(3, 0, SICHUAN_TILES).wall, 0, "to_next")
    game.leave(1)
    text = rendered(Settlement(game.view(0), game.events_for(0), NAMES).render([0, 0, 0, 0]))
    assert "逃跑 escape penalty" in text and "下家 east pays you 16" in text
    assert "查大叫" not in text and "wins" not in text
    assert listed(game, 0) == Counter((p.payer, p.payee, p.amount) for p in game.ledger)


def test_settlement_explains_chadajiao_with_hand_and_fan() -> None:
    game = next(g for g in (bots_game("xuezhan", s) for s in range(20))
                if any(p.reason == "chadajiao" for p in g.ledger))
    text = rendered(Settlement(game.view(0), game.events_for(0), NAMES).render([0, 0, 0, 0]), width=200)
    pay = next(p for p in game.ledger if p.reason == "chadajiao")
    fan = pay.amount.bit_length() - 1
    assert "ready on" in text and f": {fan} fan = {pay.amount}" in text
    assert "hands revealed" in text and "net (× base)" in text


def test_settlement_marks_jipin() -> None:
    for seed in range(60):
        game = bots_game("doublewin-xuezhan", seed)
        if any(w.jipin for w in game.wins):
            text = rendered(Settlement(game.view(0), game.events_for(0), NAMES).render([0] * 4), width=200)
            assert text.count("极品") == sum(w.jipin for w in game.wins)
            return
    pytest.fail("no 极品 win in 60 hands")


def test_ticker_names_another_seats_concealed_kong_face_down() -> None:
    game = bots_game("xuezhan", 5)  # seat 0 declares a concealed kong in this hand
    kong = next(e for e in game.events if e.type == "kong" and e.data["kind"] == "concealed")
    owner = 0
    assert kong.seat == owner
    viewer = (owner + 3) % 4  # the kong's owner is this viewer's 下家
    lines = Ticker(viewer, game.rules, NAMES).lines(game.events_for(viewer))
    assert f"下家 {NAMES[owner]} makes a concealed kong" in lines
    assert f"You make a concealed kong of {tile_label(parse_tile(kong.private['tile'])).strip()}" in Ticker(
        owner, game.rules, NAMES).lines(game.events_for(owner))


@pytest.mark.parametrize("direction", ["to_next", "to_previous", "opposite"])
def test_ticker_exchange_direction_in_words(direction: str) -> None:
    game = Game(RuleSet.from_preset("xuezhan"), deal_for(1, 0, SICHUAN_TILES).wall, 0, direction)  # type: ignore[arg-type]
    gave = None
    for s in range(4):
        view = game.view(s)
        action = next(a for a in view.legal_actions if isinstance(a, Exchange))
        if s == 0:
            gave = action
        game.apply(s, action)
    lines = Ticker(0, game.rules, NAMES).lines(game.events_for(0))
    text = "\n".join(lines)
    assert f"Exchange three: {DIRECTIONS[direction]['en']}" in text
    assert gave is not None and "You give " + " ".join(
        f"{t % 9 + 1}{'万筒条'[t // 9]}" for t in gave.tiles) in text
    assert "You receive " in text


def test_ticker_explains_a_locked_hands_automatic_discard() -> None:
    game = next(g for g in (bots_game("xueliu", s) for s in range(10)) if g.wins)
    winner = game.wins[0].seat
    lines = Ticker((winner + 1) % 4, game.rules, NAMES).lines(game.events_for((winner + 1) % 4))
    assert any(line.startswith(f"上家 {NAMES[winner]} discards") and "automatic: a locked 血流 hand" in line
               for line in lines)
    # exactly the machine's discards are told as automatic (a locked hand's own choice is not)
    told = sum("automatic: a locked 血流 hand" in line for line in lines)
    assert told == sum(isinstance(a, Discard) for _, a in game.autos)


def test_ticker_explains_a_forced_win_in_the_last_four() -> None:
    for seed in range(80):
        game = bots_game("xuezhan", seed)
        lines = Ticker(0, game.rules, NAMES).lines(game.events_for(0))
        forced = [line for line in lines if "forced: in the last four tiles" in line]
        if forced:
            assert all(" win" in line for line in forced)
            return
    pytest.fail("no win in the last four tiles in 80 hands")


def test_board_fits_80_columns_and_shows_the_ticker_beside_when_wide() -> None:
    game = Game(RuleSet.from_preset("xueliu"), deal_for(2, 0, SICHUAN_TILES).wall, 0, "to_next")
    bots = [BOTS["greedy"](s) for s in range(4)]
    ticker = Ticker(0, game.rules, NAMES)
    steps = 0
    while not game.finished:
        s = game.to_act()[0]
        game.apply(s, bots[s].choose(game.view(s), game.legal_actions(s)))
        steps += 1
        if steps % 15 == 0 or game.finished:
            news = ticker.lines(game.events_for(0))
            narrow = rendered(board(game.view(0), NAMES, [0] * 4, "hand 1/1", news, 80))
            assert max(cell_len(line) for line in narrow.splitlines()) <= 80 and "…" not in narrow
            wide = rendered(board(game.view(0), NAMES, [0] * 4, "hand 1/1", news, 140), width=140)
            assert "ticker" in wide and max(cell_len(line) for line in wide.splitlines()) > 100


def test_board_shows_only_what_the_seat_may_see() -> None:
    game = Game(RuleSet.from_preset("xuezhan"), deal_for(4, 0, SICHUAN_TILES).wall, 0, "to_next")
    text = rendered(board(game.view(0), NAMES, [0] * 4, "hand 1/1"))
    assert "  hand " not in text and "  shows " not in text  # nobody's concealed tiles but one's own
    assert text.count("缺?") == 4 and "庄" in text and "wall 55" in text


def test_board_sets_the_drawn_tile_apart_and_marks_void_tiles() -> None:
    game = bots_game("xuezhan", 0)
    replay = Game(game.rules, game.wall, game.dealer, game.direction)
    for seat, action in game.decisions:
        view = replay.view(seat)
        if view.phase == "turn" and view.drawn is not None and view.holds_void():
            text = rendered(board(view, NAMES, [0] * 4, "hand 1/1"))
            assert "drew" in text and "缺 tiles underlined" in text
            return
        replay.apply(seat, action)
    pytest.fail("no turn holding a void tile")


# ---------------------------------------------------------------------- answers

LEGAL = [Hu(), Kong(parse_tile("5m")), Pong(parse_tile("5m")), Pass()]


@pytest.mark.parametrize(("raw", "expected"), [
    ("hu", Hu()), ("胡", Hu()), ("pass", Pass()), ("过", Pass()), ("", Pass()), ("2", Kong(parse_tile("5m"))),
    ("kong", Kong(parse_tile("5m"))), ("kong 5m", Kong(parse_tile("5m"))), ("碰", Pong(parse_tile("5m"))),
    ("?", "help"), ("ap", "auto_pass"), ("aw", "auto_win"), ("t", "tuoguan"), ("托管", "tuoguan")])
def test_answers_at_a_claim(raw: str, expected: object) -> None:
    assert parse_answer(raw, LEGAL, Pass()) == expected


def test_answers_name_tiles_in_notation_and_chinese() -> None:
    legal = [Discard(parse_tile(t)) for t in ("5m", "3p", "9s")]
    assert parse_answer("5m", legal, None) == legal[0]
    assert parse_answer("五万", legal, None) == legal[0]
    assert parse_answer("3筒", legal, None) == legal[1]
    assert parse_answer("九条", legal, None) == legal[2]
    exchange = [Exchange((1, 4, 7)), Exchange((0, 1, 2))]
    assert parse_answer("258m", exchange, None) == exchange[0]
    assert parse_answer("2万 5万 8万", exchange, None) == exchange[0]
    with pytest.raises(AnswerError, match=r"tiles: no honour tiles \(3z\) in the 108-tile set"):
        parse_answer("1m2m3z", exchange, None, tile_set=SICHUAN_TILES)
    with pytest.raises(AnswerError, match=r"use digits and m, p, s$"):
        parse_answer("2m5m8x", exchange, None, tile_set=SICHUAN_TILES)
    with pytest.raises(AnswerError, match=r"use digits and m, p, s, z$"):
        parse_answer("2m5m8x", exchange, None, tile_set=ALL_TILES)
    voids = [ChooseVoid("m"), ChooseVoid("p"), ChooseVoid("s")]
    assert parse_answer("void s", voids, None) == voids[2]
    assert parse_answer("缺条", voids, None) == voids[2]
    assert parse_answer("p", voids, None) == voids[1]


@pytest.mark.parametrize(("raw", "words"), [
    ("9z", "tiles:"), ("7m", "打 7万 is not possible: you hold no 7万; you can discard 5万 3筒 9条"),
    ("1s", "打 1条 is not possible: your void suit's tiles go first"), ("0", "no choice 0"),
    ("12", "the listed choices are 1 to 3"), ("pong", "pong is not possible now: you can discard 5万 3筒 9条"),
    ("123m", "exchange 1万 2万 3万 is not possible: it is your turn to discard; you can discard"),
    ("void z", "void z is not possible: it is your turn to discard"),
    ("1m2m", "give one tile to discard or three to exchange")])
def test_answers_refuse_bad_input_saying_why(raw: str, words: str) -> None:
    legal = [Discard(parse_tile(t)) for t in ("5m", "3p", "9s")]
    hand = [0] * 34
    for t in ("5m", "3p", "9s", "1s"):
        hand[parse_tile(t)] += 1
    with pytest.raises(AnswerError, match=re.escape(words)):
        parse_answer(raw, legal, None, hand=hand)


def test_answers_take_a_choices_label_typed_back() -> None:
    legal = [Discard(parse_tile("2m")), Pong(parse_tile("5m")), Hu(), Pass()]
    for action in legal:
        assert parse_answer(label(action), legal, None) == action
    exchange = [Exchange((1, 4, 7)), Exchange((0, 1, 2))]
    assert parse_answer(label(exchange[0]), exchange, None) == exchange[0]
    chows = [Chow(parse_tile("3m")), Chow(parse_tile("4m")), Pass()]
    assert parse_answer(label(chows[1]), chows, None) == chows[1]


def test_answers_at_a_chow_and_honours_by_name() -> None:
    """大众麻将: ``chow`` with the run's lowest tile (or 吃, or a listed number); honour tiles by
    their notation or their Chinese name."""
    chows = [Chow(parse_tile("3m")), Chow(parse_tile("4m")), Pass()]
    assert parse_answer("chow 4m", chows, Pass()) == chows[1]
    assert parse_answer("吃 三万", chows, Pass()) == chows[0]
    assert parse_answer("1", chows, Pass()) == chows[0]
    with pytest.raises(AnswerError, match=re.escape("which chow? 吃 3万 4万 5万, 吃 4万 5万 6万")):
        parse_answer("chow", chows, Pass())
    with pytest.raises(AnswerError, match="chow 5m is not possible now"):
        parse_answer("chow 5m", chows, Pass())
    honours = [Discard(parse_tile(t)) for t in ("1z", "6z", "7z")]
    assert [parse_answer(raw, honours, None) for raw in ("東", "东", "發", "发", "中", "7z")] == [
        honours[0], honours[0], honours[1], honours[1], honours[2], honours[2]]


def test_board_and_ticker_of_dazhong_show_chows_honours_and_no_void() -> None:
    """A 大众麻将 hand seen from seat 0: the ticker tells each chow with the run made, melds show
    吃 and the run, honours show by name, and no seat shows a void (大众麻将 has no 定缺)."""
    game = next(g for g in (bots_game("dazhong", s) for s in range(20))
                if any(e.type == "chow" for e in g.events))
    ticker = Ticker(0, game.rules, NAMES)
    lines = [ticker.line(ev) for ev in game.events_for(0) if ev["type"] == "chow"]
    assert lines and all(line is not None and " chow" in line and ": " in line for line in lines)
    text = rendered(board(game.view(0), NAMES, [0] * 4, "hand 1/1"), width=200)
    assert "吃 " in text and "缺" not in text
    assert any(name in text for name in "東南西北白發中")


def test_answers_ask_which_when_ambiguous() -> None:
    with pytest.raises(AnswerError, match="which kong"):
        parse_answer("kong", [Kong(parse_tile("5m")), Kong(parse_tile("7p")), Discard(0)], None)
    with pytest.raises(AnswerError, match="Enter has no default"):
        parse_answer("", [Kong(parse_tile("5m")), Discard(0)], None)


def test_settlement_names_a_concealed_kongs_tile_once_the_hand_is_over() -> None:
    game = bots_game("xuezhan", 5)  # seat 0 declares a concealed kong in this hand
    kong = next(e for e in game.events if e.type == "kong" and e.data["kind"] == "concealed")
    viewer = (kong.seat + 1) % 4  # the kong's owner is this viewer's 上家
    text = rendered(Settlement(game.view(viewer), game.events_for(viewer), NAMES).render([0] * 4), width=200)
    tile = kong.private["tile"]
    assert f"上家 {NAMES[kong.seat]}'s 暗杠 {tile[0]}{'万筒条'['mps'.index(tile[1])]}" in text


def test_enter_declares_a_win_rather_than_throwing_it_away() -> None:
    game = bots_game("xuezhan", 1)
    replay = Game(game.rules, game.wall, game.dealer, game.direction)
    for seat, action in game.decisions:
        view = replay.view(seat)
        legal = list(view.legal_actions)
        if any(isinstance(a, Hu) for a in legal) and len(legal) > 1:
            human = Human(Console(file=io.StringIO()), seat, NAMES, BOTS["greedy"](0),
                          Ticker(seat, game.rules, NAMES), [0] * 4, "hand 1/1")
            assert isinstance(human.default(view, legal), Hu)
            return
        replay.apply(seat, action)
    pytest.fail("no decision with a win among other choices")


def test_ticker_tells_every_public_event() -> None:
    quiet = {"start", "deal", "deal_done", "claim"}  # the set-up, and one's own answers (shown on the table)
    for preset, seed in (("xuezhan", 2), ("xueliu", 5), ("classic", 6), ("classic-normal", 3), ("dazhong", 4)):
        game = bots_game(preset, seed)
        ticker = Ticker(0, game.rules, NAMES)
        silent = [ev for ev in game.events_for(0) if ticker.line(ev) is None and ev["type"] not in quiet
                  and not (ev["type"] == "draw" and ev["seat"] != 0 and not ev["replacement"])]
        assert silent == []


def test_settlement_explains_a_fixed_flower_pig_penalty() -> None:
    game = next(g for g in (bots_game("classic", s) for s in range(30))
                if any(p.reason == "flower_pig" for p in g.ledger))
    text = rendered(Settlement(game.view(0), game.events_for(0), NAMES).render([0] * 4), width=200)
    pay = next(p for p in game.ledger if p.reason == "flower_pig")
    hands = text.split("hands revealed")[1].split("wins")[0].split("查花猪")[0]
    assert f"the fixed 花猪 penalty {pay.amount}" in text and " 花猪" in hands


def test_ticker_and_settlement_speak_of_the_viewer_in_the_second_person_and_say_why_the_hand_ended() -> None:
    for seed in range(40):
        game = bots_game("xuezhan", seed)
        dealt_in = [w for w in game.wins if w.from_seat is not None and not w.robbed]
        if dealt_in:
            break
    else:
        pytest.fail("no win on a discard in 40 hands")
    me = dealt_in[0].from_seat
    assert me is not None
    lines = Ticker(me, game.rules, NAMES).lines(game.events_for(me))
    text = "\n".join(lines) + rendered(Settlement(game.view(me), game.events_for(me), NAMES).render([0] * 4), width=200)
    assert "you's" not in text and "you is" not in text and "You wins" not in text
    assert "on your discard" in text and any(line.endswith(")") and " from you: " in line for line in lines
                                             if " wins on " in line)
    assert any(line.startswith("You discard ") for line in lines)
    assert lines[-1] == f"The hand is over ({end_text(game.end_reason or '')})"
