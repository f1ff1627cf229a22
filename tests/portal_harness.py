"""The portal tests' server: the app in a thread (so Playwright's sync API can drive it), with one
settled hand (a greedy-bot hand of 血战, recorded, dealt to three accounts and a server bot) and one
hand still in play."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chuanma.bots import make_bot
from chuanma.rules import RuleSet
from chuanma.server.store import Store, sqlite_url
from chuanma.sim.play import deal_for, play_hand
from chuanma.tiles import SICHUAN_TILES
from client_driver import in_thread
from server_harness import make_config

SETTLED = "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0"
PLAYING = "ffffeeeeddddccccbbbbaaaa9999888877776666"


def finished_record(preset: str = "xuezhan", seed: int = 1) -> dict[str, Any]:
    """A complete record of a hand four greedy bots played."""
    result = play_hand(RuleSet.from_preset(preset), deal_for(seed, 0, SICHUAN_TILES),
                       [make_bot("greedy", seat) for seat in range(4)], record=True)
    assert result.record is not None
    return result.record


PLAYERS = ("Sitter0", "Sitter1", "Sitter2")
"""The people of the settled hand's seats 0-2 (a server bot, ``Robot3``, sits at 3)."""


async def _add_hands(store: Store, record: dict[str, Any]) -> None:
    seats = [await store.create_user(name, None, "player", 1_000, 0.0) for name in PLAYERS]
    seats.append(await store.create_user("Robot3", None, "bot", 1_000, 0.0))
    await store.create_table({"id": "portal-test", "room": "chuji-xuezhan", "rules": "xuezhan", "seats": [None] * 4,
                              "status": "open", "created_at": 0.0})
    for number, hand_id in enumerate((SETTLED, PLAYING)):
        await store.create_hand({"id": hand_id, "table_id": "portal-test", "number": number, "server_seed": "0" * 64,
                                 "commitment": "0" * 64, "session": {}, "seats": seats, "status": "playing"})
    assert await store.settle(SETTLED, record, {}, {}, 1.0) is not None


@dataclass
class PortalServer:
    base: str
    record: dict[str, Any]


@contextmanager
def portal_server(tmp: Path) -> Iterator[PortalServer]:
    """The server on a free port, serving a thread's event loop, until the block ends."""
    with in_thread(make_config(sqlite_url(tmp))) as run:
        record = finished_record()
        asyncio.run_coroutine_threadsafe(_add_hands(run.server.store, record), run.loop).result(30)
        yield PortalServer(run.base, record)


WIN = {"hand": "1112345678999m", "win_tile": "5m"}
REFUSED: dict[str, dict[str, Any]] = {
    "hand_size": {"hand": "111234567899m", "win_tile": "5m"},
    "too_many_melds": {"hand": "1m", "win_tile": "1m", "melds": [f"pong:{r}p" for r in range(1, 6)]},
    "tile_count": {"hand": "1111234567899m", "win_tile": "1m"},
    "no_honours": {**WIN, "win_tile": "1z"},
    "no_chow": {"hand": "1112345678m", "win_tile": "9m", "melds": ["chow:1p"]},
    "situation_self_drawn": {**WIN, "situations": ["kong_replacement"]},
    "situation_discard": {**WIN, "self_drawn": True, "situations": ["robbing_kong"]},
    "consecutive_kongs": {**WIN, "self_drawn": True, "situations": ["consecutive_kongs"]},
    "heaven_earth_melds": {"hand": "1112345678m", "win_tile": "9m", "melds": ["pong:5p"], "self_drawn": True,
                           "situations": ["tianhu"]},
    "void_suit": {**WIN, "void": "z"},
    "no_void": {**WIN, "rules": "dazhong", "void": "m"},
    "discarder": {**WIN, "from": 5},
    "rule_value": {**WIN, "rules": {"preset": "xuezhan", "options": {"base": 0}}},
    "rule_total": {**WIN, "rules": {"preset": "xuezhan", "options": {"house_fans": {"menqing": 64}}}},
    "rules": {**WIN, "rules": "mahjong"},
    "input": {"hand": 5, "win_tile": "5m"},
}
"""One hand to score for each code a refusal's facts may have (chuanma.errors.ERROR_CODES)."""
