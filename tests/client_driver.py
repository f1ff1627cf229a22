"""Drive the browser client in Chromium: the server on SQLite in a thread, and a player who clicks.

Used by the ``test_client_*`` tests and by ``scripts/screenshots_client.py``.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from chromium import open_tab
from chuanma.server.config import ServerConfig
from chuanma.server.store import sqlite_url
from server_harness import Running, running

KEYS = "1234567890qwer"
"""The keys of the 1st … 14th tile of the hand (docs/client.md)."""
WAIT_MS = 30_000
"""How long a step waits for the page (bots answer at once; a person has 20 s per decision)."""
DECIDING = """() => {
  const t = window.chuanmaClient && window.chuanmaClient.table;
  return !!document.querySelector('#settle-title') || !!(t && t.prompt && t.view && !t.frame);
}"""


@contextmanager
def in_thread(config: ServerConfig) -> Iterator[Running]:
    """The server of ``config`` on a free port, in its own thread and event loop, for the block (a
    coroutine may be run in that loop with ``asyncio.run_coroutine_threadsafe(coro, run.loop)``)."""
    started = threading.Event()
    stop = threading.Event()
    box: dict[str, Any] = {}

    async def serve() -> None:
        try:
            async with running(config) as run:
                box["run"] = run
                started.set()
                while not stop.is_set():
                    await asyncio.sleep(0.05)
        except BaseException as exc:
            box["error"] = exc
            started.set()
            raise

    thread = threading.Thread(target=asyncio.run, args=(serve(),), daemon=True)
    thread.start()
    started.wait(60)
    if "error" in box:
        raise RuntimeError("the server did not start") from box["error"]
    try:
        yield box["run"]
    finally:
        stop.set()
        thread.join(30)


@contextmanager
def live_server(data: Path, **overrides: Any) -> Iterator[Running]:
    """The server on SQLite in ``data`` in real time (:func:`in_thread`), with ``overrides`` of its
    test settings (bots at once, no rate limits)."""
    settings: dict[str, Any] = {"bot_wait": 0.2, "auth_per_minute": 1000, "messages_per_second": 1000.0,
                                "guests_per_hour": 10_000, "private_tables_per_hour": 10_000,
                                "grants_per_day": 10_000}
    settings.update(overrides)
    with in_thread(ServerConfig(db_url=sqlite_url(data), **settings)) as run:
        yield run


class Player:
    """A person at the browser client: registers, joins, and answers every prompt by clicking."""

    def __init__(self, page: Any, base: str, *, keys: bool = False, errors: list[str] | None = None) -> None:
        self.page = page
        self.base = base
        self.keys = keys
        """Discard and pass with the keyboard (tile keys, space) instead of clicking."""
        self.errors = [] if errors is None else errors
        """The page's script errors, where whoever opened the page collects them."""
        self.decisions: list[str] = []

    def register(self, username: str, password: str = "correct horse battery") -> None:
        self.page.goto(self.base + "/")
        self.page.fill("#username", username)
        self.page.fill("#password", password)
        self.page.click("[data-auth=register]")
        self.page.wait_for_selector("[data-join]")

    def quick_join(self, room: str = "chuji-xuezhan") -> None:
        self.page.click(f"[data-join='{room}']")
        self.page.wait_for_selector("[data-testid=ready]:not([disabled])", timeout=WAIT_MS)

    def ready(self) -> None:
        self.page.click("[data-testid=ready]")

    def next_hand(self) -> None:
        """On the settlement panel: ready for the next hand."""
        self.page.click("[data-testid=next-hand]")

    def to_mid_hand(self, decisions: int) -> None:
        """Make ``decisions`` decisions, then go on until a decision of the player's is pending in a
        hand being played (the hand waits for it): a hand that ended meanwhile (the player won
        early and the bots played it out) is followed by the next one."""
        for _ in range(decisions):
            if self.step() == "settled":
                self.next_hand()
        while True:
            self.page.wait_for_function(DECIDING, timeout=WAIT_MS)
            if not self.page.locator("#settle-title").count():
                return
            self.next_hand()

    def prompt_version(self) -> int | None:
        version: int | None = self.page.evaluate("() => window.chuanmaClient.table?.prompt?.version ?? null")
        return version

    def step(self, claims: bool = True) -> str:
        """Wait for a decision (or the settlement) and make it by clicking; returns what was done."""
        page = self.page
        page.wait_for_function(DECIDING, timeout=WAIT_MS)
        if page.locator("#settle-title").count():
            return "settled"
        version = self.prompt_version()
        kind = self.decide(claims)
        if kind == "none":
            page.wait_for_timeout(50)
            return kind
        self.decisions.append(kind)
        page.wait_for_function(
            "v => { const t = window.chuanmaClient.table; return !t || !t.prompt || t.prompt.version !== v"
            " || !!document.querySelector('#settle-title'); }", arg=version, timeout=WAIT_MS)
        return kind

    def decide(self, claims: bool) -> str:
        page = self.page
        exchange = page.locator("[data-act=exchange]")
        if exchange.count():
            if exchange.is_disabled():  # no suggestion shown: pick the first three of a suit
                return "none"
            exchange.click()
            return "exchange"
        voids = page.locator("button[data-testid^=void-]")
        if voids.count():
            suggested = page.locator("button.btn-ok[data-testid^=void-]")
            (suggested if suggested.count() else voids.first).click()
            return "void"
        for kind in (("hu", "pong", "kong", "chow") if claims else ("hu",)):
            button = page.locator(f"[data-testid=act-{kind}]")
            if button.count():
                button.first.click()
                return kind
        passing = page.locator("[data-testid=act-pass]")
        if passing.count():
            page.keyboard.press("Space") if self.keys else passing.click()
            return "pass"
        best = page.locator("[data-testid=hand] button.tile.best:not([disabled])")
        usable = page.locator("[data-testid=hand] button.tile:not([disabled])")
        if best.count() or usable.count():
            tile = best.first if best.count() else usable.last
            if self.keys:
                page.keyboard.press(KEYS[int(tile.get_attribute("data-index"))])
            else:
                tile.click()
            return "discard"
        return "none"

    def play_to_settlement(self, limit: int = 400) -> None:
        for _ in range(limit):
            if self.step() == "settled":
                return
        raise AssertionError(f"no settlement after {limit} steps: {self.decisions[-20:]}")

    def chips(self, seat: int) -> int:
        cell = self.page.locator(f"[data-testid=chips-{seat}] [data-testid=chips]")
        return int(cell.inner_text().replace(",", "").replace("+", "").replace("−", "-"))

    @property
    def seat(self) -> int:
        seat: int = self.page.evaluate("() => window.chuanmaClient.table.seat")
        return seat


def new_player(browser: Any, base: str, name: str, width: int = 1280, height: int = 800, *, lang: str | None = None,
               keys: bool = False, **options: Any) -> Player:
    """A person in a new context of ``browser`` who registers as ``name`` at the server at ``base``
    (:func:`open_tab`'s ``lang`` and ``options``; with ``keys`` discarding and passing by keyboard)."""
    opened = open_tab(browser, width, height, lang, **options)
    player = Player(opened.page, base, keys=keys, errors=opened.errors)
    player.register(name)
    return player
