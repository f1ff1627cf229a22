"""A hand rebuilt from one seat's view and a guess of what it cannot see.

What search bots and learning agents need: sample the hidden tiles (other seats' concealed tiles,
the wall's order, face-down kongs) consistently with what a seat knows, and play on from there.
:func:`rebuild` turns a :class:`~chuanma.engine.views.SeatView`, taken when its seat owes a
decision, and a :class:`HiddenGuess` into a :class:`~chuanma.engine.state.HandState` that
:meth:`Game.from_state` plays on. Given the true hidden part (and the other seats' true private
bans) the rebuilt hand plays on exactly as the real one. What no view shows — the other seats'
pass bans and 过手杠 marks — is taken from the guess (none by default); the other seats' answers
in an open claim window are taken as not given yet. The rebuilt state has no event log and no
decision list: its events and decisions start afresh.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from chuanma import _core
from chuanma.engine.actions import IllegalActionError
from chuanma.engine.ledger import KongRecord
from chuanma.engine.state import (
    ClaimWindow,
    Direction,
    HandState,
    Hidden,
    Public,
    SeatState,
    copy_seat,
    copy_turn,
    seat_from,
)
from chuanma.engine.views import SeatView
from chuanma.melds import Meld
from chuanma.tiles import COPIES, NUM_KINDS, Tile


@dataclass(slots=True)
class HiddenGuess:
    """What a seat cannot see, guessed."""

    hands: dict[int, list[int]]
    """Each other seat's concealed tiles as counts (as many as ``PlayerView.tiles`` says)."""
    wall: list[Tile]
    """The tiles left in the wall, in draw order (live draws from the front, kong replacements
    from the back)."""
    kong_tiles: dict[int, Tile] = field(default_factory=dict)
    """The tile of each face-down concealed kong, by its index in ``SeatView.kongs``."""
    seats: dict[int, SeatState] = field(default_factory=dict)
    """Other seats' private parts beyond their tiles (bans, 过手杠 marks, exchange and void
    choices not yet revealed); a seat left out has none."""
    direction: Direction | None = None
    """The exchange direction while it is still secret."""


def rebuild(view: SeatView, guess: HiddenGuess) -> HandState:
    """The hand as ``view``'s seat sees it, with ``guess`` for what it cannot see.

    Raises :class:`IllegalActionError` (code ``bad_setup``) for a spectator's view, a view taken
    when its seat owes no decision (another seat's turn holds a draw no view shows), or a guess
    that does not fit the view.
    """
    seat = view.seat
    if seat is None or view.own is None:
        raise IllegalActionError("a spectator's view cannot be rebuilt: it has no seat", "bad_setup")
    if seat not in view.acting:
        raise IllegalActionError("a hand is rebuilt at a moment its seat owes a decision", "bad_setup")
    rules = view.rules
    layout = rules.game_variant.wall
    if len(guess.wall) != view.wall:
        raise IllegalActionError(f"the wall holds {view.wall} tiles, the guess {len(guess.wall)}", "bad_setup")
    kongs = [KongRecord(k.seat, k.tile if k.tile is not None else _kong_tile(guess, i), k.kind, k.seq,  # type: ignore[arg-type]
                        list(k.payments), k.transferred) for i, k in enumerate(view.kongs)]
    melds: list[list[Meld]] = []
    for p in view.players:
        # a seat's melds and its kongs are both in the order declared: a face-down meld is the
        # seat's next concealed kong
        concealed = iter([k.tile for k in kongs if k.seat == p.seat and k.kind == "concealed"])
        melds.append([Meld("kong", next(concealed), "concealed") if m is None or m.kong == "concealed" else m
                      for m in p.melds])
    tail = layout.last - len(kongs)
    live = tail + 1 - view.wall
    seats = [_seat(view, guess, s) for s in range(4)]
    claim = view.claim
    direction: Direction = view.direction or guess.direction or "to_next"
    st = HandState(
        rules=rules,
        hidden=Hidden(_wall(layout.size, live, guess.wall), direction),
        public=Public(
            dealer=view.dealer, phase=view.phase,  # type: ignore[arg-type]
            current=view.current if view.current is not None else view.dealer, live=live, tail=tail,
            melds=melds,
            discards=[list(p.discards) for p in view.players],
            discard_log=list(view.discard_log),
            claimed_at=[list(p.claimed_at) for p in view.players],
            win_piles=[list(p.win_pile) for p in view.players],
            voids_revealed=view.voids_revealed, direction=view.direction,
            exchanged=[p.exchange_chosen for p in view.players],
            void_chosen=[p.void_chosen for p in view.players],
            out=[p.out for p in view.players], left=[p.left for p in view.players],
            locked=[p.locked for p in view.players],
            wins=list(view.wins), ledger=list(view.payments), kongs=kongs, turn=copy_turn(view.turn),
            claim=None if claim is None else ClaimWindow(claim.tile, claim.from_seat, claim.situations,
                                                         claim.robbing, claim.kong),
            declared=view.declared, live_draws=view.live_draws, dealer_discards=view.dealer_discards,
            first_multi_from=view.first_multi_from, version=view.version,
        ),
        seats=seats,
    )
    _check_tiles(st)
    if claim is not None or any(st.public.locked):
        # the core works out the seats' claim options and locked waits from the guessed hands
        hand = _core.Hand.from_dict(st.to_dict())
        hand.rederive()
        derived = hand.to_dict()["seats"]
        assert isinstance(derived, list)
        st.seats = [seat_from(s, rules.tiles) for s in derived]
    return st


def _kong_tile(guess: HiddenGuess, index: int) -> Tile:
    if index not in guess.kong_tiles:
        raise IllegalActionError(f"the guess has no tile for the face-down kong {index}", "bad_setup")
    return guess.kong_tiles[index]


def _seat(view: SeatView, guess: HiddenGuess, s: int) -> SeatState:
    assert view.own is not None
    if s == view.seat:
        return copy_seat(view.own)
    p = view.players[s]
    if s not in guess.hands:
        raise IllegalActionError(f"the guess has no hand for seat {s}", "bad_setup")
    hand = list(guess.hands[s])
    if len(hand) != NUM_KINDS or sum(hand) != p.tiles:
        raise IllegalActionError(f"seat {s} holds {p.tiles} tiles, the guess gives {sum(hand)}", "bad_setup")
    out = copy_seat(guess.seats[s]) if s in guess.seats else SeatState()
    out.hand = bytearray(hand)
    out.claim_options = None
    out.claim = None
    if p.void is not None:
        out.void = p.void
    return out


def _wall(size: int, live: int, rest: Sequence[Tile]) -> list[Tile]:
    """A wall with ``rest`` at the positions still to be drawn; the positions already used hold
    the other tiles of the set (where each one went is in the hands, melds and rivers)."""
    left = Counter(rest)
    used = [t for t in range(size // COPIES) for _ in range(COPIES - left[t])]
    return used[:live] + list(rest) + used[live:]


def _check_tiles(st: HandState) -> None:
    counts = [0] * NUM_KINDS
    for seat in st.seats:
        hand: Sequence[int] = seat.hand  # typed so for mypyc, which cannot enumerate a bytearray
        for t, c in enumerate(hand):
            counts[t] += c
    pub = st.public
    for s in range(4):
        for m in pub.melds[s]:
            for t in m.tiles:
                counts[t] += 1
        for t in pub.discards[s] + pub.win_piles[s]:
            counts[t] += 1
    for t in st.hidden.wall[pub.live:pub.tail + 1]:
        counts[t] += 1
    over = [t for t, c in enumerate(counts) if c > COPIES]
    if over or st.tile_total() != len(st.hidden.wall):
        raise IllegalActionError("the guess does not fit the view: tiles are not the whole set", "bad_setup")
