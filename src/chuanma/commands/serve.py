"""``chuanma serve``: the game server (accounts, rooms, live tables) on SQLite or PostgreSQL."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path
from typing import Annotated

import typer

from chuanma.server.config import ServerConfig

MAX_SECONDS = 86_400
"""The longest timer ``serve`` accepts: a day."""
MAX_RATE = 10_000
"""The highest rate limit ``serve`` accepts (messages per second, logins per minute)."""

FULL_COLLECTION_EVERY = 100
"""Young-generation collections between two full ones (Python's default: 10). A full collection
walks every live table and stops the server meanwhile (about 0.17 s at 500 tables); at the
default it came every 6 s there (p99 of a decision 170–210 ms), at 100 about every minute."""


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="port to listen on (0: any free port)")] = 8000,
    data: Annotated[Path, typer.Option(help="data directory (created if missing): the SQLite database")] = Path(
        "chuanma-data"),
    db: Annotated[str | None, typer.Option(
        help="database URL instead of SQLite in --data, e.g. postgresql+asyncpg://user@host/db")] = None,
    turn_seconds: Annotated[float, typer.Option(help="time for a decision on one's turn")] = 20.0,
    claim_seconds: Annotated[float, typer.Option(help="time to answer a claim window")] = 8.0,
    ready_seconds: Annotated[float, typer.Option(help="time to get ready for the next hand")] = 60.0,
    bot_wait: Annotated[float, typer.Option(help="seconds quick-join waits before bots fill seats")] = 10.0,
    auth_per_minute: Annotated[int, typer.Option(help="logins and registrations per address per minute")] = 20,
    messages_per_second: Annotated[float, typer.Option(help="messages per second a connection may send")] = 20.0,
) -> None:
    """Run the game server: prints its address, answers /healthz once it can take players."""
    try:
        import uvicorn

        from chuanma.server.app import create_app
    except ImportError as exc:
        raise typer.BadParameter(
            f"the server needs the 'server' extra: pip install 'chuanma[server]' ({exc})") from None
    from chuanma.server.logs import setup_logging
    from chuanma.server.store import sqlite_url

    # written so that NaN fails every comparison and is refused with the rest
    if not (all(0 < x <= MAX_SECONDS for x in (turn_seconds, claim_seconds, ready_seconds))
            and 0 <= bot_wait <= MAX_SECONDS):
        raise typer.BadParameter(f"the timers take seconds above 0 and at most {MAX_SECONDS:,} (bot-wait may be 0)")
    if not (0 < messages_per_second <= MAX_RATE and 1 <= auth_per_minute <= MAX_RATE):
        raise typer.BadParameter(f"the rate limits take a number above 0 and at most {MAX_RATE:,}")
    try:
        data.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise typer.BadParameter(f"--data: cannot create {data}: {exc.strerror}") from None
    config = ServerConfig(db_url=db or sqlite_url(data.resolve()), data_dir=data, turn_seconds=turn_seconds,
                          claim_seconds=claim_seconds, ready_seconds=ready_seconds, bot_wait=bot_wait,
                          auth_per_minute=auth_per_minute, messages_per_second=messages_per_second)
    database = check_database(config.db_url)
    setup_logging()
    server = uvicorn.Server(uvicorn.Config(create_app(config), host=host, port=port, log_level="warning",
                                           ws_max_size=1 << 20, ws_per_message_deflate=False, lifespan="on"))
    original = server.startup

    async def startup(sockets: object = None) -> None:
        await original(sockets)  # type: ignore[arg-type]
        if server.started:
            # what exists now (modules, the analysis tables, resumed tables) lives as long as the
            # process: frozen, a full collection no longer walks it, so its pauses stay short
            gc.collect()
            gc.freeze()
            young, middle, _ = gc.get_threshold()
            gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)
            bound = server.servers[0].sockets[0].getsockname()
            typer.echo(f"chuanma server: open http://{bound[0]}:{bound[1]}/ (data: {data}, "
                       f"database: {database})", err=False)

    server.startup = startup  # type: ignore[method-assign]
    server.run()


def check_database(url: str) -> str:
    """Open the database at ``url`` (bringing its schema up to date) and close it again, so that a
    bad URL or a database that cannot be opened is refused in one line before the server starts;
    returns the database's name as the start-up line says it (SQLite, PostgreSQL, …)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, DBAPIError, SQLAlchemyError

    from chuanma.server.store import open_store

    try:
        backend = make_url(url).get_backend_name()
    except (ArgumentError, ValueError) as exc:  # ValueError: a part such as the port that is not valid
        raise typer.BadParameter(f"--db: {exc}") from None

    async def probe() -> None:
        store = await open_store(url)
        await store.close()

    try:
        asyncio.run(probe())
    except (SQLAlchemyError, OSError, ImportError, ValueError, OverflowError) as exc:  # the last two: a bad port
        why = exc.orig if isinstance(exc, DBAPIError) else exc
        raise typer.BadParameter(f"--db: cannot open the database: {str(why).splitlines()[0]}") from None
    return {"sqlite": "SQLite", "postgresql": "PostgreSQL"}.get(backend, backend)
