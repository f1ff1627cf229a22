"""Legal actions: pure functions of the hand state (and the variant and pass rule it plays).

Who owes a decision (:func:`to_act`) and what each may do (:func:`legal_actions`): the exchange
choices, the void suits, the claims on offer in an open window, and on a seat's own turn its
self-drawn win, kongs and discards (a void-suit tile first while one is held; a locked 血流 hand
only the drawn tile).

Each rule that allows also refuses: :func:`refusal` is ``(code, reason)`` for a decision not
allowed, the reason in a player's words given by the rule that would have allowed it (the
exchange, the void, the claim, and on a seat's own turn the discard, the self-drawn win and the
kong), worded by :mod:`.refusal_text`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress

from chuanma.engine.actions import Action, Chow, Discard, Exchange, Hu, Kong, Pass, Pong
from chuanma.engine.refusal_text import TEMPLATES
from chuanma.engine.state import HandState
from chuanma.engine.tables import DISCARD, HU, KONG, SUIT_OF
from chuanma.tiles import NUM_KINDS, SUIT_SLICES, holds_suit, suit_of, tile_str
from reference_engine.claims import PassRule
from reference_engine.kongs import keeps_waits, kong_allowed
from reference_engine.setup import void_options
from reference_engine.tables import exchange_options
from reference_engine.views import to_act
from reference_engine.wins import NEAR, complete, forced, orphan_reach


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


# ------------------------------------------------------------------------------------ refusals

Refusal = tuple[str, str]
"""``(code, reason)``: a stable code for programs and the rule's words for a player."""


def refusal(st: HandState, legal: list[Action], seat: int, action: Action) -> Refusal:
    """Why ``action`` is not legal for ``seat`` (whose legal actions are ``legal``) now."""
    pub = st.public
    if isinstance(seat, bool) or seat not in range(4):
        return "no_such_seat", f"no seat {seat!r}: seats are 0-3"
    if pub.phase == "end":
        return "hand_over", TEMPLATES["hand_over"]
    what = claimed_text(st)
    if seat not in to_act(st):
        return "not_your_turn", not_your_turn(st, seat, what)
    if legal == [HU]:
        if pub.phase in ("claim", "rob"):
            return "must_win", TEMPLATES["must_win_on_claim"].format(tile=what)
        return "must_win", TEMPLATES["must_win_on_draw"]
    return "illegal_action", _REFUSE[pub.phase](st, legal, seat, action)


def claimed_text(st: HandState) -> str:
    """The tile of the open claim window (``?`` outside one)."""
    w = st.public.claim
    return tile_str(w.tile) if w is not None else "?"


def not_your_turn(st: HandState, seat: int, what: str) -> str:
    pub = st.public
    if pub.phase in ("exchange", "void"):
        return TEMPLATES["already_chosen"].format(seat=seat)
    if pub.phase in ("claim", "rob"):
        if st.seats[seat].claim is not None:
            return TEMPLATES["already_answered"].format(seat=seat, tile=what)
        return TEMPLATES["nothing_to_claim"].format(seat=seat, tile=what)
    return TEMPLATES["others_turn"].format(current=pub.current, seat=seat)


def choose_otherwise(action: Action, legal: Sequence[Action], on: str | None) -> str:
    """The refusal that names the choices: ``… is not possible now; choose one of: …`` (``on``: the
    tile on offer, ``None``: on the seat's turn)."""
    choices = ", ".join(str(a) for a in legal)
    if on is None:
        return TEMPLATES["choose_on_turn"].format(action=action, legal=choices)
    return TEMPLATES["choose_on_claim"].format(action=action, legal=choices, tile=on)


def no_kong_room(st: HandState) -> str | None:
    """Why no kong may be declared now (for an exposed kong: when the discard was made), or
    ``None``: under ``no_kong_in_last_four`` the wall holds 4 tiles or fewer (§9.3), otherwise it
    is empty (no replacement to draw)."""
    if kong_allowed(st.rules.no_kong_in_last_four, st.remaining):
        return None
    return TEMPLATES["no_kong_last_four" if st.rules.no_kong_in_last_four else "no_kong_empty_wall"]


def refuse_exchange(st: HandState, legal: list[Action], seat: int, action: Action) -> str:
    """The exchange allows three tiles of one suit the seat holds."""
    if isinstance(action, Exchange):
        return TEMPLATES["bad_exchange"].format(action=action)
    return TEMPLATES["exchange_first"]


def refuse_void(st: HandState, legal: list[Action], seat: int, action: Action) -> str:
    """The void allows the suits :func:`void_options` offers."""
    suits = [str(a).split()[-1] for a in legal]
    return TEMPLATES["void_first"].format(suits=f"{', '.join(suits[:-1])} or {suits[-1]}")


def refuse_claim(st: HandState, legal: list[Action], seat: int, action: Action) -> str:
    """A claim window allows the seat's ``claim_options``: each pass rule, the last four, the void
    suit and the chow's seat and suits refuse the rest."""
    w = st.public.claim
    s = st.seats[seat]
    what = claimed_text(st)
    if isinstance(action, Hu) and w is not None and w.tile in s.banned:
        return TEMPLATES["passed_win"].format(tile=what)
    if isinstance(action, Hu) and s.bar is not None:
        return TEMPLATES["win_bar"].format(tile=what, bar=s.bar)
    if isinstance(action, Pong) and w is not None and w.tile in s.pong_ban:
        return TEMPLATES["passed_pong"].format(tile=what)
    if isinstance(action, Kong) and (no_room := no_kong_room(st)) is not None:
        return no_room
    if isinstance(action, Kong | Pong) and s.void == suit_of(action.tile):
        return TEMPLATES["void_claim"].format(tile=what)
    if isinstance(action, Chow) and w is not None:
        chow = refuse_chow(st, seat, w.tile, w.from_seat)
        if chow is not None:
            return chow
    return choose_otherwise(action, legal, what)


def refuse_chow(st: HandState, seat: int, tile: int, from_seat: int) -> str | None:
    """吃 exists only in a variant that has it, for suited tiles, from the 上家."""
    if not st.rules.game_variant.chow:
        return TEMPLATES["no_chow"]
    if suit_of(tile) == "z":
        return TEMPLATES["honour_chow"].format(tile=tile_str(tile))
    if seat != (from_seat + 1) % 4:
        return TEMPLATES["chow_from_left"].format(seat=(seat + 3) % 4)
    return None


def refuse_on_turn(st: HandState, legal: list[Action], seat: int, action: Action) -> str:
    """On its own turn a seat discards, wins by self-draw or declares a kong."""
    rule = _TURN_RULES.get(type(action))
    reason = rule(st, seat, action) if rule is not None else None
    return reason if reason is not None else choose_otherwise(action, legal, None)


def refuse_pass(st: HandState, seat: int, action: Action) -> str | None:
    return TEMPLATES["nothing_to_pass"]


def refuse_claim_on_turn(st: HandState, seat: int, action: Action) -> str | None:
    return TEMPLATES["pong_on_turn" if isinstance(action, Pong) else "chow_on_turn"]


def refuse_discard(st: HandState, seat: int, action: Action) -> str | None:
    """A discard: a locked hand's drawn tile; a held tile, of the void suit while one is held."""
    assert isinstance(action, Discard)
    s = st.seats[seat]
    h = s.hand
    if not st.public.turn.after_pong and st.public.locked[seat] and s.drawn is not None:
        return TEMPLATES["locked_discard"].format(tile=tile_str(s.drawn))
    if not h[action.tile]:
        return TEMPLATES["not_held"].format(tile=tile_str(action.tile))
    if s.void is not None and holds_suit(h, s.void):
        suit = SUIT_SLICES[s.void]
        held = " ".join(tile_str(t) for t in range(suit.start, suit.stop) if h[t])
        return TEMPLATES["void_discard_first"].format(held=held)
    return None


def refuse_self_win(st: HandState, seat: int, action: Action) -> str | None:
    """:func:`can_self_win`'s refusals: after a pong, a passed tile, the void suit, no win."""
    s = st.seats[seat]
    if st.public.turn.after_pong:
        return TEMPLATES["after_pong"]
    if s.drawn is not None and s.drawn in s.banned:
        return TEMPLATES["passed_self_win"].format(tile=tile_str(s.drawn))
    if holds_suit(s.hand, s.void):
        return TEMPLATES["holds_void"]
    return TEMPLATES["not_a_win"]


def refuse_own_kong(st: HandState, seat: int, action: Action) -> str | None:
    """:func:`turn_actions`'s kongs: not after a pong, not in the last four, not of the void suit,
    a locked hand's only with the drawn tile, four tiles (or a pong and the fourth) held."""
    assert isinstance(action, Kong)
    s = st.seats[seat]
    if st.public.turn.after_pong:
        return TEMPLATES["after_pong"]
    if (no_room := no_kong_room(st)) is not None:
        return no_room
    if s.void == suit_of(action.tile):
        return TEMPLATES["void_kong"].format(tile=tile_str(action.tile))
    if st.public.locked[seat]:
        return TEMPLATES["locked_kong"]
    return TEMPLATES["no_kong"].format(tile=tile_str(action.tile))


_TURN_RULES: dict[type, Callable[[HandState, int, Action], str | None]] = {
    Pass: refuse_pass, Pong: refuse_claim_on_turn, Chow: refuse_claim_on_turn, Discard: refuse_discard,
    Hu: refuse_self_win, Kong: refuse_own_kong,
}
"""The rule of the seat's own turn that refuses each kind of decision."""

_REFUSE: dict[str, Callable[[HandState, list[Action], int, Action], str]] = {
    "exchange": refuse_exchange, "void": refuse_void, "claim": refuse_claim, "rob": refuse_claim,
    "turn": refuse_on_turn,
}
"""The rule that refuses a decision in each phase a seat may owe one."""
