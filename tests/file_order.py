"""The order the test files are handed out in: longest first.

``./run-tests`` spreads whole files over the workers (``--dist loadfile``) in collection order
(``--no-loadscope-reorder``). Collected longest first, by the seconds each file took in a measured
run (``durations.json``), the long files start at once and the short ones fill the gaps, so no long
file starts last and runs on alone at the end. A file not in the table counts as short.
``pytest --write-durations`` measures the run and writes the table again.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

DURATIONS = Path(__file__).with_name("durations.json")
"""Seconds per test file (setup, call and teardown of all its tests) in one measured run."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--write-durations", action="store_true",
                     help=f"write each test file's seconds in this run to {DURATIONS.name}")


def file_seconds() -> dict[str, float]:
    """The measured table (empty if there is none)."""
    return json.loads(DURATIONS.read_text(encoding="utf-8")) if DURATIONS.exists() else {}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    seconds = file_seconds()
    items.sort(key=lambda item: -seconds.get(item.path.name, 0.0))  # stable: a file's tests stay together


class Recorder:
    """Adds up the seconds of every test phase by file (on the controller, workers' reports too)."""

    def __init__(self) -> None:
        self.seconds: defaultdict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[report.nodeid.split("::")[0].rsplit("/", 1)[-1]] += report.duration

    def pytest_sessionfinish(self) -> None:
        ordered = dict(sorted(((f, round(s, 1)) for f, s in self.seconds.items()), key=lambda kv: -kv[1]))
        DURATIONS.write_text(json.dumps(ordered, indent=1) + "\n", encoding="utf-8")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--write-durations") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(Recorder(), "file-durations")
