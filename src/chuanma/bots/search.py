"""``search``: the defensive bot, with its closest discard decisions checked by play-outs.

When the hand is near ready (the best discard leaves it at most ``max_shanten`` from ready),
the ``candidates`` best discards by the defensive score are compared by Monte Carlo play-outs
over the tiles this seat cannot see (the tile set minus everything its view shows): each play-out deals
those tiles into a random order and plays the hand forward up to ``depth`` rounds — in each
round the other seats still playing show one tile each (a win on a discard, when ready), then
the seat draws (a self-drawn win, when ready) and discards greedily (lowest shanten, then the
loosest tile). A win is worth ``2^fan`` (a rough fan count: 清一色, 七对, 对对胡, 根, 自摸)
from each payer. Every candidate meets the same play-outs (common random numbers); the
defensive choice is kept unless another candidate's worth minus danger beats it by ``margin``
standard errors of the paired difference (play-outs are noisy: without the margin, noise
decided too often and the bot lost to plain defensive).

The time per decision is bounded by ``rollouts × candidates × depth`` play-out steps (a few
milliseconds with the defaults); the bot is deterministic given its seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from chuanma.analysis import is_win
from chuanma.analysis.incremental import HandEval
from chuanma.bots.defensive import DefensiveBot
from chuanma.bots.greedy import tile_value
from chuanma.engine import SeatView
from chuanma.melds import Meld
from chuanma.rules import RuleSet
from chuanma.scoring import score_hand
from chuanma.tiles import SUITS, Tile


class SearchBot(DefensiveBot):
    """Defensive, plus Monte Carlo play-outs to choose among its best discards."""

    name = "search"

    candidates = 3
    """Discards compared by play-outs (the defensive bot's best ones)."""
    rollouts = 32
    """Play-outs per decision (each candidate meets the same ones)."""
    margin = 2.0
    """How many standard errors of the paired play-out difference a discard must gain over the
    defensive choice to replace it."""
    depth = 12
    """Rounds played forward at most (fewer when the wall is shorter)."""
    max_shanten = 2
    """Search only when the best discard leaves the hand this close to ready."""

    def pick_discard(self, view: SeatView, discards: Sequence[Tile]) -> Tile:
        ranked = self.score_discards(view, discards)
        if len(ranked) < 2 or self.rollouts <= 0:
            return ranked[0][2]
        void = view.void
        vi = SUITS.index(void) if void is not None else -1
        if all(t // 9 == vi for t in discards):
            return ranked[0][2]
        top = [r[2] for r in ranked[: self.candidates]]
        ev = HandEval(view.hand, void)
        if min(ev.without(t) for t in top) > self.max_shanten:
            return ranked[0][2]
        others = [s for s in view.opponents() if view.active(s)]
        rounds = min(self.depth, view.wall // (len(others) + 1))
        if rounds <= 0:
            return ranked[0][2]
        unseen = view.unseen_counts()
        pool = [t for t, n in enumerate(unseen) for _ in range(n)]
        need = rounds * (len(others) + 1)
        if len(pool) < need:
            return ranked[0][2]
        danger = self.dangers(view, top, unseen)
        rng = random.Random(self.rng.getrandbits(64))
        melds = view.own_melds()
        payers = 3 if view.winners_stay else len(others)
        values: dict[Tile, list[float]] = {t: [] for t in top}
        for _ in range(self.rollouts):
            seq = rng.sample(pool, need)
            for t in top:
                values[t].append(self._playout(view.hand, t, void, seq, len(others), rounds, melds, payers,
                                               view.rules))
        # switch from the defensive choice only to a discard whose play-outs are better by a
        # clear margin, paired play-out by play-out (common random numbers)
        first = top[0]
        best, best_gain = first, 0.0
        for t in top[1:]:
            diffs = [a - b for a, b in zip(values[t], values[first], strict=True)]
            n = len(diffs)
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
            gain = mean - (danger[t] - danger[first])
            if gain > self.margin * math.sqrt(var / n) and gain > best_gain:
                best, best_gain = t, gain
        return best

    @staticmethod
    def _playout(hand: Sequence[int], t: Tile, void: str | None, seq: Sequence[Tile], others: int,
                 rounds: int, melds: Sequence[Meld], payers: int, rules: RuleSet) -> float:
        """What discarding ``t`` wins (in base) when the others discard and this hand draws the
        tiles of ``seq`` in turn; a win is scored by the rules' own scoring."""
        h = list(hand)
        h[t] -= 1
        sh = HandEval(h, void).shanten()
        i = 0
        for _ in range(rounds):
            if sh == 0:
                for k in range(i, i + others):
                    y = seq[k]
                    h[y] += 1
                    if h[y] <= 4 and is_win(bytes(h)):
                        return float(_value(rules, h, melds, y, void, self_drawn=False))
                    h[y] -= 1
            i += others
            x = seq[i]
            i += 1
            h[x] += 1
            if sh == 0 and is_win(bytes(h)):
                return float(payers * _value(rules, h, melds, x, void, self_drawn=True))
            ev = HandEval(h, void)
            best: tuple[int, float, Tile] | None = None
            for d in range(len(h)):
                if h[d]:
                    row = (ev.without(d), tile_value(h, d), d)
                    if best is None or row < best:
                        best = row
            assert best is not None
            sh = best[0]
            h[best[2]] -= 1
        return 0.0


def _value(rules: RuleSet, counts: Sequence[int], melds: Sequence[Meld], win: Tile, void: str | None, *,
           self_drawn: bool) -> int:
    """The multiplier of a win of ``counts`` (the win tile ``win`` included)."""
    tiles = [u for u, c in enumerate(counts) for _ in range(c)]
    tiles.remove(win)
    return score_hand(rules, tiles, melds, win, self_drawn=self_drawn, void=void).multiplier


__all__ = ["SearchBot"]
