"""A fixed numbering of every action: the action space of learning agents.

Every action names its tile. The numbering never changes between hands, presets or versions of
the same schema; ranges are laid out for the 34 tile kinds (honours included), 大众麻将's chows and
honour tiles among them:

==========  =====  ==========================================================================
first       count  action
==========  =====  ==========================================================================
0           34     discard t (t = 0…33: ``1m``…``9s``, ``1z``…``7z``)
34          34     pong t
68          34     kong t (exposed on a discard, concealed or added on one's own turn: the
                   moment decides the kind, never ambiguously)
102         21     chow starting at t (suited ranks 1–7, in tile order: ``1m``…``7m``, ``1p``…; 大众麻将)
123         1      hu (win: self-drawn, on a discard or robbing a kong)
124         1      pass
125         3      void suit m, p, s
128         495    exchange: the three tiles given, a sorted multiset within one suit
==========  =====  ==========================================================================

``ACTION_COUNT`` is 623.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from numbers import Integral
from typing import TYPE_CHECKING

from chuanma.engine.actions import Action, ChooseVoid, Chow, Discard, Exchange, Hu, Kong, Pass, Pong
from chuanma.engine.tables import CHOW, DISCARD, EXCHANGE, HU, KONG, PASS, PONG, VOID
from chuanma.tiles import NUM_KINDS, NUM_SUITED, SUITS, Tile

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

DISCARD_AT = 0
PONG_AT = DISCARD_AT + NUM_KINDS
KONG_AT = PONG_AT + NUM_KINDS
CHOW_AT = KONG_AT + NUM_KINDS
CHOWS = 21
HU_AT = CHOW_AT + CHOWS
PASS_AT = HU_AT + 1
VOID_AT = PASS_AT + 1
EXCHANGE_AT = VOID_AT + len(SUITS)
EXCHANGES: tuple[tuple[Tile, Tile, Tile], ...] = tuple(
    c for c in combinations_with_replacement(range(NUM_SUITED), 3) if c[0] // 9 == c[2] // 9)
"""Every exchange choice, in index order."""
ACTION_COUNT = EXCHANGE_AT + len(EXCHANGES)

_EXCHANGE_INDEX = {c: EXCHANGE_AT + i for i, c in enumerate(EXCHANGES)}
CHOW_STARTS: tuple[Tile, ...] = tuple(t for t in range(NUM_SUITED) if t % 9 <= 6)
"""The first tile of every chow, in index order."""


class ActionIndexError(ValueError):
    """An index outside the action space, or an action without an index (leaving)."""


_TILE_ACTION_AT: dict[type, int] = {Discard: DISCARD_AT, Pong: PONG_AT, Kong: KONG_AT}
"""Where the range of each action that is just a tile starts."""


def to_index(action: Action) -> int:
    """The index of ``action``."""
    at = _TILE_ACTION_AT.get(type(action))
    if at is not None:
        return at + action.tile  # type: ignore[union-attr]
    if isinstance(action, Chow):
        return CHOW_AT + action.tile // 9 * 7 + action.tile % 9
    if isinstance(action, Hu):
        return HU_AT
    if isinstance(action, Pass):
        return PASS_AT
    if isinstance(action, ChooseVoid):
        return VOID_AT + SUITS.index(action.suit)
    if isinstance(action, Exchange):
        return _EXCHANGE_INDEX[tuple(sorted(action.tiles))]  # type: ignore[index]
    raise ActionIndexError(f"{action} has no index: leaving is not an action of the space")


ACTIONS: tuple[Action, ...] = (
    *DISCARD, *PONG, *KONG, *(CHOW[t] for t in CHOW_STARTS), HU, PASS, *(VOID[s] for s in SUITS),
    *(EXCHANGE[c] for c in EXCHANGES),
)
"""Each index's action: the engine's own objects where it keeps one per action (the legal lists
hold those), so that checking an action against them finds it without comparing values."""


def from_index(index: int) -> Action:
    """The action numbered ``index``."""
    if isinstance(index, bool) or not isinstance(index, Integral) or not 0 <= index < ACTION_COUNT:
        raise ActionIndexError(f"action index must be a whole number 0-{ACTION_COUNT - 1}, got {index!r}")
    return ACTIONS[int(index)]


def mask(actions: list[Action]) -> npt.NDArray[np.int8]:
    """An ``int8`` array of ``ACTION_COUNT`` with 1 at the index of each of ``actions``."""
    return index_mask([to_index(a) for a in actions])


def index_mask(indices: list[int]) -> npt.NDArray[np.int8]:
    """An ``int8`` array of ``ACTION_COUNT`` with 1 at each of ``indices``."""
    import numpy as np  # here, not at the top: the engine imports this module, the CLI the engine

    out = np.zeros(ACTION_COUNT, dtype=np.int8)
    out[indices] = 1
    return out
