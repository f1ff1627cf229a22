"""Settlement at the end of a hand: the exhaustive draw (RULES §5) and leaving (RULES §6).

Payments during the hand (wins, kongs, 呼叫转移) are made by the state machine as they happen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chuanma.scoring import max_static_fan

if TYPE_CHECKING:
    from chuanma.engine.game import Game


def exhaustive_settlement(game: Game, seq: int) -> None:
    """RULES §5, in order: 查花猪, 查大叫, 退税 (each as its options say)."""
    rules = game.rules
    parts = [s for s in range(4) if game.xueliu or not game.out[s]]
    pig = {s: game._holds_void(s) for s in range(4)}
    fan: dict[int, int | None] = {}
    for s in range(4):
        fan[s] = None if pig[s] else max_static_fan(
            rules, game._tiles(s), game.melds[s], game.voids[s])
    won = {w.seat for w in game.wins}
    cap_value = 2 ** rules.max_fan if rules.max_fan is not None else 16
    for p in parts:
        if not pig[p]:
            continue
        if rules.flower_pig == "fixed":
            payees = [s for s in parts if not pig[s]]
            if not game.xueliu and rules.flower_pig_pays_winners:
                payees += [s for s in range(4) if game.out[s]]
            for s in sorted(payees):
                game._pay(p, s, cap_value, "flower_pig", seq)
        else:
            payees = [s for s in parts if not pig[s] and fan[s] is not None]
            if not game.xueliu and rules.flower_pig_pays_winners:
                payees += [s for s in range(4) if game.out[s] and fan[s] is not None]
            for s in sorted(payees):
                game._pay(p, s, 2 ** (fan[s] or 0), "flower_pig", seq)
    waiting = {s for s in parts if fan[s] is not None or (game.xueliu and s in won)}
    if rules.chadajiao:
        payers = [s for s in parts if not pig[s] and s not in waiting]
        for p in payers:
            for s in sorted(waiting):
                game._pay(p, s, 2 ** (fan[s] or 0), "chadajiao", seq)
    if rules.refund:
        for s in parts:
            if s in waiting:
                continue
            for k in game.kongs:
                if k.seat != s or k.transferred:
                    continue
                for i in k.payments:
                    pay = game.ledger[i]
                    if not (game.left[pay.payer] and game.out[pay.payer]):
                        game._pay(s, pay.payer, pay.amount, "refund", seq)


def best_static_fan(game: Game, seat: int) -> int | None:
    """查大叫 value of a seat's hand; in the middle of its turn (3n+2 tiles), the best
    over the discards it could make."""
    tiles = game._tiles(seat)
    if len(tiles) % 3 == 1:
        return max_static_fan(game.rules, tiles, game.melds[seat], game.voids[seat])
    best: int | None = None
    for t in set(tiles):
        rest = list(tiles)
        rest.remove(t)
        fan = max_static_fan(game.rules, rest, game.melds[seat], game.voids[seat])
        if fan is not None and (best is None or fan > best):
            best = fan
    return best


def escape_payments(game: Game, seat: int, seq: int) -> None:
    """逃跑 (RULES §6): the leaver pays each other seat that has not won (nor left) 16 base, or
    inside the last four tiles that seat's 查大叫 amount if higher."""
    won = {w.seat for w in game.wins}
    for s in game._after(seat):
        if s in won or game.left[s]:
            continue
        amount = 16
        if game._in_last_four() and not game._holds_void(s):
            fan = best_static_fan(game, s)
            if fan is not None:
                amount = max(amount, 2**fan)
        game._pay(seat, s, amount, "escape", seq)
