"""Any input gives a result or a clear error, never an uncaught exception: ``replay``, the record
loader, ``fair verify``, ``score`` and ``hand``, with JSON-like values and valid records mutated
field by field."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from chuanma.cli import app
from chuanma.commands.score import score_stream
from chuanma.engine import RecordError, load, replay
from chuanma.fairness import verify_record
from chuanma.fairness.errors import FairnessError
from chuanma.rules import RuleSet
from conftest import examples
from fairness_records import played_copy

runner = CliRunner()
XUEZHAN = RuleSet.from_preset("xuezhan")


def _nested(depth: int) -> Any:
    value: Any = "5m"
    for _ in range(depth):
        value = [value]
    return value


ODD_STRINGS = st.sampled_from(["", "5m\n", " 5m", "1z", "7z", "0m", "10m", "5", "m", "mp", "\ud800", "é", "5m5m",
                               "to_next ", "xuezhan", "dazhong", "pong:5p", "kong:7p:concealed", "chow:3m", "∞"])
SCALARS = (st.none() | st.booleans() | st.integers() | st.sampled_from([10**100, -(10**4000), 2**63, 4, 0, -1])
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12) | ODD_STRINGS)
JSONISH = st.recursive(
    SCALARS | st.builds(_nested, st.just(40)),  # a new one each time: a mutation may nest it in itself
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8) | ODD_STRINGS, inner, max_size=4),
    max_leaves=12,
)
"""Values JSON text can hold (and a few it cannot nest so deep): nested lists and objects, huge
integers, floats with NaN and infinities, booleans, null and odd strings."""


def fresh() -> dict[str, Any]:
    return played_copy(17)


@st.composite
def mutated_records(draw: st.DrawFn) -> dict[str, Any]:
    """A valid played record with one to three fields (top level, seeds, a decision or a wall tile) replaced."""
    record = fresh()
    for _ in range(draw(st.integers(1, 3))):
        value = draw(JSONISH)
        where = draw(st.sampled_from(["top", "seeds", "decision", "wall", "drop"]))
        if where == "top":
            record[draw(st.sampled_from([*record, "extra"]))] = value
        elif where == "seeds" and isinstance(record.get("seeds"), dict):
            record["seeds"][draw(st.sampled_from([*record["seeds"], "extra"]))] = value
        elif where == "decision" and isinstance(record.get("decisions"), list) and record["decisions"]:
            i = draw(st.integers(0, len(record["decisions"]) - 1))
            d = record["decisions"][i]
            if isinstance(d, dict) and draw(st.booleans()):
                d[draw(st.sampled_from([*d, "pong", "kong"]))] = value
            else:
                record["decisions"][i] = value
        elif where == "wall" and isinstance(record.get("wall"), list) and record["wall"]:
            record["wall"][draw(st.integers(0, len(record["wall"]) - 1))] = value
        elif record:
            record.pop(draw(st.sampled_from(sorted(record))))
    return record


def _replay_and_verify(record: Any) -> None:
    """Replay and verify ``record``: each gives a result or its own clear error."""
    try:
        replay(record)
    except RecordError as exc:
        assert str(exc)
    try:
        verify_record(record)
    except FairnessError as exc:
        assert str(exc)


@settings(max_examples=examples(150))
@given(mutated_records())
def test_replay_and_verify_of_a_mutated_record_never_crash(record: dict[str, Any]) -> None:
    _replay_and_verify(record)


@settings(max_examples=examples(100))
@given(JSONISH)
def test_replay_and_verify_of_any_value_never_crash(value: Any) -> None:
    _replay_and_verify(value)
    _replay_and_verify({"format": "chuanma-record/2", "rules": value, "dealer": 0, "direction": "to_next",
                        "wall": fresh()["wall"], "decisions": [value]})


def _json_text(value: Any) -> str:
    """``value`` as JSON text (NaN and infinities as Python's json module writes them)."""
    return json.dumps(value)


@settings(max_examples=examples(60))
@given(st.one_of(mutated_records().map(_json_text), JSONISH.map(_json_text),
                 st.binary(max_size=40).map(lambda b: b.decode("latin-1"))))
def test_replay_command_on_any_file_exits_cleanly(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "record.json"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        try:
            load(str(path))
        except RecordError as exc:
            assert str(exc)
        for args in (["replay", "--json", str(path)], ["fair", "verify", "--json", str(path)]):
            result = runner.invoke(app, args)
            assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
            assert result.exit_code in (0, 1, 2, 3)


SCORE_KEYS = ["hand", "win_tile", "melds", "self_drawn", "void", "situations", "rules", "extra"]
GOOD_LINE = {"hand": "123m456m789m23p55p", "win_tile": "4p", "void": "s"}


@st.composite
def score_lines(draw: st.DrawFn) -> bytes:
    line: Any = dict(GOOD_LINE)
    for _ in range(draw(st.integers(0, 3))):
        line[draw(st.sampled_from(SCORE_KEYS))] = draw(JSONISH)
    if draw(st.integers(0, 9)) == 0:
        line = draw(JSONISH)
    text = json.dumps(line).encode("utf-8", "surrogatepass")
    return text if draw(st.integers(0, 9)) else draw(st.binary(max_size=20))


@settings(max_examples=examples(150))
@given(st.lists(score_lines(), min_size=1, max_size=5))
def test_score_answers_every_line_and_goes_on(lines: list[bytes]) -> None:
    source = [line.replace(b"\n", b" ") + b"\n" for line in lines]
    sink = _Sink()
    errors = score_stream(source, sink, XUEZHAN)
    answers = [json.loads(out) for out in sink.lines]
    assert len(answers) == sum(1 for line in source if line.strip(RFC8259_WHITESPACE))
    assert errors == sum("error" in a for a in answers)


RFC8259_WHITESPACE = b" \t\n\r"  # the only whitespace JSON allows; a line of nothing else is blank


def test_score_answers_a_line_of_a_separator() -> None:
    # Hypothesis found this: str.strip() removes \x1c (a separator), so the line had no answer
    result = runner.invoke(app, ["score"], input=b"\x1c\n \t\r\n\x0b\n\xe3\x80\x80\n")
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert [a["error"].split(":")[0] for a in answers] == ["line 1", "line 3", "line 4"]
    assert result.exit_code == 1


class _Sink:
    """A text sink that keeps the lines written to it."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def write(self, text: str) -> int:
        self.lines.extend(text.splitlines())
        return len(text)


HAND_TEXT = st.one_of(st.text(alphabet="123456789mpsz :\n", max_size=16), ODD_STRINGS,
                      st.sampled_from(["123m456m789m2345p", "123m456p789s11m234p", "1112345678999m"]))


@settings(max_examples=examples(120))
@given(HAND_TEXT, st.none() | st.sampled_from(["m", "p", "s", "x", "mp", ""]),
       st.lists(HAND_TEXT, max_size=2), HAND_TEXT)
def test_hand_command_answers_or_refuses_cleanly(tiles: str, void: str | None, melds: list[str], seen: str) -> None:
    args = ["hand", "--json", "--seen", seen, *(a for m in melds for a in ("--meld", m))]
    if void is not None:
        args += ["--void", void]
    result = runner.invoke(app, [*args, "--", tiles])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 2)
    if result.exit_code == 0:
        assert "shanten" in json.loads(result.stdout)
    else:
        assert "error:" in result.output or "Usage" in result.output
