"""The rules-core commands: ``chuanma score``, ``chuanma hand`` and ``chuanma rules``."""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from chuanma.cli import app
from chuanma.rules import RuleSet

runner = CliRunner()


def _score(lines: list[str], *args: str) -> tuple[int, list[dict[str, object]]]:
    result = runner.invoke(app, ["score", *args], input="\n".join(lines) + "\n")
    return result.exit_code, [json.loads(line) for line in result.stdout.splitlines()]


def test_score_example_from_the_issue() -> None:
    line = json.dumps({"rules": "xuezhan", "hand": "123m456m789m23p55p", "melds": [], "win_tile": "4p",
                       "self_drawn": False, "void": "s", "situations": []})
    code, out = _score([line])
    assert code == 0
    assert out == [{"win": True, "fans": [], "total": 0, "multiplier": 1}]
    code, out = _score([line.replace("123m456m789m23p55p", "123m456m789m234p55p")])
    assert code == 1  # 14 tiles before the win tile: malformed
    assert "needs 13" in str(out[0]["error"])
    code, out = _score([json.dumps({"hand": "1112345678999m", "win_tile": "5m", "void": "p"})])
    assert code == 0
    assert out == [{"win": True, "fans": [{"id": "qingyise", "name": "清一色", "fan": 2}], "total": 2, "multiplier": 4}]


def test_score_melds_and_gen_once_with_its_count() -> None:
    line = {"hand": "1m", "melds": [{"kind": "kong", "tile": "2m", "kong": "concealed"},
                                    {"kind": "pong", "tile": "3m"}, {"kind": "kong", "tile": "4m", "kong": "added"},
                                    {"kind": "pong", "tile": "5m"}], "win_tile": "1m", "self_drawn": True}
    code, out = _score([json.dumps(line)])
    assert code == 0
    fans = {f["id"]: f["fan"] for f in out[0]["fans"]}  # type: ignore[union-attr]
    assert fans == {"qingyise": 2, "duiduihu": 1, "jingoudiao": 1, "zimo": 1, "gen": 2}
    assert out[0]["total"] == 7 and out[0]["multiplier"] == 128


def test_score_non_win_reasons_and_malformed_lines_keep_going() -> None:
    lines = [
        json.dumps({"hand": "123m456p789s11m23p", "win_tile": "4p"}),
        "{not json",
        json.dumps({"hand": "123m456m789m23p55s", "win_tile": "4p", "void": "s"}),
        json.dumps({"hand": "5x", "win_tile": "4p"}),
        json.dumps({"hand": "123m456m789m23p55p", "win_tile": "4p", "colour": "red"}),
        json.dumps({"hand": "123m456m789m23p55p", "win_tile": "9p"}),
        json.dumps({"hand": "123m456m789m23p55p", "win_tile": "4p", "rules": "nope"}),
        "",
        json.dumps({"hand": "123m456m789m23p55p", "win_tile": "4p"}),
    ]
    code, out = _score(lines)
    assert code == 1
    assert len(out) == 8
    assert out[0]["win"] is False and "three suits" in str(out[0]["reason"])
    assert "error" in out[1] and "line 2" in str(out[1]["error"])
    assert out[2]["win"] is False and "void" in str(out[2]["reason"])
    assert "'x'" in str(out[3]["error"])
    assert "colour" in str(out[4]["error"])
    assert out[5] == {"win": False, "reason": "not a complete hand: it needs sets and a pair, or seven pairs"}
    assert "xuezhan" in str(out[6]["error"])  # lists the valid presets
    assert out[7]["win"] is True


def test_score_rules_option_and_overrides() -> None:
    line = json.dumps({"hand": "1112223334445m", "win_tile": "5m", "self_drawn": True, "void": "s"})
    assert _score([line])[1][0]["total"] == 4
    assert _score([line], "--set", "max_fan=3")[1][0]["total"] == 3
    classic = _score([line], "--rules", "classic")[1][0]
    assert classic["total"] == 3 and classic["label"] == 4  # zimo adds base, not fan; label offset 1
    result = runner.invoke(app, ["score", "--set", "max_fan=zero"], input="")
    assert result.exit_code != 0 and "max_fan" in result.output


def test_hand_shows_waits_with_copies_left() -> None:
    result = runner.invoke(app, ["hand", "1112345678999m", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["shanten"] == 0
    assert [(u["tile"], u["remaining"]) for u in data["useful"]] == [
        ("1m", 1), ("2m", 3), ("3m", 3), ("4m", 3), ("5m", 3), ("6m", 3), ("7m", 3), ("8m", 3), ("9m", 1)]
    assert data["useful"][0]["name"] == "一万"


def test_hand_best_discards_respect_the_void_suit() -> None:
    result = runner.invoke(app, ["hand", "1112345678999m5s", "--void", "s", "--json"])
    data = json.loads(result.stdout)
    assert [d["tile"] for d in data["discards"]] == ["5s"]
    assert data["discards"][0]["shanten"] == 0
    result = runner.invoke(app, ["hand", "1112345678999m5p", "--json"])
    best = json.loads(result.stdout)["discards"][0]
    assert best["tile"] == "5p" and best["useful_count"] == 1 + 7 * 3 + 1


def test_hand_text_output_and_bad_input() -> None:
    result = runner.invoke(app, ["hand", "123m456p789s1122s3m"])
    assert result.exit_code == 0 and "Discards" in result.stdout and "三万" in result.stdout
    bad = runner.invoke(app, ["hand", "12345m"])
    assert bad.exit_code == 2 and "expected 13 or 14" in bad.output
    fifth = runner.invoke(app, ["hand", "55555m12345678p"])
    assert fifth.exit_code == 2 and "5m" in fifth.output


def test_hand_of_dazhong_single_orphan_wait_and_no_chow_in_sichuan() -> None:
    """十三幺 with a pair waits on the one kind missing (all four copies unseen); a chow is
    refused under a Sichuan preset."""
    single = json.loads(runner.invoke(app, ["hand", "19m19p19s1234566z", "--rules", "dazhong", "--json"]).stdout)
    assert single["useful"] == [{"tile": "7z", "name": "中", "remaining": 4}]
    chow = runner.invoke(app, ["hand", "123m456p789s11m", "--meld", "chow:3s"])
    assert chow.exit_code == 2 and "chow" in chow.output


def test_rules_lists_every_option() -> None:
    result = runner.invoke(app, ["rules", "--rules", "portal-xueliu", "--json"])
    data = json.loads(result.stdout)
    assert data["preset"] == "portal-xueliu" and data["options"]["max_fan"] == 4
    text = runner.invoke(app, ["rules", "--set", "pass_rule=forever"])
    assert "pass_rule" in text.stdout and "forever" in text.stdout


def test_rules_at_80_columns_shows_whole_option_names_typed_values_and_sentences() -> None:
    res = runner.invoke(app, ["rules", "--rules", "classic"], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert max(len(line) for line in lines) <= 80 and "…" not in res.output
    rows = {line.split("│")[1].strip(): line.split("│")[2].strip() for line in lines
            if line.startswith("│") and line.split("│")[1].strip()}
    names = [n for n in RuleSet.model_fields if n != "preset"]
    assert sorted(rows) == sorted(names)  # every name whole, so it can be copied into --set
    assert rows["exchange"] == "on" and rows["forced_win_in_last_four"] == "off"
    assert rows["max_fan"] == "none" and rows["house_fans"] == "{}"
    for name in names:
        RuleSet.from_preset("classic").with_assignments([f"{name}={rows[name]}"])  # values read back as typed
    meanings = res.output.count("Accepts ")
    assert meanings == len(names)


def test_python_dash_m_runs_the_cli() -> None:
    line = '{"hand":"1112345678999m","win_tile":"9m"}\n'
    proc = subprocess.run([sys.executable, "-m", "chuanma", "score"], input=line, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["win"] is True


def test_hand_reads_honours_and_chow_under_dazhong() -> None:
    result = runner.invoke(app, ["hand", "19m19p19s1234567z", "--rules", "dazhong", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["shanten"] == 0 and "note" not in out
    assert [u["tile"] for u in out["useful"]] == ["1m", "9m", "1p", "9p", "1s", "9s", *(f"{r}z" for r in range(1, 8))]
    assert [u["name"] for u in out["useful"]][6:] == ["東", "南", "西", "北", "白", "發", "中"]
    chow = runner.invoke(app, ["hand", "123m78s555z66z7z", "--meld", "chow:4p", "--rules", "dazhong", "--json"])
    assert chow.exit_code == 0, chow.output
    assert json.loads(chow.stdout)["discards"][0]["tile"] == "7z"
    sichuan = runner.invoke(app, ["hand", "19m19p19s1234567z"])
    assert sichuan.exit_code == 2 and "rules dazhong" in sichuan.output
    void = runner.invoke(app, ["hand", "19m19p19s1234567z", "--rules", "dazhong", "--void", "m"])
    assert void.exit_code == 2 and "no void suit" in void.output
