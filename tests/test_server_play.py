"""The server end to end: real WebSocket clients against uvicorn, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import gc
import json
from pathlib import Path
from typing import Any

import httpx
from typer.testing import CliRunner

import chuanma
from chuanma.cli import app as cli
from chuanma.engine import replay, settle_chips
from chuanma.fairness import SCHEME_VRF, join_client_seeds, vrf_alpha
from chuanma.fairness.keys import signing_key_of
from chuanma.fairness.vrf import verify as vrf_verify
from server_harness import (
    DEALER_KEY,
    TIMEOUT,
    Client,
    account,
    db_url,
    make_config,
    pg_database,
    play_hands,
    running,
    seat_four,
)

__all__ = ["db_url", "pg_database"]  # pytest fixtures used here


def _audit_ok(audit: dict[str, int]) -> None:
    assert audit["balances"] == audit["grants"]
    assert audit["lowest"] >= 0
    assert audit["unbalanced_hands"] == 0


async def _full_hand(db_url: str, room: str, tmp: Path) -> None:
    async with running(make_config(db_url)) as run:
        clients = await seat_four(run, room)
        before = {c.name: c.seen[0]["balance"] for c in clients}
        [ends] = await play_hands(clients)
        end = ends[0]
        assert all(e["hand_id"] == end["hand_id"] for e in ends)
        prompts = [m for c in clients for m in c.seen if m["type"] == "prompt"]
        # a claim (pass offered) has the claim time, every other decision the turn time; a forced
        # win (胡 alone, RULES §9.10) may be a claim or a turn, so it may have either
        claims = [m for m in prompts if {"pass": True} in m["legal"]]
        forced = [m for m in prompts if m["legal"] == [{"hu": True}]]
        turns = [m for m in prompts if m not in claims and m not in forced]
        assert {m["seconds"] for m in claims} <= {8.0} and {m["seconds"] for m in turns} == {20.0}
        assert {m["seconds"] for m in forced} <= {8.0, 20.0}
        assert sum(end["chips"]) == 0
        base = run.server.host.tables[clients[0].table].rules.base
        payments = [(x["payer"], x["payee"], x["amount"] * base) for x in end["result"]["payments"]]
        assert end["chips"] == settle_chips(payments, [10_000] * 4)
        for c in clients:
            assert end["balances"][c.seat] == before[c.name] + end["chips"][c.seat]
        _audit_ok(await run.server.store.audit())
        async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
            r = await http.get(end["record"], headers={"authorization": f"Bearer {clients[0].token}"})
            assert r.status_code == 200
            record: dict[str, Any] = r.json()
            history = await http.get("/api/hands", headers={"authorization": f"Bearer {clients[1].token}"})
            assert [h["id"] for h in history.json()] == [end["hand_id"]]
            for c in clients:
                me = (await http.get("/api/me", headers={"authorization": f"Bearer {c.token}"})).json()
                assert me["balance"] == end["balances"][c.seat]
        assert record["seeds"]["proof"] == end["seeds"]["proof"]
        assert record["seeds"]["client_seeds"][clients[0].seat] == f"seed-{clients[0].name}"
        path = tmp / "hand.json"
        path.write_text(json.dumps(record))
        result = CliRunner().invoke(cli, ["fair", "verify", str(path), "--public-key",
                                          signing_key_of(DEALER_KEY).public_key.hex(),
                                          "--vrf-public-key", DEALER_KEY.public_key.hex()])
        assert result.exit_code == 0 and "VERIFIED" in result.stdout, result.output
        for c in clients:
            await c.close()


def test_four_clients_play_xuezhan_to_settlement(db_url: str, tmp_path: Path) -> None:
    asyncio.run(_full_hand(db_url, "chuji-xuezhan", tmp_path))


def test_four_clients_play_xueliu_to_settlement(db_url: str, tmp_path: Path) -> None:
    asyncio.run(_full_hand(db_url, "chuji-xueliu", tmp_path))


def test_four_clients_play_classic_normal_and_dazhong_to_settlement(db_url: str, tmp_path: Path) -> None:
    """The 普通场 room and the 大众麻将 room: a whole hand each, settled, recorded and verified."""
    for room in ("classic-normal", "dazhong"):
        asyncio.run(_full_hand(db_url, room, tmp_path))


def test_bots_play_the_dazhong_and_classic_normal_rooms_end_to_end(db_url: str) -> None:
    """Both rooms are listed with their presets; one player with three bots plays two hands in
    each: zero-sum chips, a 136-tile wall in 大众麻将, a chained dealer (the previous hand's next
    dealer) from the second hand on."""
    async def scenario() -> None:
        async with running(make_config(db_url, bot_wait=0.0)) as run:
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                rooms = {r["id"]: r for r in (await http.get("/api/rooms")).json()}
            assert rooms["dazhong"]["preset"] == "dazhong" and rooms["classic-normal"]["preset"] == "classic-normal"
            for room in ("dazhong", "classic-normal"):
                acc = await account(run.base)
                c = await Client.open(run.base, acc["token"], acc["user"]["username"])
                await c.send("join", room=room, bots=True)
                seated = await c.expect("seated")
                assert sum(p["bot"] for p in seated["players"]) == 3
                for _ in range(2):
                    end = await c.play_hand()
                    assert end["type"] == "hand_end" and sum(end["chips"]) == 0
                    async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                        got = await http.get(end["record"], headers={"authorization": f"Bearer {c.token}"})
                    record = got.json()
                    assert len(record["wall"]) == (136 if room == "dazhong" else 108)
                assert record["session"]["previous"]["next_dealer"] == record["dealer"]
                await c.close()
            _audit_ok(await run.server.store.audit())
    asyncio.run(scenario())


def test_dealer_key_is_shown_before_the_seeds_and_its_proof_after_the_hand(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            clients = await seat_four(run)
            start = await clients[0].expect("hand_start")
            assert start["public_key"] == DEALER_KEY.public_key.hex() and start["scheme"] == SCHEME_VRF
            assert "client_seeds" not in start and "proof" not in json.dumps(clients[0].seen)
            [ends] = await play_hands(clients)
            seeds = ends[0]["seeds"]
            alpha = vrf_alpha(clients[0].table or "", start["hand"], join_client_seeds(seeds["client_seeds"]))
            assert vrf_verify(DEALER_KEY.public_key, alpha, bytes.fromhex(seeds["proof"])) is not None
    asyncio.run(scenario())


def test_bots_fill_a_quick_join_table_after_the_wait(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url, bot_wait=30.0)) as run:
            acc = await account(run.base)
            c = await Client.open(run.base, acc["token"], acc["user"]["username"])
            await c.send("join", room="chuji-xuezhan", bots=True)
            queued = await c.expect("queued")
            assert queued["bots_in"] == 30.0
            run.clock.advance(29.0)
            await c.send("ping")
            await c.expect("pong")
            assert c.table is None
            run.clock.advance(1.0)
            seated = await c.expect("seated")
            assert sum(p["bot"] for p in seated["players"]) == 3
            end = await c.play_hand()
            assert end["type"] == "hand_end" and sum(end["chips"]) == 0
            _audit_ok(await run.server.store.audit())
    asyncio.run(scenario())


def test_timeout_hands_the_seat_to_the_bot(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url, turn_seconds=20.0, claim_seconds=5.0)) as run:
            acc = await account(run.base)
            c = await Client.open(run.base, acc["token"], acc["user"]["username"])
            await c.send("join", room="chuji-xuezhan", bots=True)
            await c.expect("queued")
            run.clock.advance(5.0)
            await c.expect("seated")
            await c.send("ready")
            prompt = await c.expect("prompt")
            assert prompt["seconds"] == 20.0
            run.clock.advance(19.0)
            await c.send("ping")
            await c.expect("pong")
            assert not [m for m in c.seen if m["type"] == "auto"]
            run.clock.advance(1.0)
            auto = await c.expect("auto")
            assert auto == {"type": "auto", "v": 1, "table": c.table, "seat": c.seat, "on": True}
            end = await c.expect("hand_end")  # the bot played the whole hand for this seat
            assert sum(end["chips"]) == 0
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                record = (await http.get(end["record"], headers={"authorization": f"Bearer {c.token}"})).json()
            assert record["decisions"]
    asyncio.run(scenario())


def test_reconnect_receives_exactly_what_it_missed(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            clients = await seat_four(run, "chuji-xueliu")  # 血流: the hand waits for every seat
            for c in clients:
                await c.send("ready")
            others = [asyncio.create_task(c.play_on()) for c in clients[:3]]
            dropped = clients[3]
            await dropped.play_on(prompts=8)
            before, last = dropped.events(), dropped.last
            await dropped.close()
            back = await Client.open(run.base, dropped.token, dropped.name)
            back.hand, back.table = dropped.hand, dropped.table
            await back.send("resume", table=dropped.table, hand=dropped.hand, last=last)
            await back.expect("seated")
            first = await back.expect("events", "resync")
            assert first["type"] == "events" and first["events"][0]["seq"] == last + 1
            end = await back.play_on()
            await asyncio.gather(*others)
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                record = (await http.get(end["record"], headers={"authorization": f"Bearer {back.token}"})).json()
            expected = replay(record).events_for(dropped.seat)
            assert before + back.events() == expected
            _audit_ok(await run.server.store.audit())
    asyncio.run(scenario())


def test_leaving_mid_hand_is_an_escape_and_a_bot_takes_the_seat(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            clients = await seat_four(run, "classic")  # 001's escape penalty (DoubleWin's rooms have none)
            for c in clients:
                await c.send("ready")
            others = [asyncio.create_task(c.play_on()) for c in clients[1:]]
            leaver = clients[0]
            await leaver.play_on(prompts=3)
            await leaver.send("leave")
            closed = await leaver.expect("table_closed")
            assert "逃跑" in closed["reason"]
            ends = await asyncio.gather(*others)
            end = ends[0]
            assert end["end_reason"] == "escape"
            escapes = [x for x in end["result"]["payments"] if x["reason"] == "escape"]
            assert escapes and all(x["payer"] == leaver.seat for x in escapes)
            assert all(x["amount"] == 16 for x in escapes)
            seated = await clients[1].expect("seated")
            assert seated["players"][leaver.seat]["bot"] is True
            user = await run.server.store.user_by_name(leaver.name)
            kinds = [r["kind"] for r in await run.server.store.ledger_of(int(user["id"]))]
            assert kinds == ["grant", "escape"]
            assert user["balance"] == 10_000 + end["chips"][leaver.seat]
            assert run.server.host.table_of(int(user["id"])) is None
    asyncio.run(scenario())


def test_a_spectator_sees_public_events_only(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            clients = await seat_four(run)
            acc = await account(run.base)
            watcher = await Client.open(run.base, acc["token"])
            await watcher.send("watch", table=clients[0].table)
            await watcher.expect("seated")
            [ends] = await play_hands(clients)
            await watcher.expect("hand_end")
            got = watcher.events()
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                record = (await http.get(ends[0]["record"], headers={"authorization": f"Bearer {acc['token']}"})).json()
            assert got == replay(record).events_for(None)
            assert not [e for e in got if e["type"] == "deal"]
            assert all("tile" not in e for e in got if e["type"] == "draw")
    asyncio.run(scenario())


def test_a_private_first_winner_session_is_verifiable_as_a_chain(db_url: str, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            acc = await account(run.base)
            auth = {"authorization": f"Bearer {acc['token']}"}
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                bad = await http.post("/api/tables", json={"preset": "portal-xuezhan", "options": {"max_fan": 0}},
                                      headers=auth)
                assert bad.status_code == 400 and "max_fan" in bad.json()["message"]
                made = await http.post("/api/tables", json={"preset": "portal-xuezhan", "hands": 3, "bots": 3},
                                       headers=auth)
            c = await Client.open(run.base, acc["token"])
            await c.send("join_private", invite=made.json()["invite"])
            await c.expect("seated")
            ends = []
            while True:
                msg = await c.expect("hand_start", "hand_end", "table_closed")
                if msg["type"] == "table_closed":
                    assert msg["reason"] == "all hands played"
                    break
                if msg["type"] == "hand_end":
                    ends.append(msg)
                else:  # ready (which ends 托管), then 托管 for the hand dealt
                    await c.send("auto", on=True) if msg.get("dealt") else await c.send("ready")
            assert len(ends) == 3
            paths = []
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                for i, end in enumerate(ends):
                    record = (await http.get(end["record"], headers=auth)).json()
                    assert record["session"]["dealer_rule"] == "first_winner" and record["session"]["hand"] == i
                    paths.append(tmp_path / f"hand{i}.json")
                    paths[-1].write_text(json.dumps(record))
            result = CliRunner().invoke(cli, ["fair", "verify", *map(str, paths)])
            assert result.exit_code == 0, result.output
    asyncio.run(scenario())


def test_health_metrics_and_relief_chips(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url, relief_hands=0)) as run:
            acc = await account(run.base)
            auth = {"authorization": f"Bearer {acc['token']}"}
            clients = await seat_four(run)
            await play_hands(clients)
            store = run.server.store
            user_id = acc["user"]["id"]
            await store.grant(user_id, -9_000, run.clock.now())  # stands in for lost hands
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                health = await http.get("/healthz")
                assert health.status_code == 200 and health.json()["status"] == "ok"
                metrics = (await http.get("/metrics")).text
                assert "chuanma_hands_total 1.0" in metrics and "chuanma_connected_players 4.0" in metrics
                assert 'chuanma_decisions_total{by="player"}' in metrics
                assert "chuanma_decision_seconds_bucket" in metrics
                full = 'chuanma_gc_pause_seconds_count{generation="2"} '
                before = float(metrics.split(full)[1].split()[0])
                gc.collect()  # a full collection, timed
                after = (await http.get("/metrics")).text
                assert float(after.split(full)[1].split()[0]) >= before + 1
                # relief at once, the day of the starting grant too (it is no relief)
                assert (await http.get("/api/me", headers=auth)).json()["balance"] == 10_000
                assert (await http.get("/api/me", headers=auth)).json()["balance"] == 10_000  # paid once
                assert (await http.post("/api/logout", headers=auth)).status_code == 200
                assert (await http.get("/api/me", headers=auth)).status_code == 401
            grants = [(r["kind"], r["amount"]) for r in await store.ledger_of(user_id) if r["kind"] != "hand"]
            assert grants == [("grant", 10_000), ("grant", -9_000), ("relief", 9_000)]
    asyncio.run(scenario())


def test_concurrent_requests_pay_relief_once(db_url: str) -> None:
    """Ten ``/api/me`` at once, a day after a loss: one relief, not one per request."""
    async def scenario() -> None:
        async with running(make_config(db_url, relief_hands=0)) as run:
            acc = await account(run.base)
            user_id = acc["user"]["id"]
            await run.server.store.grant(user_id, -9_000, run.clock.now())
            run.clock.advance(86_400)
            auth = {"authorization": f"Bearer {acc['token']}"}
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                answers = await asyncio.gather(*(http.get("/api/me", headers=auth) for _ in range(10)))
            assert [r.json()["balance"] for r in answers] == [10_000] * 10
            grants = [(r["kind"], r["amount"]) for r in await run.server.store.ledger_of(user_id)]
            assert grants == [("grant", 10_000), ("grant", -9_000), ("relief", 9_000)]
            _audit_ok(await run.server.store.audit())
    asyncio.run(scenario())


def test_a_player_not_ready_in_time_is_unseated_and_bots_never_play_alone(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url, ready_seconds=30.0)) as run:
            acc = await account(run.base)
            c = await Client.open(run.base, acc["token"])
            await c.send("join", room="chuji-xuezhan", bots=True)
            await c.expect("queued")
            run.clock.advance(5.0)
            await c.expect("hand_start")
            table = c.table
            run.clock.advance(30.0)
            closed = await c.expect("table_closed")
            assert closed["reason"] == "not ready in time"
            while table in run.server.host.tables:
                await asyncio.sleep(0.01)
            assert (await run.server.store.audit())["hands"] == 0
            assert run.server.host.table_of(acc["user"]["id"]) is None
            await c.send("join", room="chuji-xuezhan", bots=False)
            assert (await c.expect("queued", "error"))["type"] == "queued"
    asyncio.run(scenario())


def test_metrics_tell_the_process_the_release_and_every_http_response(db_url: str) -> None:
    """``/metrics`` gives the process (memory, CPU, open files), the release, each HTTP response
    counted by method, route template and status (the static files under their mount's; a path no
    route matches: ``unmatched``), sign-ins by kind and result, the chips the ledger moved by kind,
    and the queues as they are."""
    async def scenario() -> None:
        async with running(make_config(db_url)) as run, \
                httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
            assert (await http.get("/healthz")).status_code == 200
            assert (await http.get("/api/hands/no-such-hand/record")).status_code == 401
            assert (await http.get("/no/such/page")).status_code == 404
            assert (await http.get("/static/app/style.css")).status_code == 200
            refused = await http.post("/api/login", json={"username": "nobody_here", "password": "wrong one"})
            assert refused.status_code == 401
            c = await Client.open(run.base, (await account(run.base))["token"])
            await c.send("join", room="chuji-xuezhan", bots=False)
            await c.expect("queued")
            run.clock.advance(7.0)
            metrics = (await http.get("/metrics")).text
            await c.close()
        for line in ('chuanma_http_responses_total{method="GET",route="/healthz",status="200"} 1.0',
                     'chuanma_http_responses_total{method="GET",route="/api/hands/{hand_id}/record",status="401"} 1.0',
                     'chuanma_http_responses_total{method="GET",route="unmatched",status="404"} 1.0',
                     'chuanma_http_responses_total{method="GET",route="/static/{path}",status="200"} 1.0',
                     'chuanma_sign_ins_total{kind="login",result="login_failed"} 1.0',
                     'chuanma_sign_ins_total{kind="guest",result="ok"} 1.0',
                     'chuanma_ledger_rows_total{kind="grant"} 1.0',
                     'chuanma_chips_total{direction="in",kind="grant"} 10000.0',
                     'chuanma_queued_players{room="chuji-xuezhan"} 1.0',
                     'chuanma_queue_wait_seconds{room="chuji-xuezhan"} 7.0',
                     'chuanma_queued_players{room="dazhong"} 0.0',
                     f'chuanma_build_info{{version="{chuanma.__version__}"}} 1.0'):
            assert line in metrics, line
        for name in ("process_resident_memory_bytes", "process_cpu_seconds_total", "process_open_fds", "python_info"):
            assert f"\n{name}" in metrics, name
    asyncio.run(scenario())
