"""CPU time per decision of a bot (median, p99, max), over whole hands it plays against others.

Run: ``PYTHONPATH=src python benchmarks/bench_decisions.py [--bot expert] [--hands 40]
[--rules xuezhan]``. The bot sits at every seat of the line-up ``BOT,defensive,BOT,defensive``;
each of its decisions is timed with the process's CPU clock (``time.process_time``), so other
work on the machine does not inflate the figures much. One untimed hand first loads the analysis
tables (read on first use).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from chuanma.bots import Bot, SeatView, make_bot
from chuanma.engine.actions import Action
from chuanma.rules import RuleSet
from chuanma.sim.play import bot_seed, deal_for, play_hand


class Timed:
    """Plays as ``inner`` and records the CPU time of each of its decisions."""

    def __init__(self, inner: Bot, times: list[float]) -> None:
        self.inner = inner
        self.name = inner.name
        self.times = times

    def choose(self, view: SeatView | None, legal: Sequence[Action]) -> Action:
        start = time.process_time()
        action = self.inner.choose(view, legal)
        self.times.append(time.process_time() - start)
        return action


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bot", default="expert")
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--rules", default="xuezhan")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rules = RuleSet.from_preset(args.rules)
    play_hand(rules, deal_for(args.seed + 1, 0, rules.tiles), [make_bot(args.bot, s) for s in range(4)])  # warm-up
    times: list[float] = []
    for i in range(args.hands):
        bots: list[Bot] = []
        for s in range(4):
            bot = make_bot(args.bot if s % 2 == 0 else "defensive", bot_seed(args.seed, i, s))
            bots.append(Timed(bot, times) if s % 2 == 0 else bot)
        play_hand(rules, deal_for(args.seed, i, rules.tiles), bots)
    times.sort()
    n = len(times)
    print(f"{args.bot} in {args.rules}: {n} decisions over {args.hands} hands; CPU ms per decision: "
          f"median {1000 * times[n // 2]:.2f}, p99 {1000 * times[min(n - 1, n * 99 // 100)]:.2f}, "
          f"max {1000 * times[-1]:.2f}, mean {1000 * sum(times) / n:.2f}")


if __name__ == "__main__":
    main()
