"""``chuanma admin rooms``, ``announce`` and ``maintenance``: what every player sees, changed on the
database (docs/operations.md, Rooms, Announcements and maintenance).

Each command calls the service of the API's routes (:class:`~chuanma.server.room_config.RoomConfig`,
:class:`~chuanma.server.notices.Notices`), logged as the command line's. A running server (every
node of a cluster) reads the change at its next look, within ``host.CONFIG_WATCH`` seconds.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from chuanma.commands.database import DATA, Data, Db, run
from chuanma.server.bans import when
from chuanma.server.moderation import CONSOLE
from chuanma.server.notices import Notices
from chuanma.server.room_config import RoomConfig
from chuanma.server.rooms import Room

rooms_app = typer.Typer(help="The rooms players quick-join: list them, set one (or make one), disable or "
                             "enable one.", no_args_is_help=True)
maintenance_app = typer.Typer(help="No new tables (cluster-wide) from a given time, with a countdown players see; "
                                   "or new tables again.", no_args_is_help=True)
RoomId = Annotated[str, typer.Argument(metavar="ROOM", help="the room's id (chuanma admin rooms list)")]
Reason = Annotated[str, typer.Option(help="why (written to the operator log)")]


def said(room: Room) -> str:
    return (f"{room.id}: {room.name} / {room.en}, {room.preset}, base {room.base:,}, entry {room.range_text()}, "
            f"level {room.min_level or 'any'}, {'open' if room.enabled else 'disabled'}")


@rooms_app.command("list")
def list_rooms(db: Db = None, data: Data = DATA) -> None:
    """Every room, open or disabled, in the lobby's order: one a line."""
    for room in run(db, data, lambda m: RoomConfig(m).listed()):
        typer.echo(said(room))


@rooms_app.command("set")
def set_room(room_id: RoomId,
             name: Annotated[str | None, typer.Option(help="the Chinese name")] = None,
             en: Annotated[str | None, typer.Option(help="the English name")] = None,
             preset: Annotated[str | None, typer.Option(help="the rules' preset (chuanma rules presets)")] = None,
             base: Annotated[int | None, typer.Option(help="the base (底分), in chips")] = None,
             low: Annotated[int | None, typer.Option(help="the entry's lowest balance")] = None,
             high: Annotated[int | None, typer.Option(help="the entry's highest balance")] = None,
             no_top: Annotated[bool, typer.Option("--no-top", help="no highest balance")] = False,
             level: Annotated[int | None, typer.Option(help="the level wanted (0: any)")] = None,
             reason: Reason = "rooms changed", db: Db = None, data: Data = DATA) -> None:
    """Set some fields of a room (the others are kept), or make a new room (open at once, last in
    the lobby) given --name, --en, --preset, --base and --low."""
    if no_top and high is not None:
        raise typer.BadParameter("give --high or --no-top, not both")
    changes: dict[str, Any] = {key: value for key, value in (
        ("name", name), ("en", en), ("preset", preset), ("base", base), ("low", low), ("high", high),
        ("min_level", level)) if value is not None}
    if no_top:
        changes["high"] = None
    typer.echo(said(run(db, data, lambda m: RoomConfig(m).set(CONSOLE, room_id, changes, reason))))


@rooms_app.command("disable")
def disable(room_id: RoomId, reason: Reason = "room closed", db: Db = None, data: Data = DATA) -> None:
    """Close a room to new players (those waiting are told); its open tables play on."""
    typer.echo(said(run(db, data, lambda m: RoomConfig(m).enable(CONSOLE, room_id, False, reason))))


@rooms_app.command("enable")
def enable(room_id: RoomId, reason: Reason = "room opened", db: Db = None, data: Data = DATA) -> None:
    """Open a disabled room again."""
    typer.echo(said(run(db, data, lambda m: RoomConfig(m).enable(CONSOLE, room_id, True, reason))))


def announce_command(text: Annotated[str | None, typer.Argument(metavar="TEXT", help="what every player is shown")]
                     = None,
                     minutes: Annotated[float | None, typer.Option(help="shown this long (default: until "
                                                                        "replaced or withdrawn)")] = None,
                     withdraw: Annotated[bool, typer.Option("--withdraw", help="take the current one down")] = False,
                     db: Db = None, data: Data = DATA) -> None:
    """Show every connected player (every node) a banner, replacing the one before; or --withdraw it."""
    if withdraw == (text is not None):
        raise typer.BadParameter("give TEXT, or --withdraw")
    if withdraw:
        row = run(db, data, lambda m: Notices(m).withdraw(CONSOLE))
        typer.echo(f"announcement #{row['id']} withdrawn")
        return
    row = run(db, data, lambda m: Notices(m).announce(CONSOLE, text, minutes))
    typer.echo(f"announcement #{row['id']}" + (f" until {when(row['until'])}" if row["until"] else ""))


@maintenance_app.command("on")
def maintenance_on(minutes: Annotated[float, typer.Option("--in", help="minutes from now (0: now)")],
                   message: Annotated[str, typer.Option(help="what players are told with the countdown")] = "",
                   db: Db = None, data: Data = DATA) -> None:
    """From --in minutes on no new table opens on any node; tables in play play on."""
    row = run(db, data, lambda m: Notices(m).maintenance_on(CONSOLE, minutes, message))
    typer.echo(f"maintenance #{row['id']}: no new table from {when(row['starts'])}")


@maintenance_app.command("off")
def maintenance_off(db: Db = None, data: Data = DATA) -> None:
    """New tables open again."""
    row = run(db, data, lambda m: Notices(m).maintenance_off(CONSOLE))
    typer.echo(f"maintenance #{row['id']} off: new tables open again")
