"""Exception classes: every bad input raises one of these, never a bare ``ValueError``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

SHOWN_LIMIT = 60
"""The longest a bad value is quoted in an error message (in characters)."""


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


class InputError(ChuanmaError, ValueError):
    """A file or JSON text that cannot be read (missing, not UTF-8, not JSON, nested too deep)."""


def shown(value: object) -> str:
    """``repr(value)`` cut to :data:`SHOWN_LIMIT` characters, for quoting bad input in a message.

    Never fails: an integer too long to print or a structure nested too deep is described instead.
    """
    try:
        text = repr(value)
    except ValueError:  # an integer beyond Python's digit limit for printing
        return "an integer of thousands of digits"
    except RecursionError:
        return f"a {type(value).__name__} nested too deep to show"
    return text if len(text) <= SHOWN_LIMIT else text[: SHOWN_LIMIT - 1] + "…"


def naming(part: str, parse: Callable[[], T]) -> T:
    """``parse()``, its :class:`NotationError` prefixed with the input ``part`` it is about."""
    try:
        return parse()
    except NotationError as exc:
        raise type(exc)(f"{part}: {exc}") from None
