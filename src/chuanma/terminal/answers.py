"""What the player types at a prompt: a decision (``5m``, ``五万``, ``258m``, ``void s``, ``hu``,
``pass``, ``pong``, ``kong 5m``, ``chow 3m`` (大众麻将: the run's lowest tile), a decision's own label
typed back (``打 2万``, ``碰 5万``, ``换 2万 5万 8万``, ``胡 hu``), a listed number, Enter for the
default) or a table command (``?`` help, ``aw`` auto-win, ``ap`` auto-pass, ``t``
托管, ``q`` quit). Honour tiles are typed ``1z``–``7z`` or by name (東 南 西 北 白 發 中)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from chuanma.engine import Action, ChooseVoid, Chow, Discard, Exchange, Hu, Kong, Pass, Pong
from chuanma.errors import ChuanmaError, NotationError
from chuanma.melds import Meld
from chuanma.terminal.words import tile_label, zh
from chuanma.tiles import ALL_TILES, HONOR_NAMES_ZH, SUIT_NAMES_ZH, TileSet, format_tiles, parse_tiles

Command = Literal["help", "auto_win", "auto_pass", "tuoguan", "quit"]
COMMANDS: dict[str, Command] = {
    "?": "help", "help": "help", "提示": "help",
    "aw": "auto_win", "auto win": "auto_win", "auto hu": "auto_win",
    "ap": "auto_pass", "auto pass": "auto_pass",
    "t": "tuoguan", "托管": "tuoguan", "bot": "tuoguan",
    "q": "quit", "quit": "quit", "exit": "quit",
}
COMMAND_HELP = "? help · aw auto-win · ap auto-pass · t 托管 · q quit"
_ZH_DIGITS = {c: str(i) for i, c in enumerate("一二三四五六七八九", 1)}
_ZH_SUITS = {"万": "m", "萬": "m", "筒": "p", "饼": "p", "条": "s", "索": "s"}
_ZH_HONORS = {name: f"{i}z" for i, name in enumerate(HONOR_NAMES_ZH, 1)} | {"东": "1z", "发": "6z"}
_WORDS: dict[str, type[Action]] = {
    "hu": Hu, "胡": Hu, "win": Hu, "pass": Pass, "过": Pass, "p": Pass, "pong": Pong, "碰": Pong,
    "kong": Kong, "杠": Kong, "chow": Chow, "chi": Chow, "吃": Chow,
    "打": Discard, "discard": Discard, "换": Exchange, "exchange": Exchange,
}


class AnswerError(ChuanmaError, ValueError):
    """An answer that is not a legal decision now; the message says what is."""


def from_chinese(text: str) -> str:
    """``五万 3条 中`` → ``5m 3s 7z`` (other characters unchanged)."""
    out = text
    for zh_char, digit in _ZH_DIGITS.items():
        out = out.replace(zh_char, digit)
    for zh_char, letter in _ZH_SUITS.items():
        out = out.replace(zh_char, letter)
    for zh_char, tile in _ZH_HONORS.items():
        out = out.replace(zh_char, tile)
    return out


def label(action: Action) -> str:
    """A decision as a player reads it: ``打 5万``, ``碰 5万``, ``换 2万 5万 8万``, ``缺条``."""
    if isinstance(action, Exchange):
        return f"换 {zh(format_tiles(action.tiles))}"
    if isinstance(action, ChooseVoid):
        return f"缺{SUIT_NAMES_ZH[action.suit]}"
    if isinstance(action, Discard):
        return f"打 {tile_label(action.tile)}"
    if isinstance(action, Pong):
        return f"碰 {tile_label(action.tile)}"
    if isinstance(action, Kong):
        return f"杠 {tile_label(action.tile)}"
    if isinstance(action, Chow):
        return f"吃 {zh(format_tiles(Meld('chow', action.tile).tiles))}"
    return "胡 hu" if isinstance(action, Hu) else "过 pass"


def shortcuts(legal: Sequence[Action], numbered: bool = True) -> str:
    """The typed forms that work at this prompt, for the prompt line (``numbered``: the choices are
    listed with their numbers)."""
    kinds = {type(a) for a in legal}
    out = []
    if Exchange in kinds:
        out.append("the three tiles (258m or 2万 5万 8万)")
    if ChooseVoid in kinds:
        out.append("void m/p/s (or 缺条)")
    if Discard in kinds:
        out.append("a tile to discard (5m, 五万)")
    out += [w for k, w in ((Hu, "hu"), (Pong, "pong"), (Chow, "chow [lowest tile]"), (Kong, "kong [tile]"),
                           (Pass, "pass")) if k in kinds]
    if numbered:
        out.append("a listed number")
    return " · ".join(out)


def parse_answer(raw: str, legal: Sequence[Action], default: Action | None, *, numbered: bool = True,
                 hand: Sequence[int] | None = None, tile_set: TileSet = ALL_TILES) -> Action | Command:
    """The decision or command ``raw`` names among ``legal``; :class:`AnswerError` otherwise, saying
    why. A number is a listed choice's only when the choices were listed (``numbered``); ``hand``
    (the player's tile counts) lets a refused discard say whether the tile is held at all; tiles
    are read in the rules' ``tile_set`` (no honours in Sichuan mahjong's)."""
    text = " ".join(raw.strip().lower().split())
    if text in COMMANDS:
        return COMMANDS[text]
    if not text:
        if default is None:
            raise AnswerError("type a decision: Enter has no default here")
        return default
    if text.isdigit() and not numbered:
        raise AnswerError(f"{text}: these {len(legal)} choices are not numbered; " + _possible(legal))
    if text.isdigit():
        n = int(text)
        if 1 <= n <= len(legal):
            return legal[n - 1]
        raise AnswerError(f"no choice {n}: the listed choices are 1 to {len(legal)}")
    text = from_chinese(text)
    for prefix in ("缺", "void ", "void"):
        if text.startswith(prefix) and text != prefix.strip():
            return _pick(legal, ChooseVoid(text[len(prefix):].strip()), f"void {text[len(prefix):]}")
    if text in ("m", "p", "s") and any(isinstance(a, ChooseVoid) for a in legal):
        return _pick(legal, ChooseVoid(text), f"void {text}")
    word, _, rest = text.partition(" ")
    if word in _WORDS:
        kind = _WORDS[word]
        if rest in _WORDS and _WORDS[rest] is kind:  # a label typed back: 胡 hu, 过 pass
            rest = ""
        if kind in (Discard, Exchange):
            if not rest:
                raise AnswerError(f"{word} what? " + _possible(legal))
            text = rest
        else:
            matching = [a for a in legal if type(a) is kind]
            if rest:
                tiles = _tiles(rest, word, tile_set)
                wanted = [min(tiles)] if kind is Chow and len(tiles) == 3 else tiles  # 吃 3万 4万 5万
                matching = [a for a in matching if getattr(a, "tile", None) in wanted]
            if len(matching) == 1:
                return matching[0]
            if not matching:
                raise AnswerError(f"{word} {rest}".strip() + " is not possible now: " + _possible(legal))
            raise AnswerError(f"which {word}? " + ", ".join(label(a) for a in matching))
    tiles = _tiles(text, "tiles", tile_set)
    if len(tiles) == 3:
        x, y, z = sorted(tiles)
        return _pick(legal, Exchange((x, y, z)), f"exchange {zh(format_tiles(tiles))}")
    if len(tiles) == 1:
        return _pick(legal, Discard(tiles[0]), f"打 {tile_label(tiles[0]).strip()}", hand)
    raise AnswerError(f"{raw.strip()!r}: give one tile to discard or three to exchange; " + _possible(legal))


def _tiles(text: str, part: str, tile_set: TileSet) -> list[int]:
    try:
        return parse_tiles(text.replace(" ", ""), tile_set=tile_set)
    except NotationError as exc:
        raise AnswerError(f"{part}: {exc}") from None


def _pick(legal: Sequence[Action], action: Action, words: str, hand: Sequence[int] | None = None) -> Action:
    for a in legal:
        if a == action:
            return a
    raise AnswerError(f"{words} is not possible: {_why_not(legal, action, hand)}")


def _why_not(legal: Sequence[Action], action: Action, hand: Sequence[int] | None) -> str:
    """Why ``action`` (not among ``legal``) is refused, and what can be done instead."""
    kinds = {type(a) for a in legal}
    if type(action) not in kinds:
        if not legal:
            return "nothing to decide now"
        now = {Exchange: "it is the exchange (换三张)", ChooseVoid: "it is 定缺", Discard: "it is your turn to discard"}
        return now.get(type(legal[0]), "you are answering a discard") + "; " + _possible(legal)
    if isinstance(action, Discard):
        if hand is None:
            return _possible(legal)
        if not hand[action.tile]:
            return f"you hold no {tile_label(action.tile).strip()}; " + _possible(legal)
        return "your void suit's tiles go first (缺 tiles underlined); " + _possible(legal)
    if isinstance(action, Exchange):
        return "give three tiles you hold, all of one suit"
    return _possible(legal)


def _possible(legal: Sequence[Action]) -> str:
    """What can be done at this prompt, in words."""
    kinds = {type(a) for a in legal}
    if Exchange in kinds:
        return "give three tiles of one suit (258m)"
    others = [label(a) for a in legal if not isinstance(a, Discard)]
    if Discard in kinds:
        tiles = " ".join(tile_label(a.tile).strip() for a in legal if isinstance(a, Discard))
        return f"you can discard {tiles}" + (f", or {', '.join(others)}" if others else "")
    return "you can " + ", ".join(others)
