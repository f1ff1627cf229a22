"""simulate, league and play through the command line; backends agree for a seed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from typer.testing import CliRunner

import chuanma
from chuanma.cli import app
from chuanma.engine.record import replay
from chuanma.fairness.cli import EXIT_UNVERIFIED
from chuanma.sim import runner as runner_module
from chuanma.sim.runner import LeagueSpec, SimSpec, chunks, league_chunk, pool_size, run_chunks, simulate_chunk
from chuanma.sim.stats import Tally

runner = CliRunner()


def _sim(*args: str) -> dict[str, object]:
    res = runner.invoke(app, ["simulate", "--json", *args])
    assert res.exit_code == 0, res.output
    out: dict[str, object] = json.loads(res.stdout.strip().splitlines()[-1])
    return out


def test_simulate_reports_every_statistic_and_repeats_for_a_seed(tmp_path: Path) -> None:
    a = _sim("--hands", "12", "--bots", "random,greedy,defensive,greedy", "--seed", "4",
             "--record", str(tmp_path))
    b = _sim("--hands", "12", "--bots", "random,greedy,defensive,greedy", "--seed", "4", "--workers", "2")
    assert a == b
    bots = a["bots"]
    assert isinstance(bots, dict) and set(bots) == {"random", "greedy", "defensive"}
    for s in bots.values():
        for key in ("win_rate", "deal_in_rate", "mean_fan", "fan_distribution", "mean_score", "score_ci95",
                    "ready_at_draw_rate", "flower_pig_rate"):
            assert key in s
    files = sorted(tmp_path.glob("hand-*.json"))
    assert len(files) == 12
    rec = json.loads(files[0].read_text(encoding="utf-8"))
    assert replay(rec).finished


def test_simulate_human_output_and_rules_options() -> None:
    res = runner.invoke(app, ["simulate", "--hands", "4", "--rules", "xueliu", "--set", "max_fan=4"])
    assert res.exit_code == 0, res.output
    assert "score" in res.output and "95% CI" in res.output and "greedy" in res.output
    bad = runner.invoke(app, ["simulate", "--bots", "nobody"])
    assert bad.exit_code != 0 and "unknown bot" in bad.output


@pytest.mark.parametrize(("preset", "tiles"), [("dazhong", 136), ("classic-normal", 108)])
def test_simulate_league_replay_and_verify_the_first_win_presets(preset: str, tiles: int, tmp_path: Path) -> None:
    """simulate --rules dazhong / classic-normal: the same numbers for a seed on one or two
    workers; records of the preset's tile set that replay and that ``fair verify`` passes as one
    chained session (dealer rule rotate / discarder); league ranks the bots."""
    args = ("--hands", "8", "--bots", "random,greedy,defensive,search", "--rules", preset, "--seed", "6")
    a = _sim(*args, "--record", str(tmp_path))
    assert a == _sim(*args, "--workers", "2")
    files = sorted(tmp_path.glob("hand-*.json"))
    records = [json.loads(f.read_text(encoding="utf-8")) for f in files]
    assert len(records) == 8 and {len(r["wall"]) for r in records} == {tiles}
    assert all(replay(r).finished for r in records)
    assert {r["session"]["dealer_rule"] for r in records} == {"rotate" if preset == "dazhong" else "discarder"}
    verified = runner.invoke(app, ["fair", "verify", *map(str, files)])
    summary = f"{len(files)} records: {len(files)} consistent"
    assert verified.exit_code == EXIT_UNVERIFIED and summary in verified.output, verified.output  # unsigned
    shown = runner.invoke(app, ["replay", str(files[1])])
    assert shown.exit_code == 0 and "The hand is over" in shown.output
    league = runner.invoke(app, ["league", "--bots", "random,greedy", "--hands", "16", "--rules", preset, "--json"])
    assert league.exit_code == 0, league.output
    assert json.loads(league.stdout.strip().splitlines()[-1])["hands"] == 16


def test_league_ranks_with_paired_intervals() -> None:
    res = runner.invoke(app, ["league", "--bots", "random,greedy", "--hands", "48", "--json", "--seed", "1"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["hands"] == 48 and out["walls"] == 12
    assert [r["bot"] for r in out["ranking"]] == ["greedy", "random"]
    pair = out["pairs"][0]
    assert pair["better"] == "greedy" and pair["ci95"][0] > 0
    text = runner.invoke(app, ["league", "--bots", "random,greedy,defensive", "--hands", "12"])
    assert text.exit_code == 0, text.output
    assert "95% CI" in text.output


def test_league_walls_are_shared_by_every_rotation() -> None:
    spec = LeagueSpec("xuezhan", ("random", "greedy", "defensive"), 3)
    assert sorted(spec.lineup(0)) == ["defensive", "greedy", "random", "random"]
    tally, walls = league_chunk(spec, 0, 2)
    assert tally.hands == 8
    for w in walls:
        assert sum(n for _, n in w.values()) == 16
        assert sum(t for t, _ in w.values()) == 0  # zero-sum across all seats of a wall


def test_backends_agree() -> None:
    spec = SimSpec("xuezhan", ("greedy", "random", "greedy", "random"), 9)
    parts = chunks(10, 3)
    one, two = Tally(), Tally()
    for _, t in run_chunks(simulate_chunk, spec, parts):
        one.merge(t)
    for _, t in run_chunks(simulate_chunk, spec, parts, workers=2):
        two.merge(t)
    assert one.summary() == two.summary()


def test_ray_backend_agrees() -> None:
    ray = pytest.importorskip("ray", reason="the Ray backend needs the 'ray' extra")
    spec = SimSpec("xuezhan", ("greedy", "random", "greedy", "random"), 9)
    parts = chunks(6, 3)
    local = Tally()
    for _, t in run_chunks(simulate_chunk, spec, parts):
        local.merge(t)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = Tally()
        for _, t in run_chunks(simulate_chunk, spec, parts, ray_address="auto"):
            remote.merge(t)
    finally:
        ray.shutdown()
    assert local.summary() == remote.summary()


def test_ray_without_ray_installed_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    for command in (["simulate", "--hands", "2"], ["league", "--hands", "8"]):
        res = runner.invoke(app, [*command, "--ray", "local"])
        assert res.exit_code == 2 and isinstance(res.exception, SystemExit), res.exception
        assert "pip install 'chuanma[ray]'" in " ".join(res.output.replace("│", " ").split())  # as one line, unboxed


def test_no_more_workers_start_than_chunks_and_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []

    class Counted(ProcessPoolExecutor):
        def __init__(self, max_workers: int) -> None:
            started.append(max_workers)
            super().__init__(max_workers)

    monkeypatch.setattr(runner_module, "ProcessPoolExecutor", Counted)
    cores = os.cpu_count() or 1
    spec = SimSpec("xuezhan", ("greedy", "random", "greedy", "random"), 9)
    assert len(list(run_chunks(simulate_chunk, spec, chunks(3, 1), workers=1000))) == 3
    assert started == ([min(3, cores)] if cores > 1 else [])
    assert pool_size(1000, 4) == min(4, cores) and pool_size(2, 1) == 1 and pool_size(1, 9) == 1
    _sim("--hands", "4", "--workers", "1000")
    assert all(n <= min(4, cores) for n in started)


@pytest.mark.parametrize("args", [["simulate", "--hands", str(10**9)], ["simulate", "--seed", "-1"],
                                  ["simulate", "--workers", "100000"], ["league", "--seed", str(2**63)],
                                  ["simulate", "--session-hands", str(10**20)], ["play", "--seed", str(2**64)],
                                  ["play", "--hands", str(10**9)], ["league", "--hands", str(10**9)]])
def test_numeric_options_are_bounded(args: list[str]) -> None:
    res = runner.invoke(app, args)
    assert res.exit_code == 2 and "Invalid value" in res.output and isinstance(res.exception, SystemExit)


def test_play_a_hand_from_stdin() -> None:
    # Enter at the exchange (its choices are not numbered), then the first listed choice each time
    res = runner.invoke(app, ["play", "--seed", "2", "--bots", "greedy,defensive,random"], input="\n" + "1\n" * 400)
    assert res.exit_code == 0, res.output
    assert "your hand" in res.output and "换三张" in res.output and "缺" in res.output
    assert "settlement" in res.output and "this hand" in res.output


@pytest.mark.parametrize("bots", ["random,greedy", "greedy,greedy,random,defensive", ","])
def test_play_takes_three_bots_or_one_for_all_three(bots: str) -> None:
    res = runner.invoke(app, ["play", "--seed", "2", "--bots", bots], input="1\n" * 400)
    said = " ".join(res.output.replace("│", " ").split())  # as one line, unboxed
    assert res.exit_code == 2 and "your hand" not in said
    assert "Invalid value for --bots: give three bots, comma-separated, or one for all three; got " in said


def test_play_one_bot_name_plays_all_three_seats() -> None:
    res = runner.invoke(app, ["play", "--seed", "2", "--bots", "random"], input="1\n" * 400)
    assert res.exit_code == 0, res.output
    assert res.output.count("random") >= 3 and "greedy" not in res.output


def test_play_a_session_rejects_bad_choices() -> None:
    res = runner.invoke(app, ["play", "--hands", "2", "--seat", "2", "--rules", "xueliu"],
                        input="\n99\nx\n" + "1\n" * 800)  # Enter at the exchange (not numbered)
    assert res.exit_code == 0, res.output
    assert "no choice 99: the listed choices are 1 to" in res.output and "✗" in res.output
    assert "session" in res.output


POOL_CHILD = """
from chuanma import _core
from chuanma.sim.runner import run_chunks


def loaded_in_worker(spec: object, a: int, b: int) -> int:
    return int(_core.tables_built())


before = int(_core.tables_built())
print(before, *sorted(r for _, r in run_chunks(loaded_in_worker, None, [(0, 1), (1, 2)], workers=2)))
"""


def test_pool_workers_are_forked_with_the_analysis_tables_loaded() -> None:
    """The parent loads the tables before it forks the pool, so no worker loads them again."""
    src = str(Path(chuanma.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-c", POOL_CHILD], env=env, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["0", "1", "1"]


def test_simulate_table_fits_80_columns() -> None:
    res = runner.invoke(app, ["simulate", "--hands", "8", "--bots", "random,greedy,defensive,search", "--seed", "3"],
                        env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    table = [line for line in res.output.splitlines() if line.startswith((" random", " greedy", " defensive"))]
    assert len(table) == 3 and all("[" in line and "]" in line for line in table)  # the interval is not wrapped
    assert max(len(line) for line in res.output.splitlines()) <= 80


def test_league_refuses_significance_from_too_few_walls() -> None:
    few = runner.invoke(app, ["league", "--bots", "random,greedy", "--hands", "48", "--json", "--seed", "1"])
    out = json.loads(few.stdout.strip().splitlines()[-1])
    assert out["walls"] == 12 and out["enough_walls"] is False
    assert out["pairs"][0]["ci95"][0] > 0 and out["pairs"][0]["significant"] is False
    text = runner.invoke(app, ["league", "--bots", "random,greedy", "--hands", "48", "--seed", "1"])
    assert "too few walls" in text.output and "--hands 120" in text.output
    enough = runner.invoke(app, ["league", "--bots", "random,greedy", "--hands", "120", "--json", "--seed", "1"])
    out = json.loads(enough.stdout.strip().splitlines()[-1])
    assert out["enough_walls"] is True and out["pairs"][0]["significant"] is True


def test_league_says_how_many_hands_it_plays_when_not_a_multiple_of_four() -> None:
    res = runner.invoke(app, ["league", "--bots", "random,greedy", "--hands", "42"])
    assert res.exit_code == 0, res.output
    assert "--hands 42 is not a multiple of 4: playing 40 hands (10 walls × 4 rotations)" in res.output
