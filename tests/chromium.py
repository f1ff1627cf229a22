"""The Chromium that the browser tests, benchmarks and screenshot scripts drive (Playwright), and a page
opened in it that collects its errors."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

CHROMIUM = "/usr/bin/chromium"
"""Installed by ``scripts/ensure-system-packages`` (``apt-get install chromium``)."""
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
"""Headless (Playwright's default) in a container, without Chromium's own background traffic."""


def refused_by_policy(context: Any, errors: list[str]) -> None:
    """Add to ``errors`` whatever the Content-Security-Policy refuses in any page of ``context`` (Chromium
    reports it on the console, not as a page error)."""
    context.on("console", lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None)


def serious_violations(page: Any) -> list[tuple[str, str, int]]:
    """axe-core's serious and critical WCAG 2.1 A/AA violations on ``page``: (rule, impact, nodes)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={
        "resultTypes": ["violations"],
        "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}})
    return [(v["id"], v["impact"], len(v["nodes"])) for v in results.response["violations"]
            if v["impact"] in ("serious", "critical")]


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
