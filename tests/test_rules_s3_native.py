"""The compiled fan scoring (chuanma._core, through the chuanma.scoring facade) against the Python
scoring it replaced (``tests/scoring_reference.py``), in lockstep on a fixed-seed sample of winning
hands built from sets and a pair (seven pairs, 十三幺): every preset, random rule options and house
fans, melds of every kind (chows in 大众麻将), valid situations, voids held and not; hands one tile
short of them for 查大叫; and the core's fan and situation order against the Python table."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from chuanma import _core
from chuanma.fans import HOUSE_FAN_DEFAULTS
from chuanma.melds import KONG_KINDS, Meld
from chuanma.rules import PRESETS, RuleSet
from chuanma.scoring import FANS, SITUATIONS, max_static_fan, score_hand, score_options
from chuanma.tiles import NUM_KINDS, NUM_SUITED, SUITS, Tile
from conftest import ORPHAN_KINDS
from scoring_reference import reference_max_static_fan, reference_score_hand

POOLS = ("any", "one suit", "terminals", "2-5-8", "simples", "one suit and honours", "honours", "winds", "dragons")
"""The tiles a hand's sets are drawn from (the last four hold honours): narrow pools, some with a
tile listed more than once, make the rarer fans likely."""


def rule_set(rng: random.Random) -> RuleSet:
    """A preset (大众麻将, the only one with honours, a third of the time) with random scoring options."""
    preset = "dazhong" if rng.random() < 0.35 else rng.choice(list(PRESETS))
    options: dict[str, Any] = {}
    for name in ("longqidui", "gangshangpao", "haidilaoyue", "haidipao", "gangshang_shuanghua",
                 "dihu_on_dealer_discard", "robbing_kong"):
        if rng.random() < 0.3:
            options[name] = rng.random() < 0.5
    if rng.random() < 0.5:
        options["yaojiu"] = rng.choice(("daiyaojiu", "literal"))
    if rng.random() < 0.3:
        options["zimo_bonus"] = rng.choice(("fan", "base"))
    if rng.random() < 0.3:
        options["max_fan"] = rng.choice((None, 1, 3, 4, 6, 8))
    if rng.random() < 0.5:
        options["house_fans"] = {name: rng.choice((1, 2, 3, default)) for name, default in HOUSE_FAN_DEFAULTS.items()
                                 if rng.random() < 0.6}
    return RuleSet.from_preset(preset, **options)


def pool(rng: random.Random, honours: bool) -> list[Tile]:
    kind = rng.choice(POOLS if honours else (*POOLS[:5], "one suit"))
    suit = 9 * rng.randrange(3)
    two = [t for t in range(NUM_SUITED) if t // 9 != (suit // 9 + 1) % 3]  # two suits: a Sichuan hand can win
    winds, dragons = list(range(27, 31)), list(range(31, 34))
    tiles = {
        "any": list(range(NUM_KINDS if honours else NUM_SUITED)),
        "one suit": list(range(suit, suit + 9)),
        "one suit and honours": list(range(suit, suit + 9)) + winds + dragons,
        "honours": winds + dragons,
        "terminals": [t for t in two if t % 9 in (0, 8)] + (winds + dragons if honours else []),
        "2-5-8": [t for t in two if t % 9 in (1, 4, 7)],
        "simples": [t for t in two if t % 9 not in (0, 8)],
        "winds": winds * 3 + list(range(suit, suit + 9)),
        "dragons": dragons * 3 + list(range(suit, suit + 9)),
    }[kind]
    return tiles


@dataclass
class Case:
    """One call of score_hand (and the hand before its win, for 查大叫)."""

    rules: RuleSet
    hand: list[Tile]
    melds: list[Meld]
    win: Tile
    self_drawn: bool
    void: str | None
    situations: list[str] = field(default_factory=list)


def take(counts: list[int], tiles: list[Tile]) -> bool:
    """Add ``tiles`` to ``counts`` if no tile goes above four."""
    for t in tiles:
        counts[t] += 1
    if max(counts) <= 4:
        return True
    for t in tiles:
        counts[t] -= 1
    return False


def standard(rng: random.Random, rules: RuleSet, tiles: list[Tile]) -> tuple[list[Tile], list[Meld]] | None:
    """Four sets and a pair from ``tiles``, some of the sets declared; None when the draw runs out."""
    counts = [0] * NUM_KINDS
    concealed: list[Tile] = []
    melds: list[Meld] = []
    declared = rng.choice((0, 0, 1, 2, 3, 4, 4))
    pair = rng.choice(tiles)
    if not take(counts, [pair, pair]):
        return None
    concealed += [pair, pair]
    for i in range(4):
        for _ in range(20):
            t = rng.choice(tiles)
            sequence = t < NUM_SUITED and t % 9 < 7 and t + 2 in tiles and rng.random() < 0.5
            meld = i < declared and (not sequence or rules.game_variant.chow)
            kong = meld and not sequence and rng.random() < 0.7
            set_tiles = [t, t + 1, t + 2] if sequence else [t] * (4 if kong else 3)
            if take(counts, set_tiles):
                break
        else:
            return None
        if not meld:
            concealed += set_tiles
        elif sequence:
            melds.append(Meld("chow", t))
        else:
            melds.append(Meld("kong", t, rng.choice(KONG_KINDS)) if kong else Meld("pong", t))
    return concealed, melds


def seven_pairs(rng: random.Random, tiles: list[Tile]) -> list[Tile] | None:
    counts = [0] * NUM_KINDS
    for _ in range(7):
        if not any(take(counts, [t, t]) for t in [rng.choice(tiles) for _ in range(10)]):
            return None
    return [t for t, c in enumerate(counts) for _ in range(c)]


def situations(rng: random.Random, self_drawn: bool, melds: list[Meld]) -> list[str]:
    """A random valid set of situations for a win of this kind."""
    found: list[str] = []
    if self_drawn and rng.random() < 0.3:
        found += ["kong_replacement"] + (["consecutive_kongs"] if rng.random() < 0.5 else [])
    if not self_drawn and rng.random() < 0.3:
        found.append(rng.choice(("after_kong", "robbing_kong")))
    if rng.random() < 0.2:
        found.append("last_tile")
    if not melds and rng.random() < 0.15:
        found.append(rng.choice(("tianhu", "dihu") if self_drawn else ("dihu",)))
    return found


def case(rng: random.Random) -> Case:
    """A random win (sometimes spoiled into an incomplete hand), with rules, void and situations."""
    while True:
        rules = rule_set(rng)
        honours = rules.tiles.honours
        form = rng.choices(("standard", "seven", "orphans"), (8, 2, 1 if honours else 0))[0]
        tiles = pool(rng, honours)
        melds: list[Meld] = []
        if form == "orphans":
            concealed: list[Tile] | None = [*ORPHAN_KINDS, rng.choice(ORPHAN_KINDS)]
        elif form == "seven":
            concealed = seven_pairs(rng, tiles)
        else:
            built = standard(rng, rules, tiles)
            concealed, melds = built if built else (None, [])
        if concealed is None:
            continue
        if rng.random() < 0.1:  # spoiled: one concealed tile replaced
            concealed[rng.randrange(len(concealed))] = rng.randrange(NUM_KINDS if honours else NUM_SUITED)
            if max(concealed.count(t) + sum(m.tiles.count(t) for m in melds) for t in concealed) > 4:
                continue
        win = concealed.pop(rng.randrange(len(concealed)))
        void = None
        if rules.game_variant.void and rng.random() < 0.8:
            held = {t // 9 for t in [*concealed, win, *(t for m in melds for t in m.tiles)] if t < NUM_SUITED}
            free = [s for i, s in enumerate(SUITS) if i not in held]
            void = rng.choice(free) if free and rng.random() < 0.85 else rng.choice(SUITS)
        self_drawn = rng.random() < 0.5
        return Case(rules, concealed, melds, win, self_drawn, void, situations(rng, self_drawn, melds))


SEEDS = range(4)
CASES = 1500


@pytest.mark.parametrize("seed", SEEDS)
def test_score_hand_agrees_with_the_python_reference(seed: int) -> None:
    rng = random.Random(seed)
    wins = 0
    for _ in range(CASES):
        c = case(rng)
        args = (c.rules, c.hand, c.melds, c.win)
        kwargs: dict[str, Any] = {"self_drawn": c.self_drawn, "void": c.void, "situations": c.situations}
        got, expected = score_hand(*args, **kwargs), reference_score_hand(*args, **kwargs)
        assert got == expected, c
        assert got.decomposition == expected.decomposition, c
        wins += got.win
    assert wins > CASES // 2


def test_the_sample_scores_every_fan_and_every_reason() -> None:
    """The lockstep sample reaches every fan of the table and every reason a hand does not win."""
    rng = random.Random(SEEDS[0])
    fans: set[str] = set()
    reasons: set[str] = set()
    for _ in range(CASES * 2):
        c = case(rng)
        result = score_hand(c.rules, c.hand, c.melds, c.win, self_drawn=c.self_drawn, void=c.void,
                            situations=c.situations)
        fans |= {f.id for f in result.fans}
        reasons.add((result.reason or "win").split(":")[0])
    assert fans == set(FANS)
    assert reasons == {"win", "holds tiles of the void suit m", "holds tiles of the void suit p",
                       "holds tiles of the void suit s", "holds all three suits", "not a complete hand",
                       "robbing a kong (抢杠胡) is not allowed under these rules"}


@pytest.mark.parametrize("seed", SEEDS)
def test_max_static_fan_agrees_with_the_python_reference(seed: int) -> None:
    """On the hands one tile short of a win (ready, or not when the win was spoiled)."""
    rng = random.Random(1000 + seed)
    ready = 0
    for _ in range(CASES // 2):
        c = case(rng)
        got = max_static_fan(c.rules, c.hand, c.melds, c.void)
        assert got == reference_max_static_fan(c.rules, c.hand, c.melds, c.void), c
        ready += got is not None
    assert ready > CASES // 8


def test_the_core_lists_the_fans_and_situations_of_the_python_table() -> None:
    assert _core.fan_ids() == list(FANS)
    assert _core.situation_ids() == list(SITUATIONS)


def test_fan_values_come_from_the_python_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """The core holds no value of its own: it scores what the table (and the rules' house fans) say."""
    hand = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4]
    result = score_hand(RuleSet.from_preset("xuezhan"), hand, [], 4, self_drawn=False)
    assert [(f.id, f.fan) for f in result.fans] == [("qingyise", 2), ("duiduihu", 1)]
    monkeypatch.setitem(FANS, "qingyise", replace(FANS["qingyise"], fan=5))
    result = score_hand(RuleSet.from_preset("xuezhan", house_fans={"menqing": 3}), hand, [], 4, self_drawn=False)
    assert [(f.id, f.fan) for f in result.fans] == [("qingyise", 5), ("duiduihu", 1), ("menqing", 3)]
    assert result.total == 9


@pytest.mark.parametrize(("name", "value"), [("max_fan", -2), ("max_fan", 65), ("value", [65] * len(FANS)),
                                             ("value", [-1] * len(FANS)), ("house", 1)])
def test_score_options_refuse_values_out_of_range(name: str, value: Any) -> None:
    """封顶 and the fans' values are 0 to 64 (sums stay far within int, shifts within 64 bits)."""
    options = _core.ScoreOptions()
    with pytest.raises(ValueError, match=r"64|house"):
        setattr(options, name, value)
    assert options.max_fan == -1 and options.value == _core.ScoreOptions().value and options.house == 0


def test_score_options_are_a_copy_each_time() -> None:
    rules = RuleSet.from_preset("xuezhan")
    score_options(rules).max_fan = 2
    assert score_options(rules).max_fan == -1


def test_the_core_refuses_what_the_facade_never_gives() -> None:
    """Out-of-range input is refused, never read: the core is safe to call without the facade."""
    options = _core.ScoreOptions()
    counts = bytes([3, 3, 3, 3, 2] + [0] * 29)
    assert _core.score(counts, [], 4, False, -1, 0, options)[0] is _core.NoWin.WINS
    for melds, win, vi in (([(_core.MeldKind.PONG, 34, False)], 4, -1), ([(_core.MeldKind.CHOW, 7, False)], 4, -1),
                           ([], 5, -1), ([], 40, -1), ([], 4, 3), ([(_core.MeldKind.PONG, 0, False)] * 5, 4, -1)):
        with pytest.raises(ValueError, match="refused"):
            _core.score(counts, melds, win, False, vi, 0, options)
    assert _core.max_static_fan(bytes([3, 3, 3, 3, 1] + [0] * 29), [], -1, options) == 0
    assert _core.max_static_fan(bytes([3, 3, 3, 3, 2] + [0] * 29), [], -1, options) == _core.BAD_SIZE
    assert _core.max_static_fan(bytes([3, 3, 3, 3, 1] + [0] * 29), [], 5, options) == _core.BAD_VOID
    assert _core.max_static_fan(bytes([5] + [0] * 33), [], -1, options) == _core.BAD_COUNTS
