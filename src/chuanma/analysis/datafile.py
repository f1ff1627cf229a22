"""The file the analysis tables ship in, read without NumPy.

The file (:data:`DATA_FILE`, next to this module) is one zlib-compressed byte string: a JSON
header line ``{"format": FORMAT, "arrays": [[name, dtype, shape], ...]}``, then each array's
little-endian bytes in C order, each starting at a multiple of :data:`ALIGN` bytes (zero padding
before it). :func:`chuanma.analysis.tables.encode` writes it.
"""

from __future__ import annotations

import json
import struct
import sys
import zlib
from functools import cache
from importlib import resources
from typing import Literal

DATA_FILE = "tables.bin"
FORMAT = "chuanma-tables-1"
ALIGN = 8
_ITEM_FORMATS: dict[str, Literal["q", "h", "b"]] = {"<i8": "q", "<i2": "h", "|i1": "b"}
"""The dtypes the file holds and their ``memoryview`` formats."""


Array = tuple["memoryview[int]", tuple[int, ...]]
"""A flat read-only view of an array's items, and its shape."""


class TablesDataError(RuntimeError):
    """The shipped tables file is missing, damaged or of another format."""


def shipped_data() -> bytes:
    """The shipped file's content, decompressed."""
    try:
        return zlib.decompress(resources.files(__package__).joinpath(DATA_FILE).read_bytes())
    except (OSError, zlib.error) as exc:
        raise TablesDataError(
            f"the hand-analysis tables ({DATA_FILE} in chuanma.analysis) are missing or damaged: {exc}; "
            "reinstall chuanma"
        ) from exc


def read_arrays(raw: bytes) -> dict[str, Array]:
    """Each array of the byte string ``raw``: a flat read-only view of its items, and its shape."""
    if sys.byteorder != "little":
        raise TablesDataError("the hand-analysis tables are read on little-endian machines only")
    end = raw.index(b"\n") + 1
    header = json.loads(raw[:end])
    if header.get("format") != FORMAT:
        raise TablesDataError(f"tables data has format {header.get('format')!r}, expected {FORMAT!r}")
    view = memoryview(raw)
    out = {}
    offset = end
    for name, dtype, shape in header["arrays"]:
        offset += -offset % ALIGN
        fmt = _ITEM_FORMATS[dtype]
        count = 1
        for n in shape:
            count *= n
        size = count * struct.calcsize(fmt)
        out[name] = (view[offset : offset + size].cast(fmt), tuple(shape))
        offset += size
    return out


@cache
def shipped_arrays() -> dict[str, Array]:
    """The arrays of the shipped file, read once per process."""
    return read_arrays(shipped_data())
