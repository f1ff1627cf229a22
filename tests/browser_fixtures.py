"""The browser tests' Chromium, a pytest plugin: the ``browser`` fixture (one Chromium a test module;
a test asking for it skips where Playwright or Chromium is missing, and so fails in CI, see
``ci_skips``), and :func:`tab`, a page that must have had no error."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from chromium import CHROMIUM, CHROMIUM_ARGS, Tab, open_tab


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module's tests (each test opens its own contexts in it)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@contextmanager
def tab(browser: Any, width: int = 1280, height: int = 800, lang: str | None = None, **options: Any) -> Iterator[Tab]:
    """:func:`open_tab` for the block; its context is closed after it, and the block fails if the
    page had an error."""
    opened = open_tab(browser, width, height, lang, **options)
    try:
        yield opened
    finally:
        opened.page.context.close()
    assert opened.errors == []
