"""The console (/admin) in a real Chromium, at a phone's width: an anonymous visitor and a player are
told it is for moderators and operators only; an operator finds a player, opens their page, bans,
unbans, renames and adjusts them, notes something on their page, makes a password-reset link, sees each
action in the operator log, sees a live table, edits a room, switches a maintenance on and off and
announces (a banner on the game's page)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from browser_fixtures import tab
from chuanma.server.moderation import Moderation
from chuanma.server.store import sqlite_url
from client_driver import in_thread
from server_harness import TIMEOUT, account, make_config

PASSWORD = "correct horse"


def log_in(page: Any, base: str, name: str) -> None:
    """Log ``page``'s context in as ``name`` (the session cookie, as the game's page gets it)."""
    r = page.context.request.post(f"{base}/api/login", data={"username": name, "password": PASSWORD})
    assert r.ok, r.text()


def test_an_operator_drives_the_console_and_nobody_else_sees_it(browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with in_thread(make_config(sqlite_url(tmp_path))) as run:
        def on_server(coro: Any) -> Any:
            return asyncio.run_coroutine_threadsafe(coro, run.loop).result(30)
        op = on_server(account(run.base, "Opera"))
        target = on_server(account(run.base, "Target_one"))
        on_server(Moderation(run.server.store, run.clock).set_role(op["user"]["id"], "operator"))
        with httpx.Client(base_url=run.base, timeout=TIMEOUT) as http:  # a live table: 3 bots, a seat free
            r = http.post("/api/tables", json={"preset": "xuezhan", "bots": 3},
                          headers={"authorization": f"Bearer {target['token']}"})
            assert r.status_code == 200, r.text
            table_id = r.json()["table"]
        with tab(browser, 360, 740, "en") as shown:
            page = shown.page
            page.goto(f"{run.base}/admin")
            expect(page.get_by_test_id("admin-refused")).to_contain_text("moderators and operators only")
            log_in(page, run.base, "Target_one")
            page.reload()
            expect(page.get_by_test_id("admin-refused")).to_contain_text("moderators and operators only")
            assert page.locator("#admin-nav").is_hidden()
        with tab(browser, 360, 740, "en") as shown:
            page = shown.page
            log_in(page, run.base, "Opera")
            page.goto(f"{run.base}/admin")
            page.fill("#search-q", "target")
            page.click("#search-form button[type=submit]")
            page.get_by_test_id(f"open-{target['user']['id']}").click()
            summary = page.get_by_test_id("player-summary")
            expect(summary).to_contain_text("not banned")

            def act(form: str, **fields: str) -> None:
                for name, value in fields.items():
                    page.fill(f'[data-testid="{form}"] input[name="{name}"]', value)
                page.click(f'[data-testid="{form}"] button[type=submit]')
                expect(page.get_by_test_id("admin-status")).to_contain_text("Done")
            act("ban", duration="1d", reason="spam in chat")
            expect(summary).to_contain_text("spam in chat")
            act("unban", reason="appeal granted")
            expect(summary).to_contain_text("not banned")
            act("rename", username="Kind_name", reason="offensive name")
            expect(page.get_by_test_id("player-name")).to_contain_text("Kind_name")
            act("adjust", amount="500", reason="refund")
            expect(page.get_by_test_id("ledger")).to_contain_text("adjustment")
            expect(page.get_by_test_id("ledger")).to_contain_text("+500")
            expect(page.get_by_test_id("history")).to_contain_text("refund")  # the log about them, on their page
            act("add-note", text="warned about chat")
            expect(page.get_by_test_id("notes")).to_contain_text("warned about chat")
            page.fill('[data-testid="reset"] input[name="reason"]', "forgot the password")
            page.click('[data-testid="reset"] button[type=submit]')
            expect(page.get_by_test_id("admin-status")).to_contain_text(f"{run.base}/reset#")
            page.click('[data-tab="log"]')
            log = page.get_by_test_id("log")
            for action, reason in [("ban", "spam in chat"), ("unban", "appeal granted"), ("rename", "offensive name"),
                                   ("adjust", "refund")]:
                expect(log.locator("tr", has_text=reason)).to_contain_text(action)
            page.click('[data-tab="tables"]')
            live = page.get_by_test_id(f"table-{table_id}")
            expect(live).to_contain_text("waiting for players")
            expect(live.get_by_role("link", name="Watch")).to_have_attribute("href", f"/#/watch/{table_id}/"
                                                                              + r.json()["invite"])
            page.click('[data-tab="rooms"]')  # the rooms: one edited, seen in the grid and by the lobby
            row = page.get_by_test_id("rooms").locator("tr", has_text="dazhong")
            row.locator("summary").click()
            act("room-form-dazhong", base="300", reason="cheaper")
            expect(row).to_contain_text("300")
            act("announce", text="hello everyone")
            expect(page.get_by_test_id("notice-now")).to_contain_text("hello everyone")
            act("maintenance", **{"in": "30", "message": "an upgrade"})
            expect(page.get_by_test_id("maintenance-now")).to_contain_text("an upgrade")
            page.get_by_role("button", name="End the maintenance").click()
            expect(page.get_by_test_id("maintenance-now")).not_to_contain_text("an upgrade")
            page.goto(f"{run.base}/")  # the game's page shows it as a banner, which the player dismisses
            banner = page.get_by_test_id("notice-notice")
            expect(banner).to_contain_text("hello everyone")
            banner.get_by_role("button", name="Dismiss").click()
            expect(banner).to_have_count(0)
        dazhong = next(room for room in httpx.get(f"{run.base}/api/rooms").json() if room["id"] == "dazhong")
        assert dazhong["base"] == 300
