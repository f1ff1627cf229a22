"""The whole table fits the screen, without scrolling either way, at every stage of a hand: the exchange,
play, the opponents' hands laid face up (a win, the end) and after a reload, on a phone held sideways
(844×390), upright (390×844) and on a desktop (1280×800); every tile inside its seat's box (nothing
clipped); the settlement's buttons in one or two rows on a phone held upright."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from chromium import CHROMIUM, CHROMIUM_ARGS
from client_driver import WAIT_MS, Player, live_server
from server_harness import Running

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
if not os.path.exists(CHROMIUM):
    pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

SIZES = {"landscape": (844, 390), "portrait": (390, 844), "desktop": (1280, 800)}
MIN_HAND_TILE = {"desktop": 36, "landscape": 36, "portrait": 22}
"""The narrowest a tile of one's hand may be drawn, in CSS pixels (portrait: 14 tiles across 390 px)."""

OUTSIDE = """() => {
  const W = innerWidth, H = innerHeight, out = [];
  const box = (el) => el.getBoundingClientRect();
  const where = (el) => (el.closest('[data-place]')?.dataset.place || '') + ' ' + el.className;
  // the parts of the table (on a phone held upright the events and hints lie below it, scrolled to)
  // (a claim's call, shown over its seat for a moment, is left out)
  const parts = '.seat, .centre, .table-info, .seat .tile:not(.callout .tile), .actions .btn' + (W < H ? '' : ', .ticker-box');
  for (const el of document.querySelectorAll('#table :is(' + parts + ')')) {
    const r = box(el);
    if (!r.width) continue;
    if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) {
      out.push(`${where(el)} [${Math.round(r.left)},${Math.round(r.top)},${Math.round(r.right)},${Math.round(r.bottom)}]`);
    }
  }
  // nothing clipped: each tile lies within its seat's box
  for (const seat of document.querySelectorAll('#table .seat')) {
    const s = box(seat);
    for (const el of seat.querySelectorAll('.tile:not(.callout .tile)')) {
      const r = box(el);
      if (r.width && (r.left < s.left - 0.5 || r.right > s.right + 0.5 || r.top < s.top - 0.5 || r.bottom > s.bottom + 0.5)) {
        out.push(`clipped: ${where(el)} [${Math.round(r.left)},${Math.round(r.right)}] in [${Math.round(s.left)},${Math.round(s.right)}]`);
      }
    }
  }
  return {outside: out, scrollWidth: document.documentElement.scrollWidth,
          scrollHeight: document.documentElement.scrollHeight, W, H,
          hand: [...document.querySelectorAll('[data-testid=hand] .tile-svg')].map((e) => e.getBoundingClientRect().width)};
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

SEATED = "() => window.chuanmaClient?.table?.view && document.querySelector('[data-testid=hand] .tile')"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with live_server(tmp_path_factory.mktemp("fits"), starting_grant=40_000, turn_seconds=120,
                     claim_seconds=120) as run:  # a reload keeps its turn
        yield run


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


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
    width, height = SIZES[size]
    # without motion: a discard sliding into its river is measured where it comes to rest
    context = browser.new_context(viewport={"width": width, "height": height}, reduced_motion="reduce")
    context.add_init_script("localStorage.setItem('chuanma.muted', '1')")
    page = context.new_page()
    player = Player(page, server.base)
    player.register(f"fit_{size}")
    player.quick_join()
    player.ready()
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
    context.close()
