"""Messages for refused decisions: say what the rules require, in a player's words, with a
stable code for programs."""

from __future__ import annotations

from chuanma.engine.actions import Action, Chow, Discard, Exchange, Hu, Kong, Pass, Pong
from chuanma.engine.legal import to_act
from chuanma.engine.state import HandState
from chuanma.engine.wall import kong_allowed
from chuanma.tiles import SUIT_SLICES, format_tiles, holds_suit, suit_of, tile_str


def explain(st: HandState, legal: list[Action], seat: int, action: Action) -> tuple[str, str]:
    """``(code, reason)``: why ``action`` is not legal for ``seat`` (whose legal actions are
    ``legal``) now."""
    pub = st.public
    if isinstance(seat, bool) or seat not in range(4):
        return "no_such_seat", f"no seat {seat!r}: seats are 0-3"
    if pub.phase == "end":
        return "hand_over", "the hand is over"
    w = pub.claim
    what = tile_str(w.tile) if w is not None else "?"
    if seat not in to_act(st):
        if pub.phase in ("exchange", "void"):
            return "not_your_turn", f"seat {seat} has already chosen"
        if pub.phase in ("claim", "rob"):
            if st.seats[seat].claim is not None:
                return "not_your_turn", f"seat {seat} has already answered the claim on {what}"
            return "not_your_turn", f"seat {seat} has nothing to claim on {what}"
        return "not_your_turn", f"it is seat {pub.current}'s turn, not seat {seat}'s"
    if legal == [Hu()]:
        on = what if pub.phase in ("claim", "rob") else "this tile"
        return "must_win", f"you must win on {on} in the last four tiles"
    return "illegal_action", _reason(st, legal, seat, action, what)


def _reason(st: HandState, legal: list[Action], seat: int, action: Action, what: str) -> str:
    pub = st.public
    s = st.seats[seat]
    h = s.hand
    no_kong_room = not kong_allowed(st.rules.no_kong_in_last_four, st.remaining)
    if pub.phase == "exchange":
        if isinstance(action, Exchange):
            return (f"cannot exchange {format_tiles(action.tiles)}: give three tiles of one "
                    "suit that you hold")
        return "choose three tiles of one suit to exchange first"
    if pub.phase == "void":
        suits = [str(a).split()[-1] for a in legal]
        return f"choose your void suit ({', '.join(suits[:-1])} or {suits[-1]}) first"
    if pub.phase in ("claim", "rob"):
        w = pub.claim
        if isinstance(action, Hu) and w is not None and w.tile in s.banned:
            return f"you passed a win on {what} earlier and cannot win on it (过水不胡)"
        if isinstance(action, Hu) and s.bar is not None:
            return (f"you passed a win since your last draw: a win on {what} must be worth "
                    f"more than {s.bar} fan")
        if isinstance(action, Pong) and w is not None and w.tile in s.pong_ban:
            return f"you passed a pong of {what} since your last draw"
        if isinstance(action, Kong) and no_kong_room:
            return "no kong in the last four tiles"
        if isinstance(action, Kong | Pong) and s.void == suit_of(action.tile):
            return f"cannot claim a void-suit tile ({what})"
        if isinstance(action, Chow) and w is not None:
            if not st.rules.game_variant.chow:
                return "there is no chow in this game"
            if suit_of(w.tile) == "z":
                return f"honours cannot be chowed ({what})"
            if seat != (w.from_seat + 1) % 4:
                return f"you can chow only your 上家's discard (seat {(seat + 3) % 4})"
        options = ", ".join(str(a) for a in legal)
        return f"{action} is not possible on {what}; choose one of: {options}"
    # own turn
    if isinstance(action, Pass):
        return "nothing to pass: it is your turn to discard"
    if isinstance(action, Pong | Chow):
        return f"you can only {'pong' if isinstance(action, Pong) else 'chow'} another player's discard"
    if isinstance(action, Discard):
        if not pub.turn.after_pong and pub.locked[seat] and s.drawn is not None:
            return f"your hand is locked after winning: discard the drawn {tile_str(s.drawn)}"
        if not h[action.tile]:
            return f"you do not hold {tile_str(action.tile)}"
        if holds_suit(h, s.void) and s.void is not None:
            held = " ".join(tile_str(t) for t in range(SUIT_SLICES[s.void].start, SUIT_SLICES[s.void].stop)
                            if h[t])
            return f"must discard a void-suit tile first: {held}"
    if isinstance(action, Hu):
        if pub.turn.after_pong:
            return "after a pong or chow you must discard"
        if s.drawn is not None and s.drawn in s.banned:
            return (f"you passed a win on {tile_str(s.drawn)} earlier and cannot win on "
                    "it (过水不胡)")
        if holds_suit(h, s.void):
            return "cannot win while holding a void-suit tile"
        return "this hand is not a win"
    if isinstance(action, Kong):
        if pub.turn.after_pong:
            return "after a pong or chow you must discard"
        if no_kong_room:
            return "no kong in the last four tiles" if st.rules.no_kong_in_last_four \
                else "no kong: the wall is empty"
        if s.void == suit_of(action.tile):
            return f"cannot kong a void-suit tile ({tile_str(action.tile)})"
        if pub.locked[seat]:
            return "a locked hand may only kong the drawn tile, keeping its waits"
        return f"no kong of {tile_str(action.tile)} in this hand"
    options = ", ".join(str(a) for a in legal)
    return f"{action} is not possible now; choose one of: {options}"
