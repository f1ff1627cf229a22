"""The browser client measured in Chromium: the table page's bytes, its first render, and the longest
frame while a hand plays at bot speed.

    PYTHONPATH=src:tests python benchmarks/bench_client.py [--hands 3] [--width 1280 --height 800]

A server on SQLite runs in this process (a thread); a person plays by clicking, answering each
prompt as soon as it is drawn, so the page redraws as fast as the bots play. Measured in the page:
- bytes: the transfer size of the table page opened mid-hand with an empty cache (the document, its
  modules and stylesheet; the WebSocket's messages are not counted), from the Resource Timing entries;
- first render: first-contentful-paint of that load, and the time until the table is drawn;
- frames: the longest gap between animation frames while the hands play, and the Long Animation
  Frames (over 50 ms) Chromium reports with their longest.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import sync_playwright  # noqa: E402

from client_driver import CHROMIUM, CHROMIUM_ARGS, Player, live_server  # noqa: E402

OBSERVE = """
window.__frames = {longest: 0, last: 0, count: 0, loaf: [], longtasks: []};
(function frame(now) {
  const f = window.__frames;
  if (f.last) { f.longest = Math.max(f.longest, now - f.last); f.count++; }
  f.last = now;
  requestAnimationFrame(frame);
})(performance.now());
try { new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__frames.loaf.push(e.duration)))
  .observe({type: 'long-animation-frame', buffered: true}); } catch (e) {}
try { new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__frames.longtasks.push(e.duration)))
  .observe({type: 'longtask', buffered: true}); } catch (e) {}
"""
PAGE_LOAD = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource').filter((r) => !r.name.includes('/api/'));
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  return {bytes: nav.transferSize + res.reduce((n, r) => n + r.transferSize, 0),
          decoded: nav.decodedBodySize + res.reduce((n, r) => n + r.decodedBodySize, 0),
          files: 1 + res.length, fcp: fcp ? fcp.startTime : null};
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=800)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data, live_server(Path(data)) as run, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": args.width, "height": args.height})
        context.add_init_script(OBSERVE)
        page = context.new_page()
        player = Player(page, run.base)
        player.register("bench")
        player.quick_join()
        player.ready()
        for _ in range(5):
            player.step()
        # the table page loaded mid-hand by a browser with an empty cache (the same session)
        cold = browser.new_context(viewport={"width": args.width, "height": args.height},
                                   storage_state=context.storage_state())
        fresh = cold.new_page()
        fresh.goto(run.base + "/")
        fresh.wait_for_function("() => window.chuanmaClient.table && window.chuanmaClient.table.view")
        drawn = fresh.evaluate("() => performance.now()")
        load = fresh.evaluate(PAGE_LOAD)
        cold.close()
        page.reload()  # the player's own page takes the table back
        page.wait_for_function("() => window.chuanmaClient.table && window.chuanmaClient.table.view")
        started, cpu = time.perf_counter(), time.process_time()
        player.play_to_settlement()
        for _ in range(args.hands - 1):
            player.next_hand()
            player.play_to_settlement()
        wall = time.perf_counter() - started
        frames = page.evaluate("() => window.__frames")
        browser.close()
    print(f"table page: {load['bytes']:,} bytes transferred ({load['decoded']:,} decoded) in {load['files']} files")
    print(f"first contentful paint: {load['fcp']:.0f} ms; table drawn at {drawn:.0f} ms after navigation")
    print(f"{args.hands} hands, {len(player.decisions)} decisions by clicking in {wall:.1f} s "
          f"(driver CPU {time.process_time() - cpu:.1f} s); {frames['count']:,} frames")
    print(f"longest gap between frames: {frames['longest']:.1f} ms; long animation frames (>50 ms): "
          f"{len(frames['loaf'])} (longest {max(frames['loaf'], default=0):.0f} ms); "
          f"long tasks: {len(frames['longtasks'])} (longest {max(frames['longtasks'], default=0):.0f} ms)")


if __name__ == "__main__":
    main()
