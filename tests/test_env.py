"""The RL environments: PettingZoo's own checks, leak-free observations, masks, seeds, rewards."""

from __future__ import annotations

import copy
import pickle
import random
import subprocess
import sys
import warnings
from typing import Any

import numpy as np
import pytest

from chuanma import _core

RL_EXTRA = "the environments need the rl extra: pip install 'chuanma[rl]'"
pytest.importorskip("gymnasium", reason=RL_EXTRA)
pytest.importorskip("pettingzoo", reason=RL_EXTRA)

from gymnasium.utils.env_checker import check_reset_return_type, check_reset_seed_determinism
from gymnasium.utils.passive_env_checker import env_reset_passive_checker, env_step_passive_checker
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from chuanma.encoding import ENCODERS, UnknownEncoderError, encoder
from chuanma.engine.actions import Action, Discard, Hu, IllegalActionError, Kong, Pass
from chuanma.engine.game import Game
from chuanma.engine.indices import ACTION_COUNT, CHOW_AT, CHOWS, ActionIndexError, to_index
from chuanma.engine.state import DIRECTIONS
from chuanma.engine.wall import build_wall
from chuanma.env import AGENTS, BatchEnv, EnvOptionError, SingleSeatEnv, env, raw_env
from chuanma.env.table import NORMALISER, Table
from chuanma.errors import ChuanmaError
from chuanma.rules import PRESETS, RuleSet
from conftest import examples
from engine_play import hidden_swaps
from engine_setup import XUELIU_DRAWS, robbing_game, rules, t
from reference_encoding import compact, planes

DIRECTION_NAMES = {number: name for name, number in DIRECTIONS.items()}
REFERENCE = {"compact": compact.encode, "planes": planes.encode}
"""The encoders in Python, from a view, by name: the reference the compiled ones are compared with."""


def play_aec(e: Any, rng: random.Random) -> list[tuple[str, dict[str, np.ndarray], float]]:
    """Play one hand of an AEC env with random legal actions; every (agent, observation, reward)."""
    seen = []
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        seen.append((agent, obs, reward))
        e.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return seen


@pytest.mark.parametrize("encoder", sorted(ENCODERS))
def test_pettingzoo_api_test_passes(encoder: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on dict observations
        api_test(env(encoder=encoder), num_cycles=200)


@pytest.mark.parametrize("preset", ["xuezhan", "xueliu"])
def test_pettingzoo_seed_test_passes(preset: str) -> None:
    seed_test(lambda: env(preset), num_cycles=300)


def test_observation_and_action_spaces_are_the_fixed_ones() -> None:
    e = raw_env(encoder="planes")
    assert e.possible_agents == list(AGENTS) == ["seat_0", "seat_1", "seat_2", "seat_3"]
    assert e.action_space("seat_2").n == ACTION_COUNT == 623
    assert e.observation_space("seat_1")["observation"].shape == ENCODERS["planes"][1]
    e.reset(seed=3)
    obs = e.observe(e.agent_selection)
    assert obs["observation"].shape == (144, 27) and obs["action_mask"].dtype == np.int8


@pytest.mark.parametrize(("encoder", "shape"), [("compact", (21 * 34 + 77,)), ("planes", (144, 34))])
def test_dazhong_observations_have_the_honours_and_the_mask_has_chows(encoder: str, shape: tuple[int, ...]) -> None:
    """大众麻将: 34 tile kinds in every observation (its space says so), the own hand's honours in
    columns 27–33, and chows in the mask exactly when the engine offers them."""
    e = raw_env("dazhong", encoder=encoder)
    assert e.observation_space("seat_0")["observation"].shape == shape
    rng = random.Random(2)
    honours = chows = 0
    for seed in range(6):
        e.reset(seed=seed)
        game = e.table.game
        while not game.finished:
            for s, agent in enumerate(AGENTS):
                obs = e.observe(agent)
                assert obs["observation"].shape == shape
                own = obs["observation"][:34] if encoder == "compact" else obs["observation"][0:4].sum(axis=0)
                assert own.tolist() == list(game.state.seats[s].hand[:34])
                honours += int(own[27:].sum() > 0)
                chows += int(obs["action_mask"][CHOW_AT:CHOW_AT + CHOWS].any())
            e.step(rng.choice([to_index(a) for a in game.legal_actions(game.to_act()[0])]))
    assert honours > 0 and chows > 0


def _check_observations_hide_hidden_tiles(table: Table, encoder: str, rng: random.Random) -> int:
    """Every seat's observation is the same whatever the tiles it may not see are: the Python
    reference encoding of its view, whatever another seat's concealed tiles and the wall (the
    compiled encoding of the game with them swapped); returns the checks made."""
    game = table.game
    encode, shape = ENCODERS[encoder][0], table.shape
    checks = 0
    for seat in range(4):
        obs = table.observe(seat)
        assert np.array_equal(obs["observation"], REFERENCE[encoder](game.view(seat)))
        for other in hidden_swaps(game, seat, rng):
            swapped = encode(other.core.observer(seat), np.empty(shape, dtype=np.float32))
            assert np.array_equal(swapped, obs["observation"]), f"seat {seat} sees hidden tiles"
            assert np.array_equal(other.legal_mask(seat), obs["action_mask"])
            checks += 1
    return checks


def test_encoders_refuse_an_array_they_cannot_write() -> None:
    game = Table(RuleSet.from_preset("xuezhan")).game
    encode, shape = encoder("compact")
    strided = np.zeros(2 * shape[0], dtype=np.float32)[::2]  # every other number
    with pytest.raises(TypeError):
        encode(game.core.observer(0), strided)
    longer = np.zeros(shape[0] + 1, dtype=np.float32)  # another layout's rows
    with pytest.raises(ValueError, match="out must have shape"):
        encode(game.core.observer(0), longer)
    with pytest.raises(ValueError, match="seats are 0-3"):
        game.core.observer(4)


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(PRESETS)), st.sampled_from(sorted(ENCODERS)), st.integers(0, 2**32))
def test_observations_never_depend_on_hidden_tiles(preset: str, encoder: str, seed: int) -> None:
    table = Table(RuleSet.from_preset(preset), encoder)
    table.seed(seed)
    table.deal()
    rng = random.Random(seed)
    checks = steps = 0
    while not table.game.finished:
        if steps % 3 == 0:
            checks += _check_observations_hide_hidden_tiles(table, encoder, rng)
        seat = table.acting()
        table.act(seat, rng.choice(np.flatnonzero(table.observe(seat)["action_mask"]).tolist()))
        steps += 1
    assert checks > 0


@settings(max_examples=examples(12), deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32))
def test_encoders_agree_with_the_view(preset: str, seed: int) -> None:
    """At every step, for every seat: the compact unseen row is the view's own ``unseen_counts``,
    the meld rows hold every visible meld's tiles, and the planes' recent-discard channels are the
    last discards of each seat in the view's discard log (one-hot), its void channel the nine columns of
    the seat's void in the view once known."""
    from chuanma.encoding import encode_compact, encode_planes
    from chuanma.encoding.common import RECENT
    from chuanma.encoding.layout import ROWS, SEAT_AT, SEAT_CHANNELS, SEAT_ROWS, UNSEEN, compact_shape, planes_shape

    table = Table(RuleSet.from_preset(preset))
    table.seed(seed)
    game = table.deal()
    rng = random.Random(seed)
    k = game.rules.tiles.kinds
    while True:
        for me in range(4):
            view = game.view(me)
            flat = encode_compact(game.core.observer(me), np.empty(compact_shape(k), dtype=np.float32))
            rows = flat[:ROWS * k].reshape(ROWS, k)
            assert rows[UNSEEN].tolist() == view.unseen_counts()[:k]
            planes_obs = encode_planes(game.core.observer(me), np.empty(planes_shape(k), dtype=np.float32))
            for r in range(4):
                s = (me + r) % 4
                melds = np.zeros(k)
                for m in view.melds(s):
                    np.add.at(melds, m.tiles, 1)
                assert rows[SEAT_ROWS + 4 * r].tolist() == melds.tolist()
                recent = [t for seat, t in reversed(view.discard_log) if seat == s][:RECENT]
                at = SEAT_AT + r * SEAT_CHANNELS + 7
                shown = [np.flatnonzero(planes_obs[at + i]).tolist() for i in range(len(recent))]
                assert shown == [[t] for t in recent] and not planes_obs[at + len(recent):at + RECENT].any()
                void = np.zeros(k)
                if view.voids[s] is not None:
                    void[9 * "mps".index(view.voids[s]):][:9] = 1
                assert planes_obs[at + RECENT].tolist() == void.tolist()
        if game.finished:
            break
        seat = table.acting()
        table.act(seat, to_index(rng.choice(game.legal_actions(seat))))


@settings(max_examples=examples(40), deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32))
def test_observations_equal_the_reference_encodings_of_the_views(preset: str, seed: int) -> None:
    """The environment's observations are at every step, for every seat and both encoders, the
    Python reference encoding of the seat's view."""
    tables = {name: Table(RuleSet.from_preset(preset), name) for name in ENCODERS}
    for table in tables.values():
        table.seed(seed)
        table.deal()
    rng = random.Random(seed)
    game = tables["compact"].game
    while True:
        for name, table in tables.items():
            for seat in range(4):
                expected = REFERENCE[name](table.game.view(seat))
                assert np.array_equal(table.observe(seat)["observation"], expected), (name, seat)
        if game.finished:
            break
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        eager = [a for a in legal if isinstance(a, Hu | Kong)]  # wins and kongs, rare at random
        action = to_index(rng.choice(eager if eager and rng.random() < 0.8 else legal))
        for table in tables.values():
            table.act(seat, action)


ROBBING: dict[str, tuple[dict[str, Any], list[tuple[int, Action]]]] = {
    "robbed": ({}, [(1, Kong(t("7p"))), (2, Hu())]),
    "kong_stands": ({}, [(1, Kong(t("7p"))), (2, Pass())]),
    "xueliu": ({"draws": XUELIU_DRAWS, "replacements": "4p", "ruleset": rules("xueliu")},
               [(1, Kong(t("7p"))), (2, Hu()), (3, Discard(t("2p"))), (0, Discard(t("3p"))),
                (1, Discard(t("2m"))), (3, Discard(t("9s"))), (0, Discard(t("3p"))),
                (1, Discard(t("3m"))), (2, Kong(t("1m"))), (2, Hu())]),
}
"""Robbing windows, which random play almost never opens: seat 2 robs seat 1's added kong or lets
it stand; in 血流 it then plays on locked, konges and wins again (the engine tests' set-ups)."""


@settings(max_examples=examples(12), deadline=None)
@given(st.integers(0, 2**32))
def test_tracked_observations_equal_the_views_when_a_seat_leaves(seed: int) -> None:
    """A 血流 winner who leaves stops playing and the hand goes on; any other leaver ends the
    hand: at every step after, for every seat and both encoders, the tracked observation is still
    the encoding of the seat's view."""
    tables = {name: Table(RuleSet.from_preset("xueliu"), name) for name in ENCODERS}
    for table in tables.values():
        table.seed(seed)
        table.deal()
    game = tables["compact"].game
    rng = random.Random(seed)
    left = False
    while not game.finished:
        before = len(game.events)
        seat = game.to_act()[0]
        locked = [s for s in range(4) if game.state.public.locked[s] and not game.state.public.left[s]]
        leaver = None if left else rng.choice(locked) if locked else seat if rng.random() < 0.01 else None
        legal = game.legal_actions(seat)
        action = to_index(rng.choice([a for a in legal if isinstance(a, Hu)] or legal))
        for table in tables.values():
            if leaver is not None:
                table.game.leave(leaver)
            else:
                table.act(seat, action)
        left = left or leaver is not None
        for name, table in tables.items():
            for s in range(4):
                expected = REFERENCE[name](table.game.view(s))
                assert np.array_equal(table.observe(s)["observation"], expected), (name, s)
    assert left or all(w.seq >= before for w in game.state.public.wins)  # else its winner would have left


@pytest.mark.parametrize("script", sorted(ROBBING))
def test_observations_equal_the_views_through_a_robbing_window(script: str) -> None:
    """Before and after every move of a scripted 抢杠胡, for every seat and both encoders, the
    observation is the Python reference encoding of the seat's view."""
    options, moves = ROBBING[script]
    game = robbing_game(**options)
    for seat, action in [(None, None), *moves]:
        if seat is not None and action is not None:
            game.apply(seat, action)
        for name in ENCODERS:
            encode, shape = encoder(name, game.rules)
            for s in range(4):
                observed = encode(game.core.observer(s), np.empty(shape, dtype=np.float32))
                assert np.array_equal(observed, REFERENCE[name](game.view(s))), (script, action, name, s)
    assert [w.robbed for w in game.wins][:1] == ([] if script == "kong_stands" else [True])


@settings(max_examples=examples(20), deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32))
def test_masks_equal_legal_actions(preset: str, seed: int) -> None:
    e = raw_env(preset)
    e.reset(seed=seed)
    rng = random.Random(seed)
    game = e.table.game
    while not game.finished:
        for s, agent in enumerate(AGENTS):
            mask = e.observe(agent)["action_mask"]
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(to_index(a) for a in game.legal_actions(s))
        assert e.agent_selection == AGENTS[game.to_act()[0]]
        e.step(rng.choice([to_index(a) for a in game.legal_actions(game.to_act()[0])]))


def test_same_seed_same_episode() -> None:
    runs = []
    for seed in (11, 11, 12):
        e = env("xueliu", encoder="compact")
        e.reset(seed=seed)
        runs.append(play_aec(e, random.Random(5)))
    a, b, c = runs
    assert len(a) == len(b)
    for (agent_a, obs_a, r_a), (agent_b, obs_b, r_b) in zip(a, b, strict=True):
        assert agent_a == agent_b and r_a == r_b
        assert np.array_equal(obs_a["observation"], obs_b["observation"])
    assert len(a) != len(c) or any(not np.array_equal(x[1]["observation"], y[1]["observation"])
                                   for x, y in zip(a, c, strict=False))


def test_reset_without_a_seed_continues_the_seeded_sequence() -> None:
    e1, e2 = raw_env(), raw_env()
    e1.reset(seed=4)
    e2.reset(seed=4)
    e1.reset()
    e2.reset()
    assert np.array_equal(e1.observe("seat_0")["observation"], e2.observe("seat_0")["observation"])


@pytest.mark.parametrize("missing", ["pettingzoo", "gymnasium"])
def test_without_the_rl_extra_the_import_says_what_to_install(missing: str) -> None:
    script = (f"import sys; sys.modules[{missing!r}] = None\n"  # as if not installed
              "try:\n    import chuanma.env\nexcept ModuleNotFoundError as exc:\n    print(exc)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120)
    assert "chuanma.env needs the rl extra (PettingZoo and Gymnasium): pip install 'chuanma[rl]'" in done.stdout
    assert missing in done.stdout


def pickled(e: Any) -> Any:
    return pickle.loads(pickle.dumps(e))


@pytest.mark.parametrize("copy_of", [copy.deepcopy, pickled], ids=["deepcopy", "pickle"])
def test_a_copied_env_plays_its_own_hand_as_the_original_plays_on(copy_of: Any) -> None:
    """An AEC env copied in mid-hand observes the copy of the hand: played on by the same choices
    after the original has finished, it sees and earns what the original did."""
    e = raw_env("xueliu")
    e.reset(seed=8)
    rng = random.Random(3)
    for _ in range(30):
        e.step(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]).tolist()))
    twin = copy_of(e)
    first = play_aec(e, random.Random(9))
    second = play_aec(twin, random.Random(9))
    assert len(first) == len(second) > 10
    for (agent_a, obs_a, r_a), (agent_b, obs_b, r_b) in zip(first, second, strict=True):
        assert agent_a == agent_b and r_a == r_b
        assert np.array_equal(obs_a["observation"], obs_b["observation"])
        assert np.array_equal(obs_a["action_mask"], obs_b["action_mask"])


@pytest.mark.parametrize("copy_of", [copy.deepcopy, pickled], ids=["deepcopy", "pickle"])
def test_a_copied_single_seat_env_observes_its_own_hand(copy_of: Any) -> None:
    e = SingleSeatEnv()
    obs, _ = e.reset(seed=5)
    twin = copy_of(e)
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    again = twin.table.observe(twin.seat)
    assert np.array_equal(again["observation"], obs["observation"])
    assert np.array_equal(again["action_mask"], obs["action_mask"])


def test_a_table_given_another_game_observes_that_game() -> None:
    rules = RuleSet.from_preset("xuezhan")
    table, other = Table(rules), Table(rules)
    table.seed(1)
    table.deal()
    other.seed(2)
    before = table.observe(0)["observation"]
    other.deal()
    table.game = other.game
    now = table.observe(0)["observation"]
    assert np.array_equal(now, other.observe(0)["observation"])
    assert not np.array_equal(now, before)


@pytest.mark.parametrize("preset", ["xuezhan", "xueliu", "classic"])
def test_rewards_end_are_the_chip_result(preset: str) -> None:
    e = raw_env(preset, reward="end")
    e.reset(seed=21)
    totals = dict.fromkeys(AGENTS, 0.0)
    rng = random.Random(0)
    for agent in e.agent_iter():
        _, reward, term, _, _ = e.last()
        totals[agent] += reward
        if not term:
            assert reward == 0
        e.step(None if term else rng.choice(np.flatnonzero(e.observe(agent)["action_mask"]).tolist()))
    assert [totals[a] for a in AGENTS] == e.table.game.deltas()


def test_rewards_event_arrive_as_payments_happen_and_normalise() -> None:
    """Per-event rewards add up to the chip result; some arrive before the end; normalised is ÷ 32."""
    for seed in range(40):
        raw, norm = Table(RuleSet.from_preset("xueliu"), reward="event"), Table(
            RuleSet.from_preset("xueliu"), reward="event", normalize=True)
        raw.seed(seed)
        norm.seed(seed)
        raw.deal()
        norm.deal()
        rng = random.Random(seed)
        sums = [0.0] * 4
        early = False
        while not raw.game.finished:
            seat = raw.acting()
            action = rng.choice(np.flatnonzero(raw.game.legal_mask(seat)).tolist())
            r = raw.act(seat, action)
            assert norm.act(seat, action) == [x / NORMALISER for x in r]
            early = early or (any(r) and not raw.game.finished)
            sums = [a + b for a, b in zip(sums, r, strict=True)]
        assert sums == raw.game.deltas()
        if early:
            return
    raise AssertionError("no payment happened before the end in 40 hands")


def test_illegal_action_is_refused_and_changes_nothing() -> None:
    e = raw_env()
    e.reset(seed=2)
    agent = e.agent_selection
    before = e.observe(agent)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    with pytest.raises(ActionIndexError, match="0-622"):
        e.step(ACTION_COUNT)
    with pytest.raises(ValueError, match="owes a decision"):
        e.step(None)
    assert e.agent_selection == agent
    assert np.array_equal(e.observe(agent)["observation"], before["observation"])


def test_bad_options_get_clear_errors() -> None:
    with pytest.raises(UnknownEncoderError, match="unknown observation encoder 'pixels'"):
        raw_env(encoder="pixels")
    with pytest.raises(EnvOptionError, match="reward must be one of end, event"):
        raw_env(reward="sometimes")
    with pytest.raises(EnvOptionError, match="normalize"):
        raw_env(normalize="yes")
    with pytest.raises(ChuanmaError, match="unknown preset"):
        raw_env("riichi")
    with pytest.raises(ChuanmaError, match="max_fan"):
        raw_env(max_fan="many")
    with pytest.raises(EnvOptionError, match="seed must be a whole number"):
        raw_env().reset(seed="x")  # type: ignore[arg-type]
    with pytest.raises(EnvOptionError, match="rule options"):
        raw_env(RuleSet.from_preset("xueliu"), max_fan=4)


def test_rule_options_reach_the_game() -> None:
    e = raw_env("xuezhan", exchange=False, max_fan=3)
    e.reset(seed=1)
    assert e.table.rules.max_fan == 3 and e.table.game.phase == "void"


# ---------------------------------------------------------------- Gymnasium single-seat wrapper

def test_single_seat_env_passes_gymnasium_checks() -> None:
    """Gymnasium's checks of reset, seeding and returned data (its ``check_env`` steps with
    unmasked random actions, which a mahjong hand refuses)."""
    g = SingleSeatEnv(opponents="random")
    check_reset_seed_determinism(g)
    check_reset_return_type(g)
    obs, _ = env_reset_passive_checker(g, seed=5)
    env_step_passive_checker(g, int(np.flatnonzero(obs["action_mask"])[0]))


@pytest.mark.parametrize("opponent", ["random", "greedy", "defensive", "search"])
def test_single_seat_env_plays_a_hand_against_bots(opponent: str) -> None:
    g = SingleSeatEnv("xuezhan", opponents=opponent, seat=2, reward="event")
    obs, info = g.reset(seed=8)
    total = info["reward_before"]
    rng = random.Random(1)
    done = False
    while not done:
        assert g.table.game.legal_actions(2), "the agent is asked only when it has a decision"
        assert np.array_equal(obs["action_mask"], g.action_masks())
        obs, reward, done, _, info = g.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        total += float(reward)
    assert info["seat"] == 2 and total == g.table.game.deltas()[2]


class _TianhuFirst(random.Random):
    """A dealing generator whose first deal is ``wall`` with seat 0 dealing, then shuffles as usual."""

    def __init__(self, wall: list[int]) -> None:
        super().__init__(3)
        self.wall: list[int] | None = wall
        self.dealer_next = False

    def shuffle(self, x: Any) -> None:  # type: ignore[override]
        if self.wall is None:
            super().shuffle(x)
            return
        x[:], self.wall, self.dealer_next = self.wall, None, True

    def randrange(self, *args: Any) -> int:  # type: ignore[override]
        if self.dealer_next:
            self.dealer_next = False
            return 0
        return super().randrange(*args)


def test_reset_deals_again_a_hand_over_before_the_learner_acts() -> None:
    # 大众麻将 has no exchange or void: the dealer's 天胡 ends the hand before seat 2 decides anything
    g = SingleSeatEnv("dazhong", opponents="greedy", seat=2)
    hands = ["123456789m11122p", "1122334455667z", "1234567891234s", "3344556677889p"]
    g.table.rng = _TianhuFirst(build_wall(hands, size=136))
    obs, info = g.reset()
    assert info["redealt"] == 1 and not g.table.game.finished
    assert obs["action_mask"].any() and np.array_equal(obs["action_mask"], g.action_masks())
    assert g.table.game.legal_actions(2)


def test_single_seat_env_random_seat_changes_between_episodes() -> None:
    g = SingleSeatEnv(opponents=["random", "greedy", "random"], seat="random")
    seats = {g.reset(seed=s)[1]["seat"] for s in range(12)}
    assert len(seats) > 1


def test_single_seat_env_bad_options_are_refused() -> None:
    with pytest.raises(EnvOptionError, match="opponents"):
        SingleSeatEnv(opponents="genius")
    with pytest.raises(EnvOptionError, match="opponents"):
        SingleSeatEnv(opponents=["random", "greedy"])
    with pytest.raises(EnvOptionError, match="seat must be 0-3"):
        SingleSeatEnv(seat=4)
    with pytest.raises(EnvOptionError, match="opponents must be one bot name or three"):
        SingleSeatEnv(opponents=None)  # type: ignore[arg-type]


# ---------------------------------------------------------------- batch

def table_dealt(rules: RuleSet, encoder: str, hand: _core.Hand) -> Table:
    """A Python table playing the hand a compiled one was dealt (its wall, dealer and direction)."""
    wall, dealer, direction = hand.dealt()
    table = Table(rules, encoder)
    table.game = Game(rules, wall, dealer, DIRECTION_NAMES[direction])
    return table


@pytest.mark.parametrize("encoder", sorted(ENCODERS))
@pytest.mark.parametrize("preset", ["xueliu", "dazhong"])
def test_batch_env_steps_tables_like_separate_tables(encoder: str, preset: str) -> None:
    """Each of the batch's rows, at every step, is what a separate Python table playing the same
    deal returns: the seat asked, its observation, its mask, the rewards and the end."""
    rules = RuleSet.from_preset(preset)
    batch = BatchEnv(3, preset, encoder=encoder)
    obs, masks, seats = batch.reset(seed=30)
    singles = [table_dealt(rules, encoder, batch.core.hand(i)) for i in range(3)]
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(300):
        for i, single in enumerate(singles):
            assert seats[i] == single.acting()
            assert np.array_equal(obs[i], single.observe(single.acting())["observation"])
            assert np.array_equal(masks[i], single.game.legal_mask(single.acting()))
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        expected = [single.act(int(seats[i]), actions[i]) for i, single in enumerate(singles)]
        obs, masks, seats, rewards, done = batch.step(actions)
        for i, single in enumerate(singles):
            assert rewards[i].tolist() == expected[i]
            assert bool(done[i]) == single.game.finished
            if single.game.finished:
                finished += 1
                singles[i] = table_dealt(rules, encoder, batch.core.hand(i))
    assert finished == batch.hands > 0


def test_batch_env_returns_arrays_the_next_step_leaves_alone() -> None:
    batch = BatchEnv(4, "xuezhan")
    kept = [batch.reset(seed=3)]
    rng = np.random.default_rng(1)
    for _ in range(20):
        actions = [int(rng.choice(np.flatnonzero(m))) for m in kept[-1][1]]
        kept.append(batch.step(actions)[:3])
    copies = [tuple(a.copy() for a in arrays) for arrays in kept]
    batch.step([int(rng.choice(np.flatnonzero(m))) for m in kept[-1][1]])
    for arrays, copied in zip(kept, copies, strict=True):
        assert all(np.array_equal(a, c) for a, c in zip(arrays, copied, strict=True))
    assert not any(np.array_equal(kept[0][0], later[0]) for later in kept[1:])  # the steps did move on


def test_encoders_name_every_feature() -> None:
    from chuanma.encoding import layout

    assert len(layout.SCALAR_NAMES) == layout.SCALARS == layout.SIZE - layout.ROWS * 27
    assert len(layout.CHANNEL_NAMES) == layout.CHANNELS == 144
    e = raw_env(encoder="planes")
    e.reset(seed=3)
    text = layout.picture(e.observe(e.agent_selection)["observation"], range(0, 4))
    assert text.splitlines()[2].endswith("hand >=1") and len(text.splitlines()) == 6
