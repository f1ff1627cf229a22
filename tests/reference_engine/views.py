"""The Python redaction the compiled one (``chuanma.engine.views.seat_view``) replaced: the
reference ``tests/test_native_view.py`` compares it with, over :class:`HandState`."""

from __future__ import annotations

from functools import lru_cache

from chuanma.engine.actions import Action
from chuanma.engine.state import HandState, copy_seat, copy_turn
from chuanma.engine.views import ClaimView, KongView, PlayerView, SeatView
from chuanma.melds import Meld
from chuanma.tiles import Tile, to_counts
from reference_engine.claims import owing

_new = tuple.__new__


_ALONE = [(s,) for s in range(4)]


def to_act(st: HandState) -> tuple[int, ...]:
    """Seats that owe a decision now."""
    pub = st.public
    phase = pub.phase
    if phase == "turn":
        return _ALONE[pub.current]
    if phase == "exchange":
        return tuple(s for s in range(4) if not pub.exchanged[s])
    if phase == "void":
        return tuple(s for s in range(4) if st.seats[s].void is None)
    if phase in ("claim", "rob"):
        return tuple(owing(st))
    return ()


def redact(st: HandState, seat: int | None, legal: list[Action] | None = None) -> SeatView:
    """The view of ``seat`` (``None``: a spectator); ``legal`` is the seat's legal actions."""
    pub = st.public
    phase: str = pub.phase
    acting = to_act(st)
    if phase in ("claim", "rob"):
        if seat in acting:
            acting = (seat,)  # the viewer's own part only
        else:
            phase = "waiting"  # whether anybody may claim is nobody else's business
            acting = ()
    finished = phase == "end"
    won = [0, 0, 0, 0]
    shown: dict[int, tuple[Tile, ...]] = {}
    for win in pub.wins:  # each winner's hand as laid down at its latest win
        won[win.seat] += 1
        shown[win.seat] = win.hand
    hide_kongs = not (finished or st.rules.concealed_kong_shown)
    # the seats whose concealed kongs the viewer may not see
    hidden = {k.seat for k in pub.kongs if k.kind == "concealed" and k.seat != seat} if hide_kongs else ()
    revealed = pub.voids_revealed
    seats, all_melds, discards, win_piles, claimed_at = st.seats, pub.melds, pub.discards, pub.win_piles, pub.claimed_at
    players = []
    for s in range(4):
        ss = seats[s]
        own = s == seat
        hand: tuple[int, ...] | None = None
        if own or finished:
            hand = tuple(ss.hand)
        elif s in shown:
            hand = _counts(shown[s])
        laid = all_melds[s]
        melds: tuple[Meld | None, ...] = ()
        if laid:
            melds = tuple([None if m.kong == "concealed" else m for m in laid]) if s in hidden else tuple(laid)
        # tuple.__new__ skips the named tuple's Python-level constructor: same value, less time
        players.append(_new(PlayerView, (
            s, melds, tuple(discards[s]), tuple(win_piles[s]), sum(ss.hand), won[s],
            pub.out[s], pub.left[s], pub.locked[s], pub.exchanged[s],
            pub.void_chosen[s] or (own and ss.void is not None),
            ss.void if revealed or own else None, hand,
            ss.exchange if own and pub.direction is None else None,
            tuple(claimed_at[s]),
        )))
    if phase == "void":  # a void chosen for a two-suit hand is secret: that seat looks undecided
        acting = tuple([p.seat for p in players if not p.void_chosen])
    w = pub.claim
    on_turn = seat is not None and pub.phase == "turn" and pub.current == seat
    kongs = tuple([_new(KongView, (k.seat, None if k.kind == "concealed" and k.seat in hidden else k.tile,
                                   k.kind, k.seq, tuple(k.payments), k.transferred))
                   for k in pub.kongs]) if pub.kongs else ()
    return _new(SeatView, (
        seat, st.rules, phase, pub.dealer,
        pub.current if pub.phase in ("turn", "claim", "rob") else None,
        st.remaining, pub.direction, tuple(players), tuple(pub.wins), tuple(pub.ledger),
        tuple(st.deltas()), acting,
        _new(ClaimView, (w.tile, w.from_seat, w.rob, w.situations, w.kong))
        if w is not None and phase in ("claim", "rob") else None,
        st.seats[seat].drawn if on_turn and seat is not None else None,
        tuple(legal or ()), tuple(pub.discard_log), revealed, pub.version, finished,
        kongs, copy_turn(pub.turn), copy_seat(st.seats[seat]) if seat is not None else None,
        pub.declared, pub.live_draws, pub.dealer_discards, pub.first_multi_from,
    ))


@lru_cache(maxsize=4096)
def _counts(tiles: tuple[Tile, ...]) -> tuple[int, ...]:
    """A shown hand's tiles as counts (a winner's hand is shown in every later view)."""
    return tuple(to_counts(tiles))
