"""The game engine: the state machine of a hand, settlement, records and replay."""

from chuanma.engine.chips import ChipError, settle_chips

__all__ = ["ChipError", "settle_chips"]
