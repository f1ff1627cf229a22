"""The abuse detectors (docs/server.md, Keeping chips honest): an honest population, seated at
random, raises no flag; accounts made from one address, a player feeding another and a pair always
seated together are each flagged with their evidence, kept once a day, shown on their pages and
printed by ``chuanma admin scan``."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from sqlalchemy import func, select
from typer.testing import CliRunner

from chuanma.cli import app as cli
from chuanma.server.bot_timing import answers
from chuanma.server.detectors import DAY, flags_of, scan, scan_and_keep
from chuanma.server.honesty import Visit, log_visit
from chuanma.server.retention import purge_logins
from chuanma.server.schema import flags
from chuanma.server.store import Store, open_store

NOW = 1_900_000_000.0
ROOM, PRIVATE = "t-room", "t-private"


class Books:
    """Accounts and hands written through the store, as the server writes them."""

    def __init__(self, store: Store) -> None:
        self.store, self.hands = store, 0

    async def account(self, name: str, address: str, kind: str = "player") -> int:
        user_id = await self.store.create_user(name, None, kind, 10_000, NOW - DAY, Visit(address, "test/1"))
        assert user_id is not None
        return user_id

    async def login(self, user_id: int, address: str) -> None:
        await self.store.write(lambda conn: log_visit(conn, user_id, "login", Visit(address, "test/1"), NOW - 3600))

    async def hand(self, table: str, seats: list[int], deltas: dict[int, int]) -> str:
        self.hands += 1
        hand_id = f"h{self.hands}"
        await self.store.create_hand({"id": hand_id, "table_id": table, "number": self.hands, "server_seed": "",
                                      "commitment": "", "session": {}, "seats": seats, "status": "playing"})
        await self.store.settle(hand_id, {"format": "test"}, deltas, {}, NOW - 3600 + self.hands)
        return hand_id


def won_by_one(seats: list[int], rng: random.Random) -> dict[int, int]:
    """One seat takes what the three others lose (a stake of 100-500 each)."""
    winner, stake = rng.choice(seats), rng.randrange(100, 500)
    return {u: 3 * stake if u == winner else -stake for u in seats}


async def honest(books: Books, rng: random.Random) -> list[int]:
    """Ten players, each from an address of their own, in 60 room hands seated at random."""
    for table, room in ((ROOM, "chuji-xuezhan"), (PRIVATE, "private")):
        await books.store.create_table({"id": table, "room": room, "rules": {}, "seats": [None] * 4,
                                        "status": "open", "created_at": NOW - DAY})
    players = [await books.account(f"Honest{i}", f"10.0.0.{i}") for i in range(10)]
    for i, user_id in enumerate(players):
        await books.login(user_id, f"10.0.0.{i}")
    for _ in range(60):
        seats = rng.sample(players, 4)
        await books.hand(ROOM, seats, won_by_one(seats, rng))
    return players


def test_an_honest_population_raises_no_flag_and_each_planted_cheat_is_flagged(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = await open_store(f"sqlite:///{tmp_path / 'chuanma.db'}")
        try:
            books, rng = Books(store), random.Random(7)
            players = await honest(books, rng)
            assert await store.read(lambda conn: scan(conn, NOW - 7 * DAY)) == []
            # three accounts from one address (one of them also from its own)
            farm = [await books.account(f"Farm{i}", "10.9.9.9", "guest" if i else "player") for i in range(3)]
            await books.login(farm[0], "10.9.9.9")
            await books.login(farm[2], "10.8.8.8")
            # a pair always seated together in 20 room hands, with two others drawn at random
            x, y = await books.account("PairX", "10.1.0.1"), await books.account("PairY", "10.1.0.2")
            for _ in range(20):
                seats = [x, y, *rng.sample(players, 2)]
                await books.hand(ROOM, seats, won_by_one(seats, rng))
            # a player losing 400 a hand to one other at a private table, a bot seated with them
            dumper, taker = await books.account("Dumper", "10.2.0.1"), await books.account("Taker", "10.2.0.2")
            bot = await books.account("Bot1", "10.3.0.1", "bot")
            dumped = [await books.hand(PRIVATE, [dumper, taker, bot, players[0]],
                                       {dumper: -400, taker: 400, bot: 0, players[0]: 0}) for _ in range(5)]
            found = await store.read(lambda conn: scan(conn, NOW - 7 * DAY))
            assert sorted((f.kind, f.accounts) for f in found) == [
                ("chip_dumping", (dumper, taker)), ("seated_together", (x, y)), ("shared_address", tuple(farm))]
            by_kind = {f.kind: f for f in found}
            shared = by_kind["shared_address"]
            assert shared.evidence == {"addresses": {"10.9.9.9": {str(farm[0]): 2, str(farm[1]): 1,
                                                                  str(farm[2]): 1}}}
            assert shared.figure == 3 and shared.population < 1.5
            dump = by_kind["chip_dumping"]
            assert dump.figure == 1.0 and dump.evidence["hands"] == dumped and dump.evidence["lost"] == 2000
            assert dump.population < dump.figure
            pair = by_kind["seated_together"]
            assert pair.evidence["hands_together"] == 20 and pair.figure >= 3 > pair.population

            # kept once a day (a second scan, or another node's, adds none), on each account's page
            assert len(await scan_and_keep(store, NOW, 7)) == 3
            assert len(await scan_and_keep(store, NOW + 60, 7)) == 3
            assert await store.read(lambda conn: conn.execute(select(func.count()).select_from(flags)).scalar()) == 3
            assert [f["kind"] for f in await flags_of(store, taker)] == ["chip_dumping"]
            assert [f["kind"] for f in await flags_of(store, players[1])] == []
            assert await store.read(lambda conn: scan(conn, NOW + 8 * DAY)) == []  # older than the days scanned
        finally:
            await store.close()
    asyncio.run(scenario())

    url = f"sqlite:///{tmp_path / 'chuanma.db'}"
    done = CliRunner().invoke(cli, ["admin", "scan", "--db", url, "--days", "3650"])
    assert done.exit_code == 0 and "chip_dumping: accounts #" in done.output and "3 flags over the last 3650 days" \
        in done.output, done.output
    page = CliRunner().invoke(cli, ["admin", "player", "Dumper", "--db", url])
    assert page.exit_code == 0 and "chip_dumping" in page.output and "(everyone: " in page.output, page.output
    refused = CliRunner().invoke(cli, ["admin", "scan", "--db", url, "--days", "0"])
    assert refused.exit_code == 2 and "--days" in refused.output


def test_answer_times_flag_scripts_not_people_nor_the_servers_own_decisions(tmp_path: Path) -> None:
    """Decisions stored with the time their prompt was sent: an account answering at once and one
    answering after the same 2 s each time are flagged with their figures; a person's uneven
    seconds are not, and the server's bot and 托管 answering at once are not even timed; the times
    are forgotten with the logins."""
    async def scenario() -> None:
        store = await open_store(f"sqlite:///{tmp_path / 'chuanma.db'}")
        try:
            books, rng = Books(store), random.Random(3)
            await store.create_table({"id": ROOM, "room": "chuji-xuezhan", "rules": {}, "seats": [None] * 4,
                                      "status": "open", "created_at": NOW - DAY})
            people = [await books.account(f"Person{i}", f"10.0.1.{i}") for i in range(2)]
            instant, steady = await books.account("Quick", "10.0.2.1"), await books.account("Steady", "10.0.2.2")
            bot = await books.account("Bot2", "10.0.3.1", "bot")
            rows = []
            for h in range(4):  # 40 decisions each: 10 a hand
                seats = [people[0], instant, steady, people[1] if h < 2 else bot]
                hand_id = await books.hand(ROOM, seats, won_by_one(seats, rng))
                for k in range(40):
                    seat, asked = k % 4, NOW - 3000 + h * 100 + k
                    user = seats[seat]
                    delay = (0.01 if user == instant else 2.0 + rng.uniform(-0.02, 0.02) if user == steady
                             else 0.0 if user == bot else rng.lognormvariate(0.3, 0.6))
                    by = "bot" if user == bot else "auto" if user == people[0] and k < 8 else "player"
                    rows.append({"hand_id": hand_id, "idx": k, "seat": seat, "action": {"pass": True}, "by": by,
                                 "events": [], "at": asked + (0.0 if by == "auto" else delay), "asked": asked})
            await store.add_decisions(rows)
            found = [f for f in await store.read(lambda conn: scan(conn, NOW - 7 * DAY)) if f.kind == "bot_timing"]
            assert [(f.accounts, f.evidence["why"]) for f in found] == [((instant,), "instant"), ((steady,), "steady")]
            quick = found[0]
            assert quick.evidence["decisions"] == 40 and quick.figure < 0.25 < quick.population
            assert quick.evidence["population_median"] == round(quick.population, 3)
            assert len(quick.evidence["hands"]) == 4 and found[1].evidence["spread"] < 0.15
            judged = await store.read(lambda conn: answers(conn, NOW - 7 * DAY))
            assert sorted(len(a.times) for a in judged.values()) == [20, 32, 40, 40]  # the bot's and 托管's left out
            assert judged[people[0]].figures()[1] > 0.15 and judged[people[0]].figures()[0] > 0.25
            await purge_logins(store, NOW + 89 * DAY, 90)
            assert len(await store.read(lambda conn: answers(conn, NOW - 7 * DAY))) == 4
            await purge_logins(store, NOW + 91 * DAY, 90)
            assert await store.read(lambda conn: answers(conn, NOW - 7 * DAY)) == {}
        finally:
            await store.close()
    asyncio.run(scenario())


def test_accounts_on_one_device_are_flagged_with_when_each_was_seen_and_others_not(tmp_path: Path) -> None:
    """Two accounts logged in from one browser (its device cookie), each from its own address,
    are flagged together with when each was seen on it; two on devices of their own are not, nor
    are logins without a device."""
    shared, own = "D" * 22, ["E" * 22, "F" * 22]

    async def scenario() -> None:
        store = await open_store(f"sqlite:///{tmp_path / 'chuanma.db'}")
        try:
            books = Books(store)
            one, two, alone, other = [await books.account(f"Dev{i}", f"10.4.0.{i}") for i in range(4)]
            for user_id, device, at in ((one, shared, NOW - 600), (two, shared, NOW - 300), (one, shared, NOW - 60),
                                        (alone, own[0], NOW - 60), (other, own[1], NOW - 60)):
                visit = Visit(f"10.5.{user_id}.1", "test/1", device)
                await store.write(lambda conn, u=user_id, v=visit, t=at: log_visit(conn, u, "login", v, t))
            found = await store.read(lambda conn: scan(conn, NOW - 7 * DAY))
            assert [(f.kind, f.accounts) for f in found] == [("shared_device", (one, two))]
            assert found[0].evidence == {"devices": {shared: {
                str(one): {"logins": 2, "first": NOW - 600, "last": NOW - 60},
                str(two): {"logins": 1, "first": NOW - 300, "last": NOW - 300}}}}
            assert found[0].figure == 2 and found[0].population == 4 / 3
        finally:
            await store.close()
    asyncio.run(scenario())
