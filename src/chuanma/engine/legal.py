"""Legal actions: pure functions of the hand state (and the variant and pass rule it plays).

Who owes a decision (:func:`to_act`) and what each may do (:func:`legal_actions`): the exchange
choices, the void suits, the claims on offer in an open window, and on a seat's own turn its
self-drawn win, kongs and discards (a void-suit tile first while one is held; a locked 血流 hand
only the drawn tile).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress

from chuanma.engine.actions import Action
from chuanma.engine.claims import PassRule, forced, owing
from chuanma.engine.kongs import keeps_waits
from chuanma.engine.setup import void_options
from chuanma.engine.state import HandState
from chuanma.engine.tables import DISCARD, HU, KONG, SUIT_OF, exchange_options
from chuanma.engine.wall import kong_allowed
from chuanma.engine.wins import NEAR, complete, orphan_reach
from chuanma.tiles import NUM_KINDS, SUIT_SLICES

_ALONE = [(s,) for s in range(4)]


def to_act(st: HandState) -> tuple[int, ...]:
    """Seats that owe a decision now."""
    pub = st.public
    phase = pub.phase
    if phase == "turn":
        return _ALONE[pub.current]
    if phase == "exchange":
        return tuple(s for s in range(4) if not pub.exchanged[s])
    if phase == "void":
        return tuple(s for s in range(4) if st.seats[s].void is None)
    if phase in ("claim", "rob"):
        return tuple(owing(st))
    return ()


def legal_actions(st: HandState, rule: PassRule, seat: int) -> list[Action]:
    """Every decision ``seat`` may make now (empty when it has none to make)."""
    phase = st.public.phase
    if phase == "turn":
        return turn_actions(st, rule, seat) if seat == st.public.current else []
    if phase in ("claim", "rob"):
        s = st.seats[seat]
        opts = s.claim_options
        return list(opts) if opts is not None and s.claim is None else []  # it owes an answer
    if seat not in to_act(st):
        return []
    if phase == "exchange":
        return exchange_options(st.seats[seat].hand)
    return list(void_options(st, seat))  # the void phase: no other phase leaves a seat to act


def offered(action: Action, legal: Sequence[Action]) -> bool:
    """``action in legal``. Actions are values (a copy of a listed action is listed); the list is
    first searched for the object itself, the usual case, so that no ``__eq__`` runs."""
    for listed in legal:
        if listed is action:
            return True
    return action in legal


def can_self_win(st: HandState, rule: PassRule, seat: int) -> bool:
    """Whether the seat, on its turn, may declare a self-drawn win (or 天胡)."""
    turn = st.public.turn
    if turn.after_pong:
        return False
    if turn.first:
        return complete(st, seat)
    s = st.seats[seat]
    t = s.drawn
    if t is None:
        return False
    h = s.hand
    lo, hi = NEAR[t]
    # the drawn tile with no copy or neighbour (two ranks) in hand completes nothing but 十三幺
    return ((sum(h[lo:hi]) > 1 or orphan_reach(h, t)) and rule.may_self_win(s, t)
            and complete(st, seat))


def turn_actions(st: HandState, rule: PassRule, seat: int) -> list[Action]:
    """The seat's choices on its own turn (a self-drawn win it may declare first)."""
    pub = st.public
    s = st.seats[seat]
    h = s.hand
    out: list[Action] = []
    if can_self_win(st, rule, seat):
        if forced(st):
            return [HU]
        out.append(HU)
    locked = pub.locked[seat]
    melds = pub.melds[seat]
    if ((locked or melds or 4 in h) and not pub.turn.after_pong
            and kong_allowed(st.rules.no_kong_in_last_four, st.remaining)):
        if locked:
            t = s.drawn
            if st.rules.winners_kong and t is not None and keeps_waits(st, seat, t):
                out.append(KONG[t])
        else:
            if 4 in h:
                out.extend(KONG[t] for t in range(NUM_KINDS) if h[t] == 4 and SUIT_OF[t] != s.void)
            if melds:
                out.extend(KONG[m.tile] for m in melds if m.kind == "pong" and h[m.tile])
    if locked:
        if s.drawn is not None:
            out.append(DISCARD[s.drawn])
        return out
    if s.void is not None:
        suit = SUIT_SLICES[s.void]
        held = h[suit]
        if any(held):
            out.extend(compress(DISCARD[suit], held))
            return out
    out.extend(compress(DISCARD, h))
    return out
