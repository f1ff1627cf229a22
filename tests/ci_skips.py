"""A pytest plugin: where the environment variable ``CI`` is set, a skipped test is a failure.

A test skips when a module (``pytest.importorskip``) or the browser is missing; on a developer's
machine that is a convenience, in CI it would hide a whole part of the suite.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from typing import Any

import pytest


def in_ci() -> bool:
    """True when ``CI`` is set to anything but empty, ``0`` or ``false``."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false")


def _fail_a_skip(report: pytest.CollectReport | pytest.TestReport) -> None:
    if in_ci() and report.skipped and not hasattr(report, "wasxfail"):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped, but CI is set and every test must run there: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    _fail_a_skip(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, None]:
    outcome = yield
    _fail_a_skip(outcome.get_result())
