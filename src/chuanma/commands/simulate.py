"""``chuanma simulate`` and ``chuanma league``: many hands between bots."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Column, Table

from chuanma.bots import UnknownBotError, check_bot_name
from chuanma.commands.options import MAX_HANDS, MAX_SEED, MAX_WORKERS, RulesOption, SetOption, rules_from_cli
from chuanma.errors import ChuanmaError
from chuanma.rules import RuleSet
from chuanma.sim.league import MIN_WALLS, league_table
from chuanma.sim.runner import (
    LeagueSpec,
    MissingRayError,
    SimSpec,
    chunks,
    league_chunk,
    require_ray,
    run_chunks,
    simulate_chunk,
)
from chuanma.sim.session import DEFAULT_SESSION_HANDS
from chuanma.sim.stats import Tally

BotsOption = Annotated[str, typer.Option(
    "--bots", "-b", help="Bot names by seat, comma-separated (cycled to 4); learned plays the shipped policy, "
             "learned:PATH trained weights.")]
SeedOption = Annotated[int, typer.Option(
    "--seed", min=0, max=MAX_SEED, help="Seed of the run: same seed, same results.")]
WorkersOption = Annotated[int, typer.Option(
    "--workers", "-w", min=1, max=MAX_WORKERS,
    help="Local worker processes (no more start than chunks of work or cores).")]
RayOption = Annotated[
    str | None,
    typer.Option("--ray", help="Run on Ray: a cluster address, 'auto', or 'local' (a 2-CPU local instance)."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the results as JSON.")]


def _check_ray(ray: str | None) -> None:
    """Refuse ``--ray`` at once when Ray is not installed."""
    if ray is not None:
        try:
            require_ray()
        except MissingRayError as exc:
            raise typer.BadParameter(str(exc), param_hint="--ray") from None


def _bot_names(text: str, rules: RuleSet) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise typer.BadParameter("give at least one bot")
    for n in names:
        try:
            check_bot_name(n, rules)
        except UnknownBotError as exc:
            raise typer.BadParameter(str(exc)) from None
    return names


def _record_folder(path: Path) -> None:
    """Create the ``--record`` folder (checked before any hand is played)."""
    if path.exists() and not path.is_dir():
        raise typer.BadParameter(f"{path} is a file; give a folder for the records", param_hint="--record")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise typer.BadParameter(f"cannot create the folder {path}: {exc.strerror}", param_hint="--record") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise typer.BadParameter(f"cannot write in the folder {path}", param_hint="--record")


def _progress(console: Console, quiet: bool) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} hands/s"), TimeElapsedColumn(),
        console=console, disable=quiet, transient=False,
    )


def _chunk_size(total: int, workers: int, ray: str | None) -> int:
    lanes = max(workers, 4 if ray else 1)
    return max(1, min(200, total // (lanes * 4) or 1))


def simulate(
    hands: Annotated[int, typer.Option("--hands", "-n", min=1, max=MAX_HANDS, help="Hands to play.")] = 100,
    bots: BotsOption = "greedy",
    rules: RulesOption = "xuezhan",
    set_: SetOption = None,
    seed: SeedOption = 0,
    workers: WorkersOption = 1,
    ray: RayOption = None,
    record: Annotated[Path | None, typer.Option("--record", help="Write each hand's record JSON here.")] = None,
    session_hands: Annotated[
        int,
        typer.Option("--session-hands", min=1, max=MAX_HANDS,
                     help="Hands per session, played in order: under a dealer rule other than random each deals "
                          "by the previous hand's result."),
    ] = DEFAULT_SESSION_HANDS,
    as_json: JsonOption = False,
) -> None:
    """Play N hands between bots and report each bot's results.

    Hands are grouped in sessions played in order, so a preset's dealer rule holds across hands;
    the results are the same for any --workers or --ray."""
    console = Console(stderr=as_json)
    try:
        ruleset = rules_from_cli(rules, set_)
    except ChuanmaError as exc:
        raise typer.BadParameter(str(exc)) from None
    names = _bot_names(bots, ruleset)
    _check_ray(ray)
    seats = tuple((names * 4)[:4])
    if record is not None:
        _record_folder(record)
    spec = SimSpec(ruleset.to_json(), (seats[0], seats[1], seats[2], seats[3]), seed,
                   str(record) if record is not None else None, session_hands)
    size = -(-_chunk_size(hands, workers, ray) // session_hands) * session_hands  # whole sessions
    tally = Tally()
    start = time.perf_counter()
    with _progress(console, as_json) as progress:
        task = progress.add_task("simulate", total=hands, rate="-")
        for (a, b), part in run_chunks(simulate_chunk, spec, chunks(hands, size), workers=workers,
                                       ray_address=ray):
            tally.merge(part)
            rate = tally.hands / max(1e-9, time.perf_counter() - start)
            progress.update(task, advance=b - a, rate=f"{rate:,.0f}")
    elapsed = time.perf_counter() - start
    out: dict[str, Any] = {"rules": ruleset.to_json(), "seats": list(seats), "seed": seed,
                           **tally.summary(ruleset.fan_label), "hands_per_second": hands / elapsed}
    if as_json:
        typer.echo(json.dumps({k: v for k, v in out.items() if k != "hands_per_second"}, ensure_ascii=False))
        return
    _print_sim(console, out, ruleset.describe())


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _print_sim(console: Console, out: dict[str, Any], rules_text: str) -> None:
    console.print(f"{out['hands']} hands of {rules_text}, seats {', '.join(out['seats'])}, seed {out['seed']} "
                  f"({out['hands_per_second']:,.0f} hands/s); exhaustive draws {_pct(out['exhausted_rate'])}")
    names = Column("bot", no_wrap=True, min_width=max(len(n) for n in out["bots"]))  # never cut a bot's name
    t = Table(names, "win", "deal-in", "fan", "score", Column("95% CI", no_wrap=True), "ready", "花猪",
              box=box.SIMPLE_HEAD, pad_edge=False)
    for name, s in out["bots"].items():
        lo, hi = s["score_ci95"]
        fan = "-" if s["mean_fan"] is None else f"{s['mean_fan']:.2f}"
        t.add_row(name, _pct(s["win_rate"]), _pct(s["deal_in_rate"]), fan, f"{s['mean_score']:+.2f}",
                  f"[{lo:+.1f}, {hi:+.1f}]", _pct(s["ready_at_draw_rate"]), _pct(s["flower_pig_rate"]))
    console.print(t)
    console.print("win: hands won; fan: mean fan of a win; score: mean result per hand (× base), with its "
                  "95% interval; ready: ready at an exhaustive draw (查叫)")
    for name, s in out["bots"].items():
        dist = ", ".join(f"{k} fan ×{v}" for k, v in s["fan_distribution"].items()) or "no wins"
        console.print(f"fan distribution of {name}: {dist}")


def league(
    hands: Annotated[int, typer.Option(
        "--hands", "-n", min=4, max=MAX_HANDS, help="Hands to play (walls × 4 rotations).")] = 400,
    bots: BotsOption = "random,greedy",
    rules: RulesOption = "xuezhan",
    set_: SetOption = None,
    seed: SeedOption = 0,
    workers: WorkersOption = 1,
    ray: RayOption = None,
    as_json: JsonOption = False,
) -> None:
    """Rank bots by duplicate play: every wall is played with the line-up rotated through all
    four seats, and bots are compared wall by wall.

    Every wall is an independent hand whose dealer is the stream's draw, whatever the preset's
    dealer rule (a chained session would deal each rotation differently)."""
    console = Console(stderr=as_json)
    try:
        ruleset = rules_from_cli(rules, set_)
    except ChuanmaError as exc:
        raise typer.BadParameter(str(exc)) from None
    names = _bot_names(bots, ruleset)
    if len(set(names)) != len(names) or not 2 <= len(names) <= 4:
        raise typer.BadParameter("a league takes two to four different bots")
    _check_ray(ray)
    walls = hands // 4
    if hands % 4:
        console.print(f"--hands {hands} is not a multiple of 4: playing {4 * walls} hands "
                      f"({walls} walls × 4 rotations)")
    spec = LeagueSpec(ruleset.to_json(), tuple(names), seed)
    tally = Tally()
    results: dict[int, list[dict[str, tuple[int, int]]]] = {}
    start = time.perf_counter()
    with _progress(console, as_json) as progress:
        task = progress.add_task("league", total=walls * 4, rate="-")
        for (a, b), (part, per) in run_chunks(league_chunk, spec, chunks(walls, _chunk_size(walls, workers, ray)),
                                              workers=workers, ray_address=ray):
            tally.merge(part)
            results[a] = per
            rate = tally.hands / max(1e-9, time.perf_counter() - start)
            progress.update(task, advance=4 * (b - a), rate=f"{rate:,.0f}")
    elapsed = time.perf_counter() - start
    ordered = [w for a in sorted(results) for w in results[a]]
    table = league_table(ordered, names)
    out = {"rules": ruleset.to_json(), "seed": seed, **table, "stats": tally.summary(ruleset.fan_label)["bots"]}
    if as_json:
        typer.echo(json.dumps(out, ensure_ascii=False))
        return
    console.print(f"{table['hands']} duplicate hands ({table['walls']} walls × 4 rotations) of {ruleset.describe()}, "
                  f"seed {seed} ({table['hands'] / elapsed:,.0f} hands/s)")
    t = Table("rank", "bot", "score/hand", Column("95% CI", no_wrap=True), "win", "deal-in", "fan",
              box=box.SIMPLE_HEAD, pad_edge=False)
    for i, r in enumerate(table["ranking"], 1):
        s = tally.bots[r["bot"]].summary(ruleset.fan_label)
        fan = "-" if s["mean_fan"] is None else f"{s['mean_fan']:.2f}"
        t.add_row(str(i), r["bot"], f"{r['mean_score']:+.3f}", f"[{r['ci95'][0]:+.3f}, {r['ci95'][1]:+.3f}]",
                  _pct(s["win_rate"]), _pct(s["deal_in_rate"]), fan)
    console.print(t)
    d = Table("comparison", "difference/hand", Column("95% CI", no_wrap=True), "significant",
              box=box.SIMPLE_HEAD, pad_edge=False)
    for p in table["pairs"]:
        verdict = ("yes" if p["significant"] else "no") if table["enough_walls"] else "too few walls"
        d.add_row(f"{p['better']} − {p['worse']}", f"{p['difference']:+.3f}",
                  f"[{p['ci95'][0]:+.3f}, {p['ci95'][1]:+.3f}]", verdict)
    console.print(d)
    if not table["enough_walls"]:
        console.print(f"{table['walls']} walls are too few to call a difference significant: play at least "
                      f"{MIN_WALLS} walls (--hands {4 * MIN_WALLS}).")
