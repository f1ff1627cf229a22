"""The typed events: one type per event, the schema of the events' JSON form.

The engine logs every change as an :class:`~chuanma.engine.events.Event` (cheap to make); this
module is what the JSON form of one means, field by field, for every reader — the narrators,
the settlement, the simulator's statistics, the browser client and any
other implementation (:func:`event_json_schema` is the JSON Schema). :func:`parse_event` reads an
event's JSON form (the full event, or a seat's copy from :func:`~chuanma.engine.views.event_for`)
into its type, checking every field.

Fields that a seat's copy may lack are optional: a private part (the tile of another seat's
draw, for one) is absent from the copies of the seats that may not see it. The flags added in
schema 2 (``forced``, ``automatic``, ``last_four``) are written only when true.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

import msgspec

from chuanma.engine.events import EVENT_SCHEMA, Event
from chuanma.engine.ledger import Reason

Suit = Literal["m", "p", "s"]
Direction = Literal["to_next", "opposite", "to_previous"]
EndReason = Literal["three_won", "too_few_players", "won", "escape", "exhausted"]


class EventError(ValueError):
    """An event's JSON form that does not fit its type (the message names the field)."""


class EventBase(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", omit_defaults=True):
    """What every event has: its number, its seat (``None``: the table's), the schema version
    (on a seat's copy) and its visibility (``private``: only its seat sees it at all)."""

    PRIVATE: ClassVar[frozenset[str]] = frozenset()
    """Fields shown to the event's own seat only (a public event's private part)."""

    seq: int
    seat: int | None = None
    schema: int | None = None
    visibility: Literal["public", "private"] = "public"


class Start(EventBase, frozen=True, tag="start"):
    """The hand starts: the dealer, the rules (a preset name or its options), base, the set's size."""

    dealer: int
    rules: str | dict[str, Any]
    base: int
    wall: int


class Deal(EventBase, frozen=True, tag="deal"):
    """A seat's 13 (dealer: 14) tiles; a private event."""

    PRIVATE = frozenset({"hand"})
    hand: str | None = None


class DealDone(EventBase, frozen=True, tag="deal_done"):
    """Every hand dealt; ``wall`` tiles remain."""

    wall: int


class ExchangeChosen(EventBase, frozen=True, tag="exchange_chosen"):
    """A seat chose its three tiles (which: its own copy only)."""

    PRIVATE = frozenset({"tiles"})
    tiles: str | None = None


class Exchange(EventBase, frozen=True, tag="exchange"):
    """换三张 happens in ``direction``."""

    direction: Direction


class ExchangeReceived(EventBase, frozen=True, tag="exchange_received"):
    """The tiles a seat received and from whom; a private event."""

    PRIVATE = frozenset({"tiles", "from_seat"})
    tiles: str | None = None
    from_seat: int | None = msgspec.field(default=None, name="from")


class VoidChosen(EventBase, frozen=True, tag="void_chosen"):
    """A seat chose its void (which: its own copy only); ``automatic`` for a two-suit hand (then a
    private event)."""

    PRIVATE = frozenset({"suit", "automatic"})
    suit: Suit | None = None
    automatic: bool = False


class Voids(EventBase, frozen=True, tag="voids"):
    """Every seat's void revealed (``None``: no void, 大众麻将)."""

    voids: list[Suit | None]


class Draw(EventBase, frozen=True, tag="draw"):
    """A draw (``replacement``: a kong's, from the wall's end); ``wall`` tiles remain after it;
    ``last_four``: the wall is in the last-four zone (forced wins); the tile: its seat only."""

    PRIVATE = frozenset({"tile"})
    wall: int
    replacement: bool
    last_four: bool = False
    tile: str | None = None


class Discard(EventBase, frozen=True, tag="discard"):
    """A discard; ``automatic``: the machine's, for a locked 血流 hand that could do nothing else."""

    tile: str
    wall: int
    automatic: bool = False


class Claim(EventBase, frozen=True, tag="claim"):
    """A seat's answer in a claim window (an action's JSON form); a private event."""

    PRIVATE = frozenset({"claim"})
    claim: dict[str, Any] | None = None


class Pong(EventBase, frozen=True, tag="pong"):
    """A pong of the discard ``tile`` from the seat ``from``."""

    tile: str
    from_seat: int = msgspec.field(name="from")


class Chow(EventBase, frozen=True, tag="chow"):
    """A chow: the sequence's lowest tile, the discarder, the tile taken."""

    tile: str
    from_seat: int = msgspec.field(name="from")
    claimed: str


class Kong(EventBase, frozen=True, tag="kong"):
    """A kong completed; a hidden concealed kong's tile is its seat's only; ``late`` (an added
    kong's only): a 过手杠, which earns nothing."""

    PRIVATE = frozenset({"tile"})
    kind: Literal["exposed", "concealed", "added"]
    tile: str | None = None
    from_seat: int | None = msgspec.field(default=None, name="from")
    late: bool | None = None


class KongDeclared(EventBase, frozen=True, tag="kong_declared"):
    """An added kong declared: it may be robbed."""

    tile: str
    kind: Literal["added"]


class KongRobbed(EventBase, frozen=True, tag="kong_robbed"):
    """The declarer's added kong of ``tile`` is robbed: the tile leaves its hand."""

    tile: str


class FanLine(msgspec.Struct, frozen=True):
    """One fan of a win: its id, its name, its value."""

    id: str
    name: str
    fan: int


class Hu(EventBase, frozen=True, tag="hu"):
    """A win (the ledger's ``Win``): the tile, from whom (``None``: self-drawn), the hand laid down
    (without the winning tile), its fans; ``waits``: the tiles that hand waited on; ``forced``:
    the rules made the seat win (the last four tiles)."""

    tile: str
    from_seat: int | None = msgspec.field(name="from")
    self_drawn: bool
    robbed_kong: bool
    hand: str
    fans: list[FanLine]
    total: int
    multiplier: int
    situations: list[str]
    jipin: bool
    waits: str = ""
    forced: bool = False


class Payment(EventBase, frozen=True, tag="payment"):
    """``payer`` pays ``payee`` ``amount`` base for the event ``for_seq``."""

    payer: int
    payee: int
    amount: int
    reason: Reason
    for_seq: int = msgspec.field(name="for")


class Leave(EventBase, frozen=True, tag="leave"):
    """The seat leaves the table (逃跑, or a winner leaving); ``wall`` tiles remain."""

    wall: int


class Exhausted(EventBase, frozen=True, tag="exhausted"):
    """The wall ran out; what the settlement found, by seat: ``part`` (taking part), ``pig``
    (花猪 among them), ``ready`` (waiting; a 血流 winner counts) and ``fan`` (the 查大叫 value of
    each seat that may be paid; ``None``: none). Lists are empty in records made before them."""

    part: list[bool] = []
    pig: list[bool] = []
    ready: list[bool] = []
    fan: list[int | None] = []


class MeldForm(msgspec.Struct, frozen=True, omit_defaults=True):
    """A meld's JSON form (``tile`` ``None``: a hidden concealed kong)."""

    kind: Literal["pong", "kong", "chow"]
    tile: str | None
    kong: Literal["exposed", "concealed", "added"] | None = None


class End(EventBase, frozen=True, tag="end"):
    """The hand is over: every hand and meld shown, the net per seat; each seat's standing:
    ``pig`` (holds its void suit) and ``waits`` (its waits when its hand is between turns,
    ``""`` none; ``None``: in the middle of a turn)."""

    reason: EndReason
    hands: list[str]
    melds: list[list[MeldForm]]
    deltas: list[int]
    pig: list[bool] = []
    waits: list[str | None] = []


AnyEvent = (
    Start | Deal | DealDone | ExchangeChosen | Exchange | ExchangeReceived | VoidChosen | Voids | Draw
    | Discard | Claim | Pong | Chow | Kong | KongDeclared | KongRobbed | Hu | Payment | Leave
    | Exhausted | End
)
EVENT_TYPES: dict[str, type[EventBase]] = {
    cls.__struct_config__.tag: cls  # type: ignore[misc]
    for cls in (Start, Deal, DealDone, ExchangeChosen, Exchange, ExchangeReceived, VoidChosen, Voids,
                Draw, Discard, Claim, Pong, Chow, Kong, KongDeclared, KongRobbed, Hu, Payment, Leave,
                Exhausted, End)
}
"""Every event type by its ``type``."""


def parse_event(data: Mapping[str, Any] | Event) -> AnyEvent:
    """An event (the engine's, or its JSON form) as its type; :class:`EventError` names what
    does not fit."""
    if isinstance(data, Event):
        data = data.to_json()
    cls = EVENT_TYPES.get(data.get("type"))  # type: ignore[arg-type]
    if cls is None:
        raise EventError(f"event {data.get('seq', '?')}: no event type {data.get('type')!r}")
    try:
        # the class, not the union: msgspec keeps what it learnt of a class, not of a union
        event: AnyEvent = msgspec.convert(data, cls)  # type: ignore[assignment]
    except msgspec.ValidationError as exc:
        raise EventError(f"event {data.get('seq', '?')}: {exc}") from None
    return event


def to_json(event: EventBase) -> dict[str, Any]:
    """A typed event's JSON form (flags and empty optional fields left out)."""
    out: dict[str, Any] = msgspec.to_builtins(event)
    return out


def event_json_schema() -> dict[str, Any]:
    """The JSON Schema of every event's JSON form (version :data:`EVENT_SCHEMA`)."""
    schema: dict[str, Any] = msgspec.json.schema(AnyEvent)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": f"chuanma events, schema {EVENT_SCHEMA}", "x-event-schema": EVENT_SCHEMA, **schema}
