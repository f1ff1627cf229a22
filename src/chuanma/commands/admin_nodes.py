"""``chuanma admin nodes`` and ``chuanma admin drain``: a cluster's nodes as their heartbeats left
them, and one of them drained before a maintenance (docs/operations.md, Draining a node)."""

from __future__ import annotations

import time
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from chuanma.commands.admin_keys import moment
from chuanma.commands.database import DATA, Data, Db, on_database


def nodes_command(db: Db = None, data: Data = DATA) -> None:
    """The cluster's nodes: release, schema, last heartbeat, tables held, and a drain asked for."""
    from chuanma.server.table_leases import nodes_of

    now = time.time()
    found = on_database(db, data, lambda store: nodes_of(store, now))
    if not found:
        typer.echo("no node runs on the database")
        return
    table = Table("node", "release", "schema", "started", "last heartbeat", "tables", "drain")
    for n in found:
        table.add_row(n.holder, n.release or "?", n.schema or "?", moment(n.since), f"{now - n.seen:.0f} s ago",
                      str(n.tables), "" if n.drain is None else f"asked {moment(n.drain)}")
    Console(highlight=False).print(table)


def drain_command(
    node: Annotated[str, typer.Argument(help="the node, as chuanma admin nodes names it")],
    db: Db = None, data: Data = DATA,
) -> None:
    """Drain a node, then stop it: it takes no new socket, its tables finish the hand in play (at most
    its --drain-seconds) and move to the other nodes; its players' sockets reconnect elsewhere."""
    from chuanma.server.table_leases import ask_drain

    on_database(db, data, lambda store: ask_drain(store, node, time.time()))
    typer.echo(f"node {node} drains at its next heartbeat, then stops")
