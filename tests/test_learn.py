"""The PyTorch learning agent: its masked policy, PPO's update, its weights files, imitation, the
training script's smoke run and the trained weights played as ``learned:PATH`` in simulate, league and play,
and the policy the package ships played as ``learned``."""

from __future__ import annotations

import copy
import importlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from chuanma.tiles import SICHUAN_TILES

LEARN_EXTRA = "the learning agent needs the learn extra: pip install 'chuanma[learn]'"
torch = pytest.importorskip("torch", reason=LEARN_EXTRA)
pytest.importorskip("gymnasium", reason=LEARN_EXTRA)
pytest.importorskip("pettingzoo", reason=LEARN_EXTRA)

from typer.testing import CliRunner

from chuanma import train
from chuanma.bots import Bot, HandReader, UnknownBotError, check_bot_name, decide, make_bot
from chuanma.bots.learned import SHIPPED
from chuanma.cli import app
from chuanma.encoding import ENCODERS, encode_compact, layout
from chuanma.encoding.common import RECENT
from chuanma.engine import Game, mask, to_index
from chuanma.engine.indices import ACTION_COUNT
from chuanma.learn import PolicyFileError
from chuanma.learn.features import features
from chuanma.learn.policy import Policy, load
from chuanma.rules import RuleSet
from chuanma.sim.play import deal_for, play_hand
from chuanma.tiles import parse_tiles, to_counts
from chuanma.train import Batch, imitate, imitation_samples, kept_epoch, main, ppo_update

runner = CliRunner()


def _tiny_batch(rng: np.random.Generator, n: int = 5) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = rng.random((n, 644), dtype=np.float32)
    m = (rng.random((n, ACTION_COUNT)) < 0.05).astype(np.int8)
    m[:, 7] = 1
    a = np.array([int(rng.choice(np.flatnonzero(r))) for r in m])
    return x, m, a


def test_policy_gives_illegal_actions_no_probability() -> None:
    rng = np.random.default_rng(1)
    x, m, _ = _tiny_batch(rng)
    policy = Policy.new("compact", hidden=16, analysis=False)
    with torch.no_grad():
        logp, value = policy(torch.from_numpy(x), torch.from_numpy(m))
    p = logp.exp().numpy()
    assert np.all(p[m == 0] == 0) and np.allclose(p.sum(axis=1), 1, atol=1e-6)
    assert value.shape == (5,)
    assert all(m[0][policy.act(x[0], m[0], rng)] for _ in range(20))
    assert m[0][policy.act(x[0], m[0])]


def test_policy_with_the_same_seed_has_the_same_weights() -> None:
    a, b = Policy.new("compact", hidden=8, seed=4), Policy.new("compact", hidden=8, seed=4)
    c = Policy.new("compact", hidden=8, seed=5)
    assert all(torch.equal(u, v) for u, v in zip(a.state_dict().values(), b.state_dict().values(), strict=True))
    assert not torch.equal(a.trunk.weight, c.trunk.weight)


def _batch_of(policy: Policy, x: np.ndarray, m: np.ndarray, a: np.ndarray, returns: list[float]) -> Batch:
    with torch.no_grad():
        logp, value = policy(torch.from_numpy(x), torch.from_numpy(m))
    return Batch(list(x), list(m), a.tolist(), logp.gather(1, torch.from_numpy(a)[:, None]).squeeze(1).tolist(),
                 value.tolist(), returns)


def test_ppo_makes_actions_of_won_hands_likelier_and_lost_ones_rarer() -> None:
    """Half the decisions come from hands that won (+1), half from hands that lost (-1): after
    the update the first are more probable, the second less, and the value moves toward each."""
    rng = np.random.default_rng(3)
    x, m, a = _tiny_batch(rng, 8)
    policy = Policy.new("compact", hidden=32, seed=2, analysis=False)
    returns = [1.0] * 4 + [-1.0] * 4
    before = _batch_of(policy, x, m, a, returns)
    ppo_update(policy, torch.optim.Adam(policy.parameters(), lr=1e-2), before, epochs=4)
    after = _batch_of(policy, x, m, a, returns)
    gain = np.array(after.logp) - np.array(before.logp)
    assert (gain[:4] > 0).all() and (gain[4:] < 0).all()
    assert np.mean(after.values[:4]) > np.mean(after.values[4:])


def test_ppo_divergence_from_the_reference_starts_at_zero_and_stays_finite_under_masks() -> None:
    """KL(reference ‖ policy) is 0 for a policy equal to its reference, and the update's losses and
    weights stay finite although most actions are masked out (log-probability -inf)."""
    rng = np.random.default_rng(4)
    x, m, a = _tiny_batch(rng, 8)
    policy = Policy.new("compact", hidden=16, seed=6, analysis=False)
    batch = _batch_of(policy, x, m, a, [1.0, -1.0] * 4)
    stats = ppo_update(policy, torch.optim.Adam(policy.parameters(), lr=1e-2), batch, epochs=1,
                       reference=copy.deepcopy(policy), kl_coef=1.0)
    assert stats["kl"] == pytest.approx(0.0, abs=1e-6)
    stats = ppo_update(policy, torch.optim.Adam(policy.parameters(), lr=1e-2), batch, epochs=3,
                       reference=Policy.new("compact", hidden=16, seed=7, analysis=False), kl_coef=1.0)
    assert stats["kl"] > 0 and all(np.isfinite(v) for v in stats.values())
    assert all(torch.isfinite(q).all() for q in policy.parameters())


def test_policy_weights_round_trip_and_bad_files_are_refused(tmp_path: Path) -> None:
    policy = Policy.new("planes", hidden=4, seed=5)
    path = tmp_path / "p.pt"
    policy.save(path)
    back = load(path)
    assert back.encoder == "planes" and back.analysis and back.hidden == 4
    assert all(torch.equal(u, v) for u, v in zip(back.state_dict().values(), policy.state_dict().values(),
                                                  strict=True))
    (tmp_path / "text.pt").write_text("not weights")
    with pytest.raises(PolicyFileError, match="cannot read the weights"):
        load(tmp_path / "text.pt")
    with pytest.raises(PolicyFileError, match="cannot read"):
        load(tmp_path / "missing.pt")
    torch.save({"w1": torch.zeros(3)}, tmp_path / "other.pt")
    with pytest.raises(PolicyFileError, match="not a chuanma-policy/2 weights file"):
        load(tmp_path / "other.pt")
    np.savez(tmp_path / "old.npz", w1=np.zeros(3))  # the NumPy agent's weights of earlier releases
    with pytest.raises(PolicyFileError, match="cannot read the weights"):
        load(tmp_path / "old.npz")
    small = Policy.new("compact", hidden=4)
    torch.save({"format": "chuanma-policy/2", "encoder": "compact", "analysis": True, "hidden": 4,
                "state": Policy.new("planes", hidden=4).state_dict()}, tmp_path / "shapes.pt")
    with pytest.raises(PolicyFileError, match="wrong shapes or kinds for the compact encoder"):
        load(tmp_path / "shapes.pt")
    torch.save({"format": "chuanma-policy/2", "encoder": "compact", "analysis": True, "hidden": 0,
                "state": small.state_dict()}, tmp_path / "hidden.pt")
    with pytest.raises(PolicyFileError, match="hidden size"):
        load(tmp_path / "hidden.pt")
    # a policy too large to build is refused by its shapes, before any weight is allocated
    torch.save({"format": "chuanma-policy/2", "encoder": "compact", "analysis": True, "hidden": 10**9,
                "state": small.state_dict()}, tmp_path / "huge.pt")
    with pytest.raises(PolicyFileError, match="wrong shapes or kinds"):
        load(tmp_path / "huge.pt")
    torch.save({"format": "chuanma-policy/2", "encoder": ["compact"], "analysis": True, "hidden": 4,
                "state": small.state_dict()}, tmp_path / "encoder.pt")
    with pytest.raises(PolicyFileError, match="unknown encoder"):
        load(tmp_path / "encoder.pt")
    torch.save({"format": "chuanma-policy/2", "encoder": "compact", "analysis": True, "hidden": 4,
                "state": {k: v.to(torch.int64) for k, v in small.state_dict().items()}}, tmp_path / "ints.pt")
    with pytest.raises(PolicyFileError, match="wrong shapes or kinds"):
        load(tmp_path / "ints.pt")
    (tmp_path / "empty.pt").write_bytes(b"")
    with pytest.raises(PolicyFileError, match=r"cannot read the weights: \S"):
        load(tmp_path / "empty.pt")


class _Payload:
    """An object whose unpickling would run code: a weights file must never do so."""

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (print, ("ran code from a weights file",))


def test_a_weights_file_runs_no_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    torch.save({"format": "chuanma-policy/2", "payload": _Payload()}, tmp_path / "evil.pt")
    with pytest.raises(PolicyFileError, match="cannot read the weights: not tensors and plain values") as refused:
        load(tmp_path / "evil.pt")
    assert "weights_only" not in str(refused.value)  # PyTorch's own text advises loading the file unsafely
    assert "ran code" not in capsys.readouterr().out


def _compact_obs(tiles: str, void: str | None) -> np.ndarray:
    obs = np.zeros(ENCODERS["compact"][1], np.float32)
    obs[:27] = to_counts(parse_tiles(tiles))[:27]
    obs[layout.UNSEEN * 27:layout.UNSEEN * 27 + 9] = 3  # three unseen copies of each 1m–9m
    obs[layout.ROWS * 27 + 6 + ("mps".index(void) if void else 3)] = 1
    return obs


@pytest.mark.parametrize("encoder", sorted(ENCODERS))
def test_analysis_inputs_rank_each_discard_by_shanten(encoder: str) -> None:
    obs = _compact_obs("1112345678999m5s", "s")
    if encoder == "planes":  # the same hand, void and unseen tiles as planes
        counts = obs[:27]
        obs = np.zeros(ENCODERS["planes"][1], np.float32)
        obs[0:4] = counts >= np.arange(1, 5)[:, None]
        obs[7:10, 0:9] = 1  # three unseen copies of each 1m–9m
        obs[layout.SEAT_AT + 7 + RECENT, 18:27] = 1
    f = features(obs, encoder)
    assert np.flatnonzero(f[:27]).tolist() == [parse_tiles("5s")[0]]  # only the void tile keeps ready
    assert f[27 + 0] > 0 and f[27 + parse_tiles("5s")[0]] == 0
    # after 5s: the nine waits 1m–9m, of which the observation leaves 3 unseen copies each
    assert f[54 + parse_tiles("5s")[0]] == pytest.approx(27 / 20)
    assert np.flatnonzero(f[81:89]).tolist() == [1]  # ready: shanten 0
    waiting = features(_compact_obs("1112345678999m", "p"), "compact")
    assert not waiting[:81].any() and np.flatnonzero(waiting[81:89]).tolist() == [1]
    assert waiting[89] == pytest.approx(27 / 20)


@pytest.mark.parametrize("teacher", ["expert", "defensive"])
def test_imitation_learns_the_teacher_bot(teacher: str) -> None:
    data = imitation_samples(RuleSet.from_preset("xuezhan"), 12, seed=3, encoder_name="compact", teacher=teacher)
    policy = Policy.new("compact", hidden=64, seed=1)
    curve = imitate(policy, data, epochs=6, batch=64, lr=3e-3, holdout=0.2)
    assert curve[-1]["loss"] < curve[0]["loss"]
    assert curve[-1]["accuracy"] > 0.6
    best = max(r["held_out_accuracy"] for r in curve)
    _, m, a = data
    held = np.random.default_rng(0).permutation(len(a))[len(a) - int(len(a) * 0.2):]
    assert best > 2 * float((1 / m[held].sum(axis=1)).mean())  # well above a uniform legal choice
    # the weights kept are those of the best held-out epoch: they agree with the teacher as often
    with torch.no_grad():
        logp, _ = policy(torch.from_numpy(policy.inputs(data[0][held])), torch.from_numpy(m[held]))
    assert float((logp.argmax(dim=1).numpy() == a[held]).mean()) == pytest.approx(best)


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The training script's smoke run: a few hands of each phase."""
    out = tmp_path_factory.mktemp("agent")
    main(["--out", str(out), "--imitation-hands", "3", "--epochs", "1", "--hidden", "16",
          "--pg-hands", "20", "--batch-hands", "2", "--opponents", "random,greedy,defensive"])
    return out


def test_training_script_writes_weights_checkpoints_and_curve(trained: Path) -> None:
    curve = json.loads((trained / "curve.json").read_text())
    assert curve["teacher"] == "expert"
    assert len(curve["imitation"]) == 1 and curve["imitation_samples"] > 0
    assert [row["hands"] for row in curve["policy_gradient"]] == list(range(2, 21, 2))
    for row in curve["policy_gradient"]:
        assert all(np.isfinite(row[k]) for k in ("mean_result", "policy_loss", "value_loss", "entropy", "kl"))
    assert [f.name for f in trained.glob("pg-*.pt")] == ["pg-20.pt"]  # a checkpoint every ten batches
    assert load(trained / "imitation.pt").trunk.weight.shape == (16, 644 + 90)
    assert load(trained / "policy.pt").encoder == "compact"


def test_training_plays_self_play_opponents_and_refuses_unreadable_ones(
        trained: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--opponents takes trained policies (``learned:PATH``, ``learned``): PPO against the
    policy's own imitation checkpoint; a weights file that cannot be read is refused up front."""
    out = tmp_path / "self-play"
    main(["--out", str(out), "--imitation-hands", "2", "--epochs", "1", "--hidden", "16", "--pg-hands", "4",
          "--batch-hands", "2", "--opponents", f"learned:{trained / 'imitation.pt'},learned,random"])
    curve = json.loads((out / "curve.json").read_text())
    assert [row["hands"] for row in curve["policy_gradient"]] == [2, 4]
    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path / "bad"), "--opponents", f"learned:{tmp_path / 'none.pt'},random,random"])
    assert "--opponents" in capsys.readouterr().err and not (tmp_path / "bad").exists()


def test_the_shipped_policy_plays_legal_hands_as_learned() -> None:
    assert SHIPPED.is_file() and SHIPPED.stat().st_size < 2_000_000  # small enough to ship in the package
    assert load(SHIPPED).encoder == "compact"
    check_bot_name("learned", RuleSet.from_preset("xueliu"))
    bots = [make_bot("learned", 1), make_bot("greedy", 2), make_bot("learned", 3), make_bot("expert", 4)]
    assert bots[0].name == "learned"
    for rules in ("xuezhan", "xueliu"):
        result = play_hand(RuleSet.from_preset(rules), deal_for(5, 0, SICHUAN_TILES), bots)
        assert sum(s.delta for s in result.seats) == 0
    league = runner.invoke(app, ["league", "--bots", "learned,defensive", "-n", "4", "--json"])
    assert league.exit_code == 0, league.output
    assert {r["bot"] for r in json.loads(league.stdout.strip().splitlines()[-1])["ranking"]} == {"learned", "defensive"}


def test_the_learned_bot_decides_from_the_compiled_encoding_of_its_seat() -> None:
    """Handed an observer of its seat by ``decide``, the bot plays its policy's choice on the seat's
    compiled observation (the hand's own encoding for that seat); it is a HandReader, not a Bot."""
    bot = make_bot("learned", 1)
    assert isinstance(bot, HandReader) and not isinstance(bot, Bot)
    policy = load(SHIPPED)
    deal = deal_for(7, 0, SICHUAN_TILES)
    game = Game(RuleSet.from_preset("xuezhan"), list(deal.wall), deal.dealer, deal.direction)
    decided = 0
    while not game.finished and decided < 12:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        action = decide(bot, game, seat, legal)
        if len(legal) > 1:
            obs = np.empty(ENCODERS["compact"][1], dtype=np.float32)
            game.core.encode_compact(seat, obs)
            assert np.array_equal(encode_compact(game.core.observer(seat), np.empty_like(obs)), obs)
            assert to_index(action) == policy.act(obs, mask(legal))
            decided += 1
        game.apply(seat, action)
    assert decided == 12


def test_the_decision_benchmark_times_a_learned_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    """``benchmarks/bench_decisions.py --bot learned`` times the learned bot through ``decide``:
    one hand of its loop, with a time for each decision of the timed seats."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "benchmarks"))
    bench = importlib.import_module("bench_decisions")
    rules = RuleSet.from_preset("xuezhan")
    players = [make_bot("learned" if s % 2 == 0 else "defensive", s) for s in range(4)]
    times: list[float] = []
    bench.timed_hand(rules, deal_for(1, 0, SICHUAN_TILES), players, 0, times)
    assert len(times) > 10 and all(t >= 0 for t in times)


def test_the_trainer_refuses_a_preset_its_policy_cannot_read_before_it_starts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """大众麻将's 34 tile kinds do not fit the policy's 27-kind observations: refused at once, as
    the learned bot is, before any hand is played or the output folder made."""
    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path / "dz"), "--rules", "dazhong"])
    assert "--rules: a learned policy plays the Sichuan presets' 27 tile kinds, not the 34 of dazhong" in \
        capsys.readouterr().err
    assert not (tmp_path / "dz").exists()


def test_the_trainer_refuses_no_epochs_before_it_starts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Imitation keeps the weights of one of its epochs: with none there is nothing to keep."""
    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path / "none"), "--epochs", "0"])
    assert "--epochs must be at least 1" in capsys.readouterr().err
    assert not (tmp_path / "none").exists()


def test_the_epoch_kept_is_the_best_held_out_one() -> None:
    rows = [{"epoch": 1, "accuracy": 0.5, "held_out_accuracy": 0.6},
            {"epoch": 2, "accuracy": 0.7, "held_out_accuracy": 0.62},
            {"epoch": 3, "accuracy": 0.8, "held_out_accuracy": 0.62}]
    assert kept_epoch(rows)["epoch"] == 2  # the first of the best
    assert kept_epoch([{"epoch": 1, "accuracy": 0.5}, {"epoch": 2, "accuracy": 0.4}])["epoch"] == 2  # none held out
    with pytest.raises(ValueError):
        kept_epoch([])


def test_the_trainer_reports_each_epoch_and_keeps_its_curve_as_it_goes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A line per epoch with its loss and accuracies, the kept epoch's own figures (not the last
    epoch's training accuracy beside the best held-out one), and curve.json on disk before the run
    ends: interrupted in the PPO phase, the imitation's epochs are there."""
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(train, "improve", interrupted)
    with pytest.raises(KeyboardInterrupt):
        main(["--out", str(tmp_path), "--imitation-hands", "3", "--epochs", "3", "--hidden", "16"])
    curve = json.loads((tmp_path / "curve.json").read_text())
    assert [row["epoch"] for row in curve["imitation"]] == [1, 2, 3]
    kept = kept_epoch(curve["imitation"])
    assert curve["imitation_kept_epoch"] == kept["epoch"]
    out = capsys.readouterr().out
    for row in curve["imitation"]:
        assert (f"imitation epoch {row['epoch']}/3: loss {row['loss']:.3f}, accuracy {row['accuracy']:.3f}, "
                f"held out accuracy {row['held_out_accuracy']:.3f}") in out
    assert (f"the weights of epoch {kept['epoch']} kept (accuracy {kept['accuracy']:.3f}, "
            f"held out accuracy {kept['held_out_accuracy']:.3f})") in out


def test_learned_bot_plays_legal_hands(trained: Path) -> None:
    name = f"learned:{trained / 'policy.pt'}"
    check_bot_name(name)
    bots = [make_bot(name, 1), make_bot("random", 2), make_bot(name, 3), make_bot("greedy", 4)]
    result = play_hand(RuleSet.from_preset("xueliu"), deal_for(1, 0, SICHUAN_TILES), bots)
    assert sum(s.delta for s in result.seats) == 0


def test_learned_bot_in_simulate_league_and_play(trained: Path) -> None:
    name = f"learned:{trained / 'policy.pt'}"
    sim = runner.invoke(app, ["simulate", "--bots", f"{name},random", "-n", "4", "--json", "--seed", "2"])
    assert sim.exit_code == 0, sim.output
    assert name in json.loads(sim.stdout.strip().splitlines()[-1])["bots"]
    league = runner.invoke(app, ["league", "--bots", f"{name},greedy", "-n", "4", "--json"])
    assert league.exit_code == 0, league.output
    assert {r["bot"] for r in json.loads(league.stdout.strip().splitlines()[-1])["ranking"]} == {name, "greedy"}
    play = runner.invoke(app, ["play", "--seed", "2", "--bots", f"{name},random,{name}"], input="1\n" * 400)
    assert play.exit_code == 0, play.output


def test_a_learned_bot_is_refused_under_dazhong(trained: Path) -> None:
    """A policy over the 27-kind observations cannot read 大众麻将's 34: simulate, league and play
    refuse it before any hand, naming the bot."""
    name = f"learned:{trained / 'policy.pt'}"
    with pytest.raises(UnknownBotError, match="27 tile kinds"):
        check_bot_name(name, RuleSet.from_preset("dazhong"))
    check_bot_name(name, RuleSet.from_preset("classic-normal"))
    for command in (["simulate", "-n", "4"], ["league", "-n", "4"], ["play"]):
        res = runner.invoke(app, [*command, "--bots", f"{name},random", "--rules", "dazhong"],
                            env={"COLUMNS": "400"})  # one line, however long the bot's path
        assert res.exit_code == 2 and "34 of dazhong" in res.output, res.output


def test_unreadable_learned_weights_are_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(UnknownBotError, match="cannot read the weights"):
        check_bot_name(f"learned:{tmp_path / 'none.pt'}")
    for command in (["simulate", "-n", "1"], ["league", "-n", "4", "--bots", "random,learned:x.pt"], ["play"]):
        args = command if "--bots" in command else [*command, "--bots", "learned:x.pt,random"]
        res = runner.invoke(app, args)
        assert res.exit_code == 2 and "learned:x.pt" in res.output, res.output


def test_a_learned_bot_without_pytorch_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots and the CLI import no PyTorch: only a learned bot needs it, and without it the bot
    is refused with the extra to install."""
    for name in ("torch", "chuanma.learn.policy"):
        monkeypatch.setitem(sys.modules, name, None)  # as if PyTorch were not installed
    with pytest.raises(UnknownBotError, match=r"needs PyTorch: pip install 'chuanma\[learn\]'"):
        check_bot_name("learned:no-torch.pt")
    code = "import sys, chuanma.bots, chuanma.cli; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
