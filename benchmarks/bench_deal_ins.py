"""Deal-ins into a visible 清一色: how often each bot discards into a seat whose melds show a
flush, while a tile that kept the same shanten and could not win for that seat was in its hand.

Run: ``PYTHONPATH=src python benchmarks/bench_deal_ins.py [--bots expert,defensive] [--hands 1500]
[--rules xuezhan] [--seed 20261207]``. Each bot plays ``--hands`` hands with four copies of itself,
on the simulator's deals (the same walls for every bot, so the bots are compared on equal hands).

A deal-in is a 胡 on the bot's discard. It is *into a visible flush* when the winner's 清一色 was
shown: at the discard the winner had at least two melds, all of the suit of the tile discarded.
It was *avoidable* when the discarder held a tile of another suit whose discard left the same
shanten as the discard made (a 清一色 of one suit can never win on another suit's tile). Printed
per bot: hands, deal-ins, those into a visible flush, those avoidable, and the chips the avoidable
ones cost, each also per 1,000 hands.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from chuanma.analysis import shanten
from chuanma.bots import decide, make_bot
from chuanma.engine import Game
from chuanma.engine.actions import Discard
from chuanma.engine.views import SeatView
from chuanma.rules import RuleSet
from chuanma.sim.play import bot_seed, deal_for
from chuanma.tiles import parse_tile, suit_of


@dataclass(slots=True)
class Tally:
    """One bot's counts over its hands."""

    hands: int = 0
    deal_ins: int = 0
    into_flush: int = 0
    avoidable: int = 0
    avoidable_chips: int = 0


def flush_suit(view: SeatView, seat: int) -> str | None:
    """The suit of ``seat``'s melds when it shows at least two, all of one suit; else None."""
    suits = {suit_of(m.tile) for m in view.melds(seat)}
    return next(iter(suits)) if len(view.melds(seat)) >= 2 and len(suits) == 1 else None


def shanten_after(view: SeatView, tile: int) -> int:
    """The discarder's shanten once ``tile`` has left its hand."""
    counts = list(view.hand)
    counts[tile] -= 1
    return shanten(counts, void=view.void)


def avoidable(view: SeatView, discarded: int, suit: str, legal: list[int]) -> bool:
    """A legal discard of another suit than ``suit`` kept the shanten ``discarded`` left."""
    wanted = shanten_after(view, discarded)
    return any(suit_of(t) != suit and shanten_after(view, t) == wanted for t in legal)


def play(rules: RuleSet, bot: str, seed: int, index: int, tally: Tally) -> None:
    """Hand ``index`` with four ``bot``s, adding its deal-ins to ``tally``."""
    deal = deal_for(seed, index, rules.tiles)
    game = Game(rules, list(deal.wall), deal.dealer, deal.direction)
    bots = [make_bot(bot, bot_seed(seed, index, s)) for s in range(4)]
    suspects: dict[int, bool] = {}  # the seats the last discard fed a shown flush → was it avoidable
    discarder, discarded = -1, -1
    while not game.finished:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        action = decide(bots[seat], game, seat, legal)
        if isinstance(action, Discard):
            view = game.view(seat)
            discards = [a.tile for a in legal if isinstance(a, Discard)]
            suspects.clear()
            for other in view.opponents():
                suit = flush_suit(view, other)
                if suit == suit_of(action.tile) and view.active(other):
                    suspects[other] = avoidable(view, action.tile, suit, discards)
            discarder, discarded = seat, action.tile
        before = len(game.events)
        game.apply(seat, action)
        new = game.events[before:]
        for ev in new:
            if ev.type != "hu" or ev.data["self_drawn"] or ev.data["robbed_kong"]:
                continue
            if ev.data["from"] != discarder or parse_tile(ev.data["tile"]) != discarded:
                raise AssertionError(f"a 胡 on a discard that was not the last one: {ev}")
            tally.deal_ins += 1
            shown = suspects.get(ev.seat) if ev.seat is not None else None
            if shown is not None and any(f["id"] == "qingyise" for f in ev.data["fans"]):
                tally.into_flush += 1
                if shown:
                    tally.avoidable += 1
                    tally.avoidable_chips += sum(p.data["amount"] for p in new if p.type == "payment"
                                                 and p.data["for"] == ev.seq and p.data["payer"] == discarder)
    tally.hands += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="expert,defensive", help="bots to measure, comma-separated")
    ap.add_argument("--hands", type=int, default=1500)
    ap.add_argument("--rules", default="xuezhan")
    ap.add_argument("--seed", type=int, default=20261207)
    args = ap.parse_args()
    rules = RuleSet.from_preset(args.rules)
    print(f"{args.rules}, {args.hands} hands a bot from seed {args.seed}, four of each bot at the table")
    print(f"{'bot':10s} {'deal-ins':>9s} {'flush':>7s} {'avoidable':>10s} {'chips':>8s}   per 1,000 hands")
    for bot in (b.strip() for b in args.bots.split(",")):
        tally = Tally()
        for i in range(args.hands):
            play(rules, bot, args.seed, i, tally)
        per = 1000 / tally.hands
        print(f"{bot:10s} {tally.deal_ins:9d} {tally.into_flush:7d} {tally.avoidable:10d} {tally.avoidable_chips:8d}"
              f"   {tally.deal_ins * per:.1f} / {tally.into_flush * per:.1f} / {tally.avoidable * per:.1f}")


if __name__ == "__main__":
    main()
