"""Progression in a real Chromium: the seat names at the table link to the players' profiles with
their levels beside them, the lobby tells relief chips and lets a guest register, and the profile
and leaderboard pages show what the API gives, in both languages, at desktop and phone sizes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from browser_fixtures import tab
from chromium import serious_violations
from client_driver import WAIT_MS, Player, live_server
from server_harness import Running

SIZES = {"desktop": (1280, 900), "phone": (360, 740)}
HEADINGS = {"zh": "战绩", "en": "Record"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with live_server(Path(tmp_path_factory.mktemp("progression")), leaderboard_min_hands=1) as run:
        yield run


@contextmanager
def opened(browser: Any, size: str = "desktop", lang: str = "en") -> Iterator[Any]:
    """A page at ``size`` in ``lang`` for the block, which fails if the page had an error."""
    with tab(browser, *SIZES[size], lang, locale="en-GB") as shown:
        yield shown.page


@pytest.fixture(scope="module")
def played(browser: Any, server: Running) -> str:
    """Alice1 registers, sees relief and her profile's link in the lobby, plays a hand with three bots
    (every seat's name a link to its profile, a level beside it); returns her name."""
    with opened(browser) as page:
        player = Player(page, server.base)
        player.register("Alice1")
        assert "Relief chips" in page.locator("[data-testid=relief]").inner_text()
        assert page.locator("[data-testid=my-profile]").get_attribute("href") == "/profile/Alice1"
        player.quick_join()
        links = page.locator("a.profile-link")
        links.first.wait_for(timeout=WAIT_MS)
        assert links.count() == 4
        hrefs = {links.nth(i).get_attribute("href") for i in range(4)}
        assert "/profile/Alice1" in hrefs and all(h.startswith("/profile/bot_") for h in hrefs - {"/profile/Alice1"})
        assert links.first.get_attribute("target") == "_blank"  # the table goes on in its own tab
        page.locator(".badge-level").first.wait_for(timeout=WAIT_MS)
        player.ready()
        player.play_to_settlement()
    return "Alice1"


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_profile_page_shows_the_players_record(browser: Any, server: Running, played: str, size: str,
                                                   lang: str) -> None:
    with opened(browser, size, lang) as page:
        page.request.post(server.base + "/api/guest")  # any session may read a profile
        page.goto(f"{server.base}/profile/{played}")
        page.locator("#profile:not([hidden])").wait_for(timeout=WAIT_MS)
        assert played in page.locator("[data-testid=who]").inner_text()
        assert page.locator("[data-testid=report]").count() == 0  # a guest reports no one
        assert page.locator("[data-testid=level]").inner_text().startswith("Lv.")
        assert page.locator("#figures-h").inner_text() == HEADINGS[lang]
        hands = page.locator("[data-testid='profile.hands'] dd").inner_text()
        assert hands == "1"
        assert page.locator("[data-testid=ratings] tbody tr").count() == 5
        assert page.locator("[data-testid=rating-plot] svg polyline").count() == 1
        assert page.locator("[data-testid=chips-plot] svg polyline").count() == 1
        for link in page.locator("[data-testid=best-hands] a").all():
            assert (link.get_attribute("href") or "").startswith("/replay/")
        page.click(".lang-switch")
        assert page.locator("#figures-h").inner_text() == HEADINGS["en" if lang == "zh" else "zh"]
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_leaderboard_lists_registered_players_and_the_bots(browser: Any, server: Running, played: str,
                                                               size: str) -> None:
    with opened(browser, size, "zh") as page:
        page.request.post(server.base + "/api/guest")
        page.goto(f"{server.base}/leaderboard?family=xuezhan&period=week")
        row = page.locator(f"[data-testid=leader-{played}]")
        row.wait_for(timeout=WAIT_MS)
        assert page.locator("[data-testid=board] tbody tr").count() == 1  # the guests are not listed
        room_bot = server.config.bot_levels[server.config.room_bot_level]  # the rooms' bots, rated as themselves
        assert page.locator(f"[data-testid=bot-{room_bot}]").count() == 1
        page.select_option("#family", "dazhong")
        page.locator("#empty:not([hidden])").wait_for(timeout=WAIT_MS)
        assert "family=dazhong" in page.url
        page.select_option("#family", "all")
        row.locator("a").click()
        page.wait_for_url(f"**/profile/{played}")
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def test_a_guest_registers_from_the_lobby_and_keeps_its_account(browser: Any, server: Running, played: str) -> None:
    """A guest registers from the lobby, keeping its balance; registered, it reports another player
    from their profile (the ⚑ control, no hand)."""
    with opened(browser, "phone", "zh") as page:
        page.goto(server.base + "/")
        page.click("[data-auth=guest]")
        page.wait_for_selector("[data-join]")
        balance = page.locator("[data-testid=balance]").inner_text()
        page.click("#claim-form >> xpath=.. >> summary")
        page.fill("#claim-username", "Carol1")
        page.fill("#claim-password", "correct horse")
        page.click("#claim-form button[type=submit]")
        page.get_by_role("status").filter(has_text="Carol1").wait_for(timeout=WAIT_MS)
        assert page.locator("#claim-form").count() == 0
        assert page.locator("[data-testid=my-profile]").get_attribute("href") == "/profile/Carol1"
        assert page.locator("[data-testid=balance]").inner_text() == balance
        assert page.inner_text("#topbar-balance").startswith("Carol1 · ")  # the top bar names it as it is now
        assert page.locator(".badge-level").count() >= 1  # its level, under its new name
        me = page.request.get(server.base + "/api/me").json()
        assert (me["username"], me["kind"]) == ("Carol1", "player")
        page.goto(f"{server.base}/profile/{played}")
        page.click("[data-testid=report]")
        page.click("[data-testid=report-send]")
        page.locator("[data-testid=report-status]:not(:empty)").wait_for(timeout=WAIT_MS)
        assert page.locator("[data-testid=report-status]").inner_text() == "举报已提交：管理员会查看"


@pytest.mark.parametrize("path", ["/profile/Alice1", "/leaderboard?family=xuezhan&period=all"])
def test_no_serious_accessibility_violations(browser: Any, server: Running, played: str, path: str) -> None:
    pytest.importorskip("axe_playwright_python.sync_playwright")
    with opened(browser) as page:
        page.request.post(server.base + "/api/guest")
        page.goto(server.base + path)
        page.wait_for_load_state("networkidle")
        page.locator("#profile:not([hidden]), [data-testid=board] tbody tr").first.wait_for(timeout=WAIT_MS)
        bad = serious_violations(page)
        assert bad == [], bad
