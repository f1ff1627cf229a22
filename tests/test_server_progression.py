"""Progression on SQLite and PostgreSQL: every profile figure recomputed from the stored records and
ledger (profile = records), relief chips, levels that rooms require, leaderboards, and a guest's
claim to a name."""

from __future__ import annotations

import asyncio
from collections import Counter, defaultdict
from collections.abc import Mapping
from typing import Any

import httpx
from alembic import command
from openskill.models import PlackettLuce
from sqlalchemy import Connection, select

from chuanma.server.levels import HAND_XP, JIPIN_XP, WIN_XP
from chuanma.server.schema import hands, ledger, tables, users
from chuanma.server.store import alembic_config
from server_harness import (
    TIMEOUT,
    Client,
    Running,
    account,
    db_url,
    make_config,
    pg_database,
    play_hands,
    running,
    seated_with_bots,
)

__all__ = ["db_url", "pg_database"]  # pytest fixtures used here

FAMILY_OF_PRESET = {"doublewin-xuezhan": "xuezhan", "doublewin-xueliu": "xueliu", "classic": "classic"}
"""The presets these tests play, and their families (docs/server.md, Progression)."""


def _auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


async def _seat_people(run: Running, accounts: list[dict[str, Any]], room: str) -> list[Client]:
    clients = []
    for acc in accounts:
        client = await Client.open(run.base, acc["token"], acc["user"]["username"])
        await client.send("join", room=room, bots=False)
        await client.expect("queued")
        clients.append(client)
    for client in clients:
        await client.expect("seated")
    return clients


async def _recompute(run: Running) -> tuple[dict[int, dict[str, Any]], dict[str, dict[str, list[float]]]]:
    """Every player's figures straight from the hands' records and the ledger, and every subject's
    ratings (per family and overall) replayed with OpenSkill in the order the ledger paid the hands."""
    store = run.server.store
    settled = {r.id: r for r in await store.read(lambda conn: conn.execute(
        select(hands.c.id, hands.c.seats, hands.c.record, tables.c.bot_level)
        .join(tables, tables.c.id == hands.c.table_id).where(hands.c.status == "settled")).all())}
    rows = await store.read(lambda conn: conn.execute(select(ledger).order_by(ledger.c.id)).all())
    kinds = dict(await store.read(lambda conn: conn.execute(select(users.c.id, users.c.kind)).all()))
    paid: dict[str, dict[int, int]] = defaultdict(dict)
    order: list[str] = []
    for row in rows:
        if row.hand_id is not None:
            paid[row.hand_id][row.user_id] = row.amount
            if row.hand_id not in order:
                order.append(row.hand_id)
    model = PlackettLuce()
    rating: dict[tuple[str, str], Any] = {}
    history: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    figures: dict[int, dict[str, Any]] = defaultdict(lambda: {
        "hands": 0, "wins": 0, "won": 0, "zimo": 0, "dealt_in": 0, "fan": 0, "jipin": 0, "flower_pig": 0,
        "chadajiao": 0, "fans": Counter(), "best": [], "mu_all": [], "subject": None})
    for hand_id in order:
        hand = settled[hand_id]
        record, seats = hand.record, hand.seats
        preset = record["rules"] if isinstance(record["rules"], str) else record["rules"]["preset"]
        deltas = [paid[hand_id][u] for u in seats]
        bot = run.config.bot_levels[hand.bot_level]  # the strategy of the table's bots
        subjects = [f"bot:{bot}:{u}" if kinds[u] == "bot" else f"user:{u}" for u in seats]  # a bot: its account
        for family in (FAMILY_OF_PRESET[preset], "all"):
            before = [rating.get((s, family), model.rating()) for s in subjects]
            teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]  # one object per seat
            after = model.rate(teams, ranks=[float(sorted(deltas, reverse=True).index(d) + 1) for d in deltas])
            moved: dict[str, list[Any]] = defaultdict(list)
            for s, [r] in zip(subjects, after, strict=True):
                moved[s].append(r)
            for s, rs in moved.items():
                rating[(s, family)] = model.rating(mu=sum(r.mu for r in rs) / len(rs),
                                                   sigma=sum(r.sigma for r in rs) / len(rs))
                history[s][family].append(rating[(s, family)].mu)
        wins = record["result"]["winners"]
        for seat, user_id in enumerate(seats):
            f = figures[user_id]
            f["subject"] = subjects[seat]  # a bot account's profile: the strategy of its latest hand
            mine = [w for w in wins if w["seat"] == seat]
            f["hands"] += 1
            f["wins"] += len(mine)
            f["won"] += bool(mine)
            f["zimo"] += any(w["self_drawn"] for w in mine)
            f["dealt_in"] += any(w["from"] == seat for w in wins)
            f["fan"] += sum(w["total"] for w in mine)
            f["jipin"] += sum(w["jipin"] for w in mine)
            payers = {(p["payer"], p["reason"]) for p in record["result"]["payments"]}
            f["flower_pig"] += (seat, "flower_pig") in payers
            f["chadajiao"] += (seat, "chadajiao") in payers
            f["fans"].update(fan["id"] for w in mine for fan in w["fans"])
            if mine:
                f["best"].append((max(w["total"] for w in mine), deltas[seat]))
            f["mu_all"].append(rating[(subjects[seat], "all")].mu)
    return figures, history


def _check_profile(shown: dict[str, Any], figures: dict[str, Any], subject_history: dict[str, list[float]],
                   balances: list[int]) -> None:
    played = figures["hands"]
    assert shown["hands"] == played and played > 0
    assert shown["wins"] == figures["wins"]
    assert shown["win_rate"] == round(figures["won"] / played, 4)
    assert shown["self_draw_rate"] == round(figures["zimo"] / played, 4)
    assert shown["deal_in_rate"] == round(figures["dealt_in"] / played, 4)
    assert shown["average_fan"] == (round(figures["fan"] / figures["wins"], 3) if figures["wins"] else 0.0)
    assert (shown["jipin"], shown["flower_pig"], shown["chadajiao"]) == (
        figures["jipin"], figures["flower_pig"], figures["chadajiao"])
    xp = played * HAND_XP + figures["wins"] * WIN_XP + figures["jipin"] * JIPIN_XP
    assert shown["level"]["xp"] == xp
    top = sorted(figures["fans"].items(), key=lambda x: (-x[1], x[0]))[:5]
    assert [(f["id"], f["count"]) for f in shown["common_fans"]] == top
    best = sorted(figures["best"], key=lambda b: (-b[0], -b[1]))[:5]
    assert [(b["fan"], b["chips"]) for b in shown["best_hands"]] == best
    assert all(b["replay"] == f"/replay/{b['hand_id']}" for b in shown["best_hands"])
    for family, mus in subject_history.items():
        assert abs(shown["ratings"][family]["mu"] - mus[-1]) < 1e-3
        assert shown["ratings"][family]["hands"] == len(mus)
    assert [round(h["mu"], 3) for h in shown["rating_history"]] == [round(m, 3) for m in figures["mu_all"]]
    assert [p["balance"] for p in shown["chips_history"]] == balances


async def _ledger_balances(run: Running, user_id: int) -> list[int]:
    running_total, out = 0, []
    for row in await run.server.store.ledger_of(user_id):
        running_total += row["amount"]
        out.append(running_total)
    return out


def test_every_profile_figure_is_recomputed_from_the_records_and_the_ledger(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url, bot_wait=0.0, leaderboard_min_hands=1)) as run:
            people = [await account(run.base, "Alice1"), await account(run.base, "Bobby1"),
                      await account(run.base), await account(run.base)]
            clients = await _seat_people(run, people, "chuji-xuezhan")
            for _ in range(3):
                await play_hands(clients)
                run.clock.advance(1.0)  # each hand settles at a time of its own
            for c in clients:
                await c.close()
            river = await _seat_people(run, [await account(run.base) for _ in range(4)], "chuji-xueliu")
            for _ in range(2):  # 血流: a player may win more than once in a hand
                await play_hands(river)
                run.clock.advance(1.0)
            for c in river:
                await c.close()
            solo = await seated_with_bots(run.base)
            for _ in range(2):
                await solo.play_hand()
                run.clock.advance(1.0)
            figures, history = await _recompute(run)
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                auth = _auth(people[0]["token"])
                names = dict(await run.server.store.read(lambda conn: conn.execute(
                    select(users.c.id, users.c.username)).all()))
                bots = [u for u in figures if names[u].startswith("bot_")]
                assert bots
                for user_id in figures:
                    shown = (await http.get(f"/api/players/{names[user_id]}", headers=auth)).json()
                    subject = figures[user_id]["subject"]
                    _check_profile(shown, figures[user_id], history[subject],
                                   await _ledger_balances(run, user_id))
                lower = await http.get(f"/api/players/{names[bots[0]].upper()}", headers=auth)
                assert lower.status_code == 200 and lower.json()["can_report"] is False  # a name in any case
                # the report control: a registered viewer, another person (not a bot, not themselves)
                reportable = {n: (await http.get(f"/api/players/{n}", headers=h)).json()["can_report"]
                              for n, h in (("Bobby1", auth), ("Alice1", auth))}
                guest_view = await http.get("/api/players/Bobby1", headers=_auth(people[2]["token"]))
                assert reportable == {"Bobby1": True, "Alice1": False} and guest_view.json()["can_report"] is False
                missing = await http.get("/api/players/nobody_here", headers=auth)
                assert missing.status_code == 404 and missing.json()["code"] == "no_player"
                assert (await http.get("/api/players/Alice1")).status_code == 401
                board = (await http.get("/api/leaderboard?family=xuezhan&period=all", headers=auth)).json()
                listed = [p["username"] for p in board["players"]]
                assert sorted(listed) == ["Alice1", "Bobby1"]  # guests are not listed
                assert [p["rating"] for p in board["players"]] == sorted((p["rating"] for p in board["players"]),
                                                                        reverse=True)
                classic = (await http.get("/api/leaderboard?family=classic&period=week", headers=auth)).json()
                room_bot = run.config.bot_levels[run.config.room_bot_level]
                assert classic["players"] == [] and [b["bot"] for b in classic["bots"]] == [room_bot]
                accounts = [h["classic"] for s, h in history.items() if s.startswith(f"bot:{room_bot}:")]
                assert classic["bots"][0]["hands"] == sum(len(mus) for mus in accounts) == 3 * 2  # 3 bots, 2 hands
                audit = await run.server.store.audit()
                assert audit["balances"] == audit["grants"] and audit["lowest"] >= 0
                run.clock.advance(8 * 86_400.0)  # the tables left waiting for ready are closed meanwhile
                week = (await http.get("/api/leaderboard?family=all&period=week", headers=auth)).json()
                assert week["players"] == []
                for bad in ("family=mahjong", "period=year"):
                    r = await http.get(f"/api/leaderboard?{bad}", headers=auth)
                    assert r.status_code == 400 and r.json()["code"] == "bad_request"
                levels = (await http.get("/api/levels?names=Alice1,nobody_here", headers=auth)).json()
                assert list(levels["players"]) == ["Alice1"]
                alice = figures[people[0]["user"]["id"]]
                xp = alice["hands"] * HAND_XP + alice["wins"] * WIN_XP + alice["jipin"] * JIPIN_XP
                assert levels["players"]["Alice1"]["xp"] == xp
                too_many = await http.get("/api/levels?names=" + ",".join(f"n{i}" for i in range(9)), headers=auth)
                assert too_many.status_code == 400
    asyncio.run(scenario())


def test_relief_chips_come_a_few_times_a_day_and_say_when_the_next_comes(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url, reliefs_per_day=2, relief_hands=0)) as run:
            run.clock.advance(3_600.0)  # an hour into the day
            guest = await account(run.base)
            user_id = guest["user"]["id"]
            store = run.server.store
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                me = (await http.get("/api/me", headers=_auth(guest["token"]))).json()
                assert me["relief"] == {"below": 2_000, "to": 10_000, "per_day": 2, "left": 2, "next": None, "hands": 0}
                for left in (1, 0):
                    await store.grant(user_id, -9_000, run.clock.now())  # stands in for lost hands
                    me = (await http.get("/api/me", headers=_auth(guest["token"]))).json()
                    assert me["balance"] == 10_000 and me["relief"]["left"] == left
                await store.grant(user_id, -9_500, run.clock.now())
                answers = await asyncio.gather(*(http.get("/api/me", headers=_auth(guest["token"])) for _ in range(5)))
                tomorrow = 86_400.0 * (run.clock.now() // 86_400.0 + 1)
                assert [r.json()["balance"] for r in answers] == [500] * 5
                assert answers[0].json()["relief"] == {"below": 2_000, "to": 10_000, "per_day": 2, "left": 0,
                                                       "next": tomorrow, "hands": 0}
                run.clock.advance(tomorrow - run.clock.now())
                me = (await http.get("/api/me", headers=_auth(guest["token"]))).json()
                assert me["balance"] == 10_000 and me["relief"]["left"] == 1
            reliefs = [(r["kind"], r["amount"]) for r in await store.ledger_of(user_id) if r["kind"] != "hand"]
            assert reliefs == [("grant", 10_000), ("grant", -9_000), ("relief", 9_000), ("grant", -9_000),
                               ("relief", 9_000), ("grant", -9_500), ("relief", 9_500)]
            audit = await store.audit()
            assert audit["balances"] == audit["grants"] and audit["lowest"] >= 0
    asyncio.run(scenario())


def test_a_room_wanting_a_level_refuses_a_player_below_it(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            guest = await account(run.base)
            await run.server.store.grant(guest["user"]["id"], 60_000, run.clock.now())  # chips enough for 土豪场
            c = await Client.open(run.base, guest["token"])
            await c.send("join", room="tuhao-xuezhan")
            err = await c.expect("error")
            assert err["code"] == "level_too_low" and "Lv.3" in err["message"] and "Lv.1" in err["message"]
            assert run.server.lobby.queues.get("tuhao-xuezhan", []) == []
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                rooms = {r["id"]: r for r in (await http.get("/api/rooms")).json()}
            assert rooms["tuhao-xuezhan"]["min_level"] == 3 and rooms["chuji-xuezhan"]["min_level"] == 0
    asyncio.run(scenario())


def test_a_guest_claims_a_name_and_keeps_its_account(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            guest = await account(run.base)
            await account(run.base, "Taken1")
            auth = _auth(guest["token"])
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                for body, code in (({"username": "x", "password": "long enough"}, "bad_username"),
                                   ({"username": "taken1", "password": "long enough"}, "username_taken"),
                                   ({"username": "Carol1", "password": "short"}, "bad_password")):
                    r = await http.post("/api/account/claim", json=body, headers=auth)
                    assert r.status_code == 400 and r.json()["code"] == code
                assert (await http.get("/api/me", headers=auth)).json()["kind"] == "guest"
                r = await http.post("/api/account/claim", json={"username": "Carol1", "password": "long enough"},
                                    headers=auth)
                assert r.status_code == 200
                assert r.json()["user"] == {"id": guest["user"]["id"], "username": "Carol1", "kind": "player",
                                            "balance": 10_000}
                me = (await http.get("/api/me", headers=auth)).json()  # the same session goes on
                assert (me["id"], me["kind"]) == (guest["user"]["id"], "player")
                again = await http.post("/api/account/claim", json={"username": "Carol2", "password": "long enough"},
                                        headers=auth)
                assert again.status_code == 400 and again.json()["code"] == "not_guest"
                login = await http.post("/api/login", json={"username": "carol1", "password": "long enough"})
                assert login.status_code == 200 and login.json()["user"]["id"] == guest["user"]["id"]
            grants = [r["amount"] for r in await run.server.store.ledger_of(guest["user"]["id"])]
            assert grants == [10_000]  # the account, not a new one: no second starting grant
    asyncio.run(scenario())


def test_the_migration_builds_the_figures_of_the_hands_already_settled(db_url: str) -> None:
    """Hands settled before migration 0006: downgraded below it and upgraded again, every profile is
    the same, built from the records and the ledger."""
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            people = [await account(run.base) for _ in range(4)]
            clients = await _seat_people(run, people, "chuji-xuezhan")
            for _ in range(2):
                await play_hands(clients)
                run.clock.advance(1.0)
            for c in clients:
                await c.close()
            store = run.server.store
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                async def profiles() -> list[dict[str, Any]]:
                    return [(await http.get(f"/api/players/{p['user']['username']}",
                                            headers=_auth(people[0]["token"]))).json() for p in people]
                before = await profiles()
                assert all(p["hands"] == 2 for p in before)
                await store.runner.write(lambda conn: command.downgrade(alembic_config(conn), "0005"))
                await store.runner.write(lambda conn: command.upgrade(alembic_config(conn), "head"))
                assert await profiles() == before
    asyncio.run(scenario())


def test_a_hand_whose_figures_fail_ends_as_played_and_the_failure_is_counted(db_url: str) -> None:
    """An injected fault in progression's hook: the hand ends (not voided), its chips move, the table
    plays on, and ``chuanma_progression_failures_total`` counts it; the next hand has its figures."""
    async def scenario() -> None:
        async with running(make_config(db_url, bot_wait=0.0)) as run:
            store = run.server.store
            hook = store.on_settle
            assert hook is not None

            def faulty(conn: Connection, hand_id: str, record: Mapping[str, Any], deltas: Mapping[int, int],
                       now: float) -> None:
                assert hook is not None
                hook(conn, hand_id, record, deltas, now)
                raise RuntimeError("figures lost")
            store.on_settle = faulty
            solo = await seated_with_bots(run.base)
            end = await solo.play_hand()
            assert end["type"] == "hand_end", end
            assert (await store.audit())["hands"] == 1
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                metrics = (await http.get("/metrics")).text
                assert 'chuanma_progression_failures_total{error="RuntimeError"} 1.0' in metrics
                store.on_settle = hook
                assert (await solo.play_hand())["type"] == "hand_end"
                shown = (await http.get(f"/api/players/{solo.name}", headers=_auth(solo.token))).json()
            assert shown["hands"] == 1 and (await store.audit())["hands"] == 2
    asyncio.run(scenario())
