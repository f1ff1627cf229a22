"""``chuanma fair``: derive a deal, verify a hand record, manage the VRF key."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from chuanma.errors import InputError
from chuanma.fairness.derive import derive_deal
from chuanma.fairness.errors import FairnessError
from chuanma.fairness.keys import DEFAULT_KEY_FILE, exposure_warning, generate_key, read_key, write_key
from chuanma.fairness.seeds import commitment, join_client_seeds
from chuanma.fairness.verify import Status, verify_record
from chuanma.json_input import read_json
from chuanma.tiles import tile_str

fair_app = typer.Typer(
    name="fair",
    help="Provably fair dealing: re-derive a deal, verify a hand record, manage the VRF key.",
    no_args_is_help=True,
    add_completion=False,
)

EXIT_MISMATCH = 1
EXIT_BAD_INPUT = 2

_out = Console(highlight=False)
_err = Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(message: str) -> typer.Exit:
    _err.print(f"[bold red]error:[/] {escape(message)}")
    return typer.Exit(EXIT_BAD_INPUT)


@fair_app.command("deal")
def deal_command(
    server_seed: Annotated[str, typer.Option(help="The revealed server seed, in hex.")],
    client_seeds: Annotated[
        str, typer.Option(help="The four seats' client seeds, comma-separated: a,b,c,d.")
    ],
    nonce: Annotated[int, typer.Option(min=0, help="The hand's number at its table (0, 1, …).")],
    honors: Annotated[
        bool, typer.Option("--honors", help="Shuffle the 136-tile set of 大众麻将.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Re-derive the dealer, exchange direction and wall from the seeds."""
    try:
        seed = bytes.fromhex(server_seed)
    except ValueError:
        raise _fail(f"--server-seed must be hexadecimal, not {server_seed!r}") from None
    if not seed:
        raise _fail("--server-seed is empty")
    try:
        joined = join_client_seeds(client_seeds.split(","))
    except FairnessError as exc:
        raise _fail(f"--client-seeds: {exc}") from None
    deal = derive_deal(seed, joined, nonce, honors=honors)
    result: dict[str, Any] = {
        "commitment": commitment(seed),
        "dealer": deal.dealer,
        "direction": deal.direction,
        "wall": deal.wall_strings(),
    }
    if as_json:
        typer.echo(json.dumps(result))
        return
    _out.print(f"[bold]commitment[/] {result['commitment']}")
    _out.print(f"[bold]first HMAC message[/] {escape(joined)}:{nonce}:0")
    _out.print(f"[bold]dealer[/]     seat {deal.dealer}")
    _out.print(f"[bold]direction[/]  {deal.direction}")
    _out.print("[bold]wall[/] (draw order, 18 per row)")
    walls = deal.wall
    for start in range(0, len(walls), 18):
        row = " ".join(f"{tile_str(t):>2}" for t in walls[start : start + 18])
        _out.print(f"  {start:>3}  {row}")


@fair_app.command("verify")
def verify_command(
    record: Annotated[Path, typer.Argument(help="A hand record (JSON, chuanma-record/1).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
) -> None:
    """Check a hand record's seeds and its dealer, direction and wall.

    Exit status: 0 when no check failed, 1 when one did, 2 when the record cannot be read.
    """
    try:
        data = read_json(record)
    except InputError as exc:
        raise _fail(str(exc)) from None
    try:
        verdict = verify_record(data)
    except FairnessError as exc:
        raise _fail(f"{record}: {exc}") from None
    if as_json:
        typer.echo(json.dumps(verdict.to_json()))
    else:
        table = Table(title=f"Fairness of {record.name}", show_lines=False)
        table.add_column("check")
        table.add_column("result")
        table.add_column("details")
        style = {Status.PASSED: "green", Status.FAILED: "bold red", Status.NOT_RUN: "yellow"}
        label = {Status.PASSED: "PASSED", Status.FAILED: "FAILED", Status.NOT_RUN: "NOT RUN"}
        for check in verdict.checks:
            table.add_row(
                check.name,
                f"[{style[check.status]}]{label[check.status]}[/]",
                escape(check.message),
            )
        _out.print(table)
        if verdict.ok:
            _out.print("[bold green]verdict: no check failed[/]")
        else:
            names = ", ".join(c.name for c in verdict.failed)
            _out.print(f"[bold red]verdict: FAILED ({names})[/]")
    if not verdict.ok:
        raise typer.Exit(EXIT_MISMATCH)


@fair_app.command("keygen")
def keygen_command(
    out: Annotated[Path, typer.Option(help="Where to write the secret key (mode 0600).")] = Path(
        DEFAULT_KEY_FILE
    ),
    force: Annotated[bool, typer.Option("--force", help="Replace an existing key file.")] = False,
) -> None:
    """Create a VRF secret key file and print its public key (hex)."""
    key = generate_key()
    try:
        path = write_key(key, out, force=force)
    except FairnessError as exc:
        raise _fail(str(exc)) from None
    _err.print(f"secret key written to {escape(str(path))} (mode 0600); publish the public key:")
    typer.echo(key.public_key.hex())


@fair_app.command("pubkey")
def pubkey_command(
    key: Annotated[Path, typer.Option(help="The secret key file.")] = Path(DEFAULT_KEY_FILE),
) -> None:
    """Print the public key (hex) of a VRF secret key file."""
    try:
        vrf_key = read_key(key)
    except FairnessError as exc:
        raise _fail(str(exc)) from None
    warning = exposure_warning(key)
    if warning is not None:
        _err.print(f"[bold yellow]warning:[/] {escape(warning)}")
    typer.echo(vrf_key.public_key.hex())
