"""The Chromium that the browser tests, benchmarks and screenshot scripts drive (Playwright)."""

from __future__ import annotations

from typing import Any

CHROMIUM = "/usr/bin/chromium"
"""Installed by ``scripts/ensure-chromium`` (``apt-get install chromium``)."""
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
