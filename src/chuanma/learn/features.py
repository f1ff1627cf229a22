"""Hand-analysis inputs a policy derives from its own observation: what each discard does to the
hand's shanten and how many unseen tiles would then improve it. They read the observer's own
tiles, void and unseen counts in the observation, nothing else.

=====  =====  =========================================================================
first  count  what
=====  =====  =========================================================================
0      27     discarding this kind keeps the hand's best shanten (1), with 3n+2 tiles held
27     27     how much discarding this kind raises shanten over the best (÷ 3, at most 1)
54     27     after discarding this kind: unseen copies of the tiles that would lower
              shanten (÷ 20)
81     8      the best shanten: after the best discard (3n+2 tiles) or as held (3n+1),
              one-hot from −1 (complete) to 6
89     1      with 3n+1 tiles: unseen copies of the tiles that would lower shanten (÷ 20)
=====  =====  =========================================================================
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from chuanma.analysis.batch import shanten_batch
from chuanma.encoding.common import KINDS, RECENT
from chuanma.encoding.layout import ROWS, SEAT_AT, UNSEEN
from chuanma.tiles import NUM_KINDS

COUNT = 3 * KINDS + 9
USEFUL_SCALE = 1 / 20
_VOID_AT = ROWS * KINDS + 6  # the observer's void m/p/s one-hot among the compact scalars
_PLANES_VOID = SEAT_AT + 7 + RECENT  # the observer's void channel
_DRAWS = np.eye(NUM_KINDS, dtype=np.int8)[:KINDS]


def own_hand(obs: npt.NDArray[np.float32], encoder: str) -> tuple[npt.NDArray[np.int8], int, npt.NDArray[np.int8]]:
    """The observer's concealed tiles (34 counts), void suit index (-1: none) and unseen counts
    (27), read back from its observation."""
    hand = np.zeros(NUM_KINDS, np.int8)
    if encoder == "compact":
        hand[:KINDS] = obs[:KINDS]
        unseen = obs[UNSEEN * KINDS:(UNSEEN + 1) * KINDS].astype(np.int8)
        void_bits = obs[_VOID_AT:_VOID_AT + 3]
    else:
        hand[:KINDS] = obs[0:4].sum(axis=0)
        unseen = obs[7:11].sum(axis=0).astype(np.int8)
        void_bits = obs[_PLANES_VOID].reshape(3, 9)[:, 0]
    held = np.flatnonzero(void_bits)
    return hand, int(held[0]) if len(held) else -1, unseen


def _useful(hands: npt.NDArray[np.int8], shantens: npt.NDArray[np.int8], void: int,
            unseen: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]:
    """For each of ``hands`` (3n+1 tiles): unseen copies of the tiles that would lower its shanten."""
    drawable = np.flatnonzero(unseen > 0)
    if len(drawable) == 0:
        return np.zeros(len(hands), np.float32)
    plus = (hands[:, None, :] + _DRAWS[drawable][None]).reshape(-1, NUM_KINDS)
    better = shanten_batch(plus, np.full(len(plus), void, np.int8)).reshape(len(hands), -1) < shantens[:, None]
    useful: npt.NDArray[np.float32] = (better * unseen[drawable]).sum(axis=1).astype(np.float32)
    return useful


def features(obs: npt.NDArray[np.float32], encoder: str) -> npt.NDArray[np.float32]:
    """The :data:`COUNT` analysis inputs of one observation (layout in the module docstring)."""
    hand, void, unseen = own_hand(obs, encoder)
    out = np.zeros(COUNT, dtype=np.float32)
    n = int(hand.sum())
    if n % 3 == 2:
        held = np.flatnonzero(hand)
        after = np.repeat(hand[None], len(held), axis=0)
        after[np.arange(len(held)), held] -= 1
        shantens = shanten_batch(after, np.full(len(held), void, np.int8))
        best = int(shantens.min())
        out[held] = shantens == best
        out[KINDS + held] = np.minimum(shantens - best, 3) / 3
        out[2 * KINDS + held] = _useful(after, shantens, void, unseen) * USEFUL_SCALE
    elif n % 3 == 1:
        now = shanten_batch(hand[None], np.array([void], np.int8))
        best = int(now[0])
        out[3 * KINDS + 8] = _useful(hand[None], now, void, unseen)[0] * USEFUL_SCALE
    else:  # pragma: no cover - a hand between decisions holds 3n+1 or 3n+2 tiles
        return out
    out[3 * KINDS + min(best + 1, 7)] = 1
    return out
