"""The abuse detectors against cheaters: precision and recall over runs of a real server.

Each run starts the server in this process (under uvicorn, on SQLite in a temporary directory) on a
clock sped up :data:`SPEED` times (:class:`~chuanma.server.clock.ScaledClock`: the tables' timers
and the answer times the server measures are in the game's seconds), behind a proxy it believes
(``--forwarded-allow-ips``), so every client names its own address. It seats, at private tables of
血流 playing ``--hands`` hands:

- **honest** guests, each from an address of its own, answering after a person's delay (lognormal
  around a median of 0.7-1.6 s of its own, σ 0.5), a win whenever they can, else any legal move;
- **pair**: two colluders, playing by their ready-hand hints, each discarding the other's waits
  when it can (read from the other's hints, keeping the tiles the other needs until then): one takes
  the wins so fed, the other passes them (its partner's discards are safe);
- **instant**: a script answering at once, and **steady**: one answering after 2.5 s every time;
  the pair and each script sit with ``--company`` honest players (2; server bots fill the seats);
- **farm**: guests made from one address, feeding the one account they play with;
- **ring**: registered accounts made and logged in from one address, playing with a server bot.

Then it runs the scan (:func:`chuanma.server.detectors.scan`) and counts, per kind of cheat, the
runs whose detector flagged its accounts, and the honest accounts any detector flagged::

    python benchmarks/cheaters.py --runs 10 --honest 16 --hands 8

The short form (``--short``) is one small run: every kind caught, no honest
account flagged.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from chuanma.commands.serve import uvicorn_config
from chuanma.server.app import create_app
from chuanma.server.bot_timing import Answers, answers
from chuanma.server.clock import ScaledClock
from chuanma.server.config import ServerConfig
from chuanma.server.detectors import scan
from chuanma.server.retention import DAY
from chuanma.server.store import open_store, sqlite_url
from chuanma.server.suspicions import Flag

SPEED = 25.0
"""How much faster than the real time the server's clock and the clients' delays run."""
STEADY_DELAY = 2.5
"""The steady script's delay (game seconds)."""
PRESET = "xueliu"
KINDS = {"pair": "soft_play", "instant": "bot_timing", "steady": "bot_timing", "farm": "shared_address",
         "ring": "shared_address"}
"""Each kind of cheat and the detector that should flag it."""
LATE = ("stale_version", "no_hand", "hand_over", "illegal_action")
"""The refusals of an answer that came after its question changed or its hand ended."""
TIMEOUT = 120.0
"""Real seconds a client waits for a message before giving up."""


def person(rng: random.Random, pace: float = 1.0) -> Callable[[], float]:
    """A person's delays: lognormal around a median of their own (0.7-1.6 s, times ``pace``)."""
    median = rng.uniform(0.7, 1.6) * pace
    return lambda: min(15.0, rng.lognormvariate(math.log(median), 0.5))


@dataclass
class Player:
    """One account's client: its timing, whom it feeds, and what it saw of its hand."""

    name: str
    token: str
    address: str
    delay: Callable[[], float]
    rng: random.Random
    speed: float = SPEED
    """How much faster than the real time its delays run (its server clock's)."""
    feeds: Player | None = None
    """The partner it discards waits to and passes wins of."""
    soft: bool = False
    """Passes the wins ``feeds``'s discards offer."""
    hints: bool = False
    """Asks for its hints: a partner feeding it reads its waits from them."""
    waits: list[str] = field(default_factory=list)
    useful: list[str] = field(default_factory=list)
    """The tiles that would bring it nearer to ready (its waits once ready)."""
    best: list[str] = field(default_factory=list)
    """The discards its hints advise, best first."""
    seat: int | None = None
    source: int | None = None
    """The seat of the last discard (or added kong)."""

    def choose(self, legal: list[dict[str, Any]]) -> dict[str, Any]:
        partner = self.feeds
        if any("hu" in a for a in legal):
            on_partner = partner is not None and self.soft and self.source == partner.seat

            passing = [a for a in legal if "pass" in a]
            return passing[0] if on_partner and passing else {"hu": True}
        if partner is not None:
            feeding = [a for a in legal if a.get("discard") in partner.waits]
            if feeding:
                return feeding[0]
        discards = [a["discard"] for a in legal if "discard" in a]
        kept = partner.useful if partner is not None else []  # a feeder keeps them for later
        advised = [tile for tile in self.best if tile in discards and tile not in kept]
        advised += [tile for tile in self.best if tile in discards]
        if advised:
            return {"discard": advised[0]}
        if discards:
            return {"discard": loosest(discards, self.rng)}
        passing = [a for a in legal if "pass" in a]
        return passing[0] if passing and self.rng.random() < 0.7 else self.rng.choice(legal)

    def saw(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "seated":
            self.seat = msg["seat"]
        elif kind == "events":
            for event in msg["events"]:
                if event["type"] in ("discard", "kong"):
                    self.source = event["seat"]
        elif kind == "view":
            hints = msg.get("hints") or {}
            if "useful" in hints:
                self.useful = [tile for tile, _ in hints["useful"]]
                self.waits = self.useful if hints["shanten"] == 0 else []
            self.best = [d["tile"] for d in hints.get("discards", [])]

    async def play(self, base: str, invite: str) -> None:
        """Sit at the table of ``invite`` and play until it closes."""
        url = base.replace("http", "ws") + f"/ws?token={self.token}"
        async with connect(url, additional_headers={"x-forwarded-for": self.address}, max_size=1 << 22) as ws:
            await send(ws, "join_private", invite=invite)
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                self.saw(msg)
                if msg["type"] == "table_closed":
                    return
                if msg["type"] == "seated" and self.hints:
                    await send(ws, "views", on=True, hints=True)
                elif msg["type"] == "hand_start" and not msg.get("dealt"):
                    await send(ws, "ready")
                elif msg["type"] == "prompt":
                    await asyncio.sleep(self.delay() / self.speed)
                    await send(ws, "act", table=msg["table"], version=msg["version"],
                               action=self.choose(msg["legal"]))
                elif msg["type"] == "error" and msg["code"] not in LATE:
                    raise RuntimeError(f"{self.name}: {msg}")


def loosest(tiles: list[str], rng: random.Random) -> str:
    """Of the tiles one may discard (one of each held), one with the fewest neighbours held: a
    person's rough play, cheap enough for many clients."""
    held = set(tiles)

    def ties(tile: str) -> int:
        rank, suit = int(tile[0]), tile[1:]
        return sum(w for d, w in ((1, 2), (2, 1)) for r in (rank - d, rank + d) if f"{r}{suit}" in held)
    fewest = min(ties(t) for t in tiles)
    return rng.choice([t for t in tiles if ties(t) == fewest])


async def send(ws: ClientConnection, type_: str, **fields: Any) -> None:
    await ws.send(json.dumps({"type": type_, "v": 1, **fields}))


@dataclass
class Population:
    """A run's players by kind (``honest`` and the kinds of :data:`KINDS`) and their account ids."""

    players: dict[str, list[Player]] = field(default_factory=dict)
    ids: dict[str, int] = field(default_factory=dict)

    def accounts(self, kind: str) -> set[int]:
        return {self.ids[p.name] for p in self.players[kind]}


async def make_account(http: httpx.AsyncClient, address: str, rng: random.Random, username: str | None = None,
                       delay: Callable[[], float] | None = None) -> tuple[Player, int]:
    """A guest (or, named, a registered account logging in once more) made from ``address``."""
    headers = {"x-forwarded-for": address}
    if username is None:
        r = await http.post("/api/guest", headers=headers)
    else:
        body = {"username": username, "password": "correct horse"}
        r = await http.post("/api/register", json=body, headers=headers)
        r.raise_for_status()
        r = await http.post("/api/login", json=body, headers=headers)
    r.raise_for_status()
    data = r.json()
    player = Player(data["user"]["username"], data["token"], address, delay or person(rng), rng)
    return player, int(data["user"]["id"])


@dataclass(frozen=True)
class Size:
    """A run's size: the honest players, the hands each table plays (the pair's table: ``pair_hands``),
    the honest players at the pair's table and at each script's, the farm's guests, the ring's
    accounts, and the clock's speed."""

    honest: int = 16
    hands: int = 8
    pair_hands: int = 8
    pair_company: int = 2
    pair_pace: float = 1.0
    company: int = 2
    farm: int = 3
    ring: int = 3
    speed: float = SPEED


SHORT = Size(honest=2, hands=2, pair_hands=8, pair_company=0, pair_pace=0.35, company=1, farm=2, ring=2,
             speed=20.0)
"""The short form (``--short``): the pair, quicker, alone with server bots for more hands; each script
with one person."""
SHORT_SEED = 5
"""The short form's seed, the one its size was chosen at: so small a run depends on its deal (at
seed 1 the scripts answer too few prompts to be judged)."""


async def populate(base: str, rng: random.Random, size: Size) -> Population:
    pop = Population()
    scripts = CookieJar(DefaultCookiePolicy(allowed_domains=[]))  # keeps no cookie: no device shared by all
    async with httpx.AsyncClient(base_url=base, timeout=TIMEOUT, cookies=scripts) as http:
        async def kind(name: str, makes: list[Any]) -> None:
            made = await asyncio.gather(*makes)
            pop.players[name] = [p for p, _ in made]
            pop.ids.update((p.name, i) for p, i in made)
        await kind("honest", [make_account(http, f"10.1.{i // 250}.{i % 250 + 1}", rng)
                              for i in range(size.honest)])
        await kind("pair", [make_account(http, f"10.2.0.{i + 1}", rng, delay=person(rng, size.pair_pace))
                            for i in range(2)])
        await kind("instant", [make_account(http, "10.3.0.1", rng, delay=lambda: 0.0)])
        await kind("steady", [make_account(http, "10.3.0.2", rng, delay=lambda: STEADY_DELAY)])
        await kind("farm", [make_account(http, "10.4.0.1", rng) for _ in range(size.farm)])
        await kind("fed", [make_account(http, "10.4.1.1", rng)])
        tag = rng.randrange(10**6)
        await kind("ring", [make_account(http, "10.5.0.1", rng, f"Ring{tag}x{i}") for i in range(size.ring)])
    a, b = pop.players["pair"]
    a.feeds, b.feeds, a.soft, a.hints, b.hints = b, a, True, True, True
    target = pop.players["fed"][0]
    target.hints = True
    for guest in pop.players["farm"]:
        guest.feeds = target
    return pop


def tables(pop: Population, rng: random.Random, size: Size) -> list[tuple[list[Player], int]]:
    """The run's tables and the hands each plays: the pair and each script with honest players drawn
    at random, the farm's guests with the account they feed, the ring, the rest of the honest four
    by four (a table short of four is filled with server bots)."""
    honest = list(pop.players["honest"])
    rng.shuffle(honest)

    def draw(n: int) -> list[Player]:
        taken = honest[:n]
        del honest[:n]
        return taken
    seated = [(pop.players["pair"] + draw(size.pair_company), size.pair_hands)]
    seated += [(pop.players[kind] + draw(size.company), size.hands) for kind in ("instant", "steady")]
    seated += [(pop.players["fed"] + pop.players["farm"][:3], size.hands), (pop.players["ring"][:4], size.hands)]
    seated += [(draw(4), size.hands) for _ in range((len(honest) + 3) // 4)]
    return [(t, n) for t, n in seated if t]


async def play_table(base: str, players: list[Player], hands: int) -> None:
    creator = players[0]
    async with httpx.AsyncClient(base_url=base, timeout=TIMEOUT) as http:
        r = await http.post("/api/tables", json={"preset": PRESET, "hands": hands, "bots": 4 - len(players),
                                                 "bot_level": "easy"},
                            headers={"authorization": f"Bearer {creator.token}", "x-forwarded-for": creator.address})
        r.raise_for_status()
    invite = r.json()["invite"]
    await asyncio.gather(*(p.play(base, invite) for p in players))


@dataclass
class Verdict:
    """One run's: the kinds caught, and the honest accounts flagged by each detector."""

    caught: set[str]
    scripts: dict[str, tuple[float, float]]
    """The scripts' answer times as the detector saw them: median and spread."""
    honest: int
    honest_flagged: dict[str, set[int]]
    flags: list[Flag]


def judge(pop: Population, found: list[Flag], timed: dict[int, Answers]) -> Verdict:
    caught = {kind for kind, detector in KINDS.items()
              if any(f.kind == detector and pop.accounts(kind) <= set(f.accounts) for f in found)}
    honest = pop.accounts("honest")
    flagged: dict[str, set[int]] = {}
    for f in found:
        flagged.setdefault(f.kind, set()).update(honest & set(f.accounts))
    scripts = {kind: timed[pop.ids[pop.players[kind][0].name]].figures() for kind in ("instant", "steady")}
    return Verdict(caught, scripts, len(honest), flagged, found)


async def run(seed: int, size: Size) -> Verdict:
    """One run on a fresh SQLite database: play, scan, judge."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as data:
        url = sqlite_url(Path(data))
        speed = size.speed
        clock = ScaledClock(speed)
        config = ServerConfig(db_url=url, clock=clock, forwarded_allow_ips="*", auth_per_minute=10_000,
                              guests_per_hour=10_000, private_tables_per_hour=10_000,
                              messages_per_second=10_000.0, auto_delay=0.0)
        app = create_app(config)
        server = uvicorn.Server(uvicorn_config(app, config, "127.0.0.1", 0))
        task = asyncio.create_task(server.serve())
        while not server.started:
            if task.done():
                task.result()
            await asyncio.sleep(0.01)
        base = f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
        try:
            pop = await populate(base, rng, size)
            for players in pop.players.values():
                for player in players:
                    player.speed = speed
            await asyncio.gather(*(play_table(base, t, n) for t, n in tables(pop, rng, size)))
        finally:
            server.should_exit = True
            await task
        store = await open_store(url)
        try:
            now = clock.now()
            found = await store.read(lambda conn: scan(conn, now - DAY))
            timed = await store.read(lambda conn: answers(conn, now - DAY))
        finally:
            await store.close()
    return judge(pop, found, timed)


def report(verdicts: list[Verdict]) -> str:
    """The table: per kind of cheat, the runs it was caught in; per detector, the honest flagged."""
    runs, honest = len(verdicts), sum(v.honest for v in verdicts)
    lines = [f"{'kind':<8} {'detector':<15} {'runs':>4} {'caught':>6} {'honest flagged':>18}"]
    for kind, detector in KINDS.items():
        caught = sum(kind in v.caught for v in verdicts)
        wrong = sum(len(v.honest_flagged.get(detector, ())) for v in verdicts)
        lines.append(f"{kind:<8} {detector:<15} {runs:>4} {caught:>6} {wrong:>7}/{honest} ({wrong / honest:.1%})")
    wrong = sum(len(set().union(*v.honest_flagged.values())) for v in verdicts if v.honest_flagged)
    lines.append(f"{'any':<8} {'(all)':<15} {runs:>4} {'':>6} {wrong:>7}/{honest} ({wrong / honest:.1%})")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--honest", type=int, default=16, help="honest players a run (8 fill the cheats' tables)")
    parser.add_argument("--hands", type=int, default=8, help="hands each table plays")
    parser.add_argument("--company", type=int, default=2, help="honest players at each cheat's table")
    parser.add_argument("--speed", type=float, default=SPEED, help="the clock's speed (lower: less noise)")
    parser.add_argument("--seed", type=int, default=None,
                        help=f"the first run's seed (1; the short form's: {SHORT_SEED})")
    parser.add_argument("--short", action="store_true",
                        help="the short form: one small run; exit status 1 unless every kind is caught and no "
                             "honest account flagged")
    args = parser.parse_args()
    if args.short:
        verdict = asyncio.run(run(SHORT_SEED if args.seed is None else args.seed, SHORT))
        print(report([verdict]))
        sys.exit(0 if verdict.caught == set(KINDS) and not any(verdict.honest_flagged.values()) else 1)
    verdicts = []
    for i in range(args.runs):
        size = Size(honest=args.honest, hands=args.hands, pair_hands=args.hands, pair_company=args.company,
                    company=args.company, speed=args.speed)
        verdict = asyncio.run(run((1 if args.seed is None else args.seed) + i, size))
        missed = sorted(set(KINDS) - verdict.caught)
        timing = ", ".join(f"{kind} median {m:.3f} s spread {sp:.3f}" for kind, (m, sp) in verdict.scripts.items())
        wrong = "; ".join(f"{f.kind} {f.accounts} {json.dumps(f.evidence)}" for f in verdict.flags
                          if set(f.accounts) & set().union(*verdict.honest_flagged.values()))
        print(f"run {i + 1}: caught {sorted(verdict.caught)}" + (f", missed {missed}" if missed else "") +
              f" ({timing})" + (f"; honest flagged: {wrong}" if wrong else ""), flush=True)
        verdicts.append(verdict)
    print(report(verdicts))


if __name__ == "__main__":
    main()
