"""Regenerate the portal's screenshots in docs/screenshots/: the fan calculator with a scored hand
and the replay viewer mid-hand (all hands open), at desktop (1280×800) and phone (360×740) sizes,
and the rules pages at desktop size, in Chinese.

    PYTHONPATH=src:tests python scripts/screenshots_portal.py

(``scripts/screenshots_client.py`` runs it too, after the client's screenshots.) It starts the
server on SQLite in a temporary directory with one finished hand stored, as the portal's tests do.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import sync_playwright  # noqa: E402

from chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from portal_harness import SETTLED, portal_server  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
SIZES = {"desktop": (1280, 800), "phone": (360, 740)}
HAND = ["kong:1m:concealed", "5m", "5m", "5m", "6m", "6m", "6m", "7m"]
"""The calculator's hand: a concealed kong of 1m, then the concealed tiles (a 清一色 对对胡 with 根)."""


def _calculator(page: Any, base: str) -> None:
    page.goto(base + "/calc")
    page.wait_for_selector('#palette [data-testid="pick-1m"]')
    page.click('[data-testid="mode-concealed"]')
    page.click('#palette [data-testid="pick-1m"]', force=True)
    page.click('[data-testid="mode-pong"]')
    page.click('#palette [data-testid="pick-3m"]', force=True)
    page.click('[data-testid="mode-hand"]')
    for code in HAND[1:]:
        page.click(f'#palette [data-testid="pick-{code}"]', force=True)
    page.click('[data-testid="mode-win"]')
    page.click('#palette [data-testid="pick-7m"]', force=True)
    page.check('[data-testid="self-drawn"]')
    page.check('[data-testid="sit-kong_replacement"]')
    page.wait_for_selector('[data-testid="total"]')
    page.mouse.move(0, 0)
    page.evaluate("window.scrollTo(0, 0)")


def shoot(browser: Any, base: str, size: str) -> list[str]:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, locale="zh-CN")
    context.add_init_script("localStorage.setItem('chuanma.lang', 'zh');")
    page = context.new_page()
    saved = []

    def save(name: str, full: bool = False) -> None:
        path = OUT / f"portal-{name}-{size}.png"
        page.wait_for_timeout(300)
        page.screenshot(path=str(path), full_page=full)
        saved.append(path.name)

    _calculator(page, base)
    if size == "phone":
        page.locator('[data-testid="result"]').scroll_into_view_if_needed()
    save("calculator")
    page.goto(f"{base}/replay/{SETTLED}?seat=all&move=40")
    page.click("#guest")
    page.wait_for_selector('[data-testid="board"]')
    save("replay")
    if size == "desktop":
        page.goto(base + "/rules")
        page.wait_for_selector('[data-testid="fan-row-gen"]')
        save("rules")
        page.goto(base + "/guide/call_transfer")
        page.wait_for_selector('[data-testid="example-call_transfer"]')
        save("guide")
    context.close()
    return saved


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data, portal_server(Path(data)) as srv, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for size in SIZES:
                print(size, ", ".join(shoot(browser, srv.base, size)))
        finally:
            browser.close()


if __name__ == "__main__":
    main()
