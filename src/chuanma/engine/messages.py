"""Messages for refused decisions: say what the rules require, in a player's words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chuanma.engine.actions import (
    Action,
    Discard,
    Exchange,
    Hu,
    Kong,
    Pass,
    Pong,
)
from chuanma.tiles import SUITS, format_tiles, tile_str

if TYPE_CHECKING:
    from chuanma.engine.game import Game

_SUIT_RANGES = {"m": range(0, 9), "p": range(9, 18), "s": range(18, 27)}


def _suit(tile: int) -> str:
    return SUITS[tile // 9]


def explain(game: Game, seat: int, action: Action) -> str:
    """Why ``action`` is not legal for ``seat`` now, in words a player understands."""
    if seat not in range(4):
        return f"no seat {seat!r}: seats are 0-3"
    if game.phase == "end":
        return "the hand is over"
    acting = game.to_act()
    if seat not in acting:
        if game.phase in ("exchange", "void") and seat in range(4):
            return f"seat {seat} has already chosen"
        if game.phase in ("claim", "rob"):
            what = tile_str(game.claim_tile) if game.claim_tile is not None else "?"
            return f"waiting for claims on {what}; seat {seat} has nothing to claim"
        return f"it is seat {game.current}'s turn, not seat {seat}'s"
    legal = game.legal_actions(seat)
    h = game.hands[seat]
    if game.phase == "exchange":
        if isinstance(action, Exchange):
            return (f"cannot exchange {format_tiles(action.tiles)}: give three tiles of one "
                    "suit that you hold")
        return "choose three tiles of one suit to exchange first"
    if game.phase == "void":
        return "choose your void suit (m, p or s) first"
    if game.phase in ("claim", "rob"):
        what = tile_str(game.claim_tile) if game.claim_tile is not None else "?"
        if legal == [Hu()]:
            return f"you must win on {what} in the last four tiles"
        if isinstance(action, Hu) and game.claim_tile in game.banned[seat]:
            return f"you passed a win on {what} earlier and cannot win on it (过水不胡)"
        if isinstance(action, Hu) and game.bar[seat] is not None:
            return (f"you passed a win since your last draw: a win on {what} must be worth "
                    f"more than {game.bar[seat]} fan")
        if isinstance(action, Pong) and game.claim_tile in game.pong_ban[seat]:
            return f"you passed a pong of {what} since your last draw"
        if isinstance(action, Kong) and not game._kong_room():
            return "no kong in the last four tiles"
        if isinstance(action, Kong | Pong) and game.voids[seat] == _suit(action.tile):
            return f"cannot claim a void-suit tile ({what})"
        options = ", ".join(str(a) for a in legal)
        return f"{action} is not possible on {what}; choose one of: {options}"
    # own turn
    if legal == [Hu()]:
        return "you must win on this tile in the last four tiles"
    if isinstance(action, Pass):
        return "nothing to pass: it is your turn to discard"
    if isinstance(action, Pong):
        return "you can only pong another player's discard"
    if isinstance(action, Discard):
        if game.after_pong is False and game.locked[seat] and game.drawn is not None:
            return f"your hand is locked after winning: discard the drawn {tile_str(game.drawn)}"
        if not h[action.tile]:
            return f"you do not hold {tile_str(action.tile)}"
        if game._holds_void(seat):
            v = game.voids[seat] or "m"
            held = " ".join(tile_str(t) for t in _SUIT_RANGES[v] if h[t])
            return f"must discard a void-suit tile first: {held}"
    if isinstance(action, Hu):
        if game.after_pong:
            return "after a pong you must discard"
        if game.drawn is not None and game.drawn in game.banned[seat]:
            return (f"you passed a win on {tile_str(game.drawn)} earlier and cannot win on "
                    "it (过水不胡)")
        if game._holds_void(seat):
            return "cannot win while holding a void-suit tile"
        return "this hand is not a win"
    if isinstance(action, Kong):
        if game.after_pong:
            return "after a pong you must discard"
        if not game._kong_room():
            return "no kong in the last four tiles" if game.rules.no_kong_in_last_four \
                else "no kong: the wall is empty"
        if game.voids[seat] == _suit(action.tile):
            return f"cannot kong a void-suit tile ({tile_str(action.tile)})"
        if game.locked[seat]:
            return "a locked hand may only kong the drawn tile, keeping its waits"
        return f"no kong of {tile_str(action.tile)} in this hand"
    options = ", ".join(str(a) for a in legal)
    return f"{action} is not possible now; choose one of: {options}"
