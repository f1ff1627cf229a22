"""Progression's figures: written with each settlement, read by the profiles, levels and leaderboards.

:func:`record_hand` runs in the settlement's transaction (``Store.settle``, in a savepoint of its
own): one ``hand_players`` row per seat, every figure taken from the hand's record and its ledger
deltas, and the ratings (:mod:`chuanma.server.ratings`) brought forward. Everything else here reads
those rows and the ledger: there is no second bookkeeping that could disagree with them.

A settlement writes only rows its own seats hold: each player's ratings, and each bot account's
(rated as its strategy at that account, ``bot:<strategy>:<id>``; an account sits at one table at
a time). A strategy's rating is drawn from its accounts' when read (:func:`leaderboard`), so no
row shared by every table is locked by every settlement.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Integer,
    String,
    and_,
    bindparam,
    case,
    cast,
    exists,
    func,
    literal,
    or_,
    select,
    true,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite

from chuanma.scoring import FANS
from chuanma.server.levels import experience, level_json
from chuanma.server.ratings import FAMILIES, NEW, OVERALL, Rating, family_of, places, rate
from chuanma.server.rooms import PRIVATE_ROOM
from chuanma.server.schema import hand_players, hands, ledger, ratings, tables, users
from chuanma.server.store import HAND_KINDS, SettleHook

HISTORY = 200
"""The most points a history plot gets (the latest ones)."""
FAN_HANDS = 1_000
"""The latest winning hands whose fans a profile counts (its most common fans)."""
BEST_HANDS = 5
COMMON_FANS = 5


EARLIER_BOT = "greedy"
"""The bot that filled every seat before tables had a bot level (``tables.bot_level`` None)."""


BOT = "bot:"
"""The prefix of a bot account's subjects: ``bot:<strategy>:<user id>``."""


def subject_of(user_id: int, kind: str, bot_name: str) -> str:
    """Who a seat's rating belongs to: the player, or a bot account playing strategy ``bot_name``."""
    return f"{BOT}{bot_name}:{user_id}" if kind == "bot" else f"user:{user_id}"


def strategy_of(subject: str) -> str | None:
    """The strategy of a bot account's ``subject`` (None: a player's)."""
    return subject.removeprefix(BOT).split(":")[0] if subject.startswith(BOT) else None


def bot_of(level: str | None, bot_levels: Mapping[str, str]) -> str:
    """The strategy of the bots at a table of bot level ``level`` (None: a table from before levels)."""
    return bot_levels[level] if level is not None else EARLIER_BOT


def _ensure_ratings(conn: Connection, keys: Sequence[tuple[str, str]]) -> None:
    """Insert a new rating for each (subject, family) not rated yet (two settlements at once: one does)."""
    rows = [{"subject": s, "family": f, "mu": NEW.mu, "sigma": NEW.sigma, "hands": 0} for s, f in keys]
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    conn.execute(dialect.insert(ratings).on_conflict_do_nothing(), rows)


def _bring_forward(conn: Connection, subjects: Sequence[str], deltas: Sequence[int], family: str) -> dict[str, Rating]:
    """Rate ``subjects`` (by seat) in ``family`` after a hand with these ``deltas``; stored, and returned."""
    keys = sorted({(s, family) for s in subjects})
    _ensure_ratings(conn, keys)
    locked = conn.execute(select(ratings).where(ratings.c.family == family, ratings.c.subject.in_(
        [s for s, _ in keys])).order_by(ratings.c.subject).with_for_update()).all()
    after = rate(subjects, deltas, {r.subject: Rating(r.mu, r.sigma) for r in locked})
    conn.execute(update(ratings).where(ratings.c.subject == bindparam("s"), ratings.c.family == family)
                 .values(mu=bindparam("new_mu"), sigma=bindparam("new_sigma"), hands=ratings.c.hands + 1),
                 [{"s": s, "new_mu": r.mu, "new_sigma": r.sigma} for s, r in after.items()])
    return after


def settle_hook(bot_levels: Mapping[str, str]) -> SettleHook:
    """What ``Store.settle`` runs in its transaction: :func:`record_hand`, a table's bots rated as the
    strategy of its level in ``bot_levels`` (``ServerConfig.bot_levels``)."""
    def hook(conn: Connection, hand_id: str, record: Mapping[str, Any], deltas: Mapping[int, int],
             now: float) -> None:
        record_hand(conn, hand_id, record, deltas, now, bot_levels)
    return hook


def record_hand(conn: Connection, hand_id: str, record: Mapping[str, Any], deltas: Mapping[int, int],
                now: float, bot_levels: Mapping[str, str]) -> None:
    """In the settlement's transaction: the hand's ``hand_players`` rows and its players' ratings."""
    found = conn.execute(select(hands.c.seats, tables.c.room, tables.c.bot_level)
                         .join(tables, tables.c.id == hands.c.table_id).where(hands.c.id == hand_id)).one()
    seated = [(seat, int(u)) for seat, u in enumerate(found.seats) if u is not None]  # an empty seat: no one to credit
    if not seated:
        return
    kinds = {int(r.id): str(r.kind) for r in conn.execute(select(users.c.id, users.c.kind)
                                                          .where(users.c.id.in_([u for _, u in seated])))}
    by_seat = [int(deltas.get(u, 0)) for _, u in seated]
    family = family_of(record["rules"])
    bot = bot_of(found.bot_level, bot_levels)
    subjects = [subject_of(u, kinds[u], bot) for _, u in seated]
    in_family = _bring_forward(conn, subjects, by_seat, family)
    overall = _bring_forward(conn, subjects, by_seat, OVERALL)
    wins = record["result"]["winners"]
    paid = {(p["payer"], p["reason"]) for p in record["result"]["payments"]}
    rows = []
    for (seat, user_id), subject, delta, place in zip(seated, subjects, by_seat, places(by_seat), strict=True):
        mine = [w for w in wins if w["seat"] == seat]
        rows.append({
            "hand_id": hand_id, "user_id": user_id, "seat": seat, "subject": subject, "family": family,
            "private": found.room == PRIVATE_ROOM, "finished_at": now, "delta": delta, "place": place,
            "wins": len(mine), "self_drawn": sum(1 for w in mine if w["self_drawn"]),
            "dealt_in": sum(1 for w in wins if w["from"] == seat),
            "fan": sum(int(w["total"]) for w in mine), "best_fan": max((int(w["total"]) for w in mine), default=0),
            "jipin": sum(1 for w in mine if w["jipin"]),
            "flower_pig": (seat, "flower_pig") in paid, "chadajiao": (seat, "chadajiao") in paid,
            "fans": [f["id"] for w in mine for f in w["fans"]],
            "mu": in_family[subject].mu, "sigma": in_family[subject].sigma,
            "mu_all": overall[subject].mu, "sigma_all": overall[subject].sigma})
    conn.execute(hand_players.insert(), rows)


def rebuild(conn: Connection, bot_levels: Mapping[str, str]) -> None:
    """Every settled hand's ``hand_players`` rows and its players' ratings made again from the records
    and the ledger, in the order the ledger paid the hands (after a settlement whose figures failed:
    ``chuanma_progression_failures_total``); in one write transaction, no table settling meanwhile."""
    conn.execute(hand_players.delete())
    conn.execute(ratings.delete())
    paid = (select(ledger.c.hand_id, func.min(ledger.c.id).label("first"))
            .where(ledger.c.hand_id.is_not(None), ledger.c.kind.in_(HAND_KINDS)).group_by(ledger.c.hand_id).subquery())
    settled = conn.execute(select(hands.c.id, hands.c.record, hands.c.finished_at)
                           .join(paid, paid.c.hand_id == hands.c.id)
                           .where(hands.c.status == "settled").order_by(paid.c.first)).all()
    for hand in settled:
        deltas = {int(u): int(a) for u, a in conn.execute(select(ledger.c.user_id, ledger.c.amount)
                                                          .where(ledger.c.hand_id == hand.id,
                                                                 ledger.c.kind.in_(HAND_KINDS)))}
        record_hand(conn, hand.id, hand.record, deltas, hand.finished_at, bot_levels)


def visible(hand_id: Any, viewer: int, owner: int, private: Any = None) -> ColumnElement[bool]:
    """Whether ``viewer`` may see the hand ``hand_id`` (a column: a ledger row's, a ``hand_players``
    row's) in the profile of ``owner``: a room's hand, or a private table's they sat at; every hand
    of one's own. No hand (a grant): seen. ``private``: the hand's own flag (``hand_players.private``)
    where the row has one, else looked up from its table."""
    if viewer == owner:
        return true()
    if private is None:
        private = exists(select(hands.c.id).join(tables, tables.c.id == hands.c.table_id)
                         .where(hands.c.id == hand_id, tables.c.room == PRIVATE_ROOM))
    sat = hand_players.alias("sat")
    return or_(~private, exists().where(sat.c.hand_id == hand_id, sat.c.user_id == viewer))


def _won(column: Any) -> Any:
    """Hands in which ``column`` (a count or a flag) is at least one."""
    return func.sum(case((cast(column, Integer) > 0, 1), else_=0))


def _totals(*where: Any) -> Any:
    """A player's figures summed over their ``hand_players`` rows (0 without one)."""
    hp = hand_players.c
    sums = {"wins": func.sum(hp.wins), "won": _won(hp.wins), "zimo": _won(hp.self_drawn),
            "dealt_in": _won(hp.dealt_in), "fan": func.sum(hp.fan), "jipin": func.sum(hp.jipin),
            "flower_pig": _won(hp.flower_pig), "chadajiao": _won(hp.chadajiao), "chips": func.sum(hp.delta)}
    return select(func.count().label("hands"), *(func.coalesce(v, 0).label(k) for k, v in sums.items())).where(*where)


def experiences(conn: Connection, user_ids: Sequence[int]) -> dict[int, int]:
    """The experience of each of ``user_ids`` (0 before their first hand)."""
    hp = hand_players.c
    q = select(hp.user_id, func.count(), func.sum(hp.wins), func.sum(hp.jipin)).where(
        hp.user_id.in_(list(user_ids))).group_by(hp.user_id)
    found = {int(u): experience(int(n), int(w), int(j)) for u, n, w, j in conn.execute(q)}
    return {u: found.get(u, 0) for u in user_ids}


def _rate(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def _rating_json(mu: float, sigma: float) -> dict[str, float]:
    shown = Rating(mu, sigma).shown
    return {"mu": round(mu, 3), "sigma": round(sigma, 3), "rating": round(shown, 3)}


def _ratings_of(conn: Connection, subject: str) -> dict[str, Any]:
    found = {r.family: r for r in conn.execute(select(ratings).where(ratings.c.subject == subject))}
    out: dict[str, Any] = {}
    for family in (OVERALL, *FAMILIES):
        row = found.get(family)
        mu, sigma, played = (row.mu, row.sigma, row.hands) if row is not None else (NEW.mu, NEW.sigma, 0)
        out[family] = {**_rating_json(mu, sigma), "hands": int(played)}
    return out


def _fan_json(fan_id: str, count: int) -> dict[str, Any]:
    known = FANS.get(fan_id)
    return {"id": fan_id, "zh": known.name if known else fan_id, "en": known.en if known else fan_id, "count": count}


def _chips_history(conn: Connection, user_id: int, viewer: int) -> list[dict[str, Any]]:
    """The balance after each of the last :data:`HISTORY` ledger rows of ``user_id`` that ``viewer``
    may see, counting only those (a private table's result stays out of every point)."""
    seen = select(ledger.c.id, ledger.c.at, func.sum(ledger.c.amount).over(order_by=ledger.c.id).label("balance")
                  ).where(ledger.c.user_id == user_id, visible(ledger.c.hand_id, viewer, user_id)).subquery()
    rows = conn.execute(select(seen).order_by(seen.c.id.desc()).limit(HISTORY)).all()
    return [{"at": r.at, "balance": int(r.balance)} for r in reversed(rows)]


def profile(conn: Connection, user: Mapping[str, Any], viewer: int) -> dict[str, Any]:
    """Everything a player's profile shows, from their ``hand_players`` rows, ratings and ledger.
    ``viewer``: who asks; every figure counts only the hands they may see (:func:`visible`), but the
    level (shown at every table) and the current ratings count every hand. Each list is bounded:
    the latest :data:`HISTORY` points, the fans of the latest :data:`FAN_HANDS` winning hands."""
    user_id = int(user["id"])
    hp = hand_players.c
    mine = (hp.user_id == user_id, visible(hp.hand_id, viewer, user_id, hp.private))
    t = conn.execute(_totals(*mine)).one()
    played = int(t.hands)
    fans: Counter[str] = Counter()
    for (ids,) in conn.execute(select(hp.fans).where(*mine, hp.wins > 0)
                               .order_by(hp.finished_at.desc(), hp.hand_id.desc()).limit(FAN_HANDS)):
        fans.update(ids)
    best = conn.execute(select(hp.hand_id, hp.best_fan, hp.delta, hp.family, hp.finished_at)
                        .where(*mine, hp.wins > 0)
                        .order_by(hp.best_fan.desc(), hp.delta.desc(), hp.finished_at.desc()).limit(BEST_HANDS)).all()
    latest = conn.execute(select(hp.subject).where(hp.user_id == user_id)
                          .order_by(hp.finished_at.desc(), hp.hand_id.desc()).limit(1)).scalar()
    subject = str(latest) if latest is not None else f"user:{user_id}"  # a bot account: the strategy it last played
    history = conn.execute(select(hp.finished_at, hp.family, hp.mu_all, hp.sigma_all).where(*mine)
                           .order_by(hp.finished_at.desc(), hp.hand_id.desc()).limit(HISTORY)).all()
    every = conn.execute(select(func.count(), func.coalesce(func.sum(hp.wins), 0), func.coalesce(func.sum(hp.jipin), 0))
                         .where(hp.user_id == user_id)).one()
    return {
        "user": {"id": user_id, "username": user["username"], "kind": user["kind"], "bot": strategy_of(subject)},
        "level": level_json(experience(*(int(x) for x in every))),
        "hands": played, "wins": int(t.wins), "win_rate": _rate(int(t.won), played),
        "self_draw_rate": _rate(int(t.zimo), played), "deal_in_rate": _rate(int(t.dealt_in), played),
        "average_fan": round(int(t.fan) / int(t.wins), 3) if int(t.wins) else 0.0,
        "jipin": int(t.jipin), "flower_pig": int(t.flower_pig), "chadajiao": int(t.chadajiao),
        "chips_won": int(t.chips),
        "common_fans": [_fan_json(f, n) for f, n in sorted(fans.items(), key=lambda x: (-x[1], x[0]))[:COMMON_FANS]],
        "best_hands": [{"hand_id": r.hand_id, "fan": int(r.best_fan), "chips": int(r.delta), "family": r.family,
                        "at": r.finished_at, "replay": f"/replay/{r.hand_id}"} for r in best],
        "ratings": _ratings_of(conn, subject),
        "rating_history": [{"at": r.finished_at, "family": r.family, **_rating_json(r.mu_all, r.sigma_all)}
                           for r in reversed(history)],
        "chips_history": _chips_history(conn, user_id, viewer),
    }


WEEK = 7 * 86_400.0
PERIODS = {"week": WEEK, "all": None}
"""The leaderboards' periods: the last seven days, or all time (seconds back, ``None``: no limit)."""


def _bots(conn: Connection, family: str) -> list[dict[str, Any]]:
    """Each bot strategy's rating in ``family``: its accounts' ratings pooled (``mu`` and ``sigma``
    weighted by each account's hands), with the hands its accounts played; the best first."""
    pooled: dict[str, list[float]] = {}
    for r in conn.execute(select(ratings).where(ratings.c.family == family, ratings.c.subject.startswith(BOT),
                                                ratings.c.hands > 0)):
        strategy = strategy_of(r.subject)
        assert strategy is not None
        hands_mu_sigma = pooled.setdefault(strategy, [0, 0.0, 0.0])
        hands_mu_sigma[0] += r.hands
        hands_mu_sigma[1] += r.hands * r.mu
        hands_mu_sigma[2] += r.hands * r.sigma
    bots = [{"bot": b, "hands": int(n), **_rating_json(mu / n, sigma / n)} for b, (n, mu, sigma) in pooled.items()]
    return sorted(bots, key=lambda b: (-b["rating"], b["bot"]))


def leaderboard(conn: Connection, family: str, period: str, min_hands: int, now: float,
                limit: int) -> dict[str, Any]:
    """The first ``limit`` registered players with at least ``min_hands`` hands in ``family`` (or
    :data:`OVERALL`) in ``period``, best rating first (the rating now, in that family), with the
    period's hands and chips; and every bot strategy's rating there, to measure oneself against.
    The database sums, ranks and cuts: ``limit`` rows come back, whatever the players' hands."""
    hp = hand_players.c
    where = []
    if family != OVERALL:
        where.append(hp.family == family)
    back = PERIODS[period]
    if back is not None:
        where.append(hp.finished_at >= now - back)
    period_rows = (select(hp.user_id, func.count().label("hands"), func.sum(hp.delta).label("chips"))
                   .where(*where).group_by(hp.user_id).having(func.count() >= min_hands).subquery())
    mu, sigma = func.coalesce(ratings.c.mu, NEW.mu), func.coalesce(ratings.c.sigma, NEW.sigma)
    shown = mu - 3 * sigma
    q = (select(users.c.id, users.c.username, period_rows.c.hands, period_rows.c.chips,
                mu.label("mu"), sigma.label("sigma"))
         .join(period_rows, period_rows.c.user_id == users.c.id)
         .outerjoin(ratings, and_(ratings.c.subject == literal("user:") + cast(users.c.id, String),
                                  ratings.c.family == family))
         .where(users.c.kind == "player")
         .order_by(shown.desc(), period_rows.c.hands.desc(), users.c.username).limit(limit))
    found = conn.execute(q).all()
    xp = experiences(conn, [int(r.id) for r in found])
    return {"family": family, "period": period, "min_hands": min_hands,
            "players": [{"rank": i + 1, "username": r.username, "hands": int(r.hands), "chips": int(r.chips),
                         "level": level_json(xp[int(r.id)]), **_rating_json(r.mu, r.sigma)}
                        for i, r in enumerate(found)],
            "bots": _bots(conn, family)}


def levels_by_name(conn: Connection, names: Sequence[str]) -> dict[str, dict[str, object]]:
    """The level of each account named in ``names`` (names as stored; unknown names left out)."""
    found = conn.execute(select(users.c.id, users.c.username).where(users.c.username.in_(list(names)))).all()
    xp = experiences(conn, [int(r.id) for r in found])
    return {r.username: level_json(xp[int(r.id)]) for r in found}
