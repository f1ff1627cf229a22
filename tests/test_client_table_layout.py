"""The table page in Chromium as a mahjong table, at desktop (1280×800), landscape phone (844×390) and
portrait phone (390×844) sizes: each seat at its side of the centre piece, each river between its seat
and the centre, the hand's tiles wide enough to touch, nothing wider than the screen; the motion that
carries information (the latest discard, a claim's call over the claimer, the exchanged tiles marked)
and none of it when the player asks for reduced motion; the whole table on the screen, nothing clipped,
at every stage of a hand; axe-core on every page of the client and the portal."""

from __future__ import annotations

import gzip
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from client_driver import WAIT_MS, Player, live_server, new_player
from server_harness import Running

STATIC = Path(__file__).resolve().parents[1] / "src" / "chuanma" / "static"
SIZES = {"desktop": (1280, 800), "landscape": (844, 390), "portrait": (390, 844)}
MIN_HAND_TILE = {"desktop": 36, "landscape": 36, "portrait": 36}
"""The narrowest a tile of one's hand may be drawn, in CSS pixels (held upright, the hand takes two rows)."""
MIN_RIVER_TILE = {"desktop": 24, "landscape": 18, "portrait": 14}

BOXES = """() => {
  const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height}; };
  const out = {centre: box(document.querySelector('[data-testid=compass]')),
    scrollWidth: document.documentElement.scrollWidth, innerWidth: innerWidth,
    hand: [...document.querySelectorAll('[data-testid=hand] .tile-svg')].map((e) => e.getBoundingClientRect().width)};
  for (const seat of document.querySelectorAll('.seat[data-place]')) {
    const place = seat.dataset.place;
    const river = seat.querySelector('.discards');
    out[place] = {seat: box(seat), river: box(river),
      hand: box(seat.querySelector(place === 'self' ? '[data-testid=hand]' : '.concealed')),
      riverTiles: [...river.querySelectorAll('.tile')].map((e) => {
        const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); })};
  }
  return out;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with live_server(tmp_path_factory.mktemp("layout"), starting_grant=40_000, turn_seconds=120,
                     claim_seconds=120, auto_delay=600) as run:  # a reload keeps its turn
        yield run  # (托管 pauses ten minutes: its bot never answers while a test looks at the table)


def seated(browser: Any, server: Running, name: str, size: str, **context: Any) -> Player:
    player = new_player(browser, server.base, name, *SIZES[size], **context)
    player.quick_join()
    player.ready()
    return player


OUTSIDE = """() => {
  const W = innerWidth, H = innerHeight, out = [];
  const box = (el) => el.getBoundingClientRect();
  const at = (r) => [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
  const where = (el) => (el.closest('[data-place]')?.dataset.place || '') + ' ' + el.className;
  const tiles = '.tile:not(.callout .tile)';  // a claim's call, shown over its seat for a moment, is left out
  // the parts of the table (on a phone held upright the events and hints lie below it, scrolled to)
  const parts = `.seat, .centre, .table-info, .seat ${tiles}, .actions .btn${W < H ? '' : ', .ticker-box'}`;
  for (const el of document.querySelectorAll(`#table :is(${parts})`)) {
    const r = box(el);
    if (r.width && (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5)) {
      out.push(`${where(el)} [${at(r)}]`);
    }
  }
  // nothing clipped: each tile lies within its seat's box
  for (const seat of document.querySelectorAll('#table .seat')) {
    const s = box(seat);
    for (const el of seat.querySelectorAll(tiles)) {
      const r = box(el);
      if (r.width && (r.left < s.left - 0.5 || r.right > s.right + 0.5 || r.top < s.top - 0.5
                      || r.bottom > s.bottom + 0.5)) {
        out.push(`clipped: ${where(el)} [${at(r)}] in [${at(s)}]`);
      }
    }
  }
  return {outside: out, scrollWidth: document.documentElement.scrollWidth,
          scrollHeight: document.documentElement.scrollHeight, W, H,
          hand: [...document.querySelectorAll('[data-testid=hand] .tile-svg')].map((e) => box(e).width)};
}"""

REVEAL = """() => {
  // every opponent's hand laid face up as at the hand's end (血流: won twice): ten concealed tiles, a kong,
  // the win pile and a river of twenty
  const t = window.chuanmaClient.table;
  const players = t.view.players.map((p, s) => s === t.seat ? p : {...p, hand: '1m2m3m4m5m6m7m8m9m1p',
    tiles: 10, won: true, win_pile: '2p3p', discards: '1s2s3s4s5s6s7s8s9s1s2s3s4s5s6s7s8s9s1m2m',
    melds: [{kind: 'kong', kong: 'exposed', tile: '8p'}]});
  t.view = {...t.view, players};
  t.render();
}"""

MELDS = """(finished) => {
  // one's own hand at its widest: fourteen concealed tiles and four melds, two of them kongs (one concealed,
  // face down in play and face up once the hand is over)
  const t = window.chuanmaClient.table;
  const players = t.view.players.map((p, s) => s !== t.seat ? p : {...p, hand: '1m1m2m3m4m5m5m6m7m8m9m9m1p2p',
    tiles: 14, melds: [{kind: 'kong', kong: 'concealed', tile: '3p'}, {kind: 'kong', kong: 'exposed', tile: '8p'},
                       {kind: 'pong', tile: '6s'}, {kind: 'pong', tile: '9s'}]});
  t.view = {...t.view, players, finished};
  t.render();
}"""

MEET = """  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;"""
"""A script's line: whether two boxes overlap."""

BADGES = """() => {
  // every mark a seat can wear at once: dealer, bot, 托管, void (its longest suit name), won (twice), locked
  const t = window.chuanmaClient.table;
  t.view = {...t.view, dealer: (t.seat + 1) % 4, players: t.view.players.map((p) => ({...p, void: 'm', won: true,
    win_pile: p.win_pile || '2p3p', locked: true}))};
  t.auto = [true, true, true, true];
  t.render();
}"""

BADGE_BOXES = """() => {
  const W = innerWidth, H = innerHeight, out = [];
  const at = (r) => [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
  for (const seat of document.querySelectorAll('#table .seat')) {
    const s = seat.getBoundingClientRect();
    for (const el of seat.querySelectorAll('.seat-head > *')) {
      const r = el.getBoundingClientRect();
      if (!r.width || getComputedStyle(el).display === 'none') continue;
      if (r.left < Math.max(0, s.left) - 0.5 || r.right > Math.min(W, s.right) + 0.5
          || r.top < -0.5 || r.bottom > H + 0.5
          || r.top < s.top - 0.5 || r.bottom > s.bottom + 0.5
          || (el.matches('.badge') && el.scrollWidth > el.clientWidth + 1)) {  // (a long name ends in …)
        out.push(`${seat.dataset.place} ${el.textContent.trim()} [${at(r)}] in [${at(s)}]`);
      }
    }
  }
  return out;
}"""

CLAIM = """() => {
  // a claim question on the longest name there is: the call of the seat across, over one's own head
  const t = window.chuanmaClient.table;
  const from = (t.seat + 2) % 4;
  t.players = t.players.map((p, s) => s === from ? {...p, name: 'bot_42b_longest_name'} : p);
  t.view = {...t.view, dealer: t.seat, claim: {from, tile: '7m'}};
  t.prompt = {...t.prompt, legal: [{hu: null}, {kong: '7m'}, {pong: '7m'}, {pass: null}]};
  t.render();
}"""

OVERLAPS = """() => {
  const boxes = (sel) => [...document.querySelectorAll(sel)].map((e) => e.getBoundingClientRect())
    .filter((r) => r.width);
""" + MEET + """
  const head = boxes('.seat-self .seat-head > *'), acts = boxes('.seat-self .actions > *');
  return head.flatMap((h) => acts.filter((a) => meet(h, a))
    .map((a) => [h, a].map((r) => [r.left, r.top, r.right, r.bottom])));
}"""

RIVER_LINES = """() => {
  const lines = (place, side) => new Set([...document.querySelectorAll(`.seat-${place} .discards .tile`)]
    .map((e) => Math.round(e.getBoundingClientRect()[side]))).size;
  return {across: lines('across', 'top'), left: lines('left', 'left'), right: lines('right', 'left')};
}"""

BUTTONS = """() => {
  const bar = document.querySelector('[data-testid=settle-buttons]');
  const items = [...bar.children].map((e) => e.getBoundingClientRect());
  return {rows: [...new Set(items.map((r) => Math.round(r.top)))], spans: items.map((r) => [r.left, r.right]),
          height: bar.getBoundingClientRect().height};
}"""

SEATED = "() => window.chuanmaClient?.table?.view && document.querySelector('[data-testid=hand] .tile')"


def to_rivers(player: Player, tiles: int, limit: int = 200) -> None:
    """Play on until a decision is pending with at least ``tiles`` tiles in the rivers."""
    for _ in range(limit):
        player.to_mid_hand(1)
        if player.page.evaluate("() => document.querySelectorAll('.discards .tile').length") >= tiles:
            return
    raise AssertionError(f"the rivers never held {tiles} tiles in {limit} decisions")


def check_fits(page: Any, size: str, stage: str) -> None:
    page.wait_for_timeout(50)  # a frame for the drawing
    got = page.evaluate(OUTSIDE)
    assert not got["outside"], (stage, got["outside"][:8])
    assert got["scrollWidth"] <= got["W"], (stage, got)
    if size != "portrait":  # held upright, the events and hints lie below the table
        assert got["scrollHeight"] <= got["H"], (stage, got["scrollHeight"], got["H"])
    assert got["hand"] and min(got["hand"]) >= MIN_HAND_TILE[size], (stage, got["hand"])


@pytest.mark.parametrize("size", list(SIZES))
def test_the_whole_table_fits_the_screen_at_every_stage(browser: Any, server: Running, size: str) -> None:
    """Every part of the table on the screen without scrolling (held upright, the events and hints may lie
    below), nothing clipped, in the exchange, in play, after a reload and with the opponents' hands laid
    face up; on a phone, the settlement's buttons in one row or two."""
    # without motion: a discard sliding into its river is measured where it comes to rest
    player = seated(browser, server, f"fit_{size}", size, reduced_motion="reduce")
    page = player.page
    page.wait_for_selector("[data-act=exchange]", timeout=WAIT_MS)
    check_fits(page, size, "exchange")
    to_rivers(player, 12)
    check_fits(page, size, "play")
    page.reload()
    page.wait_for_function(SEATED, timeout=WAIT_MS)
    check_fits(page, size, "reload")
    page.evaluate(REVEAL)
    page.wait_for_function("() => document.querySelectorAll('.concealed.revealed').length === 3")
    check_fits(page, size, "revealed")
    for finished in (False, True):  # one's own hand at its widest, in play and at the hand's end
        page.evaluate(MELDS, finished)
        page.wait_for_function("() => document.querySelectorAll('.seat-self .meld').length === 4")
        check_fits(page, size, f"four melds{' (finished)' if finished else ''}")
    # a river of twenty keeps three rows (the third runs on past six), across and at the sides
    assert page.evaluate(RIVER_LINES) == {"across": 3, "left": 3, "right": 3}
    # every seat's marks within the screen and their seat, in both languages
    page.evaluate(BADGES)
    for lang in ("zh", "en"):
        if page.evaluate("() => document.documentElement.lang.slice(0, 2)") != lang:
            page.click(".lang-switch")
            page.wait_for_function(f"() => document.documentElement.lang.startsWith('{lang}')")
        page.wait_for_function("() => document.querySelectorAll('.badge-void').length === 4")
        page.wait_for_timeout(50)
        assert page.evaluate(BADGE_BOXES) == [], (lang, page.evaluate(BADGE_BOXES))
    page.reload()  # the hand as it is, for playing on
    page.wait_for_function(SEATED, timeout=WAIT_MS)
    if size != "desktop":  # the settlement's buttons: one compact row, two at most
        player.play_to_settlement()
        page.wait_for_selector("[data-testid=settle-buttons] [data-testid=verify]", timeout=WAIT_MS)
        bar = page.evaluate(BUTTONS)
        assert len(bar["rows"]) <= 2 and bar["height"] <= 100, bar
        assert all(left >= 0 and right <= SIZES[size][0] for left, right in bar["spans"]), bar
    page.context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_table_is_laid_out_as_one_sits_at_it(browser: Any, server: Running, size: str) -> None:
    player = seated(browser, server, f"lay_{size}", size)
    page = player.page
    to_rivers(player, 8)  # (a hand that ended early is followed by the next, with no river yet)
    boxes = page.evaluate(BOXES)
    assert boxes["scrollWidth"] <= boxes["innerWidth"], boxes  # no horizontal scrolling
    centre = boxes["centre"]
    across, left, right, own = boxes["across"], boxes["left"], boxes["right"], boxes["self"]
    for place in ("across", "left", "right", "self"):  # every seat on the screen
        seat = boxes[place]["seat"]
        assert seat["width"] > 0 and seat["left"] >= 0 and seat["right"] <= boxes["innerWidth"], (place, seat)
    # 对家 above the centre, 上家 left of it, 下家 right of it, oneself below
    assert across["hand"]["bottom"] <= centre["top"] and own["hand"]["top"] >= centre["bottom"]
    assert left["hand"]["right"] <= centre["left"] and right["hand"]["left"] >= centre["right"]
    assert left["seat"]["right"] <= right["seat"]["left"] and across["seat"]["bottom"] <= own["seat"]["top"]
    # each river lies between its seat's hand and the centre
    assert across["hand"]["bottom"] <= across["river"]["top"] and across["river"]["bottom"] <= centre["top"]
    assert own["river"]["bottom"] <= own["hand"]["top"] and own["river"]["top"] >= centre["bottom"]
    assert left["hand"]["right"] <= left["river"]["left"] and left["river"]["right"] <= centre["left"]
    assert right["river"]["right"] <= right["hand"]["left"] and right["river"]["left"] >= centre["right"]
    # the side seats' concealed tiles stand in a column (seen from their side), the one across in a row
    assert left["hand"]["height"] > left["hand"]["width"] and across["hand"]["width"] > across["hand"]["height"]
    # tiles one can touch and read
    assert boxes["hand"] and min(boxes["hand"]) >= MIN_HAND_TILE[size], boxes["hand"]
    river = [w for place in ("across", "left", "right", "self") for w in boxes[place]["riverTiles"]]
    assert river and min(river) >= MIN_RIVER_TILE[size], river
    # a claim question with every answer, on a long name: clear of one's own name and marks
    page.evaluate(CLAIM)
    page.wait_for_selector("[data-testid=act-pass]")
    # as one sits at the table: at the top of the page (the driver's clicks scroll a button that
    # lies a few pixels below a phone's fold into view, and the page stays scrolled)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_timeout(50)
    assert page.evaluate(OVERLAPS) == []
    assert page.evaluate(OUTSIDE)["outside"] == []
    page.context.close()


AUTO_SHOWN = """() => {
  const box = (el) => el.getBoundingClientRect();
""" + MEET + """
  const status = document.querySelector('[data-testid=auto-status]');
  const stop = document.querySelector('.actions [data-act=auto]');
  const mine = [status, stop].map(box);
  // what 托管's notice must leave in view: the top bar's name and balance, every seat's name and marks,
  // one's own tiles
  const kept = [...document.querySelectorAll('#topbar-balance, .seat-head > *, [data-testid=hand] .tile')];
  return {text: status.textContent, stop: stop.textContent,
    hidden: kept.filter((el) => mine.some((m) => meet(m, box(el)))).map((el) => el.textContent.trim() || el.className),
    outside: mine.filter((r) => r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight).length,
    prompt: document.querySelectorAll('.actions .prompt-text:not(.auto-status *)').length,
    usable: document.querySelectorAll('[data-testid=hand] button.tile:not([disabled])').length,
    dim: document.querySelectorAll('[data-testid=hand] .dim').length,
    timer: !!document.querySelector('.timer-wrap:not([hidden])')};
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_auto_play_takes_the_question_away_and_says_so_where_it_was(browser: Any, server: Running, size: str) -> None:
    """托管 turned on while one's question is asked: the question goes (no "your turn", no timer, no tile to
    play: the bot answers it, after its pause), and the question's place says that the bot plays and whose
    turn it is, with the button that stops it; it hides nothing one needs. Turned off, the same question
    comes back."""
    player = seated(browser, server, f"auto_{size}", size)
    page = player.page
    player.to_mid_hand(4)
    version = player.prompt_version()
    page.click(".table-info [data-act=auto]")
    page.wait_for_selector("[data-testid=auto-status]", timeout=WAIT_MS)
    page.wait_for_timeout(50)
    shown = page.evaluate(AUTO_SHOWN)
    assert shown["prompt"] == shown["usable"] == shown["dim"] == 0 and not shown["timer"], shown
    # that the bot plays, and that the turn is one's own (the bot deciding), and the way back
    assert re.search(r"托管中.*机器人正替你决定|Auto-play on.*the bot is deciding for you", shown["text"], re.S), shown
    assert shown["stop"].strip() in ("取消托管", "Stop auto-play"), shown
    assert shown["hidden"] == [] and shown["outside"] == 0, shown
    assert page.evaluate("() => window.chuanmaClient.table.prompt") is None
    page.click(".actions [data-act=auto]")
    page.wait_for_function("v => window.chuanmaClient.table.prompt?.version === v", arg=version, timeout=WAIT_MS)
    page.wait_for_selector("[data-testid=auto-status]", state="detached")
    assert page.locator("[data-testid=hand] button.tile:not([disabled]), [data-testid^=act-]").count()
    page.context.close()


@pytest.fixture
def short_turn(tmp_path: Path) -> Iterator[Running]:
    """A server whose questions time out in 3 s, and whose 托管 then pauses ten minutes before each
    next decision (the one that timed out is answered at once)."""
    with live_server(tmp_path, starting_grant=40_000, turn_seconds=3, claim_seconds=3, auto_delay=600) as run:
        yield run


def test_a_question_left_to_time_out_leaves_no_stale_prompt_or_timer(browser: Any, short_turn: Running) -> None:
    """The exchange left unanswered: the server puts the seat on 托管, and the table shows that (and the
    bot deciding), with no question, no timer run down to zero and no tile to play."""
    player = seated(browser, short_turn, "late", "landscape")
    page = player.page
    page.wait_for_selector("[data-act=exchange]", timeout=WAIT_MS)
    page.wait_for_selector("[data-testid=auto-status]", timeout=WAIT_MS)
    page.wait_for_timeout(50)
    shown = page.evaluate(AUTO_SHOWN)
    assert shown["prompt"] == shown["usable"] == shown["dim"] == 0 and not shown["timer"], shown
    assert page.locator("[data-act=exchange]").count() == 0
    page.context.close()


CALL = """([seat, tile, type]) => { const t = window.chuanmaClient.table;
  t.handle({type: 'events', hand: t.hand,
            events: [{seq: t.lastSeq + 1, type, kind: 'exposed', seat, tile, from: (seat + 1) % 4}]});
  t.render(); }"""
CALLED = """([seat, tile, type]) => new Promise((resolve) => {
  (""" + CALL + """)([seat, tile, type]);
  const look = () => {
    const call = document.querySelector(`[data-region='call-${seat}'] .callout-${type}`);
    if (!call) { requestAnimationFrame(look); return; }
    const box = (el) => { const r = el.getBoundingClientRect();
      return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
    const whole = box(call);  // its largest: the box it takes at any moment of its pop
    for (const run of call.getAnimations()) {
      const end = run.effect.getComputedTiming().endTime;
      run.pause();
      for (let at = 0; at <= end; at += end / 50) {
        run.currentTime = at;
        const r = box(call);
        Object.assign(whole, {left: Math.min(whole.left, r.left), right: Math.max(whole.right, r.right),
                              top: Math.min(whole.top, r.top), bottom: Math.max(whole.bottom, r.bottom)});
      }
      run.play();
    }
    const clips = [];  // the boxes that clip the call: an ancestor's overflow other than visible, or paint containment
    for (let el = call.parentElement; el; el = el.parentElement) {
      const style = getComputedStyle(el);
      const paint = /paint|strict|content/.test(style.contain);
      const x = paint || style.overflowX !== 'visible', y = paint || style.overflowY !== 'visible';
      if (x || y) clips.push({...box(el), x, y, what: el.className || el.tagName});
    }
    resolve({text: call.textContent, seat: box(document.querySelector(`.seat[data-seat='${seat}']`)), call: box(call),
             whole, animation: getComputedStyle(call).animationName, clips, W: innerWidth, H: innerHeight});
  };
  look(); })"""
"""A claim (``pong`` or ``kong``) called over ``seat`` (:data:`CALL`), and the call as drawn: its text, its
box and its seat's, the box it takes at its largest as it pops up (``whole``), its animation, the boxes that
would clip it, the viewport (read in the frame that draws it, however busy the machine: it stays 1.6 s)."""
ARRIVE = """() => { const t = window.chuanmaClient.table; const tiles = t.handTiles().tiles.slice(0, 3).join('');
  t.handle({type: 'events', hand: t.hand, events: [{seq: t.lastSeq + 1, type: 'exchange_received', seat: t.seat,
    tiles, from: (t.seat + 2) % 4}]}); t.render(); return tiles; }"""
ANIMATION = "(el) => getComputedStyle(el).animationName"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice", "experimental"]
"""axe-core's rules run: WCAG 2.0–2.2 A and AA, its best practices and its experimental rules (among them
the accessible name that must contain a control's visible text)."""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_calls_discards_and_the_exchange_are_shown_and_move_only_when_motion_is_welcome(
        browser: Any, server: Running, motion: str) -> None:
    player = seated(browser, server, f"motion_{motion.replace('-', '_')}", "landscape", reduced_motion=motion)
    page = player.page
    player.to_mid_hand(4)
    for _ in range(40):  # on to a decision taken while a discard lies in a river (not a claimed one)
        if page.locator(".discards .tile.latest").count():
            break
        player.to_mid_hand(1)
    # the latest discard is marked in its river, and slides there unless motion is reduced
    latest = page.locator(".discards .tile.latest").first
    assert (latest.evaluate(ANIMATION) == "none") == (motion == "reduce")
    # a claim is called over the claimer's seat (here 对家's), then the call goes
    across = page.evaluate("() => (window.chuanmaClient.table.seat + 2) % 4")
    shown = page.evaluate(CALLED, [across, "5p", "pong"])  # read in the frame that draws it: it stays 1.6 s only
    assert "碰" in shown["text"] or "Pong" in shown["text"]
    seat_box, call_box = shown["seat"], shown["call"]
    assert seat_box["top"] <= (call_box["top"] + call_box["bottom"]) / 2 <= seat_box["bottom"], shown
    assert (shown["animation"] == "none") == (motion == "reduce")
    page.locator(f"[data-region='call-{across}'] .callout").wait_for(state="detached", timeout=WAIT_MS)
    # the three tiles the exchange brought are marked in the hand, and named so
    tiles = page.evaluate(ARRIVE)
    marked = page.locator("[data-testid=hand] .tile.arrived")
    marked.first.wait_for(timeout=WAIT_MS)
    shown = marked.evaluate_all("els => els.map((e) => e.dataset.tile)")
    assert sorted(shown) == sorted(tiles[i:i + 2] for i in (0, 2, 4))
    assert all("换来" in label or "exchange" in label for label in marked.evaluate_all(
        "els => els.map((e) => e.getAttribute('aria-label'))"))
    page.context.close()


@pytest.mark.parametrize("size", ["landscape", "portrait"])
def test_a_call_over_any_seat_is_drawn_whole_on_a_phone(browser: Any, server: Running, size: str) -> None:
    """A pong and a kong called over each seat, at their largest as they pop up: the whole call lies on the
    screen, over its seat, and no box that clips (an overflow, paint containment) cuts it."""
    player = seated(browser, server, f"calls_{size}", size)
    page = player.page
    player.to_mid_hand(2)
    for seat, kind in ((seat, kind) for seat in range(4) for kind in ("pong", "kong")):
        shown = page.evaluate(CALLED, [seat, "5p", kind])
        call, whole = shown["call"], shown["whole"]
        assert shown["animation"] != "none" and whole["right"] - whole["left"] > call["right"] - call["left"], shown
        screen = {"left": 0, "top": 0, "right": shown["W"], "bottom": shown["H"], "x": True, "y": True}
        for clip in [screen, *shown["clips"]]:
            if clip["x"]:
                assert clip["left"] - 0.5 <= whole["left"] and whole["right"] <= clip["right"] + 0.5, (clip, shown)
            if clip["y"]:
                assert clip["top"] - 0.5 <= whole["top"] and whole["bottom"] <= clip["bottom"] + 0.5, (clip, shown)
        over = shown["seat"]
        assert over["top"] <= (call["top"] + call["bottom"]) / 2 <= over["bottom"], (seat, shown)
        assert call["left"] < over["right"] and over["left"] < call["right"], (seat, shown)
    page.context.close()


def serious(page: Any) -> list[str]:
    axe = pytest.importorskip("axe_playwright_python.sync_playwright")
    results = axe.Axe().run(page, options={"runOnly": {"type": "tag", "values": AXE_TAGS}})
    return [f"{v['id']}: {v['help']} ({[n['target'][0] for n in v['nodes']][:6]})"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


def test_every_page_of_the_client_and_portal_has_no_serious_accessibility_violation(browser: Any,
                                                                                      server: Running) -> None:
    pytest.importorskip("axe_playwright_python.sync_playwright")
    player = seated(browser, server, "axel", "desktop")
    page = player.page
    found: dict[str, list[str]] = {}
    player.to_mid_hand(4)
    found["table"] = serious(page)
    player.play_to_settlement()
    page.wait_for_selector("[data-testid=verify][data-ready='1']", timeout=WAIT_MS)
    found["settlement"] = serious(page)
    verify = page.locator("[data-testid=verify]").get_attribute("href")
    hand = page.evaluate("() => window.chuanmaClient.table.handEnd.hand_id")
    page.click("[data-settle=lobby]")
    page.wait_for_selector("[data-join]")
    found["lobby"] = serious(page)
    for path in (verify, "/static/verify.html", "/calc", "/rules", "/guide", "/replay", f"/replay/{hand}?move=20"):
        page.goto(server.base + path)
        page.wait_for_load_state("networkidle")
        if path.startswith("/static/verify.html#"):
            page.wait_for_selector("#verdict[data-ok]", timeout=WAIT_MS)
        found[path.split("#")[0] + ("#record" if "#" in path else "")] = serious(page)
    bad = {where: found for where, found in found.items() if found}
    assert not bad, "\n".join(f"{where}: {found}" for where, found in bad.items())
    page.context.close()


@pytest.mark.parametrize("path", ["/static/app/table.js", "/static/app/style.css"])
def test_pages_are_sent_compressed(server: Running, path: str) -> None:
    request = urllib.request.Request(server.base + path, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request) as response:
        assert response.headers["Content-Encoding"] == "gzip"
        body = gzip.decompress(response.read())
    assert body == (STATIC / path.removeprefix("/static/")).read_bytes()
