"""The words of each refusal: one template by the rule that refuses, filled with the facts the
compiled core names (``chuanma._core.Hand.refusal``: code, rule, facts)."""

from __future__ import annotations

from collections.abc import Mapping

from chuanma.engine.indices import from_index
from chuanma.tiles import parse_tiles, tile_str

TEMPLATES: dict[str, str] = {
    "hand_over": "the hand is over",
    "already_chosen": "seat {seat} has already chosen",
    "already_answered": "seat {seat} has already answered the claim on {tile}",
    "nothing_to_claim": "seat {seat} has nothing to claim on {tile}",
    "others_turn": "it is seat {current}'s turn, not seat {seat}'s",
    "must_win_on_claim": "you must win on {tile} in the last four tiles",
    "must_win_on_draw": "you must win on this tile in the last four tiles",
    "bad_exchange": "cannot {action}: give three tiles of one suit that you hold",
    "exchange_first": "choose three tiles of one suit to exchange first",
    "void_first": "choose your void suit ({suits}) first",
    "passed_win": "you passed a win on {tile} earlier and cannot win on it (过水不胡)",
    "win_bar": "you passed a win since your last draw: a win on {tile} must be worth more than {bar} fan",
    "passed_pong": "you passed a pong of {tile} since your last draw",
    "no_kong_last_four": "no kong in the last four tiles",
    "no_kong_empty_wall": "no kong: the wall is empty",
    "void_claim": "cannot claim a void-suit tile ({tile})",
    "no_chow": "there is no chow in this game",
    "honour_chow": "honours cannot be chowed ({tile})",
    "chow_from_left": "you can chow only your 上家's discard (seat {seat})",
    "choose_on_claim": "{action} is not possible on {tile}; choose one of: {legal}",
    "nothing_to_pass": "nothing to pass: it is your turn to discard",
    "pong_on_turn": "you can only pong another player's discard",
    "chow_on_turn": "you can only chow another player's discard",
    "locked_discard": "your hand is locked after winning: discard the drawn {tile}",
    "not_held": "you do not hold {tile}",
    "void_discard_first": "must discard a void-suit tile first: {held}",
    "after_pong": "after a pong or chow you must discard",
    "passed_self_win": "you passed a win on {tile} earlier and cannot win on it (过水不胡)",
    "holds_void": "cannot win while holding a void-suit tile",
    "not_a_win": "this hand is not a win",
    "void_kong": "cannot kong a void-suit tile ({tile})",
    "locked_kong": "a locked hand may only kong the drawn tile, keeping its waits",
    "no_kong": "no kong of {tile} in this hand",
    "choose_on_turn": "{action} is not possible now; choose one of: {legal}",
}
"""Each rule's words; ``{name}`` stands for a fact (or what :func:`refusal_message` makes of one)."""


def refusal_message(rule: str, facts: Mapping[str, object]) -> str:
    """The words of a refusal by ``rule`` naming ``facts`` (the legal actions and the action as
    their text, the void suits on offer, a void suit's tiles one by one)."""
    shown = dict(facts)
    legal, action = facts.get("legal"), facts.get("action")
    if isinstance(action, int):
        shown["action"] = str(from_index(action))
    if isinstance(legal, list):
        actions = [str(from_index(i)) for i in legal]
        shown["legal"] = ", ".join(actions)
        suits = [a.split()[-1] for a in actions]
        shown["suits"] = f"{', '.join(suits[:-1])} or {suits[-1]}"
    tiles = facts.get("tiles")
    if isinstance(tiles, str):
        shown["held"] = " ".join(tile_str(t) for t in parse_tiles(tiles))
    return TEMPLATES[rule].format(**shown)
