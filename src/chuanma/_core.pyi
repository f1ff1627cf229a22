"""The compiled rules of chuanma; the Python package is their facade."""

from collections.abc import Sequence
import enum
from typing import Annotated, TypeVar, overload

import numpy
from numpy.typing import NDArray

import chuanma.engine.events


BAD_COUNTS: int = -100

BAD_SIZE: int = -101

BAD_VOID: int = -102

MAX_TOTAL: int = 50

def load_tables() -> None:
    """
    Build the hand-analysis tables now (else the first analysis call does), e.g. before forking workers.
    """

def tables_built() -> bool:
    """
    Whether the hand-analysis tables are built (here, or in the parent this process was forked from).
    """

def counts_ok(k: bytes) -> bool:
    """
    True for 27 or 34 counts of 0-4, at most 14 of a suit or of the honours.
    """

def is_win(k: bytes) -> bool:
    """
    True for n sets and a pair, seven pairs (14 tiles) or 十三幺; False for bad counts.
    """

def decompositions(k: bytes) -> list[tuple[int, ...]]:
    """
    Every reading of a complete hand as (form, pair, *items): form 0 sets and a pair (items: the sets, 2*tile for a triplet, 2*tile+1 for a sequence from tile), 1 seven pairs (items: the pairs' tiles, pair -1), 2 十三幺 (pair: the kind held twice); empty if incomplete or bad counts.
    """

def shanten(k: bytes, vi: int) -> int:
    """Shanten of the best form, or a refusal code (below -1)."""

def shanten_standard(k: bytes, vi: int) -> int:
    """Shanten of the sets-and-pair form, or a refusal code."""

def shanten_seven_pairs(k: bytes, vi: int) -> int:
    """Shanten of the seven-pairs form, or a refusal code."""

def shanten_thirteen_orphans(k: bytes) -> int:
    """Shanten of the 十三幺 form, or a refusal code."""

def waits(k: bytes, vi: int, melds: Sequence[Sequence[int]]) -> list[int] | int:
    """
    The waits (ascending) of a 3n+1 hand but the tiles it and its melds hold all four of, or a refusal code.
    """

def is_win_batch(hands: Annotated[NDArray[numpy.uint8], dict(shape=(None, None), order='C', device='cpu', writable=False)], out: Annotated[NDArray[numpy.bool_], dict(shape=(None,), order='C', device='cpu')]) -> int:
    """
    Win check of every row into out; -1, or the first row with a count above 4.
    """

def shanten_batch(hands: Annotated[NDArray[numpy.uint8], dict(shape=(None, None), order='C', device='cpu', writable=False)], voids: Annotated[NDArray[numpy.int8], dict(shape=(None,), order='C', device='cpu', writable=False)], out: Annotated[NDArray[numpy.int8], dict(shape=(None,), order='C', device='cpu')]) -> int:
    """Shanten of every row into out; -1, or the first row refused."""

class FanStyle(enum.Enum):
    """Whose fan table scores: Sichuan's or 大众麻将's."""

    SICHUAN = 0

    DAZHONG = 1

class YaojiuRule(enum.Enum):
    """幺九 as 带幺九 (every set a 1 or 9) or every tile a 1 or 9."""

    DAIYAOJIU = 0

    LITERAL = 1

class MeldKind(enum.Enum):
    """A declared set's kind."""

    PONG = 0

    KONG = 1

    CHOW = 2

class NoWin(enum.Enum):
    """Why a hand does not win (WINS: it does)."""

    WINS = 0

    VOID_HELD = 1

    THREE_SUITS = 2

    ROBBING_KONG = 3

    INCOMPLETE = 4

class ScoreOptions:
    """The rule options scoring reads."""

    @overload
    def __init__(self) -> None: ...

    @overload
    def __init__(self, other: ScoreOptions) -> None:
        """A copy of other."""

    @property
    def style(self) -> FanStyle: ...

    @style.setter
    def style(self, arg: FanStyle, /) -> None: ...

    @property
    def void_suit(self) -> bool:
        """定缺 is played: three suits cannot win."""

    @void_suit.setter
    def void_suit(self, arg: bool, /) -> None: ...

    @property
    def longqidui(self) -> bool: ...

    @longqidui.setter
    def longqidui(self, arg: bool, /) -> None: ...

    @property
    def yaojiu(self) -> YaojiuRule: ...

    @yaojiu.setter
    def yaojiu(self, arg: YaojiuRule, /) -> None: ...

    @property
    def max_fan(self) -> int:
        """封顶, -1 for none (0 to 64)."""

    @max_fan.setter
    def max_fan(self, arg: int, /) -> None: ...

    @property
    def zimo_fan(self) -> bool:
        """自摸 is a fan."""

    @zimo_fan.setter
    def zimo_fan(self, arg: bool, /) -> None: ...

    @property
    def gangshangpao(self) -> bool: ...

    @gangshangpao.setter
    def gangshangpao(self, arg: bool, /) -> None: ...

    @property
    def haidilaoyue(self) -> bool: ...

    @haidilaoyue.setter
    def haidilaoyue(self, arg: bool, /) -> None: ...

    @property
    def haidipao(self) -> bool: ...

    @haidipao.setter
    def haidipao(self, arg: bool, /) -> None: ...

    @property
    def gangshang_shuanghua(self) -> bool: ...

    @gangshang_shuanghua.setter
    def gangshang_shuanghua(self, arg: bool, /) -> None: ...

    @property
    def dihu_on_dealer_discard(self) -> bool: ...

    @dihu_on_dealer_discard.setter
    def dihu_on_dealer_discard(self, arg: bool, /) -> None: ...

    @property
    def robbing_kong(self) -> bool: ...

    @robbing_kong.setter
    def robbing_kong(self, arg: bool, /) -> None: ...

    @property
    def house(self) -> int:
        """The house fans enabled: bit 1 << fan index."""

    @house.setter
    def house(self, arg: int, /) -> None: ...

    @property
    def value(self) -> list[int]:
        """Each fan's value (0 to 64), by fan index (fan_ids())."""

    @value.setter
    def value(self, arg: Sequence[int], /) -> None: ...

def fan_ids() -> list[str]:
    """Every fan's id, by its index in the core."""

def situation_ids() -> list[str]:
    """Every situation's id, by its bit in a situation set."""

def score(k: bytes, melds: Sequence[tuple[MeldKind, int, bool]], win_tile: int, self_drawn: bool, vi: int, situations: int, options: ScoreOptions) -> tuple[NoWin, list[tuple[int, int]], int, tuple[int, ...] | None]:
    """
    Score a win (k: the concealed counts, win tile included; situations: bits by situation_ids()) as (reason, [(fan index, value)] in table order, total capped, the reading scored as decompositions() gives it, None when no win).
    """

def highest_total(options: ScoreOptions) -> int:
    """
    The highest total a win can reach under `options` (an upper bound: 封顶 when set, else the larger of the limit hands' values and the sum of every other fan at its most); Rules refuses rules whose highest total is above MAX_TOTAL.
    """

def max_static_fan(k: bytes, melds: Sequence[tuple[MeldKind, int, bool]], vi: int, options: ScoreOptions) -> int:
    """
    查大叫: the best total over every wait of a 3n+1 hand, won on a discard with no situation; -1 when not ready, a refusal code (below -1) for counts, a size or a void waits() refuses.
    """

class HandEval:
    """
    Shanten of a hand and of its one-tile changes (counts checked by the facade).
    """

    def __init__(self, k: bytes, vi: int) -> None: ...

    def shanten(self) -> int:
        """Shanten of the hand."""

    def without(self, t: int) -> int:
        """Shanten after discarding t."""

    def swap(self, t: int, u: int) -> int:
        """Shanten after discarding t and drawing u."""

    def with_(self, u: int) -> int:
        """Shanten after drawing u."""

    def useful_tiles(self, t: int, sh: int) -> list[int]:
        """
        The tiles that, drawn after discarding t, lower sh (the shanten without t), ascending.
        """

    def useful(self, t: int, sh: int, unseen: Sequence[int]) -> int:
        """Unseen copies (by tile) of the useful tiles after discarding t."""

class RulesRefused(ValueError):
    pass

class NotLegal(ValueError):
    pass

class Rules:
    """Every option of a chuanma.rules.RuleSet, for the compiled reducer."""

    def __init__(self, rules: object, scoring: ScoreOptions) -> None:
        """
        A RuleSet's options, and what the fan scoring reads of them (chuanma.scoring.score_options, checked against the RuleSet); RulesRefused for a rule set whose wins could be paid more than 2^50 base.
        """

    def options(self) -> dict[str, object]:
        """Every option and its value, as RuleSet.options() gives them."""

Item = TypeVar("Item")

class Hand:
    """
    One hand as the compiled state machine: decisions are action indices (chuanma.engine.indices); events are (type, seat, tile, from, a, b, value) tuples.
    """

    def __init__(self, rules: Rules, wall: Sequence[int], dealer: int, direction: int) -> None:
        """
        A hand dealt from `wall` (draw order); `direction`: the seats exchanged tiles travel (1-3).
        """

    @staticmethod
    def from_dict(data: dict[str, object]) -> Hand:
        """
        The hand of a state in the chuanma-state/1 JSON form (HandState.to_dict()); ValueError, naming the field, for anything malformed.
        """

    def to_dict(self) -> dict[str, object]:
        """
        The whole state in the chuanma-state/1 JSON form, as HandState.to_dict() gives it.
        """

    def __getstate__(self) -> dict[str, object]:
        """Pickled as its JSON form."""

    def __setstate__(self, data: dict[str, object]) -> None:
        """Unpickled from its JSON form (ValueError for a malformed one)."""

    def set_seeds(self, seeds: dict[str, object] | None) -> None:
        """Note what the wall was shuffled from (HandState.hidden.seeds)."""

    def rederive(self) -> None:
        """
        Derive what a state read back with from_dict may leave out: the waits of each locked seat holding 3n+1 tiles (where none are given) and, in an open claim window, the options of every seat it asks, their answers not given yet (how chuanma.engine.determinize completes a rebuilt hand).
        """

    def pass_pending(self) -> None:
        """
        Every seat that still owes an answer in a claim window passes (or, if it must win, wins).
        """

    def autos(self) -> list[tuple[int, int]]:
        """The decisions the machine made for a seat, as (seat, action index)."""

    def decisions(self) -> list[tuple[int, int]]:
        """
        Every decision the seats made, in order, as (seat, action index; -1: it left).
        """

    @property
    def left(self) -> list[bool]:
        """Whether each seat has left (逃跑)."""

    def __copy__(self) -> Hand:
        """A whole copy: the two play on apart."""

    def __deepcopy__(self, memo: object) -> Hand:
        """A whole copy."""

    @property
    def finished(self) -> bool:
        """Whether the hand is over."""

    @property
    def remaining(self) -> int:
        """Tiles left in the wall."""

    @property
    def phase(self) -> int:
        """
        0 exchange, 1 void, 2 turn, 3 claim, 4 rob (a claim window on an added kong), 6 end.
        """

    @property
    def current(self) -> int:
        """
        The seat whose turn it is (or whose discard or kong a claim window is on).
        """

    @property
    def version(self) -> int:
        """Decisions applied so far (every seat's)."""

    def asked(self, seat: int) -> int:
        """
        The version at which the seat's open question was posed (-1: it owes no decision).
        """

    def to_act(self) -> tuple[int, ...]:
        """The seats that owe a decision."""

    def legal(self, seat: int) -> list[int]:
        """The seat's legal actions as indices (empty: it owes none)."""

    def legal_of(self, seat: int, space: tuple[Item, ...]) -> list[Item]:
        """
        The seat's legal actions as the items of `space` at their indices (chuanma.engine.indices.ACTIONS: the actions themselves).
        """

    def legal_mask(self, seat: int) -> Annotated[NDArray[numpy.int8], dict(shape=(623), order='C')]:
        """
        The seat's legal actions as a new int8 array over the action space: 1 at each legal index.
        """

    def apply(self, seat: int, action: int) -> None:
        """Apply a legal action (NotLegal, the hand unchanged, for any other)."""

    def refusal(self, seat: int, action: int) -> tuple[str, str, dict[str, object]]:
        """
        Why the seat may not take the action now: (code, the rule that refuses it, the facts it names: seat, tile, tiles, bar, current, the action and, when it names the choices, the legal ones, as indices); chuanma.engine.refusal_text words it.
        """

    def leave(self, seat: int) -> None:
        """逃跑: the seat leaves the table."""

    def events(self, since: int = 0) -> list[tuple[int, int, int, int, int, int, int]]:
        """
        The events from `since` on (src/native/events.hpp says what each holds).
        """

    def logged(self, since: int = 0) -> list[chuanma.engine.events.Event]:
        """
        The events from `since` on as chuanma.engine.events.Event objects, the items of the state's JSON form: (seq, type, seat, data, private, visibility).
        """

    def counts(self, seat: int) -> bytes:
        """The seat's concealed tiles as 34 counts."""

    def melds(self, seat: int) -> list[tuple[int, int, int]]:
        """
        The seat's melds as (kind 0 pong 1 kong 2 chow, tile, kong kind 0 exposed 1 added 2 concealed).
        """

    def wins(self) -> list[tuple[int, int, int, bool, int, int, list[tuple[int, int]], int]]:
        """
        Every win so far as (seat, tile, from (-1: self-drawn), robbed, situations, total, its fans as (fan index, value), its event).
        """

    def view(self, seat: int | None) -> tuple[str, int, int | None, int, str | None, tuple[tuple[int, list[tuple[str, int, str | None] | None], tuple[int, ...], tuple[int, ...], int, int, bool, bool, bool, bool, bool, str | None, tuple[int, ...] | None, tuple[int, ...] | None, tuple[int, ...]], ...], tuple[dict[str, object], ...], tuple[dict[str, object], ...], tuple[int, ...], tuple[int, ...], tuple[int, int, bool, tuple[str, ...], int | None] | None, int | None, tuple[tuple[int, int], ...], bool, int, bool, tuple[tuple[int, int | None, str, int, tuple[int, ...], bool], ...], dict[str, object], tuple[bytes, int | None, tuple[int, int, int] | None, str | None, tuple[int, ...] | None, int | None, tuple[int, ...], tuple[int, ...], int | None, tuple[int, ...], tuple[int, ...] | None, int] | None, bool, int, int, int | None]:
        """
        What the seat (None: a spectator) may see of the hand, the parts of a chuanma.engine.views.SeatView: phase, dealer, current, wall, direction, players (seat, melds as (kind, tile, kong kind or None), None for a hidden concealed kong; river, win pile, tiles, wins, out, left, locked, exchange chosen, void chosen, void, hand counts, exchange, claimed_at), wins and payments in their JSON form, totals, acting, claim (tile, from, robbing, situations, kong), drawn, discard log, voids revealed, version, finished, kongs (seat, tile or None, kind, seq, payments, transferred), the turn in JSON, the viewer's own seat (chuanma.engine.state.SeatState's fields in order; tiles, tiles of masks and actions as numbers), declared, live draws, dealer discards, first_multi_from.
        """

    def next_dealer(self) -> int:
        """Who deals the next hand under the rules' dealer rule."""

    def dealt(self) -> tuple[list[int], int, int]:
        """
        What the hand was dealt from, as given to the constructor: (wall, dealer, direction).
        """

    def deltas(self) -> list[int]:
        """Net result per seat so far, in units of base."""

    def standing_waits(self, seat: int) -> int:
        """The seat's waits as a mask by tile, or -1 in the middle of its turn."""

    def encode_compact(self, seat: int, out: Annotated[NDArray[numpy.float32], dict(shape=(None,), order='C', device='cpu')]) -> None:
        """
        Write the compact encoding of what `seat` may see of the hand into `out` (644 or 791 floats; chuanma.encoding.encoder gives the shape).
        """

    def encode_planes(self, seat: int, out: Annotated[NDArray[numpy.float32], dict(shape=(None, None), order='C', device='cpu')]) -> None:
        """
        Write the planes encoding of what `seat` may see of the hand into `out` (144 × 27 or 144 × 34 floats).
        """

    def observer(self, seat: int) -> SeatObserver:
        """
        A read-only SeatObserver of what `seat` may know of this hand, live as the hand plays on (what a bot deciding for `seat` is handed).
        """

def play_random(rules: Rules, seed: int, hands: int) -> int:
    """
    Play `hands` random-policy hands from `seed` inside the core; returns the decisions made.
    """

class SeatObserver:
    """
    What one seat may know of a live hand, read-only (Hand.observer): its encodings for that seat, through the seat view. The hand cannot be reached through it, and it cannot be pickled.
    """

    @property
    def seat(self) -> int:
        """The seat observed."""

    @property
    def kinds(self) -> int:
        """
        Tile kinds in play (27; 34 under 大众麻将): the encodings' shapes depend on it.
        """

    def __getstate__(self) -> object: ...

    def encode_compact(self, out: Annotated[NDArray[numpy.float32], dict(shape=(None,), order='C', device='cpu')]) -> None:
        """
        As Hand.encode_compact for the observed seat: the compact encoding into `out`.
        """

    def encode_planes(self, out: Annotated[NDArray[numpy.float32], dict(shape=(None, None), order='C', device='cpu')]) -> None:
        """
        As Hand.encode_planes for the observed seat: the planes encoding into `out`.
        """

def encode_swapped(hand: Hand, seat: int, other: int, tile: int, at: int, out: Annotated[NDArray[numpy.float32], dict(order='C', device='cpu')]) -> None:
    """
    As Hand.encode_compact (`out` one-dimensional) or Hand.encode_planes (two), of a copy of `hand` in which `other`'s concealed `tile` (not laid open at a win) and the live wall's tile at index `at` have changed places: what `seat` may not know.
    """

def encode_void_swapped(hand: Hand, seat: int, other: int, suit: int, out: Annotated[NDArray[numpy.float32], dict(order='C', device='cpu')]) -> None:
    """
    As encode_swapped, of a copy of `hand` in 定缺 in which `other`'s secret void (undecided, or chosen for a hand of two suits) is `suit` (-1: undecided): what `seat` may not know.
    """

class BatchHands:
    """
    Hands at `n` tables stepped together; a finished hand is dealt again at once. Observations are encodings (compact or planes) of the seat asked at each table.
    """

    def __init__(self, rules: Rules, n: int, event: bool, scale: float, encoder: str = 'compact') -> None:
        """
        `event`: reward each step's change of the results (else the hand's result when it ends); `scale` multiplies rewards; `encoder`: compact or planes.
        """

    @property
    def n(self) -> int:
        """Tables."""

    @property
    def observation_size(self) -> int:
        """Floats in an observation."""

    @property
    def hands(self) -> int:
        """Hands finished since the last reset."""

    def reset(self, seed: int, observations: Annotated[NDArray[numpy.float32], dict(order='C', device='cpu')], masks: Annotated[NDArray[numpy.int8], dict(shape=(None, None), order='C', device='cpu')], seats: Annotated[NDArray[numpy.int64], dict(shape=(None,), order='C', device='cpu')]) -> None:
        """
        Deal at every table (table i's generator seeded seed + i) and observe every table.
        """

    def step(self, actions: Annotated[NDArray[numpy.int64], dict(shape=(None,), order='C', device='cpu', writable=False)], observations: Annotated[NDArray[numpy.float32], dict(order='C', device='cpu')], masks: Annotated[NDArray[numpy.int8], dict(shape=(None, None), order='C', device='cpu')], seats: Annotated[NDArray[numpy.int64], dict(shape=(None,), order='C', device='cpu')], rewards: Annotated[NDArray[numpy.float32], dict(shape=(None, None), order='C', device='cpu')], done: Annotated[NDArray[numpy.bool_], dict(shape=(None,), order='C', device='cpu')]) -> str | None:
        """
        Apply actions[i] at table i and observe every table; when an action is not legal for its table's seat asked, nothing is done and the reason is returned.
        """

    def hand(self, table: int) -> Hand:
        """A copy of the hand in play at table `table`."""
