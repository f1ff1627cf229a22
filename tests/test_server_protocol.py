"""docs/protocol.md shows a valid example of every message, and the protocol models refuse bad ones."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chuanma.cli import app as cli
from chuanma.server import protocol as p
from chuanma.server.rooms import ROOMS

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
])
def test_protocol_refuses_bad_messages_naming_the_problem(text: str, code: str) -> None:
    with pytest.raises(p.ProtocolError) as info:
        p.parse_client(text)
    assert info.value.code == code and str(info.value)


def test_rooms_follow_the_rules_room_table() -> None:
    chuji = ROOMS["chuji-xuezhan"]
    assert (chuji.base, chuji.low, chuji.high) == (400, 2_000, 100_000)
    assert ROOMS["zunjue-xueliu"].rules().variant == "xueliu" and ROOMS["zunjue-xueliu"].rules().base == 80_000
    assert ROOMS["classic"].rules().base == 6
    assert not chuji.admits(1_999) and chuji.admits(100_000) and not chuji.admits(100_001)


def test_serve_refuses_bad_timers() -> None:
    result = CliRunner().invoke(cli, ["serve", "--turn-seconds", "0"])
    assert result.exit_code == 2 and "timers" in result.output


def test_logs_are_json_lines_without_unlisted_fields() -> None:
    import logging

    from chuanma.server.logs import JsonFormatter

    record = logging.LogRecord("chuanma.server.table", logging.INFO, __file__, 1, "hand settled", None, None)
    record.__dict__.update({"table": "t1", "password": "hunter22", "token": "abc", "server_seed": "ff"})
    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "hand settled" and line["table"] == "t1"
    assert not {"password", "token", "server_seed"} & set(line)
