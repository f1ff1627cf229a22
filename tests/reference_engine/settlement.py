"""The end of a hand: the exhaustive draw (RULES §5: 查花猪, 查大叫, 退税) and leaving (逃跑, §6).

Payments during the hand (wins, kongs, 呼叫转移) are made as they happen.
"""

from __future__ import annotations

from chuanma.engine.referee import flower_pig
from chuanma.engine.state import AFTER, HandState
from chuanma.engine.tables import format_counts
from chuanma.engine.wall import in_last_four
from chuanma.scoring import max_static_fan
from chuanma.tiles import format_tiles
from chuanma.variant import Variant
from reference_engine.claims import close_window
from reference_engine.log import emit, pay
from reference_engine.wins import seat_waits


def end(st: HandState, variant: Variant, reason: str) -> None:
    """End the hand (after the exhaustive-draw settlement when the wall ran out). The ``end``
    event shows every hand, and each seat's standing: 花猪, and its waits when its hand is
    between turns (3n+1 tiles)."""
    pub = st.public
    close_window(st)
    pub.phase = "end"
    pub.end_reason = reason
    if reason == "exhausted":
        exhaustive_settlement(st, variant)
    emit(st, "end", None, {
        "reason": reason,
        "hands": [format_counts(s.hand) for s in st.seats],
        "melds": [[m.to_dict() for m in ms] for ms in pub.melds],
        "deltas": st.deltas(),
        "pig": [flower_pig(st, s) for s in range(4)],
        "waits": [standing_waits(st, s) for s in range(4)],
    })


def standing_waits(st: HandState, seat: int) -> str | None:
    """The seat's waits at the end (``None``: its hand is in the middle of a turn): a locked 血流
    hand's are fixed; a 血战 winner's hand is as it was laid down at its win, so its waits are
    those its ``hu`` event gave."""
    s = st.seats[seat]
    if sum(s.hand) % 3 != 1:
        return None
    if s.locked_waits is not None:
        return format_tiles(s.locked_waits)
    return format_tiles(seat_waits(st, seat))


def exhaustive_settlement(st: HandState, variant: Variant) -> None:
    """RULES §5, in order: 查花猪, 查大叫, 退税 (each as its options say), among the seats still
    playing (血战: not won, not left; 血流: not left; the first-win-ends systems: everyone).

    The ``exhausted`` event carries what the settlement found, by seat: ``part`` (taking part),
    ``pig`` (a 花猪 taking part), ``ready`` (waiting; in 血流 a winner counts) and, when anything
    is settled, ``fan`` (the 查大叫 value, the maximum static fan, of each seat that may be paid)."""
    rules = st.rules
    pub = st.public
    parts = [s for s in range(4) if not pub.out[s]]
    pig = {s: flower_pig(st, s) for s in range(4)}
    part = [not out for out in pub.out]
    pigs = [pig[s] and part[s] for s in range(4)]
    if not (rules.chadajiao or rules.refund or any(pig.values())):
        # nothing to settle (大众麻将's 荒庄不荒杠: no void, no 查大叫, kong money stands)
        emit(st, "exhausted", None, {"part": part, "pig": pigs, "ready": [
            part[s] and not pig[s] and bool(seat_waits(st, s)) for s in range(4)]})
        return
    won = {w.seat for w in pub.wins}
    # winners no longer playing but still at the table (血战) are paid by pigs when the rule says so
    winners_paid = [s for s in range(4) if pub.out[s] and not pub.left[s]] \
        if rules.flower_pig_pays_winners else []
    # the fan of every seat that may be paid (a seat that left may hold the tile it drew: no fan)
    fan = {s: None if pig[s] else max_static_fan(rules, st.tiles(s), pub.melds[s], st.seats[s].void)
           for s in [*parts, *winners_paid]}
    waiting = {s for s in parts if fan[s] is not None or (variant.winners_stay and s in won)}
    seq = emit(st, "exhausted", None, {
        "part": part, "pig": pigs, "ready": [s in waiting for s in range(4)], "fan": [fan.get(s) for s in range(4)],
    }).seq
    cap_value = 2 ** rules.max_fan if rules.max_fan is not None else 16
    for p in parts:
        if not pig[p]:
            continue
        if rules.flower_pig == "fixed":
            for s in sorted([s for s in parts if not pig[s]] + winners_paid):
                pay(st, p, s, cap_value, "flower_pig", seq)
        else:
            payees = [s for s in parts if not pig[s] and fan[s] is not None]
            payees += [s for s in winners_paid if fan[s] is not None]
            for s in sorted(payees):
                pay(st, p, s, 2 ** (fan[s] or 0), "flower_pig", seq)
    if rules.chadajiao:
        # under ting_max a pig also pays 查大叫, as the non-waiting player it is (RULES §5)
        payers = [s for s in parts if (not pig[s] or rules.flower_pig == "ting_max") and s not in waiting]
        for p in payers:
            for s in sorted(waiting):
                pay(st, p, s, 2 ** (fan[s] or 0), "chadajiao", seq)
    if rules.refund:
        for s in parts:
            if s in waiting:
                continue
            for k in pub.kongs:
                if k.seat != s or k.transferred:
                    continue
                for i in k.payments:
                    paid = pub.ledger[i]
                    if not (pub.left[paid.payer] and pub.out[paid.payer]):
                        pay(st, s, paid.payer, paid.amount, "refund", seq)


def best_static_fan(st: HandState, seat: int) -> int | None:
    """查大叫 value of a seat's hand; in the middle of its turn (3n+2 tiles), the best over the
    discards it could make."""
    tiles = st.tiles(seat)
    melds, void = st.public.melds[seat], st.seats[seat].void
    if len(tiles) % 3 == 1:
        return max_static_fan(st.rules, tiles, melds, void)
    best: int | None = None
    for t in set(tiles):
        rest = list(tiles)
        rest.remove(t)
        fan = max_static_fan(st.rules, rest, melds, void)
        if fan is not None and (best is None or fan > best):
            best = fan
    return best


def escape_payments(st: HandState, seat: int, seq: int) -> None:
    """逃跑: the leaver pays each other seat that has not won (nor left) 16 base, or inside the
    last four tiles that seat's 查大叫 amount if higher."""
    pub = st.public
    won = {w.seat for w in pub.wins}
    for s in AFTER[seat]:
        if s in won or pub.left[s]:
            continue
        amount = 16
        if in_last_four(st.remaining) and not flower_pig(st, s):
            fan = best_static_fan(st, s)
            if fan is not None:
                amount = max(amount, 2**fan)
        pay(st, seat, s, amount, "escape", seq)
