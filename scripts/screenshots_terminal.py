"""Regenerate the terminal screenshots in docs/screenshots/: a hand of ``chuanma play`` in progress
(help panel on) and its settlement, 80 columns wide, exported as SVG by Rich's recorder.

    python scripts/screenshots_terminal.py
"""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from chuanma.bots import make_bot
from chuanma.engine.game import Game
from chuanma.rules import RuleSet
from chuanma.sim.play import deal_for
from chuanma.terminal.seat import Human, Toggles
from chuanma.terminal.settlement import Settlement
from chuanma.terminal.ticker import Ticker
from chuanma.tiles import SICHUAN_TILES

OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
SEED = 83
PAUSE = 55
"""The in-progress shot is taken at the person's first decision after this many decisions."""
NAMES = ["you", "greedy", "defensive", "greedy"]


def recorder() -> Console:
    return Console(record=True, width=80, file=io.StringIO(), force_terminal=True, color_system="truecolor")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    rules = RuleSet.from_preset("xuezhan")
    deal = deal_for(SEED, 0, SICHUAN_TILES)
    game = Game(rules, list(deal.wall), deal.dealer, deal.direction)
    bots = [make_bot(name if s else "greedy", SEED * 4 + s) for s, name in enumerate(NAMES)]
    shot = recorder()
    human = Human(shot, 0, NAMES, bots[0], Ticker(0, rules, NAMES), [0, 0, 0, 0], "hand 1/1", Toggles(help=True))
    steps = 0
    taken = False
    while not game.finished:
        s = game.to_act()[0]
        view = game.view(s)
        legal = list(view.legal_actions)
        if s == 0:
            human.catch_up(game)
            if steps >= PAUSE and not taken and view.phase == "turn":
                human.show(view, legal)
                shot.save_svg(str(OUT / "play-hand.svg"), title="chuanma play")
                taken = True
        game.apply(s, bots[s].choose(view, legal))
        steps += 1
    if not taken:
        raise SystemExit(f"the person never played after {PAUSE} decisions: choose another SEED or PAUSE")
    human.catch_up(game)
    end = recorder()
    view = game.view(0)
    end.rule("settlement 结算")
    end.print(Settlement(view, game.events_for(0), NAMES).render([0, 0, 0, 0]))
    end.save_svg(str(OUT / "play-settlement.svg"), title="chuanma play: settlement")
    print(f"wrote {OUT / 'play-hand.svg'} and {OUT / 'play-settlement.svg'}")


if __name__ == "__main__":
    main()
