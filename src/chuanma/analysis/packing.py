"""The bit layout of a packed per-suit value, and the limits the tables assume (no NumPy needed)."""

from __future__ import annotations

MAX_SETS = 4
"""The most sets a hand needs."""
MAX_TILES = 14
"""The most concealed tiles a hand holds: suit vectors of more tiles have the packed value 0."""

# Bit layout of the packed per-suit value (each field 6 bits wide, so four suits can be summed).
F_WIN = 0       # 1: complete with no pair, 4: complete with one pair, 0: not complete
F_EVEN = 6      # 1 if every count is even
F_SIZE = 12     # number of tiles
F_PAIRS = 18    # sum of count // 2
F_ODD = 24      # number of kinds with an odd count
F_WAIT0 = 30    # 9-bit mask: ranks whose addition completes the suit without a pair
F_WAIT1 = 39    # 9-bit mask: ranks whose addition completes the suit with one pair
F_CLASS = 48    # distance class
FIELD = 63
