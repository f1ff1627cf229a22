"""Sessions of hands follow the preset's dealer rule (RULES §2.1 in docs/rules.md), and their
records, from simulate --record and play --record, verify."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from chuanma.bots import make_bot
from chuanma.bots.base import Player
from chuanma.cli import app
from chuanma.engine.record import replay
from chuanma.fairness import Deal, RecordError, SessionHand, Status, verify_record
from chuanma.fairness.chain import verify_records
from chuanma.fairness.cli import EXIT_UNVERIFIED
from chuanma.rules import RuleSet
from chuanma.sim.play import HandResult, bot_seed, deal_for
from chuanma.sim.runner import SimSpec, chunks, run_chunks, simulate_chunk
from chuanma.sim.session import play_sessions
from chuanma.sim.stats import Tally
from chuanma.tiles import SICHUAN_TILES

runner = CliRunner()


def _bots(seed: int, bot: str = "greedy") -> Any:
    def bots_for(i: int) -> list[Player]:
        return [make_bot(bot, bot_seed(seed, i, s)) for s in range(4)]

    return bots_for


def _session(preset: str, seed: int, hands: int, per_session: int = 4, bot: str = "greedy") -> list[HandResult]:
    played = play_sessions(RuleSet.from_preset(preset), seed, 0, hands, _bots(seed, bot),
                           session_hands=per_session, record={"bots": [bot] * 4})
    return [result for _, result in played]


def _rec(result: HandResult) -> dict[str, Any]:
    assert result.record is not None
    return result.record


@pytest.mark.parametrize(("preset", "bot"), [("portal-xuezhan", "greedy"), ("classic-normal", "greedy"),
                                             ("dazhong", "random")])
def test_chained_session_deals_each_hand_to_the_previous_hands_next_dealer(preset: str, bot: str) -> None:
    results = _session(preset, 3, 8, bot=bot)
    tile_set = RuleSet.from_preset(preset).tiles
    overridden = 0
    for i, result in enumerate(results):
        record = _rec(result)
        assert record["session"]["id"] == f"sim-3-{i // 4}" and record["session"]["hand"] == i % 4
        assert result.next_dealer == replay(record).next_dealer()
        if i % 4 == 0:
            assert record["dealer"] == deal_for(3, i, tile_set).dealer  # a session's first dealer: the stream
            assert "previous" not in record["session"]
        else:
            assert record["dealer"] == results[i - 1].next_dealer
            assert record["session"]["previous"]["next_dealer"] == results[i - 1].next_dealer
            overridden += record["dealer"] != deal_for(3, i, tile_set).dealer
        assert record["wall"] == deal_for(3, i, tile_set).wall_strings()  # the wall is still the stream's
    assert overridden > 0  # the rule, not the stream, chose some dealers
    assert all(v.ok for v in verify_records([_rec(r) for r in results]))


def test_random_dealer_presets_still_draw_every_dealer_from_the_stream() -> None:
    for i, result in enumerate(_session("xuezhan", 3, 6)):
        record = _rec(result)
        assert record["dealer"] == deal_for(3, i, SICHUAN_TILES).dealer
        assert record["session"] == {"id": f"sim-3-{i // 4}", "hand": i % 4, "dealer_rule": "random"}
        assert verify_record(record).ok


def test_session_hand_dealer_rule() -> None:
    deal = Deal(2, "opposite", tuple(range(27)) * 4)
    first = SessionHand.first("t", "first_winner")
    assert first.deal(deal) == deal
    record = {"format": "chuanma-record/2"}
    second = first.following(record, 1)
    assert second.hand == 1 and second.previous_next_dealer == 1
    assert second.deal(deal) == Deal(1, "opposite", deal.wall)
    assert SessionHand.first("t", "random").following(None, 1).deal(deal) == deal
    with pytest.raises(RecordError, match="names each hand's record"):
        first.following(None, 1)


@pytest.mark.parametrize(
    ("session", "message"),
    [
        ([], "'session' must be an object"),
        ({"id": "x", "hand": -1, "dealer_rule": "random"}, "session.'hand' must be 0 or more"),
        ({"id": "x", "hand": 1, "dealer_rule": "winner"}, "session.'dealer_rule' must be one of"),
        ({"id": "x", "hand": 1, "dealer_rule": "first_winner"}, "session.'previous'"),
        ({"id": "x", "hand": "1", "dealer_rule": "random"}, "session.'hand' must be an integer"),
        ({"id": "x", "hand": 1, "dealer_rule": "first_winner",
          "previous": {"sha256": "ab", "next_dealer": 0}}, "64 lower-case hex digits"),
        ({"id": "x", "hand": 1, "dealer_rule": "first_winner",
          "previous": {"sha256": "a" * 64, "next_dealer": 4}}, "must be a seat 0-3"),
    ],
)
def test_malformed_session_is_a_record_error_naming_the_field(session: Any, message: str) -> None:
    record = _rec(_session("portal-xuezhan", 3, 1)[0])
    record["session"] = session
    with pytest.raises(RecordError, match=message.replace("(", r"\(")):
        verify_record(record)


def test_a_stated_dealer_is_accepted_only_under_the_first_winner_rule() -> None:
    results = _session("portal-xuezhan", 3, 4)
    record = next(_rec(r) for i, r in enumerate(results) if _rec(r)["dealer"] != deal_for(3, i, SICHUAN_TILES).dealer)
    record["rules"] = "xuezhan"  # same hand, rules that draw the dealer every hand
    check = verify_record(record)["dealer"]
    assert check.status is Status.FAILED and "rules say dealer: random" in check.message
    record["rules"] = "portal-xuezhan"
    del record["session"]  # without the session, the dealer must be the stream's
    assert verify_record(record)["dealer"].status is Status.FAILED


def test_the_session_chain_catches_a_forged_previous_hand() -> None:
    records = [_rec(r) for r in _session("portal-xuezhan", 3, 4)]
    alone = verify_records(records[1:2])[0]
    assert alone.ok and alone["session"].status is Status.NOT_RUN
    forged = json.loads(json.dumps(records))
    forged[0]["result"]["deltas"].reverse()  # the previous hand changed after the fact
    verdicts = verify_records(forged)
    assert verdicts[1]["session"].status is Status.FAILED
    assert "SHA-256" in verdicts[1]["session"].message
    moved = json.loads(json.dumps(records))  # a dealer moved, with the claim made to match
    moved[1]["dealer"] = (moved[1]["dealer"] + 1) % 4
    moved[1]["session"]["previous"]["next_dealer"] = moved[1]["dealer"]
    verdict = verify_records(moved)[1]
    assert verdict["session"].status is Status.FAILED and "its replay gives seat" in verdict["session"].message


def test_session_results_do_not_depend_on_chunks_or_workers() -> None:
    spec = SimSpec("portal-xueliu", ("greedy", "random", "defensive", "greedy"), 5, session_hands=3)
    summaries = []
    for parts, workers in ((chunks(10, 10), 1), (chunks(10, 4), 1), (chunks(10, 2), 2)):
        tally = Tally()
        for _, t in run_chunks(simulate_chunk, spec, parts, workers=workers):
            tally.merge(t)
        summaries.append(tally.summary())
    assert summaries[0] == summaries[1] == summaries[2]


def test_simulate_records_all_verify_and_a_tampered_one_fails(tmp_path: Path) -> None:
    res = runner.invoke(app, ["simulate", "--hands", "6", "--rules", "portal-xuezhan", "--seed", "2",
                              "--record", str(tmp_path), "--json"])
    assert res.exit_code == 0, res.output
    files = sorted(str(p) for p in tmp_path.glob("hand-*.json"))
    assert len(files) == 6
    together = runner.invoke(app, ["fair", "verify", "--json", *files])
    assert together.exit_code == EXIT_UNVERIFIED, together.output  # no check failed; unsigned
    out = json.loads(together.stdout)
    assert out["ok"] and out["level"] == "consistent" and len(out["records"]) == 6
    for f in files:
        assert runner.invoke(app, ["fair", "verify", f]).exit_code == EXIT_UNVERIFIED
    data = json.loads(Path(files[2]).read_text(encoding="utf-8"))
    assert data["session"]["hand"] == 2 and data["seeds"]["client_seeds"] == ["sim"] * 4
    data["result"]["payments"][0]["amount"] += 1
    Path(files[2]).write_text(json.dumps(data), encoding="utf-8")
    tampered = runner.invoke(app, ["fair", "verify", *files])
    assert tampered.exit_code == 1
    # hand 2 fails its result; hand 3, which names hand 2's record, fails its session check
    assert "6 records: 4 consistent, 2 failed: hand-0000002.json, hand-0000003.json" in tampered.stdout
    assert "FAILED (result)" in tampered.stdout and "FAILED (session)" in tampered.stdout


def test_simulate_session_hands_option() -> None:
    res = runner.invoke(app, ["simulate", "--hands", "2", "--session-hands", "0"])
    assert res.exit_code != 0 and "--session-hands" in res.output
    league = runner.invoke(app, ["league", "--help"])
    assert "independent hand" in " ".join(league.output.split())


def test_play_writes_a_verifiable_session(tmp_path: Path) -> None:
    res = runner.invoke(app, ["play", "--hands", "2", "--rules", "portal-xuezhan", "--seed", "4",
                              "--record", str(tmp_path)], input="\n1\n" * 4000)  # Enter at each exchange (not numbered)
    assert res.exit_code == 0, res.output[-2000:]
    files = sorted(tmp_path.glob("hand-*.json"))
    assert [f.name for f in files] == ["hand-0000.json", "hand-0001.json"]
    records = [json.loads(f.read_text(encoding="utf-8")) for f in files]
    assert [r["session"]["hand"] for r in records] == [0, 1]
    assert records[1]["dealer"] == replay(records[0]).next_dealer()
    assert all(v.ok for v in verify_records(records))
    assert all(v["session"].passed for v in verify_records(records)[1:])
