"""Observation encoders: what one seat of a hand may know, as a fixed-size ``float32`` array.

Two encoders, documented with their layouts in docs/rl.md and :mod:`.layout`:

- ``compact``: counts per tile kind and a few scalars, a vector of
  :data:`~chuanma.encoding.layout.SIZE` numbers;
- ``planes``: channels × 27 tile kinds, in the manner of Suphx and mjx.

Under 大众麻将 both have 34 tile kinds where they have 27 (the honours after ``9s``): the shape
depends on the rules' tile set (:func:`encoder` with the rules).

An encoder is a function of a :data:`SeatObserver` (``Game.core.observer(seat)``: one seat's
read-only window on the compiled hand) and the array to write: the compiled core redacts the hand
to what that seat may know (its seat view) and encodes that view, so an encoder cannot leak what
the seat may not know. Seats are relative: 0 is the viewer, 1 the
seat after it, 2 the one opposite, 3 the one before.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

from chuanma import _core
from chuanma.encoding.common import kinds_of
from chuanma.encoding.layout import COMPACT_SHAPE, PLANES_SHAPE, compact_shape, planes_shape
from chuanma.errors import ChuanmaError
from chuanma.rules import RuleSet

SeatObserver = _core.SeatObserver
"""One seat's read-only window on a compiled hand (``Game.core.observer(seat)``): what an encoder
reads, and all a :class:`~chuanma.bots.HandReader` is handed."""


class Encoder(Protocol):
    """An encoder: ``observer``'s observation of its hand, written into ``out`` (a C-contiguous
    ``float32`` array of the encoder's shape for the hand's rules) and returned."""

    def __call__(self, observer: SeatObserver, out: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]: ...


def encode_compact(observer: SeatObserver, out: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The compact encoding of what ``observer``'s seat may know of its hand, written into ``out``."""
    observer.encode_compact(out)
    return out


def encode_planes(observer: SeatObserver, out: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The planes encoding of what ``observer``'s seat may know of its hand, written into ``out``."""
    observer.encode_planes(out)
    return out


ENCODERS: dict[str, tuple[Encoder, tuple[int, ...]]] = {
    "compact": (encode_compact, COMPACT_SHAPE),
    "planes": (encode_planes, PLANES_SHAPE),
}
"""Every encoder by name: its function and the shape of what it writes (27 tile kinds)."""
SHAPES = {"compact": compact_shape, "planes": planes_shape}
"""Every encoder's shape for a number of tile kinds, by name."""


class UnknownEncoderError(ChuanmaError, ValueError):
    """An encoder name that is not in :data:`ENCODERS`."""


def encoder(name: str, rules: RuleSet | None = None) -> tuple[Encoder, tuple[int, ...]]:
    """The encoder called ``name`` and its output shape (under ``rules``: for their tile set)."""
    try:
        encode, shape = ENCODERS[name]
    except KeyError:
        raise UnknownEncoderError(
            f"unknown observation encoder {name!r}; encoders: {', '.join(ENCODERS)}") from None
    return encode, shape if rules is None else SHAPES[name](kinds_of(rules))


__all__ = ["ENCODERS", "SHAPES", "Encoder", "SeatObserver", "UnknownEncoderError", "encode_compact", "encode_planes",
           "encoder"]
