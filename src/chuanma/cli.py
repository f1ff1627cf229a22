"""The ``chuanma`` command line (Typer). Each group of commands lives in its own module."""

from __future__ import annotations

import typer

from chuanma.commands.engine import engine_app
from chuanma.commands.hand import hand
from chuanma.commands.play import play
from chuanma.commands.replay import replay
from chuanma.commands.rules import rules
from chuanma.commands.score import score
from chuanma.commands.serve import ServeCommand, serve
from chuanma.commands.simulate import league, simulate
from chuanma.fairness.cli import fair_app

ADMIN: typer.Typer | None
try:
    from chuanma.commands.admin import admin_app as ADMIN
except ModuleNotFoundError as missing:  # the server extra is not installed: every other command works
    ADMIN = None
    WITHOUT_SERVER = str(missing)

app = typer.Typer(
    name="chuanma",
    help="Sichuan mahjong: hand analysis, fan scoring, provably fair dealing.",
    no_args_is_help=True,
    add_completion=False,
)
app.command()(score)
app.command()(hand)
app.command()(rules)
app.command()(simulate)
app.command()(play)
app.command()(league)
app.command()(replay)
app.command(cls=ServeCommand)(serve)
app.add_typer(fair_app, name="fair")
app.add_typer(engine_app, name="engine")
if ADMIN is not None:
    app.add_typer(ADMIN, name="admin")
else:
    @app.command("admin", context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
                 help="An operator's commands on a server's database (needs the 'server' extra).")
    def admin_without_the_server_extra() -> None:
        raise typer.BadParameter(
            f"the admin commands need the 'server' extra: pip install 'chuanma[server]' ({WITHOUT_SERVER})")


@app.callback()
def _root() -> None:
    """Sichuan mahjong (血战到底, 血流成河) from the command line."""


def main() -> None:
    """Entry point of the ``chuanma`` console script."""
    app()
