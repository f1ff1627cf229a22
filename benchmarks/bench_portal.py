"""The portal's costs: the server's CPU per replay and per calculation, and what a page weighs.

Run: ``PYTHONPATH=src:tests python benchmarks/bench_portal.py [--hands N]``.

1. CPU time (``time.process_time``) of ``replay_view`` — a whole replay of the record to the move
   asked for and the view there — for the first, middle and last move of ``N`` greedy-bot hands of
   血战, for one seat and for all hands open; and of ``calculate`` on a hand.
2. In Chromium against a live server (SQLite, one stored hand), each page in a fresh context (a
   cold cache): the bytes it loads by kind (the page, ``script`` modules and styles as ``link``
   and ``other``, ``fetch`` for the JSON; no fonts or images are loaded), and the time from
   navigation to its first result (the calculator's prompt, the replay's board, the tables).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from chuanma.portal.calculator import calculate  # noqa: E402
from chuanma.portal.replays import replay_view  # noqa: E402
from portal_harness import SETTLED, finished_record, portal_server  # noqa: E402

CALC = {"hand": "5556667m", "win_tile": "7m", "self_drawn": True, "melds": ["kong:1m:concealed", "pong:3m"],
        "situations": ["kong_replacement"], "rules": "portal-xuezhan"}


def cpu_ms(fn: Callable[[], Any], repeat: int = 20) -> float:
    """The median CPU time of ``fn`` in ms."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def server_side(hands: int) -> None:
    records = [finished_record(seed=seed) for seed in range(1, hands + 1)]
    for viewer in (1, "all"):
        for where in ("first", "middle", "last"):
            ms = []
            for record in records:
                moves = replay_view(record, viewer, None)["moves"]
                move = {"first": 0, "middle": moves // 2, "last": moves}[where]
                ms.append(cpu_ms(lambda r=record, m=move, v=viewer: replay_view(r, v, m), 5))
            print(f"replay_view seat={viewer!s:>3} {where:>6} move: median {statistics.median(ms):6.2f} ms CPU "
                  f"(max {max(ms):.2f}) over {hands} hands")
    print(f"calculate (portal-xuezhan, 5 fans, capped): {cpu_ms(lambda: calculate(CALC), 50):.3f} ms CPU")


def browser_side() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as data, portal_server(Path(data)) as srv, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        pages = (("/calc", '[data-testid="need"]'), (f"/replay/{SETTLED}?move=30", '[data-testid="board"]'),
                 ("/rules", '[data-testid="fan-row-gen"]'),
                 ("/guide/call_transfer", '[data-testid="examples"] section'))
        for path, ready in pages:
            context = browser.new_context()  # a cold cache for every page
            page = context.new_page()
            page.goto(srv.base + "/healthz")
            page.evaluate("fetch('/api/guest', {method: 'POST'})")
            start = time.perf_counter()
            page.goto(srv.base + path, wait_until="commit")
            page.wait_for_selector(ready)
            shown = (time.perf_counter() - start) * 1000
            page.wait_for_load_state("networkidle")
            entries = page.evaluate("""() => [...performance.getEntriesByType('navigation'),
                ...performance.getEntriesByType('resource')].map(e => [e.initiatorType, e.encodedBodySize])""")
            context.close()
            sizes: dict[str, int] = {}
            for kind, size in entries:
                sizes[kind] = sizes.get(kind, 0) + size
            total = sum(sizes.values()) / 1024
            parts = ", ".join(f"{k} {v / 1024:.1f}" for k, v in sorted(sizes.items()))
            print(f"{path.split('?')[0][:20]:<20} {total:6.1f} KB ({parts}); first result after {shown:5.0f} ms")
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=10)
    args = parser.parse_args()
    server_side(args.hands)
    browser_side()


if __name__ == "__main__":
    main()
