"""Observation encoders: a seat's :class:`~chuanma.engine.views.SeatView` as a fixed-size array.

Two encoders, documented with their layouts in docs/rl.md:

- ``compact`` (:mod:`.compact`): counts per tile kind and a few scalars, a vector of
  :data:`~chuanma.encoding.compact.SIZE` numbers;
- ``planes`` (:mod:`.planes`): channels × 27 tile kinds, in the manner of Suphx and mjx.

Both read the view alone (never the game), so an encoder cannot leak what the seat may not know.
Seats are relative: 0 is the viewer, 1 the seat after it, 2 the one opposite, 3 the one before.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

from chuanma.encoding import compact, planes
from chuanma.engine.views import SeatView
from chuanma.errors import ChuanmaError


class Encoder(Protocol):
    """An encoder: the view's observation, written into ``out`` (of the encoder's shape) when it
    is given."""

    def __call__(self, view: SeatView, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]: ...


ENCODERS: dict[str, tuple[Encoder, tuple[int, ...]]] = {
    "compact": (compact.encode, compact.SHAPE),
    "planes": (planes.encode, planes.SHAPE),
}
"""Every encoder by name: its function and the shape of what it returns."""


class UnknownEncoderError(ChuanmaError, ValueError):
    """An encoder name that is not in :data:`ENCODERS`."""


def encoder(name: str) -> tuple[Encoder, tuple[int, ...]]:
    """The encoder called ``name`` and its output shape."""
    try:
        return ENCODERS[name]
    except KeyError:
        raise UnknownEncoderError(
            f"unknown observation encoder {name!r}; encoders: {', '.join(ENCODERS)}") from None


__all__ = ["ENCODERS", "Encoder", "UnknownEncoderError", "encoder"]
