"""The person's seat at the table: reading answers, the toggles (help, auto-win, auto-pass,
托管) and the table drawn before each decision."""

from __future__ import annotations

import select
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from chuanma.advice import discard_options
from chuanma.bots.base import Bot
from chuanma.engine import Action, Discard, Game, Hu, Pass, SeatView
from chuanma.terminal.advisor import advice, seen_tiles, suggestion
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


def line_waiting() -> bool:
    """Whether the player has typed a line (checked without waiting; a terminal only)."""
    try:
        if not sys.stdin.isatty():
            return False
        ready, _, _ = select.select([sys.stdin], [], [], 0)
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
    news: list[str] = field(default_factory=list)
    seen: int = 0
    shown: int = 0
    """Ticker lines already shown."""

    def recent(self, width: int) -> list[str]:
        """The ticker lines to show: everything new since the last look (at least the last
        :data:`TICKER_LINES`, at most :data:`TICKER_MAX`); more on a wide terminal."""
        if width >= WIDE:
            return self.news[-TICKER_WIDE:]
        return self.news[-max(TICKER_LINES, min(TICKER_MAX, len(self.news) - self.shown)):]

    def catch_up(self, game: Game) -> None:
        """Add the events since the last look to the ticker."""
        self.news += self.ticker.lines(game.events_for(self.seat, self.seen))
        self.seen = len(game.events)

    def choose(self, game: Game) -> Action:
        self.catch_up(game)
        view = game.view(self.seat)
        legal = list(view.legal_actions)
        automatic = self.automatic(view, legal)
        if automatic is not None:
            return automatic
        while True:
            self.show(view, legal)
            default = self.default(view, legal)
            hint = f"Enter: {label(default)}" if default is not None else "no default"
            self.console.print(Text(f"type {shortcuts(legal)}\n{COMMAND_HELP}", style="dim"))
            raw = read_line(self.console, f"[bold]your move[/] [dim]({hint})[/] › ")
            try:
                answer = parse_answer(raw, legal, default)
            except AnswerError as exc:
                self.news.append(f"✗ {exc}")
                continue
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
            if line_waiting():
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

    def show(self, view: SeatView, legal: list[Action]) -> None:
        """The table, the help panel if on, and the numbered choices."""
        console = self.console
        if console.is_terminal:
            console.clear()
        console.print(board(view, self.names, self.session, self.hand_no, self.recent(console.width),
                            console.width))
        self.shown = len(self.news)
        if self.toggles.help:
            console.print(Panel(advice(view, legal), title="help (? to hide)", title_align="left",
                                border_style="cyan"))
        choices = Text()
        if len(legal) > LISTED:
            choices.append(f"{len(legal)} choices (numbered 1–{len(legal)} in tile order)", style="cyan")
        else:
            for i, a in enumerate(legal, 1):
                choices.append(f"{i}", style="cyan").append(f" {label(a)}  ")
        if view.claim is not None:
            frm = self.ticker.who(view.claim.from_seat)
            what = "adds to a kong (抢杠?)" if view.claim.robbing else "discards"
            console.print(Text(f"{frm} {what} ", style="bold").append(label(Discard(view.claim.tile))[2:]))
        console.print(choices)
