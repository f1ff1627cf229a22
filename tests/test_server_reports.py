"""Players' reports (举报): filed by registered players only, checked and limited (nothing stored
when refused), handled by moderators and operators through the API or the command line, each
handling in the operator log, and shown on the reported player's page."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import func, select
from typer.testing import CliRunner

from chuanma.cli import app as cli
from chuanma.server.clock import ManualClock
from chuanma.server.moderation import Moderation
from chuanma.server.reports import PER_DAY, Reports
from chuanma.server.schema import reports
from chuanma.server.store import Store, open_store
from server_harness import TIMEOUT, account, db_url, make_config, pg_database, running
from test_server_accounts_kept import settled_hand
from test_server_moderation import bearer

__all__ = ["db_url", "pg_database"]


async def stored(store: Store) -> int:
    return int(await store.read(lambda conn: conn.execute(select(func.count()).select_from(reports)).scalar_one()))


def test_a_report_is_filed_by_a_registered_player_once_within_its_limits_and_handled_by_staff(db_url: str) -> None:
    async def scenario() -> None:
        async with running(make_config(db_url)) as run:
            store = run.server.store
            reporter, target = await account(run.base, "Reporter"), await account(run.base, "Target")
            guest, mod = await account(run.base), await account(run.base, "Moder")
            await Moderation(store, run.clock).set_role(mod["user"]["id"], "moderator")
            hand = await settled_hand(store, target["user"]["id"], guest["user"]["id"], run.clock.now())
            async with httpx.AsyncClient(base_url=run.base, timeout=TIMEOUT) as http:
                async def post(token: str | None, **body: Any) -> httpx.Response:
                    return await http.post("/api/reports", json=body, headers=bearer(token) if token else {})
                me = reporter["token"]
                good = {"player": "target", "reason": "collusion", "hand_id": hand, "text": "they signal"}
                refused = [
                    (await post(None, **good), 401, "not_logged_in"),
                    (await post(guest["token"], **good), 403, "not_registered"),
                    (await post(me, **{**good, "reason": "ugly"}), 400, "bad_reason"),
                    (await post(me, **{**good, "text": "x" * 501}), 400, "bad_request"),
                    (await post(me, **{**good, "extra": 1}), 400, "bad_request"),
                    (await post(me, **{**good, "player": "Reporter"}), 400, "self_report"),
                    (await post(me, **{**good, "player": "Nobody"}), 404, "no_player"),
                    (await post(me, **{**good, "hand_id": "nohand"}), 404, "no_hand"),
                    (await post(me, **{**good, "player": mod["user"]["id"], "hand_id": hand}), 404, "no_hand")]
                for r, status, code in refused:
                    assert (r.status_code, r.json()["code"]) == (status, code), r.text
                assert await stored(store) == 0
                r = await post(me, **good)
                assert r.status_code == 201 and r.json()["report"]["player"] == target["user"]["id"], r.text
                first = r.json()["report"]["id"]
                again = await post(me, **{**good, "player": target["user"]["id"], "reason": "cheating"})
                assert (again.status_code, again.json()["code"]) == (409, "already_reported")
                assert (await post(me, player="Target", reason="abuse")).status_code == 201  # no hand: another
                for _ in range(PER_DAY - 2):  # guests may be reported; a day holds PER_DAY reports in all
                    other = await account(run.base)
                    assert (await post(me, player=other["user"]["id"], reason="bot")).status_code == 201
                over = await post(me, player=guest["user"]["id"], reason="bot")
                assert (over.status_code, over.json()["code"]) == (429, "too_many_reports")
                assert await stored(store) == PER_DAY

                # staff: the queue, handling, the log and the player's page
                queue, one = "/api/admin/reports?status=open", f"/api/admin/reports/{first}"
                handling = {"status": "dismissed", "note": "watched the replay: nothing"}
                for headers, status in (({}, 401), (bearer(me), 403), (bearer(guest["token"]), 403)):
                    assert (await http.get(queue, headers=headers)).status_code == status
                    assert (await http.post(one, json=handling, headers=headers)).status_code == status
                staff = bearer(mod["token"])
                listed = (await http.get(queue, headers=staff)).json()
                assert [r["id"] for r in listed][:1] == [first] and len(listed) == PER_DAY
                assert listed[0]["reporter_name"] == "Reporter" and listed[0]["text"] == "they signal"
                for body, code in (({**handling, "status": "open"}, "bad_status"), ({**handling, "note": " "},
                                                                                     "bad_reason")):
                    r = await http.post(one, json=body, headers=staff)
                    assert (r.status_code, r.json()["code"]) == (400, code)
                assert (await http.get("/api/admin/reports?status=lost", headers=staff)).status_code == 400
                assert (await http.post("/api/admin/reports/999", json=handling, headers=staff)).status_code == 404
                r = await http.post(one, json=handling, headers=staff)
                assert r.status_code == 200 and r.json()["report"]["status"] == "dismissed", r.text
                assert (await http.post(one, json=handling, headers=staff)).json()["code"] == "already_handled"
                assert len((await http.get(queue, headers=staff)).json()) == PER_DAY - 1
                page = (await http.get(f"/api/admin/players/{target['user']['id']}", headers=staff)).json()
                assert [(r["status"], r["handled_by_name"]) for r in page["reports"]] == [
                    ("open", None), ("dismissed", "Moder")] and page["flags"] == []
                log = await Moderation(store, run.clock).log(5)
                assert (log[0]["action"], log[0]["actor_name"], log[0]["target"], log[0]["reason"]) == (
                    "report", "Moder", target["user"]["id"], handling["note"])
    asyncio.run(scenario())


def _cli(*args: str) -> Any:
    return CliRunner().invoke(cli, ["admin", *args], env={"COLUMNS": "250"})


def test_the_command_line_lists_the_queue_and_dismisses_or_actions_a_report(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'chuanma.db'}"

    async def setup() -> int:
        store = await open_store(url)
        try:
            ids = [await store.create_user(name, None, "player", 1000, 0.0) for name in ("Ann", "Bob")]
            ann = await store.user(ids[0] or 0)
            assert ann is not None
            row = await Reports(Moderation(store, ManualClock())).file(ann, "bob", None, "abuse", "rude in chat")
            return int(row["id"])
        finally:
            await store.close()
    report_id = asyncio.run(setup())
    listed = _cli("reports", "--db", url)
    assert listed.exit_code == 0 and "rude in chat" in listed.output and "Ann" in listed.output
    both = _cli("report", str(report_id), "--dismiss", "--action", "--note", "x", "--db", url)
    assert both.exit_code == 2 and "give one of --dismiss and --action" in both.output
    missing = _cli("report", "99", "--action", "--note", "x", "--db", url)
    assert missing.exit_code == 1 and "no report #99" in missing.output and "Traceback" not in missing.output
    done = _cli("report", str(report_id), "--action", "--note", "banned a week", "--db", url)
    assert done.exit_code == 0 and done.output.strip() == f"report #{report_id}: actioned"
    assert "rude in chat" not in _cli("reports", "--db", url).output
    assert "banned a week" in _cli("reports", "--status", "actioned", "--db", url).output
    assert _cli("reports", "--status", "lost", "--db", url).exit_code == 1
    assert "banned a week" in _cli("log", "--db", url).output and "rude in chat" in _cli("player", "bob", "--db",
                                                                                          url).output
