"""Exception classes: every bad input raises one of these, never a bare ``ValueError``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

SHOWN_LIMIT = 60
"""The longest a bad value is quoted in an error message (in characters)."""


ERROR_CODES: dict[str, tuple[str, ...]] = {
    "hand_size": ("tiles", "expected"),
    "too_many_melds": ("melds",),
    "tile_count": ("tile", "most"),
    "no_honours": (),
    "no_chow": (),
    "situation_self_drawn": ("situation",),
    "situation_discard": ("situation",),
    "consecutive_kongs": (),
    "heaven_earth_melds": (),
    "void_suit": (),
    "no_void": (),
    "discarder": (),
    "rule_value": ("option",),
    "rule_total": ("total", "most"),
    "rules": (),
    "input": (),
}
"""What an error may say besides its English message, for a front end to word in its own language
(the calculator page does: ``calc.err.<code>``): each code and the names of its facts. ``hand_size``:
``tiles`` given, the sizes ``expected``; ``tile_count``: the ``tile`` (``5m``) held more than
``most`` times; ``situation_*``: the situation that needs a self-drawn win or a discard;
``rule_value``: the rule ``option`` given a value it does not take; ``rule_total``: a rule set
whose wins could reach ``total`` fan, above the ``most`` a rule set may reach. ``rules`` (a rule set) and
``input`` (anything else) are what :func:`error_facts` says of an error without a code."""


class ChuanmaError(Exception):
    """Base class of the library's own errors."""


class CodedError(ChuanmaError):
    """Bad input: an English message and, where a front end words it itself, a ``code`` of
    :data:`ERROR_CODES` with its ``facts``."""

    def __init__(self, message: str, code: str | None = None, **facts: object) -> None:
        super().__init__(message)
        if code is not None and tuple(facts) != ERROR_CODES[code]:
            raise TypeError(f"error code {code!r} takes the facts {ERROR_CODES[code]}, got {tuple(facts)}")
        self.code = code
        self.facts = facts


class NotationError(CodedError, ValueError):
    """Tile or meld notation that cannot be read; the message names the bad part."""


class HandSizeError(NotationError):
    """A hand with the wrong number of tiles for what was asked."""


class TileCountError(NotationError):
    """More copies of a tile than the tile set holds (a fifth ``5m``)."""


class RuleSetError(CodedError, ValueError):
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
        raise type(exc)(f"{part}: {exc}", exc.code, **exc.facts) from None


def error_facts(exc: Exception) -> dict[str, object]:
    """``{"code", …facts}``: what ``exc`` says, for a front end to word (:data:`ERROR_CODES`); an
    error without a code is ``rules`` (a :class:`RuleSetError`) or ``input``."""
    if isinstance(exc, CodedError) and exc.code is not None:
        return {"code": exc.code, **exc.facts}
    return {"code": "rules" if isinstance(exc, RuleSetError) else "input"}
