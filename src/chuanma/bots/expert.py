"""``expert``: the defensive bot, valuing ready hands by their fan and being ready at the draw.

Its discards are scored ``offence − danger`` like the defensive bot's, with two changes to the
offence of each line of the hand (plain, and 清一色 when the hand leans to one suit):

- *what a ready hand is worth*: a discard that leaves the hand ready is valued by its waits as
  the rules score them — the chance of a win (the unseen copies of the waits) times the
  multiplier (``2^fan``: 清一色, 对对胡, 七对, 根, …) averaged over the unseen copies — instead of
  one flat worth for any win. Between two ready shapes it keeps the one with more money in its
  waits, not only more tiles.
- *查大叫*: each line is also worth the chance of being ready when the wall runs out times
  ``chajiao_value`` (a seat not ready at an exhaustive draw pays every ready one its best fan
  and gives back its kong money; a ready one is paid), scaled by the best multiplier among a
  ready hand's waits (what 查大叫 pays), and four times for a 清一色 line not yet ready. Being
  ready by the draw therefore weighs against a long 清一色 chase late in the hand. Under rules
  without 查大叫 (大众麻将) this term is left out.

Everything else (换三张, 定缺, claims, kongs, wins, the danger read from the opponents'
discards, melds and voids, the exact waits of a locked 血流 winner) is the defensive bot's. A
decision costs a few milliseconds: no search.
"""

from __future__ import annotations

from collections.abc import Sequence

from chuanma.analysis import waits
from chuanma.bots.defensive import WIN_VALUE, DefensiveBot, win_chance
from chuanma.engine import SeatView
from chuanma.scoring import score_hand
from chuanma.tiles import COPIES


def ready_chance(sh: int, useful: int, unseen_total: int, draws: float) -> float:
    """Rough chance that a hand ``sh`` from ready (after its discard) is ready by the end of the
    wall: a ready hand is; otherwise the chance to complete its first ``sh`` steps."""
    if sh <= 0:
        return 1.0
    return win_chance(sh - 1, useful, unseen_total, draws)


def wait_multipliers(view: SeatView, hand: Sequence[int]) -> dict[int, int]:
    """Each wait of the ready concealed ``hand`` (with the seat's melds) and the multiplier the
    rules give a win on it by discard (no situational fans); a wait whose four copies the seat
    holds itself (in its hand and melds) is left out."""
    melds = view.own_melds()
    tiles = [u for u, c in enumerate(hand) for _ in range(c)]
    held = list(hand)
    for m in melds:
        for u in m.tiles:
            held[u] += 1
    out: dict[int, int] = {}
    for w in waits(bytes(hand), melds, view.void):
        if held[w] >= COPIES:
            continue
        result = score_hand(view.rules, tiles, melds, w, self_drawn=False, void=view.void)
        if result.win:
            out[w] = result.multiplier
    return out


class ExpertBot(DefensiveBot):
    """Defensive, plus the fan of ready hands and the worth of being ready at the draw."""

    name = "expert"

    chajiao_value = 6.0
    """Worth (in base, for a multiplier of 1) of being ready, rather than not, when the wall runs
    out."""

    def line_value(self, view: SeatView, hand: Sequence[int], sh: int, useful: int, unseen: Sequence[int],
                   draws: float, *, flush: bool) -> float:
        unseen_total = sum(unseen) or 1
        chajiao = self.chajiao_value if view.rules.chadajiao else 0.0
        if sh == 0:
            mults = wait_multipliers(view, hand)
            if mults:
                live = sum(unseen[w] for w in mults)
                mean = sum(unseen[w] * m for w, m in mults.items()) / live if live else 0.0
                win = WIN_VALUE * win_chance(0, live, unseen_total, draws) * mean
                return win + chajiao * max(mults.values())
        win = WIN_VALUE * win_chance(sh, useful, unseen_total, draws)
        ready = chajiao * ready_chance(sh, useful, unseen_total, draws)
        return (4 if flush else 1) * (win + ready)


__all__ = ["ExpertBot", "ready_chance", "wait_multipliers"]
