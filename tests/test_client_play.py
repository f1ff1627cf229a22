"""The browser client in a real Chromium against a server on SQLite: a whole hand by clicking, the
ledger, the record and its verification, a reload mid-hand, phone size, refusals, a lost
connection, the language switch and axe-core on the lobby and the table."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chuanma.fairness import verify_record
from chuanma.portal.reference import CHOICE_NAMES
from chuanma.rules import PRESET_NAMES, PRESETS, option_schema
from chuanma.scoring import FANS
from chuanma.server.rooms import DEFAULT_ROOMS as ROOMS
from client_driver import WAIT_MS, Player, live_server
from client_driver import new_player as player_in
from server_harness import Running

GRANT = 40_000
"""The players' starting chips: mid-range in 初级场 (2,000-100,000 at base 400), so that a hand lost
heavily does not unseat the player before the test reads the settlement (from 10,000 a loss of 20
base does: the table then closes and the page returns to the lobby)."""
MAX_HANDS = 3
"""Hands played at most until the player has made a claim (pong, kong or win)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with live_server(tmp_path_factory.mktemp("client"), starting_grant=GRANT, turn_seconds=120,
                     claim_seconds=120) as run:  # a slow reload (a busy machine) keeps its turn
        yield run


def new_player(browser: Any, server: Running, name: str, width: int = 1280, height: int = 800,
               keys: bool = False) -> Player:
    return player_in(browser, server.base, name, width, height, keys=keys, accept_downloads=True)


def me(player: Player) -> dict[str, Any]:
    data: dict[str, Any] = player.page.request.get(player.base + "/api/me").json()
    return data


@pytest.mark.parametrize(("who", "width", "height"), [("alice", 1280, 800), ("phoebe", 360, 740)],
                         ids=["desktop", "phone"])
def test_client_plays_hands_by_clicking_and_the_ledger_record_and_verifier_agree(
        browser: Any, server: Running, who: str, width: int, height: int) -> None:
    player = new_player(browser, server, who, width, height)
    page = player.page
    assert page.locator("[data-testid=balance]").inner_text().replace(",", "").startswith(str(GRANT))
    # 尊爵场 needs 400,000 chips: shown, disabled, saying why
    top = page.locator("[data-room='zunjue-xuezhan']")
    assert top.locator("button").is_disabled() and "400,000" in top.locator(".why").inner_text()
    player.quick_join()
    player.ready()
    for hand in range(MAX_HANDS):
        player.play_to_settlement()
        claimed = any(kind in ("pong", "kong", "hu") for kind in player.decisions)
        if claimed or hand == MAX_HANDS - 1:
            break
        player.next_hand()
    assert {"discard"} <= set(player.decisions) and {"pong", "kong", "hu"} & set(player.decisions)
    assert "exchange" in player.decisions  # 换三张 by clicking (the suggested three preselected)
    seat = player.seat
    shown = player.chips(seat)
    # the ledger: the balance moved by exactly the hands' rows, and this hand's row is the panel's chips
    history = page.request.get(server.base + "/api/hands").json()
    assert me(player)["balance"] == GRANT + sum(h["amount"] for h in history)
    assert history[0]["amount"] == shown
    # the record downloads and passes the verifier, in Python and on the verifier page
    with page.expect_download() as download:
        page.click("[data-testid=download]")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["hand_id"] == history[0]["id"] and verify_record(record).ok
    page.wait_for_selector("[data-testid=verify][data-ready='1']")
    with page.context.expect_page() as opened:
        page.click("[data-testid=verify]")
    verifier = opened.value
    verifier.wait_for_selector("#verdict[data-ok]", timeout=WAIT_MS)
    assert verifier.locator("#verdict").get_attribute("data-ok") == "true"
    # signed by the server's dealer key, which the page shows and requires (the play is not replayed there)
    keys = page.request.get(server.base + "/api/fairness/key").json()
    key = keys["public_key"]
    assert verifier.inner_text("#server-key-value") == key == record["signature"]["public_key"]
    assert verifier.get_attribute("[data-check=signature]", "data-status") == "passed"
    # the hand was dealt by the server's VRF key, which the page shows and requires too
    assert verifier.inner_text("#server-vrf-key-value") == keys["vrf_public_key"] == record["seeds"]["public_key"]
    assert verifier.get_attribute("[data-check=proof]", "data-status") == "passed"
    assert verifier.locator("#verdict").get_attribute("data-level") == "consistent"
    assert not player.errors


def test_client_plays_dazhong_with_chows_and_honours(browser: Any, server: Running) -> None:
    """The 大众麻将 room by clicking: honour tiles on the table, a chow clicked when offered (its
    three tiles then lie among the melds), the hands settled, no script error."""
    player = new_player(browser, server, "dora")
    page = player.page
    player.quick_join("dazhong")
    player.ready()
    melds: list[dict[str, Any]] = []
    for _ in range(12):  # no chow offered, or a chow clicked lost to a pong: deal again until one is made
        player.play_to_settlement()
        melds = page.evaluate("s => window.chuanmaClient.table.view.players[s].melds", player.seat)
        if any(m["kind"] == "chow" for m in melds):
            break
        player.next_hand()
    assert "chow" in player.decisions and "void" not in player.decisions and "exchange" not in player.decisions
    assert any(m["kind"] == "chow" for m in melds)
    # the ticker, drawn entry by entry, shows the table's last entries newest first
    ticker = page.evaluate("""() => { const tb = window.chuanmaClient.table;
        return tb.ticker.map((e) => tb.say(e)).reverse(); }""")
    assert 0 < len(ticker) <= 40 and page.locator("#ticker li").all_inner_texts() == ticker
    # the ticker speaks to its own seat: 你 in Chinese, the second person in English
    own = """async ([s, lang]) => { (await import("/static/app/i18n.js")).setLang(lang);
        return window.chuanmaClient.table.say({ ev: { type: "discard", seat: s, tile: "5m" } }); }"""
    said = {lang: page.evaluate(own, [player.seat, lang]) for lang in ("zh", "en")}
    assert said["zh"].startswith("你 ") and said["en"].startswith("You discard "), said
    # the settlement panel, drawn a part a frame, ends with every win and every other payment
    page.wait_for_function("""() => { const r = window.chuanmaClient.table.handEnd.result;
        return document.querySelectorAll('[data-testid=win]').length === r.winners.length
          && document.querySelectorAll('.pay-table tbody tr').length === r.payments.length; }""", timeout=WAIT_MS)
    assert not player.errors


def test_client_reload_mid_hand_carries_on_at_phone_size(browser: Any, server: Running) -> None:
    player = new_player(browser, server, "bob", 360, 740)
    page = player.page
    player.quick_join()
    # the fairness panel: the commitment before the deal, and one's own client seed
    page.click("[data-act=fair]")
    commitment = page.locator("[data-testid=commitment]").inner_text()
    assert len(commitment) == 64
    page.fill("#seed-input", "bob-on-a-phone")
    page.click("[data-fair=ready]")
    page.wait_for_function("() => window.chuanmaClient.table.clientSeeds", timeout=WAIT_MS)
    assert "bob-on-a-phone" in page.evaluate("() => window.chuanmaClient.table.clientSeeds")
    for _ in range(4):  # the reload comes mid-hand: a hand may end within eight decisions
        player.step()
    page.wait_for_function("() => window.chuanmaClient.table.view")
    before = page.evaluate("() => [window.chuanmaClient.table.table, window.chuanmaClient.table.hand]")
    page.reload()  # the new document's modules may not have run yet when the wait first looks
    page.wait_for_function("() => window.chuanmaClient?.table?.view", timeout=WAIT_MS)
    assert page.evaluate("() => [window.chuanmaClient.table.table, window.chuanmaClient.table.hand]") == before
    # the fairness panel still has the hand's commitment and seeds
    assert page.evaluate("() => window.chuanmaClient.table.commitment") == commitment
    assert "bob-on-a-phone" in page.evaluate("() => window.chuanmaClient.table.clientSeeds")
    # nothing wider than the phone's screen
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    player.play_to_settlement()
    assert page.locator(f"[data-testid=chips-{player.seat}]").count() == 1
    page.click("[data-settle=lobby]")
    page.wait_for_selector("[data-join]")
    assert not player.errors


def test_client_refusal_shows_the_servers_reason_and_a_lost_connection_reconnects(browser: Any,
                                                                                 server: Running) -> None:
    player = new_player(browser, server, "carol", keys=True)  # discards and passes by keyboard
    page = player.page
    player.quick_join()
    player.ready()
    page.wait_for_function("() => window.chuanmaClient.table.prompt", timeout=WAIT_MS)
    # a decision against an old version is refused: the toast says the server's reason, the prompt comes back
    page.evaluate("""() => { const t = window.chuanmaClient.table;
        window.chuanmaClient.conn.send({type: 'act', table: t.table, version: t.prompt.version + 1000,
                                        action: {pass: true}}); }""")
    page.wait_for_selector("#toast:not(.hidden)")
    assert "out of date" in page.locator("#toast").inner_text()
    page.wait_for_function("() => window.chuanmaClient.table.prompt", timeout=WAIT_MS)
    # the connection drops: a banner, then it reconnects by itself and the hand goes on
    page.evaluate("() => window.chuanmaClient.conn.drop()")
    page.wait_for_selector("#banner-lost")
    page.wait_for_selector("#banner-lost", state="detached", timeout=WAIT_MS)
    player.play_to_settlement()
    assert "discard" in player.decisions
    assert not player.errors


def test_client_language_switch_is_remembered(browser: Any, server: Running) -> None:
    player = new_player(browser, server, "dave")
    page = player.page
    start = page.locator("html").get_attribute("lang")
    page.click(".lang-switch")
    switched = page.locator("html").get_attribute("lang")
    assert switched != start
    page.reload()
    page.wait_for_selector("[data-join]")
    assert page.locator("html").get_attribute("lang") == switched
    title = page.locator("#rooms-title").inner_text()
    assert title == ("房间" if switched == "zh-CN" else "Rooms")
    cap = page.locator("label[for=max-fan]").inner_text()  # the private table's 封顶, not the option's id
    assert cap == ("封顶（番）" if switched == "zh-CN" else "Fan cap (封顶)")


def test_client_lobby_and_table_have_no_serious_accessibility_violations(browser: Any, server: Running) -> None:
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    axe = axe_module.Axe()
    player = new_player(browser, server, "erin")
    page = player.page

    def serious() -> list[str]:
        results = axe.run(page)
        return [f"{v['id']}: {v['help']} ({len(v['nodes'])})" for v in results.response["violations"]
                if v["impact"] in ("serious", "critical")]

    assert serious() == []
    player.quick_join()
    player.ready()
    player.to_mid_hand(6)
    assert serious() == []


def test_client_private_table_by_invite_link_and_a_spectator_sees_no_concealed_tiles(browser: Any,
                                                                                      server: Running) -> None:
    host = new_player(browser, server, "frank")
    page = host.page
    page.select_option("#preset", "xueliu")
    page.fill("#hands", "2")
    page.select_option("#bots", "3")
    page.select_option("#max-fan", "4")
    page.click("#private-form [type=submit]")
    invite = page.locator("[data-testid=invite]").inner_text()
    assert f"/#/join/{invite}" in page.locator("[data-copy]").get_attribute("data-copy")
    live = page.request.get(server.base + "/api/tables").json()
    table = next(t for t in live if t["rules"] == {"preset": "xueliu", "options": {"max_fan": 4}})
    # the invite link seats whoever opens it
    page.goto(f"{server.base}/#/join/{invite}")
    page.wait_for_selector("[data-testid=ready]:not([disabled])", timeout=WAIT_MS)
    assert page.evaluate("() => window.chuanmaClient.table.table") == table["table"]
    host.ready()
    host.to_mid_hand(4)  # the hand in play when the spectator comes
    watcher = new_player(browser, server, "grace")  # given the invite code: a stranger may not watch
    watcher.page.goto(f"{server.base}/#/watch/{table['table']}/{invite}")
    watcher.page.wait_for_function("() => window.chuanmaClient.table && window.chuanmaClient.table.view",
                                   timeout=WAIT_MS)
    seen = watcher.page.evaluate("() => window.chuanmaClient.table.view")
    assert seen["seat"] is None and all("hand" not in p or p["won"] for p in seen["players"])
    assert watcher.page.locator("[data-testid=hand]").count() == 0
    assert not host.errors and not watcher.errors


SETTLED = """async ([winners, selector, seat]) => {
  await window.chuanmaClient.fanNames;  // the fan table the page fetches when it opens
  const { settlement } = await import("/static/app/settle.js");
  const { setLang, t } = await import("/static/app/i18n.js");
  const deltas = [-winners.length, ...[1, 2, 3].map((s) => winners.filter((w) => w.seat === s).length)];
  const msg = { hand: 0, end_reason: "three_won", chips: deltas, balances: [0, 0, 0, 0], record: "", hand_id: "h",
    result: { deltas, payments: [], winners: winners.map((w) => ({ seq: w.seat, self_drawn: false, from: 0,
      tile: "3m", fans: [], total: 0, multiplier: 1, jipin: false, situations: [], robbed_kong: false, ...w })) } };
  const table = { seat, name: (s) => (s === seat ? t("seat.you") : `P${s}`), base: () => 1, closedReason: null,
    spectating: seat === null, readyControl: () => "" };
  const shown = {};
  for (const lang of ["en", "zh"]) {
    setLang(lang);
    const box = document.createElement("div");
    box.innerHTML = settlement(msg, table).parts.map(([, html]) => html).join("");
    shown[lang] = [...box.querySelectorAll(selector)].map((e) => e.textContent);
  }
  return shown;
}"""
"""The settlement of a hand won by ``winners`` (seat 0 dealing in), in English and in Chinese: the
text of each element ``selector`` finds, seen from ``seat`` (null: a spectator's)."""


def settled_texts(browser: Any, server: Running, winners: list[dict[str, Any]], selector: str,
                  seat: int | None = None) -> dict[str, list[str]]:
    """:data:`SETTLED` evaluated in the client's page."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server.base + "/")
        page.wait_for_function("() => window.chuanmaClient")
        shown: dict[str, list[str]] = page.evaluate(SETTLED, [winners, selector, seat])
    finally:
        context.close()
    return shown


def test_client_settlement_words_each_wins_situations(browser: Any, server: Running) -> None:
    """海底, 抢杠胡 …: a win's situations are named in the page's language, never by their ids."""
    winners = [{"seat": 1, "situations": ["last_tile"]},
               {"seat": 2, "situations": ["robbing_kong"], "robbed_kong": True}, {"seat": 3, "robbed_kong": True}]
    hows = settled_texts(browser, server, winners, ".settle-win > p:first-of-type")
    assert hows["en"] == ["dealt in by P0 · 海底 the last tile", "dealt in by P0 · 抢杠胡 robbing a kong",
                          "dealt in by P0 · 抢杠胡 robbing a kong"]
    assert hows["zh"][0].endswith(" · 海底（最后一张）") and hows["zh"][1].endswith(" · 抢杠胡")


def test_client_settlement_names_fans_in_the_pages_language_not_by_id(browser: Any, server: Running) -> None:
    """A hand's result names its fans by id and Chinese name; the settlement shows the fan table's
    English name in English, never the id."""
    fans = [{"id": "duanyaojiu", "name": "断幺九", "fan": 1}, {"id": "qingyise", "name": "清一色", "fan": 2}]
    shown = settled_texts(browser, server, [{"seat": 1, "fans": fans, "total": 3, "multiplier": 8}], ".fan-list li")
    assert shown["en"] == [f"断幺九 {FANS['duanyaojiu'].en} — 1 fan", f"清一色 {FANS['qingyise'].en} — 2 fan"]
    assert shown["zh"] == ["断幺九 — 1 番", "清一色 — 2 番"]


def create_private(player: Player, hands: int, bots: int) -> str:
    """Create a private table from the lobby's form; returns its invite code."""
    page = player.page
    page.fill("#hands", str(hands))
    page.select_option("#bots", str(bots))
    page.click("#private-form [type=submit]")
    return page.locator("[data-testid=invite]").inner_text()


def test_client_logged_in_player_opening_an_invite_link_sits_down_and_gets_ready(browser: Any,
                                                                                 server: Running) -> None:
    """A player already logged in who opens an invite link in a new tab: the table with Ready, never
    the lobby drawn over it (the lobby's page, drawn after its /api/me, once replaced the table)."""
    host = new_player(browser, server, "hugo")
    invite = create_private(host, hands=1, bots=2)
    host.page.click("[data-sit]")
    host.page.wait_for_function("() => window.chuanmaClient.table?.table", timeout=WAIT_MS)  # a seat is empty
    guest = new_player(browser, server, "iris")
    tab = guest.page.context.new_page()  # a fresh page load, logged in by the context's cookie
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.goto(f"{server.base}/#/join/{invite}")
    tab.wait_for_load_state("networkidle")  # the lobby's requests are done: nothing is drawn after them
    tab.wait_for_selector("[data-testid=ready]:not([disabled])", timeout=WAIT_MS)
    assert tab.locator("[data-join]").count() == 0 and tab.evaluate("() => location.hash") == "#/table"
    tab.click("[data-testid=ready]")
    host.page.wait_for_selector("[data-testid=ready]:not([disabled])", timeout=WAIT_MS)
    host.ready()
    tab.wait_for_function("() => window.chuanmaClient.table.dealt", timeout=WAIT_MS)  # both ready: dealt
    assert tab.evaluate("() => window.chuanmaClient.table.seat") is not None
    assert not errors and not host.errors


def test_client_names_every_preset_and_never_shows_a_key(browser: Any, server: Running) -> None:
    """Every preset is named in both languages (chuanma.rules.PRESET_NAMES, which /api/presets
    serves): in the rooms, in the private-table form's Rules and in the table's header; no
    ``preset.`` key is shown. The rooms are named in the page's language, and the form's rule options
    by their descriptions and their choices' names, never by an id."""
    assert set(PRESET_NAMES) == set(PRESETS) and all(n["zh"] and n["en"] for n in PRESET_NAMES.values())
    player = new_player(browser, server, "jack")
    page = player.page
    set_lang = """async (lang) => (await import("/static/app/i18n.js")).setLang(lang)"""
    for lang in ("zh", "en"):
        page.evaluate(set_lang, lang)
        page.wait_for_function("l => document.documentElement.lang.startsWith(l)", arg=lang)
        assert "preset." not in page.inner_text("body")
        options = page.eval_on_selector_all("#preset option", "os => os.map((o) => [o.value, o.textContent])")
        assert sorted(v for v, _ in options) == sorted(PRESETS)
        assert all(text == PRESET_NAMES[v][lang] for v, text in options), options  # by name alone, never by id
        levels = page.eval_on_selector_all("#bot-level option", "os => os.map((o) => o.textContent)")
        assert len(levels) == 3 and not any(bot in " ".join(levels) for bot in ("greedy", "defensive", "expert"))
        room = page.locator("[data-room='chuji-xuezhan']").inner_text()
        assert PRESET_NAMES["doublewin-xuezhan"][lang] in room
        room_name = ROOMS["chuji-xuezhan"].en if lang == "en" else ROOMS["chuji-xuezhan"].name
        assert page.locator("[data-room='chuji-xuezhan'] .room-name").inner_text() == room_name
        labels = page.eval_on_selector_all("#private-form [data-option]", """els => els.map((e) => [e.dataset.option,
            document.querySelector(`label[for="${e.id}"]`).textContent.trim(),
            [...e.options].map((o) => o.textContent.trim())])""")
        described = {o["name"]: o for o in option_schema()}
        for name, label, choices in labels:
            wanted = described[name]["description_zh" if lang == "zh" else "description"]
            assert label == wanted and name not in label, (name, label)
            if name in CHOICE_NAMES:
                assert choices == [CHOICE_NAMES[name][str(c)][lang] for c in described[name]["choices"]], name
            else:
                assert choices == (["开", "关"] if lang == "zh" else ["on", "off"]), name
    player.quick_join()
    for lang in ("zh", "en"):
        page.evaluate(set_lang, lang)
        page.wait_for_function("name => document.querySelector('[data-testid=preset]')?.textContent === name",
                               arg=PRESET_NAMES["doublewin-xuezhan"][lang], timeout=WAIT_MS)
        assert "preset." not in page.inner_text("body")
    assert not player.errors


def test_client_settlement_words_the_viewers_own_win_and_deal_in(browser: Any, server: Running) -> None:
    """Seen from seat 1: "You win on …" (not "You wins"), "dealt in by you"; the others' wins as before."""
    winners = [{"seat": 1}, {"seat": 2, "from": 1}]
    heads = settled_texts(browser, server, winners, ".settle-win h3", seat=1)
    assert heads["en"][0].startswith("You win on ") and heads["en"][1].startswith("P2 wins on "), heads
    assert heads["zh"][0].startswith("你 胡 ") and heads["zh"][1].startswith("P2 胡 "), heads
    hows = settled_texts(browser, server, winners, ".settle-win > p:first-of-type", seat=1)
    assert hows == {"en": ["dealt in by P0", "dealt in by you"], "zh": ["P0 点炮", "你 点炮"]}, hows


def test_client_header_keeps_the_finished_hands_number_until_the_next_deal(browser: Any, server: Running) -> None:
    """The next hand's start comes while the settlement is open: the header still names the finished
    hand (its board is still shown) and names the next one once it is dealt."""
    player = new_player(browser, server, "kate")
    page = player.page
    player.quick_join()
    player.ready()
    player.play_to_settlement()
    finished = page.evaluate("() => window.chuanmaClient.table.handEnd.hand")
    page.wait_for_function("h => { const t = window.chuanmaClient.table; return t.hand === h + 1 && !t.frame; }",
                           arg=finished, timeout=WAIT_MS)  # the next hand's start has come and is drawn
    header = "[data-region=info] [data-testid=hand-number]"
    assert page.locator("#settle-title").count() == 1
    hand_text = """async (n) => (await import("/static/app/i18n.js")).t("table.hand", { n })"""
    assert page.inner_text(header) == page.evaluate(hand_text, finished + 1)
    player.next_hand()
    page.wait_for_function("() => { const t = window.chuanmaClient.table; return t.dealt && !t.handEnd && !t.frame; }",
                           timeout=WAIT_MS)
    assert page.inner_text(header) == page.evaluate(hand_text, finished + 2)
    assert not player.errors


@pytest.mark.parametrize(("who", "width", "height"), [("liam", 1280, 800), ("mia", 360, 740)], ids=["desktop", "phone"])
def test_client_quick_join_waiting_text_fits(browser: Any, server: Running, who: str, width: int, height: int) -> None:
    """Queued without bots (so the wait lasts), in both languages: the waiting text is shown whole in
    the room, and nothing in the room, its button included, is cut off."""
    player = new_player(browser, server, who, width, height)
    page = player.page
    page.uncheck("#allow-bots")
    page.click("[data-join='chuji-xueliu']")
    room = page.locator("[data-room='chuji-xueliu']")
    clipped = """r => [...r.querySelectorAll('*'), r].filter((e) => e.clientWidth && e.scrollWidth > e.clientWidth)
        .map((e) => e.outerHTML.slice(0, 80))"""
    for lang in ("en", "zh"):
        page.evaluate("""async (lang) => (await import("/static/app/i18n.js")).setLang(lang)""", lang)
        waiting = """async () => (await import("/static/app/i18n.js")).t("lobby.waiting",
            { waiting: window.chuanmaClient.lobby.queued.waiting })"""  # others may be queued there too
        page.wait_for_function(f"""async () => document.querySelector("[data-room='chuji-xueliu']").innerText
            .includes(await ({waiting})())""", timeout=WAIT_MS)
        assert room.evaluate(clipped) == [], lang
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    assert not player.errors


def test_client_private_table_form_keeps_its_values_and_the_table_says_who_is_missing(browser: Any,
                                                                                     server: Running) -> None:
    """After Create table the form still shows what was chosen (the bots' level too, which the request
    carries); seated at a table with an empty seat,
    the table says how many are seated; when the seat is taken the line goes and Ready comes."""
    host = new_player(browser, server, "nora")
    page = host.page
    page.select_option("#preset", "xueliu")
    page.select_option("#bot-level", "hard")
    with page.expect_request("**/api/tables") as asked:
        invite = create_private(host, hands=1, bots=2)
    assert asked.value.post_data_json["bot_level"] == "hard"  # the table's bots: the expert
    assert [page.input_value(s) for s in ("#preset", "#hands", "#bots", "#bot-level")] == ["xueliu", "1", "2", "hard"]
    page.click("[data-sit]")
    seated = """async (n) => (await import("/static/app/i18n.js")).t("table.seated", { n })"""
    page.wait_for_selector("[data-testid=seated]", timeout=WAIT_MS)
    assert page.inner_text("[data-testid=seated]") == page.evaluate(seated, 3)
    guest = new_player(browser, server, "oscar")
    guest.page.fill("#invite-code", invite)
    guest.page.click("#invite-form [type=submit]")
    guest.page.wait_for_selector("[data-testid=ready]:not([disabled])", timeout=WAIT_MS)
    page.wait_for_selector("[data-testid=ready]:not([disabled])", timeout=WAIT_MS)
    assert page.locator("[data-testid=seated]").count() == 0 and guest.page.locator("[data-testid=seated]").count() == 0
    assert not host.errors and not guest.errors


def test_client_reports_the_other_player_at_the_table_about_the_hand_in_play(browser: Any, server: Running) -> None:
    """At a private table with bots, each of two players has a report control on the other's seat
    and on no bot's: the dialog posts the reason, the words and the hand in play, and says so."""
    host = new_player(browser, server, "rex")
    invite = create_private(host, hands=1, bots=2)
    host.page.click("[data-sit]")
    host.page.wait_for_function("() => window.chuanmaClient.table?.table", timeout=WAIT_MS)
    guest = new_player(browser, server, "sam")
    guest.page.goto(f"{server.base}/#/join/{invite}")
    guest.page.wait_for_selector("[data-testid=ready]:not([disabled])", timeout=WAIT_MS)
    guest.page.click("[data-testid=ready]")
    host.page.wait_for_selector("[data-testid=ready]:not([disabled])", timeout=WAIT_MS)
    host.ready()
    guest.page.wait_for_function("() => window.chuanmaClient.table.dealt", timeout=WAIT_MS)
    host_seat = host.page.evaluate("() => window.chuanmaClient.table.seat")
    assert guest.page.locator("[data-act=report]").count() == 1  # the host's seat only: no bot's, not their own
    guest.page.click(f"[data-testid=report-{host_seat}]")
    guest.page.select_option("#report-reason", "collusion")
    guest.page.fill("#report-text", "passes tiles to the bots")
    guest.page.click("[data-testid=report-send]")
    sent = guest.page.evaluate("async () => (await import('/static/app/i18n.js')).t('report.sent')")
    guest.page.wait_for_function("(text) => document.getElementById('toast').textContent === text", arg=sent,
                                 timeout=WAIT_MS)
    hand = guest.page.evaluate("() => `${window.chuanmaClient.table.table}-${window.chuanmaClient.table.hand}`")
    queue = asyncio.run_coroutine_threadsafe(server.server.reports.listed("open"), server.loop).result(30)
    assert [(r["reporter_name"], r["player_name"], r["hand_id"], r["reason"], r["text"]) for r in queue] == [
        ("sam", "rex", hand, "collusion", "passes tiles to the bots")]
    assert not guest.errors and not host.errors
