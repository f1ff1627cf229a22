"""``chuanma admin``: the server's maintenance commands, run against its database."""

from __future__ import annotations

import asyncio
from typing import Annotated

import typer

admin_app = typer.Typer(help="The game server's maintenance, on its database.", no_args_is_help=True)
MAX_DAYS = 36_500


@admin_app.command("purge-logins")
def purge_logins_command(
    db: Annotated[str, typer.Option(help="the server's database URL, e.g. sqlite:///chuanma-data/chuanma.db")],
    days: Annotated[float, typer.Option(help="keep the logins of the last this many days")] = 90.0,
) -> None:
    """Forget the logins (address and user agent of registrations, guests, claims and logins) older
    than --days, as the server does daily."""
    from sqlalchemy.exc import ArgumentError, DBAPIError, SQLAlchemyError

    from chuanma.server.clock import SystemClock
    from chuanma.server.retention import purge_logins
    from chuanma.server.store import open_store

    if not 1 <= days <= MAX_DAYS:  # NaN fails too
        raise typer.BadParameter(f"--days takes days from 1 to {MAX_DAYS:,}")

    async def run() -> int:
        store = await open_store(db)
        try:
            return await purge_logins(store, SystemClock().now(), days)
        finally:
            await store.close()

    try:
        purged = asyncio.run(run())
    except (SQLAlchemyError, ArgumentError, OSError, ValueError) as exc:
        why = exc.orig if isinstance(exc, DBAPIError) else exc
        raise typer.BadParameter(f"--db: cannot open the database: {str(why).splitlines()[0]}") from None
    typer.echo(f"purged {purged} logins older than {days:g} days")
