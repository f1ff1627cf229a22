"""The dealer's key at the server: it deals every hand by the VRF, signs every stored record, is
published at ``/api/fairness/key`` and never leaves the server; a resumed hand deals the same wall."""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import os
import stat
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select, update
from typer.testing import CliRunner

from chuanma.cli import app as cli
from chuanma.fairness import (
    SCHEME_HMAC,
    SCHEME_VRF,
    KeyFileError,
    Level,
    VRFKey,
    commitment,
    derive_deal,
    generate_key,
    join_client_seeds,
    verify_record,
)
from chuanma.fairness.chain import verify_records
from chuanma.fairness.keys import signing_key_of
from chuanma.server.app import create_app
from chuanma.server.dealer import KEY_FILE, DealerKeyError, dealer_key
from chuanma.server.dealer_keys import DealerKeyRefused, add
from chuanma.server.schema import hands
from chuanma.server.store import open_store, sqlite_url
from chuanma.tiles import SICHUAN_TILES
from server_harness import (
    DEALER_KEY,
    TIMEOUT,
    db_url,
    deal,
    make_config,
    pg_database,
    play_hands,
    running,
    seat_four,
)

__all__ = ["db_url", "pg_database"]
OTHER_KEY = VRFKey(bytes(range(50, 82)))


def _tampered(record: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The record with its stake, a payment (or, with none, a delta) and a decision changed."""
    out = {name: copy.deepcopy(record) for name in ("base", "payment", "decision")}
    out["base"]["base"] = 1000
    payments = out["payment"]["result"]["payments"]
    if payments:
        payments[0]["amount"] += 1
    else:
        out["payment"]["result"]["deltas"][0] += 1
    del out["decision"]["decisions"][-1]
    return out


def test_records_are_dealt_by_the_vrf_signed_and_the_key_stays_secret(db_url: str,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    secret = DEALER_KEY.secret.hex()

    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            clients = await seat_four(run)
            ends = await play_hands(clients, 2)
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT, verify=False) as http:
                key = (await http.get("/api/fairness/key")).json()
                auth = {"authorization": f"Bearer {clients[0].token}"}
                records = [(await http.get(end[0]["record"], headers=auth)).json() for end in ends]
            signer = signing_key_of(DEALER_KEY)
            assert key["public_key"] == signer.public_key.hex() != DEALER_KEY.public_key.hex()
            assert key["vrf_public_key"] == DEALER_KEY.public_key.hex()
            public = bytes.fromhex(key["public_key"])
            verdicts = verify_records(records, public_key=public, vrf_public_key=DEALER_KEY.public_key)
            assert [v.level for v in verdicts] == [Level.VERIFIED] * 2, [v.summary for v in verdicts]
            assert all(r["seeds"]["public_key"] == key["vrf_public_key"] for r in records)
            assert all(r["signature"]["public_key"] == key["public_key"] for r in records)
            for name, changed in _tampered(records[0]).items():
                verdict = verify_record(changed, public_key=public)
                assert verdict.level is Level.FAILED and not verdict["signature"].passed, name
            rows = await run.server.store.read(lambda conn: [dict(r._mapping) for r in conn.execute(select(hands))])
            assert {r["public_key"] for r in rows} == {key["vrf_public_key"]}
            assert {r["server_seed"] for r in rows} == {""}
            seen = json.dumps([c.seen for c in clients])
            for hidden in (secret, signer.secret.hex()):
                assert hidden not in seen + json.dumps(rows, default=str) + json.dumps(key)
            logged = "\n".join(r.getMessage() + repr(r.__dict__) for r in caplog.records)
            assert "hand settled" in logged and secret not in logged
            for c in clients:
                await c.close()
    with caplog.at_level(logging.DEBUG):
        asyncio.run(scenario())


def test_a_resumed_hand_deals_the_same_wall_and_another_key_is_refused(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            clients = await seat_four(run)
            await deal(clients)
            table = clients[0].table
            assert table is not None
            wall = list(run.server.host.tables[table].game.wall)
            for c in clients:
                await c.close()
        refused = create_app(make_config(db_url, dealer_key=OTHER_KEY))
        with pytest.raises(DealerKeyRefused, match=f"dealer key {OTHER_KEY.public_key.hex()[:16]} is not the "
                                                   f"database's \\({DEALER_KEY.public_key.hex()[:16]}\\)"):
            async with refused.router.lifespan_context(refused):
                pass
        store = await open_store(db_url)  # admitted (a rotation's first step), it still cannot deal the hand in play
        try:
            assert await add(store, OTHER_KEY, 0.0)
        finally:
            await store.close()
        with pytest.raises(DealerKeyError, match="opened with the dealer key"):
            async with refused.router.lifespan_context(refused):
                pass
        async with running(make_config(db_url)) as run:
            resumed = run.server.host.tables[table]
            assert resumed.game is not None and list(resumed.game.wall) == wall
    asyncio.run(scenario())


def test_a_hand_opened_before_the_server_had_a_key_resumes_from_its_server_seed(db_url: str) -> None:
    """A hand stored by an older server (a server seed and its commitment, no public key) is dealt
    again from that seed after the upgrade."""
    server_seed = bytes(range(32))

    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            clients = await seat_four(run)
            await deal(clients)
            table = clients[0].table
            store = run.server.store
            await store.write(lambda conn: conn.execute(update(hands).where(hands.c.table_id == table).values(
                public_key=None, server_seed=server_seed.hex(), commitment=commitment(server_seed))))
            for c in clients:
                await c.close()
        async with running(make_config(db_url)) as run:
            resumed = run.server.host.tables[table]
            row = await run.server.store.last_hand(table)
            assert resumed.fair is not None and resumed.fair.scheme == SCHEME_HMAC and resumed.game is not None
            want = derive_deal(server_seed, join_client_seeds(row["client_seeds"]), 0, SICHUAN_TILES)
            assert list(resumed.game.wall) == list(want.wall)
    asyncio.run(scenario())


def test_the_key_file_is_created_once_with_mode_0600(tmp_path: Path) -> None:
    first = dealer_key(None, tmp_path)
    path = tmp_path / KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert dealer_key(None, tmp_path).secret == first.secret
    given = tmp_path / "given.key"
    given.write_text(OTHER_KEY.secret.hex() + "\n")
    given.chmod(0o600)
    assert dealer_key(given, tmp_path).secret == OTHER_KEY.secret
    with pytest.raises(KeyFileError, match="no key file"):
        dealer_key(tmp_path / "missing.key", tmp_path)
    assert dealer_key(None, None).secret != generate_key().secret  # a fresh key, without a data directory


def test_a_key_file_made_before_the_signing_key_was_split_off_keeps_dealing_and_signs_apart(tmp_path: Path) -> None:
    """An existing ``dealer.key`` (one secret) is still the VRF key, so the hands it opened resume
    and its published VRF key is unchanged; records are signed by the key derived from it."""
    (tmp_path / KEY_FILE).write_text(OTHER_KEY.secret.hex() + "\n")
    (tmp_path / KEY_FILE).chmod(0o600)
    app = create_app(make_config(sqlite_url(tmp_path), data_dir=tmp_path, dealer_key=None))

    async def published() -> dict[str, str]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            answer: dict[str, str] = (await http.get("/api/fairness/key")).json()
            return answer
    key = asyncio.run(published())
    assert key["vrf_public_key"] == OTHER_KEY.public_key.hex()
    assert key["public_key"] == signing_key_of(OTHER_KEY).public_key.hex() != key["vrf_public_key"]
    assert key["vrf"] == SCHEME_VRF and key["signature"] == "ed25519"


def test_the_key_file_is_never_created_through_a_symbolic_link(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    target = tmp_path / "elsewhere.key"
    os.symlink(target, data / KEY_FILE)
    with pytest.raises(KeyFileError):
        dealer_key(None, data)
    assert not target.exists()


def test_serve_refuses_a_key_it_cannot_read_in_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["serve", "--data", str(tmp_path), "--key", str(tmp_path / "none.key")])
    assert result.exit_code == 2 and "dealer key: no key file at" in result.output
    assert not (tmp_path / KEY_FILE).exists()  # a key given is never replaced by a new one
