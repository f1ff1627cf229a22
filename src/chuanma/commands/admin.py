"""``chuanma admin``: moderation on the server's database (docs/operations.md, Operating the community);
the dealer keys and a copy of a cluster's database (:mod:`chuanma.commands.admin_keys`); the
cluster's nodes and their drains (:mod:`chuanma.commands.admin_nodes`).

Each command calls the same service as the API's ``/api/admin/*`` routes
(:class:`~chuanma.server.moderation.Moderation`), logged as the command line's. Only here are roles
granted. A ban made here holds for every login and join and revokes the player's tokens at once;
a running server closes their sockets at its next look for bans (``host.BAN_WATCH``).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.table import Table

from chuanma.commands.admin_keys import keys_app, new_cluster_command
from chuanma.commands.admin_nodes import drain_command, nodes_command
from chuanma.commands.admin_rooms import announce_command, maintenance_app, rooms_app
from chuanma.commands.database import DATA, Data, Db, on_database, run
from chuanma.server.bans import ban_words, when
from chuanma.server.clock import SystemClock
from chuanma.server.deletions import apply_tombstones, tombstones
from chuanma.server.detectors import SCAN_DAYS, flags_of, scan_and_keep
from chuanma.server.moderation import CONSOLE, ROLES, Moderation
from chuanma.server.notes import Notes
from chuanma.server.reports import HANDLED, STATUSES, Reports
from chuanma.server.resets import PAGE

admin_app = typer.Typer(help="An operator's commands on a server's database: roles, bans, chip adjustments, "
                             "renames, password-reset links, players and notes on them, live tables, the operator "
                             "log, players' reports, the abuse scan, deleted accounts, voided hands; the rooms, "
                             "announcements and maintenance; the dealer keys; a restored copy made a cluster.",
                        no_args_is_help=True)
admin_app.add_typer(keys_app, name="keys")
admin_app.command("new-cluster")(new_cluster_command)
admin_app.command("nodes")(nodes_command)
admin_app.command("drain")(drain_command)
admin_app.add_typer(rooms_app, name="rooms")
admin_app.add_typer(maintenance_app, name="maintenance")
admin_app.command("announce")(announce_command)
T = TypeVar("T")
Reason = Annotated[str, typer.Option(help="why (written to the operator log)")]
Who = Annotated[str, typer.Argument(help="the player's name (any case) or id")]


def table(title: str, columns: list[str], rows: list[list[Any]]) -> None:
    out = Table(title=title)
    for column in columns:
        out.add_column(column)
    for row in rows:
        out.add_row(*("" if v is None else str(v) for v in row))
    Console().print(out)


@admin_app.command()
def role(who: Who, new_role: Annotated[str, typer.Argument(metavar="ROLE", help=", ".join(ROLES))],
         reason: Reason = "role granted", db: Db = None, data: Data = DATA) -> None:
    """Give a registered account a role: player, moderator or operator (only here, never by the API)."""
    async def work(m: Moderation) -> dict[str, Any]:
        return await m.set_role(int((await m.find(who))["id"]), new_role, reason)
    row = run(db, data, work)
    typer.echo(f"{row['username']} (#{row['id']}): role {row['role']}")


@admin_app.command()
def ban(who: Who, reason: Reason, duration: Annotated[str | None, typer.Option(
            "--for", help="how long: 30m, 12h, 7d, 2w (default: for good)")] = None,
        db: Db = None, data: Data = DATA) -> None:
    """Ban a player (for a time or for good): no login, no table; their tokens are revoked."""
    async def work(m: Moderation) -> dict[str, Any]:
        return await m.ban(CONSOLE, int((await m.find(who))["id"]), reason, duration)
    typer.echo(ban_words(run(db, data, work)))


@admin_app.command()
def unban(who: Who, reason: Reason, db: Db = None, data: Data = DATA) -> None:
    """Lift a player's ban."""
    async def work(m: Moderation) -> dict[str, Any]:
        return await m.unban(CONSOLE, int((await m.find(who))["id"]), reason)
    typer.echo(f"ban #{run(db, data, work)['id']} lifted")


@admin_app.command()
def adjust(who: Who, amount: Annotated[int, typer.Argument(help="chips to give (below zero: to take)")],
           reason: Reason, hand: Annotated[str | None, typer.Option(help="the hand it is about (its id)")] = None,
           db: Db = None, data: Data = DATA) -> None:
    """Give or take chips (a refund, a compensation, a removal): a ledger row of its own; never below zero."""
    async def work(m: Moderation) -> int:
        return await m.adjust(CONSOLE, int((await m.find(who))["id"]), amount, reason, hand)
    typer.echo(f"balance now {run(db, data, work):,}")


@admin_app.command()
def rename(who: Who, new_name: Annotated[str, typer.Argument(metavar="NEW_NAME")], reason: Reason,
           db: Db = None, data: Data = DATA) -> None:
    """Rename a player (the new name must be valid and free, as at registration)."""
    async def work(m: Moderation) -> dict[str, Any]:
        return await m.rename(CONSOLE, int((await m.find(who))["id"]), new_name, reason)
    row = run(db, data, work)
    typer.echo(f"#{row['id']} is now {row['username']}")


@admin_app.command()
def void(hand: Annotated[str, typer.Argument(help="the hand's id")], reason: Reason,
         db: Db = None, data: Data = DATA) -> None:
    """Void a hand not settled, at a table no server runs (the server stopped): no chips move, the
    hand is kept void and its table closes. A running server's hand: the console (/admin)."""
    done = run(db, data, lambda m: m.void(CONSOLE, hand, reason))
    typer.echo(f"hand {done['hand']} void; table {done['table']} closed")


@admin_app.command("reset-link")
def reset_link(who: Who, reason: Reason = "password reset asked for",
               url: Annotated[str | None, typer.Option(
                   envvar="CHUANMA_PUBLIC_URL", help="the server's address as players reach it, e.g. "
                                                     "https://example.com (default: the link's path only)")] = None,
               db: Db = None, data: Data = DATA) -> None:
    """A one-time link (for a day) setting a new password for a player: hand it to them yourself."""
    async def work(m: Moderation) -> str:
        link = await m.reset_link(CONSOLE, int((await m.find(who))["id"]), reason)
        return link.url(url or "")
    link = run(db, data, work)
    typer.echo(link if url else f"{link}  (put the server's address before {PAGE}, or give --url)")


@admin_app.command("deletions")
def deletions_command(out: Annotated[Path | None, typer.Option(
                          "--out", help="write the list to this file (default: print it)")] = None,
                      db: Db = None, data: Data = DATA) -> None:
    """The deleted accounts (tombstones) as JSON: keep it to apply again after a restore."""
    rows = on_database(db, data, lambda store: store.read(tombstones))
    text = json.dumps({"deletions": rows}, indent=1)
    if out is None:
        typer.echo(text)
        return
    out.write_text(text + "\n")
    typer.echo(f"{len(rows)} deletions written to {out}")


@admin_app.command("apply-deletions")
def apply_deletions(source: Annotated[Path, typer.Option(
                        "--from", help="a list of chuanma admin deletions --out")],
                    db: Db = None, data: Data = DATA) -> None:
    """Delete again the accounts of a deletions list that a database restored from an older copy
    still holds (with the server stopped)."""
    try:
        rows = json.loads(source.read_text())["deletions"]
        listed = [{"user_id": int(r["user_id"]), "created_at": float(r["created_at"]),
                   "deleted_at": float(r["deleted_at"])} for r in rows]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        typer.echo(f"chuanma admin: --from {source}: not a deletions list ({type(exc).__name__}: {exc})", err=True)
        raise typer.Exit(1) from None
    again = on_database(db, data, lambda store: store.write(lambda conn: apply_tombstones(conn, listed)))
    typer.echo(f"{len(again)} of {len(listed)} deleted accounts deleted again"
               + (f": {', '.join(f'#{i}' for i in again)}" if again else ""))


@admin_app.command()
def players(query: Annotated[str, typer.Argument(help="the start of a name, or an id")],
            db: Db = None, data: Data = DATA) -> None:
    """Find players by the start of their name, or by id."""
    found = run(db, data, lambda m: m.search(query))
    table(f"players: {query}", ["id", "name", "kind", "role", "balance", "ban"],
          [[r["id"], r["username"], r["kind"], r["role"], f"{r['balance']:,}", r["ban"] and r["ban"]["words"]]
           for r in found])


@admin_app.command()
def player(who: Who, db: Db = None, data: Data = DATA) -> None:
    """A player's account, role, ban, balance, last ledger rows and hands, reports about them and flags."""
    async def work(m: Moderation) -> dict[str, Any]:
        user_id = int((await m.find(who))["id"])
        return {**await m.player(user_id), "reports": await Reports(m).about(user_id),
                "flags": await flags_of(m.store, user_id), "notes": await Notes(m).about(user_id)}
    page = run(db, data, work)
    acc = page["account"]
    typer.echo(f"{acc['username']} (#{acc['id']}): {acc['kind']}, {acc['role']}, since {when(acc['created_at'])}; "
               f"balance {page['balance']:,}; " + (page["ban"]["words"] if page["ban"] else "not banned"))
    table("ledger", ["at", "kind", "amount", "hand"],
          [[when(r["at"]), r["kind"], f"{r['amount']:+,}", r["hand_id"]] for r in page["ledger"]])
    table("hands", ["finished", "hand", "table", "number", "result"],
          [[when(r["finished_at"]), r["id"], r["table_id"], r["number"], f"{r['amount']:+,}"] for r in page["hands"]])
    report_table("reports about them", page["reports"])
    for flag in page["flags"]:
        typer.echo(f"flag of {when(flag['at'])}: {flag_words(flag)}")
    for note in page["notes"]:
        typer.echo(f"note of {when(note['at'])} by {note['by_name'] or CONSOLE.name}: {note['text']}")


@admin_app.command()
def note(who: Who, text: Annotated[str, typer.Argument(help="the note (shown on their page, logged)")],
         db: Db = None, data: Data = DATA) -> None:
    """Write a staff note on a player (a warning given, an appeal heard): shown on their page."""
    async def work(m: Moderation) -> dict[str, Any]:
        return await Notes(m).add(CONSOLE, int((await m.find(who))["id"]), text)
    typer.echo(f"note #{run(db, data, work)['id']} written")


def report_table(title: str, rows: list[dict[str, Any]]) -> None:
    table(title, ["id", "at", "by", "player", "hand", "reason", "text", "status", "handled by", "note"],
          [[r["id"], when(r["at"]), r["reporter_name"], r["player_name"], r["hand_id"], r["reason"], r["text"],
            r["status"], r["handled_by_name"] or (r["handled_at"] and CONSOLE.name), r["note"]] for r in rows])


@admin_app.command("reports")
def reports_command(status: Annotated[str, typer.Option(help=f"{', '.join(STATUSES)} or all")] = "open",
                    db: Db = None, data: Data = DATA) -> None:
    """Players' reports (举报) of this status, oldest first: the queue to work through."""
    report_table(f"reports: {status}", run(db, data, lambda m: Reports(m).listed(status)))


@admin_app.command("report")
def report_command(report_id: Annotated[int, typer.Argument(metavar="ID", help="the report's id")],
                   note: Annotated[str, typer.Option(help="what was found or done (written to the operator log)")],
                   dismiss: Annotated[bool, typer.Option("--dismiss", help="nothing to act on")] = False,
                   action: Annotated[bool, typer.Option("--action", help="acted on (a ban, an adjustment…)")] = False,
                   db: Db = None, data: Data = DATA) -> None:
    """Dismiss or action an open report, with a note."""
    if dismiss == action:
        raise typer.BadParameter("give one of --dismiss and --action")
    status = HANDLED["dismiss" if dismiss else "action"]
    row = run(db, data, lambda m: Reports(m).handle(CONSOLE, report_id, status, note))
    typer.echo(f"report #{row['id']}: {row['status']}")


def flag_words(flag: dict[str, Any]) -> str:
    """A flag in one line: its kind, accounts, figure (and everyone's), evidence."""
    return (f"{flag['kind']}: accounts {', '.join(f'#{u}' for u in flag['accounts'])}: {flag['figure']:.2f} "
            f"(everyone: {flag['population']:.2f}) {json.dumps(flag['evidence'], ensure_ascii=False)}")


@admin_app.command("scan")
def scan_command(days: Annotated[float, typer.Option(help="look at the rows of the last this many days")] = SCAN_DAYS,
                 db: Db = None, data: Data = DATA) -> None:
    """Run the abuse detectors (shared addresses and devices, chip dumping, pairs seated together, answers timed
    like a script's, soft play inside a pair) as the server does daily: print each flag with its
    evidence and keep the new ones for the players' pages."""
    if not 0 < days <= MAX_DAYS:  # NaN fails too
        raise typer.BadParameter(f"--days takes days from 0 to {MAX_DAYS:,}")
    found = on_database(db, data, lambda store: scan_and_keep(store, SystemClock().now(), days))
    for flag in found:
        typer.echo(flag_words(dataclasses.asdict(flag)))
    typer.echo(f"{len(found)} flags over the last {days:g} days")


MAX_DAYS = 36_500


@admin_app.command()
def log(limit: Annotated[int, typer.Option(help="how many rows, newest first")] = 50,
        who: Annotated[str | None, typer.Option("--player", help="about this player only (name or id)")] = None,
        db: Db = None, data: Data = DATA) -> None:
    """The operator log: every moderation action, newest first."""
    async def work(m: Moderation) -> list[dict[str, Any]]:
        return await m.log(limit, None if who is None else int((await m.find(who))["id"]))
    table("operator log", ["at", "by", "action", "player", "reason", "details"],
          [[when(r["at"]), r["actor_name"], r["action"], r["target_name"], r["reason"],
            json.dumps(r["details"], ensure_ascii=False)] for r in run(db, data, work)])


@admin_app.command("tables")
def tables_command(db: Db = None, data: Data = DATA) -> None:
    """The live tables on every node: who sits where, the hand and its phase, the node running each."""
    found = run(db, data, lambda m: m.tables())
    table("live tables", ["table", "room", "hand", "phase", "node", "players"],
          [[t["table"], t["room"], f"{t['hand']} {t['hand_id'] or ''}".strip(), t["phase"], t["node"] or "no server",
            ", ".join(f"{p['seat']}:{p['name']}" + (" (bot)" if p["bot"] else "") for p in t["players"] if p)]
           for t in found])


@admin_app.command("purge-logins")
def purge_logins_command(
    db: Db = None, data: Data = DATA,
    days: Annotated[float, typer.Option(help="keep the logins of the last this many days")] = 90.0,
) -> None:
    """Forget the logins (address, user agent and device of registrations, guests, claims and logins) and
    when the decisions' prompts were sent, older than --days, as the server does daily."""
    from chuanma.server.retention import purge_logins

    if not 1 <= days <= MAX_DAYS:  # NaN fails too
        raise typer.BadParameter(f"--days takes days from 1 to {MAX_DAYS:,}")
    purged = on_database(db, data, lambda store: purge_logins(store, SystemClock().now(), days))
    typer.echo(f"purged {purged} logins older than {days:g} days")
