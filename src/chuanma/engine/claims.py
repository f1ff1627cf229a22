"""Claim windows: who may win, kong, pong or chow a discard (or rob an added kong), the pass rules,
and how simultaneous claims resolve (win > kong > pong > chow; 一炮多响 or the first winner in
play order). Chow exists where the variant has it (大众麻将): only the discarder's 下家 (whose
上家 discarded) may chow, only a suited tile, in every sequence its hand completes with the tile.

A :class:`PassRule` says what passing a win or a pong costs a seat (RULES §2.10, §9.1–9.2):
``none``; ``same_turn`` (同巡过手: a fan bar for wins and a pong ban until the seat's next draw);
``forever`` (过水不胡: never again a win on that tile, self-drawn included).
"""

from __future__ import annotations

from collections.abc import Callable

from chuanma.engine.actions import Action
from chuanma.engine.state import AFTER, HandState, SeatState
from chuanma.engine.tables import CHOW, HU, KONG, PASS, PONG, SUIT_OF
from chuanma.engine.wall import kong_allowed
from chuanma.engine.wins import completes, forced, score
from chuanma.rules import RuleSet
from chuanma.tiles import NUM_SUITED, Tile


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
