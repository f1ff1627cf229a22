"""Reading JSON input (files, lines, option values) with a clear :class:`InputError` for bad input.

Besides text that is not JSON, this refuses what would crash or stall later processing: a file
that is not UTF-8, values nested deeper than :data:`MAX_DEPTH`, numbers too long to read and an
object with a key twice (parsers keep one or the other: what it says is ambiguous).
"""

from __future__ import annotations

import json
import os
from typing import Any

from chuanma.errors import InputError

MAX_DEPTH = 32
"""The deepest nesting of lists and objects accepted (records and score lines need 4)."""

JSON_WHITESPACE = " \t\n\r"
"""The only characters JSON allows between values; a line of nothing else is blank (``str.strip()``
also removes separators such as ``\\x1c`` and Unicode spaces, which are not JSON)."""


class _DuplicateKeyError(Exception):
    """An object of the input holds a key twice (``args[0]`` is the key)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """The object of ``pairs``; :class:`_DuplicateKeyError` if a key comes twice."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKeyError(key)
        out[key] = value
    return out


def parse_json(text: str, where: str) -> Any:
    """The JSON value of ``text``; ``where`` names it in error messages (``line 3``, a path)."""
    try:
        value = json.loads(text, object_pairs_hook=_unique_keys)
    except _DuplicateKeyError as exc:
        raise InputError(f"{where} has the key {exc.args[0]!r} twice in one object") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{where} is not valid JSON: {exc}") from None
    except RecursionError:
        raise InputError(f"{where} is nested deeper than {MAX_DEPTH} levels") from None
    except ValueError:  # an integer beyond Python's digit limit
        raise InputError(f"{where} holds a number with thousands of digits") from None
    check_depth(value, where)
    return value


def read_json(path: str | os.PathLike[str]) -> Any:
    """The JSON value of the UTF-8 file at ``path``."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        raise InputError(f"no such file: {os.fspath(path)}") from None
    except OSError as exc:
        raise InputError(f"cannot read {os.fspath(path)}: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{os.fspath(path)} is not UTF-8 text (byte {exc.start})") from None
    return parse_json(text, os.fspath(path))


def nesting(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (a scalar: 0), found without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in children)
    return deepest


def check_depth(value: Any, where: str) -> None:
    """Refuse lists and objects nested deeper than :data:`MAX_DEPTH`."""
    if nesting(value) > MAX_DEPTH:
        raise InputError(f"{where} is nested deeper than {MAX_DEPTH} levels")
