"""The dealer keys a database admits: one key per cluster, and a key's life.

Every server (a single process or a node of a cluster) is admitted at its start (:func:`admit`): on
a database no key dealt on yet, its key becomes the first; otherwise its key must be one of the
database's keys, not retired, or it refuses to start in one line naming both keys. A rotation adds
the new key (:func:`add`, ``chuanma admin keys add``), restarts the nodes one by one with it (a hand
dealt by the old key stays with the nodes that hold it) and retires the old one
(:func:`retire`) once no unfinished hand names it. Retired keys stay published with their dates
(``GET /api/fairness/keys``): every old record names the key that signed it and verifies against it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, select, text, update

from chuanma.errors import ChuanmaError
from chuanma.fairness import VRFKey
from chuanma.fairness.keys import signing_key_of
from chuanma.server.schema import dealer_keys, hands
from chuanma.server.store import Store, Work

UNFINISHED = ("collecting", "playing")
"""The statuses of a hand not yet settled or voided: its dealer key must stay admitted."""
ADVISORY_LOCK = 0x636875616E6D61
"""PostgreSQL's advisory lock taken by an admission: two servers starting at once on a new
database admit one first key, not two."""


class DealerKeyRefused(ChuanmaError):
    """A server's dealer key is not among the database's keys (or is retired), or a change of the
    keys is refused; the message is one line for the operator."""


@dataclass(frozen=True, slots=True)
class KeyRow:
    """One of a database's dealer keys: its VRF and signing public keys (hex), when it was added
    and when retired (None: it deals)."""

    public_key: str
    signing_key: str | None
    added: float
    retired: float | None

    def to_json(self) -> dict[str, Any]:
        return {"vrf_public_key": self.public_key, "public_key": self.signing_key, "added": self.added,
                "retired": self.retired}


def short(public_key: str) -> str:
    """A key's id as the messages show it: its first 16 hex digits."""
    return public_key[:16]


def rows(conn: Connection) -> list[KeyRow]:
    """The database's dealer keys, oldest first."""
    found = conn.execute(select(dealer_keys).order_by(dealer_keys.c.added, dealer_keys.c.public_key)).all()
    return [KeyRow(r.public_key, r.signing_key, float(r.added), r.retired) for r in found]


def lock_keys(conn: Connection) -> None:
    """On PostgreSQL, wait for any other change of the keys in flight (SQLite writes one at a time)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": ADVISORY_LOCK})


def admission(key: VRFKey, now: float) -> Work[None]:
    """The work admitting a server dealing with ``key``, raising :class:`DealerKeyRefused` (nothing
    written): ``open_store``'s ``then``, so that a refused server leaves the schema unmigrated."""
    public, signing = key.public_key.hex(), signing_key_of(key).public_key.hex()

    def work(conn: Connection) -> None:
        lock_keys(conn)
        known = rows(conn)
        mine = next((k for k in known if k.public_key == public), None)
        if not known:
            conn.execute(dealer_keys.insert().values(public_key=public, signing_key=signing, added=now))
            return
        dealing = [short(k.public_key) for k in known if k.retired is None]
        if mine is None:
            raise DealerKeyRefused(
                f"this server's dealer key {short(public)} is not the database's ({', '.join(dealing) or 'none'}): "
                f"start it with the cluster's key, or add this one first (chuanma admin keys add)")
        if mine.retired is not None:
            raise DealerKeyRefused(
                f"this server's dealer key {short(public)} was retired; the database deals with "
                f"{', '.join(dealing) or 'none'}: start it with one of those")
        if mine.signing_key is None:  # a key admitted from the hands it dealt (migration 0012)
            conn.execute(update(dealer_keys).where(dealer_keys.c.public_key == public).values(signing_key=signing))
    return work


async def add(store: Store, key: VRFKey, now: float) -> bool:
    """Admit ``key`` beside the database's keys (the first step of a rotation); whether it was new.
    A retired key is not brought back (:class:`DealerKeyRefused`)."""
    public = key.public_key.hex()

    def work(conn: Connection) -> bool:
        lock_keys(conn)
        known = {k.public_key: k for k in rows(conn)}
        if public in known:
            if known[public].retired is not None:
                raise DealerKeyRefused(f"the dealer key {short(public)} was retired: make a new one")
            return False
        conn.execute(dealer_keys.insert().values(public_key=public, signing_key=signing_key_of(key).public_key.hex(),
                                                 added=now))
        return True
    return await store.runner.write(work)


async def retire(store: Store, public_key: str, now: float) -> KeyRow:
    """Retire the key whose VRF public key is or starts with ``public_key`` (hex): no server may deal
    with it again. Refused while an unfinished hand was dealt by it, or if it is the last key that deals."""
    prefix = public_key.strip().lower()

    def work(conn: Connection) -> KeyRow:
        lock_keys(conn)
        known = rows(conn)
        found = [k for k in known if k.public_key.startswith(prefix)] if prefix else []
        if len(found) != 1:
            raise DealerKeyRefused(f"{public_key!r} names {'no' if not found else 'more than one'} dealer key "
                                   f"of this database ({', '.join(short(k.public_key) for k in known) or 'none'})")
        key = found[0]
        if key.retired is not None:
            raise DealerKeyRefused(f"the dealer key {short(key.public_key)} is retired already")
        if not [k for k in known if k.retired is None and k is not key]:
            raise DealerKeyRefused(f"the dealer key {short(key.public_key)} is the only one that deals: add its "
                                   "successor first (chuanma admin keys add)")
        playing = conn.execute(select(func.count()).select_from(hands).where(
            hands.c.public_key == key.public_key, hands.c.status.in_(UNFINISHED))).scalar_one()
        if playing:
            raise DealerKeyRefused(f"{playing} unfinished hand(s) were dealt by the dealer key "
                                   f"{short(key.public_key)}: retire it once they end (nodes holding it finish them)")
        conn.execute(update(dealer_keys).where(dealer_keys.c.public_key == key.public_key).values(retired=now))
        return KeyRow(key.public_key, key.signing_key, key.added, now)
    return await store.runner.write(work)


async def published(store: Store) -> list[KeyRow]:
    """Every key of the database, retired ones included, oldest first."""
    return await store.read(rows)
