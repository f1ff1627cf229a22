"""Private tables kept to their people: invite codes of enough entropy that never collide into a
500, watching only by the players and the holders of the invite code, and per-address limits on
guest accounts and private tables (a guest cannot dodge the per-account limit by making guests)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from chuanma.server.rooms import new_invite
from chuanma.server.routes import rooms
from server_harness import TIMEOUT, Client, Running, account, db_url, make_config, pg_database, running

__all__ = ["db_url", "pg_database"]


async def _private(run: Running, token: str, headers: dict[str, str] | None = None, **body: Any) -> httpx.Response:
    async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
        return await http.post("/api/tables", json={"preset": "xuezhan", "hands": 4, **body},
                               headers={"authorization": f"Bearer {token}", **(headers or {})})


async def _guest(run: Running) -> Client:
    acc = await account(run.base)
    return await Client.open(run.base, acc["token"], acc["user"]["username"])


def test_invite_codes_are_80_bits_of_base32() -> None:
    codes = {new_invite() for _ in range(1000)}
    assert len(codes) == 1000
    assert all(len(c) == 16 and c.isalnum() and c == c.lower() for c in codes)


def test_an_invite_code_taken_by_another_table_is_drawn_again(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    draws = iter(["samecodesamecode", "samecodesamecode", "othercodeothercd"])
    monkeypatch.setattr(rooms, "new_invite", lambda: next(draws))

    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            first, second = await account(run.base), await account(run.base)
            made = await _private(run, first["token"], bots=3)
            assert made.status_code == 200 and made.json()["invite"] == "samecodesamecode"
            again = await _private(run, second["token"], bots=3)
            assert again.status_code == 200, again.text
            assert again.json()["invite"] == "othercodeothercd"
            assert again.json()["table"] != made.json()["table"]
    asyncio.run(scenario())


def test_a_private_table_whose_rules_exceed_the_highest_total_is_refused_and_not_made(db_url: str) -> None:
    """Rules whose wins could be paid more than 2^50 base are refused when the table is asked for
    (the compiled core could not deal their hands): a 400 naming the limit, and no table."""
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            host = await account(run.base)
            refused = await _private(run, host["token"], bots=3, options={"house_fans": {"menqing": 64}})
            assert refused.status_code == 400, refused.text
            body = refused.json()
            assert body["code"] == "bad_rules" and "could reach 103 fan" in body["message"], body
            assert "the most a rule set may reach is 50 fan" in body["message"]
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT) as http:
                listed = await http.get("/api/tables", headers={"authorization": f"Bearer {host['token']}"})
            assert listed.json() == []
            capped = await _private(run, host["token"], bots=3, options={"house_fans": {"menqing": 64}, "max_fan": 50})
            assert capped.status_code == 200, capped.text
    asyncio.run(scenario())


def test_a_private_table_is_watched_only_by_its_players_and_invite_holders(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            host, stranger, invited = await _guest(run), await _guest(run), await _guest(run)
            made = (await _private(run, host.token, bots=3)).json()
            await host.send("join_private", invite=made["invite"])
            await host.expect("seated")
            await stranger.send("watch", table=made["table"])
            refusal = await stranger.expect("error", "seated")
            assert refusal["type"] == "error" and refusal["code"] == "private_table", refusal
            await stranger.send("watch", table=made["table"], invite="notthecodeatall0")
            assert (await stranger.expect("error", "seated"))["code"] == "private_table"
            await invited.send("watch", table=made["table"], invite=made["invite"])
            watched = await invited.expect("error", "seated")
            assert watched["type"] == "seated" and watched["seat"] is None, watched
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT) as http:
                def listed(token: str) -> Any:
                    return http.get("/api/tables", headers={"authorization": f"Bearer {token}"})
                assert [t["table"] for t in (await listed(host.token)).json()] == [made["table"]]
                assert (await listed(stranger.token)).json() == []
            for c in (host, stranger, invited):
                await c.close()
    asyncio.run(scenario())


def test_a_room_table_is_still_watched_by_anyone(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            player, watcher = await _guest(run), await _guest(run)
            await player.send("join", room="chuji-xuezhan", bots=True)
            await player.expect("queued")
            run.clock.advance(10.0)
            table = (await player.expect("seated"))["table"]
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT) as http:
                live = (await http.get("/api/tables", headers={"authorization": f"Bearer {watcher.token}"})).json()
            assert [t["table"] for t in live] == [table]
            await watcher.send("watch", table=table)
            assert (await watcher.expect("error", "seated"))["seat"] is None
            await player.close()
            await watcher.close()
    asyncio.run(scenario())


def test_guests_and_private_tables_are_limited_per_forwarded_address(db_url: str) -> None:
    async def scenario() -> None:
        config = make_config(db_url, guests_per_hour=2, private_tables_per_hour=3,
                             forwarded_allow_ips="127.0.0.1")
        async with running(config) as run, httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT) as http:
            one, two = {"x-forwarded-for": "203.0.113.1"}, {"x-forwarded-for": "203.0.113.2"}
            guests = [await http.post("/api/guest", headers=one) for _ in range(3)]
            assert [r.status_code for r in guests] == [200, 200, 429]
            assert guests[2].json()["code"] == "too_many_guests"
            assert (await http.post("/api/guest", headers=two)).status_code == 200  # another address
            tokens = [r.json()["token"] for r in guests[:2]]
            # each guest is under its own limit of 3 open tables, but the address opens 3 in all
            made = [await _private(run, tokens[i % 2], one, bots=3) for i in range(4)]
            assert [r.status_code for r in made] == [200, 200, 200, 429]
            assert made[3].json()["code"] == "too_many_tables"
            run.clock.advance(3600.0)  # an hour later the address may again
            assert (await http.post("/api/guest", headers=one)).status_code == 200
            assert (await _private(run, tokens[1], one, bots=3)).status_code == 200
    asyncio.run(scenario())


def test_serve_help_names_every_option_whole_at_80_columns() -> None:
    """At 80 columns the help wraps its descriptions but never cuts an option's name."""
    import re

    import typer
    from typer.testing import CliRunner

    from chuanma.cli import app as cli

    out = CliRunner().invoke(cli, ["serve", "--help"], env={"COLUMNS": "80", "TERM": "xterm"}).output
    command = typer.main.get_command(cli).commands["serve"]  # type: ignore[attr-defined]
    names = [name for param in command.params if not getattr(param, "hidden", False)
             for name in [*param.opts, *param.secondary_opts]]
    assert len(names) > 20 and "--guests-per-hour" in names
    missing = [n for n in names if not re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", out)]
    assert not missing, out
    assert all(len(line) <= 80 for line in out.splitlines())
