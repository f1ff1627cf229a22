"""``chuanma fair``: derive a deal, verify and sign hand records, manage the dealer's key."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from chuanma.errors import InputError
from chuanma.fairness.chain import verify_records
from chuanma.fairness.checks import Level, Status, Verdict
from chuanma.fairness.derive import derive_deal
from chuanma.fairness.errors import FairnessError
from chuanma.fairness.fields import parse_hex
from chuanma.fairness.keys import DEFAULT_KEY_FILE, exposure_warning, generate_key, read_key, signing_key_of, write_key
from chuanma.fairness.seeds import commitment, join_client_seeds
from chuanma.fairness.signing import PUBLIC_KEY_BYTES, sign_record
from chuanma.fairness.verify import verify_record
from chuanma.json_input import read_json
from chuanma.tiles import ALL_TILES, SICHUAN_TILES, tile_str

fair_app = typer.Typer(
    name="fair",
    help="Provably fair dealing: re-derive a deal, verify and sign hand records, manage the key.",
    no_args_is_help=True,
    add_completion=False,
)

EXIT_MISMATCH = 1
"""``fair verify``: a check failed."""
EXIT_BAD_INPUT = 2
EXIT_UNVERIFIED = 3
"""``fair verify``: no check failed, but a record is not verified (unsigned, or a deal only)."""
LEVEL_STYLE = {Level.VERIFIED: "bold green", Level.CONSISTENT: "bold yellow", Level.FAILED: "bold red"}

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
    with_honours: Annotated[
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
    deal = derive_deal(seed, joined, nonce, ALL_TILES if with_honours else SICHUAN_TILES)
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


def _read_record(path: Path) -> Any:
    try:
        return read_json(path)
    except InputError as exc:
        raise _fail(str(exc)) from None


def _print_verdict(name: str, verdict: Verdict) -> None:
    table = Table(title=f"Fairness of {name}", show_lines=False)
    table.add_column("check")
    table.add_column("result")
    table.add_column("details")
    style = {Status.PASSED: "green", Status.FAILED: "bold red", Status.NOT_RUN: "yellow"}
    label = {Status.PASSED: "PASSED", Status.FAILED: "FAILED", Status.NOT_RUN: "NOT RUN"}
    for check in verdict.checks:
        table.add_row(
            check.name, f"[{style[check.status]}]{label[check.status]}[/]", escape(check.message)
        )
    _out.print(table)
    _out.print(f"[{LEVEL_STYLE[verdict.level]}]verdict: {escape(verdict.headline)}[/]")


def _public_key(text: str | None, option: str = "--public-key") -> bytes | None:
    if text is None:
        return None
    try:
        return parse_hex(text, PUBLIC_KEY_BYTES, option)
    except FairnessError as exc:
        raise _fail(str(exc)) from None


@fair_app.command("verify")
def verify_command(
    records: Annotated[
        list[Path], typer.Argument(help="Hand records (JSON, chuanma-record/2); give a session's together.")
    ],
    public_key: Annotated[
        str | None,
        typer.Option(help="Require every record to be signed by this Ed25519 public key (hex)."),
    ] = None,
    vrf_public_key: Annotated[
        str | None,
        typer.Option(help="Require every VRF-dealt record to be dealt by this VRF public key (hex)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
) -> None:
    """Check hand records: seeds, dealer, direction, wall, the replay of the decisions, the
    result, the signature and, for records of one session given together, their chain.

    Exit status: 0 when every record is verified (signed, and its play and result checked), 3 when
    none failed but one is not verified (unsigned, or a deal only), 1 when a check failed, 2 when
    a record cannot be read.
    """
    key = _public_key(public_key)
    vrf_key = _public_key(vrf_public_key, "--vrf-public-key")
    data = [_read_record(path) for path in records]
    try:
        verdicts = verify_records(data, public_key=key, vrf_public_key=vrf_key, names=[str(p) for p in records])
    except FairnessError as exc:
        raise _fail(str(exc)) from None
    levels = {v.level for v in verdicts}
    worst = next(level for level in (Level.FAILED, Level.CONSISTENT, Level.VERIFIED)
                 if level in levels)
    if as_json:
        if len(records) == 1:
            typer.echo(json.dumps(verdicts[0].to_json()))
        else:
            typer.echo(json.dumps({
                "ok": all(v.ok for v in verdicts), "level": worst.value,
                "records": [{"file": str(p), **v.to_json()} for p, v in zip(records, verdicts, strict=True)],
            }))
    else:
        for path, verdict in zip(records, verdicts, strict=True):
            _print_verdict(path.name, verdict)
        if len(records) > 1:
            tally = [(sum(v.level is level for v in verdicts), level.value) for level in Level]
            counts = ", ".join(f"{n} {name}" for n, name in tally if n)
            failed = [p.name for p, v in zip(records, verdicts, strict=True) if v.level is Level.FAILED]
            named = f": {', '.join(failed)}" if failed else ""
            _out.print(f"[{LEVEL_STYLE[worst]}]{len(records)} records: {escape(counts + named)}[/]")
    if worst is not Level.VERIFIED:
        raise typer.Exit(EXIT_MISMATCH if worst is Level.FAILED else EXIT_UNVERIFIED)


@fair_app.command("sign")
def sign_command(
    record: Annotated[Path, typer.Argument(help="A finished hand's record (JSON, chuanma-record/2).")],
    key: Annotated[Path, typer.Option(help="The dealer's secret key file (fair keygen).")] = Path(
        DEFAULT_KEY_FILE
    ),
    out: Annotated[
        Path | None, typer.Option(help="Where to write the signed record (default: in place).")
    ] = None,
) -> None:
    """Sign a hand record with the signing key derived from the dealer's key file: an Ed25519
    signature over its canonical JSON.

    Refuses a record that does not pass every check of fair verify (a signature vouches for it).
    """
    data = _read_record(record)
    try:
        signing_key = signing_key_of(read_key(key))
        verdict = verify_record(data)
    except FairnessError as exc:
        raise _fail(f"{record}: {exc}") from None
    if not verdict.ok:
        names = ", ".join(c.name for c in verdict.failed)
        raise _fail(f"{record} fails fair verify ({names}): refusing to sign it")
    target = out if out is not None else record
    try:
        target.write_text(json.dumps(sign_record(data, signing_key), ensure_ascii=False), encoding="utf-8")
    except OSError as exc:
        raise _fail(f"cannot write {target}: {exc.strerror}") from None
    _err.print(f"signed {escape(str(target))} with the key whose public key is:")
    typer.echo(signing_key.public_key.hex())


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
    signing: Annotated[bool, typer.Option(
        "--signing", help="Print the public key of the signing key derived from it instead.")] = False,
) -> None:
    """Print the VRF public key (hex) of a secret key file, or with --signing its signing public key."""
    try:
        vrf_key = read_key(key)
    except FairnessError as exc:
        raise _fail(str(exc)) from None
    warning = exposure_warning(key)
    if warning is not None:
        _err.print(f"[bold yellow]warning:[/] {escape(warning)}")
    typer.echo((signing_key_of(vrf_key) if signing else vrf_key).public_key.hex())
