"""``chuanma hand``: shanten, waits and the best discards of a hand, for people."""

from __future__ import annotations

import json
from functools import partial
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from chuanma.advice import discard_options, useful_tiles
from chuanma.analysis import shanten
from chuanma.commands.options import RulesOption, SetOption, rules_from_cli
from chuanma.errors import ChuanmaError, HandSizeError, NotationError, naming
from chuanma.melds import parse_meld
from chuanma.rules import RuleSet
from chuanma.tiles import format_tiles, parse_hand, parse_tiles, suit_index, suit_of, tile_name, tile_str, to_counts


def _useful_json(useful: Any) -> list[dict[str, Any]]:
    return [{"tile": tile_str(u.tile), "name": tile_name(u.tile), "remaining": u.remaining} for u in useful]


def hand(
    tiles: Annotated[str, typer.Argument(help="Concealed tiles, e.g. 1123m456p789s (13 or 14 with no melds).")],
    void: Annotated[str | None, typer.Option(help="The void suit (m, p or s).")] = None,
    meld: Annotated[
        list[str] | None,
        typer.Option(help="A declared meld: pong:5p, kong:7p[:concealed|:added], chow:3m (dazhong) (repeatable)."),
    ] = None,
    seen: Annotated[str, typer.Option(help="Tiles already visible elsewhere (they are not left to draw).")] = "",
    rules: RulesOption = "xuezhan",
    options: SetOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Show a hand's shanten, its waits (with copies left) and its best discards.

    Under --rules dazhong (大众麻将) the honours 1z-7z and chow melds are read, and there is no void.
    """
    try:
        ruleset = rules_from_cli(rules, options)
    except ChuanmaError as exc:
        raise typer.BadParameter(str(exc), param_hint="--rules/--set") from None
    try:
        result = _analyse(tiles, void, meld or [], seen, ruleset)
    except (ChuanmaError, ValueError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False))
        return
    _show(result, void)


def _analyse(tiles: str, void: str | None, meld_texts: list[str], seen: str, rules: RuleSet) -> dict[str, Any]:
    """The analysis ``chuanma hand`` shows; refuses bad input naming the argument or option."""
    tile_set = rules.tiles
    if void is not None:
        naming("--void", lambda: suit_index(void))
        if not rules.game_variant.void:
            raise NotationError("--void: 大众麻将 has no void suit (定缺)")
    melds = [naming("--meld", partial(parse_meld, m, tile_set=tile_set)) for m in meld_texts]
    concealed = naming("tiles", lambda: parse_hand(tiles, tile_set=tile_set))
    meld_tiles = [t for m in melds for t in m.tiles]
    if void is not None and any(suit_of(t) == void for t in meld_tiles):
        raise NotationError(f"--meld: a declared meld cannot be of the void suit {void}")
    if any(m.kind == "chow" for m in melds) and not rules.game_variant.chow:
        raise NotationError("--meld: chow (吃) does not exist in Sichuan mahjong")
    naming("tiles and --meld", lambda: to_counts([*concealed, *meld_tiles]))
    seen_tiles = naming("--seen", lambda: parse_tiles(seen, tile_set=tile_set))
    naming("--seen", lambda: to_counts(seen_tiles))
    naming("tiles, --meld and --seen together", lambda: to_counts([*concealed, *meld_tiles, *seen_tiles]))
    counts = to_counts(concealed)
    size = 13 - 3 * len(melds)
    if len(concealed) not in (size, size + 1):
        raise HandSizeError(f"{len(concealed)} tiles with {len(melds)} melds; expected {size} or {size + 1}")
    result: dict[str, Any] = {"hand": format_tiles(concealed), "shanten": shanten(counts, void)}
    three_suits = rules.game_variant.void and void is None and len({suit_of(t) for t in [*concealed, *meld_tiles]}) == 3
    if three_suits:
        result["note"] = "the hand holds all three suits; it cannot win until one is cleared (give --void)"
    if len(concealed) == size:
        result["useful"] = _useful_json(useful_tiles(counts, melds, void, seen_tiles))
        return result
    result["win"] = result["shanten"] == -1 and not three_suits
    options = discard_options(counts, melds, void, seen_tiles)
    result["discards"] = [
        {"tile": tile_str(o.tile), "name": tile_name(o.tile), "shanten": o.shanten,
         "useful": _useful_json(o.useful), "useful_count": o.useful_count}
        for o in options
    ]
    return result


def _show(result: dict[str, Any], void: str | None) -> None:
    console = Console()
    label = {-1: "complete (胡)", 0: "ready (听牌)"}.get(result["shanten"], f"{result['shanten']} from ready")
    if result["shanten"] == -1 and not result.get("win", True):
        label = "complete in shape, but it cannot win: all three suits"
    suffix = f"  void {void}" if void else ""
    console.print(f"[bold]{result['hand']}[/]  shanten {result['shanten']}: {label}{suffix}")
    if result.get("note"):
        console.print(f"[yellow]note:[/] {result['note']}")
    if "useful" in result:
        title = "Waits" if result["shanten"] == 0 else "Useful tiles"
        console.print(f"{title}: {_listing(result['useful'])}")
        return
    table = Table(title="Discards, best first")
    for column in ("discard", "名", "shanten after", "useful tiles (copies left)", "total"):
        table.add_column(column)
    best = result["discards"][0]["shanten"] if result["discards"] else None
    for d in result["discards"]:
        style = "green" if d["shanten"] == best else None
        cells = (d["tile"], d["name"], str(d["shanten"]), _listing(d["useful"]), str(d["useful_count"]))
        table.add_row(*cells, style=style)
    console.print(table)


def _listing(useful: list[dict[str, Any]]) -> str:
    return "  ".join(f"{u['tile']} {u['name']}×{u['remaining']}" for u in useful) or "—"
