"""Tiles, seats and directions in the words and colours a player reads at the table."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text

from chuanma.melds import Meld
from chuanma.tiles import HONOR_NAMES_ZH, NUM_SUITED, SUIT_NAMES_ZH, Tile, parse_tiles, rank_of, suit_of

SUIT_STYLES = {"m": "bold red", "p": "bold bright_blue", "s": "bold green", "z": "bold yellow"}
FACE_DOWN = "▒▒"
RELATIVE = ("you", "下家", "对家", "上家")
"""A seat seen from the viewer: itself, then the seats after it in play order."""
KONG_WORDS = {"exposed": "明杠", "added": "巴杠", "concealed": "暗杠"}


def relative(seat: int, me: int) -> str:
    """``下家``, ``对家``, ``上家`` or ``you``: ``seat`` as the player at ``me`` calls it."""
    return RELATIVE[(seat - me) % 4]


def seat_name(seat: int, me: int, names: Sequence[str]) -> str:
    """``you``, or ``下家 east``: a seat as the player at ``me`` reads it, with its player's name."""
    rel = relative(seat, me)
    return "you" if rel == "you" else f"{rel} {names[seat]}"


def seat_possessive(seat: int, me: int, names: Sequence[str]) -> str:
    """``your``, or ``下家 east's``: what belongs to a seat, as the player at ``me`` reads it."""
    return "your" if seat == me else f"{seat_name(seat, me, names)}'s"


def tile_label(tile: Tile) -> str:
    """``5万``: the rank and the suit's character; an honour (大众麻将) by its name, ``中``
    padded to the same 3 columns."""
    if tile >= NUM_SUITED:
        return f"{HONOR_NAMES_ZH[tile - NUM_SUITED]} "
    return f"{rank_of(tile)}{SUIT_NAMES_ZH[suit_of(tile)]}"


def tile_text(tile: Tile, extra: str = "") -> Text:
    """One tile in its suit's colour; ``extra`` adds a style (e.g. ``reverse`` for the latest)."""
    return Text(tile_label(tile), style=f"{SUIT_STYLES[suit_of(tile)]} {extra}".strip())


def tiles_text(tiles: Iterable[Tile], *, highlight_last: bool = False, marked: str | None = None) -> Text:
    """Tiles separated by spaces; the last one reversed if ``highlight_last``; tiles of the suit
    ``marked`` underlined (the void suit in one's own hand)."""
    items = list(tiles)
    out = Text()
    for i, t in enumerate(items):
        if i:
            out.append(" ")
        style = ""
        if highlight_last and i == len(items) - 1:
            style = "reverse"
        if marked is not None and suit_of(t) == marked:
            style += " underline on grey23"
        out.append_text(tile_text(t, style))
    return out


def meld_text(meld: Meld | None) -> Text:
    """A meld with its kind: 碰, 吃, 明杠, 巴杠 or 暗杠 (``None``: a concealed kong seen face down)."""
    if meld is None:
        return Text(f"暗杠 {FACE_DOWN}×4", style="dim")
    if meld.kind == "pong":
        return Text("碰 ").append_text(tile_text(meld.tile)).append("×3")
    if meld.kind == "chow":
        return Text("吃 ").append_text(tiles_text(meld.tiles))
    kind = KONG_WORDS[meld.kong or "exposed"]
    if meld.kong == "concealed":
        return Text(f"{kind} {FACE_DOWN}").append_text(tile_text(meld.tile)).append(f"{FACE_DOWN}")
    return Text(f"{kind} ").append_text(tile_text(meld.tile)).append("×4")


def melds_text(melds: Sequence[Meld | None]) -> Text:
    return Text("  ").join(meld_text(m) for m in melds)


def void_text(suit: str | None) -> Text:
    return Text(f"缺{SUIT_NAMES_ZH[suit]}", style="bold magenta") if suit else Text("缺?", style="dim")


def zh(text: str) -> str:
    """Tiles in notation (``258m``) as a player reads them (``2万 5万 8万``)."""
    return " ".join(tile_label(t).strip() for t in parse_tiles(text)) if text else ""
