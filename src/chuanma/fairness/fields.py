"""Reading a typed or hexadecimal field of a hand record, with an error that names the field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chuanma.errors import shown
from chuanma.fairness.errors import RecordError

_ARTICLES = {"str": "a string", "int": "an integer", "list": "a list", "dict": "an object"}


def require_field(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """``obj[key]`` if present and of type ``kind`` (``bool`` is not an ``int``), else
    :class:`RecordError` naming ``where + key`` (``where`` is the path, e.g. ``"seeds."``)."""
    if key not in obj:
        raise RecordError(f"the record has no {where}{key!r} field")
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise RecordError(f"{where}{key!r} must be {_ARTICLES.get(names, names)}, not {shown(value)}")
    return value


def parse_hex(text: str, length: int | None, name: str) -> bytes:
    """The bytes written in hex as ``text`` (exactly ``length`` of them if given), else
    :class:`RecordError` naming ``name``."""
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raise RecordError(f"{name} must be hexadecimal, not {text!r}") from None
    if length is not None and len(raw) != length:
        raise RecordError(f"{name} must be {length} bytes ({2 * length} hex digits), not {len(raw)}")
    return raw
