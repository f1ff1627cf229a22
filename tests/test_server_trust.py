"""What the server trusts and tells: Argon2 off the event loop and bounded, sessions that expire and
end everywhere, usernames unique in any case, security headers, the WebSocket's Origin, the
OpenAPI pages and ``/metrics`` kept private, and ``chuanma serve``'s options for them."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from alembic import command
from argon2 import PasswordHasher
from fastapi import FastAPI
from sqlalchemy import Connection, create_engine, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import create_async_engine
from typer.testing import CliRunner
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from chuanma.cli import app as cli
from chuanma.server.app import create_app
from chuanma.server.config import ServerConfig
from chuanma.server.schema import tokens, users
from chuanma.server.store import AsyncRunner, Runner, ThreadRunner, alembic_config, open_store, sqlite_url
from server_harness import (
    TIMEOUT,
    Client,
    Running,
    account,
    db_url,
    make_config,
    pg_database,
    running,
    user_at_0001,
)

__all__ = ["db_url", "pg_database"]
PASSWORD = "a very secret password"
DAY = 86_400.0


def _http(base: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=base, timeout=TIMEOUT, verify=False)


def _bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


@asynccontextmanager
async def _in_process(config: ServerConfig, base: str = "http://testserver", client: tuple[str, int] = (
        "127.0.0.1", 50000)) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    """The app started (its lifespan run) and an HTTP client calling it directly, as if from ``client``
    and over ``base``'s scheme (``https``: as a request that came over TLS)."""
    app = create_app(config)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=client)
        async with httpx.AsyncClient(transport=transport, base_url=base) as http:
            yield app, http


# ---------------------------------------------------------------- Argon2 off the event loop

def test_passwords_are_hashed_and_verified_off_the_event_loop(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[tuple[str, int]] = []
    hash_, verify = PasswordHasher.hash, PasswordHasher.verify

    def record_hash(self: PasswordHasher, password: str | bytes, *, salt: bytes | None = None) -> str:
        threads.append(("hash", threading.get_ident()))
        return hash_(self, password, salt=salt)

    def record_verify(self: PasswordHasher, stored: str | bytes, password: str | bytes) -> bool:
        threads.append(("verify", threading.get_ident()))
        return verify(self, stored, password)

    monkeypatch.setattr(PasswordHasher, "hash", record_hash)
    monkeypatch.setattr(PasswordHasher, "verify", record_verify)

    async def scenario() -> None:
        loop_thread = threading.get_ident()
        async with running(make_config(db_url)) as run, _http(run.base) as http:
            await account(run.base, "hasher", PASSWORD)
            for name, password in (("hasher", PASSWORD), ("hasher", "wrong password"), ("nobody_here", PASSWORD)):
                await http.post("/api/login", json={"username": name, "password": password})
        kinds = [kind for kind, _ in threads]
        assert kinds.count("hash") >= 1 and kinds.count("verify") >= 3
        assert loop_thread not in {thread for _, thread in threads}
    asyncio.run(scenario())


def test_beyond_the_bound_password_checks_are_refused_with_503_not_queued(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    entered, release = threading.Event(), threading.Event()
    hash_ = PasswordHasher.hash

    def held_hash(self: PasswordHasher, password: str | bytes, *, salt: bytes | None = None) -> str:
        entered.set()
        release.wait(TIMEOUT)
        return hash_(self, password, salt=salt)

    monkeypatch.setattr(PasswordHasher, "hash", held_hash)

    async def scenario() -> None:
        async with running(make_config(db_url, password_threads=1, password_jobs=1)) as run, _http(run.base) as http:
            first = asyncio.create_task(http.post("/api/register", json={"username": "first", "password": PASSWORD}))
            assert await asyncio.to_thread(entered.wait, TIMEOUT)
            second = await http.post("/api/register", json={"username": "second", "password": PASSWORD})
            login = await http.post("/api/login", json={"username": "first", "password": PASSWORD})
            for refused in (second, login):
                assert refused.status_code == 503 and refused.headers["retry-after"] == "2"
                assert refused.json()["code"] == "busy"
            assert await run.server.store.user_by_name("second") is None  # the refusal changed nothing
            release.set()
            assert (await first).status_code == 200
            again = await http.post("/api/register", json={"username": "second", "password": PASSWORD})
            assert again.status_code == 200
    try:
        asyncio.run(scenario())
    finally:
        release.set()


# ---------------------------------------------------------------- sessions

def test_a_token_expires_after_the_session_days_unused_and_each_use_extends_it(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url, session_days=1.0)) as run, _http(run.base) as http:
            token = (await account(run.base))["token"]
            for _ in range(3):  # used just before it would expire, three times: more than a day in all
                run.clock.advance(DAY - 10)
                assert (await http.get("/api/me", headers=_bearer(token))).status_code == 200
            run.clock.advance(DAY)
            assert (await http.get("/api/me", headers=_bearer(token))).status_code == 401
            with pytest.raises(ConnectionClosed) as info:
                c = await Client.open(run.base, token)
                await c.recv()
            assert info.value.rcvd is not None and info.value.rcvd.code == 4401
            left = await run.server.store.read(lambda conn: conn.execute(select(tokens)).all())
            assert left == []  # the expired token is gone
    asyncio.run(scenario())


def test_logout_ends_one_session_or_with_all_every_session_of_the_account(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run, _http(run.base) as http:
            await account(run.base, "sessions", PASSWORD)
            login = {"username": "sessions", "password": PASSWORD}
            a, b, c = [(await http.post("/api/login", json=login)).json()["token"] for _ in range(3)]
            other = (await account(run.base))["token"]

            async def works(token: str) -> bool:
                return (await http.get("/api/me", headers=_bearer(token))).status_code == 200

            async def closed(socket: Client) -> int | None:
                with pytest.raises(ConnectionClosed) as info:
                    await socket.expect("never sent")
                return info.value.rcvd.code if info.value.rcvd else None

            on_a, on_b, on_c, on_other = [await Client.open(run.base, t) for t in (a, b, c, other)]
            assert (await http.post("/api/logout", headers=_bearer(a))).status_code == 200
            assert [await works(t) for t in (a, b, c, other)] == [False, True, True, True]
            assert await closed(on_a) == 4401  # this session's socket, not the others'
            bad = await http.post("/api/logout", headers=_bearer(b), json={"all": "yes"})
            assert bad.status_code == 400 and bad.json()["code"] == "bad_request" and "all" in bad.json()["message"]
            assert [await works(t) for t in (b, c)] == [True, True]  # the refusal changed nothing
            for socket in (on_b, on_c, on_other):
                await socket.send("ping")
                await socket.expect("pong")
            assert (await http.post("/api/logout", headers=_bearer(b), json={"all": True})).status_code == 200
            assert [await works(t) for t in (b, c, other)] == [False, False, True]
            assert [await closed(on_b), await closed(on_c)] == [4401, 4401]
            await on_other.send("ping")
            assert (await on_other.expect("pong"))["type"] == "pong"
    asyncio.run(scenario())


# ---------------------------------------------------------------- usernames

def test_usernames_are_unique_in_any_case_and_login_ignores_case(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run, _http(run.base) as http:
            await account(run.base, "Alice", PASSWORD)
            twin = await http.post("/api/register", json={"username": "aLICE", "password": PASSWORD})
            assert twin.status_code == 400 and twin.json()["code"] == "username_taken"
            login = await http.post("/api/login", json={"username": "ALICE", "password": PASSWORD})
            assert login.status_code == 200 and login.json()["user"]["username"] == "Alice"
            racing = await asyncio.gather(*(http.post("/api/register", json={"username": name, "password": PASSWORD})
                                            for name in ("Bob", "bob", "BOB")))
            assert sorted(r.status_code for r in racing) == [200, 400, 400]
            store = run.server.store
            with pytest.raises(IntegrityError):  # the database itself refuses a twin, not only the check
                await store.write(lambda conn: conn.execute(users.insert().values(
                    username="ALICE", kind="player", balance=0, created_at=0.0)))
            names = await store.read(lambda conn: [n.lower() for n in conn.execute(select(users.c.username)).scalars()])
            assert sorted(names) == ["alice", "bob"]
    asyncio.run(scenario())


async def _at_0001(db_url: str, names: list[str], password_hash: str | None = None) -> None:
    """A database at revision 0001 holding accounts ``names`` (ids 1, 2, ...) and a token of the first."""
    runner: Runner = (ThreadRunner(create_engine(db_url)) if db_url.startswith("sqlite")
                      else AsyncRunner(create_async_engine(db_url)))

    def old_rows(conn: Connection) -> None:
        command.upgrade(alembic_config(conn), "0001")
        for name in names:
            user_at_0001(conn, name, password_hash)
        conn.exec_driver_sql("INSERT INTO tokens (digest, user_id, created_at) VALUES ('d', 1, 1234.5)")
    await runner.write(old_rows)
    await runner.close()


def test_the_migration_renames_existing_names_that_differ_only_by_case(db_url: str) -> None:
    """A database at revision 0001 with ``Alice``, ``alice``, ``alice_2`` (what ``alice`` would be
    renamed to) and ``ALICE``, and a token: the oldest keeps its name, the others get their id."""
    async def scenario() -> None:
        await _at_0001(db_url, ["Alice", "alice", "alice_2", "ALICE"])
        store = await open_store(db_url)
        try:
            rows = await store.read(lambda conn: conn.execute(select(users.c.id, users.c.username)
                                                              .order_by(users.c.id)).all())
            assert [tuple(r) for r in rows] == [(1, "Alice"), (2, "alice_2_"), (3, "alice_2"), (4, "ALICE_4")]
            token = await store.read(lambda conn: conn.execute(select(tokens)).one())
            assert token.last_used == 1234.5
            assert (await store.user_by_name("aLiCe") or {}).get("id") == 1
        finally:
            await store.close()
    asyncio.run(scenario())


def test_a_long_name_renamed_by_the_migration_still_logs_in(db_url: str) -> None:
    """Twins of 19 and 20 characters are renamed to names of at most 20, which log in."""
    async def scenario() -> None:
        long19, long20 = "Abcdefghijklmnopqrs", "Abcdefghijklmnopqrst"
        await _at_0001(db_url, [long19, long19.lower(), long20, long20.lower()], PasswordHasher().hash(PASSWORD))
        async with _in_process(make_config(db_url)) as (_, http):
            for user_id, renamed in ((2, "abcdefghijklmnopqr_2"), (4, "abcdefghijklmnopqr_4")):
                login = await http.post("/api/login", json={"username": renamed, "password": PASSWORD})
                assert login.status_code == 200, login.text
                assert login.json()["user"]["id"] == user_id
    asyncio.run(scenario())


# ---------------------------------------------------------------- headers, cookies, Origin

def test_every_response_has_the_security_headers_and_the_verifier_keeps_its_inline_code(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running(make_config(sqlite_url(tmp_path))) as run, _http(run.base) as http:
            for path in ("/", "/calc", "/guide", "/static/app/main.js", "/api/rooms", "/healthz", "/no/such/page",
                         "/api/me", "/static/verify.html"):
                r = await http.get(path)
                assert r.headers["x-content-type-options"] == "nosniff", path
                assert r.headers["referrer-policy"] == "same-origin", path
                assert r.headers["x-frame-options"] == "DENY", path
                policy = r.headers["content-security-policy"]
                scripts = policy.split("script-src")[1].split(";")[0]
                assert "frame-ancestors 'none'" in policy and "unsafe-inline" not in scripts, path
                if path == "/static/verify.html":
                    assert "script-src 'sha256-" in policy and "style-src 'sha256-" in policy
                else:
                    assert "script-src 'self';" in policy
    asyncio.run(scenario())


def test_the_api_is_not_cached_and_head_is_answered_like_get(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running(make_config(sqlite_url(tmp_path))) as run, _http(run.base) as http:
            for path in ("/api/rooms", "/api/me", "/api/fairness/key"):
                assert (await http.get(path)).headers["cache-control"] == "no-store", path
            assert (await http.get("/")).headers["cache-control"] == "no-cache"  # the page's own value kept
            for path in ("/", "/healthz", "/calc", "/api/rooms", "/static/app/main.js", "/no/such/page"):
                got, head = await http.get(path), await http.head(path)
                assert head.status_code == got.status_code and head.content == b"", path
                assert head.headers["content-type"] == got.headers["content-type"], path
                assert head.headers["x-frame-options"] == "DENY", path
    asyncio.run(scenario())


def test_the_session_cookie_is_secure_over_tls_or_when_configured(tmp_path: Path) -> None:
    async def secure(config: ServerConfig, base: str) -> bool:
        async with _in_process(config, base) as (_, http):
            r = await http.post("/api/guest")
            assert r.status_code == 200
            return "; secure" in r.headers["set-cookie"].lower()

    async def scenario() -> None:
        url = sqlite_url(tmp_path)
        assert not await secure(make_config(url), "http://testserver")
        assert await secure(make_config(url), "https://testserver")
        assert await secure(make_config(url, secure_cookies=True), "http://testserver")
    asyncio.run(scenario())


def test_a_page_of_another_origin_cannot_open_the_socket(db_url: str) -> None:
    async def opens(run: Running, origin: str | None) -> bool:
        token = (await account(run.base))["token"]
        try:
            async with connect(run.base.replace("http", "ws") + f"/ws?token={token}",
                               origin=origin) as ws:  # type: ignore[arg-type]
                return '"hello"' in str(await asyncio.wait_for(ws.recv(), TIMEOUT))
        except InvalidStatus as exc:
            assert exc.response.status_code == 403
            return False

    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            for origin in ("http://evil.example", "null", run.base.replace("127.0.0.1", "localhost")):
                assert not await opens(run, origin), origin
            assert await opens(run, None)  # no Origin: not a browser
            assert await opens(run, run.base)  # its own pages
        extra = "https://play.example.com"
        async with running(make_config(db_url, allowed_origins=(extra + "/",))) as run:
            assert await opens(run, extra.upper())
            assert not await opens(run, "https://example.com")
    asyncio.run(scenario())


# ---------------------------------------------------------------- /docs and /metrics

def test_the_api_pages_are_off_unless_asked_for(tmp_path: Path) -> None:
    async def statuses(config: ServerConfig) -> list[int]:
        async with _in_process(config) as (_, http):
            return [(await http.get(path)).status_code for path in ("/docs", "/redoc", "/openapi.json")]

    async def scenario() -> None:
        assert await statuses(make_config(sqlite_url(tmp_path))) == [404, 404, 404]
        assert await statuses(make_config(sqlite_url(tmp_path), api_docs=True)) == [200, 200, 200]
    asyncio.run(scenario())


def test_metrics_answer_loopback_clients_only_or_only_on_their_own_port(tmp_path: Path) -> None:
    async def metrics(config: ServerConfig, client: str) -> int:
        async with _in_process(config, client=(client, 40000)) as (_, http):
            return (await http.get("/metrics")).status_code

    async def scenario() -> None:
        url = sqlite_url(tmp_path)
        assert await metrics(make_config(url), "127.0.0.1") == 200
        assert await metrics(make_config(url), "::1") == 200
        assert await metrics(make_config(url), "203.0.113.7") == 404
        async with _in_process(make_config(url, metrics_port=0)) as (app, http):
            assert (await http.get("/metrics")).status_code == 404  # not on the main port at all
            port = app.state.metrics_port
            async with _http(f"http://127.0.0.1:{port}") as own:
                r = await own.get("/metrics")
                assert r.status_code == 200 and "chuanma_connected_players" in r.text
    asyncio.run(scenario())


@pytest.mark.parametrize(("args", "words"), [
    (["--session-days", "0"], "--session-days takes days above 0"),
    (["--session-days", "inf"], "--session-days takes days above 0"),
    (["--allow-origin", "example.com"], "'example.com' is not an origin"),
    (["--allow-origin", "https://example.com/page"], "is not an origin"),
])
def test_serve_refuses_bad_trust_options_in_one_line(tmp_path: Path, args: list[str], words: str) -> None:
    result = CliRunner().invoke(cli, ["serve", "--data", str(tmp_path), *args])
    assert result.exit_code == 2 and words in result.output


@pytest.mark.parametrize(("option", "named"), [("--metrics-port", "--metrics-port"), ("--port", "--port/--host")])
def test_serve_refuses_a_port_in_use_in_one_line_before_touching_the_database(tmp_path: Path, option: str,
                                                                              named: str) -> None:
    data = tmp_path / "data"
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--data", str(data), option, str(port)])
    assert result.exit_code == 2 and f"{named}: cannot listen on" in result.output
    assert "Traceback" not in result.output
    assert not (data / "chuanma.db").exists()  # refused before the database (and its lease) was touched


def test_serve_makes_its_data_directory_for_its_own_user_only(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with socket.create_server(("127.0.0.1", 0)) as taken:  # refused at the port, after making --data
        CliRunner().invoke(cli, ["serve", "--data", str(data), "--port", str(taken.getsockname()[1])])
    assert data.is_dir() and data.stat().st_mode & 0o777 == 0o700
