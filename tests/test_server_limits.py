"""What a connection may hold and send: its watches end with it, the message rate limit fits
the protocol, and the login rate limit counts the address that connects unless a proxy is trusted."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from sqlalchemy import select

from chuanma.server import protocol as p
from chuanma.server.accounts import RateLimiter
from chuanma.server.config import ServerConfig
from chuanma.server.routes.deps import DEVICE_COOKIE
from chuanma.server.schema import logins
from chuanma.server.services import READS_PER_MINUTE
from chuanma.server.ws import BEHIND, MAX_OWED, Budget, Outbox
from server_harness import (
    TIMEOUT,
    Client,
    account,
    db_url,
    eventually,
    make_config,
    pg_database,
    running,
    seated_with_bots,
)

__all__ = ["db_url", "pg_database"]
DEFAULT_RATE = ServerConfig(db_url="").messages_per_second


def test_a_closed_connection_stops_watching_every_table(db_url: str) -> None:
    """A spectator of two tables (one watched twice, with views) and a player watching another
    table: once they disconnect, no table keeps sending to them."""
    async def scenario() -> None:
        async with running(make_config(db_url, bot_wait=0.0)) as run:
            first, second = await seated_with_bots(run.base), await seated_with_bots(run.base)
            one, two = run.server.host.tables[first.table], run.server.host.tables[second.table]
            seat = two.seats[second.seat]
            acc = await account(run.base)
            watcher = await Client.open(run.base, acc["token"])
            for table, views in ((one.id, False), (two.id, True), (one.id, True)):
                await watcher.send("watch", table=table, views=views)
                await watcher.expect("seated")
            await second.send("watch", table=one.id)
            await second.expect("seated")
            assert (len(one.state.watchers), len(one.state.watcher_views)) == (2, 1)
            assert (len(two.state.watchers), len(two.state.watcher_views)) == (1, 1) and len(seat.conns) == 1
            await watcher.close()
            await second.close()
            await eventually(lambda: not (one.state.watchers or one.state.watcher_views or two.state.watchers
                                          or two.state.watcher_views or seat.conns or two.links))
            assert len(one.seats[first.seat].conns) == 1  # the player still connected keeps its seat's messages
            assert len(one.links) == 1  # the shell forgets the closed connections' callbacks
    asyncio.run(scenario())


def test_a_forwarded_address_counts_only_from_a_trusted_proxy(db_url: str) -> None:
    """Three logins a minute per address: by default ``X-Forwarded-For`` is ignored, so a client
    cannot get a fresh allowance by naming another address; behind a trusted proxy the address it
    forwards is the one counted."""
    async def guests(run_base: str, addresses: list[str]) -> list[int]:
        async with httpx.AsyncClient(base_url=run_base, timeout=TIMEOUT) as http:
            return [(await http.post("/api/guest", headers={"x-forwarded-for": a})).status_code for a in addresses]

    async def scenario() -> None:
        spoofed = [f"203.0.113.{i}" for i in range(4)]
        async with running(make_config(db_url, auth_per_minute=3)) as run:
            assert await guests(run.base, spoofed) == [200, 200, 200, 429]
        async with running(make_config(db_url, auth_per_minute=3, forwarded_allow_ips="127.0.0.1")) as run:
            assert await guests(run.base, spoofed) == [200] * 4
            assert await guests(run.base, spoofed[:1] * 3) == [200, 200, 429]
    asyncio.run(scenario())


def test_a_player_answering_every_prompt_at_once_is_never_refused_but_a_flood_is(db_url: str) -> None:
    """At the default message rate: against three bots a player who answers each prompt the
    moment it comes sends far more than 20 messages a second, and all are answers the server
    asked for, so none is refused; 200 pings at once are refused beyond the burst."""
    async def scenario() -> None:
        async with running(make_config(db_url, bot_wait=0.0, messages_per_second=DEFAULT_RATE)) as run:
            c = await seated_with_bots(run.base)
            for _ in range(6):
                end = await c.play_hand()  # any error but a stale decision fails it
                assert end["type"] == "hand_end"
            assert c.acts > 2 * DEFAULT_RATE  # more than the steady rate's burst
            for _ in range(200):
                await c.send("ping")
            replies = [await c.expect("pong", "error") for _ in range(200)]
            refused = [r for r in replies if r["type"] == "error"]
            assert refused and {r["code"] for r in refused} == {"rate_limited"}
    asyncio.run(scenario())


def prompt(hand: int, version: int) -> dict[str, Any]:
    return p.server_message("prompt", table="t", hand=hand, seat=0, version=version, legal=[], seconds=8.0)


def spent(budget: Budget, kind: str | None, times: int) -> list[bool]:
    """Whether each of ``times`` messages of type ``kind`` is let through."""
    allowed = []
    for _ in range(times):
        try:
            budget.spend(kind)
            allowed.append(True)
        except p.ProtocolError as exc:
            assert exc.code == "rate_limited"
            allowed.append(False)
    return allowed


def test_each_answer_asked_for_is_allowed_beyond_the_rate_and_no_more() -> None:
    budget = Budget(RateLimiter(lambda: 0.0, 1.0, 2.0))  # the time stands still: no refill
    assert spent(budget, "act", 3) == [True, True, False]
    budget.asked(prompt(0, 3))
    budget.asked(p.server_message("hand_start", table="t", hand=1, commitment="c"))
    budget.asked(p.server_message("hand_start", table="t", hand=1, commitment="c", client_seeds=[], dealt=True))
    budget.asked(p.server_message("events", table="t", hand=1, events=[]))
    assert spent(budget, "act", 3) == [True, True, False]  # a prompt and a hand to get ready for
    for version in range(4, 4 + 3 * MAX_OWED):
        budget.asked(prompt(2, version))
    assert spent(budget, "ready", 3 * MAX_OWED).count(True) == MAX_OWED


def test_a_question_sent_again_owes_nothing_and_only_answers_spend_what_is_owed() -> None:
    """A prompt or a hand to get ready for, sent again (a ``resume`` or a ``watch`` asked for it),
    is owed one answer in all; a message that is no answer spends nothing owed."""
    budget = Budget(RateLimiter(lambda: 0.0, 1.0, 1.0))
    ready = p.server_message("hand_start", table="t", hand=1, commitment="c")
    for msg in (ready, prompt(1, 5), ready, prompt(1, 5), prompt(1, 4), prompt(0, 9), ready):
        budget.asked(msg)
    budget.asked(p.server_message("hand_start", table="u", hand=0, commitment="c"))  # another table's
    assert budget.owed == 3
    assert spent(budget, "resume", 2) == [True, False] and spent(budget, None, 1) == [False]
    assert spent(budget, "act", 4) == [True, True, True, False]


class Unread:
    """A WebSocket whose client reads nothing: a send never ends."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: list[tuple[int, str | None]] = []

    async def send_text(self, data: str) -> None:
        self.sent.append(data)
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed.append((code, reason))


def test_a_connection_whose_client_falls_too_far_behind_is_closed() -> None:
    """The first message is being sent and never ends; three more wait; one more is one too many:
    the socket is closed (code 4408) and nothing more is queued."""
    async def scenario() -> None:
        ws = Unread()
        out = Outbox(ws, limit=3)
        for i in range(4):
            out.put({"type": "pong", "n": i})
            await asyncio.sleep(0)
        assert (ws.sent, ws.closed, out.queue.qsize()) == (['{"type":"pong","n":0}'], [], 3)
        for i in range(4, 10):
            out.put({"type": "pong", "n": i})
        await asyncio.sleep(0)
        out.stop()
        assert ws.closed == [(BEHIND, "too far behind: 3 messages unread")]
        assert len(ws.sent) == 1 and out.queue.qsize() == 3
    asyncio.run(scenario())


async def refusals(client: Client, message: dict[str, Any], reply: str, times: int) -> list[str]:
    """Send ``message`` ``times`` times, each after the answer to the one before; the refusals' codes."""
    codes = []
    for _ in range(times):
        await client.send(**message)
        answer = await client.expect(reply, "error")
        if answer["type"] == "error":
            codes.append(answer["code"])
    return codes


def test_a_client_looping_resume_or_watch_is_refused_past_the_rate(db_url: str) -> None:
    """At 2 messages a second (bursts of 4; the clock stands still), a player who resumes over and
    over while a prompt waits, and a spectator who watches a table getting ready over and over,
    are refused once past the rate: the prompt and the hand start they are sent again owe no
    answer. The player's answer to the prompt is still let through, and so are the rest of the hand's."""
    async def scenario() -> None:
        async with running(make_config(db_url, bot_wait=0.0, messages_per_second=2.0)) as run:
            c = await seated_with_bots(run.base)
            await c.expect("hand_start")
            acc = await account(run.base)
            spectator = await Client.open(run.base, acc["token"])
            watch = {"type_": "watch", "table": c.table}
            assert await refusals(spectator, watch, "seated", 8) == ["rate_limited"] * 4
            await c.send("ready")
            asked = await c.expect("prompt")
            resume = {"type_": "resume", "table": c.table, "hand": c.hand, "last": c.last}
            assert await refusals(c, resume, "prompt", 8) == ["rate_limited"] * 5  # the join spent one
            await c.send("act", table=c.table, version=asked["version"], action=c.choose(asked["legal"]))
            assert (await c.play_on())["type"] == "hand_end"
    asyncio.run(scenario())


def test_a_rate_limiter_drops_the_buckets_left_to_fill_again() -> None:
    """Buckets full again are dropped (at most once a refill time: here 10 s), the others kept as
    they were: a hundred one-time keys leave nothing behind, a busy key stays limited."""
    now = [0.0]
    limiter = RateLimiter(lambda: now[0], 1.0, 10.0)
    assert all(limiter.allow(f"once-{i}") for i in range(100))
    now[0] = 5.0
    assert [limiter.allow("busy") for _ in range(11)] == [True] * 10 + [False]
    assert len(limiter) == 101  # not looked at yet: less than a refill time since the start
    now[0] = 10.0
    assert limiter.allow("other")
    assert len(limiter) == 2  # "busy" (5 of 10 back) and "other"
    assert [limiter.allow("busy") for _ in range(6)] == [True] * 5 + [False]


def test_profiles_and_leaderboards_are_rate_limited_per_address(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            acc = await account(run.base)
            auth = {"authorization": f"Bearer {acc['token']}"}
            name = acc["user"]["username"]
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                for i in range(READS_PER_MINUTE):
                    path = f"/api/players/{name}" if i % 2 else "/api/leaderboard"
                    assert (await http.get(path, headers=auth)).status_code == 200
                for path in (f"/api/players/{name}", "/api/leaderboard"):
                    refused = await http.get(path, headers=auth)
                    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
                assert (await http.get(f"/api/levels?names={name}", headers=auth)).status_code == 200
                run.clock.advance(60.0)
                assert (await http.get("/api/leaderboard", headers=auth)).status_code == 200
    asyncio.run(scenario())


def test_a_browser_gets_one_device_cookie_and_is_limited_by_it_from_any_address(db_url: str) -> None:
    """Behind a trusted proxy, a browser changing addresses keeps its device cookie (set once, a
    malformed one replaced) and its device has the grants and guests of one client; a script
    without the cookie counts by its address only. Each login row keeps the device."""
    def device_set(response: httpx.Response) -> str | None:
        return next((c.split(";")[0].split("=", 1)[1] for c in response.headers.get_list("set-cookie")
                     if c.startswith(f"{DEVICE_COOKIE}=")), None)

    async def scenario() -> None:
        config = make_config(db_url, forwarded_allow_ips="127.0.0.1", guests_per_hour=2, grants_per_day=2)
        async with running(config) as run, httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT) as browser:
            first = await browser.post("/api/guest", headers={"x-forwarded-for": "203.0.113.1"})
            device = device_set(first)
            assert first.status_code == 200 and device is not None and len(device) == 22
            assert "httponly" in first.headers["set-cookie"].lower()
            answers = [await browser.post("/api/guest", headers={"x-forwarded-for": f"203.0.113.{i}"})
                       for i in (2, 3, 4)]
            assert [device_set(r) for r in answers] == [None] * 3  # kept, never set again
            # the first request showed no device: its limits counted its address alone
            assert [(r.status_code, r.json().get("code")) for r in answers] == [
                (200, None), (429, "too_many_grants"), (429, "too_many_guests")]
            assert "this device made 2 accounts today" in answers[1].json()["message"]
            assert browser.cookies[DEVICE_COOKIE] == device
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT) as script:
                alone = await script.post("/api/guest", headers={"x-forwarded-for": "203.0.113.5"})
                assert alone.status_code == 200
                script.cookies.set(DEVICE_COOKIE, "forged!" + device[7:])
                forged = await script.post("/api/guest", headers={"x-forwarded-for": "203.0.113.6"})
                replaced = device_set(forged)
                assert forged.status_code == 200 and replaced not in (None, device, alone.cookies.get(DEVICE_COOKIE))
            kept = await run.server.store.read(lambda conn: [r.device for r in conn.execute(
                select(logins.c.device).order_by(logins.c.id))])
            assert kept[:2] == [device, device] and len(set(kept)) == 3
    asyncio.run(scenario())
