"""The expert bot: legal in every preset, deterministic, and its reading of danger on
constructed views (a void suit, a seat's own discards, a locked 血流 winner's waits)."""

from __future__ import annotations

import pytest

from chuanma.bots import BOTS, SeatView, make_bot
from chuanma.bots.defensive import DefensiveBot
from chuanma.bots.expert import ExpertBot, ready_chance, wait_multipliers
from chuanma.engine.game import Game
from chuanma.engine.wall import build_wall
from chuanma.melds import Meld
from chuanma.rules import PRESETS, RuleSet
from chuanma.sim.play import bot_seed, deal_for, play_hand
from chuanma.tiles import parse_tile, parse_tiles, to_counts

HANDS = ["123456789m1234p5s", "1112223334445s", "5556667778889p", "6667778882223m"]


def _view(preset: str = "xuezhan") -> SeatView:
    """Seat 0's view at the start of a hand (its decision: the exchange)."""
    return Game(RuleSet.from_preset(preset), build_wall(HANDS)).view(0)


def _with(view: SeatView, seat: int, **fields: object) -> SeatView:
    players = list(view.players)
    players[seat] = players[seat]._replace(**fields)
    return view._replace(players=tuple(players))


def _ready_opponent(view: SeatView, discards: str, void: str | None) -> SeatView:
    """Seat 1 has made ``discards`` (enough turns to be read as likely ready), void ``void``."""
    log = tuple((1, t) for t in parse_tiles(discards))
    view = _with(view, 1, void=void, discards=tuple(parse_tiles(discards)))
    return view._replace(discard_log=log)


def test_expert_is_registered() -> None:
    assert "expert" in BOTS
    assert isinstance(make_bot("expert", 3), ExpertBot)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_expert_plays_every_preset_legally(preset: str) -> None:
    """play_hand raises on any decision outside the legal list; every hand is zero-sum."""
    rules = RuleSet.from_preset(preset)
    for i in range(6):
        names = ("expert", "defensive", "expert", "greedy") if i % 2 else ("expert",) * 4
        bots = [make_bot(names[s], bot_seed(31, i, s)) for s in range(4)]
        r = play_hand(rules, deal_for(31, i, rules.tiles), bots)
        assert sum(x.delta for x in r.seats) == 0


def test_expert_is_deterministic_given_its_seed() -> None:
    rules = RuleSet.from_preset("xuezhan")
    for i in range(3):
        recs = [play_hand(rules, deal_for(41, i, rules.tiles),
                          [make_bot("expert", bot_seed(41, i, s)) for s in range(4)], record=True).record
                for _ in range(2)]
        assert recs[0] is not None and recs[0] == recs[1]


def test_an_opponents_void_suit_is_safe_against_them() -> None:
    """Seat 1 has discarded twelve tiles and is void in 万 (m): a 万 tile cannot complete its
    hand, while a 筒 (p) tile of the same rank can."""
    view = _ready_opponent(_view(), "19s19p28s28p37s37p4s4p", "m")
    bot = ExpertBot(1)
    five_m, five_p = parse_tile("5m"), parse_tile("5p")
    d = bot.dangers(view, [five_m, five_p], view.unseen_counts())
    assert d[five_m] == 0.0
    assert d[five_p] > 0.0


def test_an_opponents_own_discard_is_safer_than_a_fresh_tile() -> None:
    """现物: seat 1 discarded a 6p itself, so 6p is read far less dangerous against it than the
    6s it never threw."""
    view = _ready_opponent(_view(), "19s19p28s28p37s37p6p4s", "m")
    six_p, six_s = parse_tile("6p"), parse_tile("6s")
    d = ExpertBot(1).dangers(view, [six_p, six_s], view.unseen_counts())
    assert 0.0 < d[six_p] < d[six_s] / 5


def test_a_locked_xueliu_winner_deals_in_only_on_its_waits() -> None:
    """血流: seat 1 won with 123m 456m 789m 11p 23p laid down (locked, waiting on 1p or 4p).
    Its waits are known exactly: a 4p deals in for certain (a large cost); the 9s it discarded
    after winning, or any tile outside its waits, is safe against it."""
    view = _view("xueliu")
    shown = tuple(to_counts(parse_tiles("123456789m1123p")))
    view = _with(view, 1, won=1, hand=shown, void="s", locked=True, win_pile=(parse_tile("5p"),))
    view = view._replace(discard_log=((1, parse_tile("9s")),))
    four_p, nine_s, seven_p = parse_tile("4p"), parse_tile("9s"), parse_tile("7p")
    d = ExpertBot(1).dangers(view, [four_p, nine_s, seven_p], view.unseen_counts())
    assert d[four_p] >= 3.0
    assert d[nine_s] == 0.0 and d[seven_p] == 0.0


def test_ready_hands_are_valued_by_the_fan_of_their_waits() -> None:
    """A ready 1122334455667m waits on 7m as 七对 + 清一色 (4 fan, 16 times the base) and on 1m
    or 4m as 清一色 (4 times); a ready 123456789m 55m 23p waits on 1p or 4p for a plain win.
    The 清一色 hand is worth more to the expert; the defensive bot counts only live copies, so
    with as many copies it values both alike."""
    view = _view()
    unseen = view.unseen_counts()
    seven_pairs = list(to_counts(parse_tiles("1122334455667m")))
    plain = list(to_counts(parse_tiles("123456789m55m23p")))
    assert wait_multipliers(view, seven_pairs) == {parse_tile("1m"): 4, parse_tile("4m"): 4, parse_tile("7m"): 16}
    assert wait_multipliers(view, plain) == {parse_tile("1p"): 1, parse_tile("4p"): 1}
    expert, defensive = ExpertBot(1), DefensiveBot(1)
    sp_live = sum(unseen[parse_tile(x)] for x in ("1m", "4m", "7m"))
    plain_live = unseen[parse_tile("1p")] + unseen[parse_tile("4p")]
    assert expert.line_value(view, seven_pairs, 0, sp_live, unseen, 5.0, flush=False) > \
        expert.line_value(view, plain, 0, plain_live, unseen, 5.0, flush=False)
    assert defensive.line_value(view, seven_pairs, 0, 6, unseen, 5.0, flush=False) == \
        defensive.line_value(view, plain, 0, 6, unseen, 5.0, flush=False)


def test_a_wait_on_the_fourth_copy_the_seat_holds_is_left_out() -> None:
    """With a pong of 3m laid down, 3m 567s 789s 123s waits on 3m alone in shape, but the seat
    holds the three other copies itself: no wait is left to value (and none is scored); with a
    4m instead the hand waits on 4m (a plain win)."""
    hand = tuple(to_counts(parse_tiles("3m567s789s123s")))
    view = _with(_view(), 0, melds=(Meld("pong", parse_tile("3m")),), hand=hand)
    assert wait_multipliers(view, hand) == {}
    other = tuple(to_counts(parse_tiles("4m567s789s123s")))
    assert wait_multipliers(_with(view, 0, hand=other), other) == {parse_tile("4m"): 1}


def test_being_ready_at_the_draw_counts_late_in_the_hand() -> None:
    """The expert adds the worth of being ready at an exhaustive draw: a ready hand has it in
    full (times the best multiplier of its waits), a hand two steps away with two draws left
    little of it."""
    assert ready_chance(0, 0, 50, 0.0) == 1.0
    assert ready_chance(2, 6, 50, 2.0) < 0.2
    view = _view()
    unseen = view.unseen_counts()
    plain = list(to_counts(parse_tiles("123456789m55m23p")))
    expert, defensive = ExpertBot(1), DefensiveBot(1)
    # no draws left: no win to hope for, only 查大叫
    assert defensive.line_value(view, plain, 0, 6, unseen, 0.0, flush=False) == 0.0
    assert expert.line_value(view, plain, 0, 6, unseen, 0.0, flush=False) == expert.chajiao_value
    no_chajiao = view._replace(rules=RuleSet.from_preset("xuezhan", chadajiao=False))
    assert expert.line_value(no_chajiao, plain, 0, 6, unseen, 0.0, flush=False) == 0.0
    far = list(to_counts(parse_tiles("147m258p369s19m1p")))
    assert expert.line_value(view, far, 2, 6, unseen, 2.0, flush=False) < expert.chajiao_value / 5
