"""What one seat (or a spectator) may know of a hand, as plain JSON-ready data.

A seat sees its own concealed tiles and draws; everyone's melds (a concealed kong's tile only
for its owner), discards, win piles, the wall count, void choices once revealed, the wins and
payments so far. Winners' hands are shown when they win (RULES §2.11). Nobody sees the wall
order or another seat's concealed tiles; the full state is only in the finished record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chuanma.engine.tables import TILE_TEXT, format_counts, format_river
from chuanma.tiles import format_tiles

if TYPE_CHECKING:
    from chuanma.engine.game import Game


def _meld(game: Game, owner: int, viewer: int | None, index: int) -> dict[str, Any]:
    m = game.melds[owner][index]
    out: dict[str, Any] = m.to_dict()
    if m.is_concealed and viewer != owner and not game.finished:
        out["tile"] = None
    return out


def seat_view(game: Game, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator)."""
    players: list[dict[str, Any]] = []
    acting = game.to_act()
    phase: str = game.phase
    if phase in ("claim", "rob") and seat not in acting:
        # whether anybody may claim is nobody else's business
        phase = "waiting"
    won_seats = {w.seat for w in game.wins}
    for s in range(4):
        p: dict[str, Any] = {
            "seat": s,
            "melds": [_meld(game, s, seat, i) for i in range(len(game.melds[s]))],
            "discards": format_river(game.discards[s]),
            "win_pile": format_river(game.win_piles[s]),
            "tiles": sum(game.hands[s]),
            "won": s in won_seats,
            "out": game.out[s],
            "left": game.left[s],
            "locked": game.locked[s],
            "exchange_chosen": game.exchange_choice[s] is not None,
            "void_chosen": game.voids[s] is not None,
        }
        if game.voids_revealed or s == seat:
            p["void"] = game.voids[s]
        if s == seat or s in won_seats or game.finished:
            p["hand"] = format_counts(game.hands[s])
        if s == seat and game.exchange_choice[s] is not None and not game.direction_revealed:
            p["exchange"] = format_tiles(game.exchange_choice[s] or ())
        players.append(p)
    out: dict[str, Any] = {
        "seat": seat,
        "phase": phase,
        "dealer": game.dealer,
        "current": game.current if game.phase in ("turn", "claim", "rob") else None,
        "wall": game.remaining,
        "direction": game.direction if game.direction_revealed else None,
        "players": players,
        "wins": [w.to_json() for w in game.wins],
        "payments": [p.to_json() for p in game.ledger],
        "totals": game.deltas(),
        "to_act": seat in acting if seat is not None else (
            [] if phase == "waiting" else list(acting)),
    }
    if game.claim_tile is not None and phase in ("claim", "rob"):
        out["claim"] = {"tile": TILE_TEXT[game.claim_tile], "from": game.claim_from,
                        "robbing": game.phase == "rob"}
    if seat is not None:
        if game.phase == "turn" and game.current == seat and game.drawn is not None:
            out["drawn"] = TILE_TEXT[game.drawn]
        out["legal_actions"] = [a.to_json() for a in game.legal_actions(seat)]
    return out
