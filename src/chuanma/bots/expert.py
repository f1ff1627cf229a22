"""``expert``: the defensive bot, aware of the end of the wall and ready to fold when far behind.

Its discards are scored ``offence − danger`` like the defensive bot's, with two changes:

- *查大叫*: each line of the hand (plain, and 清一色 when the hand leans to one suit) is also worth
  the chance of being ready when the wall runs out times ``chajiao_value`` (a seat not ready at an
  exhaustive draw pays every ready one its best fan, and gives back its kong money; a ready one is
  paid). A 清一色 line counts four times, as for a win. Being ready by the draw therefore weighs
  against a long 清一色 chase late in the hand.
- *folding*: the read danger of a tile (see ``DefensiveBot.dangers``: readiness of each
  opponent, never its void suit, seldom its own discards or tiles it let pass) weighs
  ``fold_weight`` normally, and ``far_fold_weight`` when this hand is at least ``far_shanten``
  from ready with at most ``far_wall`` tiles left in the wall — when winning is unlikely, dealing
  in is the main cost left.

Everything else (换三张, 定缺, claims, kongs, wins, the exact waits of a locked 血流 winner) is the
defensive bot's. A decision costs a few milliseconds: no search.
"""

from __future__ import annotations

from chuanma.analysis.incremental import HandEval
from chuanma.bots.defensive import WIN_VALUE, DefensiveBot, win_chance
from chuanma.engine.views import SeatView


def ready_chance(sh: int, useful: int, unseen_total: int, draws: float) -> float:
    """Rough chance that a hand ``sh`` from ready (after its discard) is ready by the end of the
    wall: a ready hand is; otherwise the chance to complete its first ``sh`` steps."""
    if sh <= 0:
        return 1.0
    return win_chance(sh - 1, useful, unseen_total, draws)


class ExpertBot(DefensiveBot):
    """Defensive, plus the value of being ready at the draw and folding when far from ready."""

    name = "expert"

    chajiao_value = 3.0
    """Worth (in base) of being ready, rather than not, when the wall runs out."""
    far_fold_weight = 0.5
    """Weight of the read danger when the hand is far from ready late in the hand."""
    far_shanten = 2
    far_wall = 24

    def line_value(self, view: SeatView, sh: int, useful: int, unseen_total: int, draws: float, *,
                   flush: bool) -> float:
        win = WIN_VALUE * win_chance(sh, useful, unseen_total, draws)
        ready = self.chajiao_value * ready_chance(sh, useful, unseen_total, draws)
        return (4 if flush else 1) * (win + ready)

    def danger_weight(self, view: SeatView) -> float:
        if view.wall > self.far_wall or view.holds_void():
            return self.fold_weight
        hand = view.hand
        ev = HandEval(hand, view.void)
        best = min(ev.without(t) for t in range(len(hand)) if hand[t]) if sum(hand) % 3 == 2 else ev.shanten()
        return self.far_fold_weight if best >= self.far_shanten else self.fold_weight


__all__ = ["ExpertBot", "ready_chance"]
