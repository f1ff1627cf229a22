"""The portal in a real Chromium: the calculator reproduces ``chuanma score`` on hands built by
clicking, the replay viewer steps, jumps and switches seats (seat views exactly the engine's), at
desktop and phone sizes; axe-core finds no serious or critical violation on the portal's pages."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from browser_fixtures import tab
from chromium import serious_violations
from chuanma.errors import ERROR_CODES
from chuanma.melds import parse_meld
from chuanma.portal.reference import preset_catalog
from chuanma.portal.replays import replay_view
from chuanma.rules import RuleSet
from chuanma.scoring import score_hand
from chuanma.tiles import parse_tile, parse_tiles, tile_name, tile_str
from narration_samples import EVENTS
from portal_harness import REFUSED, SETTLED, PortalServer, portal_server

SIZES = {"desktop": (1280, 900), "phone": (360, 740)}


@dataclass(frozen=True)
class Hand:
    preset: str
    hand: str
    win: str
    melds: tuple[str, ...] = ()
    self_drawn: bool = False
    discarder: int = 1
    void: str | None = None
    situations: tuple[str, ...] = field(default=())


HANDS = [
    Hand("xuezhan", "1112345678999m", "5m", discarder=2),
    Hand("xueliu", "1111335566778m", "8m", self_drawn=True, void="p"),
    Hand("classic", "123m456m789m1p", "1p", melds=("pong:5p",), self_drawn=True),
    Hand("portal-xuezhan", "5556667m", "7m", melds=("kong:1m:concealed", "pong:3m"), self_drawn=True,
         situations=("kong_replacement",)),
    Hand("doublewin-xuezhan", "234m456m678m5566p", "6p", discarder=3, situations=("robbing_kong",)),
    Hand("xuezhan", "234m456m678m5566p", "6p", discarder=3, situations=("robbing_kong",)),
    Hand("portal-xueliu", "2233445566778s", "8s", self_drawn=True, situations=("last_tile",)),
    # 大众麻将: a chow and a 中 pong (箭刻 1) self-drawn (自摸 1): 2 fan, 4 from each; 十三幺 (a fixed 8)
    Hand("dazhong", "456p789p1z", "1z", melds=("chow:3m", "pong:7z"), self_drawn=True),
    Hand("dazhong", "19m19p19s1234567z", "1m", discarder=2),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PortalServer]:
    with portal_server(Path(tmp_path_factory.mktemp("portal"))) as srv:
        yield srv


@contextmanager
def _page(browser: Any, size: str) -> Iterator[Any]:
    with tab(browser, *SIZES[size], locale="en-GB") as shown:
        yield shown.page


@pytest.fixture(params=list(SIZES))
def page(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    """A page at each size (desktop and phone)."""
    with _page(browser, request.param) as pg:
        yield pg


@pytest.fixture
def desktop(browser: Any) -> Iterator[Any]:
    with _page(browser, "desktop") as pg:
        yield pg


def _expected(h: Hand) -> tuple[int | None, list[tuple[int, int]]]:
    """The total by chuanma.scoring and the payments the rules' text gives: a win on a discard (or a
    robbed kong) is paid by that seat alone, 2^total; a self-drawn win by the three others, 2^total
    each (+1 base with 自摸加底)."""
    rules = RuleSet.from_preset(h.preset)
    result = score_hand(rules, parse_tiles(h.hand), [parse_meld(m) for m in h.melds], parse_tile(h.win),
                        self_drawn=h.self_drawn, void=h.void, situations=h.situations)
    if not result.win:
        return None, []
    if h.self_drawn:
        each = 2 ** result.total + (1 if rules.zimo_bonus == "base" else 0)
        return result.total, [(seat, each) for seat in (1, 2, 3)]
    return result.total, [(h.discarder, 2 ** result.total)]


def _pick(page: Any, code: str) -> None:
    # a real mouse click; force: the tile lifts on hover, which Playwright would wait out as movement
    page.click(f'#palette [data-testid="pick-{code}"]', force=True)


def _click_tile(page: Any, mode: str, code: str) -> None:
    page.click(f'[data-testid="mode-{mode}"]')
    _pick(page, code)


def _build(page: Any, h: Hand) -> None:
    page.click('[data-testid="clear"]')
    page.select_option("#preset", h.preset)
    for meld in h.melds:
        kind, code, *rest = meld.split(":")
        _click_tile(page, rest[0] if kind == "kong" else kind, code)
    page.click('[data-testid="mode-hand"]')
    for tile in parse_tiles(h.hand):
        _pick(page, tile_str(tile))
    _click_tile(page, "win", h.win)
    page.check('[data-testid="self-drawn"]') if h.self_drawn else page.check("#how-discard")
    if not h.self_drawn:
        page.select_option("#from", str(h.discarder))
    if not RuleSet.from_preset(h.preset).game_variant.void:  # 大众麻将 has no 定缺: the void choice is disabled
        assert page.is_disabled("#void")
    else:
        page.select_option("#void", h.void or "")
    for s in h.situations:
        page.check(f'[data-testid="sit-{s}"]')


def test_calculator_reproduces_chuanma_score(server: PortalServer, page: Any) -> None:
    page.goto(server.base + "/calc")
    page.wait_for_selector('#palette [data-testid="pick-1m"]')
    phone = page.viewport_size["width"] < 700
    for h in HANDS[2:4] if phone else HANDS:  # at phone size, two of the hands
        _build(page, h)
        page.wait_for_selector('[data-testid="result"]:not([aria-busy])')
        total, payments = _expected(h)
        if total is None:
            page.wait_for_selector('[data-testid="no-win"]')
            continue
        page.wait_for_selector(f'[data-testid="total"][data-total="{total}"]')
        rows = page.eval_on_selector_all('[data-testid="payments"] tbody tr',
                                         "rows => rows.map(r => [r.dataset.testid, Number(r.dataset.amount)])")
        assert rows == [[f"pay-{seat}", amount] for seat, amount in payments], h


def test_calculator_says_what_is_wrong_with_a_hand_in_the_pages_language(server: PortalServer, desktop: Any) -> None:
    page = desktop
    page.goto(server.base + "/calc")
    page.wait_for_selector('#palette [data-testid="pick-1m"]')
    _build(page, Hand("xuezhan", "1112345678999m", "5m", situations=("kong_replacement",)))
    assert page.text_content('[data-testid="error"]') == "“杠上花 win on a kong's replacement” needs a self-drawn win"
    # in Chinese the refusal is all Chinese
    page.click(".lang-switch")
    try:
        page.wait_for_selector('#palette [data-testid="pick-1m"]')
        _build(page, Hand("xuezhan", "1112345678999m", "5m", situations=("kong_replacement",)))
        assert page.text_content('[data-testid="error"]') == "“杠上花”只在自摸时成立"
    finally:
        page.click(".lang-switch")


def test_every_refusal_the_calculator_can_get_is_worded_in_both_languages(server: PortalServer, desktop: Any) -> None:
    """Each code of chuanma.errors.ERROR_CODES (a hand for each: portal_harness.REFUSED) has words in
    Chinese and in English taking its facts; in Chinese the sentence has no English in it and says
    the facts' numbers."""
    page = desktop
    page.goto(server.base + "/calc")
    page.wait_for_selector('#palette [data-testid="pick-1m"]')
    said = page.evaluate("""async ([codes, hands]) => {
        const { STRINGS, getLang, setLang } = await import("/static/app/i18n.js");
        const { refusalText } = await import("/static/portal/refusal.js");
        const options = (await (await fetch("/api/presets")).json()).options;
        const facts = [];
        for (const hand of hands) {
          const res = await fetch("/api/portal/score", { method: "POST", body: JSON.stringify(hand) });
          facts.push((await res.json()).facts);
        }
        const before = getLang();
        const out = { facts, words: {}, text: {} };
        for (const lang of ["zh", "en"]) {
          setLang(lang);
          out.words[lang] = codes.map((code) => STRINGS[lang][`calc.err.${code}`] ?? null);
          out.text[lang] = facts.map((f) => refusalText(f, options));
        }
        setLang(before);
        return out;
    }""", [list(ERROR_CODES), [REFUSED[code] for code in ERROR_CODES]])
    for i, (code, names) in enumerate(ERROR_CODES.items()):
        facts = said["facts"][i]
        assert facts["code"] == code, facts
        for lang in ("zh", "en"):
            words, text = said["words"][lang][i], said["text"][lang][i]
            assert words is not None, (lang, code)
            assert set(re.findall(r"\{(\w+)\}", words)) <= set(names), (lang, code, words)
            assert "{" not in text and "undefined" not in text, (lang, code, text)
        zh = said["text"]["zh"][i]
        assert not re.search("[A-Za-z]", zh), (code, zh)
        numbers = [v for n in names for v in (facts[n] if isinstance(facts[n], list) else [facts[n]])
                   if isinstance(v, int)]
        assert all(str(n) in zh for n in numbers), (code, zh)
        if code == "tile_count":
            assert tile_name(parse_tile(facts["tile"]), "zh") in zh


def test_calculator_says_why_a_hand_cannot_win_in_the_pages_language(server: PortalServer, desktop: Any) -> None:
    page = desktop
    page.goto(server.base + "/calc")
    page.wait_for_selector('#palette [data-testid="pick-1m"]')
    hand = Hand("xuezhan", "1112345678999m", "5m", void="m")
    _build(page, hand)
    page.wait_for_selector('[data-testid="no-win"]')
    assert "holds tiles of the void suit m" in page.text_content('[data-testid="no-win"]')
    page.click(".lang-switch")
    try:
        page.wait_for_selector('#palette [data-testid="pick-1m"]')
        _build(page, hand)
        page.wait_for_selector('[data-testid="no-win"]')
        said = page.text_content('[data-testid="no-win"]')
        assert said is not None and said.startswith("不能胡：手里还有缺门（万）的牌")
        assert not re.search("[A-Za-z]", said)
    finally:
        page.click(".lang-switch")


def test_the_portal_speaks_chinese_and_english(server: PortalServer, desktop: Any) -> None:
    desktop.goto(server.base + "/calc")
    desktop.wait_for_selector('#palette [data-testid="pick-1m"]')
    assert desktop.text_content("h1") == "Fan calculator"
    desktop.click(".lang-switch")
    assert desktop.text_content("h1") == "算番器"
    # the calculator's options are named by what they mean in the page's language, never by their ids
    yaojiu = next(o for o in preset_catalog()["options"] if o["name"] == "yaojiu")
    label = desktop.eval_on_selector('label[for="opt-yaojiu"]', "l => l.lastChild.textContent")
    assert label == yaojiu["description_zh"]
    assert desktop.locator("#opt-yaojiu option").all_text_contents() == [
        yaojiu["choice_names"][c]["zh"] for c in yaojiu["choices"]]
    # and the presets by their names
    assert desktop.locator("#preset option").all_text_contents() == [p["zh"] for p in preset_catalog()["presets"]]
    desktop.goto(server.base + "/rules")  # remembered
    refund = '[data-testid="option-refund"] td:nth-last-child(2)'
    desktop.wait_for_selector(refund)  # the page is drawn once its tables are fetched
    assert desktop.text_content("h1") == "番型与规则"
    assert desktop.text_content(refund) == "退税：没听牌的玩家退还杠钱"
    desktop.click(".lang-switch")
    assert desktop.text_content(refund) == RuleSet.model_fields["refund"].description


def _tiles(page: Any, testid: str) -> list[str | None]:
    return list(page.eval_on_selector_all(f'[data-testid="{testid}"] svg', "s => s.map(x => x.dataset.tile || null)"))


def _move(page: Any) -> int:
    return int(page.input_value('[data-testid="slider"]'))


def _wait_move(page: Any, move: int) -> None:
    page.wait_for_function(f'() => document.querySelector("[data-testid=slider]").value === "{move}"')


def test_replay_seat_buttons_survive_a_render_so_a_press_during_a_load_still_clicks(
        server: PortalServer, page: Any) -> None:
    """A render that lands between a press and its release must not replace the button pressed:
    the seat buttons are the same elements before and after a move is loaded."""
    page.goto(f"{server.base}/replay/{SETTLED}?seat=all&move=0")
    page.click("#guest")
    page.wait_for_selector('[data-testid="board"]')
    button = page.query_selector('[data-testid="view-2"]')
    page.click('[data-testid="next"]')
    _wait_move(page, 1)
    assert button.evaluate("b => b.isConnected")
    button.dispatch_event("mousedown")
    page.keyboard.press("ArrowRight")  # a load and its render between the press and the release
    _wait_move(page, 2)
    button.click()
    page.wait_for_selector('[data-testid=view-2][aria-pressed="true"]')
    assert button.evaluate("b => b.isConnected && b.getAttribute('aria-pressed')") == "true"


def test_replay_reports_another_player_of_the_hand_through_the_tables_dialog(server: PortalServer,
                                                                             desktop: Any) -> None:
    """A registered player replaying a hand has ⚑ beside each other person (not the bot): the dialog
    the table opens, posted with the hand, says it was sent."""
    r = desktop.request.post(f"{server.base}/api/register", data={"username": "Replayer", "password": "correct horse"})
    assert r.ok, r.text()
    desktop.goto(f"{server.base}/replay/{SETTLED}?seat=all&move=0")
    desktop.wait_for_selector('[data-testid="report-1"]')
    assert desktop.query_selector('[data-testid="report-3"]') is None  # the server's bot
    assert "Sitter1" in desktop.text_content('[data-testid="players"]')
    desktop.click('[data-testid="report-1"]')
    desktop.select_option("#report-reason", "collusion")
    desktop.click('[data-testid="report-send"]')
    desktop.wait_for_function('() => document.querySelector("[data-testid=report-status]").textContent !== ""')
    assert desktop.text_content('[data-testid="report-status"]') == "Report sent: staff will look at it"


def test_replay_steps_jumps_and_switches_seats(server: PortalServer, page: Any) -> None:
    page.goto(f"{server.base}/replay/{SETTLED}?seat=all&move=0")
    page.click("#guest")
    page.wait_for_selector('[data-testid="board"]')
    assert _move(page) == 0
    page.click('[data-testid="next"]')
    _wait_move(page, 1)
    page.keyboard.press("End")
    moves = replay_view(server.record, "all", None)["moves"]
    _wait_move(page, moves)
    page.wait_for_selector('[data-testid="settlement"]:not(.hidden)')
    assert page.text_content('[data-testid="deltas"]').count("Seat") == 4
    heads = page.eval_on_selector_all('[data-testid="payments"] th', "s => s.map(x => x.textContent)")
    assert heads == ["Reason", "Payer → payee", "Units of base"]  # who pays whom is said, not guessed
    first = server.record["result"]["payments"][0]
    assert page.text_content('[data-testid="payments"] tbody tr td:nth-child(2)') == (
        f"Seat {first['payer']} → Seat {first['payee']}")
    page.fill('[data-testid="move-input"]', "10")
    page.dispatch_event('[data-testid="move-input"]', "change")
    _wait_move(page, 10)
    assert "move=10" in page.url
    page.click('[data-testid="view-1"]')
    page.wait_for_selector('[data-testid=view-1][aria-pressed="true"]')
    engine = replay_view(server.record, 1, 10)["view"]
    shown = sorted(t for t in _tiles(page, "hand-1") if t is not None)
    assert shown == sorted(tile_str(t) for t in parse_tiles(engine["players"][1]["hand"]))
    assert set(_tiles(page, "hand-0")) == {None}  # another seat's tiles face down
    page.click('[data-testid="view-all"]')
    page.wait_for_selector('[data-testid=view-all][aria-pressed="true"]')
    assert all(None not in _tiles(page, f"hand-{s}") for s in range(4))
    page.click('[data-testid="events"] li:nth-child(3) button')  # an event jumps to its move
    page.wait_for_function('() => document.querySelector("[data-testid=slider]").value !== "10"')


def test_replay_link_to_the_end_opens_the_last_move(server: PortalServer, desktop: Any) -> None:
    desktop.goto(f"{server.base}/replay/{SETTLED}?seat=all&move=end")
    desktop.click("#guest")
    moves = replay_view(server.record, "all", None)["moves"]
    _wait_move(desktop, moves)
    desktop.wait_for_selector('[data-testid="settlement"]:not(.hidden)')
    desktop.click("#prev")  # and steps on from there
    _wait_move(desktop, moves - 1)
    assert f"move={moves - 1}" in desktop.url


def test_replay_of_an_uploaded_record(server: PortalServer, desktop: Any, tmp_path: Path) -> None:
    import json

    page = desktop
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(server.record))
    page.goto(server.base + "/replay")
    page.set_input_files('[data-testid="upload"]', str(path))
    page.wait_for_selector('[data-testid="board"]')
    page.click('[data-testid="last"]')
    page.wait_for_selector('[data-testid="settlement"]:not(.hidden)')
    bad = tmp_path / "not-a-record.json"
    bad.write_text("[1, 2]")
    page.set_input_files('[data-testid="upload"]', str(bad))
    page.wait_for_function('() => document.querySelector("[data-testid=error]").textContent.length > 0')


def test_replay_of_a_dazhong_record_tells_its_chows(server: PortalServer, desktop: Any, tmp_path: Path) -> None:
    """A 大众麻将 hand with a chow, uploaded: the events tell the chow and its run lies among the
    melds as three different tiles."""
    import json

    from fairness_records import played_record

    record = next(r for r in (played_record(s, "dazhong") for s in range(40))
                  if any("chow" in d for d in r["decisions"]))
    page = desktop
    path = tmp_path / "dazhong.json"
    path.write_text(json.dumps(record))
    page.goto(server.base + "/replay")
    page.set_input_files('[data-testid="upload"]', str(path))
    page.wait_for_selector('[data-testid="board"]')
    page.click('[data-testid="last"]')
    page.wait_for_selector('[data-testid="settlement"]:not(.hidden)')
    events = page.text_content('[data-testid="events"]') or ""
    assert "chows" in events or "吃" in events
    runs = page.evaluate("""() => [...document.querySelectorAll('.meld')].map(m =>
        [...m.querySelectorAll('[data-tile]')].map(x => x.dataset.tile))""")
    assert any(len(r) == 3 and len(set(r)) == 3 for r in runs), runs


def test_a_worked_example_opens_in_the_replay_viewer(server: PortalServer, desktop: Any) -> None:
    desktop.goto(server.base + "/guide/xuezhan_xueliu")
    desktop.click('[data-testid="replay-xueliu"]')
    desktop.wait_for_selector('[data-testid="board"]')
    desktop.click('[data-testid="last"]')
    desktop.wait_for_selector('[data-testid="settlement"]:not(.hidden)')


GUIDES = ["exchange", "void", "kongs", "call_transfer", "flower_pig", "chadajiao", "refund", "xuezhan_xueliu"]


def test_worked_examples_are_named_and_their_rules_worded_not_shown_as_ids_and_json(
        server: PortalServer, desktop: Any) -> None:
    for topic in GUIDES:
        desktop.goto(server.base + f"/guide/{topic}")
        desktop.wait_for_selector('[data-testid^="example-"] h2')
        ids = desktop.eval_on_selector_all('[data-testid^="example-"]', "s => s.map(x => x.dataset.testid.slice(8))")
        for x in ids:
            heading = desktop.text_content(f'[data-testid="example-{x}"] h2')
            rules = desktop.text_content(f'[data-testid="example-{x}"] > p.muted')
            assert heading.startswith("Worked example, computed by the engine: ") and not heading.endswith(f": {x}")
            assert "{" not in rules and ("[xuezhan]" in rules or "[xueliu]" in rules), rules
    desktop.goto(server.base + "/guide/kongs")
    desktop.wait_for_selector('[data-testid="example-concealed_kong"] h2')
    assert desktop.text_content('[data-testid="example-concealed_kong"] > p.muted') == (
        "Rules: Bloody battle (血战) [xuezhan], exchange: off")
    desktop.click(".lang-switch")
    assert desktop.text_content('[data-testid="example-concealed_kong"] h2') == "引擎算出的例子: 暗杠（下雨）"
    assert desktop.text_content('[data-testid="example-concealed_kong"] > p.muted') == (
        "规则：血战到底 [xuezhan], exchange: off")


def test_guide_opens_its_first_topic_and_an_unknown_topic_names_the_topics(
        server: PortalServer, desktop: Any) -> None:
    desktop.goto(server.base + "/guide")
    assert desktop.url == server.base + "/guide/exchange"
    desktop.wait_for_selector('[data-testid="example-exchange"]')
    answer = desktop.goto(server.base + "/guide/nope")
    assert answer is not None and answer.status == 404
    desktop.wait_for_selector('[data-testid="no-topic"]')  # drawn once the page's modules have run, maybe after load
    assert desktop.text_content("h1") == "No such topic"
    said = desktop.text_content('[data-testid="no-topic"]')
    assert said == ("There is no topic “nope”. The topics are: 换三张 Exchange three, 定缺 Void suit, "
                    "刮风下雨 Kong money, 呼叫转移 Call transfer, 查花猪 Flower pig, 查大叫 Not-ready check, "
                    "退税 Kong refund, 血战 vs 血流.")
    assert desktop.eval_on_selector_all("#topics a", "s => s.map(a => a.getAttribute('href'))") == [
        f"/guide/{topic}" for topic in GUIDES]
    desktop.click(".lang-switch")
    assert desktop.text_content("h1") == "没有这个主题"
    assert desktop.text_content('[data-testid="no-topic"]') == (
        "没有“nope”这个主题。主题有：换三张、定缺、刮风下雨、呼叫转移、查花猪、查大叫、退税、血战与血流。")


def test_the_browser_names_and_draws_tiles_as_python_names_them(server: PortalServer, desktop: Any) -> None:
    """tiles.js names every tile as chuanma.tiles.tile_name does (served, not copied), draws an
    honour's name on it (白 as an empty frame) and a 万's numeral from its name; the calculator's
    palette shows them so."""
    desktop.goto(f"{server.base}/calc")
    desktop.wait_for_selector('#palette [data-testid="pick-9s"]')
    desktop.select_option("#preset", "dazhong")
    desktop.wait_for_selector('#palette [data-testid="pick-7z"]')
    shown = desktop.evaluate("""async (codes) => {
        const { tileName, tileSVG } = await import("/static/app/tiles.js");
        return codes.map((code) => {
          const svg = new DOMParser().parseFromString(tileSVG(code), "image/svg+xml").documentElement;
          return { zh: tileName(code, "zh"), en: tileName(code, "en"), label: svg.getAttribute("aria-label"),
                   drawn: [...svg.querySelectorAll("text")].map((t) => t.textContent).join("") };
        });
    }""", [tile_str(t) for t in range(34)])
    for t, got in enumerate(shown):
        zh = tile_name(t, "zh")
        assert (got["zh"], got["en"], got["label"]) == (zh, tile_name(t, "en"), zh), tile_str(t)
        if t < 9:
            assert got["drawn"] == zh[0] + "萬"
        elif t >= 27:
            assert got["drawn"] == ("" if zh == "白" else zh)
    # the palette's 5z and 7z are the terminal's: 白 (drawn as a frame) and 中
    for code in ("5z", "7z"):
        label = desktop.get_attribute(f'#palette [data-testid="pick-{code}"] svg', "aria-label")  # names the button
        assert label in (tile_name(parse_tile(code), "zh"), tile_name(parse_tile(code), "en"))
        drawn = desktop.text_content(f'#palette [data-testid="pick-{code}"] svg')
        assert drawn == ("" if code == "5z" else "中")


@pytest.mark.parametrize("path", ["/calc", "/rules", f"/replay/{SETTLED}?move=30"])
def test_no_serious_accessibility_violations(server: PortalServer, browser: Any, path: str) -> None:
    pytest.importorskip("axe_playwright_python.sync_playwright")
    with _page(browser, "desktop") as page:
        page.goto(server.base + "/api/portal/fans")  # same origin, so the guest session applies
        page.evaluate("fetch('/api/guest', {method: 'POST'})")  # awaited: evaluate waits for the promise
        page.goto(server.base + path)
        page.wait_for_load_state("networkidle")
        if path.startswith("/replay"):
            page.wait_for_selector('[data-testid="board"]')
        bad = serious_violations(page)
        assert bad == [], bad


def test_the_ticker_and_the_replay_viewer_word_events_alike(server: PortalServer, desktop: Any) -> None:
    """One narration (static/app/narrate.js) for the table's ticker and the replay viewer: every kind
    of event makes a sentence naming its seat and its tile, in Chinese and in English; a discard of a
    stored hand reads the same in the replay viewer's list as in a table's ticker, in both languages."""
    page = desktop
    page.goto(f"{server.base}/replay/{SETTLED}?seat=all&move=0")
    page.click("#guest")
    page.wait_for_selector('[data-testid="board"]')
    said = page.evaluate("""async (events) => {
        const { narrate } = await import("/static/app/narrate.js");
        const { setLang } = await import("/static/app/i18n.js");
        const { tileName } = await import("/static/app/tiles.js");
        const out = {};
        for (const lang of ["zh", "en"]) {
          setLang(lang);
          out[lang] = events.map((ev) => ({ text: narrate(ev, (s) => `<${s}>`),
            tile: ev.tile ? tileName(ev.tile, lang) : null }));
        }
        return out;
    }""", EVENTS)
    for lang in ("zh", "en"):
        for ev, got in zip(EVENTS, said[lang], strict=True):
            text = got["text"]
            unfilled = ("{", "undefined", "null", "ev.", "reason.", "end.")
            assert text and not any(bad in text for bad in unfilled), (ev, text)
            if got["tile"]:
                assert got["tile"] in text, (ev, text)
            for key in ("seat", "from", "payer", "dealer"):
                if ev.get(key) is not None:
                    assert f"<{ev[key]}>" in text, (ev, text)
    assert all(zh != en for zh, en in zip(said["zh"], said["en"], strict=True))
    discard = next(ev for ev in replay_view(server.record, "all", None)["events"] if ev["type"] == "discard")
    for lang in ("zh", "en"):
        pair = page.evaluate("""async ([lang, discard]) => {
            const { setLang } = await import("/static/app/i18n.js");
            const { seatName } = await import("/static/portal/common.js");
            const { TablePage } = await import("/static/app/table.js");
            setLang(lang);  // the replay viewer draws itself again in that language
            const root = document.body.appendChild(document.createElement("div"));
            const table = new TablePage(root, { send: () => true, onLeave() {}, onSettle() {}, onFairness() {},
              presets: {} });
            table.handle({ type: "seated", table: "t", seat: null, rules: "xuezhan", room: null,
              players: [0, 1, 2, 3].map((s) => ({ name: seatName(s), bot: false, auto: false })) });
            table.handle({ type: "events", hand: 0, events: [discard] });
            table.draw();
            const ticker = root.querySelector("#ticker li").textContent;
            table.destroy(); root.remove();
            const listed = [...document.querySelectorAll('[data-testid="events"] li')]
              .map((li) => li.textContent.replace(/^\\d+\\. /, ""));
            return { ticker, listed };
        }""", [lang, discard])
        assert pair["ticker"] in pair["listed"], pair
        assert ("打出" in pair["ticker"]) == (lang == "zh")


WIDER = """() => {
  // every element drawn past the screen's right (or left) edge, however its box scrolls or clips
  const W = document.documentElement.clientWidth;
  return {scrollWidth: document.documentElement.scrollWidth, W, out: [...document.body.querySelectorAll('*')]
    .filter((e) => { const r = e.getBoundingClientRect();
      return r.width && r.height && getComputedStyle(e).visibility !== 'hidden'
        && (r.right > W + 0.5 || r.left < -0.5); })
    .slice(0, 8).map((e) => `${e.tagName.toLowerCase()}.${e.className} ${e.id} "${e.textContent.slice(0, 30)}"`
      + ` [${Math.round(e.getBoundingClientRect().left)}–${Math.round(e.getBoundingClientRect().right)}]`)};
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_portal_page_fits_a_phone_held_upright(server: PortalServer, browser: Any, lang: str) -> None:
    """At 390 px no portal page (nor the verifier) is wider than the screen, nothing in it is drawn past
    its edge (the rules' tables included), and every link of the portal's menu is on the screen."""
    with tab(browser, 390, 844, lang, locale="en-GB") as shown:
        page = shown.page
        page.goto(server.base + "/api/portal/fans")
        page.evaluate("fetch('/api/guest', {method: 'POST'})")
        for path in ("/calc", "/rules", "/guide/exchange", "/replay", f"/replay/{SETTLED}?move=30", "/leaderboard",
                     "/static/verify.html"):
            page.goto(server.base + path)
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(50)
            got = page.evaluate(WIDER)
            assert got["scrollWidth"] <= got["W"] and got["out"] == [], (path, got)
            if path == "/rules":  # a fan's option by what it means, in the page's language (its id after it)
                option = next(o for o in preset_catalog()["options"] if o["name"] == "dihu_on_dealer_discard")
                said = page.text_content('[data-testid="fan-row-dihu"] td:nth-child(4)')
                assert said == f"{option['description_zh' if lang == 'zh' else 'description']} {option['name']}"
                assert page.text_content('[data-testid="option-exchange"] td') == ("开" if lang == "zh" else "on")
