"""``defensive``: greedy hand building, plus danger reading and fan-aware choices.

Each discard is worth ``offence − danger`` in units of base:

- *offence* — the chance to complete the hand before the wall runs out (from shanten, the
  unseen copies of useful tiles and the draws left) times what a win is worth. When the hand
  leans to one suit (all melds and most tiles in it), the 清一色 line (off-suit tiles treated as
  void) is valued too, at four times the pay-off, and whichever line is better counts.
- *danger* — for every opponent still playing: how likely it is ready (discards made, melds,
  a pong late in the hand, whether its last discard was still a void-suit tile) times how likely
  this tile is one of its waits (never a tile of its void suit; seldom a tile it discarded
  itself (现物) or one it let pass; less for terminals and for tiles with no unseen copies)
  times what dealing in would cost. A 血流 winner's hand is shown when it wins and is locked,
  so its waits are known exactly: a tile it waits on is certain to deal in.

Pongs and chows: as greedy, but not off-suit while going for 清一色 and not with a
seven-pairs hand (no chow then either). Honour tiles (大众麻将) count as off-suit for the 清一色
line, and are read as dangerous as terminals (they complete only pairs and pongs).
"""

from __future__ import annotations

from collections.abc import Sequence

from chuanma.analysis import shanten, waits
from chuanma.analysis.incremental import HandEval, useful_tiles
from chuanma.bots.greedy import GreedyBot, tile_value
from chuanma.engine import Action, Hu, Pass, SeatView
from chuanma.scoring import score_hand
from chuanma.tiles import NUM_SUITED, SUITS, Tile

WIN_VALUE = 5.0
"""Rough worth of a win in units of base (fan, payers, and 查大叫 when ready at a draw)."""


def _flush_suit(view: SeatView) -> int | None:
    """The suit the hand leans to for 清一色, if any."""
    hand = view.hand
    vi = SUITS.index(view.void) if view.void is not None else -1
    melds = view.own_melds()
    per = [sum(hand[s * 9 : s * 9 + 9]) for s in range(4)]  # the three suits and the honours
    for m in melds:
        per[m.tile // 9] += 3
    total = sum(per) - (per[vi] if vi >= 0 else 0)
    best = max((s for s in range(3) if s != vi), key=lambda s: per[s])
    if any(m.tile // 9 != best for m in melds):
        return None
    off = total - per[best]
    if off <= 4 and per[best] >= 9:
        return best
    return None


def _as_flush(counts: Sequence[int], suit: int, void: str | None) -> tuple[bytes, str]:
    """Counts where every tile outside ``suit`` (honours included) is useless: they are moved into
    one other suit that is then treated as void."""
    junk_suit = (suit + 1) % 3 if void is None or SUITS.index(void) == suit else SUITS.index(void)
    out = [0] * len(counts)
    junk = 0
    for t in range(len(counts)):
        if t // 9 == suit:
            out[t] = counts[t]
        else:
            junk += counts[t]
    base = junk_suit * 9
    i = 0
    while junk:
        out[base + i % 9] += 1
        junk -= 1
        i += 1
    return bytes(out), SUITS[junk_suit]


def _flush_useful(work: list[int], void: str | None, unseen: Sequence[int], flush: int) -> int:
    """Unseen copies of the tiles of suit ``flush`` that bring the 清一色 line of ``work`` closer."""
    packed, jv = _as_flush(work, flush, void)
    return sum(unseen[u] for u in useful_tiles(packed, jv) if u // 9 == flush)


def win_chance(sh: int, useful: int, unseen_total: int, draws: float) -> float:
    """Rough chance to complete the hand: ``draws`` chances at the useful tiles per step."""
    if sh < 0:
        return 1.0
    if unseen_total <= 0 or draws <= 0:
        return 0.0
    q = min(0.95, useful / unseen_total)
    # each step away from ready needs its own draws; ready hands also win on discards
    chances = draws * (2.0 if sh == 0 else 1.0) / (sh + 1)
    p: float = 1.0 - (1.0 - q) ** max(0.0, chances)
    return p * 0.55 ** max(0, sh)


class DefensiveBot(GreedyBot):
    """Greedy plus danger reading and fan-aware hand building."""

    name = "defensive"

    fold_weight = 0.02
    """Weight of the read danger against offence. Measured: weights of 0.1 and more fold too
    often and lose the edge over greedy, so reading only breaks near-ties."""
    chase_flush = True

    # ------------------------------------------------------------------ danger

    def readiness(self, view: SeatView, o: int) -> float:
        melds = len(view.melds(o)) + view.hidden_kongs(o)
        turns = view.turns(o)
        r = 0.03 * turns + 0.12 * melds
        if any(w < 30 for w in view.players[o].claimed_at):
            r = max(r, 0.55)
        last_void = view.last_void_discard(o)
        if last_void >= 0 and last_void >= turns - 1:
            r *= 0.2
        return min(0.9, r)

    def deal_in_cost(self, view: SeatView, o: int) -> float:
        melds = view.melds(o)
        kongs = sum(1 for m in melds if m.kind == "kong") + view.hidden_kongs(o)
        cost: float = 3.0 * 2.0 ** kongs
        suits = {m.tile // 9 for m in melds}
        if len(melds) >= 2 and len(suits) == 1:
            cost *= 3.0
        return cost

    def dangers(self, view: SeatView, tiles: Sequence[Tile], unseen: Sequence[int]) -> dict[Tile, float]:
        """Expected cost of discarding each tile: known waits in full, read danger weighted."""
        out = dict.fromkeys(tiles, 0.0)
        known = dict.fromkeys(tiles, 0.0)
        pass_rule = view.rules.pass_rule
        for o in view.opponents():
            if not view.active(o):
                continue
            shown = view.shown(o)
            if view.players[o].won and shown is not None and view.winners_stay:
                ws = set(waits(bytes(shown), view.melds(o), view.voids[o]))
                cost = self.deal_in_cost(view, o) * 1.3
                for t in tiles:
                    if t in ws:
                        known[t] += cost
                continue
            r = self.readiness(view, o)
            if r <= 0.0:
                continue
            cost = r * self.deal_in_cost(view, o) * 0.15
            vo = view.voids[o]
            vi = SUITS.index(vo) if vo is not None else -1
            discarded, passed = view.discarded(o), view.passed(o)
            for t in tiles:
                if t // 9 == vi:
                    continue
                rank = t % 9
                p = 0.55 if rank in (0, 8) or t >= NUM_SUITED else 0.8 if rank in (1, 7) else 1.0
                if t in discarded:
                    p *= 0.15
                elif t in passed and pass_rule != "none":
                    p *= 0.1 if pass_rule == "forever" else 0.35
                if unseen[t] == 0:
                    p *= 0.5
                out[t] += cost * p
        return {t: known[t] + self.fold_weight * out[t] for t in tiles}

    # ------------------------------------------------------------------ discards

    def pick_discard(self, view: SeatView, discards: Sequence[Tile]) -> Tile:
        return self.score_discards(view, discards)[0][2]

    def score_discards(self, view: SeatView, discards: Sequence[Tile]) -> list[tuple[float, float, Tile]]:
        """``(-(offence - danger), looseness, tile)`` for each discard, best first (while the
        void suit is still being cleared: ``(danger, value, tile)``)."""
        void = view.void
        vi = SUITS.index(void) if void is not None else -1
        unseen = view.unseen_counts()
        danger = self.dangers(view, discards, unseen)
        if all(t // 9 == vi for t in discards):
            # still clearing the void suit: the safest, then the loosest
            return sorted((danger[t], tile_value(view.hand, t), t) for t in discards)
        hand = list(view.hand)
        draws = view.wall / max(1, sum(1 for s in range(4) if view.active(s)))
        flush = _flush_suit(view) if self.chase_flush else None
        ev = HandEval(hand, void)
        shs = {t: ev.without(t) for t in discards}
        best_sh = min(shs.values())
        scores: list[tuple[float, float, Tile]] = []
        for t in discards:
            sh = shs[t]
            offence = 0.0
            hand[t] -= 1
            if sh <= best_sh + 1:
                u = ev.useful(t, sh, unseen)
                offence = self.line_value(view, hand, sh, u, unseen, draws, flush=False)
            if flush is not None:
                packed, jv = _as_flush(hand, flush, void)
                fsh = shanten(packed, jv)
                if fsh <= best_sh + 1:
                    fu = _flush_useful(hand, void, unseen, flush)
                    offence = max(offence, self.line_value(view, hand, fsh, fu, unseen, draws, flush=True))
            hand[t] += 1
            value = offence - danger[t]
            scores.append((-value, tile_value(view.hand, t), t))
        scores.sort()
        return scores

    def line_value(self, view: SeatView, hand: Sequence[int], sh: int, useful: int, unseen: Sequence[int],
                   draws: float, *, flush: bool) -> float:
        """Offence of one line of ``hand`` (the concealed tiles after the discard, ``sh`` from
        ready, ``useful`` unseen copies of the tiles that bring it closer): the chance to complete
        it times a win's worth (four times for the 清一色 line)."""
        return (4 if flush else 1) * WIN_VALUE * win_chance(sh, useful, sum(unseen) or 1, draws)

    def want_claim(self, view: SeatView, action: Action, t: Tile) -> bool:
        flush = _flush_suit(view)
        if flush is not None and t // 9 != flush:
            return False
        if not view.own_melds():
            pairs = sum(1 for c in view.hand if c >= 2)
            if pairs >= 5:
                return False
        return True

    pass_cheap_wins = False
    """Pass a 0-fan win on a discard early in a 血战 hand when the pass rule lets the hand win
    again and its waits are likely to be self-drawn (自摸 is worth more, from every payer)."""
    pass_min_wall = 30
    pass_margin = 2.0

    def choose(self, view: SeatView | None, legal: Sequence[Action]) -> Action:
        assert view is not None, "defensive reads its view"
        if self.pass_cheap_wins and Hu() in legal and Pass() in legal and self.pass_win(view):
            return Pass()
        return super().choose(view, legal)

    def pass_win(self, view: SeatView) -> bool:
        """Whether to pass the win on the discard under claim (see :attr:`pass_cheap_wins`)."""
        t = view.claim.tile if view.claim is not None else None
        rules = view.rules
        if t is None or view.claim is None or view.claim.robbing or rules.pass_rule == "forever" \
                or view.winners_stay:
            return False
        others = sum(1 for o in view.opponents() if view.active(o))
        if others < 3 or view.wall < self.pass_min_wall:
            return False
        melds = view.own_melds()
        hand = list(view.hand)
        tiles = [u for u, c in enumerate(hand) for _ in range(c)]
        if score_hand(rules, tiles, melds, t, self_drawn=False, void=view.void).total > 0:
            return False
        unseen = view.unseen_counts()
        w = sum(unseen[x] for x in waits(bytes(hand), melds, view.void))
        total = sum(unseen) or 1
        p: float = 1.0 - (1.0 - w / total) ** (view.wall / 4)
        zimo = 2 * others  # 自摸: one more fan (or one more base) from every payer
        return p * zimo > self.pass_margin


__all__ = ["DefensiveBot"]
