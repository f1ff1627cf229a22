"""``chuanma admin keys`` and ``chuanma admin new-cluster``: the dealer keys a database admits (a
key's rotation) and a copy of a cluster's database made a cluster of its own (docs/operations.md)."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from chuanma.commands.database import DATA, Data, Db, on_database

keys_app = typer.Typer(name="keys", help="The dealer keys the database admits: list, add (a rotation), retire.",
                       no_args_is_help=True, add_completion=False)


def moment(at: float | None) -> str:
    return "" if at is None else datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")


@keys_app.command("list")
def keys_list(db: Db = None, data: Data = DATA) -> None:
    """The database's dealer keys, oldest first: the ones that deal, and the retired."""
    from chuanma.server.dealer_keys import published

    found = on_database(db, data, published)
    table = Table("VRF public key", "signing public key", "added", "retired")
    for k in found:
        table.add_row(k.public_key, k.signing_key or "(not yet seen)", moment(k.added), moment(k.retired) or "deals")
    Console(highlight=False).print(table)


@keys_app.command("add")
def keys_add(
    key: Annotated[Path, typer.Argument(help="the new dealer key file (chuanma fair keygen)")],
    db: Db = None, data: Data = DATA,
) -> None:
    """Admit a new dealer key beside the database's (a rotation's first step): servers may then
    start with it; restart the nodes one by one with it, then retire the old key."""
    from chuanma.fairness import FairnessError
    from chuanma.fairness.keys import read_key
    from chuanma.server.dealer_keys import add

    try:
        vrf = read_key(key)
    except FairnessError as exc:
        raise typer.BadParameter(f"dealer key: {exc}") from None
    new = on_database(db, data, lambda store: add(store, vrf, time.time()))
    typer.echo(f"dealer key {vrf.public_key.hex()} {'added' if new else 'was admitted already'}")


@keys_app.command("retire")
def keys_retire(
    public_key: Annotated[str, typer.Argument(help="the VRF public key to retire (hex, or its first digits)")],
    db: Db = None, data: Data = DATA,
) -> None:
    """Retire a dealer key: no server may start with it again (refused while an unfinished hand was
    dealt by it, or if it is the last key that deals). It stays published, with its dates."""
    from chuanma.server.dealer_keys import retire

    row = on_database(db, data, lambda store: retire(store, public_key, time.time()))
    typer.echo(f"dealer key {row.public_key} retired")


def new_cluster_command(
    db: Annotated[str, typer.Option(help="the copy's database URL, postgresql+asyncpg://…")],
    lease_seconds: Annotated[float, typer.Option(min=0.1, max=3600, help="the cluster's --lease-seconds")] = 15.0,
) -> None:
    """Make a copy of a cluster's database (a restored backup) a cluster of its own: new Redis
    channels and keys, so that its nodes never meet the original's. It watches for a lease time that
    no node runs on it (refused if one does)."""
    from chuanma.server.table_leases import new_cluster

    typer.echo(f"watching for {lease_seconds:g} s that no node runs on the database...", err=True)
    prefix = on_database(db, DATA, lambda store: new_cluster(store, lease_seconds))
    typer.echo(f"the database is a cluster of its own: its Redis channels and keys are under {prefix}")
