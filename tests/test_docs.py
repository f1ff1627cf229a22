"""The documentation names every rule option, preset, fan, room and level the code has."""

from __future__ import annotations

import re
from pathlib import Path

from chuanma.portal.examples import TOPICS, example_ids
from chuanma.rules import HOUSE_FAN_DEFAULTS, PRESETS, RuleSet
from chuanma.scoring import FAN_NAMES, SITUATIONS
from chuanma.server.levels import HAND_XP, JIPIN_XP, LEVELS, WIN_XP
from chuanma.server.rooms import ROOMS

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
