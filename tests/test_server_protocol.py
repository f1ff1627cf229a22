"""docs/protocol.md shows a valid example of every message, and the protocol models refuse bad ones."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chuanma.cli import app as cli
from chuanma.json_input import nesting
from chuanma.rules import RuleSet
from chuanma.server import protocol as p
from chuanma.server.rooms import DEFAULT_ROOMS as ROOMS

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"


def _examples(section: str) -> dict[str, list[dict[str, object]]]:
    """The JSON examples under ``## Client messages`` or ``## Server messages``, by type."""
    text = DOC.read_text(encoding="utf-8").split(f"## {section} messages")[1].split("\n## ")[0]
    found: dict[str, list[dict[str, object]]] = {}
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        data = json.loads(block.replace("…", ""))
        found.setdefault(data["type"], []).append(data)
    return found


def test_protocol_doc_has_an_example_of_every_message() -> None:
    assert set(_examples("Client")) == set(p.CLIENT_TYPES)
    assert set(_examples("Server")) == set(p.SERVER_TYPES)
    examples = {**_examples("Client"), **_examples("Server")}
    assert all(ex["v"] == p.VERSION for group in examples.values() for ex in group)


def test_protocol_doc_client_examples_are_valid_messages() -> None:
    examples = _examples("Client")
    for kind in p.CLIENT_TYPES:
        for ex in examples[kind]:
            assert p.parse_client(json.dumps(ex)).type == kind


@pytest.mark.parametrize(("text", "code"), [
    ("", "bad_json"),
    ("42", "bad_message"),
    ('{"v": 1}', "unknown_type"),
    ('{"type": "act", "v": 1, "table": "t", "version": "3", "action": {}}', "bad_message"),
    ('{"type": "act", "v": 1, "table": "t", "version": -1, "action": {}}', "bad_message"),
    ('{"type": "ready", "v": 1, "client_seed": "' + "x" * 65 + '"}', "bad_message"),
    ('{"type": "ping", "v": 1, "x": ' + "[" * 2000 + "]" * 2000 + "}", "too_deep"),  # deeper than json can parse
    ('{"type": "act", "v": 1, "table": "t", "version": 3, "action": {"a": ' + "[" * 7 + "]" * 7 + "}}", "too_deep"),
])
def test_protocol_refuses_bad_messages_naming_the_problem(text: str, code: str) -> None:
    with pytest.raises(p.ProtocolError) as info:
        p.parse_client(text)
    assert info.value.code == code and str(info.value)


def test_nesting_up_to_the_limit_is_parsed() -> None:
    deepest = {"type": "act", "v": 1, "table": "t", "version": 3, "action": {"a": [[[[[[]]]]]]}}
    assert nesting(deepest) == p.MAX_DEPTH and nesting([]) == 1 and nesting(3) == 0
    assert p.parse_client(json.dumps(deepest)).type == "act"


def test_rooms_follow_the_rules_room_table() -> None:
    chuji = ROOMS["chuji-xuezhan"]
    assert (chuji.base, chuji.low, chuji.high) == (400, 2_000, 100_000)
    assert ROOMS["zunjue-xueliu"].rules().variant == "xueliu" and ROOMS["zunjue-xueliu"].rules().base == 80_000
    assert ROOMS["classic"].rules().base == 6
    assert not chuji.admits(1_999) and chuji.admits(100_000) and not chuji.admits(100_001)


def test_doublewin_rooms_play_doublewin_rules() -> None:
    # the six tiers are DoubleWin's rooms: its 血战 and 血流 rules at the tier's base, with none of
    # what its rules never state (退税, 抢杠胡, 呼叫转移, a free 过手杠; 一炮多响 in 血战)
    tiers = {room.id.rsplit("-", 1)[0] for room in ROOMS.values() if room.preset.startswith("doublewin-")}
    assert tiers == {"chuji", "pingmin", "guanjia", "tuhao", "fushang", "zunjue"}
    for tier in tiers:
        for mode in ("xuezhan", "xueliu"):
            room = ROOMS[f"{tier}-{mode}"]
            rules = room.rules()
            assert room.preset == f"doublewin-{mode}" and rules == RuleSet.from_preset(room.preset, base=room.base)
            assert (rules.refund, rules.robbing_kong, rules.call_transfer, rules.late_added_kong_pays) == (
                False, False, "off", True)
            assert rules.multiple_winners is (mode == "xueliu")
    # the platform's own rooms play the preset they are named after
    assert {r.id: r.preset for r in ROOMS.values() if not r.preset.startswith("doublewin-")} == {
        "classic": "classic", "classic-normal": "classic-normal", "dazhong": "dazhong"}


@pytest.mark.parametrize(("args", "named"), [
    (["--turn-seconds", "0"], "timers"), (["--claim-seconds", "nan"], "timers"), (["--bot-wait", "inf"], "timers"),
    (["--ready-seconds", "1e300"], "timers"), (["--messages-per-second", "nan"], "rate limits"),
    (["--auth-per-minute", "100000000000"], "rate limits"), (["--private-idle-seconds", "0"], "timers"),
    (["--lease-seconds", "0"], "timers"), (["--private-tables", "0"], "greater than or equal"),
    (["--private-tables", "99999999999999999999"], "less than or equal"),
    (["--reliefs-per-day", "25"], "less than or equal"), (["--leaderboard-min-hands", "0"], "--leaderboard-min-hands"),
    (["--login-days", "nan"], "--login-days"), (["--login-days", "0.5"], "--login-days"),
    (["--grants-per-day", "0"], "greater than or equal"), (["--escape-cap", "-1"], "greater than or equal"),
    (["--relief-hands", "-1"], "greater than or equal"),
])
def test_serve_refuses_bad_timers_and_rates(args: list[str], named: str) -> None:
    result = CliRunner().invoke(cli, ["serve", *args])
    assert result.exit_code == 2 and named in result.output and isinstance(result.exception, SystemExit)


def test_serve_refuses_a_proxy_that_is_not_an_address() -> None:
    result = CliRunner().invoke(cli, ["serve", "--forwarded-allow-ips", "10.0.0.0/8, proxy.local"])
    assert result.exit_code == 2 and "--forwarded-allow-ips: 'proxy.local' is not an address" in result.output


def _serve(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    port = [] if "--port" in args else ["--port", "0"]  # the default 8000 may be taken on this machine
    return subprocess.Popen([sys.executable, "-m", "chuanma", "serve", *port, *args], cwd=cwd, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@pytest.mark.parametrize(("args", "words"), [
    (["--port", "99999"], "less than or equal to 65535"),  # was taken modulo 65536: port 34463
    (["--port", "-5"], "greater than or equal to 0"),
    (["--data", "{file}"], "--data: cannot create"),
    (["--db", "bogus://x"], "--db: cannot open the database: Can't load plugin"),
    (["--db", "not a url"], "--db: Could not parse"),
    (["--db", "sqlite:///{file}/x.db"], "--db: cannot open the database: unable to open database file"),
    (["--db", "postgresql://u@h:abc/db"], "--db: invalid literal for int()"),  # a port that is not a number
    (["--db", "postgresql+asyncpg://u:p@127.0.0.1:99999/db"], "--db: cannot open the database:"),
    (["--redis", "redis://127.0.0.1:6379/0"], "--redis: a cluster's nodes share a PostgreSQL"),  # on SQLite
])
def test_serve_refuses_a_bad_port_data_directory_or_database_without_a_traceback(
        tmp_path: Path, args: list[str], words: str) -> None:
    file = tmp_path / "a-file"
    file.write_text("")
    proc = _serve([a.format(file=file) for a in args], tmp_path)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 2 and words in " ".join(err.split()) and "Traceback" not in err, err
    assert out == ""


def test_serve_names_the_database_it_was_given(tmp_path: Path) -> None:
    proc = _serve(["--port", "0", "--data", str(tmp_path), "--db", f"sqlite:///{tmp_path / 'chips.db'}"], tmp_path)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
    finally:
        proc.terminate()
        proc.wait(30)
    assert line.startswith("chuanma server: open http://127.0.0.1:") and "database: SQLite" in line, line


def test_logs_are_json_lines_without_unlisted_fields() -> None:
    import logging

    from chuanma.server.logs import JsonFormatter

    record = logging.LogRecord("chuanma.server.table", logging.INFO, __file__, 1, "hand settled", None, None)
    record.__dict__.update({"table": "t1", "password": "hunter22", "token": "abc", "server_seed": "ff"})
    line = json.loads(JsonFormatter("host:41:a1b2c3").format(record))
    assert line["message"] == "hand settled" and line["table"] == "t1" and line["node"] == "host:41:a1b2c3"
    assert not {"password", "token", "server_seed"} & set(line)
