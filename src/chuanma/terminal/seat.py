"""The person's seat at the table: reading answers, the toggles (help, auto-win, auto-pass,
托管) and the table drawn before each decision."""

from __future__ import annotations

import select
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from chuanma.advice import discard_options, seen_tiles, suggestion
from chuanma.bots.base import Bot
from chuanma.engine import Action, Discard, Game, Hu, Pass, SeatView
from chuanma.terminal.advisor import advice
from chuanma.terminal.answers import COMMAND_HELP, AnswerError, Command, label, parse_answer, shortcuts
from chuanma.terminal.board import WIDE, board
from chuanma.terminal.ticker import Ticker

TICKER_LINES = 6
TICKER_MAX = 14
TICKER_WIDE = 24
LISTED = 14
"""Choices listed one by one up to this many (a hand's discards); more (the exchange's) are typed."""


class SessionEnd(Exception):
    """The player ended the session (Ctrl-D, Ctrl-C or ``q``)."""


def read_line(console: Console, prompt: str) -> str:
    """One line typed by the player; Ctrl-D and Ctrl-C end the session."""
    try:
        return console.input(prompt)
    except (EOFError, KeyboardInterrupt):
        console.print()
        raise SessionEnd from None


def line_waiting(seconds: float = 0.0) -> bool:
    """Whether the player types a line within ``seconds`` (a terminal only; otherwise the time
    just passes)."""
    try:
        if not sys.stdin.isatty():
            time.sleep(seconds)
            return False
        ready, _, _ = select.select([sys.stdin], [], [], seconds)
    except (OSError, ValueError):
        return False
    return bool(ready)


@dataclass(slots=True)
class Toggles:
    """The player's switches; they stay as set from one hand to the next."""

    help: bool = False
    auto_win: bool = False
    auto_pass: bool = False
    tuoguan: bool = False


@dataclass(slots=True)
class Human:
    """The person at ``seat`` for one hand; ``helper`` is the bot that plays the seat under 托管."""

    console: Console
    seat: int
    names: Sequence[str]
    helper: Bot
    ticker: Ticker
    session: Sequence[int]
    """Each seat's result over the session's finished hands."""
    hand_no: str
    toggles: Toggles = field(default_factory=Toggles)
    pace: float = 1.0
    """Seconds 托管 shows the table before each decision it makes (Enter in that time takes the seat back)."""
    news: list[str] = field(default_factory=list)
    pinned: list[str] = field(default_factory=list)
    """The player's own wins: shown above the ticker for the rest of the hand (never scrolled away)."""
    refusal: str = ""
    """Why the last answer was refused: shown under the choices until the next answer."""
    seen: int = 0
    shown: int = 0
    """Ticker lines already shown."""

    def recent(self, width: int, room: int | None = None) -> list[str]:
        """The ticker lines to show: the player's own wins first, then everything new since the
        last look (at least the last :data:`TICKER_LINES`, at most :data:`TICKER_MAX`; more on a
        wide terminal), at most ``room`` lines in all."""
        fresh = len(self.news) - self.shown
        count = TICKER_WIDE if width >= WIDE else max(TICKER_LINES, min(TICKER_MAX, fresh))
        wins = [f"★ {line}" for line in self.pinned]
        if room is not None:
            count = min(count, max(0, room - len(wins)))
        return wins + (self.news[-count:] if count else [])

    def catch_up(self, game: Game) -> None:
        """Add the events since the last look to the ticker (the player's own wins pinned too)."""
        for ev in game.events_for(self.seat, self.seen):
            line = self.ticker.line(ev)
            if line is None:
                continue
            self.news.append(line)
            if ev["type"] == "hu" and ev["seat"] == self.seat:
                self.pinned.append(line)
        self.seen = len(game.events)

    def choose(self, game: Game) -> Action:
        self.catch_up(game)
        view = game.view(self.seat)
        legal = list(view.legal_actions)
        automatic = self.automatic(view, legal)
        if automatic is not None:
            return automatic
        numbered = len(legal) <= LISTED
        while True:
            self.show(view, legal, Text(f"type {shortcuts(legal, numbered)}\n{COMMAND_HELP}", style="dim"))
            default = self.default(view, legal)
            hint = f"Enter: {label(default)}" if default is not None else "no default"
            raw = read_line(self.console, f"[bold]your move[/] [dim]({hint})[/] › ")
            try:
                answer = parse_answer(raw, legal, default, numbered=numbered, hand=view.hand,
                                      tile_set=game.rules.tiles)
            except AnswerError as exc:
                self.refusal = f"✗ {exc}"
                continue
            self.refusal = ""
            if isinstance(answer, str):
                self.toggle(answer)
                automatic = self.automatic(view, legal)
                if automatic is not None:
                    return automatic
                continue
            return answer

    def automatic(self, view: SeatView, legal: list[Action]) -> Action | None:
        """A decision made without asking: the forced win, auto-win, auto-pass, or 托管's."""
        if self.toggles.tuoguan:
            self.show(view, legal)  # one decision at a time, at a pace a person can follow
            if line_waiting(self.pace):
                read_line(self.console, "")
                self.toggles.tuoguan = False
                self.news.append("托管 off: you play again")
                return None
            action = self.helper.choose(view, legal)
            self.news.append(f"托管 plays {label(action)}")
            return action
        hu = next((a for a in legal if isinstance(a, Hu)), None)
        if hu is not None and len(legal) == 1:
            self.news.append("you must win: in the last four tiles a hand that can win must (胡)")
            return hu
        if hu is not None and self.toggles.auto_win:
            self.news.append("auto-win: 胡")
            return hu
        claim = view.phase in ("claim", "rob")
        if claim and hu is None and self.toggles.auto_pass:
            return next(a for a in legal if isinstance(a, Pass))
        return None

    def default(self, view: SeatView, legal: list[Action]) -> Action | None:
        """What Enter does: the suggested exchange and 定缺; 胡 when you can win; pass on a claim;
        discard the drawn tile (or the advisor's best discard after a pong or with void tiles)."""
        hint = suggestion(view, legal)
        if hint is not None:
            return hint
        hu = next((a for a in legal if isinstance(a, Hu)), None)
        if hu is not None:  # Enter never throws a win away
            return hu
        if view.phase in ("claim", "rob"):
            return next((a for a in legal if isinstance(a, Pass)), None)
        discards = [a for a in legal if isinstance(a, Discard)]
        if not discards:
            return None
        if view.drawn is not None:
            drawn = next((a for a in discards if a.tile == view.drawn), None)
            if drawn is not None and not view.holds_void():
                return drawn
        best = discard_options(view.hand, view.own_melds(), view.void, seen_tiles(view))[0].tile
        return next((a for a in discards if a.tile == best), discards[0])

    def toggle(self, command: Command) -> None:
        if command == "quit":
            raise SessionEnd
        if command == "help":
            self.toggles.help = not self.toggles.help
        elif command == "auto_win":
            self.toggles.auto_win = not self.toggles.auto_win
            self.news.append(f"auto-win {'on' if self.toggles.auto_win else 'off'}")
        elif command == "auto_pass":
            self.toggles.auto_pass = not self.toggles.auto_pass
            self.news.append(f"auto-pass {'on' if self.toggles.auto_pass else 'off'}")
        else:
            self.toggles.tuoguan = True
            self.news.append("托管 on: a bot plays your seat; press Enter to take it back")

    def show(self, view: SeatView, legal: list[Action], footer: Text | None = None) -> None:
        """The table, the help panel if on, the choices and ``footer``, fitted to the terminal's
        height so that the table's status line stays on screen: the ticker gives up lines first,
        then the footer, then the help panel and one's hand their frames."""
        console = self.console
        claim: list[RenderableType] = []
        if view.claim is not None:
            frm = self.ticker.who(view.claim.from_seat)
            what = "adds to a kong (抢杠?)" if view.claim.robbing else "discards"
            claim.append(Text(f"{frm} {what} ", style="bold").append(label(Discard(view.claim.tile))[2:]))
        refusal = [Text(self.refusal, style="bold red")] if self.refusal else []
        helps: list[list[RenderableType]] = [[]]
        if self.toggles.help:
            text = advice(view, legal)
            helps = [[Panel(text, title="help (? to hide)", title_align="left", border_style="cyan")], [text]]
        footers = [[footer], []] if footer is not None else [[]]
        room = console.height - 1  # the input line
        lines = self.recent(console.width)
        layouts = [(False, [*h, *claim, choices_text(legal), *refusal, *f]) for f in footers for h in helps]
        layouts.append((True, [*helps[-1], *claim, choices_text(legal), *refusal]))
        for compact, below in layouts:
            while True:
                frame = Group(board(view, self.names, self.session, self.hand_no, lines, console.width, compact),
                              *below)
                fits = len(console.render_lines(frame, pad=False)) <= room
                if fits or len(lines) <= len(self.pinned):
                    break
                lines = self.recent(console.width, len(lines) - 1)
            if fits:
                break
        if console.is_terminal:
            console.clear()
        console.print(frame)
        self.shown = len(self.news)


def choices_text(legal: Sequence[Action]) -> Text:
    """The choices, numbered; an exchange's many are not (they are typed as three tiles)."""
    out = Text()
    if len(legal) > LISTED:
        out.append(f"换三张: give three tiles of one suit ({len(legal)} ways)", style="cyan")
    else:
        for i, a in enumerate(legal, 1):
            out.append(f"{i}", style="cyan").append(f" {label(a)}  ")
    return out
