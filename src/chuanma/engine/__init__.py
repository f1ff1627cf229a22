"""The game engine: the state machine of a hand, settlement, records and replay.

See ``docs/engine.md``.
"""

from chuanma.engine.actions import (
    Action,
    ChooseVoid,
    Discard,
    Exchange,
    Hu,
    IllegalActionError,
    Kong,
    Leave,
    Pass,
    Pong,
    action_from_json,
)
from chuanma.engine.chips import ChipError, settle_chips
from chuanma.engine.events import Event
from chuanma.engine.game import DIRECTIONS, Direction, Game
from chuanma.engine.ledger import Payment, Win, totals
from chuanma.engine.record import RecordError, load, replay, replay_steps, to_record
from chuanma.engine.wall import WallError, build_wall, deal

__all__ = [
    "DIRECTIONS",
    "Action",
    "ChipError",
    "ChooseVoid",
    "Direction",
    "Discard",
    "Event",
    "Exchange",
    "Game",
    "Hu",
    "IllegalActionError",
    "Kong",
    "Leave",
    "Pass",
    "Payment",
    "Pong",
    "RecordError",
    "WallError",
    "Win",
    "action_from_json",
    "build_wall",
    "deal",
    "load",
    "replay",
    "replay_steps",
    "settle_chips",
    "to_record",
    "totals",
]
