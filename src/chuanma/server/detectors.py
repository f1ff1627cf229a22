"""Detectors of abuse (docs/server.md, Keeping chips honest): run by ``chuanma admin scan`` and by
the server once a day, over the last days' rows; what they find is kept in ``flags`` for staff to
look at (a flag is a suspicion with its evidence, never an action). The server's bots are left out
of every figure: they sit with everyone and cannot conspire.

- **Shared addresses** (multi-accounting): accounts that logged in (or were made) from one address,
  from the ``logins`` table; accounts linked through any shared address form one group.
- **Shared devices** (multi-accounting): the same, by the device cookie of a browser
  (:mod:`chuanma.server.honesty`), with when each account was seen on the device.
- **Chip dumping**: for each account, the share of the chips it lost (hands and escapes, from the
  ledger) that went to one other account, a loss shared among a hand's winners by what each won;
  flagged from :data:`DUMP_SHARE` of at least :data:`DUMP_CHIPS` lost over :data:`DUMP_HANDS` hands
  together. Its population figure: the mean such top share of every account that lost as much.
- **Seated together**: pairs of accounts dealt into the same room hands (not private tables, where
  friends sit together by invitation) more often than chance: the hands together over those
  expected if seats were drawn at random given each one's hands, flagged from :data:`PAIR_RATIO`
  with at least :data:`PAIR_HANDS` hands together. Its population figure: the mean ratio of the
  pairs seen together.
- **Bots playing for people** (:mod:`chuanma.server.bot_timing`) and **soft play inside a pair**
  (:mod:`chuanma.server.soft_play`), each in its module.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from itertools import combinations
from typing import Any

from sqlalchemy import Connection, func, select

from chuanma.server.bot_timing import bot_timing
from chuanma.server.clock import Clock
from chuanma.server.retention import DAY, every_day
from chuanma.server.rooms import PRIVATE_ROOM
from chuanma.server.schema import flagged, flags, hands, logins, tables
from chuanma.server.soft_play import soft_play
from chuanma.server.store import Store
from chuanma.server.suspicions import EVIDENCE_HANDS, Flag, bot_ids, chip_flows

SCAN_DAYS = 7.0
"""The days the server's daily scan looks back over."""
DUMP_SHARE = 0.6
DUMP_CHIPS = 1_000
DUMP_HANDS = 3
PAIR_RATIO = 3.0
PAIR_HANDS = 10
RECENT = 20
"""The most flags a player's page shows."""


def linked_by(conn: Connection, since: float, column: Any) -> list[dict[str, dict[int, list[float]]]]:
    """Groups of two accounts or more linked by the values of ``logins``'s ``column`` (an address,
    a device) they were seen with since ``since``: per group, each value shared and, per account
    seen with it, the times it was."""
    seen: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for value, user_id, at in conn.execute(select(column, logins.c.user_id, logins.c.at)
                                           .where(logins.c.at >= since, column.is_not(None)).order_by(logins.c.at)):
        seen[str(value)][int(user_id)].append(float(at))
    group = {u: u for times in seen.values() for u in times}

    def root(u: int) -> int:
        while group[u] != u:
            group[u] = group[group[u]]
            u = group[u]
        return u
    for times in seen.values():
        first, *others = times
        for other in others:
            group[root(other)] = root(first)
    shared: dict[int, dict[str, dict[int, list[float]]]] = defaultdict(dict)
    for value, times in seen.items():
        if len(times) >= 2:
            shared[root(next(iter(times)))][value] = dict(sorted(times.items()))
    return list(shared.values())


def mean_accounts(conn: Connection, since: float, column: Any) -> float:
    """The mean accounts seen with each value of ``logins``'s ``column`` since ``since``."""
    per = (select(func.count(logins.c.user_id.distinct()).label("n"))
           .where(logins.c.at >= since, column.is_not(None)).group_by(column).subquery())
    return float(conn.execute(select(func.coalesce(func.avg(per.c.n), 0.0))).scalar_one())


def accounts_of(groups: dict[str, dict[int, list[float]]]) -> tuple[int, ...]:
    """The accounts of a group of :func:`linked_by`."""
    return tuple(sorted({u for times in groups.values() for u in times}))


def shared_addresses(conn: Connection, since: float) -> list[Flag]:
    """Groups of two accounts or more linked by the addresses they logged in from since ``since``."""
    mean = mean_accounts(conn, since, logins.c.address)
    return [Flag("shared_address", accounts_of(g), {"addresses": {
        a: {str(u): len(t) for u, t in times.items()} for a, times in g.items()}}, float(len(accounts_of(g))), mean)
        for g in linked_by(conn, since, logins.c.address)]


def shared_devices(conn: Connection, since: float) -> list[Flag]:
    """Groups of two accounts or more linked by the devices (device cookies) they logged in from
    since ``since``; the evidence keeps when each account was first and last seen on each device."""
    mean = mean_accounts(conn, since, logins.c.device)
    return [Flag("shared_device", accounts_of(g), {"devices": {
        d: {str(u): {"logins": len(t), "first": t[0], "last": t[-1]} for u, t in times.items()}
        for d, times in g.items()}}, float(len(accounts_of(g))), mean)
        for g in linked_by(conn, since, logins.c.device)]


def chip_dumping(conn: Connection, since: float) -> list[Flag]:
    """Accounts whose lost chips since ``since`` went mostly to one other account."""
    flows = chip_flows(conn, since, bot_ids(conn))
    lost, sent = flows.lost, flows.sent
    tops = {u: max(sent[u].items(), key=lambda kv: kv[1]) for u in lost if lost[u] >= DUMP_CHIPS and sent[u]}
    mean = sum(share / lost[u] for u, (_, share) in tops.items()) / len(tops) if tops else 0.0
    found = []
    for loser, (winner, chips) in tops.items():
        share, shared = chips / lost[loser], flows.together[loser, winner]
        if share >= DUMP_SHARE and len(shared) >= DUMP_HANDS:
            found.append(Flag("chip_dumping", (loser, winner), {
                "from": loser, "to": winner, "chips": round(chips), "lost": lost[loser], "hands_together": len(shared),
                "hands": shared[:EVIDENCE_HANDS]}, share, mean))
    return found


def seated_together(conn: Connection, since: float) -> list[Flag]:
    """Pairs dealt into the same room hands since ``since`` more often than chance."""
    bots = bot_ids(conn)
    rows = conn.execute(select(hands.c.id, hands.c.seats).join(tables, tables.c.id == hands.c.table_id)
                        .where(hands.c.status == "settled", hands.c.finished_at >= since,
                               tables.c.room != PRIVATE_ROOM).order_by(hands.c.finished_at))
    played: Counter[int] = Counter()
    met: dict[tuple[int, int], list[str]] = defaultdict(list)
    for hand_id, seats in rows:
        people = sorted({int(u) for u in seats if u is not None and int(u) not in bots})
        played.update(people)
        for pair in combinations(people, 2):
            met[pair].append(str(hand_id))
    seats_taken = sum(played.values())
    pairs = (seats_taken ** 2 - sum(n * n for n in played.values())) / 2  # of seats, two accounts' each
    slots = sum(len(h) for h in met.values())  # pairs of accounts dealt together, hand by hand
    expected = {pair: slots * played[pair[0]] * played[pair[1]] / pairs for pair in met}
    ratios = {pair: len(h) / expected[pair] for pair, h in met.items()}
    mean = sum(ratios.values()) / len(ratios) if ratios else 0.0
    return [Flag("seated_together", pair, {"hands_together": len(met[pair]), "expected": round(expected[pair], 2),
                                           "hands_each": [played[pair[0]], played[pair[1]]],
                                           "hands": met[pair][:EVIDENCE_HANDS]}, ratio, mean)
            for pair, ratio in ratios.items() if ratio >= PAIR_RATIO and len(met[pair]) >= PAIR_HANDS]


def scan(conn: Connection, since: float) -> list[Flag]:
    """Every detector's flags over the rows since ``since``."""
    return [*shared_addresses(conn, since), *shared_devices(conn, since), *chip_dumping(conn, since),
            *seated_together(conn, since), *bot_timing(conn, since), *soft_play(conn, since)]


def keep(conn: Connection, found: Iterable[Flag], now: float) -> int:
    """Store the flags of ``found`` not raised already within the last day (the same kind about the
    same accounts: a daily scan on each node of a cluster keeps one); returns how many were stored."""
    recent = {(r.kind, tuple(r.accounts)) for r in conn.execute(select(flags.c.kind, flags.c.accounts)
                                                               .where(flags.c.at > now - DAY))}
    stored = 0
    for flag in found:
        if (flag.kind, flag.accounts) in recent:
            continue
        flag_id = conn.execute(flags.insert().values(
            kind=flag.kind, accounts=list(flag.accounts), evidence=flag.evidence, figure=flag.figure,
            population=flag.population, at=now)).inserted_primary_key[0]  # type: ignore[index]
        conn.execute(flagged.insert(), [{"flag_id": flag_id, "user_id": u} for u in flag.accounts])
        stored += 1
    return stored


async def scan_and_keep(store: Store, now: float, days: float) -> list[Flag]:
    """Scan the last ``days`` and store what was found (:func:`keep`); returns every flag found."""
    def work(conn: Connection) -> list[Flag]:
        found = scan(conn, now - days * DAY)
        keep(conn, found, now)
        return found
    return await store.write(work)


async def scan_daily(store: Store, clock: Clock) -> None:
    """Scan the last :data:`SCAN_DAYS` now, then once a day, until cancelled (:func:`every_day`)."""
    async def scanned() -> dict[str, float]:
        return {"flags": len(await scan_and_keep(store, clock.now(), SCAN_DAYS)), "days": SCAN_DAYS}
    await every_day(clock, "abuse scanned", scanned)


async def flags_of(store: Store, user_id: int) -> list[dict[str, Any]]:
    """The last flags about ``user_id``, newest first (their page's)."""
    q = (select(flags).join(flagged, flagged.c.flag_id == flags.c.id).where(flagged.c.user_id == user_id)
         .order_by(flags.c.id.desc()).limit(RECENT))
    return await store.read(lambda conn: [dict(r._mapping) for r in conn.execute(q)])
