"""The browser tests' Chromium (a pytest plugin: the ``browser`` fixture, one Chromium a test module)
and their pages, each in a context of its own that collects the page's script errors and what the
Content-Security-Policy refuses. A test asking for ``browser`` skips where Playwright or Chromium is
missing (and so fails in CI, see ``ci_skips``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from chromium import CHROMIUM, CHROMIUM_ARGS, refused_by_policy
from client_driver import Player


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


@dataclass
class Tab:
    """A page in a browser context of its own, and the errors seen in that context."""

    page: Any
    errors: list[str]
    """The page's uncaught script errors and whatever the Content-Security-Policy refused."""


def open_tab(browser: Any, width: int = 1280, height: int = 800, lang: str | None = None, **options: Any) -> Tab:
    """A new context of ``browser`` (Playwright's ``options``) at ``width``×``height`` and a page in it;
    with ``lang`` the client's pages start in that language (``zh`` or ``en``)."""
    context = browser.new_context(viewport={"width": width, "height": height}, **options)
    if lang is not None:
        context.add_init_script(f"localStorage.setItem('chuanma.lang', '{lang}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    refused_by_policy(context, errors)
    return Tab(page, errors)


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


def new_player(browser: Any, base: str, name: str, width: int = 1280, height: int = 800, *, lang: str | None = None,
               keys: bool = False, **options: Any) -> Player:
    """A person in a new context of ``browser`` who registers as ``name`` at the server at ``base``
    (:func:`open_tab`'s ``lang`` and ``options``; with ``keys`` discarding and passing by keyboard)."""
    opened = open_tab(browser, width, height, lang, **options)
    player = Player(opened.page, base, keys=keys, errors=opened.errors)
    player.register(name)
    return player
