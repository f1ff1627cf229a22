"""The replay viewer's data: a finished hand's views, move by move, rebuilt by the engine.

Move 0 is the deal; move ``k`` is the hand after the record's ``k``-th decision (and a last move
when closing the record's last claim window carried the hand on). A seat's view is
:meth:`Game.view` and its events :meth:`Game.events_for`: exactly what that seat saw at the table.
``"all"`` opens every hand: the spectator's view with each seat's own part from that seat's view,
and every event in full. Only finished hands are replayed (their records are public anyway).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from chuanma.engine import Game, RecordError, replay_steps
from chuanma.errors import shown

Viewer = int | Literal["all"]
VIEWERS: tuple[Viewer, ...] = (0, 1, 2, 3, "all")


def read_viewer(value: object) -> Viewer:
    """``"all"`` or a seat 0–3 (as a number or its digit); anything else is a :class:`RecordError`."""
    if value == "all":
        return "all"
    if isinstance(value, str) and value in ("0", "1", "2", "3"):
        return int(value)
    if type(value) is int and 0 <= value <= 3:
        return value
    raise RecordError(f"seat must be 0, 1, 2, 3 or \"all\", not {shown(value)}")


def _open_view(game: Game) -> dict[str, Any]:
    out = game.view(None).to_dict()
    for seat in range(4):
        own = game.view(seat).to_dict()
        out["players"][seat] = own["players"][seat]
        if "drawn" in own:
            out["drawn"] = own["drawn"]
    return out


def _view(game: Game, viewer: Viewer) -> dict[str, Any]:
    return _open_view(game) if viewer == "all" else game.view(viewer).to_dict()


def replay_view(record: Mapping[str, Any], viewer: Viewer, move: int | None) -> dict[str, Any]:
    """The hand of ``record`` at ``move`` (``None``: the last) as ``viewer`` sees it, with every
    move's decision and the viewer's events (each with the move it belongs to)."""
    if move is not None and (type(move) is not int or move < 0):
        raise RecordError(f"move must be a whole number from 0, not {shown(move)}")
    ends: list[int] = []
    view: dict[str, Any] | None = None
    game: Game | None = None
    for game in replay_steps(record):
        if move is not None and len(ends) == move:
            view = _view(game, viewer)
        ends.append(len(game.events))
    assert game is not None
    if not game.finished:
        raise RecordError("the record ends before the hand is over")
    last = len(ends) - 1
    if move is None:
        move, view = last, _view(game, viewer)
    if view is None:
        raise RecordError(f"move {move} is past the end of the hand (moves 0-{last})")
    move_of: dict[int, int] = {}
    k = 0
    for i, ev in enumerate(game.events):
        while ends[k] <= i:
            k += 1
        move_of[ev.seq] = k
    events = [ev.to_json() for ev in game.events] if viewer == "all" else game.events_for(viewer)
    decisions = [{"seat": seat, **action.to_json()} for seat, action in game.decisions]
    return {
        "seat": viewer, "move": move, "moves": last,
        "decisions": decisions[:last],
        "events": [{**ev, "move": move_of[ev["seq"]]} for ev in events],
        "view": view,
        "result": game.result(),
    }
