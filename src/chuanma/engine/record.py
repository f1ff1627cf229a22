"""Game records (``chuanma-record/2``) and their replay.

A record holds what a hand is a pure function of: the rules, the wall, the dealer, the exchange
direction and the players' decisions in order. Replaying it rebuilds every event and payment.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from chuanma.engine.actions import (
    CLAIMS,
    Action,
    ChooseVoid,
    Discard,
    Hu,
    IllegalActionError,
    Leave,
    action_from_json,
)
from chuanma.engine.game import Game
from chuanma.engine.record_fields import RecordError as RecordError
from chuanma.engine.record_fields import older_meaning, record_fields, record_of
from chuanma.engine.wall import NO_KONG
from chuanma.errors import ChuanmaError, InputError, NotationError
from chuanma.json_input import read_json


def to_record(game: Game) -> dict[str, Any]:
    """The record of ``game`` (complete once the hand is finished)."""
    return record_of(game.state)


def _game_from(record: Mapping[str, Any]) -> Game:
    fields = record_fields(record)
    deal = fields.deal
    try:
        return Game(fields.rules, deal.wall, deal.dealer, deal.direction, seeds=deal.seeds)
    except ChuanmaError as exc:
        raise RecordError(str(exc)) from None


def replay(record: Mapping[str, Any], *, complete: bool = True) -> Game:
    """Play a record's decisions again; refuses an illegal decision with its index.

    Claims on a discard (or an added kong) are the claims made on it; every other seat that
    could claim is taken to pass (or, if it must win in the last four, to win; a seat that must
    win on its own draw and says nothing wins too). Automatic
    decisions (a void forced by a two-suit hand, a locked 血流 hand discarding its draw) may be
    left out; if present they must agree.
    """
    *_, game = replay_steps(record)
    if complete and not game.finished:
        waiting = ", ".join(str(s) for s in game.to_act())
        raise RecordError(f"the record ends before the hand is over (waiting for seat {waiting})")
    return game


def replay_steps(record: Mapping[str, Any]) -> Iterator[Game]:
    """The replay of :func:`replay` move by move: the same game, yielded once dealt, after each
    decision, and once more if the answers the record leaves out at its end (passes, forced wins)
    carried the hand on."""
    game = _game_from(record)
    decisions = record.get("decisions", [])
    if not isinstance(decisions, list):
        raise RecordError("decisions must be a list")
    matchable = _writable(game.autos)
    yield game
    for i, d in enumerate(decisions):
        if not isinstance(d, Mapping) or not isinstance(d.get("seat"), int):
            raise RecordError(f"a decision is an object with a seat 0-3, got {d!r}", i)
        try:
            _replay_decision(game, matchable, d["seat"], i, d)
        except RecordError as exc:
            why = older_meaning(record)
            if why is None or "kong" not in d or game.state.remaining != NO_KONG:  # not the kong it explains
                raise
            raise RecordError(f"{exc}; {why}") from None  # the message names the decision already
        yield game
    mark = len(game.events)
    while _take_omitted(game, None, None):
        pass
    if len(game.events) > mark:
        yield game


def _replay_decision(game: Game, matchable: list[tuple[int, Action]], seat: int, i: int,
                     d: Mapping[str, Any]) -> None:
    """Apply the record's decision ``i`` (``matchable``: the automatic decisions it may write out)."""
    try:
        action = action_from_json(d, game.rules.tiles)
    except NotationError as exc:
        raise RecordError(str(exc), i) from None
    # A written-out automatic move is matched first against the moves already carried out (the
    # answers to a locked discard come after it in the record; two locked hands in a row have
    # both discarded); then one answer the decision does not give is taken, and so on.
    while True:
        if _matched(game, matchable, seat, action, None):
            return
        mark = len(game.autos)
        if not _take_omitted(game, seat, action):
            break
        matchable += _writable(game.autos[mark:])
    if _matched(game, matchable, seat, action, i):
        return
    mark = len(game.autos)
    try:
        game.apply(seat, action)
    except IllegalActionError as exc:
        raise RecordError(f"seat {seat} cannot {action}: {exc}", i) from None
    keep = [a for a in matchable if isinstance(a[1], ChooseVoid) and isinstance(action, ChooseVoid)]
    matchable[:] = keep + _writable(game.autos[mark:])


def _take_omitted(game: Game, seat: int | None, action: Action | None) -> bool:
    """Take one answer left out before ``seat``'s ``action`` (``None``: the record's end), if any:
    a claim window it does not answer is closed with passes (a seat that must win wins; closing
    it may let a locked hand discard and open the next), and a seat other than ``seat`` that must
    win on its own draw wins (RULES §9.10). Nothing is taken before a leave."""
    if isinstance(action, Leave):
        return False
    if game.phase in ("claim", "rob"):
        if isinstance(action, CLAIMS) and seat in game.to_act():
            return False
        game.pass_pending()
        return True
    if game.phase == "turn" and seat != game.current and game.legal_actions(game.current) == [Hu()]:
        game.apply(game.current, Hu())
        return True
    return False


def _matched(game: Game, matchable: list[tuple[int, Action]], seat: int, action: Action,
             index: int | None) -> bool:
    """Whether ``action``, not a legal decision now, is ``seat``'s earliest automatic decision not
    yet matched (it is then consumed); given the decision's ``index``, a written automatic
    decision that disagrees with what happened is refused."""
    if isinstance(action, Leave) or action in game.legal_actions(seat):
        return False
    found = next((a for a in matchable if a[0] == seat), None)
    if found is None or type(found[1]) is not type(action) or (found[1] != action and index is None):
        return False
    if found[1] != action:
        raise RecordError(f"seat {seat}'s {_kind(action)} was automatic ({found[1]}), not {action}", index)
    matchable.remove(found)
    return True


def _writable(autos: list[tuple[int, Action]]) -> list[tuple[int, Action]]:
    """Automatic decisions a record may write out (forced voids, locked discards)."""
    return [a for a in autos if isinstance(a[1], ChooseVoid | Discard)]


def _kind(action: Action) -> str:
    return next(iter(action.to_json()))


def load(path: str) -> dict[str, Any]:
    """Read a record file (UTF-8 JSON); its fields are checked when it is replayed."""
    try:
        data = read_json(path)
    except InputError as exc:
        raise RecordError(str(exc)) from None
    if not isinstance(data, dict):
        raise RecordError(f"{path}: a record is a JSON object")
    return data
