"""Hand-analysis inputs a policy derives from its own observation: what each discard does to the
hand's shanten. They read the observer's own tiles and void in the observation, nothing else.

=====  =====  =========================================================================
first  count  what
=====  =====  =========================================================================
0      27     discarding this kind keeps the hand's best shanten (1), with 3n+2 tiles held
27     27     how much discarding this kind raises shanten over the best (÷ 3, at most 1)
54     8      the best shanten: after the best discard (3n+2 tiles) or as held (3n+1),
              one-hot from −1 (complete) to 6
=====  =====  =========================================================================
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from chuanma.analysis import shanten
from chuanma.encoding import compact, planes
from chuanma.encoding.common import KINDS, VOID_CODES

COUNT = 2 * KINDS + 8
_VOID_AT = compact.ROWS * KINDS + 6  # the observer's void m/p/s one-hot among the compact scalars
_PLANES_VOID = planes.SEAT_AT + 7 + planes.RECENT  # the observer's void channel


def own_hand(obs: npt.NDArray[np.float32], encoder: str) -> tuple[list[int], str | None]:
    """The observer's concealed tiles (counts) and void suit, read back from its observation."""
    if encoder == "compact":
        hand = [int(c) for c in obs[:KINDS]]
        void_bits = obs[_VOID_AT:_VOID_AT + 3]
    else:
        hand = [int(c) for c in obs[0:4].sum(axis=0)]
        void_bits = obs[_PLANES_VOID].reshape(3, 9)[:, 0]
    held = np.flatnonzero(void_bits)
    return hand, VOID_CODES[int(held[0])] if len(held) else None


def features(obs: npt.NDArray[np.float32], encoder: str) -> npt.NDArray[np.float32]:
    """The :data:`COUNT` analysis inputs of one observation (layout in the module docstring)."""
    hand, void = own_hand(obs, encoder)
    out = np.zeros(COUNT, dtype=np.float32)
    n = sum(hand)
    if n % 3 == 2:
        after = {}
        for t in range(KINDS):
            if hand[t]:
                hand[t] -= 1
                after[t] = shanten(hand + [0] * 7, void)
                hand[t] += 1
        best = min(after.values())
        for t, s in after.items():
            out[t] = float(s == best)
            out[KINDS + t] = min(s - best, 3) / 3
    elif n % 3 == 1:
        best = shanten(hand + [0] * 7, void)
    else:  # pragma: no cover - a hand between decisions holds 3n+1 or 3n+2 tiles
        return out
    out[2 * KINDS + min(best + 1, 7)] = 1
    return out
