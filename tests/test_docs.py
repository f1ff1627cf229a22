"""The documentation names every rule option, preset, fan, room and level the code has, and the
engine's contract (docs/engine.md) every variant, action form and event field; the operator's guide
(docs/operations.md) only commands that exist."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import msgspec
from typer.testing import CliRunner

from chuanma.cli import app as cli
from chuanma.engine import action_from_json, to_index
from chuanma.engine.event_types import EVENT_TYPES, EventBase
from chuanma.fans import HOUSE_FAN_DEFAULTS
from chuanma.portal.examples import TOPICS, example_ids
from chuanma.rules import PRESETS, RuleSet
from chuanma.scoring import FAN_NAMES, SITUATIONS
from chuanma.server.levels import HAND_XP, JIPIN_XP, LEVELS, WIN_XP
from chuanma.server.rooms import DEFAULT_ROOMS as ROOMS
from chuanma.variant import VARIANTS

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
PORTAL = DOCS.with_name("portal.md")


def test_rules_doc_lists_every_option_preset_fan_and_situation() -> None:
    text = DOCS.read_text(encoding="utf-8")
    names = [*(n for n in RuleSet.model_fields if n != "preset"), *PRESETS, *FAN_NAMES, *SITUATIONS]
    missing = [n for n in names if f"`{n}`" not in text]
    assert missing == []


def test_rules_doc_gives_the_house_fan_defaults() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for fan_id, value in HOUSE_FAN_DEFAULTS.items():
        row = next(line for line in text.splitlines() if line.startswith(f"| `{fan_id}` |"))
        assert f"| {value} |" in row


def test_portal_doc_lists_the_examples_each_guide_topic_plays() -> None:
    lines = PORTAL.read_text(encoding="utf-8").splitlines()
    start = lines.index("| topic | examples (preset) | what the engine shows |") + 2
    listed: dict[str, list[str]] = {}
    for row in lines[start:lines.index("", start)]:
        topics, examples = (re.findall(r"`(\w+)`", cell) for cell in row.split("|")[1:3])
        listed.update((name, examples) for name in topics)
    assert listed == {name: example_ids([name]) for name in TOPICS}


def test_rooms_tables_match_the_rooms() -> None:
    """docs/server.md and docs/engine.md list every room with its name, preset, base and entry."""
    want = {f"`{r.id}`": [r.name, f"`{r.preset}`", f"{r.base:,}", r.range_text()] for r in ROOMS.values()}
    for doc in (DOCS.with_name("server.md"), DOCS.with_name("engine.md")):
        lines = doc.read_text(encoding="utf-8").splitlines()
        start = lines.index("| room | name | preset | base | entry |") + 2
        rows = [[cell.strip() for cell in row.split("|")[1:-1]] for row in lines[start:lines.index("", start)]]
        assert {row[0]: row[1:] for row in rows} == want and len(rows) == len(want), doc.name


def test_levels_table_matches_the_levels() -> None:
    """docs/server.md lists every level with its names and where it starts, and the experience rule."""
    text = DOCS.with_name("server.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    start = lines.index("| level | 中文 | English | from |") + 2
    rows = [[cell.strip() for cell in row.split("|")[1:-1]] for row in lines[start:lines.index("", start)]]
    assert rows == [[str(lv.number), lv.zh, lv.en, f"{lv.xp:,}"] for lv in LEVELS]
    assert f"{HAND_XP} a hand played, {WIN_XP} a win (血流: each win), {JIPIN_XP} more a 极品 win" in text
    assert {f"Lv.{r.min_level}" for r in ROOMS.values() if r.min_level} <= set(re.findall(r"Lv\.\d", text))


ENGINE_DOC = DOCS.with_name("engine.md")


def _table(lines: list[str], header: str) -> list[list[str]]:
    """The rows of the table under ``header`` in ``lines``, as lists of cells."""
    start = lines.index(header) + 2
    return [[cell.strip() for cell in row.split("|")[1:-1]] for row in lines[start:lines.index("", start)]]


def test_engine_contract_lists_every_variant_as_it_is() -> None:
    """docs/engine.md's contract gives every variant's tile set, phases, melds and end as the code has them."""
    rows = _table(ENGINE_DOC.read_text(encoding="utf-8").splitlines(),
                  "| variant | tile kinds | tiles | winners stay | 换三张 | 定缺 | 吃 "
                  "| the hand ends when out of play | end reason | fans |")
    yes = {True: "yes", False: "no"}
    assert rows == [[f"`{v.name}`", str(v.tiles.kinds), str(v.tiles.size), yes[v.winners_stay], yes[v.exchange],
                     yes[v.void], yes[v.chow], str(v.ends_at), f"`{v.over_reason}`", f"`{v.fans}`"]
                    for v in VARIANTS.values()]


def test_engine_contract_gives_every_actions_json_form_and_index() -> None:
    """Each JSON form in the contract's action table is read back to itself, every kind of action
    has one, and the exchange indices it names are the code's."""
    rows = _table(ENGINE_DOC.read_text(encoding="utf-8").splitlines(), "| action | JSON form | index |")
    forms = [json.loads(row[1].strip("`")) for row in rows]
    tiles = RuleSet.from_preset("dazhong").tiles
    assert [action_from_json(form, tiles).to_json() for form in forms] == forms
    assert {key for form in forms for key in form} == {"exchange", "void", "discard", "pong", "kong", "chow", "hu",
                                                       "pass", "leave"}
    named = re.findall(r"`(\d{3}[mps])` (?:is )?(\d+)", rows[0][2])
    assert len(named) == 4
    assert all(to_index(action_from_json({"exchange": tiles_text}, tiles)) == int(i) for tiles_text, i in named)


def test_engine_contract_gives_every_events_fields_and_private_part() -> None:
    """The contract's event table has a row per event type, naming every field of its type and,
    as its private part, exactly the fields only its own seat may see."""
    rows = _table(ENGINE_DOC.read_text(encoding="utf-8").splitlines(),
                  "| event | fields | private part (its own seat only) | who sees it |")
    base = {f.encode_name for f in msgspec.structs.fields(EventBase)}
    assert [row[0] for row in rows] == [f"`{tag}`" for tag in EVENT_TYPES]
    for (_, fields_cell, private_cell, _), (tag, cls) in zip(rows, EVENT_TYPES.items(), strict=True):
        fields = {f.encode_name for f in msgspec.structs.fields(cls)} - base
        private = {f.encode_name for f in msgspec.structs.fields(cls) if f.name in cls.PRIVATE}
        assert set(re.findall(r"`(\w+)`", fields_cell)) & fields == fields, tag
        assert set(re.findall(r"`(\w+)`", private_cell)) & fields == private, tag


def test_operations_doc_gives_admin_commands_and_options_that_exist() -> None:
    """Every ``chuanma admin …`` command docs/operations.md gives exists, with the options it shows."""
    text = DOCS.with_name("operations.md").read_text()
    given = re.findall(r"chuanma admin ((?:keys |rooms |maintenance )?[a-z][a-z-]*)([^`\n]*)", text)
    assert {name for name, _ in given} >= {"keys list", "keys add", "keys retire", "new-cluster", "rooms list",
                                           "rooms set", "rooms disable", "rooms enable", "announce", "maintenance on",
                                           "maintenance off", "note"}
    runner = CliRunner()
    for name, rest in given:
        shown = runner.invoke(cli, ["admin", *name.split(), "--help"], env={"COLUMNS": "200"})
        assert shown.exit_code == 0, f"chuanma admin {name}: {shown.output}"
        for option in re.findall(r"--[a-z][a-z-]+", rest):
            assert option in shown.output, f"chuanma admin {name} has no {option}"


def test_without_the_server_extra_every_other_command_works_and_admin_says_what_to_install() -> None:
    script = ("import sys; sys.modules['sqlalchemy'] = None\n"  # as if the server extra were not installed
              "from typer.testing import CliRunner\nfrom chuanma.cli import app\n"
              "print(CliRunner().invoke(app, ['rules', '--rules', 'xuezhan']).exit_code)\n"
              "print(CliRunner().invoke(app, ['admin', 'keys', 'list']).output)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.startswith("0\n"), done.stdout + done.stderr
    assert "the admin commands need the 'server' extra" in " ".join(done.stdout.replace("│", " ").split())
