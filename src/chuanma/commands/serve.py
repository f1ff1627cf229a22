"""``chuanma serve``: the game server (accounts, rooms, live tables) on SQLite or PostgreSQL."""

from __future__ import annotations

import asyncio
import functools
import gc
import ipaddress
import signal
import socket
import tomllib
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated, Any, NoReturn
from urllib.parse import urlsplit

import typer
from typer.core import TyperCommand

from chuanma.server.clock import EarlyClock, SystemClock
from chuanma.server.config import ServerConfig
from chuanma.server.mail import SECURITY, Smtp

if TYPE_CHECKING:
    import uvicorn

MAX_SECONDS = 86_400
"""The longest timer ``serve`` accepts: a day."""
MAX_SESSION_DAYS = 3_650
"""The longest a session token may go unused that ``serve`` accepts: ten years."""
MAX_PRIVATE_TABLES = 100
"""The most private tables ``serve`` lets one account keep open."""
MAX_RATE = 10_000
"""The highest rate limit ``serve`` accepts (messages per second, logins per minute)."""
MAX_LOGIN_DAYS = 36_500
"""The longest ``serve`` keeps the logins: a hundred years (a day at least: the daily grants count them)."""
MAX_CHIPS = 10**12
"""The largest amount of chips an option takes."""
MAX_RELIEFS = 24
"""The most relief chips (--reliefs-per-day) a player may be given a day."""

FULL_COLLECTION_EVERY = 100
"""Young-generation collections between two full ones (Python's default: 10). A full collection
walks every live table and stops the server meanwhile (about 0.17 s at 500 tables); at the
default it came every 6 s there (p99 of a decision 170–210 ms), at 100 about every minute."""

SOCKETS_CLOSING = 5
"""Seconds a stopping server waits for its connections (each told to close) to finish before it
cancels what is left of them and stops its tables: a stop is never held up by a connection."""


ENV_PREFIX = "CHUANMA"
"""Each option of ``serve`` may be given in the environment as ``CHUANMA_`` and its name (``--turn-seconds``:
``CHUANMA_TURN_SECONDS``; ``--config``: ``CHUANMA_CONFIG_FILE``), or in the ``--config`` file under
its name (``turn_seconds``)."""
NOT_IN_FILE = frozenset({"config_file", "check"})
"""The options a configuration file does not hold."""


class ServeCommand(TyperCommand):
    """``serve``: its options from the command line, the environment (:data:`ENV_PREFIX`) or a
    ``--config`` file, in that order, each one declaration; with ``--check`` every refusal is one line
    and exit code 1. Its help is click's plain layout: Rich's table of its options, at 80 columns,
    cut the longer names (``--private-tables-per-hour`` shown as ``--private-tab…``); click's wraps
    the descriptions and keeps every name whole."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["context_settings"] = {**(kwargs.get("context_settings") or {}), "auto_envvar_prefix": ENV_PREFIX}
        super().__init__(*args, **kwargs)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        super(TyperCommand, self).format_help(ctx, formatter)  # click's, not Typer's Rich one

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        checking = "--check" in args  # before parsing, which takes the arguments off the list
        try:
            return super().make_context(info_name, args, parent, **extra)
        except typer.BadParameter as exc:  # a value the options' types refused (from a file, say)
            if not checking:
                raise
            refused(exc)

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except typer.BadParameter as exc:  # the settings' own checks
            if ctx.params.get("check") is not True:
                raise
            refused(exc)


def refused(exc: typer.BadParameter) -> NoReturn:
    """``--check``'s answer to a refusal: one line, exit code 1."""
    typer.echo(f"chuanma serve --check: {exc.format_message()}", err=True)
    raise typer.Exit(1)


def file_keys(command: Any) -> set[str]:
    """What a configuration file may hold: the name of each option of ``command`` (``--check`` and
    ``--config`` aside)."""
    return {p.name for p in command.params if p.name and p.name not in NOT_IN_FILE}


def read_config(ctx: typer.Context, path: Path | None) -> Path | None:
    """Take the options of the TOML file ``path`` as the defaults of the others (the command line and
    the environment come first); a file that cannot be read, or holds a key that is no option, is
    refused in one line (exit code 1)."""
    if path is None:
        return None

    def fail(why: str) -> NoReturn:
        typer.echo(f"chuanma serve: --config {path}: {why}", err=True)
        raise typer.Exit(1)
    try:
        settings = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        fail(f"cannot read it: {exc.strerror}")
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        fail(f"not TOML: {exc}")
    known = file_keys(ctx.command)
    for key in settings:
        if key not in known:
            fail(f"unknown key {key!r}: a key is an option of chuanma serve --help, with _ for - "
                 "(turn_seconds = 20)")
    ctx.default_map = {**(ctx.default_map or {}), **settings}
    return path


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
    auto_delay: Annotated[float, typer.Option(help="pause before each decision 托管 makes for a player")] = 1.0,
    bot_wait: Annotated[float, typer.Option(help="seconds quick-join waits before bots fill seats")] = 10.0,
    auth_per_minute: Annotated[int, typer.Option(help="logins and registrations per address per minute")] = 20,
    messages_per_second: Annotated[float, typer.Option(
        help="messages per second a connection may send beyond the answers asked of it")] = 20.0,
    session_days: Annotated[float, typer.Option(help="days a session token may go unused before it expires")] = 30.0,
    allow_origin: Annotated[list[str] | None, typer.Option(
        help="another origin whose pages may open /ws, e.g. https://example.com (repeatable)")] = None,
    secure_cookies: Annotated[bool, typer.Option(
        help="always mark the session cookie Secure (it is over https anyway)")] = False,
    api_docs: Annotated[bool, typer.Option(help="serve the OpenAPI pages /docs, /redoc and /openapi.json")] = False,
    metrics_port: Annotated[int | None, typer.Option(
        min=0, max=65535, help="serve /metrics on this port only (default: on --port, to loopback clients)")] = None,
    metrics_host: Annotated[str, typer.Option(help="address --metrics-port listens on")] = "127.0.0.1",
    key: Annotated[Path | None, typer.Option(
        help="the dealer's key file (chuanma fair keygen); default: dealer.key in --data, made on first start")] = None,
    forwarded_allow_ips: Annotated[str | None, typer.Option(
        help="trust X-Forwarded-For/-Proto from these proxies (addresses or networks, comma-separated, "
             "or *); by default from nobody")] = None,
    private_tables: Annotated[int, typer.Option(
        min=1, max=MAX_PRIVATE_TABLES, help="private tables one account may have open")] = 3,
    guests_per_hour: Annotated[int, typer.Option(
        min=1, max=MAX_RATE, help="guest accounts one address may make per hour")] = 20,
    private_tables_per_hour: Annotated[int, typer.Option(
        min=1, max=MAX_RATE, help="private tables one address may open per hour")] = 20,
    private_idle_seconds: Annotated[float, typer.Option(
        help="seconds a private table stays open with no player connected")] = 600.0,
    reliefs_per_day: Annotated[int, typer.Option(
        min=0, max=MAX_RELIEFS, help="relief chips (破产补助) a player below the lowest room may get a day")] = 3,
    relief_hands: Annotated[int, typer.Option(
        min=0, max=MAX_RATE, help="rated hands a player plays after a grant or relief before the next relief")] = 5,
    trusted_hands: Annotated[int, typer.Option(
        min=0, max=MAX_RATE, help="rated hands after which an account's escapes pay in full (0: always)")] = 10,
    escape_cap: Annotated[int, typer.Option(
        min=0, max=MAX_CHIPS, help="chips the escapes of an account short of --trusted-hands cost it in all")] = 1_000,
    grants_per_day: Annotated[int, typer.Option(
        min=1, max=MAX_RATE, help="new accounts (guests, registrations) one address may make a UTC day")] = 20,
    private_base_rule: Annotated[bool, typer.Option(
        help="a private table's players need a balance a room of at least its base admits")] = True,
    login_days: Annotated[float, typer.Option(help="days the logins (address, user agent) are kept")] = 90.0,
    leaderboard_min_hands: Annotated[int, typer.Option(
        min=1, max=MAX_RATE, help="hands a player needs (in the rules and period) to be on a leaderboard")] = 10,
    drain_seconds: Annotated[float, typer.Option(
        help="at a stop (SIGTERM) or a drain, the longest wait for the hands in play to end")] = 120.0,
    lease_seconds: Annotated[float, typer.Option(
        help="the database's lease: one server process at a time; after a crash the next waits this long")] = 15.0,
    redis: Annotated[str | None, typer.Option(
        help="run as one node of a cluster: Redis at this URL, e.g. redis://127.0.0.1:6379/0 "
             "(needs --db postgresql+asyncpg://…; docs/server.md, Cluster)")] = None,
    public_url: Annotated[str | None, typer.Option(
        help="the server's address as players reach it, e.g. https://example.com (the e-mailed links point "
             "there)")] = None,
    smtp_host: Annotated[str | None, typer.Option(
        help="e-mail password-reset links through this SMTP server (needs --smtp-from and --public-url)")] = None,
    smtp_port: Annotated[int, typer.Option(min=1, max=65535, help="the SMTP server's port")] = 587,
    smtp_security: Annotated[str, typer.Option(
        help="starttls (port 587), ssl (port 465) or none (a relay on this host only)")] = "starttls",
    smtp_user: Annotated[str | None, typer.Option(help="the SMTP login's user (default: no login)")] = None,
    smtp_password: Annotated[str | None, typer.Option(
        help="the SMTP login's password (give it in the environment or the --config file)")] = None,
    smtp_from: Annotated[str | None, typer.Option(help="the sender of the e-mails, e.g. noreply@example.com")] = None,
    forgot_per_hour: Annotated[int, typer.Option(
        min=1, max=MAX_RATE, help="password-reset e-mails asked for per address, and per e-mail address, "
                                  "an hour")] = 10,
    config_file: Annotated[Path | None, typer.Option(
        "--config", is_eager=True, callback=read_config, dir_okay=False,
        help="a TOML file of these options (turn_seconds = 20); the command line and the environment "
             "(CHUANMA_TURN_SECONDS) come first")] = None,
    check: Annotated[bool, typer.Option(
        help="check the whole configuration and that the database can be used, then stop (exit code 0 or 1, "
             "one line)")] = False,
    early_timers: Annotated[float, typer.Option(
        hidden=True, min=0, help="testing: timers fire this many seconds early (benchmarks/chaos.py)")] = 0.0,
) -> None:
    """Run the game server: prints its address, answers /healthz once it can take players (with
    --check: checks its configuration and database, and stops)."""
    try:
        import uvicorn

        from chuanma.server.app import create_app
    except ImportError as exc:
        raise typer.BadParameter(
            f"the server needs the 'server' extra: pip install 'chuanma[server]' ({exc})") from None
    from chuanma.fairness import FairnessError
    from chuanma.fairness.keys import signing_key_of
    from chuanma.server.dealer import dealer_key
    from chuanma.server.logs import setup_logging
    from chuanma.server.store import sqlite_url

    def configured() -> tuple[ServerConfig, str]:
        """The server's settings, each option checked, and its database's name (it can be used)."""
        # written so that NaN fails every comparison and is refused with the rest
        if not (all(0 < x <= MAX_SECONDS for x in (turn_seconds, claim_seconds, ready_seconds,
                                                      private_idle_seconds, lease_seconds, drain_seconds))
                and 0 <= bot_wait <= MAX_SECONDS and 0 <= auto_delay <= MAX_SECONDS):
            raise typer.BadParameter(f"the timers take seconds above 0 and at most {MAX_SECONDS:,} "
                                     "(bot-wait and auto-delay may be 0)")
        if not (0 < messages_per_second <= MAX_RATE and 1 <= auth_per_minute <= MAX_RATE):
            raise typer.BadParameter(f"the rate limits take a number above 0 and at most {MAX_RATE:,}")
        if not 1 <= login_days <= MAX_LOGIN_DAYS:
            raise typer.BadParameter(f"--login-days takes days from 1 to {MAX_LOGIN_DAYS:,}")
        if not 0 < session_days <= MAX_SESSION_DAYS:
            raise typer.BadParameter(f"--session-days takes days above 0 and at most {MAX_SESSION_DAYS:,}")
        origins = tuple(allow_origin or ())
        for origin in origins:
            check_origin(origin, "--allow-origin")
        if public_url is not None:
            check_origin(public_url, "--public-url")
        if forwarded_allow_ips is not None:
            check_proxies(forwarded_allow_ips)
        smtp = mail_settings(smtp_host, smtp_port, smtp_security, smtp_user, smtp_password, smtp_from, public_url)
        try:
            data.mkdir(mode=0o700, parents=True, exist_ok=True)  # new: the database (password hashes) for us only
        except OSError as exc:
            raise typer.BadParameter(f"--data: cannot create {data}: {exc.strerror}") from None
        try:
            dealer = dealer_key(key, data)
        except FairnessError as exc:
            raise typer.BadParameter(f"dealer key: {exc}") from None
        if metrics_port is not None:
            check_port(metrics_host, metrics_port, "--metrics-port")
        check_port(host, port, "--port/--host")
        settings = ServerConfig(
            db_url=db or sqlite_url(data.resolve()), data_dir=data, dealer_key=dealer,
            clock=EarlyClock(early_timers) if early_timers else SystemClock(), turn_seconds=turn_seconds,
            claim_seconds=claim_seconds, ready_seconds=ready_seconds, auto_delay=auto_delay, bot_wait=bot_wait,
            auth_per_minute=auth_per_minute, messages_per_second=messages_per_second,
            session_days=session_days, allowed_origins=origins, secure_cookies=secure_cookies,
            api_docs=api_docs, metrics_port=metrics_port, metrics_host=metrics_host,
            forwarded_allow_ips=forwarded_allow_ips, private_tables=private_tables,
            guests_per_hour=guests_per_hour, private_tables_per_hour=private_tables_per_hour,
            private_idle_seconds=private_idle_seconds, lease_seconds=lease_seconds, drain_seconds=drain_seconds,
            reliefs_per_day=reliefs_per_day, leaderboard_min_hands=leaderboard_min_hands,
            relief_hands=relief_hands, trusted_hands=trusted_hands, escape_cap=escape_cap,
            grants_per_day=grants_per_day, private_base_rule=private_base_rule, login_days=login_days,
            redis_url=redis, smtp=smtp, public_url=public_url, forgot_per_hour=forgot_per_hour)
        if not check:
            setup_logging(settings.lease_holder)
        return settings, check_database(settings, "--db" if db else "--data", release=check)

    config, database = configured()
    if check:
        typer.echo(f"chuanma serve --check: the configuration is valid and the database ({database}) can be used")
        return
    dealer = config.dealer_key
    assert dealer is not None
    app = create_app(config)
    server = uvicorn.Server(uvicorn_config(app, config, host, port))
    original, stop = server.startup, server.handle_exit
    loop: list[asyncio.AbstractEventLoop] = []

    def handle_exit(sig: int, frame: FrameType | None) -> None:
        """SIGTERM drains first (the app stops the server after); a second signal, or SIGINT, stops at once."""
        if sig == signal.SIGTERM and loop and not app.state.server.host.draining:
            app.state.leave = functools.partial(stop, sig, frame)
            loop[0].call_soon_threadsafe(app.state.drain)
        else:
            stop(sig, frame)

    async def startup(sockets: object = None) -> None:
        await original(sockets)  # type: ignore[arg-type]
        if server.started:
            loop.append(asyncio.get_running_loop())
            app.state.leave = functools.partial(setattr, server, "should_exit", True)  # an operator's drain
            # what exists now (modules, the analysis tables, resumed tables) lives as long as the
            # process: frozen, a full collection no longer walks it, so its pauses stay short
            gc.collect()
            gc.freeze()
            young, middle, _ = gc.get_threshold()
            gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)
            bound = server.servers[0].sockets[0].getsockname()
            typer.echo(f"chuanma server: open http://{bound[0]}:{bound[1]}/ (data: {data}, "
                       f"database: {database}, dealer's VRF public key: {dealer.public_key.hex()}, "
                       f"signing public key: {signing_key_of(dealer).public_key.hex()})", err=False)
            if metrics_port is not None:
                typer.echo(f"metrics: http://{metrics_host}:{app.state.metrics_port}/metrics")

    server.startup = startup  # type: ignore[method-assign]
    server.handle_exit = handle_exit  # type: ignore[method-assign]
    server.run()


def check_port(host: str, port: int, option: str) -> None:
    """Refuse in one line a port (``option``) that cannot be listened on (in use, a bad address), before
    the server takes the database's lease: uvicorn and the metrics exporter would fail later, in
    their own words, leaving the lease to lapse before the next start."""
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        raise typer.BadParameter(f"{option}: cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def uvicorn_config(app: Any, config: ServerConfig, host: str, port: int) -> uvicorn.Config:
    """How uvicorn serves ``app``: proxy headers are read only from ``config.forwarded_allow_ips``."""
    import uvicorn

    return uvicorn.Config(app, host=host, port=port, log_level="warning", log_config=None, ws_max_size=1 << 20,
                          ws_per_message_deflate=False, lifespan="on", timeout_graceful_shutdown=SOCKETS_CLOSING,
                          proxy_headers=config.forwarded_allow_ips is not None,
                          forwarded_allow_ips=config.forwarded_allow_ips)


def check_origin(value: str, option: str) -> None:
    """Refuse a value of ``option`` that is not an origin such as ``https://example.com``."""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path.strip("/") or parts.query:
        raise typer.BadParameter(f"{option}: {value!r} is not an origin such as https://example.com")


def mail_settings(host: str | None, port: int, security: str, user: str | None, password: str | None,
                  sender: str | None, public_url: str | None) -> Smtp | None:
    """The SMTP server of ``--smtp-*`` (``None`` without ``--smtp-host``), its options checked."""
    if host is None:
        return None
    if security not in SECURITY:
        raise typer.BadParameter(f"--smtp-security: {security!r} is none of {', '.join(SECURITY)}")
    if sender is None or public_url is None:
        raise typer.BadParameter("--smtp-host needs --smtp-from (the sender) and --public-url (where the "
                                 "links point)")
    return Smtp(host, port, sender, security, user, password)


def check_proxies(value: str) -> None:
    """Refuse a ``--forwarded-allow-ips`` that is not ``*`` or a list of addresses and networks."""
    if value.strip() == "*":
        return
    for item in value.split(","):
        try:
            ipaddress.ip_network(item.strip(), strict=False)
        except ValueError:
            raise typer.BadParameter(f"--forwarded-allow-ips: {item.strip()!r} is not an address or a "
                                     "network (give them comma-separated, or *)") from None


def check_database(config: ServerConfig, option: str, release: bool = False) -> str:
    """Open the database (bringing its schema up to date unless another live server holds it), take
    its lease for this process (the app takes it again as its own holder) and close it again, so that
    a bad URL, a database that cannot be opened or one another live server holds is refused in one
    line before the server starts (a node of a cluster, ``--redis``, takes no lease: its database must
    be PostgreSQL and its Redis must answer); with ``release`` (``--check``) the lease is given back;
    returns the database's name as the start-up line says it (SQLite, PostgreSQL, …)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, DBAPIError, SQLAlchemyError

    from chuanma.server.dealer_keys import DealerKeyRefused, admission
    from chuanma.server.lease import Lease, LeaseHeldError, migration_check
    from chuanma.server.store import open_store
    from chuanma.server.table_leases import (
        ClusterCopyError,
        NodesAliveError,
        cluster_check,
        cluster_prefix,
        copy_check,
        upgrade_check,
    )

    url = config.db_url
    try:
        backend = make_url(url).get_backend_name()
    except (ArgumentError, ValueError) as exc:  # ValueError: a part such as the port that is not valid
        raise typer.BadParameter(f"--db: {exc}") from None

    if config.redis_url is not None and backend != "postgresql":
        raise typer.BadParameter("--redis: a cluster's nodes share a PostgreSQL database: give --db "
                                 "postgresql+asyncpg://…")

    async def probe() -> None:
        assert config.dealer_key is not None
        admitted = admission(config.dealer_key, config.clock.now())
        if config.redis_url is not None:  # a node: the database's lease is the cluster's, Redis must answer
            store = await open_store(url, before_migrating=upgrade_check(config), then=admitted)
            try:
                await store.read(cluster_check(config))
                # not a copy of the cluster's database (a restored backup) beside it
                await store.read(copy_check(await check_redis(config.redis_url, await cluster_prefix(store))))
            finally:
                await store.close()
            return
        store = await open_store(url, before_migrating=migration_check(config), then=admitted)
        try:
            lease = Lease.of(store, config)
            await lease.take()
            if release:  # only a check: the next start need not wait for it either
                await lease.release()
        finally:
            await store.close()

    try:
        asyncio.run(probe())
    except LeaseHeldError as exc:
        raise typer.BadParameter(f"{option}: {exc}") from None
    except (DealerKeyRefused, ClusterCopyError, NodesAliveError) as exc:
        raise typer.BadParameter(str(exc)) from None
    except (SQLAlchemyError, OSError, ImportError, ValueError, OverflowError) as exc:  # the last two: a bad port
        why = exc.orig if isinstance(exc, DBAPIError) else exc
        raise typer.BadParameter(f"--db: cannot open the database: {str(why).splitlines()[0]}") from None
    return {"sqlite": "SQLite", "postgresql": "PostgreSQL"}.get(backend, backend)


async def check_redis(url: str, prefix: str) -> int:
    """Refuse in one line a Redis that cannot be reached (``--redis``); the highest count of heartbeats
    the cluster of ``prefix`` wrote to it."""
    import redis.asyncio as aioredis
    from redis.exceptions import RedisError

    from chuanma.server.bus import epoch_of

    try:
        client = aioredis.from_url(url)
        try:
            await client.ping()
            return await epoch_of(client, prefix)
        finally:
            await client.aclose()
    except (RedisError, ValueError, OSError) as exc:
        raise typer.BadParameter(f"--redis: cannot reach Redis at {url}: {exc}") from None
