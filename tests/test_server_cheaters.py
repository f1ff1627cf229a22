"""The cheaters benchmark's short form (benchmarks/cheaters.py): one small run of a real server on a
sped-up clock, a colluding pair, a script answering at once and one answering after a steady delay,
a guest farm and a ring of accounts from one address among honest players; the scan must catch
every kind of cheat with its own detector and flag no honest account."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from cheaters import KINDS, SHORT, run


def test_every_kind_of_cheat_is_caught_and_no_honest_player_flagged() -> None:
    verdict = asyncio.run(run(5, SHORT))
    assert verdict.caught == set(KINDS), [(f.kind, f.accounts, f.evidence) for f in verdict.flags]
    assert verdict.honest == SHORT.honest and not any(verdict.honest_flagged.values())
    pair = next(f for f in verdict.flags if f.kind == "soft_play")
    assert pair.evidence["hands_together"] == SHORT.pair_hands and pair.evidence["hands"]
    quick = next(f for f in verdict.flags if f.kind == "bot_timing" and f.evidence["why"] == "instant")
    assert quick.figure < quick.population
