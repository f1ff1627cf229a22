"""Tiles and their text notation (``123m456p789s11z``).

A tile is an ``int``: 0–8 are 1m–9m (万), 9–17 are 1p–9p (筒), 18–26 are 1s–9s (条) and
27–33 the honours 1z–7z (東南西北白發中, used only by 大众麻将). Hands are usually handled as
*counts*: a list of 34 ints, the number of copies of each tile.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from chuanma.errors import HandSizeError, NotationError, TileCountError, shown

Tile = int

SUITS = "mps"
"""The suit letters of the 108-tile set, in canonical order."""
SUIT_LETTERS = "mpsz"
NUM_KINDS = 34
NUM_SUITED = 27
COPIES = 4

SUIT_NAMES_ZH = {"m": "万", "p": "筒", "s": "条"}
SUIT_NAMES_EN = {"m": "Characters", "p": "Dots", "s": "Bamboo"}
_RANK_ZH = "一二三四五六七八九"
HONOR_NAMES_ZH = ("東", "南", "西", "北", "白", "發", "中")
HONOR_NAMES_EN = ("East", "South", "West", "North", "White", "Green", "Red")


def make_tile(rank: int, suit: str) -> Tile:
    """The tile of ``rank`` (1-based) in ``suit`` (``m``, ``p``, ``s`` or ``z``)."""
    if suit not in SUIT_LETTERS:
        raise NotationError(f"unknown suit {suit!r}: use one of m, p, s, z")
    top = 7 if suit == "z" else 9
    if not 1 <= rank <= top:
        raise NotationError(f"no tile {rank}{suit}: ranks of {suit} run from 1 to {top}")
    return SUIT_LETTERS.index(suit) * 9 + rank - 1


def suit_of(tile: Tile) -> str:
    """The suit letter of ``tile``."""
    return SUIT_LETTERS[tile // 9]


def suit_index(suit: str) -> int:
    """0, 1, 2 for ``m``, ``p``, ``s``; refuses anything else."""
    if len(suit) != 1 or suit not in SUITS:
        raise NotationError(f"unknown suit {suit!r}: use one of m, p, s")
    return SUITS.index(suit)


SUIT_SLICES = {"m": slice(0, 9), "p": slice(9, 18), "s": slice(18, 27)}
"""The tiles of a suit in a counts list."""


def holds_suit(counts: Sequence[int], suit: str | None) -> bool:
    """Whether the counts hold any tile of ``suit`` (``None``: no suit, so no). A seat that still
    holds its void suit (花猪 at an exhaustive draw) cannot win and must discard that suit."""
    return suit is not None and any(counts[SUIT_SLICES[suit]])


def rank_of(tile: Tile) -> int:
    """The 1-based rank of ``tile``."""
    return tile % 9 + 1


def is_terminal(tile: Tile) -> bool:
    """True for the suited 1s and 9s."""
    return tile < NUM_SUITED and tile % 9 in (0, 8)


def is_terminal_or_honour(tile: Tile) -> bool:
    """True for the 幺九 tiles: the suited 1s and 9s and the honours."""
    return tile >= NUM_SUITED or tile % 9 in (0, 8)


def tile_str(tile: Tile) -> str:
    """``5m`` for the tile 5m."""
    return f"{rank_of(tile)}{suit_of(tile)}"


def tile_name(tile: Tile, lang: str = "zh") -> str:
    """The tile's name in Chinese (``五万``) or English (``5 Characters``)."""
    suit = suit_of(tile)
    if suit == "z":
        return (HONOR_NAMES_ZH if lang == "zh" else HONOR_NAMES_EN)[tile - 27]
    if lang == "zh":
        return _RANK_ZH[rank_of(tile) - 1] + SUIT_NAMES_ZH[suit]
    return f"{rank_of(tile)} {SUIT_NAMES_EN[suit]}"


_TILE_OF = {(str(rank), suit): make_tile(rank, suit)
            for suit in SUIT_LETTERS for rank in range(1, 8 if suit == "z" else 10)}
"""Each tile by its rank digit and suit letter."""


@dataclass(frozen=True, slots=True)
class TileSet:
    """The tiles a game is played with: which kinds, how many copies of each."""

    name: str
    kinds: int
    """Tile kinds, from tile 0 upward: the 27 suited ones, or the 34 with the honours."""
    copies: int = COPIES

    @property
    def honours(self) -> bool:
        """Whether the set holds the honours 1z–7z."""
        return self.kinds > NUM_SUITED

    @property
    def size(self) -> int:
        """Tiles in the set (108 or 136)."""
        return self.kinds * self.copies

    @property
    def suits(self) -> str:
        """The suit letters of the set, in canonical order."""
        return SUIT_LETTERS if self.honours else SUITS

    def __contains__(self, tile: object) -> bool:
        return isinstance(tile, int) and 0 <= tile < self.kinds

    def wall(self) -> list[Tile]:
        """The set in canonical order: index ``i`` holds tile ``i // copies``."""
        return [t // self.copies for t in range(self.size)]


SICHUAN_TILES = TileSet("sichuan", NUM_SUITED)
"""The 108 suited tiles of Sichuan mahjong."""
ALL_TILES = TileSet("all", NUM_KINDS)
"""The 136 tiles with the honours (大众麻将); the notation reads all of them."""


def parse_tiles(text: str, *, tile_set: TileSet = ALL_TILES) -> list[Tile]:
    """Read ``123m45p`` (spaces allowed) into tiles of ``tile_set``, in the order written.

    Raises :class:`NotationError` naming the bad part for ``5x``, ``0m``, ``10m``, ``m``, a
    trailing ``12``, a tab or newline, or (in :data:`SICHUAN_TILES`) an honour tile such as ``1z``.
    """
    if not isinstance(text, str):
        raise NotationError(f"tiles are written as text like \"123m45p\", got {shown(text)}")
    tiles: list[Tile] = []
    digits = ""
    for pos, ch in enumerate(text):
        if ch == " ":
            if digits:
                raise NotationError(f"digits {digits!r} at position {pos} have no suit letter")
            continue
        if ch in "0123456789":
            digits += ch
        elif ch in SUIT_LETTERS:
            if not digits:
                raise NotationError(f"suit letter {ch!r} at position {pos} has no digits before it")
            if ch == "z" and not tile_set.honours:
                raise NotationError(
                    f"no honour tiles ({digits}z) in the 108-tile set of Sichuan mahjong: use m, p, s "
                    "(the honours are 大众麻将's: rules dazhong)", "no_honours"
                )
            for d in digits:
                t = _TILE_OF.get((d, ch))
                if t is None:
                    if d == "0":
                        raise NotationError(f"no tile 0{ch}: ranks start at 1 (in {digits + ch!r})")
                    t = make_tile(int(d), ch)  # refuses it, naming it
                tiles.append(t)
            digits = ""
        else:
            raise NotationError(f"unknown character {ch!r} at position {pos}: use digits and "
                                f"{', '.join(tile_set.suits)}")
    if digits:
        raise NotationError(f"digits {digits!r} at the end have no suit letter")
    return tiles


def parse_tile(text: str, *, tile_set: TileSet = ALL_TILES) -> Tile:
    """Read a single tile of ``tile_set`` such as ``5m`` (exactly a digit and a suit letter, no
    spaces)."""
    tiles = parse_tiles(text, tile_set=tile_set)
    if len(tiles) != 1 or len(text) != 2:
        raise NotationError(f"{shown(text)} is not a single tile like \"5m\"")
    return tiles[0]


def format_tiles(tiles: Iterable[Tile], *, sort: bool = True) -> str:
    """Write tiles in canonical notation: ``123m456p``, suits in m, p, s, z order."""
    seq = sorted(tiles) if sort else list(tiles)
    out: list[str] = []
    run_suit = ""
    run = ""
    for t in seq:
        s = suit_of(t)
        if s != run_suit and run:
            out.append(run + run_suit)
            run = ""
        run_suit = s
        run += str(rank_of(t))
    if run:
        out.append(run + run_suit)
    return "".join(out)


def to_counts(tiles: Iterable[Tile], *, limit: int = COPIES) -> list[int]:
    """The 34 counts of ``tiles``; refuses more than ``limit`` copies of a tile."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
        if counts[t] > limit:
            raise TileCountError(f"more than {limit} copies of {tile_str(t)}", "tile_count", tile=tile_str(t),
                                 most=limit)
    return counts


def from_counts(counts: Sequence[int]) -> list[Tile]:
    """The sorted tiles of a counts list."""
    return [t for t, c in enumerate(counts) for _ in range(c)]


def parse_hand(text: str, *, sizes: Iterable[int] | None = None, tile_set: TileSet = ALL_TILES) -> list[Tile]:
    """Read a hand of ``tile_set``, checking copies (at most 4 of a tile) and, if given, its size."""
    tiles = parse_tiles(text, tile_set=tile_set)
    to_counts(tiles)
    if sizes is not None:
        allowed = sorted(set(sizes))
        if len(tiles) not in allowed:
            names = ", ".join(map(str, allowed))
            raise HandSizeError(f"hand {text!r} has {len(tiles)} tiles; expected {names}", "hand_size",
                                tiles=len(tiles), expected=allowed)
    return tiles
