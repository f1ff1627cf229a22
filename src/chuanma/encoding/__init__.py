"""Observation encoders: a seat's :class:`~chuanma.engine.views.SeatView` as a fixed-size array.

Two encoders, documented with their layouts in docs/rl.md:

- ``compact`` (:mod:`.compact`): counts per tile kind and a few scalars, a vector of
  :data:`~chuanma.encoding.compact.SIZE` numbers;
- ``planes`` (:mod:`.planes`): channels × 27 tile kinds, in the manner of Suphx and mjx.

Under 大众麻将 both have 34 tile kinds where they have 27 (the honours after ``9s``): the shape
depends on the rules' tile set (:func:`encoder` with the rules).

Both read the view alone (never the game), so an encoder cannot leak what the seat may not know.
Seats are relative: 0 is the viewer, 1 the seat after it, 2 the one opposite, 3 the one before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from chuanma.encoding import compact, planes
from chuanma.encoding.common import kinds_of
from chuanma.encoding.tracker import Tracker, encode_compact, encode_planes
from chuanma.engine import SeatView
from chuanma.errors import ChuanmaError
from chuanma.rules import RuleSet


class Encoder(Protocol):
    """An encoder: the view's observation, written into ``out`` (of the encoder's shape) when it
    is given."""

    def __call__(self, view: SeatView, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]: ...


class TrackedEncoder(Protocol):
    """An encoder of seats' observations from their trackers (tracker, seat, whether the seat
    owes a decision), written into the rows of ``out`` (of shape ``(len(seats), *shape)``)."""

    def __call__(self, seats: Sequence[tuple[Tracker, int, bool]],
                 out: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]: ...


ENCODERS: dict[str, tuple[Encoder, tuple[int, ...]]] = {
    "compact": (compact.encode, compact.SHAPE),
    "planes": (planes.encode, planes.SHAPE),
}
"""Every encoder by name: its function and the shape of what it returns (27 tile kinds)."""
TRACKED_ENCODERS: dict[str, TrackedEncoder] = {"compact": encode_compact, "planes": encode_planes}
"""Every encoder by name, writing observations from trackers (:mod:`.tracker`) instead of views:
the same arrays, written by the same writer (:class:`.compact.Rows`; the planes from the compact
ones by :func:`.planes.write_planes`), which ``test_tracked_observations_equal_the_views`` checks."""
_SHAPES: dict[str, Callable[[int], tuple[int, ...]]] = {"compact": compact.shape, "planes": planes.shape}


class UnknownEncoderError(ChuanmaError, ValueError):
    """An encoder name that is not in :data:`ENCODERS`."""


def encoder(name: str, rules: RuleSet | None = None) -> tuple[Encoder, tuple[int, ...]]:
    """The encoder called ``name`` and its output shape (under ``rules``: for their tile set)."""
    try:
        encode, shape = ENCODERS[name]
    except KeyError:
        raise UnknownEncoderError(
            f"unknown observation encoder {name!r}; encoders: {', '.join(ENCODERS)}") from None
    return encode, shape if rules is None else _SHAPES[name](kinds_of(rules))


__all__ = ["ENCODERS", "TRACKED_ENCODERS", "Encoder", "TrackedEncoder", "UnknownEncoderError", "encoder"]
