"""The browser client measured in Chromium: the table page's bytes, its first render, and the longest
frame while a hand plays at bot speed, with what each long frame was made of.

    PYTHONPATH=src:tests python benchmarks/bench_client.py [--hands 3] [--width 1280 --height 800]

A server on SQLite runs in this process (a thread); a person plays by clicking, answering each
prompt as soon as it is drawn, so the page redraws as fast as the bots play. Measured in the page:
- bytes: the transfer size of the table page opened mid-hand with an empty cache (the document, its
  modules and stylesheet; the WebSocket's messages are not counted), from the Resource Timing entries;
- first render: first-contentful-paint of that load, and the time until the table is drawn;
- work: Chromium's totals of the page's main thread while the hands play (tasks, script, style
  recalculations, layouts);
- frames: the player's page is reloaded mid-hand (taking the table back) and then plays; the Long
  Animation Frames (over 50 ms) of the reload are counted apart from those while the hands play.
  For those, the longest gap between animation frames and every Long Animation Frame in parts: its
  tasks and its rendering (animation-frame callbacks, then style, layout and paint), the scripts
  Chromium names (over 5 ms: invoker, function, file, duration, forced style and layout) and the
  server messages that arrived during it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import sync_playwright  # noqa: E402

from chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from client_driver import Player, live_server  # noqa: E402

OBSERVE = """
window.__frames = {longest: 0, last: 0, count: 0, loaf: [], longtasks: [], messages: []};
(function frame(now) {
  const f = window.__frames;
  if (f.last) { f.longest = Math.max(f.longest, now - f.last); f.count++; }
  f.last = now;
  requestAnimationFrame(frame);
})(performance.now());
// a Long Animation Frame in parts: its tasks, then its rendering (the animation-frame callbacks, then
// style, layout and paint), and the scripts Chromium names in it
const part = (e) => {
  const end = e.startTime + e.duration;
  return {at: e.startTime, duration: e.duration, blocking: e.blockingDuration,
    render: e.renderStart ? end - e.renderStart : 0,
    frameCallbacks: e.renderStart && e.styleAndLayoutStart ? e.styleAndLayoutStart - e.renderStart : 0,
    styleLayoutPaint: e.styleAndLayoutStart ? end - e.styleAndLayoutStart : 0,
    scripts: e.scripts.map((s) => ({invoker: s.invoker, fn: s.sourceFunctionName,
      url: s.sourceURL.split('/').pop(), duration: s.duration, forced: s.forcedStyleAndLayoutDuration}))};
};
try { new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__frames.loaf.push(part(e))))
  .observe({type: 'long-animation-frame', buffered: true}); } catch (e) {}
try { new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__frames.longtasks.push(e.duration)))
  .observe({type: 'longtask', buffered: true}); } catch (e) {}
// the type of every server message, with its arrival time (the first 80 characters are enough)
const Socket = window.WebSocket;
window.WebSocket = class extends Socket {
  constructor(...args) {
    super(...args);
    this.addEventListener('message', (ev) => {
      const type = /"type": *"(\\w+)"/.exec(ev.data.slice(0, 80));
      window.__frames.messages.push([performance.now(), type ? type[1] : '?']);
    });
  }
};
"""
RESTART = """() => { const f = window.__frames; f.loaf = []; f.longtasks = []; f.messages = [];
  f.longest = 0; f.count = 0; }"""
PAGE_LOAD = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource').filter((r) => !r.name.includes('/api/'));
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  return {bytes: nav.transferSize + res.reduce((n, r) => n + r.transferSize, 0),
          decoded: nav.decodedBodySize + res.reduce((n, r) => n + r.decodedBodySize, 0),
          files: 1 + res.length, fcp: fcp ? fcp.startTime : null};
}"""


def metrics(cdp: Any) -> dict[str, float]:
    """Chromium's running totals for the page: its tasks, scripts, style recalculations and layouts."""
    return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}


STAKE = 40_000
"""The player's starting chips: mid-range in 初级场 (2,000–100,000), so that three hands' losses or
gains rarely unseat them (a balance out of the room's range closes the table for them)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=800)
    args = parser.parse_args()
    with (tempfile.TemporaryDirectory() as data, live_server(Path(data), starting_grant=STAKE) as run,
          sync_playwright() as pw):
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": args.width, "height": args.height})
        context.add_init_script(OBSERVE)
        page = context.new_page()
        player = Player(page, run.base)
        player.register("bench")
        player.quick_join()
        player.ready()
        player.to_mid_hand(5)
        # the table page loaded mid-hand by a browser with an empty cache (the same session)
        cold = browser.new_context(viewport={"width": args.width, "height": args.height},
                                   storage_state=context.storage_state())
        fresh = cold.new_page()
        fresh.goto(run.base + "/")
        fresh.wait_for_function("() => window.chuanmaClient?.table?.view")
        drawn = fresh.evaluate("() => performance.now()")
        load = fresh.evaluate(PAGE_LOAD)
        cold.close()
        page.reload()  # the player's own page takes the table back
        page.wait_for_function("() => window.chuanmaClient?.table?.view")
        page.wait_for_timeout(500)
        reload = page.evaluate("() => window.__frames.loaf")
        page.evaluate(RESTART)
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable")
        before = metrics(cdp)
        started, cpu = time.perf_counter(), time.process_time()
        player.play_to_settlement()
        for _ in range(args.hands - 1):
            player.next_hand()
            player.play_to_settlement()
        wall = time.perf_counter() - started
        frames = page.evaluate("() => window.__frames")
        work = {k: v - before[k] for k, v in metrics(cdp).items()}
        browser.close()
    print(f"table page: {load['bytes']:,} bytes transferred ({load['decoded']:,} decoded) in {load['files']} files")
    print(f"first contentful paint: {load['fcp']:.0f} ms; table drawn at {drawn:.0f} ms after navigation")
    print(f"{args.hands} hands, {len(player.decisions)} decisions by clicking in {wall:.1f} s "
          f"(driver CPU {time.process_time() - cpu:.1f} s); {frames['count']:,} frames")
    print(f"the page's main thread while they play: tasks {work['TaskDuration'] * 1000:.0f} ms, of which script"
          f" {work['ScriptDuration'] * 1000:.0f} ms, style {work['RecalcStyleDuration'] * 1000:.0f} ms"
          f" ({work['RecalcStyleCount']:.0f} times), layout {work['LayoutDuration'] * 1000:.0f} ms"
          f" ({work['LayoutCount']:.0f} times)")
    loaf = frames["loaf"]
    reloaded = ", ".join(f"{e['duration']:.0f} ms at {e['at']:.0f} ms" for e in reload) or "none"
    print(f"reload mid-hand: {len(reload)} long animation frames (>50 ms) ({reloaded})")
    print(f"while the hands play: longest gap between frames {frames['longest']:.1f} ms; long animation frames"
          f" (>50 ms): {len(loaf)} (longest {max((e['duration'] for e in loaf), default=0):.0f} ms); "
          f"long tasks: {len(frames['longtasks'])} (longest {max(frames['longtasks'], default=0):.0f} ms)")
    for e in loaf:
        print(f"  {e['duration']:.0f} ms at {e['at'] / 1000:.1f} s: tasks {e['duration'] - e['render']:.0f}, rendering"
              f" {e['render']:.0f} (frame callbacks {e['frameCallbacks']:.0f}, style, layout and paint"
              f" {e['styleLayoutPaint']:.0f}); blocking {e['blocking']:.0f}; messages: "
              f"{' '.join(m[1] for m in frames['messages'] if e['at'] <= m[0] < e['at'] + e['duration']) or '-'}")
        for script in e["scripts"]:
            print(f"    script {script['duration']:.0f} ms: {script['invoker']} {script['fn'] or '-'}"
                  f" ({script['url'] or '-'}), forced style and layout {script['forced']:.0f} ms")


if __name__ == "__main__":
    main()
