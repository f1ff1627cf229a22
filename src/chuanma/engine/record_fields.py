"""The fields of a ``chuanma-record/2`` record (or an older ``chuanma-record/1``), checked in one place.

:func:`deal_fields` reads what every record holds (dealer, exchange direction, wall, seeds); the
fairness verifier checks those against the seeds. :func:`record_fields` adds what a replay needs:
the rules and the shape of every decision. Both refuse bad input with a :class:`RecordError`
that names the field; booleans are never taken for numbers (JSON ``true`` is not seat 1).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from chuanma.engine.actions import Action, action_from_json
from chuanma.engine.state import DIRECTIONS, Direction, HandState
from chuanma.errors import ChuanmaError, NotationError, shown
from chuanma.rules import RuleSet
from chuanma.tiles import ALL_TILES, Tile, TileSet, parse_tile, tile_str

FORMAT = "chuanma-record/2"
"""The records written now: ``no_kong_in_last_four`` forbids a kong once the wall holds 4 tiles or
fewer (RULES §9.3)."""
FORMAT_1 = "chuanma-record/1"
"""The records written before: there ``no_kong_in_last_four`` forbade a kong at 3 tiles or fewer."""
FORMATS = (FORMAT_1, FORMAT)
"""Every format read: a deal (dealer, direction, wall, seeds) reads the same in both."""
SEATS = 4


class RecordError(ChuanmaError, ValueError):
    """A record that cannot be read or replayed; ``index`` is the bad decision's (or ``None``)."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message if index is None else f"decision {index}: {message}")
        self.index = index


def record_of(st: HandState) -> dict[str, Any]:
    """The ``chuanma-record/2`` record of a hand (complete once it is finished): what it is a pure
    function of — rules, dealer, direction, wall, the decisions in order — and its seeds."""
    rules = st.rules
    out: dict[str, Any] = {
        "format": FORMAT,
        "rules": rules.to_json(),
        "base": rules.base,
        "dealer": st.public.dealer,
        "direction": st.hidden.direction,
        "wall": [tile_str(t) for t in st.hidden.wall],
        "decisions": [{"seat": seat, **action.to_json()} for seat, action in st.decisions],
    }
    if st.hidden.seeds:
        out["seeds"] = dict(st.hidden.seeds)
    return out


@dataclass(frozen=True, slots=True)
class DealFields:
    """How a hand was dealt: what the fairness seeds must reproduce."""

    dealer: int
    direction: Direction
    wall: list[Tile]
    seeds: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class RecordFields:
    """Everything a replay starts from, each field checked."""

    rules: RuleSet
    deal: DealFields
    decisions: tuple[tuple[int, Action], ...]


def _mapping(record: object, *, format_required: bool = True) -> Mapping[str, Any]:
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object")
    if "format" not in record:
        if format_required:
            raise RecordError(f'a record has no "format" field: expected "{FORMAT}"')
        return record
    fmt = record["format"]
    if fmt not in FORMATS:
        raise RecordError(f'unknown record format {"null" if fmt is None else shown(fmt)}: expected "{FORMAT}"')
    return record


def _required(record: Mapping[str, Any], key: str) -> Any:
    if key not in record:
        raise RecordError(f"the record has no {key!r} field")
    return record[key]


def seat(value: object, field: str) -> int:
    """``value`` as a seat 0–3; refuses booleans, floats and anything else, naming ``field``."""
    if type(value) is not int or not 0 <= value < SEATS:
        raise RecordError(f"{field!r} must be a seat 0-3, not {shown(value)}")
    return value


def deal_fields(record: object, *, tile_set: TileSet = ALL_TILES) -> DealFields:
    """The format, dealer, direction, wall and seeds of ``record``, checked.

    The wall is read tile by tile (any number of tiles; whether it is a full set is the engine's
    or the verifier's check); a ``tile_set`` without the honours refuses them (the 108-tile set). A missing
    ``format`` is taken to be ``chuanma-record/1`` here; a replay requires it.
    """
    data = _mapping(record, format_required=False)
    dealer = seat(_required(data, "dealer"), "dealer")
    direction = _required(data, "direction")
    if not isinstance(direction, str) or direction not in DIRECTIONS:
        raise RecordError(f"'direction' must be one of {', '.join(DIRECTIONS)}, not {shown(direction)}")
    wall_raw = _required(data, "wall")
    if not isinstance(wall_raw, list):
        raise RecordError(f"'wall' must be a list of tiles like \"5m\", not {shown(wall_raw)}")
    wall: list[Tile] = []
    for pos, text in enumerate(wall_raw):
        if not isinstance(text, str):
            raise RecordError(f"wall position {pos} must be a tile like \"5m\", not {shown(text)}")
        try:
            wall.append(parse_tile(text, tile_set=tile_set))
        except NotationError as exc:
            raise RecordError(f"wall position {pos}: {exc}") from None
    seeds = data.get("seeds")
    if seeds is not None and not isinstance(seeds, dict):
        raise RecordError(f"'seeds' must be an object, not {shown(seeds)}")
    return DealFields(dealer, cast(Direction, direction), wall, seeds)


def older_meaning(record: Mapping[str, Any]) -> str | None:
    """Why a decision of ``record`` may have been legal when it was made and is not today, if its
    version gave a rule another meaning (None otherwise): a ``chuanma-record/1`` record under
    ``no_kong_in_last_four`` may hold a kong made with 4 tiles in the wall."""
    if record.get("format") == FORMAT_1 and record_rules(record).no_kong_in_last_four:
        return (f"this record is {FORMAT_1}, where no_kong_in_last_four forbade a kong at 3 tiles or fewer in "
                f"the wall; since {FORMAT} it forbids one at 4 or fewer (RULES §9.3), so a kong made at 4 "
                "cannot be replayed under today's rules")
    return None


def record_rules(record: Mapping[str, Any]) -> RuleSet:
    """The rules of a record (``rules`` and ``base``)."""
    try:
        rules = RuleSet.from_json(record.get("rules", "xuezhan"))
        if "base" in record:
            rules = rules.with_options(base=record["base"])
        return rules
    except ChuanmaError as exc:
        raise RecordError(f"rules: {exc}") from None


def record_fields(record: object) -> RecordFields:
    """Every field of a record a replay reads, checked (the decisions' legality is the replay's)."""
    data = _mapping(record)
    rules = record_rules(data)
    deal = deal_fields(data, tile_set=rules.tiles)
    raw = data.get("decisions", [])
    if not isinstance(raw, list):
        raise RecordError(f"'decisions' must be a list, not {shown(raw)}")
    decisions: list[tuple[int, Action]] = []
    for i, d in enumerate(raw):
        if not isinstance(d, Mapping):
            raise RecordError(f'a decision is an object like {{"seat": 0, "discard": "5m"}}, not {shown(d)}', i)
        try:
            decisions.append((seat(d.get("seat"), "seat"), action_from_json(d, rules.tiles)))
        except (RecordError, NotationError) as exc:
            raise RecordError(str(exc), i) from None
    return RecordFields(rules, deal, tuple(decisions))
