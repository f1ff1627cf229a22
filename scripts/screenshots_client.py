"""Regenerate the browser client's screenshots in docs/screenshots/: the lobby, then the table at each
stage of a hand (the exchange, the void choice, mid-hand, a claim, a win, the settlement), at desktop
(1280×800), landscape phone (844×390) and portrait phone (390×844) sizes, in Chinese; then the
portal's (scripts/screenshots_portal.py: the fan calculator, the replay viewer, the rules).

    PYTHONPATH=src:tests python scripts/screenshots_client.py [--client-only]

It starts the server on SQLite in a temporary directory and plays by clicking, as the tests do.
A CJK font must be installed for the tiles' characters (Debian: fonts-wqy-microhei).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import screenshots_portal  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from client_driver import DECIDING, WAIT_MS, Player, live_server  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
SIZES = {"desktop": (1280, 800), "landscape": (844, 390), "portrait": (390, 844)}
STAGES = ("exchange", "void", "table", "claim", "win", "settlement")
"""The table's stages shot at each size, in the order of a hand."""
MID_HAND = 36
"""The table is shot mid-hand once the wall holds this many tiles or fewer (the rivers are full)."""
MAX_HANDS = 6
STARTING_CHIPS = 40_000
"""Mid-range in 初级场 (2,000–100,000): a hand lost from 10,000 could leave the room's range, closing the table
before the stages were all shot."""
SOMEONE_WON = "() => (window.chuanmaClient.table?.view?.players || []).some((p) => p.won)"


def stage_now(page: Any) -> str | None:
    """The stage the table shows now, while a decision of the player's is pending."""
    if page.locator("[data-act=exchange]").count():
        return "exchange"
    if page.locator("button[data-testid^=void-]").count():
        return "void"
    claim = page.locator("[data-testid=act-pong], [data-testid=act-kong], [data-testid=act-hu]")
    if claim.count() and page.locator("[data-testid=act-pass]").count():
        return "claim"
    if page.evaluate(SOMEONE_WON):
        return "win"
    discarding = page.locator("[data-testid=hand] button.tile:not([disabled])").count()
    if page.evaluate("() => window.chuanmaClient.table?.view?.wall ?? 999") <= MID_HAND and discarding:
        return "table"
    return None


def shoot(browser: Any, base: str, size: str) -> list[str]:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, locale="zh-CN")
    context.add_init_script("localStorage.setItem('chuanma.lang', 'zh'); localStorage.setItem('chuanma.muted', '1');")
    page = context.new_page()
    player = Player(page, base)
    player.register(f"shots_{size}")
    saved: list[str] = []

    def save(name: str) -> None:
        path = OUT / f"client-{name}-{size}.png"
        page.wait_for_timeout(350)  # the discard's slide and a call's pop settle
        page.screenshot(path=str(path))
        saved.append(path.name)

    page.wait_for_timeout(300)
    save("lobby")
    player.quick_join()
    player.ready()
    for hand in range(MAX_HANDS):
        while True:
            page.wait_for_function(DECIDING, timeout=WAIT_MS)
            if page.locator("#settle-title").count():
                break
            stage = stage_now(page)
            if stage and f"client-{stage}-{size}.png" not in saved:
                save(stage)
            if player.step() == "settled":
                break
        if hand == MAX_HANDS - 1 or all(f"client-{stage}-{size}.png" in saved for stage in STAGES[:-1]):
            break
        player.next_hand()
    page.evaluate("() => { document.querySelector('.modal-back').scrollTop = 0; }")
    save("settlement")
    context.close()
    return saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--client-only", action="store_true", help="leave the portal's screenshots as they are")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    with (tempfile.TemporaryDirectory() as data, live_server(Path(data), starting_grant=STARTING_CHIPS) as run,
          sync_playwright() as pw):
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for size in SIZES:
                print(size, ", ".join(shoot(browser, run.base, size)))
        finally:
            browser.close()
    if not args.client_only:
        screenshots_portal.main()  # the portal's pages: the calculator, the replay viewer, the rules


if __name__ == "__main__":
    main()
