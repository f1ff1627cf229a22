"""The state machine of one hand of 血战到底 / 血流成河.

A :class:`Game` is built from the rules, the wall (108 tiles in draw order), the dealer and the
exchange direction; everything after that comes from the players' decisions, given one at a
time with :meth:`Game.apply`. Draws, the claim window's resolution, forced and automatic moves
happen inside the machine. Nothing here reads a clock, draws a random number or does I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from typing import Any, Literal

from chuanma.analysis import is_win, waits
from chuanma.engine.actions import (
    Action,
    ChooseVoid,
    Discard,
    Exchange,
    Hu,
    IllegalActionError,
    Kong,
    Leave,
    Pass,
    Pong,
)
from chuanma.engine.events import Event, EventForms, Visibility, event_forms
from chuanma.engine.ledger import KongRecord, Payment, Reason, Win, totals
from chuanma.engine.messages import explain
from chuanma.engine.settlement import escape_payments, exhaustive_settlement
from chuanma.engine.tables import (
    AFTER,
    DISCARD,
    HU,
    KONG,
    NEAR,
    PASS,
    PONG,
    SUIT_OF,
    TILE_TEXT,
    VOID_SLICE,
    exchange_options,
    format_counts,
    format_sequence,
    holds,
    listed,
    rules_json,
)
from chuanma.engine.wall import DEAL_END, LAST, check_wall, deal
from chuanma.melds import Meld
from chuanma.rules import RuleSet
from chuanma.scoring import ScoreResult, score_hand
from chuanma.tiles import NUM_KINDS, SUITS, Tile

Direction = Literal["to_next", "opposite", "to_previous"]
DIRECTIONS: dict[str, int] = {"to_next": 1, "opposite": 2, "to_previous": 3}
Phase = Literal["exchange", "void", "turn", "claim", "rob", "end"]

_new_event = tuple.__new__
_ALONE = [(s,) for s in range(4)]


class Game:
    """One hand. Read the state through :meth:`view`; change it only with :meth:`apply`."""

    def __init__(
        self,
        rules: RuleSet,
        wall: Sequence[Tile],
        dealer: int = 0,
        direction: Direction = "to_next",
        *,
        seeds: dict[str, Any] | None = None,
    ) -> None:
        if rules.variant not in ("xuezhan", "xueliu"):
            raise IllegalActionError(f"the engine plays 血战 and 血流, not {rules.variant!r}")
        if dealer not in range(4):
            raise IllegalActionError(f"dealer must be a seat 0-3, got {dealer!r}")
        if direction not in DIRECTIONS:
            raise IllegalActionError(
                f"direction must be one of {', '.join(DIRECTIONS)}, got {direction!r}"
            )
        self.rules = rules
        self.wall: list[Tile] = check_wall(wall)
        self.dealer = dealer
        self.direction: Direction = direction
        self.seeds = dict(seeds) if seeds else None
        self.xueliu = rules.variant == "xueliu"
        self._forever = rules.pass_rule == "forever"
        self._kong_margin = 3 if rules.no_kong_in_last_four else 0  # tiles beyond the replacement
        self._forced_in_last_four = rules.forced_win_in_last_four

        self.hands: list[list[int]] = [[0] * NUM_KINDS for _ in range(4)]
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.discards: list[list[Tile]] = [[] for _ in range(4)]
        self.win_piles: list[list[Tile]] = [[] for _ in range(4)]
        self.voids: list[str | None] = [None] * 4
        self.voids_revealed = False
        self.exchange_choice: list[tuple[Tile, Tile, Tile] | None] = [None] * 4
        self.direction_revealed = False
        self.live = DEAL_END
        self.tail = LAST
        self.phase: Phase = "exchange"
        self.current = dealer
        self.drawn: Tile | None = None
        self.draw_kind: Literal["live", "replacement"] | None = None
        self.after_pong = False
        self.turn_kong: KongRecord | None = None
        self.turn_kongs = 0
        self.drew_last = False
        self.first_turn = False
        self.declared = False
        self.live_draws = [0] * 4
        self.total_live_draws = 0
        self.dealer_discards = 0
        self.dihu_draw = False
        self.out = [False] * 4
        self.left = [False] * 4
        self.locked = [False] * 4
        self.locked_waits: list[frozenset[Tile]] = [frozenset()] * 4
        self.wins: list[Win] = []
        self.ledger: list[Payment] = []
        self.kongs: list[KongRecord] = []
        self.events: list[Event] = []
        self.bar: list[int | None] = [None] * 4
        self.pong_ban: list[set[Tile]] = [set() for _ in range(4)]
        self.banned: list[set[Tile]] = [set() for _ in range(4)]
        self.late_pongs: list[set[Tile]] = [set() for _ in range(4)]
        self.decisions: list[tuple[int, Action]] = []
        self.autos: list[tuple[int, Action]] = []
        self.end_reason: str | None = None
        self.first_multi_from: int | None = None
        # claim window
        self.claim_tile: Tile | None = None
        self.claim_from: int | None = None
        self.claim_options: dict[int, list[Action]] = {}
        self.claims: dict[int, Action] = {}
        self.claim_fans: dict[int, int] = {}
        self.claim_situations: tuple[str, ...] = ()
        self.discard_kong: KongRecord | None = None
        self.pending_kong: Tile | None = None
        # caches
        self._ver = [0] * 4
        self._waits: list[tuple[int, list[int]]] = [(-1, [])] * 4  # (hand version, its waits)
        self._pre_draw_ver = -1
        self._legal: dict[int, list[Action]] = {}
        self._forms: list[EventForms] = []  # events_for's forms of self.events, made on demand

        self._emit(
            "start",
            None,
            {"dealer": dealer, "rules": rules_json(rules), "base": rules.base, "wall": 108},
        )
        for seat, tiles in enumerate(deal(self.wall, dealer)):
            for t in tiles:
                self.hands[seat][t] += 1
            self._emit("deal", seat, {}, {"hand": format_counts(self.hands[seat])}, "private")
        self._emit("deal_done", None, {"wall": self.remaining})
        if rules.exchange:
            self.phase = "exchange"
        else:
            self._enter_void()
        self._run()

    # ------------------------------------------------------------------ basics

    @property
    def remaining(self) -> int:
        """Tiles left in the wall."""
        return self.tail - self.live + 1

    @property
    def finished(self) -> bool:
        return self.phase == "end"

    def _emit(
        self,
        type_: str,
        seat: int | None,
        data: dict[str, Any] | None = None,
        private: dict[str, Any] | None = None,
        visibility: Visibility = "public",
    ) -> Event:
        events = self.events
        # tuple.__new__ skips the named tuple's Python-level constructor: same value, less time
        ev = _new_event(Event, (len(events), type_, seat, data or {}, private or {}, visibility))
        events.append(ev)
        return ev

    def _pay(self, payer: int, payee: int, amount: int, reason: Reason, seq: int) -> int | None:
        if amount <= 0 or payer == payee:
            return None
        self.ledger.append(Payment(payer, payee, amount, reason, seq))
        self._emit(
            "payment",
            None,
            {"payer": payer, "payee": payee, "amount": amount, "reason": reason, "for": seq},
        )
        return len(self.ledger) - 1

    def _touch(self, seat: int) -> None:
        self._ver[seat] += 1

    def _tiles(self, seat: int) -> list[Tile]:
        return [t for t, c in enumerate(self.hands[seat]) if c for _ in range(c)]

    def _holds_void(self, seat: int) -> bool:
        v = self.voids[seat]
        return v is not None and any(self.hands[seat][VOID_SLICE[v]])

    def _waits_of(self, seat: int) -> list[int]:
        """Waits of the seat's 3n+1 concealed hand (cached per hand version)."""
        ver = self._ver[seat]
        hit = self._waits[seat]
        if hit[0] == ver:
            return hit[1]
        # a hand holding no void tile waits as if it had no void
        w: list[int] = [] if self._holds_void(seat) else waits(self.hands[seat], self.melds[seat])
        self._waits[seat] = (ver, w)
        return w

    def _active(self, seat: int) -> bool:
        return not self.out[seat]

    def _after(self, seat: int) -> tuple[int, int, int]:
        return AFTER[seat]

    def _next_active(self, seat: int) -> int | None:
        out = self.out
        for s in AFTER[seat]:
            if not out[s]:
                return s
        return None

    def _payers(self, seat: int) -> list[int]:
        if self.xueliu:
            return list(AFTER[seat])
        return [s for s in AFTER[seat] if not self.out[s]]

    def _kong_room(self) -> bool:
        return self.tail - self.live >= self._kong_margin

    def _in_last_four(self) -> bool:
        return self.tail - self.live < 3

    def _forced(self) -> bool:
        return self._forced_in_last_four and self.tail - self.live < 3

    def _score(
        self, seat: int, win_tile: Tile, *, self_drawn: bool, situations: Sequence[str],
        in_hand: bool,
    ) -> ScoreResult:
        tiles = self._tiles(seat)
        if in_hand:
            tiles.remove(win_tile)
        return score_hand(
            self.rules,
            tiles,
            self.melds[seat],
            win_tile,
            self_drawn=self_drawn,
            void=self.voids[seat],
            situations=frozenset(situations),
        )

    # ------------------------------------------------------------------ queries

    def to_act(self) -> tuple[int, ...]:
        """Seats that owe a decision now."""
        if self.phase == "turn":
            return _ALONE[self.current]
        if self.phase == "exchange":
            return tuple(s for s in range(4) if self.exchange_choice[s] is None)
        if self.phase == "void":
            return tuple(s for s in range(4) if self.voids[s] is None)
        if self.phase in ("claim", "rob"):
            return tuple([s for s in self.claim_options if s not in self.claims])
        return ()

    def legal_actions(self, seat: int) -> list[Action]:
        """Every decision ``seat`` may make now (empty when it has none to make)."""
        hit = self._legal.get(seat)
        if hit is None:
            hit = self._compute_legal(seat)
            self._legal[seat] = hit
        return list(hit)

    def _compute_legal(self, seat: int) -> list[Action]:
        if self.phase == "turn":
            return self._turn_actions(seat) if seat == self.current else []
        if seat not in self.to_act():
            return []
        if self.phase == "exchange":
            return exchange_options(self.hands[seat])
        if self.phase == "void":
            return [ChooseVoid(s) for s in SUITS]
        if self.phase in ("claim", "rob"):
            return list(self.claim_options[seat])
        return self._turn_actions(seat)

    def _can_self_hu(self, seat: int) -> bool:
        if self.after_pong:
            return False
        if self.first_turn:
            return not self._holds_void(seat) and is_win(bytes(self.hands[seat]))
        t = self.drawn
        if t is None or t in self.banned[seat]:
            return False
        h = self.hands[seat]
        lo, hi = NEAR[t]
        if sum(h[lo:hi]) == 1:
            return False  # the drawn tile has no copy or neighbour to go with
        hit = self._waits[seat]
        if hit[0] == self._pre_draw_ver:
            return t in hit[1]
        # t is a wait of the hand before the draw exactly when the hand with it is complete
        return not self._holds_void(seat) and is_win(bytes(h))

    def _turn_actions(self, seat: int) -> list[Action]:
        out: list[Action] = []
        h = self.hands[seat]
        if self._can_self_hu(seat):
            if self._forced():
                return [HU]
            out.append(HU)
        if not self.after_pong and self.tail - self.live >= self._kong_margin:  # _kong_room()
            if self.locked[seat]:
                t = self.drawn
                if self.rules.winners_kong and t is not None and self._kong_keeps_waits(seat, t):
                    out.append(KONG[t])
            else:
                void = self.voids[seat]
                if 4 in h:
                    for t in range(27):
                        if h[t] == 4 and SUIT_OF[t] != void:
                            out.append(KONG[t])
                for m in self.melds[seat]:
                    if m.kind == "pong" and h[m.tile]:
                        out.append(KONG[m.tile])
        if self.locked[seat]:
            if self.drawn is not None:
                out.append(DISCARD[self.drawn])
            return out
        v = self.voids[seat]
        if v is not None:
            suit = VOID_SLICE[v]
            held = h[suit]
            if any(held):
                out.extend(compress(DISCARD[suit], held))
                return out
        out.extend(compress(DISCARD, h))
        return out

    def _kong_keeps_waits(self, seat: int, t: Tile) -> bool:
        h = self.hands[seat]
        melds = list(self.melds[seat])
        counts = list(h)
        if h[t] == 4:
            counts[t] = 0
            melds.append(Meld("kong", t, "concealed"))
        elif any(m.kind == "pong" and m.tile == t for m in melds):
            counts[t] -= 1
            melds = [Meld("kong", t, "added") if m.kind == "pong" and m.tile == t else m
                     for m in melds]
        else:
            return False
        return frozenset(waits(counts, melds, self.voids[seat])) == self.locked_waits[seat]

    # ------------------------------------------------------------------ applying

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply ``seat``'s decision; returns the events it caused.

        Raises :class:`IllegalActionError` (state untouched) for anything not in
        :meth:`legal_actions`.
        """
        legal = self._legal.get(seat)
        if legal is None:
            if isinstance(action, Leave):
                return self.leave(seat)
            legal = self._legal[seat] = self._compute_legal(seat)
        if not listed(action, legal):
            if isinstance(action, Leave):
                return self.leave(seat)
            raise IllegalActionError(explain(self, seat, action))
        start = len(self.events)
        self.decisions.append((seat, action))
        if type(action) is Discard:  # the most common decision, without the general dispatch
            self._legal = {}
            self._do_discard(seat, action.tile, self._forever and holds(legal, HU))
            # a discard leaves an open claim window, the end, or the next seat's turn: only a
            # locked winner's turn (血流) goes on without a decision
            if self.phase == "turn" and self.locked[self.current]:
                self._run()
        else:
            self._do(seat, action)
            self._run()
        return self.events[start:]

    def leave(self, seat: int) -> list[Event]:
        """逃跑 (RULES §6): ``seat`` leaves the table.

        In 血战 a seat that has already won leaves without stopping the hand (it is no longer
        refunded by 退税). Any other leaver ends the hand at once: with ``escape_penalty`` it pays
        each other seat that has not won 16 base, or inside the last four tiles that seat's 查大叫
        amount if higher. Payments made so far stand; no exhaustive-draw settlement runs.
        """
        if seat not in range(4):
            raise IllegalActionError(f"no seat {seat!r}: seats are 0-3")
        if self.finished:
            raise IllegalActionError("the hand is over")
        if self.left[seat]:
            raise IllegalActionError(f"seat {seat} has already left")
        start = len(self.events)
        self.decisions.append((seat, Leave()))
        self._legal = {}
        self.left[seat] = True
        ev = self._emit("leave", seat, {"wall": self.remaining})
        if self.out[seat]:
            return self.events[start:]
        if self.rules.escape_penalty:
            escape_payments(self, seat, ev.seq)
        self._end("escape")
        return self.events[start:]

    def pass_pending(self) -> list[Event]:
        """Every seat that still owes an answer in a claim window passes (or, if it must win,
        wins). This is how a record's omitted passes are read."""
        start = len(self.events)
        if self.phase in ("claim", "rob"):
            for s in self.to_act():
                opts = self.claim_options[s]
                act: Action = Hu() if opts == [Hu()] else Pass()
                self.autos.append((s, act))
                self._do(s, act)
            self._run()
        return self.events[start:]

    def _do(self, seat: int, action: Action) -> None:
        # on one's own turn a win was on offer exactly when Hu() was listed (only ``forever`` asks)
        win_offered = self._forever and holds(self._legal.get(seat, ()), HU)
        self._legal = {}
        if type(action) is Discard:  # the most common decision: no claim window is open
            self._do_discard(seat, action.tile, win_offered)
        elif isinstance(action, Exchange):
            self._do_exchange(seat, action)
        elif isinstance(action, ChooseVoid):
            self._do_void(seat, action.suit)
        elif self.phase in ("claim", "rob"):
            self.claims[seat] = action
            self._emit("claim", seat, {}, {"claim": action.to_json()}, "private")
        elif isinstance(action, Hu):
            self._do_self_hu(seat)
        elif isinstance(action, Kong):
            self._do_own_kong(seat, action.tile, win_offered)
        else:  # pragma: no cover - legal_actions never offers anything else
            raise IllegalActionError(f"{action} is not a decision of this moment")

    def _run(self) -> None:
        """Carry out everything that happens without a decision."""
        while True:
            if self._legal:
                self._legal = {}
            phase = self.phase
            if phase == "claim" or phase == "rob":
                if len(self.claims) < len(self.claim_options):
                    return
                if phase == "claim":
                    self._resolve_discard()
                else:
                    self._resolve_rob()
                continue
            if phase == "turn" and self.locked[self.current]:
                acts = self._turn_actions(self.current)
                if len(acts) == 1 and isinstance(acts[0], Discard):
                    self.autos.append((self.current, acts[0]))
                    self._do_discard(self.current, acts[0].tile, False)
                    continue
            return

    # ------------------------------------------------------------------ exchange / void

    def _do_exchange(self, seat: int, action: Exchange) -> None:
        self.exchange_choice[seat] = action.tiles
        # a legal choice is sorted (as every listed one is): its text needs no sorting
        self._emit("exchange_chosen", seat, {}, {"tiles": format_sequence(action.tiles)})
        if any(c is None for c in self.exchange_choice):
            return
        step = DIRECTIONS[self.direction]
        for s in range(4):
            for t in self.exchange_choice[s] or ():
                self.hands[s][t] -= 1
        for s in range(4):
            to = (s + step) % 4
            for t in self.exchange_choice[s] or ():
                self.hands[to][t] += 1
            self._touch(s)
        self.direction_revealed = True
        self._emit("exchange", None, {"direction": self.direction})
        for s in range(4):
            frm = (s - step) % 4
            got = self.exchange_choice[frm] or ()
            self._emit("exchange_received", s, {}, {"tiles": format_sequence(got), "from": frm},
                       "private")
        self._enter_void()

    def _enter_void(self) -> None:
        self.phase = "void"
        for s in range(4):
            h = self.hands[s]
            held = [suit for suit in SUITS if any(h[VOID_SLICE[suit]])]
            if len(held) == 2:
                suit = next(x for x in SUITS if x not in held)
                self.autos.append((s, ChooseVoid(suit)))
                self._do_void(s, suit, auto=True)

    def _do_void(self, seat: int, suit: str, *, auto: bool = False) -> None:
        self.voids[seat] = suit
        self._touch(seat)
        # whether the choice was automatic (a two-suit hand) is the seat's own business
        private: dict[str, Any] = {"suit": suit, "automatic": True} if auto else {"suit": suit}
        self._emit("void_chosen", seat, {}, private)
        if any(v is None for v in self.voids):
            return
        self.voids_revealed = True
        self._emit("voids", None, {"voids": list(self.voids)})
        self.phase = "turn"
        self.current = self.dealer
        self.first_turn = True
        self.drawn = None
        self.draw_kind = None

    # ------------------------------------------------------------------ turn flow

    def _begin_turn(self, seat: int) -> None:
        self.phase = "turn"
        self.current = seat
        self.drawn = None
        self.draw_kind = None
        self.after_pong = False
        self.turn_kong = None
        self.turn_kongs = 0
        self.drew_last = False
        self.first_turn = False
        self.dihu_draw = False

    def _draw_for(self, seat: int | None, replacement: bool = False) -> None:
        """Start ``seat``'s turn with a draw; the hand ends if the wall is empty."""
        if seat is None:
            self._end("three_won")
            return
        if self.tail < self.live:
            self._end("exhausted")
            return
        ver = self._ver
        self._pre_draw_ver = ver[seat]
        if replacement:
            t = self.wall[self.tail]
            self.tail -= 1
            self.dihu_draw = False
            self.draw_kind = "replacement"
        else:
            self._begin_turn(seat)
            t = self.wall[self.live]
            self.live += 1
            self.dihu_draw = seat != self.dealer and self.live_draws[seat] == 0 and not self.declared
            self.live_draws[seat] += 1
            self.total_live_draws += 1
            self.draw_kind = "live"
        self.hands[seat][t] += 1
        ver[seat] += 1
        self.drawn = t
        left = self.tail - self.live + 1
        self.drew_last = left == 0
        self.bar[seat] = None
        if self.pong_ban[seat]:
            self.pong_ban[seat].clear()
        self._emit("draw", seat, {"wall": left, "replacement": replacement}, {"tile": TILE_TEXT[t]})

    def _forever_pass_on_self_draw(self, seat: int, win_offered: bool) -> None:
        """Under ``forever``, declining a self-drawn win (except 天胡) bans wins on that tile."""
        if self._forever and win_offered and not self.first_turn and self.drawn is not None:
            self.banned[seat].add(self.drawn)

    def _do_discard(self, seat: int, t: Tile, win_offered: bool) -> None:
        if win_offered:
            self._forever_pass_on_self_draw(seat, win_offered)
        h = self.hands[seat]
        h[t] -= 1
        self._ver[seat] += 1
        self.discards[seat].append(t)
        # 过手杠: ending a turn holding the fourth tile of a pong while adding it was legal
        if self.melds[seat] and not self.after_pong and self._kong_room() and not self.locked[seat]:
            for m in self.melds[seat]:
                if m.kind == "pong" and h[m.tile]:
                    self.late_pongs[seat].add(m.tile)
        situations: tuple[str, ...] = ()
        if seat == self.dealer:
            if (self.dealer_discards == 0 and self.rules.dihu_on_dealer_discard
                    and self.total_live_draws == 0 and not self.declared):
                situations = ("dihu",)
            self.dealer_discards += 1
        self.first_turn = False
        self._emit("discard", seat, {"tile": TILE_TEXT[t], "wall": self.tail - self.live + 1})
        if self.turn_kong is not None:
            situations += ("after_kong",)
        if self.drew_last:
            situations += ("last_tile",)
        self.discard_kong = self.turn_kong
        if not self._open_claims(seat, t, situations, rob=False):
            # nobody can claim: the next seat draws at once
            self._draw_for(self._next_active(seat))

    def _hu_option(self, seat: int, t: Tile, situations: tuple[str, ...]) -> bool:
        """Whether ``seat`` may win on the wait ``t`` (no pass rule forbids it)."""
        if t in self.banned[seat]:
            return False
        if self.rules.pass_rule == "same_turn" and self.bar[seat] is not None:
            fan = self._claim_fan(seat, t, situations)
            bar = self.bar[seat]
            return bar is not None and fan > bar
        return True

    def _claim_fan(self, seat: int, t: Tile, situations: tuple[str, ...]) -> int:
        if seat not in self.claim_fans:
            res = self._score(seat, t, self_drawn=False, situations=situations, in_hand=False)
            self.claim_fans[seat] = res.total
        return self.claim_fans[seat]

    def _open_claims(self, frm: int, t: Tile, situations: tuple[str, ...], *, rob: bool) -> bool:
        """Open the claim window on ``t``; False (and nothing opened) if nobody can claim."""
        if self.claim_options:
            self.claim_options = {}
        if self.claims:
            self.claims = {}
        if self.claim_fans:
            self.claim_fans = {}
        lo, hi = NEAR[t]
        for s in AFTER[frm]:
            h = self.hands[s]
            # a tile with no copy or neighbour (two ranks) in hand completes nothing; else a seat
            # may claim it if it holds a pair of it or waits on it
            if self.out[s] or not any(h[lo:hi]):
                continue
            hit = self._waits[s]
            if h[t] < 2 and t not in (hit[1] if hit[0] == self._ver[s] else self._waits_of(s)):
                continue
            opts = self._claim_options(s, t, situations, rob)
            if opts:
                self.claim_options[s] = opts
        if not self.claim_options and not rob:
            return False
        self.claim_tile = t
        self.claim_from = frm
        self.claim_situations = situations
        self.phase = "rob" if rob else "claim"
        if not rob:
            self.current = frm
        return True

    def _claim_options(self, s: int, t: Tile, situations: tuple[str, ...], rob: bool) -> list[Action]:
        """What seat ``s`` may claim on ``t`` (nothing, or the options and ``Pass()``)."""
        opts: list[Action] = []
        hit = self._waits[s]
        if t in (hit[1] if hit[0] == self._ver[s] else self._waits_of(s)) and self._hu_option(s, t, situations):
            if self._forced():
                return [HU]
            opts.append(HU)
        if not rob and not self.locked[s] and SUIT_OF[t] != self.voids[s]:
            c = self.hands[s][t]
            if c == 3 and self._kong_room():
                opts.append(KONG[t])
            if c >= 2 and t not in self.pong_ban[s]:
                opts.append(PONG[t])
        if opts:
            opts.append(PASS)
        return opts

    def _record_passes(self) -> None:
        t = self.claim_tile
        assert t is not None
        for s, opts in self.claim_options.items():
            claim = self.claims.get(s)
            if holds(opts, HU) and not isinstance(claim, Hu):
                if self.rules.pass_rule == "forever":
                    self.banned[s].add(t)
                elif self.rules.pass_rule == "same_turn":
                    fan = self._claim_fan(s, t, self.claim_situations)
                    bar = self.bar[s]
                    self.bar[s] = fan if bar is None else max(bar, fan)
            if (holds(opts, PONG[t]) and not isinstance(claim, Pong | Kong)
                    and self.rules.pass_rule == "same_turn"):
                self.pong_ban[s].add(t)

    def _hu_claimants(self) -> list[int]:
        assert self.claim_from is not None
        seats = [s for s in self._after(self.claim_from) if isinstance(self.claims.get(s), Hu)]
        if seats and not self.rules.multiple_winners:
            seats = seats[:1]
        return seats

    def _resolve_discard(self) -> None:
        t, frm = self.claim_tile, self.claim_from
        assert t is not None and frm is not None
        if not self.claim_options:
            self._close_window()
            self._draw_for(self._next_active(frm))
            return
        self._record_passes()
        winners = self._hu_claimants()
        if winners:
            self.discards[frm].pop()
            self._claim_wins(winners, frm, t, robbed=False)
            k = self.discard_kong
            if k is not None and self.rules.call_transfer != "off" and not k.transferred:
                earned = sum(self.ledger[i].amount for i in k.payments)
                if earned:
                    seqs = {w.seat: w.seq for w in self.wins[-len(winners):]}
                    to = winners if self.rules.call_transfer == "each_winner" else winners[:1]
                    for w in to:
                        self._pay(k.seat, w, earned, "call_transfer", seqs[w])
                    k.transferred = True
            self._after_discard_wins(winners, frm)
            return
        for s, claim in self.claims.items():
            if isinstance(claim, Kong):
                self._exposed_kong(s, frm, t)
                return
        for s, claim in self.claims.items():
            if isinstance(claim, Pong):
                self._pong(s, frm, t)
                return
        self._close_window()
        self._draw_for(self._next_active(frm))

    def _close_window(self) -> None:
        self.claim_options = {}
        self.claims = {}
        self.claim_fans = {}
        self.claim_tile = None
        self.claim_from = None
        self.claim_situations = ()
        self.phase = "turn"

    def _claim_wins(self, winners: list[int], frm: int, t: Tile, *, robbed: bool) -> None:
        situations = list(self.claim_situations)
        if not self.wins and len(winners) > 1:
            self.first_multi_from = frm
        for i, w in enumerate(winners):
            res = self._score(w, t, self_drawn=False, situations=situations, in_hand=False)
            if i == 0:
                self.win_piles[w].append(t)
            win = self._record_win(w, t, frm, robbed, res, situations)
            self._pay(frm, w, res.multiplier, "qianggang" if robbed else "dianpao", win.seq)

    def _record_win(
        self, seat: int, t: Tile, frm: int | None, robbed: bool, res: ScoreResult,
        situations: Sequence[str],
    ) -> Win:
        if not res.win:  # the engine only offers wins that scoring accepts
            raise AssertionError(f"seat {seat}: scoring refused the win ({res.reason})")
        hand = tuple(self._tiles(seat))
        seq = len(self.events)
        win = Win(
            seat, t, frm, robbed, tuple((f.id, f.name, f.fan) for f in res.fans), res.total,
            res.multiplier, tuple(situations), hand, seq,
        )
        self._emit("hu", seat, win.to_json())
        self.wins.append(win)
        if self.xueliu:
            if not self.locked[seat]:
                self.locked[seat] = True
                self.locked_waits[seat] = frozenset(self._waits_of(seat))
        else:
            self.out[seat] = True
        return win

    def _after_discard_wins(self, winners: list[int], frm: int) -> None:
        self._close_window()
        far = max(winners, key=lambda s: (s - frm) % 4)
        if not self.xueliu and sum(self.out) >= 3:
            self._end("three_won")
            return
        self._draw_for(self._next_active(far))

    def _pong(self, seat: int, frm: int, t: Tile) -> None:
        self._close_window()
        self.discards[frm].pop()
        self.hands[seat][t] -= 2
        self.melds[seat].append(Meld("pong", t))
        self._touch(seat)
        self.declared = True
        self._begin_turn(seat)
        self.after_pong = True
        if self.hands[seat][t]:
            self.late_pongs[seat].add(t)
        self._emit("pong", seat, {"tile": TILE_TEXT[t], "from": frm})

    def _exposed_kong(self, seat: int, frm: int, t: Tile) -> None:
        self._close_window()
        self.discards[frm].pop()
        self.hands[seat][t] -= 3
        self.melds[seat].append(Meld("kong", t, "exposed"))
        self._touch(seat)
        self.declared = True
        self._begin_turn(seat)
        ev = self._emit("kong", seat, {"tile": TILE_TEXT[t], "kind": "exposed", "from": frm})
        k = KongRecord(seat, t, "exposed", ev.seq)
        self._kong_pay(k, 2, frm)
        self.kongs.append(k)
        self.turn_kong = k
        self.turn_kongs += 1
        self._draw_for(seat, replacement=True)

    def _kong_pay(self, k: KongRecord, each: int, discarder: int | None = None) -> None:
        if discarder is not None:
            targets = [(discarder, 2)]
            if self.rules.exposed_kong == "everyone":
                targets += [(p, 1) for p in self._payers(k.seat) if p != discarder]
        else:
            targets = [(p, each) for p in self._payers(k.seat)]
        reason: Reason = (
            "kong_exposed" if k.kind == "exposed"
            else "kong_concealed" if k.kind == "concealed" else "kong_added"
        )
        for payer, amount in targets:
            idx = self._pay(payer, k.seat, amount, reason, k.seq)
            if idx is not None:
                k.payments.append(idx)

    def _do_own_kong(self, seat: int, t: Tile, win_offered: bool) -> None:
        self._forever_pass_on_self_draw(seat, win_offered)
        self.first_turn = False
        h = self.hands[seat]
        if h[t] == 4:
            h[t] = 0
            self.melds[seat].append(Meld("kong", t, "concealed"))
            self._touch(seat)
            self.declared = True
            ev = self._emit("kong", seat, {"kind": "concealed"}, {"tile": TILE_TEXT[t]})
            k = KongRecord(seat, t, "concealed", ev.seq)
            self._kong_pay(k, 2)
            self.kongs.append(k)
            self.turn_kong = k
            self.turn_kongs += 1
            self._draw_for(seat, replacement=True)
            return
        # added kong: the robbing window first
        self.declared = True
        ev = self._emit("kong_declared", seat, {"tile": TILE_TEXT[t], "kind": "added"})
        self.pending_kong = t
        if self.rules.robbing_kong:
            self._open_claims(seat, t, ("robbing_kong",), rob=True)
            self.current = seat
        else:
            self._complete_added_kong()

    def _resolve_rob(self) -> None:
        t, frm = self.claim_tile, self.claim_from
        assert t is not None and frm is not None
        self._record_passes()
        winners = self._hu_claimants()
        if not winners:
            self._close_window()
            self._complete_added_kong()
            return
        self.hands[frm][t] -= 1
        self._touch(frm)
        self.pending_kong = None
        self._emit("kong_robbed", frm, {"tile": TILE_TEXT[t]})
        self._claim_wins(winners, frm, t, robbed=True)
        self._after_discard_wins(winners, frm)

    def _complete_added_kong(self) -> None:
        seat = self.current
        t = self.pending_kong
        assert t is not None
        self.pending_kong = None
        self.phase = "turn"
        self.hands[seat][t] -= 1
        self.melds[seat] = [
            Meld("kong", t, "added") if m.kind == "pong" and m.tile == t else m
            for m in self.melds[seat]
        ]
        self._touch(seat)
        late = t in self.late_pongs[seat]
        ev = self._emit("kong", seat, {"tile": TILE_TEXT[t], "kind": "added", "late": late})
        k = KongRecord(seat, t, "added", ev.seq)
        if not late or self.rules.late_added_kong_pays:
            self._kong_pay(k, 1)
        self.kongs.append(k)
        self.turn_kong = k
        self.turn_kongs += 1
        self._draw_for(seat, replacement=True)

    def _do_self_hu(self, seat: int) -> None:
        situations: list[str] = []
        if self.first_turn:
            t = self.wall[52] if self.hands[seat][self.wall[52]] else max(self._tiles(seat))
            situations.append("tianhu")
        else:
            t = self.drawn if self.drawn is not None else 0
            if self.draw_kind == "replacement":
                situations.append("kong_replacement")
                if self.turn_kongs >= 2:
                    situations.append("consecutive_kongs")
            if self.drew_last:
                situations.append("last_tile")
            if self.dihu_draw:
                situations.append("dihu")
        res = self._score(seat, t, self_drawn=True, situations=situations, in_hand=True)
        self.hands[seat][t] -= 1
        self._touch(seat)
        self.win_piles[seat].append(t)
        self.first_turn = False
        k = self.turn_kong
        payers = self._payers(seat)
        if (self.rules.exposed_kong_flower == "discarder_pays" and self.draw_kind == "replacement"
                and k is not None and k.kind == "exposed"):
            payers = [self.ledger[k.payments[0]].payer] if k.payments else payers
        win = self._record_win(seat, t, None, False, res, situations)
        each = res.multiplier + (1 if self.rules.zimo_bonus == "base" else 0)
        for p in payers:
            self._pay(p, seat, each, "zimo", win.seq)
        if not self.xueliu and sum(self.out) >= 3:
            self._end("three_won")
            return
        self._draw_for(self._next_active(seat))

    # ------------------------------------------------------------------ the end

    def _end(self, reason: str) -> None:
        self.phase = "end"
        self.end_reason = reason
        self._close_window()
        self.phase = "end"
        if reason == "exhausted":
            ev = self._emit("exhausted", None, {})
            exhaustive_settlement(self, ev.seq)
        self._emit(
            "end",
            None,
            {
                "reason": reason,
                "hands": [format_counts(h) for h in self.hands],
                "melds": [[m.to_dict() for m in ms] for ms in self.melds],
                "deltas": self.deltas(),
            },
        )

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know now (``None``: a spectator); see :mod:`chuanma.engine.views`."""
        from chuanma.engine.views import seat_view

        return seat_view(self, seat)

    def events_for(self, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
        """The events from ``since`` on, as ``seat`` (``None``: a spectator) may see them
        (each a new dict: ``Event.for_seat``)."""
        forms = self._forms
        if len(forms) < len(self.events):
            forms.extend([event_forms(ev) for ev in self.events[len(forms):]])
        if seat is None:
            return [public.copy() for _, public, _ in forms[since:] if public is not None]
        return [(own if owner == seat else public).copy()  # type: ignore[union-attr]
                for owner, public, own in forms[since:] if public is not None or owner == seat]

    # ------------------------------------------------------------------ results

    def deltas(self) -> list[int]:
        """Net result per seat so far, in units of base."""
        return totals(self.ledger)

    def next_dealer(self) -> int:
        """Who deals next under ``dealer: first_winner`` (RULES §2.1)."""
        if not self.wins:
            return self.dealer
        if self.first_multi_from is not None:
            return self.first_multi_from
        return self.wins[0].seat

    def record(self) -> dict[str, Any]:
        """The ``chuanma-record/1`` record of this hand (see :func:`chuanma.engine.to_record`)."""
        from chuanma.engine.record import to_record

        return to_record(self)

    def result(self) -> dict[str, Any]:
        return {
            "deltas": self.deltas(),
            "payments": [p.to_json() for p in self.ledger],
            "winners": [w.to_json() for w in self.wins],
        }

    def tile_total(self) -> int:
        """Tiles in wall + hands + melds + discards + win piles (always 108)."""
        n = self.remaining
        for s in range(4):
            n += sum(self.hands[s])
            n += sum(len(m.tiles) for m in self.melds[s])
            n += len(self.discards[s]) + len(self.win_piles[s])
        return n
