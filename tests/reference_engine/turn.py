"""The turn: draws (live and kong replacements), discards, and 过手杠 bookkeeping.

A turn starts with a draw (the dealer's first has none). After a discard the claim window opens
(:mod:`.claims`); when nobody can claim, the next seat still playing draws.
"""

from __future__ import annotations

from chuanma.engine.state import HandState
from chuanma.engine.tables import TILE_TEXT
from chuanma.engine.wall import in_last_four
from chuanma.tiles import Tile
from reference_engine.claims import PassRule, open_window
from reference_engine.kongs import begin_turn, kong_allowed, next_active
from reference_engine.log import emit


def draw_due(st: HandState, seat: int) -> None:
    """``seat`` draws next (a live draw)."""
    pub = st.public
    pub.phase = "draw"
    pub.current = seat
    pub.turn.draw_kind = "live"


def draw(st: HandState, rule: PassRule) -> bool:
    """Carry out the due draw; False if the wall is empty (the hand is exhausted)."""
    pub = st.public
    if pub.tail < pub.live:
        return False
    seat = pub.current
    s = st.seats[seat]
    replacement = pub.turn.draw_kind == "replacement"
    turn = pub.turn
    if replacement:
        t = st.hidden.wall[pub.tail]
        pub.tail -= 1
        turn.dihu = False
    else:
        begin_turn(st, seat)
        t = st.hidden.wall[pub.live]
        pub.live += 1
        # 地胡: a non-dealer's first live draw, nobody has declared, the seat has not won (RULES §9.8)
        turn.dihu = (seat != pub.dealer and s.live_draws == 0 and not pub.declared
                     and all(w.seat != seat for w in pub.wins))
        s.live_draws += 1
        pub.live_draws += 1
        turn.draw_kind = "live"
    pub.phase = "turn"
    s.hand[t] += 1
    s.drawn = t
    left = st.remaining
    turn.drew_last = left == 0
    rule.drew(s)
    data = {"wall": left, "replacement": replacement}
    if in_last_four(left):
        data["last_four"] = True
    emit(st, "draw", seat, data, {"tile": TILE_TEXT[t]})
    return True


def discard(st: HandState, seat: int, t: Tile, rule: PassRule, *, automatic: bool = False) -> None:
    """Discard ``t`` (``automatic``: the machine's, for a locked 血流 hand): the claim window opens,
    or the next seat still playing draws."""
    pub = st.public
    s = st.seats[seat]
    turn = pub.turn
    h = s.hand
    h[t] -= 1
    s.drawn = None
    pub.discards[seat].append(t)
    pub.discard_log.append((seat, t))
    left = st.remaining
    # 过手杠: ending a turn holding the fourth tile of a pong while adding it was legal
    if (pub.melds[seat] and not turn.after_pong and not pub.locked[seat]
            and kong_allowed(st.rules.no_kong_in_last_four, left)):
        for m in pub.melds[seat]:
            if m.kind == "pong" and h[m.tile]:
                s.late_pongs.add(m.tile)
    situations: tuple[str, ...] = ()
    if seat == pub.dealer:
        if (pub.dealer_discards == 0 and st.rules.dihu_on_dealer_discard and pub.live_draws == 0
                and not pub.declared):
            situations = ("dihu",)
        pub.dealer_discards += 1
    turn.first = False
    emit(st, "discard", seat, {"tile": TILE_TEXT[t], "wall": left, "automatic": True} if automatic
            else {"tile": TILE_TEXT[t], "wall": left})
    if turn.kong is not None:
        situations += ("after_kong",)
    if turn.drew_last:
        situations += ("last_tile",)
    if not open_window(st, rule, seat, t, situations, rob=False, kong=turn.kong):
        nxt = next_active(st, seat)
        assert nxt is not None  # the hand ends before fewer than two seats play
        draw_due(st, nxt)
