"""What the browser client needs from the server: the client at /, seat views with hints and
suggestions, the presets form and the tables to watch. Hints are counted from the seat's view only."""

from __future__ import annotations

import asyncio
import copy
import random
import re
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx
import pytest

from chuanma.bots import BOTS
from chuanma.engine import Game
from chuanma.engine.actions import Discard
from chuanma.engine.tables import TILE_TEXT
from chuanma.rules import PRESETS, RuleSet
from chuanma.server.hints import hints, suggestion
from chuanma.server.store import sqlite_url
from chuanma.sim.play import deal_for
from chuanma.terminal.advisor import advice
from chuanma.terminal.words import tile_label
from chuanma.tiles import SICHUAN_TILES, parse_tile, parse_tiles
from server_harness import TIMEOUT, Client, account, make_config, running, seat_four


def _positions(seed: int, stops: int) -> list[tuple[Game, int]]:
    """A hand of greedy bots stopped ``stops`` times at random: (game copy, the seat to act)."""
    rng = random.Random(seed)
    game = Game(RuleSet.from_preset(rng.choice(["xuezhan", "xueliu"])), *_deal(seed))
    bots = [BOTS["greedy"](seed * 4 + s) for s in range(4)]
    out = []
    while not game.finished:
        seat = game.to_act()[0]
        if rng.random() < stops / 60:
            out.append((copy.copy(game), seat))
        game.apply(seat, bots[seat].choose(game.view(seat), game.legal_actions(seat)))
    return out


def _deal(seed: int) -> tuple[list[int], int, Any]:
    deal = deal_for(seed, 0, SICHUAN_TILES)
    return list(deal.wall), deal.dealer, deal.direction


@pytest.mark.parametrize("seed", range(12))
def test_hints_count_only_the_copies_the_seat_cannot_see(seed: int) -> None:
    # Every useful tile's copies left is the view's unseen count: its hand, melds, every river, win
    # pile and shown hand excluded (after a discard the discarded copy is seen, and not held).
    checked = 0
    for game, seat in _positions(seed, 8):
        view = game.view(seat)
        got = hints(view)
        if got is None:
            continue
        unseen = view.unseen_counts()
        entries = [*got.get("useful", []), *(u for d in got.get("discards", []) for u in d["useful"])]
        for tile, left in entries:
            assert left == unseen[parse_tile(tile)]
        if "discards" in got:
            legal = {TILE_TEXT[a.tile] for a in view.legal_actions if isinstance(a, Discard)}
            assert {d["tile"] for d in got["discards"]} <= legal or not legal
            assert all(d["copies"] == sum(n for _, n in d["useful"]) for d in got["discards"])
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("seed", range(6))
def test_the_browsers_hints_and_the_terminals_help_give_the_same_advice(seed: int) -> None:
    # the same view: the same shanten, the same best discards in the same order, the same suggestion
    first = Game(RuleSet.from_preset("xuezhan"), *_deal(seed))
    positions = [(first, first.to_act()[0]), *_positions(seed, 8)]
    for game, seat in positions:
        view = game.view(seat)
        browser, terminal = hints(view), advice(view, list(view.legal_actions)).plain
        if browser is None:  # a locked winner's or a left seat's: neither panel is shown
            continue
        assert f"shanten {browser['shanten']}:" in terminal
        told = re.findall(r"^  打 (.+?) → ", terminal, re.M)
        assert [t.strip() for t in told] == [tile_label(parse_tile(d["tile"])).strip()
                                             for d in browser.get("discards", [])]
        exchange = re.search(r"suggested exchange: (.*)", terminal)
        suggested = suggestion(view)
        assert (exchange is None) == (suggested is None or "exchange" not in suggested)
        if exchange and suggested:
            assert exchange.group(1).split() == [tile_label(t).strip() for t in parse_tiles(suggested["exchange"])]


def test_suggestion_is_what_auto_play_would_choose_in_the_pickers() -> None:
    game = Game(RuleSet.from_preset("xuezhan"), *_deal(3))
    bot = BOTS["greedy"](0)
    while game.phase in ("exchange", "void"):
        seat = game.to_act()[0]
        view = game.view(seat)
        expected = bot.choose(view, view.legal_actions).to_json()
        assert suggestion(view) == expected and set(expected) <= {"exchange", "void"}
        game.apply(seat, bot.choose(view, view.legal_actions))
    assert suggestion(game.view(game.to_act()[0])) is None


def test_root_serves_the_browser_client_presets_and_watchable_tables(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running(make_config(sqlite_url(tmp_path))) as run:
            acc = await account(run.base)
            headers = {"authorization": f"Bearer {acc['token']}"}
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT) as http:
                page = await http.get("/")
                assert page.status_code == 200 and '/static/app/main.js' in page.text
                for asset in ("main.js", "tiles.js", "i18n.js", "style.css"):
                    assert (await http.get(f"/static/app/{asset}")).status_code == 200
                assert (await http.get("/static/verify.html")).status_code == 200
                presets = (await http.get("/api/presets")).json()
                assert [p["name"] for p in presets["presets"]] == list(PRESETS)  # the engine plays every preset
                assert presets == (await http.get("/api/portal/presets")).json()  # one shape for every page
                kinds = {o["name"]: o for o in presets["options"]}
                assert {n: o["values"]["dazhong"] for n, o in kinds.items()} == RuleSet.from_preset("dazhong").options()
                assert kinds["exchange"]["kind"] == "bool"
                assert kinds["pass_rule"]["choices"] == ["none", "same_turn", "forever"]
                for option in kinds.values():  # every choice named in both languages, for the forms
                    names = option["choice_names"]
                    assert sorted(names) == sorted(map(str, option.get("choices", []))), option["name"]
                    assert all(n["zh"] and n["en"] for n in names.values()), option["name"]
                rooms = (await http.get("/api/rooms")).json()
                assert all(r["name"] and r["en"] and r["en"] != r["name"] for r in rooms)
                assert (await http.get("/api/tables")).status_code == 401
                made = (await http.post("/api/tables", json={"preset": "xueliu", "bots": 3}, headers=headers)).json()
                live = (await http.get("/api/tables", headers=headers)).json()
                assert [t["table"] for t in live] == [made["table"]]
                assert live[0]["rules"] == "xueliu" and sum(p is not None for p in live[0]["players"]) == 3
                me = (await http.get("/api/me", headers=headers)).json()
                assert me["relief"] == {"below": 2_000, "to": 10_000, "per_day": 3, "left": 3, "next": None, "hands": 5}
    asyncio.run(scenario())


def test_views_follow_every_batch_of_events_with_hints_and_spectators_see_no_hidden_tiles(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running(make_config(sqlite_url(tmp_path))) as run:
            clients = await seat_four(run)
            first = clients[0]
            await first.send("views", on=True, hints=True)
            acc = await account(run.base)
            watcher = await Client.open(run.base, acc["token"])
            await watcher.send("watch", table=first.table, views=True)
            await watcher.expect("seated")
            await asyncio.gather(*(c.play_hand() for c in clients))
            batches = [m for m in first.seen if m["type"] in ("events", "view")]
            views = [m for m in batches if m["type"] == "view"]
            assert views and batches[-1]["type"] == "view"
            # each batch of events is followed by the view current to its last event
            for before, after in pairwise(batches):
                if before["type"] == "events":
                    assert after["type"] == "view" and after["last"] >= before["events"][-1]["seq"]
            assert all(v["view"]["seat"] == first.seat for v in views)
            assert any(v["hints"] for v in views) and any(v["suggest"] for v in views)
            await watcher.expect("hand_end")
            seen = [m["view"] for m in watcher.seen if m["type"] == "view"]
            assert seen and all(v["seat"] is None and "legal_actions" not in v for v in seen)
            for v in seen[:-1]:  # before the end, only winners' hands are shown
                assert all("hand" not in p or p["won"] for p in v["players"])
    asyncio.run(scenario())
