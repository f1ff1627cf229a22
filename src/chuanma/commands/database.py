"""Running an operator's command on a server's database (``chuanma admin``)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from sqlalchemy.exc import SQLAlchemyError

from chuanma.errors import ChuanmaError
from chuanma.server.clock import SystemClock
from chuanma.server.config import ServerConfig
from chuanma.server.moderation import Moderation, ModerationError
from chuanma.server.store import Store, open_store, sqlite_url
from chuanma.server.table_leases import upgrade_check

T = TypeVar("T")
Db = Annotated[str | None, typer.Option(envvar="CHUANMA_DB", help="database URL, e.g. "
                                             "postgresql+asyncpg://user@host/db (default: the SQLite database "
                                             "in --data; environment: CHUANMA_DB)")]
Data = Annotated[Path, typer.Option(help="the server's data directory (its SQLite database)")]
DATA = Path("chuanma-data")


def on_database(db: str | None, data: Path, work: Callable[[Store], Awaitable[T]]) -> T:
    """Run ``work(store)`` on the server's database (its schema brought up to date first); a
    refusal (a moderation's, or a :class:`ChuanmaError`) or a
    database that cannot be used is one line and exit code 1."""
    if db is None and not (data / "chuanma.db").exists():
        raise typer.BadParameter(f"no database in {data}: give --data DIR or --db URL")

    async def scenario() -> T:
        url = db or sqlite_url(data.resolve())
        # no migration under a live server: it would run on a schema it does not know
        store = await open_store(url, before_migrating=upgrade_check(ServerConfig(db_url=url)))
        try:
            return await work(store)
        finally:
            await store.close()
    try:
        return asyncio.run(scenario())
    except (ModerationError, ChuanmaError) as exc:
        typer.echo(f"chuanma admin: {exc}", err=True)
        raise typer.Exit(1) from None
    except (SQLAlchemyError, OSError) as exc:  # a bad URL, a database away
        first = (str(exc).splitlines() or [type(exc).__name__])[0]
        typer.echo(f"chuanma admin: the database cannot be used: {first}", err=True)
        raise typer.Exit(1) from None


def run(db: str | None, data: Path, work: Callable[[Moderation], Awaitable[T]]) -> T:
    """Run ``work`` on the database's moderation service (:func:`on_database`), as the command line."""
    return on_database(db, data, lambda store: work(Moderation(store, SystemClock())))
