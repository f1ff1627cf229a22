"""``chuanma play``: a person plays hands against three bots in the terminal."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from chuanma.bots import UnknownBotError, check_bot_name, make_bot
from chuanma.commands.options import RulesOption, SetOption, rules_from_cli
from chuanma.commands.replay import event_line
from chuanma.engine.actions import Action, ChooseVoid, Discard, Exchange, Hu, Kong, Pong
from chuanma.engine.game import Game
from chuanma.errors import ChuanmaError
from chuanma.fairness.session import SessionHand
from chuanma.sim.play import bot_seed, sim_hand
from chuanma.tiles import SUIT_NAMES_ZH, format_tiles, parse_tiles, tile_name

REASONS = {
    "zimo": "自摸 self-drawn win", "dianpao": "点炮 win on a discard", "qianggang": "抢杠胡 robbed kong",
    "kong_exposed": "明杠 exposed kong", "kong_concealed": "暗杠 concealed kong", "kong_added": "补杠 added kong",
    "call_transfer": "呼叫转移 call transfer", "flower_pig": "查花猪 flower pig", "chadajiao": "查大叫 not ready",
    "refund": "退税 kong refund", "escape": "逃跑 escape",
}


def _narrate(console: Console, events: Sequence[dict[str, Any]], skip: Sequence[str]) -> None:
    for ev in events:
        if ev["type"] in skip:
            continue
        try:
            line = event_line(ev)
        except KeyError:  # a detail this seat does not see
            line = None
        if line is not None:
            console.print(f"[dim]{line}[/]")


def _zh(text: str) -> str:
    return "".join(tile_name(t) for t in parse_tiles(text)) if text else ""


def describe(action: Action) -> str:
    """A decision as a player reads it, with the Chinese tile names."""
    if isinstance(action, Exchange):
        return f"换三张 give {format_tiles(action.tiles)} ({_zh(format_tiles(action.tiles))})"
    if isinstance(action, ChooseVoid):
        return f"定缺 void {action.suit} ({SUIT_NAMES_ZH[action.suit]})"
    if isinstance(action, Discard):
        return f"打 discard {format_tiles([action.tile])} ({tile_name(action.tile)})"
    if isinstance(action, Pong):
        return f"碰 pong {format_tiles([action.tile])} ({tile_name(action.tile)})"
    if isinstance(action, Kong):
        return f"杠 kong {format_tiles([action.tile])} ({tile_name(action.tile)})"
    if isinstance(action, Hu):
        return "胡 win"
    return "过 pass"


def _table(view: dict[str, Any], me: int, names: Sequence[str]) -> Table:
    t = Table("seat", "player", "void", "tiles", "melds", "discards", "won", show_lines=False)
    for p in view["players"]:
        s = p["seat"]
        void = p.get("void")
        badge = f"[bold red]缺{SUIT_NAMES_ZH[void]}[/]" if void else "-"
        melds = " ".join(
            ("暗杠 ??" if m["tile"] is None else f"{'碰' if m['kind'] == 'pong' else '杠'} {m['tile']}")
            for m in p["melds"])
        won = f"[green]胡 {p['win_pile']}[/]" if p["won"] else ""
        who = "[bold]you[/]" if s == me else names[s]
        dealer = " 庄" if s == view["dealer"] else ""
        t.add_row(f"{s}{dealer}", who, badge, str(p["tiles"]), melds, p["discards"], won)
    return t


def _show_state(console: Console, game: Game, me: int, names: Sequence[str]) -> None:
    view = game.view(me).to_dict()
    hand = view["players"][me]["hand"]
    console.print(_table(view, me, names))
    drawn = f"   drew {view['drawn']} ({tile_name(parse_tiles(view['drawn'])[0])})" if "drawn" in view else ""
    claim = view.get("claim")
    on = f"   on {claim['tile']} from seat {claim['from']}" if claim else ""
    console.print(Panel(f"[bold]{hand}[/]   {_zh(hand)}{drawn}{on}", title=f"your hand · wall {view['wall']}"))


def _ask(console: Console, legal: Sequence[Action]) -> Action:
    for i, a in enumerate(legal, 1):
        console.print(f"  [cyan]{i:2d}[/] {describe(a)}", highlight=False)
    while True:
        raw = typer.prompt("choose", default="1" if len(legal) == 1 else None).strip()
        if raw.isdigit() and 1 <= int(raw) <= len(legal):
            return legal[int(raw) - 1]
        for a in legal:  # also accept "5m", "hu", "pass", "pong", "void s"
            words = {str(a), str(a).split(" ", 1)[-1], next(iter(a.to_json()))}
            if raw in words and (raw not in ("discard", "kong", "exchange", "void") or len(legal) == 1):
                return a
        console.print(f"[red]choose a number from 1 to {len(legal)}[/]")


def _settlement(console: Console, game: Game, me: int) -> None:
    console.rule("settlement 结算")
    for w in game.wins:
        how = "自摸 self-drawn" if w.from_seat is None else f"on seat {w.from_seat}'s discard"
        fans = " + ".join(f"{name} {fan}" for _, name, fan in w.fans) or "平胡 0"
        console.print(f"seat {w.seat} 胡 {tile_name(w.tile)} {how}: {fans} = {w.total} fan → ×{w.multiplier}")
    for p in game.ledger:
        console.print(f"  seat {p.payer} pays seat {p.payee} {p.amount} × base ({REASONS.get(p.reason, p.reason)})")
    d = game.deltas()
    res = Table(*(f"seat {s}" + (" (you)" if s == me else "") for s in range(4)), title="this hand (× base)")
    res.add_row(*(f"{x:+d}" for x in d))
    console.print(res)


def play(
    bots: Annotated[str, typer.Option(
        "--bots", "-b", help="The three opponents, comma-separated (learned:PATH: trained weights).")] = "greedy",
    seat: Annotated[int, typer.Option("--seat", min=0, max=3, help="Your seat (0-3).")] = 0,
    hands: Annotated[int, typer.Option("--hands", "-n", min=1, help="Hands in the session.")] = 1,
    rules: RulesOption = "xuezhan",
    set_: SetOption = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the deals and bots.")] = 0,
    record: Annotated[
        Path | None, typer.Option("--record", help="Write each hand's verifiable record JSON here.")
    ] = None,
) -> None:
    """Play Sichuan mahjong against three bots: every decision is a numbered choice.

    The hands form one session: under dealer first_winner each hand is dealt by the previous
    hand's first winner (the discarder after 一炮多响, the same dealer after a draw)."""
    console = Console(highlight=False)
    try:
        ruleset = rules_from_cli(rules, set_)
    except ChuanmaError as exc:
        raise typer.BadParameter(str(exc)) from None
    opp = [n.strip() for n in bots.split(",") if n.strip()]
    for n in opp:
        try:
            check_bot_name(n)
        except UnknownBotError as exc:
            raise typer.BadParameter(str(exc)) from None
    if not opp:
        raise typer.BadParameter("give at least one bot")
    if record is not None:
        try:
            record.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise typer.BadParameter(f"--record: cannot create {record}: {exc.strerror}") from None
    others = [s for s in range(4) if s != seat]
    names = ["you"] * 4
    for i, s in enumerate(others):
        names[s] = opp[i % len(opp)]
    totals = [0] * 4
    session = SessionHand.first(f"play-{seed}", ruleset.dealer)
    for h in range(hands):
        fair = sim_hand(seed, h)
        deal = session.deal(fair.deal())
        game = Game(ruleset, list(deal.wall), deal.dealer, deal.direction)
        players = {s: make_bot(names[s], bot_seed(seed, h, s)) for s in others}
        console.rule(f"hand {h + 1} of {hands} · {ruleset.describe()} · dealer seat {deal.dealer}")
        seen = 0
        while not game.finished:
            s = game.to_act()[0]
            legal = game.legal_actions(s)
            if s == seat:
                _narrate(console, game.events_for(seat, seen), ("deal", "payment"))
                seen = len(game.events)
                _show_state(console, game, seat, names)
                action = _ask(console, legal)
            else:
                action = players[s].choose(game.view(s), legal)
            game.apply(s, action)
        _narrate(console, game.events_for(seat, seen), ("payment", "end"))
        _settlement(console, game, seat)
        for s, x in enumerate(game.deltas()):
            totals[s] += x
        hand_record = fair.finish(game, session=session, extra={"players": names, "seed": seed})
        if record is not None:
            path = record / f"hand-{h:04d}.json"
            path.write_text(json.dumps(hand_record, ensure_ascii=False), encoding="utf-8")
            console.print(f"[dim]record written to {path} (check it with: chuanma fair verify {path})[/]")
        session = session.following(hand_record, game.next_dealer())
    if hands > 1:
        console.rule("session")
        console.print("  ".join(f"{names[s]} (seat {s}) {totals[s]:+d}" for s in range(4)))
