"""CPU time per decision of a bot (median, p99, max), over whole hands it plays against others.

Run: ``PYTHONPATH=src python benchmarks/bench_decisions.py [--bot expert] [--hands 40]
[--rules xuezhan]``. The bot sits at every seat of the line-up ``BOT,defensive,BOT,defensive``;
each of its decisions (:func:`chuanma.bots.decide`, as the simulator and the server ask a bot:
making its view, or a ``learned`` bot's observer of its seat, and its choice) is timed with the
process's CPU clock (``time.process_time``), so other work on the machine does not inflate the
figures much. One untimed hand first loads the analysis
tables (read on first use).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from chuanma.bots import Player, decide, make_bot
from chuanma.engine import Game
from chuanma.fairness.derive import Deal
from chuanma.rules import RuleSet
from chuanma.sim.play import bot_seed, deal_for, play_hand


def timed_hand(rules: RuleSet, deal: Deal, players: Sequence[Player], timed: int, times: list[float]) -> None:
    """Play one hand, recording the CPU time of each decision of the seats ``s`` with ``s % 2 ==
    timed``: the whole of :func:`~chuanma.bots.decide` (making the view or the observer, then the
    bot's choice), whatever kind of bot it asks."""
    game = Game(rules, list(deal.wall), deal.dealer, deal.direction)
    while not game.finished:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        start = time.process_time()
        action = decide(players[seat], game, seat, legal)
        if seat % 2 == timed:
            times.append(time.process_time() - start)
        game.apply(seat, action)


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
        players = [make_bot(args.bot if s % 2 == 0 else "defensive", bot_seed(args.seed, i, s)) for s in range(4)]
        timed_hand(rules, deal_for(args.seed, i, rules.tiles), players, 0, times)
    times.sort()
    n = len(times)
    print(f"{args.bot} in {args.rules}: {n} decisions over {args.hands} hands; CPU ms per decision: "
          f"median {1000 * times[n // 2]:.2f}, p99 {1000 * times[min(n - 1, n * 99 // 100)]:.2f}, "
          f"max {1000 * times[-1]:.2f}, mean {1000 * sum(times) / n:.2f}")


if __name__ == "__main__":
    main()
