"""``chuanma play``: a person plays hands against three bots at a table drawn in the terminal."""

from __future__ import annotations

import json
import secrets
import signal
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from chuanma.bots import BOTS, UnknownBotError, check_bot_name, make_bot
from chuanma.bots.base import Player, decide
from chuanma.commands.options import MAX_HANDS, MAX_SEED, RulesOption, SetOption, rules_from_cli
from chuanma.engine import Game
from chuanma.errors import ChuanmaError
from chuanma.fairness.session import SessionHand
from chuanma.sim.play import bot_seed, sim_hand
from chuanma.terminal.board import board
from chuanma.terminal.seat import Human, SessionEnd, Toggles, read_line
from chuanma.terminal.settlement import Settlement
from chuanma.terminal.ticker import Ticker

HELPER_BOT = "greedy"
"""The bot that plays the person's seat under 托管."""
NEXT_HAND = "[dim]Enter: next hand · q or Ctrl-D: stop[/] › "


def write_records(console: Console, records: Sequence[dict[str, Any]], folder: Path) -> None:
    """Write each finished hand's record as ``hand-NNNN.json`` in ``folder``."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for rec in records:
            path = folder / f"hand-{rec['session']['hand']:04d}.json"
            path.write_text(json.dumps(rec, ensure_ascii=False), encoding="utf-8")
    except OSError as exc:
        console.print(f"[red]cannot write the records in {folder}: {exc.strerror}[/]")
        return
    console.print(f"[dim]{len(records)} record(s) in {folder}; check them with: "
                  f"chuanma fair verify {folder}/hand-*.json[/]")


def play_hand(human: Human, game: Game, bots: dict[int, Player]) -> None:
    """Play one hand to its end: the person decides at its seat, the bots at theirs; then the
    table as it ends and the settlement."""
    console = human.console
    while not game.finished:
        s = game.to_act()[0]
        action = human.choose(game) if s == human.seat else decide(bots[s], game, s, game.legal_actions(s))
        game.apply(s, action)
    human.catch_up(game)
    view = game.view(human.seat)
    if console.is_terminal:
        console.clear()
    console.print(board(view, human.names, human.session, human.hand_no, human.recent(console.width),
                        console.width))
    if human.toggles.tuoguan:  # 托管 plays one hand: the next starts with the player at the seat
        human.toggles.tuoguan = False
        human.news.append("托管 off: the hand is over")
        console.print("[dim]托管 off: the hand is over; the next hand is yours[/]")
    console.rule("settlement 结算")
    console.print(Settlement(view, game.events_for(human.seat), human.names).render(human.session))


def summary(console: Console, names: Sequence[str], totals: Sequence[int], played: int, seed: int) -> None:
    t = Table(title=f"session: {played} hand(s) · seed {seed}", title_justify="left")
    for s in range(4):
        t.add_column(f"{names[s]} (seat {s})", justify="right")
    t.add_row(*(f"{x:+d}" for x in totals))
    console.print(t)


def play(
    bots: Annotated[str, typer.Option(
        "--bots", "-b", help="The three opponents, comma-separated, or one name for all three "
                             "(learned: the shipped policy; learned:PATH: trained weights).")] = "greedy",
    seat: Annotated[int, typer.Option("--seat", min=0, max=3, help="Your seat (0-3).")] = 0,
    hands: Annotated[int, typer.Option("--hands", "-n", min=1, max=MAX_HANDS, help="Hands in the session.")] = 1,
    rules: RulesOption = "xuezhan",
    set_: SetOption = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", min=0, max=MAX_SEED, help="Seed of the deals and bots; random unless given (it is printed).")] = None,
    record: Annotated[
        Path | None, typer.Option("--record", help="Write each hand's verifiable record JSON here.")
    ] = None,
    pace: Annotated[float, typer.Option(
        "--pace", min=0, max=10, help="Seconds 托管 shows the table before each decision it makes.")] = 1.0,
) -> None:
    """Play Sichuan mahjong against three bots at a table drawn in the terminal.

    Type a tile to discard (5m or 五万), three to exchange (258m), void s, hu, pass, pong, kong or a number.

    ? shows help; aw and ap toggle auto-win and auto-pass; t lets a bot play your seat (托管) until Enter
    or the end of the hand, one decision every --pace seconds.

    The hands form one session, dealt by the preset's dealer rule; Ctrl-D or Ctrl-C ends it with a summary.
    """
    console = Console(highlight=False)
    try:
        ruleset = rules_from_cli(rules, set_)
    except ChuanmaError as exc:
        raise typer.BadParameter(str(exc)) from None
    opp = [n.strip() for n in bots.split(",") if n.strip()]
    for n in opp:
        try:
            check_bot_name(n, ruleset)
        except UnknownBotError as exc:
            raise typer.BadParameter(str(exc)) from None
    if len(opp) not in (1, 3):
        raise typer.BadParameter(f"give three bots, comma-separated, or one for all three; got "
                                 f"{', '.join(opp) or 'none'}", param_hint="--bots")
    if record is not None:
        try:
            record.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise typer.BadParameter(f"--record: cannot create {record}: {exc.strerror}") from None
    if seed is None:
        seed = secrets.randbelow(10**9)
    others = [s for s in range(4) if s != seat]
    names = ["you"] * 4
    for i, s in enumerate(others):
        names[s] = opp[i if len(opp) == 3 else 0]
    # Ctrl-C ends the session even when this process was started with SIGINT ignored or blocked
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    console.print(f"[bold]session seed {seed}[/] · play it again with --seed {seed}")
    totals = [0] * 4
    records: list[dict[str, Any]] = []
    session = SessionHand.first(f"play-{seed}", ruleset.dealer)
    toggles = Toggles()
    try:
        for h in range(hands):
            fair = sim_hand(seed, h, ruleset.tiles)
            deal = session.deal(fair.deal())
            game = Game(ruleset, list(deal.wall), deal.dealer, deal.direction)
            players = {s: make_bot(names[s], bot_seed(seed, h, s)) for s in others}
            human = Human(console, seat, names, BOTS[HELPER_BOT](bot_seed(seed, h, seat)),
                          Ticker(seat, ruleset, names), totals, f"hand {h + 1}/{hands}", toggles, pace)
            play_hand(human, game, players)
            totals = [t + d for t, d in zip(totals, game.deltas(), strict=True)]
            hand_record = fair.finish(game, session=session, extra={"players": names, "seed": seed})
            records.append(hand_record)
            if record is not None:
                write_records(console, [hand_record], record)
            session = session.following(hand_record, game.next_dealer())
            if h + 1 < hands and read_line(console, NEXT_HAND).strip() in ("q", "quit"):
                raise SessionEnd
    except (SessionEnd, KeyboardInterrupt):  # Ctrl-C while the bots play, too
        console.print()
        console.rule("session ended")
        summary(console, names, totals, len(records), seed)
        if records and record is None:
            try:
                where = read_line(console, "save the finished hands' records? folder (Enter: no) › ").strip()
            except SessionEnd:
                where = ""
            if where:
                write_records(console, records, Path(where))
        return
    if hands > 1:
        console.rule("session")
        summary(console, names, totals, len(records), seed)
