"""Hand analysis speed against the ``mahjong`` package, measured in one process on the same hands.

Run: ``python benchmarks/bench_analysis.py`` (``--hands``, ``--batch``, ``--seed``, ``--repeat``).
Prints µs per call for both libraries and the ratio, then the batch API's hands per second on
one core. chuanma's functions are timed on their native input (counts as ``bytes``, made once
per hand by ``pack_counts``, as ``mahjong`` is given its 34-count lists) and on plain lists.

``--against REV`` instead measures this checkout's analysis against another revision's, in fresh
processes alternating between the two sides (``--rounds`` of each), CPU time per call
(``time.process_time``): shanten, waits and the win check on the same random hands of the 108
tiles, and a bot's look-ahead (``HandEval``: every discard of a 14-tile hand and its useful
tiles); then shanten on hands of the 136 tiles, the batch functions per hand (arrays of the
same hands), and on complete hands of two suits (as lists) their decompositions and the scoring of
the win (``score_hand``, 血战到底, self-drawn), and 查大叫 of those hands a tile short
(``max_static_fan``, the void a suit they lack). Prints the median of each side, their ratio and
the calls per CPU second of each.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # the batch figure is for one core
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from mahjong.agari import Agari
from mahjong.shanten import Shanten

from chuanma.analysis import is_win, is_win_batch, pack_counts, shanten, shanten_batch, waits
from chuanma.tiles import ALL_TILES, SICHUAN_TILES, to_counts

TARGETS = {"shanten": 25.0, "waits": 15.0, "win check": 5.0}
BATCH_TARGET = 5_000_000


def random_hands(n: int, seed: int, honours: bool = False) -> list[list[int]]:
    """``n`` hands of 34 counts, alternately 13 and 14 tiles drawn from the 108 tiles (or the 136)."""
    rng = random.Random(seed)
    wall = (ALL_TILES if honours else SICHUAN_TILES).wall()
    return [to_counts(rng.sample(wall, 13 + i % 2)) for i in range(n)]


def winning_hands(n: int, seed: int) -> list[list[int]]:
    """``n`` complete 14-tile hands of two suits (a pair and four sets; 34 counts), tiles at most four each."""
    rng = random.Random(seed)
    found: list[list[int]] = []
    while len(found) < n:
        suits = rng.sample(range(3), 2)
        counts = [0] * 34
        counts[9 * rng.choice(suits) + rng.randrange(9)] += 2
        for _ in range(4):
            lo = 9 * rng.choice(suits)
            if rng.random() < 0.6:
                t = lo + rng.randrange(7)
                for u in (t, t + 1, t + 2):
                    counts[u] += 1
            else:
                counts[lo + rng.randrange(9)] += 3
        if max(counts) <= 4:
            found.append(counts)
    return found


def child(hands_n: int, seed: int, repeat: int) -> None:
    """One side of ``--against``: print the CPU µs per call of each measured job as JSON."""
    from chuanma.analysis import decompositions
    from chuanma.analysis.incremental import HandEval
    from chuanma.rules import RuleSet
    from chuanma.scoring import max_static_fan, score_hand

    hands = random_hands(hands_n, seed)
    packed = [pack_counts(h) for h in hands]
    packed13 = [p for p, h in zip(packed, hands, strict=True) if sum(h) == 13]
    packed14 = [p for p, h in zip(packed, hands, strict=True) if sum(h) == 14]
    fourteen = [h[:27] for h in hands if sum(h) == 14]
    honours = [pack_counts(h) for h in random_hands(hands_n, seed, honours=True)]

    # the compiled core's evaluator knows its hand; the Python one (revisions before it) was given it again
    native = importlib.util.find_spec("chuanma._core") is not None

    def look_ahead(counts: list[int]) -> None:
        ev = HandEval(counts, None)
        for t in range(27):
            if counts[t]:
                ev.useful_tiles(t, ev.without(t)) if native else ev.useful_tiles(counts, t, ev.without(t))

    batch = np.array([h for h in hands for _ in range(10)], np.uint8)  # the batch functions, per hand
    batch14 = np.array([h for h in hands if sum(h) == 14 for _ in range(20)], np.uint8)

    wins = winning_hands(hands_n // 4, seed)
    rules = RuleSet.from_preset("xuezhan")
    scored = [([t for t, c in enumerate(h) for _ in range(c)], next(t for t, c in enumerate(h) if c)) for h in wins]
    for tiles, win in scored:
        tiles.remove(win)

    def score(hand: tuple[list[int], int]) -> None:
        score_hand(rules, hand[0], [], hand[1], self_drawn=True)

    # the same hands less their win tile, the void a suit they lack: ready hands for 查大叫
    ready = [(tiles, "mps"[next(s for s in range(3) if not any(t // 9 == s for t in tiles))]) for tiles, _ in scored]

    def static(hand: tuple[list[int], str]) -> None:
        max_static_fan(rules, hand[0], [], hand[1])

    HandEval(fourteen[0], None)  # the tables load outside the timings
    out = {
        "shanten": per_call(shanten, packed, repeat, time.process_time),
        "waits": per_call(waits, packed13, repeat, time.process_time),
        "win check": per_call(is_win, packed14, repeat, time.process_time),
        "look-ahead (per hand)": per_call(look_ahead, fourteen, 1, time.process_time),
        "shanten, 136-tile hands": per_call(shanten, honours, repeat, time.process_time),
        "shanten_batch (per hand)": per_call(shanten_batch, [batch], repeat, time.process_time) / len(batch),
        "is_win_batch (per hand)": per_call(is_win_batch, [batch14], repeat, time.process_time) / len(batch14),
        "decompositions (a win)": per_call(decompositions, wins, repeat, time.process_time),
        "score_hand (a win)": per_call(score, scored, repeat, time.process_time),
        "max_static_fan (ready)": per_call(static, ready, repeat, time.process_time),
    }
    print(json.dumps(out))


def against(revision: str, hands_n: int, seed: int, repeat: int, rounds: int) -> None:
    """This checkout's analysis against ``revision``'s, alternating fresh processes."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_revisions import ROOT, checkout, source_env

    args = ["--child", "--hands", str(hands_n), "--seed", str(seed), "--repeat", str(repeat)]
    figures: dict[str, list[dict[str, float]]] = {"this checkout": [], revision: []}
    with checkout(revision) as other:
        sides = [("this checkout", ROOT / "src"), (revision, other)]
        for r in range(rounds):
            for side, src in sides if r % 2 == 0 else sides[::-1]:
                out = subprocess.run([sys.executable, __file__, *args], env=source_env(src),
                                     capture_output=True, text=True, check=True)
                figures[side].append(json.loads(out.stdout))
            print(f"round {r + 1} of {rounds} done", file=sys.stderr)
    print(f"{hands_n:,} random hands, CPU µs per call, median of {rounds} fresh processes per side")
    print(f"{'':26} {'this checkout':>14} {revision:>14} {'ratio':>7}   calls per CPU second (this, {revision})")
    for job in figures["this checkout"][0]:
        mine = statistics.median(f[job] for f in figures["this checkout"])
        theirs = statistics.median(f[job] for f in figures[revision])
        print(f"{job:26} {mine:14.2f} {theirs:14.2f} {mine / theirs:6.2f}×   {1e6 / mine:,.0f} {1e6 / theirs:,.0f}")


def per_call(fn: Callable[[Any], Any], inputs: Sequence[Any], repeat: int,
             clock: Callable[[], float] = time.perf_counter) -> float:
    """Best of ``repeat`` runs, in µs per call (of ``clock``: wall time, or CPU time with
    ``time.process_time``)."""
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        for x in inputs:
            fn(x)
        best = min(best, clock() - start)
    return best / len(inputs) * 1e6


def mahjong_waits(agari: Agari) -> Callable[[list[int]], list[int]]:
    def waits_by_agari(counts: list[int]) -> list[int]:
        found = []
        for t in range(27):
            if counts[t] < 4:
                counts[t] += 1
                if agari.is_agari(counts):
                    found.append(t)
                counts[t] -= 1
        return found

    return waits_by_agari


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--batch", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--against", help="compare with this revision (a commit, tag or branch) instead")
    parser.add_argument("--rounds", type=int, default=6, help="with --against: processes per side")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.hands, args.seed, args.repeat)
        return
    if args.against:
        against(args.against, args.hands, args.seed, args.repeat, args.rounds)
        return

    hands = random_hands(args.hands, args.seed)
    packed = [pack_counts(h) for h in hands]
    thirteen = [h for h in hands if sum(h) == 13]
    fourteen = [h for h in hands if sum(h) == 14]
    packed13 = [pack_counts(h) for h in thirteen]
    packed14 = [pack_counts(h) for h in fourteen]
    sh, ag = Shanten(), Agari()
    assert [waits(h) for h in packed13] == [mahjong_waits(ag)(list(h)) for h in thirteen], "waits disagree"
    assert [is_win(h) for h in packed14] == [ag.is_agari(h) for h in fourteen], "win checks disagree"

    rows = [
        ("shanten", sh.calculate_shanten, hands, shanten, packed, hands),
        ("waits", mahjong_waits(ag), thirteen, waits, packed13, thirteen),
        ("win check", ag.is_agari, fourteen, is_win, packed14, fourteen),
    ]
    print(f"{len(hands):,} random hands from the 108 tiles ({len(thirteen):,} of 13, {len(fourteen):,} of 14)")
    print(f"{'':10} {'mahjong µs':>11} {'chuanma µs':>11} {'ratio':>7} {'target':>7}   "
          f"{'list input µs':>13} {'ratio':>7}")
    for name, theirs, their_in, ours, our_in, lists in rows:
        t_theirs = per_call(theirs, their_in, args.repeat)
        t_ours = per_call(ours, our_in, args.repeat)
        t_list = per_call(ours, lists, args.repeat)
        ratio = t_theirs / t_ours
        verdict = "ok" if ratio >= TARGETS[name] else "MISSED"
        print(f"{name:10} {t_theirs:11.2f} {t_ours:11.2f} {ratio:6.1f}× {TARGETS[name]:5.0f}× {verdict:6}"
              f" {t_list:11.2f} {t_theirs / t_list:6.1f}×")

    rng = np.random.default_rng(args.seed)
    order = np.argsort(rng.random((args.batch, 108)), axis=1)[:, :14] // 4
    sizes = np.where(np.arange(args.batch) % 2 == 0, 13, 14)
    arr = np.zeros((args.batch, 34), np.uint8)
    rows_idx = np.repeat(np.arange(args.batch), 14)
    mask = (np.arange(14)[None, :] < sizes[:, None]).reshape(-1)
    np.add.at(arr, (rows_idx[mask], order.reshape(-1)[mask]), 1)
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        shanten_batch(arr)
        best = min(best, time.perf_counter() - start)
    rate = args.batch / best
    single = per_call(shanten, packed, 1)
    print(f"batch shanten: {rate / 1e6:.2f} M hands/s on one core ({args.batch:,} hands, {best * 1e3:.0f} ms); "
          f"single-hand calls {1e6 / single / 1e6:.2f} M/s; target {BATCH_TARGET / 1e6:.0f} M/s "
          f"{'ok' if rate >= BATCH_TARGET else 'MISSED'}")


if __name__ == "__main__":
    main()
