"""``chuanma admin``: an operator's commands on a server's database (docs/operations.md)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from rich.console import Console
from rich.table import Table

T = TypeVar("T")

admin_app = typer.Typer(name="admin", help="An operator's commands on a server's database.",
                        no_args_is_help=True, add_completion=False)
keys_app = typer.Typer(name="keys", help="The dealer keys the database admits: list, add (a rotation), retire.",
                       no_args_is_help=True, add_completion=False)
admin_app.add_typer(keys_app, name="keys")

DataOption = Annotated[Path, typer.Option(help="the server's data directory (its SQLite database)")]
DbOption = Annotated[str | None, typer.Option(
    help="database URL instead of SQLite in --data, e.g. postgresql+asyncpg://user@host/db")]
_out = Console(highlight=False)


def on_database(data: Path, db: str | None, work: Callable[..., Awaitable[T]]) -> T:
    """Run ``work(store)`` on the server's database (its schema brought up to date first); a
    refusal or a database that cannot be opened ends the command in one line."""
    from sqlalchemy.exc import DBAPIError, SQLAlchemyError

    from chuanma.errors import ChuanmaError
    from chuanma.server.store import open_store, sqlite_url

    if db is None and not (data / "chuanma.db").exists():
        raise typer.BadParameter(f"--data: no database in {data} (give the server's --data, or --db)")

    async def run() -> T:
        store = await open_store(db or sqlite_url(data.resolve()))
        try:
            return await work(store)
        finally:
            await store.close()

    try:
        return asyncio.run(run())
    except ChuanmaError as exc:
        raise typer.BadParameter(str(exc)) from None
    except (SQLAlchemyError, OSError) as exc:
        why = exc.orig if isinstance(exc, DBAPIError) else exc
        raise typer.BadParameter(f"cannot open the database: {str(why).splitlines()[0]}") from None


def moment(at: float | None) -> str:
    return "" if at is None else datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")


@keys_app.command("list")
def keys_list(data: DataOption = Path("chuanma-data"), db: DbOption = None) -> None:
    """The database's dealer keys, oldest first: the ones that deal, and the retired."""
    from chuanma.server.dealer_keys import published

    found = on_database(data, db, published)
    table = Table("VRF public key", "signing public key", "added", "retired")
    for k in found:
        table.add_row(k.public_key, k.signing_key or "(not yet seen)", moment(k.added), moment(k.retired) or "deals")
    _out.print(table)


@keys_app.command("add")
def keys_add(
    key: Annotated[Path, typer.Argument(help="the new dealer key file (chuanma fair keygen)")],
    data: DataOption = Path("chuanma-data"), db: DbOption = None,
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
    new = on_database(data, db, lambda store: add(store, vrf, time.time()))
    typer.echo(f"dealer key {vrf.public_key.hex()} {'added' if new else 'was admitted already'}")


@keys_app.command("retire")
def keys_retire(
    public_key: Annotated[str, typer.Argument(help="the VRF public key to retire (hex, or its first digits)")],
    data: DataOption = Path("chuanma-data"), db: DbOption = None,
) -> None:
    """Retire a dealer key: no server may start with it again (refused while an unfinished hand was
    dealt by it, or if it is the last key that deals). It stays published, with its dates."""
    from chuanma.server.dealer_keys import retire

    row = on_database(data, db, lambda store: retire(store, public_key, time.time()))
    typer.echo(f"dealer key {row.public_key} retired")


@admin_app.command("new-cluster")
def new_cluster_command(
    db: Annotated[str, typer.Option(help="the copy's database URL, postgresql+asyncpg://…")],
    lease_seconds: Annotated[float, typer.Option(min=0.1, max=3600, help="the cluster's --lease-seconds")] = 15.0,
) -> None:
    """Make a copy of a cluster's database (a restored backup) a cluster of its own: new Redis
    channels and keys, so that its nodes never meet the original's. It watches for a lease time that
    no node runs on it (refused if one does)."""
    from chuanma.server.table_leases import new_cluster

    typer.echo(f"watching for {lease_seconds:g} s that no node runs on the database...", err=True)
    prefix = on_database(Path("."), db, lambda store: new_cluster(store, lease_seconds))
    typer.echo(f"the database is a cluster of its own: its Redis channels and keys are under {prefix}")
