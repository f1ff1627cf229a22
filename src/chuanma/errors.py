"""Exception classes: every bad input raises one of these, never a bare ``ValueError``."""

from __future__ import annotations


class ChuanmaError(Exception):
    """Base class of the library's own errors."""


class NotationError(ChuanmaError, ValueError):
    """Tile or meld notation that cannot be read; the message names the bad part."""


class HandSizeError(NotationError):
    """A hand with the wrong number of tiles for what was asked."""


class TileCountError(NotationError):
    """More copies of a tile than the tile set holds (a fifth ``5m``)."""


class RuleSetError(ChuanmaError, ValueError):
    """An unknown rule option or preset, or a value the option does not accept."""
