"""Regenerate the browser client's screenshots in docs/screenshots/: the lobby, the table mid-hand,
a claim prompt and the settlement, at desktop (1280×800) and phone (360×740) sizes, in Chinese;
then the portal's (scripts/screenshots_portal.py: the fan calculator, the replay viewer, the rules).

    PYTHONPATH=src:tests python scripts/screenshots_client.py

It starts the server on SQLite in a temporary directory and plays by clicking, as the tests do.
A CJK font must be installed for the tiles' characters (Debian: fonts-wqy-microhei).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import screenshots_portal  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from client_driver import DECIDING, WAIT_MS, Player, live_server  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
SIZES = {"desktop": (1280, 800), "phone": (360, 740)}
MID_HAND = 12
"""The table is shot after this many decisions of the player."""
MAX_HANDS = 4


def shoot(browser: object, base: str, size: str) -> list[str]:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, locale="zh-CN")  # type: ignore[attr-defined]
    context.add_init_script("localStorage.setItem('chuanma.lang', 'zh'); localStorage.setItem('chuanma.muted', '1');")
    page = context.new_page()
    player = Player(page, base)
    player.register(f"shots_{size}")
    saved = []

    def save(name: str) -> None:
        path = OUT / f"client-{name}-{size}.png"
        page.screenshot(path=str(path))
        saved.append(path.name)

    page.wait_for_timeout(300)
    save("lobby")
    player.quick_join()
    claim_shot = table_shot = False
    player.ready()
    for _ in range(MAX_HANDS):
        while True:
            page.wait_for_function(DECIDING, timeout=WAIT_MS)
            claim = page.locator("[data-testid=act-pong], [data-testid=act-kong], [data-testid=act-hu]")
            if not claim_shot and claim.count() and page.locator("[data-testid=act-pass]").count():
                save("claim")
                claim_shot = True
            discarding = page.locator("[data-testid=hand] button.tile:not([disabled])").count()
            if not table_shot and len(player.decisions) >= MID_HAND and discarding:
                save("table")
                table_shot = True
            if player.step() == "settled":
                break
        if claim_shot and table_shot:
            break
        player.next_hand()
    page.evaluate("() => { document.querySelector('.modal-back').scrollTop = 0; }")
    page.wait_for_timeout(300)
    save("settlement")
    context.close()
    return saved


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data, live_server(Path(data)) as run, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for size in SIZES:
                print(size, ", ".join(shoot(browser, run.base, size)))
        finally:
            browser.close()
    screenshots_portal.main()  # the portal's pages: the calculator, the replay viewer, the rules


if __name__ == "__main__":
    main()
