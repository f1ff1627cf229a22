"""The game engine: the state machine of a hand, settlement, records and replay.

This package's names are the engine's API: code outside ``chuanma.engine`` imports from here,
never from its modules (``tests/test_engine_structure.py`` enforces it). See ``docs/engine.md``.
"""

from chuanma.engine.actions import (
    Action,
    ChooseVoid,
    Chow,
    Discard,
    Exchange,
    Hu,
    IllegalActionError,
    Kong,
    Leave,
    Pass,
    Pong,
    StaleCommandError,
    action_from_json,
)
from chuanma.engine.chips import ChipError, settle_chips
from chuanma.engine.events import Event
from chuanma.engine.game import DIRECTIONS, Direction, Game, core_rules
from chuanma.engine.indices import ACTION_COUNT, ActionIndexError, from_index, mask, to_index
from chuanma.engine.ledger import Payment, Win, totals
from chuanma.engine.outcome import HandOutcome, hand_outcome
from chuanma.engine.record import RecordError, load, replay, replay_steps, to_record
from chuanma.engine.record_fields import FORMAT, FORMATS, deal_fields
from chuanma.engine.referee import OpenSeat
from chuanma.engine.tables import TILE_TEXT, format_counts
from chuanma.engine.views import PlayerView, SeatView, shown_parts
from chuanma.engine.wall import WallError, build_wall, deal, in_last_four
from chuanma.engine.wins import self_drawn_each

__all__ = [
    "ACTION_COUNT",
    "DIRECTIONS",
    "FORMAT",
    "FORMATS",
    "TILE_TEXT",
    "Action",
    "ActionIndexError",
    "ChipError",
    "ChooseVoid",
    "Chow",
    "Direction",
    "Discard",
    "Event",
    "Exchange",
    "Game",
    "HandOutcome",
    "Hu",
    "IllegalActionError",
    "Kong",
    "Leave",
    "OpenSeat",
    "Pass",
    "Payment",
    "PlayerView",
    "Pong",
    "RecordError",
    "SeatView",
    "StaleCommandError",
    "WallError",
    "Win",
    "action_from_json",
    "build_wall",
    "core_rules",
    "deal",
    "deal_fields",
    "format_counts",
    "from_index",
    "hand_outcome",
    "in_last_four",
    "load",
    "mask",
    "replay",
    "replay_steps",
    "self_drawn_each",
    "settle_chips",
    "shown_parts",
    "to_index",
    "to_record",
    "totals",
]
