"""The claim window in the reference reducer: who may win, kong, pong or chow a discard (or rob an
added kong), the pass rules, opening the window (asking each seat :func:`options_for`), resolving
the answers (win > kong > pong > chow; 一炮多响 or the first winner in play order, passes recorded
by the pass rule), and 碰 and 吃 themselves. Chow exists where the variant has it (大众麻将): only
the discarder's 下家 (whose 上家 discarded) may chow, only a suited tile, in every sequence its hand
completes with the tile.

A :class:`PassRule` says what passing a win or a pong costs a seat (RULES §2.10, §9.1–9.2):
``none``; ``same_turn`` (同巡过手: a fan bar for wins and a pong ban until the seat's next draw);
``forever`` (过水不胡: never again a win on that tile, self-drawn included).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, NamedTuple

from chuanma.engine.actions import Action, Chow, Hu, Kong, Pong
from chuanma.engine.state import AFTER, ClaimWindow, HandState, SeatState
from chuanma.engine.tables import CHOW, HU, KONG, PASS, PONG, SUIT_OF, TILE_TEXT
from chuanma.melds import Meld
from chuanma.rules import RuleSet
from chuanma.tiles import NUM_SUITED, Tile
from reference_engine.kongs import begin_turn, kong_allowed
from reference_engine.log import emit
from reference_engine.wins import NEAR, ORPHAN, completes, orphan_reach, score
from reference_engine.wins import forced as forced


class PassRule:
    """``pass_rule: none``: passing costs nothing."""

    name = "none"
    bars_declined_self_win = False
    """Whether :meth:`declined_self_win` does anything (so that callers may skip the check)."""

    def may_claim_win(self, seat: SeatState, t: Tile, fan: Callable[[], int]) -> bool:
        """Whether the seat may win on another seat's ``t`` (``fan``: that win's fan)."""
        return True

    def may_self_win(self, seat: SeatState, t: Tile) -> bool:
        """Whether the seat may win on its own draw ``t``."""
        return True

    def passed_win(self, seat: SeatState, t: Tile, fan: Callable[[], int]) -> None:
        """The seat could win on another seat's ``t`` and did not."""

    def passed_pong(self, seat: SeatState, t: Tile) -> None:
        """The seat could pong ``t`` and claimed neither pong nor kong."""

    def declined_self_win(self, seat: SeatState, t: Tile) -> None:
        """The seat could win on its own draw ``t`` (not 天胡) and discarded or konged instead."""

    def drew(self, seat: SeatState) -> None:
        """The seat drew a tile (any draw, a kong replacement included)."""
        seat.bar = None
        if seat.pong_ban:
            seat.pong_ban.clear()


class SameTurn(PassRule):
    """同巡过手: until its next draw, a win on a discard must be worth more than the best win
    passed (加番可解禁), and a passed pong of T bars pongs of T."""

    name = "same_turn"

    def may_claim_win(self, seat: SeatState, t: Tile, fan: Callable[[], int]) -> bool:
        return seat.bar is None or fan() > seat.bar

    def passed_win(self, seat: SeatState, t: Tile, fan: Callable[[], int]) -> None:
        f = fan()
        seat.bar = f if seat.bar is None else max(seat.bar, f)

    def passed_pong(self, seat: SeatState, t: Tile) -> None:
        seat.pong_ban.add(t)


class Forever(PassRule):
    """过水不胡: a passed win on T bars every later win on T, self-drawn included."""

    name = "forever"
    bars_declined_self_win = True

    def may_claim_win(self, seat: SeatState, t: Tile, fan: Callable[[], int]) -> bool:
        return t not in seat.banned

    def may_self_win(self, seat: SeatState, t: Tile) -> bool:
        return t not in seat.banned

    def passed_win(self, seat: SeatState, t: Tile, fan: Callable[[], int]) -> None:
        seat.banned.add(t)

    def declined_self_win(self, seat: SeatState, t: Tile) -> None:
        seat.banned.add(t)


PASS_RULES: dict[str, PassRule] = {r.name: r for r in (PassRule(), SameTurn(), Forever())}


def pass_rule_of(rules: RuleSet) -> PassRule:
    return PASS_RULES[rules.pass_rule]


def claim_fan(st: HandState, seat: int) -> int:
    """The fan of the seat's win on the window's tile, with the window's situations."""
    w = st.public.claim
    assert w is not None
    if w.fans is None:
        w.fans = {}
    if seat not in w.fans:
        w.fans[seat] = score(st, seat, w.tile, self_drawn=False, situations=w.situations,
                             in_hand=False).total
    return w.fans[seat]


def options_for(st: HandState, rule: PassRule, s: int, t: Tile, rob: bool, *,
                chow: bool) -> list[Action] | None:
    """What seat ``s`` may claim on ``t`` in the open window (``None``: nothing; else the options
    and ``Pass()``); ``chow``: ``s`` is the window's :func:`chow_seat`."""
    if st.public.out[s]:
        return None
    seat = st.seats[s]
    can_win = completes(st, s, t)
    chows = chow_options(st, s, t) if chow else ()
    if not can_win and seat.hand[t] < 2 and not chows:
        return None
    opts: list[Action] = []
    if can_win and rule.may_claim_win(seat, t, lambda: claim_fan(st, s)):
        if forced(st):
            return [HU]
        opts.append(HU)
    if not rob and not st.public.locked[s] and SUIT_OF[t] != seat.void:
        c = seat.hand[t]
        if c == 3 and kong_allowed(st.rules.no_kong_in_last_four, st.remaining):
            opts.append(KONG[t])
        if c >= 2 and t not in seat.pong_ban:
            opts.append(PONG[t])
    opts.extend(chows)
    if not opts:
        return None
    opts.append(PASS)
    return opts


def chow_seat(st: HandState, frm: int, t: Tile, rob: bool) -> int | None:
    """The seat that may chow ``frm``'s ``t``: none unless the variant has chow, ``t`` is a suited
    discard (not an added kong's tile); else ``frm``'s 下家."""
    if rob or t >= NUM_SUITED or not st.rules.game_variant.chow:
        return None
    return (frm + 1) % 4


def chow_options(st: HandState, s: int, t: Tile) -> list[Action]:
    """The chows the :func:`chow_seat` ``s`` may make on ``t``: one per sequence that ``t``
    completes with two tiles of its hand (the chow names its lowest tile)."""
    h = st.seats[s].hand
    r = t % 9
    return [CHOW[low] for low in range(t - min(r, 2), t - max(r - 6, 0) + 1)
            if all(h[x] for x in (low, low + 1, low + 2) if x != t)]


def owing(st: HandState) -> list[int]:
    """Seats that still owe an answer in the open window, in play order after the discarder."""
    w = st.public.claim
    if w is None:
        return []
    seats = st.seats
    return [s for s in AFTER[w.from_seat] if seats[s].claim_options is not None and seats[s].claim is None]


class Resolution(NamedTuple):
    """What a closed claim window gives: wins (the winners), a kong, a pong or a chow (its
    claimer), or nothing (``seats`` empty)."""

    kind: Literal["win", "kong", "pong", "chow", "none"]
    seats: list[int]


def open_window(st: HandState, rule: PassRule, frm: int, t: Tile, situations: tuple[str, ...], *,
                rob: bool, kong: int | None = None) -> bool:
    """Open the claim window on ``t``; False (nothing opened) if nobody can claim a discard. A
    robbing window opens even when nobody can rob: the added kong then completes."""
    pub = st.public
    pub.claim = ClaimWindow(t, frm, situations, rob, kong)
    lo, hi = NEAR[t]
    orphan = ORPHAN[t]
    seats = st.seats
    chower = chow_seat(st, frm, t, rob)
    anyone = False
    for s in AFTER[frm]:
        seat = seats[s]
        seat.claim = None
        h = seat.hand
        # most seats hold no copy or neighbour of the tile (nor wait on it as 十三幺): nothing to ask them
        if any(h[lo:hi]) or (orphan and orphan_reach(h, t)):
            seat.claim_options = opts = options_for(st, rule, s, t, rob, chow=s == chower)
            if opts is not None:
                anyone = True
        else:
            seat.claim_options = None
    if not anyone and not rob:
        pub.claim = None
        return False
    pub.phase = "rob" if rob else "claim"
    pub.posed = pub.version
    if not rob:
        pub.current = frm
    return True


def resolve(st: HandState, rule: PassRule) -> Resolution:
    """Every answer is in: record the passes and say what the window gives."""
    w = st.public.claim
    assert w is not None
    t = w.tile
    for s in AFTER[w.from_seat]:
        seat = st.seats[s]
        opts = seat.claim_options
        if opts is None:
            continue
        claim = seat.claim
        if HU in opts and not isinstance(claim, Hu):
            rule.passed_win(seat, t, lambda s=s: claim_fan(st, s))  # type: ignore[misc]
        if PONG[t] in opts and not isinstance(claim, Pong | Kong):
            rule.passed_pong(seat, t)
    winners = [s for s in AFTER[w.from_seat] if isinstance(st.seats[s].claim, Hu)]
    if winners:
        return Resolution("win", winners if st.rules.multiple_winners else winners[:1])
    for kind, cls in (("kong", Kong), ("pong", Pong), ("chow", Chow)):
        for s in AFTER[w.from_seat]:
            if isinstance(st.seats[s].claim, cls):
                return Resolution(kind, [s])  # type: ignore[arg-type]
    return Resolution("none", [])


def close_window(st: HandState) -> None:
    pub = st.public
    pub.claim = None
    for seat in st.seats:
        seat.claim_options = None
        seat.claim = None
    pub.phase = "turn"


def pong(st: HandState, seat: int, frm: int, t: Tile) -> None:
    """碰: ``seat`` takes ``frm``'s discard ``t`` and must discard next."""
    take_discard(st, seat, frm, Meld("pong", t), (t, t))
    if st.seats[seat].hand[t]:
        st.seats[seat].late_pongs.add(t)
    emit(st, "pong", seat, {"tile": TILE_TEXT[t], "from": frm})


def chow(st: HandState, seat: int, frm: int, t: Tile, low: Tile) -> None:
    """吃: ``seat`` takes its 上家 ``frm``'s discard ``t`` into the sequence starting at ``low``
    and must discard next (as after a pong)."""
    take_discard(st, seat, frm, Meld("chow", low), [x for x in (low, low + 1, low + 2) if x != t])
    emit(st, "chow", seat, {"tile": TILE_TEXT[low], "from": frm, "claimed": TILE_TEXT[t]})


def take_discard(st: HandState, seat: int, frm: int, meld: Meld, used: Sequence[Tile]) -> None:
    """A pong or chow: ``seat`` lays down ``meld`` of ``frm``'s last discard and the tiles ``used``
    from its hand; its turn begins and it must discard (no draw, no kong, no win)."""
    pub = st.public
    close_window(st)
    pub.discards[frm].pop()
    h = st.seats[seat].hand
    for x in used:
        h[x] -= 1
    pub.melds[seat].append(meld)
    pub.claimed_at[seat].append(st.remaining)
    pub.declared = True
    begin_turn(st, seat)
    pub.turn.after_pong = True
