"""The browser client's flow between decisions: the next-hand control is never lost, countdowns run
wherever time runs (the ready window, the bots' wait in a queue, which can be left), the settlement
opens at its top and fits a phone, refusals are in the page's language, Back leaves the table as the
page says, and a reload brings the ticker and the latest discard back."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_fixtures import tab
from chuanma.bots import BOTS
from chuanma.commands.replay import SEATS, event_line
from chuanma.engine import Game
from chuanma.narration import ENDS, REASONS, end_text, narrate, reason_text
from chuanma.rules import RuleSet
from chuanma.sim.play import deal_for
from chuanma.tiles import SICHUAN_TILES
from client_driver import WAIT_MS, Player, live_server
from client_driver import new_player as player_in
from server_harness import Running

SHORT_READY = 5.0
"""The ready window of the server of the test that sees it run out: long enough for one click."""
BOT_WAIT = 8.0
"""The bots' wait in a queue: long enough to see its countdown and leave the queue."""
AUTO_DELAY = 0.02
"""托管's pause between decisions: a hand played by 托管 takes a second or two."""
HAND_MS = 120_000
"""How long a hand played by 托管 may take."""
SETTINGS: dict[str, Any] = {"starting_grant": 40_000, "bot_wait": BOT_WAIT, "auto_delay": AUTO_DELAY,
                            "turn_seconds": 120, "claim_seconds": 120}  # a slow reload keeps its turn
"""The servers' settings; the ready window is the default minute: a busy machine never runs it out
while a test reads the page, except where a test waits for it to run out."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with live_server(tmp_path_factory.mktemp("flow"), **SETTINGS) as run:
        yield run


@pytest.fixture
def short_ready(tmp_path: Path) -> Iterator[Running]:
    """A server whose ready window runs out within :data:`SHORT_READY` seconds."""
    with live_server(tmp_path, **SETTINGS, ready_seconds=SHORT_READY) as run:
        yield run


def new_player(browser: Any, server: Running, name: str, width: int = 1280, height: int = 800,
               lang: str = "en") -> Player:
    return player_in(browser, server.base, name, width, height, lang=lang)


def sit_private(player: Player, hands: int = 4) -> None:
    """Create a private table with three bots and sit down at it (its ready window starts)."""
    page = player.page
    page.fill("#hands", str(hands))
    page.select_option("#bots", "3")
    page.click("#private-form [type=submit]")
    page.click("[data-sit]")
    page.wait_for_selector("[data-testid=ready]", timeout=WAIT_MS)


def play_by_auto(player: Player) -> None:
    """Ready, 托管 on, and wait for the settlement."""
    page = player.page
    player.ready()
    page.wait_for_function("() => window.chuanmaClient.table.dealt", timeout=WAIT_MS)
    if not page.evaluate("() => window.chuanmaClient.table.myAuto"):
        page.click(".table-info [data-act=auto]")
    page.wait_for_selector("#settle-title", timeout=HAND_MS)


def check_settlement_fits(page: Any, width: int) -> None:
    """The panel is shown from its top (the title and the wins in view), nothing scrolls sideways,
    and the hand's score column is there only when it differs from the chips moved."""
    page.wait_for_function("() => !document.querySelector('.modal [data-part=wins]')"
                           " || document.querySelector('.modal [data-part=wins]').children.length"
                           " || !document.querySelector('.modal [data-testid=win]')")
    assert page.evaluate("() => document.querySelector('.modal-back').scrollTop") == 0
    top = page.locator("#settle-title").bounding_box()
    assert top is not None and 0 <= top["y"] < 200
    assert page.evaluate("() => { const b = document.querySelector('.modal-back');"
                         " return b.scrollWidth <= b.clientWidth; }")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    totals = page.locator("[data-testid=hand-total]")
    if totals.count():
        pairs = [(page.locator(f"[data-testid=chips-{s}] [data-testid=hand-total]").inner_text(),
                  page.locator(f"[data-testid=chips-{s}] [data-testid=chips]").inner_text()) for s in range(4)]
        assert any(a != b for a, b in pairs)


def test_client_settlement_closed_with_escape_leaves_the_next_hand_control_counting_down(
        browser: Any, server: Running) -> None:
    player = new_player(browser, server, "nora", 390, 844)
    page = player.page
    sit_private(player)
    assert re.fullmatch(r"\d+ s to get ready", page.locator("[data-ready-timer]").inner_text())
    play_by_auto(player)
    check_settlement_fits(page, 390)
    # the panel counts the ready window down too
    page.wait_for_function("() => /\\d+ s to get ready/.test(document.querySelector('.modal [data-ready-timer]')"
                           "?.textContent || '')", timeout=WAIT_MS)
    page.keyboard.press("Escape")
    page.wait_for_selector(".modal-back", state="detached")
    # the table keeps the next-hand control, with its countdown
    ready = page.locator("#table [data-testid=ready]")
    ready.wait_for(timeout=WAIT_MS)
    assert ready.is_visible()
    assert re.fullmatch(r"\d+ s to get ready", page.locator("#table [data-ready-timer]").inner_text())
    # the second hand, on a phone held sideways
    page.set_viewport_size({"width": 844, "height": 390})
    play_by_auto(player)
    check_settlement_fits(page, 844)
    assert page.evaluate("() => window.chuanmaClient.table.handEnd.hand") == 1
    assert not player.errors


LATE_START = """() => { const t = window.chuanmaClient.table; const handle = t.handle.bind(t);
  t.handle = (msg) => {
    const late = () => document.querySelector('#settle-title') ? handle(msg) : requestAnimationFrame(late);
    return msg.type === 'hand_start' && !msg.dealt && t.handEnd ? late() : handle(msg); }; }"""
"""Hold each next hand's start back until the settlement panel is drawn (the server sends it right
after the hand's end; on a busy machine the panel may be drawn between the two)."""


def test_client_settlement_drawn_before_the_next_hands_start_offers_the_next_hand(browser: Any,
                                                                                  server: Running) -> None:
    player = new_player(browser, server, "yara")
    page = player.page
    sit_private(player)
    page.evaluate(LATE_START)
    play_by_auto(player)
    player.next_hand()  # the panel's control, never "ready, waiting" left from the hand that ended
    page.wait_for_function("() => { const t = window.chuanmaClient.table; return t.hand === 1 && t.dealt; }",
                           timeout=WAIT_MS)
    assert not player.errors


def test_client_ready_window_running_out_is_said_on_the_settlement_panel(browser: Any,
                                                                        short_ready: Running) -> None:
    player = new_player(browser, short_ready, "otto")
    page = player.page
    sit_private(player)
    play_by_auto(player)
    page.locator(".modal [data-testid=ready-expired]").wait_for(timeout=WAIT_MS)
    assert page.locator(".modal [data-testid=next-hand]").count() == 0
    assert "passed" in page.locator(".modal [data-testid=ready-expired]").inner_text()


def test_client_quick_join_counts_down_to_the_bots_and_can_leave_the_queue(browser: Any, server: Running) -> None:
    player = new_player(browser, server, "pia")
    page = player.page
    watcher = new_player(browser, server, "quinn")
    assert watcher.page.locator("[data-watch]").count() == 0
    page.click("[data-join='chuji-xuezhan']")
    waiting = page.locator("[data-testid=waiting]")
    # the panel shows the queue at once, the countdown once the server said when the bots come
    page.wait_for_function("() => /bots sit down in \\d+ s/.test("
                           "document.querySelector('[data-testid=waiting]')?.textContent ?? '')", timeout=WAIT_MS)
    first = int(re.search(r"bots sit down in (\d+) s", waiting.inner_text()).group(1))  # type: ignore[union-attr]
    page.wait_for_function(
        "n => { const m = /in (\\d+) s/.exec(document.querySelector('[data-testid=waiting]').textContent);"
        " return m && Number(m[1]) < n; }", arg=first, timeout=WAIT_MS)
    page.click("[data-testid=leave-queue]")
    waiting.wait_for(state="detached")
    assert page.locator("[data-join='chuji-xuezhan']").is_enabled()
    # out of the queue on the server too: joining again is not "already waiting"
    page.click("[data-join='chuji-xuezhan']")
    page.wait_for_selector("[data-testid=ready]", timeout=WAIT_MS)  # the bots came after their wait
    player.ready()  # (a table whose only person is not ready in time closes)
    # the other player's lobby lists the new table without a reload
    watcher.page.wait_for_selector("[data-watch]", timeout=WAIT_MS)
    assert not player.errors and not watcher.errors


def test_client_refusals_are_in_the_pages_language(browser: Any, server: Running) -> None:
    player = new_player(browser, server, "rosa", lang="zh")
    page = player.page
    page.evaluate("() => window.chuanmaClient.conn.send({type: 'act', table: 'x', version: 0, action: {pass: true}})")
    banner = page.locator(".banner-error")
    banner.wait_for()
    assert banner.inner_text() == "操作被拒绝：你不在这张牌桌上"


def test_client_back_while_seated_leaves_as_the_page_says(browser: Any, server: Running) -> None:
    player = new_player(browser, server, "sven")
    page = player.page
    sit_private(player)
    # before the deal: Back leaves the table at no cost
    page.go_back()
    page.wait_for_selector("[data-join]", timeout=WAIT_MS)
    page.wait_for_function("async () => (await (await fetch('/api/me')).json()).table === null", timeout=WAIT_MS)
    # during a hand: Back asks; "no" keeps the seat and the table's address, "yes" leaves
    sit_private(player)
    player.ready()
    page.wait_for_function("() => window.chuanmaClient.table.dealt && window.chuanmaClient.table.view", timeout=WAIT_MS)
    answers = iter([False, True])
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept() if next(answers) else dialog.dismiss()

    page.on("dialog", answer)
    page.go_back()
    page.wait_for_function("() => location.hash === '#/table'", timeout=WAIT_MS)
    assert len(asked) == 1 and page.locator("#table").count() == 1
    page.go_back()
    page.wait_for_selector("[data-join]", timeout=WAIT_MS)
    assert len(asked) == 2 and "escape" in asked[0]


def test_client_reload_brings_the_ticker_and_the_latest_discard_back(browser: Any, server: Running) -> None:
    player = new_player(browser, server, "tara")
    page = player.page
    sit_private(player)
    player.ready()
    player.to_mid_hand(10)  # far enough into the hand that a reload gets a resync, not the events
    for _ in range(20):  # a decision pending while a discard lies in its river (not one after a pong)
        if page.evaluate("() => !!window.chuanmaClient.table.lastDiscard"):
            break
        player.to_mid_hand(1)
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    page.reload()
    page.wait_for_function("() => window.chuanmaClient?.table?.view", timeout=WAIT_MS)
    page.wait_for_function("() => document.querySelectorAll('#ticker li').length > 0"
                           " && document.querySelector('.discards .latest')", timeout=WAIT_MS)
    assert any('"type":"resync"' in frame and '"recent":' in frame for frame in frames)



def test_client_words_payment_reasons_and_ends_as_the_terminal_and_replay_do(browser: Any, server: Running) -> None:
    player = new_player(browser, server, "uma")
    got = player.page.evaluate("""async ([reasons, ends]) => {
        const { reasonName } = await import('/static/app/narrate.js');
        const { setLang, t } = await import('/static/app/i18n.js');
        const out = {};
        for (const lang of ['zh', 'en']) {
          setLang(lang);
          out[lang] = { reasons: Object.fromEntries(reasons.map((r) => [r, reasonName(r)])),
                        ends: Object.fromEntries(ends.map((e) => [e, t('end.' + e)])) };
        }
        return out;
    }""", [list(REASONS), list(ENDS)])
    for lang in ("zh", "en"):
        assert got[lang]["reasons"] == {r: reason_text(r, lang) for r in REASONS}
        assert got[lang]["ends"] == {e: end_text(e, lang) for e in ENDS}


def test_verifier_page_speaks_the_clients_language(browser: Any, server: Running) -> None:
    player = new_player(browser, server, "vera", lang="zh")
    page = player.page
    page.goto(server.base + "/static/verify.html")
    assert page.text_content("h1") == "验证一局牌是否公平发牌"
    page.click("summary")
    page.fill("#paste", "[1, 2]")
    page.click("#check-paste")
    page.wait_for_function("() => document.querySelector('#error').textContent.length > 0")
    assert page.text_content("#error") == "无法验证：一局的记录必须是一个 JSON 对象"


def test_client_words_every_event_as_chuanma_replay_does(browser: Any, server: Running) -> None:
    # a whole hand of bots, as a record replayed (the events as seat 0 is shown them, hidden ones too)
    game = Game(RuleSet.from_preset("xuezhan"), list(deal_for(4, 0, SICHUAN_TILES).wall), 0, "to_next")
    bots = [BOTS["greedy"](s) for s in range(4)]
    while not game.finished:
        seat = game.to_act()[0]
        game.apply(seat, bots[seat].choose(game.view(seat), game.legal_actions(seat)))
    events = [*game.events_for(0), *(e.to_json() for e in game.events)]
    # the notes of a machine's discard, a 过手杠 and a forced win
    events += [{"type": "discard", "seq": 1, "seat": 0, "tile": "5m", "automatic": True},
               {"type": "kong", "seq": 2, "seat": 1, "kind": "added", "tile": "3p", "late": True},
               {**next(e for e in events if e["type"] == "hu"), "forced": True}]
    player = new_player(browser, server, "walt")
    said = player.page.evaluate("""async (events) => {
        const { narrate } = await import('/static/app/narrate.js');
        const { setLang } = await import('/static/app/i18n.js');
        const out = {};
        for (const lang of ['zh', 'en']) {
          setLang(lang);
          const seat = lang === 'zh' ? (s) => `座位 ${s}` : (s) => `Seat ${s}`;
          out[lang] = events.map((ev) => narrate(ev, seat));
          out[lang + '-me'] = events.map((ev) => narrate(ev, seat, 0));
        }
        return out;
    }""", events)
    for lang in ("zh", "en"):
        assert said[lang] == [event_line(ev, lang) for ev in events]
        assert said[f"{lang}-me"] == [narrate(ev, SEATS[lang].format, lang, me=0) for ev in events]
    assert said["en-me"] != said["en"]
    assert {ev["type"] for ev in events} >= {"deal", "exchange", "void_chosen", "discard", "hu", "payment", "end"}


def test_client_registration_says_whether_a_name_is_malformed_or_taken(browser: Any, server: Running) -> None:
    new_player(browser, server, "tessa").page.context.close()
    with tab(browser, lang="en") as shown:
        page = shown.page
        page.goto(server.base + "/")
        for name, said in (("1x", "Invalid username: 3–20 letters"), ("TESSA", "That username is taken")):
            page.fill("#username", name)
            page.fill("#password", "correct horse battery")
            page.click("[data-auth=register]")
            page.wait_for_function("s => document.getElementById('login-error').textContent.startsWith(s)", arg=said,
                                   timeout=WAIT_MS)


def test_client_account_section_changes_the_password_in_the_pages_language_and_deletes_the_account(
        browser: Any, server: Running) -> None:
    player = new_player(browser, server, "Olga", lang="zh")
    page = player.page
    page.click("[data-testid=account] summary")
    assert page.get_attribute("[data-testid=account] a[download]", "href") == "/api/me/export"
    page.fill("#old-password", "not the password")
    page.fill("#new-password", "another horse battery")
    page.click("#password-form [type=submit]")
    assert page.locator(".banner-error").inner_text() == "密码不对"
    page.fill("#old-password", "correct horse battery")
    page.fill("#new-password", "another horse battery")
    page.click("#password-form [type=submit]")
    page.get_by_text("密码已修改：其他设备已退出登录。").wait_for()
    assert page.input_value("#old-password") == ""
    page.once("dialog", lambda dialog: dialog.accept())
    page.fill("#delete-password", "another horse battery")
    page.click("#delete-form [type=submit]")
    page.wait_for_selector("[data-auth=register]")
    page.goto(server.base + "/reset")
    assert page.locator("#reset-status").inner_text() == "这个链接不完整：请打开邮件或管理员给你的完整链接。"
    assert player.errors == []
