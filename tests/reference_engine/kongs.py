"""Kongs (杠) and their payments: 刮风下雨, 过手杠, 呼叫转移, and a locked 血流 hand's kong.

- exposed kong (直杠, on a discard): the discarder pays 2 base (``exposed_kong: everyone``: the
  other payers 1 each as well);
- concealed kong (暗杠, 下雨): each payer 2 base;
- added kong (补杠, 刮风): each payer 1 base, nothing for a 过手杠 unless ``late_added_kong_pays``;
  it can be robbed first (:mod:`.claims`);
- 呼叫转移: a win on the discard right after a kong takes that kong's money.

Every kong is followed by a replacement draw from the wall's end.
"""

from __future__ import annotations

from chuanma.analysis import waits
from chuanma.engine.ledger import KongRecord, Reason
from chuanma.engine.state import AFTER, HandState
from chuanma.engine.tables import TILE_TEXT
from chuanma.engine.wall import NO_KONG
from chuanma.melds import Meld
from chuanma.tiles import Tile
from reference_engine.log import emit, pay

REASONS: dict[str, Reason] = {
    "exposed": "kong_exposed", "concealed": "kong_concealed", "added": "kong_added",
}


def payers(st: HandState, seat: int) -> list[int]:
    """Who pays the seat's self-drawn win or kong: the other seats still playing."""
    out = st.public.out
    return [s for s in AFTER[seat] if not out[s]]


def next_active(st: HandState, seat: int) -> int | None:
    """The next seat after ``seat`` in play order that still plays."""
    out = st.public.out
    for s in AFTER[seat]:
        if not out[s]:
            return s
    return None


def kong_allowed(no_kong_in_last_four: bool, remaining: int) -> bool:
    """Whether a kong may be declared with ``remaining`` tiles in the wall (for an exposed kong:
    when the discard was made): there must be a replacement to draw, and under
    ``no_kong_in_last_four`` more than :data:`chuanma.engine.wall.NO_KONG` tiles."""
    return remaining > (NO_KONG if no_kong_in_last_four else 0)


def begin_turn(st: HandState, seat: int) -> None:
    """Make ``seat`` the one to act, with a fresh turn."""
    pub = st.public
    st.seats[pub.current].drawn = None
    st.seats[seat].drawn = None
    pub.phase = "turn"
    pub.current = seat
    turn = pub.turn
    turn.draw_kind = None
    turn.after_pong = False
    turn.kong = None
    turn.kongs = 0
    turn.drew_last = False
    turn.first = False
    turn.dihu = False


def replacement_draw_due(st: HandState, seat: int) -> None:
    """After a kong the declarer draws from the wall's end."""
    pub = st.public
    pub.phase = "draw"
    pub.current = seat
    pub.turn.draw_kind = "replacement"


def _add(st: HandState, k: KongRecord, discarder: int | None = None, each: int = 0) -> None:
    """Record the kong, pay for it, and let its declarer draw a replacement."""
    pub = st.public
    pub.kongs.append(k)
    pub.turn.kong = len(pub.kongs) - 1
    pub.turn.kongs += 1
    if discarder is not None:
        targets = [(discarder, 2)]
        if st.rules.exposed_kong == "everyone":
            targets += [(p, 1) for p in payers(st, k.seat) if p != discarder]
    else:
        targets = [(p, each) for p in payers(st, k.seat)]
    for payer, amount in targets:
        idx = pay(st, payer, k.seat, amount, REASONS[k.kind], k.seq)
        if idx is not None:
            k.payments.append(idx)
    replacement_draw_due(st, k.seat)


def exposed_kong(st: HandState, seat: int, frm: int, t: Tile) -> None:
    """直杠: ``seat`` kongs ``frm``'s discard ``t`` (the claim window is closed)."""
    pub = st.public
    pub.discards[frm].pop()
    st.seats[seat].hand[t] -= 3
    pub.melds[seat].append(Meld("kong", t, "exposed"))
    pub.claimed_at[seat].append(st.remaining)
    pub.declared = True
    begin_turn(st, seat)
    ev = emit(st, "kong", seat, {"tile": TILE_TEXT[t], "kind": "exposed", "from": frm})
    _add(st, KongRecord(seat, t, "exposed", ev.seq), discarder=frm)


def concealed_kong(st: HandState, seat: int, t: Tile) -> None:
    """暗杠 of the four ``t`` in the seat's hand."""
    pub = st.public
    st.seats[seat].hand[t] = 0
    st.seats[seat].drawn = None
    pub.melds[seat].append(Meld("kong", t, "concealed"))
    pub.declared = True
    pub.turn.first = False
    tile = {"tile": TILE_TEXT[t]}
    if st.rules.concealed_kong_shown:  # 001: every kong is laid face up
        ev = emit(st, "kong", seat, {"kind": "concealed", **tile})
    else:
        ev = emit(st, "kong", seat, {"kind": "concealed"}, tile)
    _add(st, KongRecord(seat, t, "concealed", ev.seq), each=2)


def declare_added_kong(st: HandState, seat: int, t: Tile) -> None:
    """补杠 declared: announced first, so that it can be robbed."""
    st.public.declared = True
    st.public.turn.first = False
    emit(st, "kong_declared", seat, {"tile": TILE_TEXT[t], "kind": "added"})


def complete_added_kong(st: HandState, seat: int, t: Tile) -> None:
    """Nobody robbed the added kong: the pong becomes a kong and is paid (unless 过手杠)."""
    pub = st.public
    pub.phase = "turn"
    pub.current = seat
    st.seats[seat].hand[t] -= 1
    st.seats[seat].drawn = None
    pub.melds[seat] = [Meld("kong", t, "added") if m.kind == "pong" and m.tile == t else m
                       for m in pub.melds[seat]]
    late = t in st.seats[seat].late_pongs
    ev = emit(st, "kong", seat, {"tile": TILE_TEXT[t], "kind": "added", "late": late})
    _add(st, KongRecord(seat, t, "added", ev.seq), each=0 if late and not st.rules.late_added_kong_pays else 1)


def robbed(st: HandState, seat: int, t: Tile) -> None:
    """抢杠胡: the added kong's tile leaves the declarer's hand for the robbers."""
    st.seats[seat].hand[t] -= 1
    st.seats[seat].drawn = None
    emit(st, "kong_robbed", seat, {"tile": TILE_TEXT[t]})


def call_transfer(st: HandState, kong: int | None, winners: list[int]) -> None:
    """呼叫转移: the kong declared in the turn of the discard won on hands its money on."""
    rule = st.rules.call_transfer
    if kong is None or rule == "off":
        return
    pub = st.public
    k = pub.kongs[kong]
    if k.transferred:
        return
    earned = sum(pub.ledger[i].amount for i in k.payments)
    if not earned:
        return
    seqs = {w.seat: w.seq for w in pub.wins[-len(winners):]}
    for w in winners if rule == "each_winner" else winners[:1]:
        pay(st, k.seat, w, earned, "call_transfer", seqs[w])
    k.transferred = True


def keeps_waits(st: HandState, seat: int, t: Tile) -> bool:
    """血流: whether a locked winner's kong of ``t`` leaves its waits unchanged."""
    s = st.seats[seat]
    melds = list(st.public.melds[seat])
    counts = list(s.hand)
    if s.hand[t] == 4:
        counts[t] = 0
        melds.append(Meld("kong", t, "concealed"))
    elif any(m.kind == "pong" and m.tile == t for m in melds):
        counts[t] -= 1
        melds = [Meld("kong", t, "added") if m.kind == "pong" and m.tile == t else m for m in melds]
    else:
        return False
    return sorted(waits(counts, melds, s.void)) == sorted(s.locked_waits or ())
