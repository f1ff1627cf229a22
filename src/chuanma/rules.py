"""``RuleSet``: every option of the rules specification, and the named presets.

A rule set is immutable. Build one from a preset name and override options one by one::

    >>> rules = RuleSet.from_preset("xuezhan", max_fan=4)
    >>> rules.max_fan
    4
    >>> RuleSet.from_json({"preset": "xueliu", "options": {"pass_rule": "none"}}).pass_rule
    'none'
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from chuanma.errors import InputError, RuleSetError, shown
from chuanma.fans import HOUSE_FAN_DEFAULTS, MAX_TOTAL, highest_total
from chuanma.json_input import parse_json
from chuanma.tiles import TileSet
from chuanma.variant import VARIANTS, Variant

MAX_BASE = 10**9
"""The largest 底分 a rule set accepts (payments are counted in units of it)."""

MAX_FAN = 64
"""The most fan a rule option accepts (封顶, a house fan's value): a hand is paid ``2 ** fan`` times
the base, and a number of thousands of digits would stall scoring and every total after it. A rule
set is further bounded as a whole: a win under it reaches at most :data:`~chuanma.fans.MAX_TOTAL`."""


class _OverTotal(ValueError):
    """A rule set whose wins could reach ``total`` fan, above :data:`~chuanma.fans.MAX_TOTAL`."""

    def __init__(self, total: int) -> None:
        super().__init__(
            f"a win under these rules could reach {total} fan (2^{total} base); the most a rule set may "
            f"reach is {MAX_TOTAL} fan: lower the house fans' values or set max_fan to {MAX_TOTAL} or less")
        self.total = total


_ON = {"on": True, "true": True, "yes": True, "1": True, "off": False, "false": False, "no": False, "0": False}


class RuleSet(BaseModel):
    """Every rule option, typed and validated. Field names are the option names everywhere."""

    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=True)

    preset: str = Field("xuezhan", description="preset the options were taken from",
        json_schema_extra={"zh": "选项取自的预设"})
    variant: Literal["xuezhan", "xueliu", "normal", "dazhong"] = Field(
        "xuezhan", description="血战到底 (winners leave), 血流成河 (winners stay), 普通场 (the first win ends "
        "the hand), 大众麻将 (136 tiles, chow, the first win ends the hand)",
        json_schema_extra={"zh": "血战到底（胡牌者离场）、血流成河（胡牌者留场）、普通场（首家胡牌即结束）、"
                                   "大众麻将（136 张，可吃，首家胡牌即结束）"})
    base: int = Field(1, ge=1, le=MAX_BASE, strict=True, description="底分: the unit every payment is counted in",
        json_schema_extra={"zh": "底分：所有支付的计算单位"})
    dealer: Literal["random", "first_winner", "discarder", "rotate"] = Field(
        "random", description="who deals the next hand (random, or from the previous hand's end)",
        json_schema_extra={"zh": "下一局谁坐庄（随机，或按上一局的结局）"})
    exchange: bool = Field(True, description="换三张 before 定缺",
        json_schema_extra={"zh": "定缺前换三张"})
    multiple_winners: bool = Field(True, description="一炮多响: several players may win on one discard",
        json_schema_extra={"zh": "一炮多响：一张打出的牌可以多家同时胡"})
    robbing_kong: bool = Field(True, description="抢杠胡: an added kong can be robbed",
        json_schema_extra={"zh": "抢杠胡：补杠可以被抢"})
    winners_kong: bool = Field(False, description="血流: winners may still declare kongs that keep their waits",
        json_schema_extra={"zh": "血流：胡牌者仍可开不改变听牌的杠"})
    no_kong_in_last_four: bool = Field(True, description="no kong once the wall holds 4 tiles or fewer",
        json_schema_extra={"zh": "牌墙剩 4 张或更少时不能开杠"})
    forced_win_in_last_four: bool = Field(True, description="a player who can win in the last four must",
        json_schema_extra={"zh": "最后四张能胡必须胡"})
    pass_rule: Literal["none", "same_turn", "forever"] = Field(
        "same_turn", description="what passing a win or a pong forbids",
        json_schema_extra={"zh": "过胡、过碰之后不能再做什么"})
    longqidui: bool = Field(False, description="龙七对 (4) replaces 七对 and absorbs one 根",
        json_schema_extra={"zh": "龙七对（4 番）取代七对，并抵掉一个根"})
    yaojiu: Literal["daiyaojiu", "literal"] = Field(
        "daiyaojiu", description="幺九 as 带幺九 (every set has a 1/9) or literally (every tile 1/9)",
        json_schema_extra={"zh": "幺九按带幺九（每组都有 1 或 9）或按字面（每张都是 1 或 9）"})
    gangshangpao: bool = Field(True, description="杠上炮 fan: win on the discard right after a kong",
        json_schema_extra={"zh": "杠上炮番：胡开杠者杠后打出的牌"})
    haidilaoyue: bool = Field(True, description="海底捞月 fan: self-drawn win on the last wall tile",
        json_schema_extra={"zh": "海底捞月番：自摸牌墙最后一张"})
    haidipao: bool = Field(True, description="海底炮 fan: win on the discard after the last draw",
        json_schema_extra={"zh": "海底炮番：胡最后一张牌摸完后打出的牌"})
    gangshang_shuanghua: bool = Field(False, description="杠上双花: 杠上花 is 2 after consecutive kongs",
        json_schema_extra={"zh": "杠上双花：连续开杠后的杠上花计 2 番"})
    dihu_on_dealer_discard: bool = Field(True, description="地胡 also by winning on the dealer's first discard",
        json_schema_extra={"zh": "胡庄家打出的第一张牌也算地胡"})
    max_fan: int | None = Field(
        None, ge=1, le=MAX_FAN, strict=True, description="封顶: cap on a hand's total fan (none = no cap)",
        json_schema_extra={"zh": "封顶：一手牌的番数上限（none 为不封顶）"})
    fan_label_offset: Literal[0, 1] = Field(
        0, description="shown fan = counted fan + offset (001 counts a plain win as 1)",
        json_schema_extra={"zh": "显示番数 = 实计番数 + 偏移（001 把平胡记作 1 番）"})
    zimo_bonus: Literal["fan", "base"] = Field("fan", description="自摸 is +1 fan, or +1× base from each payer",
        json_schema_extra={"zh": "自摸加 1 番，或每位付款者多付 1 倍底分"})
    house_fans: dict[str, int] = Field(default_factory=dict, description="house fans enabled, id → value",
        json_schema_extra={"zh": "启用的地方番种：番种 → 番数"})
    exposed_kong: Literal["discarder_only", "everyone"] = Field(
        "discarder_only", description="明杠: 承包制 (discarder pays 2×) or 家家有 (others pay 1× too)",
        json_schema_extra={"zh": "明杠：承包制（点杠者付 2 倍）或家家有（其他人也各付 1 倍）"})
    late_added_kong_pays: bool = Field(False, description="过手杠 still earns its 刮风 payment",
        json_schema_extra={"zh": "过手杠仍收刮风的钱"})
    call_transfer: Literal["each_winner", "first_winner", "off"] = Field(
        "each_winner", description="呼叫转移: who receives a kong's money when the discard after it is won on",
        json_schema_extra={"zh": "呼叫转移：杠后打出的牌被胡时，杠钱归谁"})
    exposed_kong_flower: Literal["zimo", "discarder_pays"] = Field(
        "zimo", description="点杠花: win on the replacement after an exposed kong",
        json_schema_extra={"zh": "点杠花：明杠后在补牌上胡牌"})
    flower_pig: Literal["ting_max", "fixed"] = Field("fixed", description="查花猪 form",
        json_schema_extra={"zh": "查花猪的算法"})
    flower_pig_pays_winners: bool = Field(False, description="a 花猪 also pays players who have won",
        json_schema_extra={"zh": "花猪也赔给已胡牌的玩家"})
    chadajiao: bool = Field(True, description="查大叫 at an exhaustive draw",
        json_schema_extra={"zh": "流局时查大叫"})
    refund: bool = Field(True, description="退税: non-waiting players return kong money",
        json_schema_extra={"zh": "退税：没听牌的玩家退还杠钱"})
    escape_penalty: bool = Field(True, description="逃跑: a leaver pays 16× base to each other player still in",
        json_schema_extra={"zh": "逃跑：离场者赔给仍在场的每位玩家 16 倍底分"})
    concealed_kong_shown: bool = Field(
        False, description="暗杠 are shown face up to everyone (001), not face down until the end",
        json_schema_extra={"zh": "暗杠对所有人明示（001），而不是到结束前都扣着"})

    @field_validator("house_fans", mode="before")
    @classmethod
    def _house_fans(cls, value: Any) -> Any:
        if isinstance(value, list | tuple | set | frozenset):
            value = {name: True for name in value}
        if not isinstance(value, Mapping):
            return value
        out: dict[str, Any] = {}
        for name, fan in value.items():
            if name not in HOUSE_FAN_DEFAULTS:
                valid = ", ".join(HOUSE_FAN_DEFAULTS)
                raise ValueError(f"unknown house fan {name!r}; valid house fans: {valid}")
            if fan is True:
                fan = HOUSE_FAN_DEFAULTS[name]
            if isinstance(fan, bool) or not isinstance(fan, int) or not 0 <= fan <= MAX_FAN:
                raise ValueError(f"house fan {name!r} takes a whole number of fan from 0 to {MAX_FAN} or true")
            if fan:
                out[name] = fan
        return out

    @field_validator(
        "exchange", "multiple_winners", "robbing_kong", "winners_kong", "no_kong_in_last_four",
        "forced_win_in_last_four", "longqidui", "gangshangpao", "haidilaoyue", "haidipao",
        "gangshang_shuanghua", "dihu_on_dealer_discard", "late_added_kong_pays",
        "flower_pig_pays_winners", "chadajiao", "refund", "escape_penalty", "concealed_kong_shown",
        mode="before")
    @classmethod
    def _on_off(cls, value: Any) -> Any:
        if isinstance(value, str) and value.lower() in _ON:
            return _ON[value.lower()]
        if isinstance(value, bool):
            return value
        raise ValueError("expected on/off (true/false)")

    @field_validator("fan_label_offset", mode="before")
    @classmethod
    def _not_bool(cls, value: Any) -> Any:
        if isinstance(value, bool):
            raise ValueError("a number, not true/false")
        return value

    @field_validator("max_fan", mode="before")
    @classmethod
    def _max_fan(cls, value: Any) -> Any:
        if isinstance(value, str) and value.lower() in ("none", "null", "off"):
            return None
        return value

    @model_validator(mode="after")
    def _within_total(self) -> RuleSet:
        """A win is paid at most ``2 ** MAX_TOTAL`` base: rules whose wins could reach more are refused."""
        total = highest_total(self.house_fans, self.max_fan)
        if total > MAX_TOTAL:
            raise _OverTotal(total)
        return self

    @property
    def game_variant(self) -> Variant:
        """The :class:`~chuanma.variant.Variant` the option ``variant`` names."""
        return VARIANTS[self.variant]

    @property
    def tiles(self) -> TileSet:
        """The tile set: 136 tiles with the honours in 大众麻将, the 108 suited ones in Sichuan."""
        return VARIANTS[self.variant].tiles

    @property
    def has_exchange(self) -> bool:
        """换三张 is played: the variant has it and the option ``exchange`` is on."""
        return VARIANTS[self.variant].exchange and self.exchange

    def fan_label(self, total: int) -> int:
        """A fan total as players are shown it: ``total + fan_label_offset`` (classic "1番 = 1倍")."""
        return total + self.fan_label_offset

    # -- construction -------------------------------------------------------------------

    @classmethod
    def from_preset(cls, name: str = "xuezhan", /, **options: Any) -> RuleSet:
        """The preset ``name`` with ``options`` overridden."""
        if name not in PRESETS:
            raise RuleSetError(f"unknown preset {shown(name)}; valid presets: {', '.join(PRESETS)}")
        merged = {**PRESETS[name], **options}
        return _build(name, merged)

    @classmethod
    def from_json(cls, data: Any) -> RuleSet:
        """Read ``"xuezhan"``, ``{"preset": "xueliu", "options": {...}}`` or JSON text of either."""
        if isinstance(data, str) and data.lstrip().startswith(("{", '"')):
            try:
                data = parse_json(data, "the rules")
            except InputError as exc:
                raise RuleSetError(str(exc)) from None
        if isinstance(data, str):
            return cls.from_preset(data)
        if isinstance(data, Mapping):
            extra = set(data) - {"preset", "options"}
            if extra:
                keys = shown(sorted(map(str, extra)))
                raise RuleSetError(f"unknown keys {keys} in rules; use \"preset\" and \"options\"")
            name = data.get("preset", "xuezhan")
            options = data.get("options", {})
            if not isinstance(name, str) or not isinstance(options, Mapping) or not all(map(_is_str, options)):
                raise RuleSetError("rules need \"preset\" as a string and \"options\" as an object")
            return cls.from_preset(name, **options)
        raise RuleSetError(f"rules must be a preset name or {{\"preset\": ..., \"options\": ...}}, got {shown(data)}")

    def with_options(self, **options: Any) -> RuleSet:
        """A copy with ``options`` changed (validated like any other)."""
        return _build(self.preset, {**self.options(), **options})

    def with_assignments(self, assignments: Iterable[str]) -> RuleSet:
        """A copy with ``name=value`` strings applied (the CLI's ``--set``); values may be JSON."""
        changes: dict[str, Any] = {}
        for item in assignments:
            name, sep, raw = item.partition("=")
            if not sep:
                raise RuleSetError(f"option {item!r} must look like name=value")
            try:
                value: Any = parse_json(raw, f"the value of {name.strip()}")
            except InputError as exc:
                if raw.strip()[:1] in ("[", "{") or raw.strip().isdigit():
                    raise RuleSetError(str(exc)) from None
                value = raw  # a bare word: none, off, same_turn
            changes[name.strip()] = value
        return self.with_options(**changes)

    # -- output ---------------------------------------------------------------------------

    def options(self) -> dict[str, Any]:
        """Every option and its value (the preset name excluded)."""
        return self.model_dump(exclude={"preset"})

    def to_json(self) -> str | dict[str, Any]:
        """The preset name alone when nothing was overridden, else ``{"preset", "options"}``."""
        base = RuleSet.from_preset(self.preset).options()
        diff = {k: v for k, v in self.options().items() if base[k] != v}
        if not diff:
            return self.preset
        return {"preset": self.preset, "options": diff}

    def describe(self) -> str:
        """One line a person can read: the preset and what differs from it."""
        spec = self.to_json()
        if isinstance(spec, str):
            return spec
        return f"{self.preset} with " + ", ".join(f"{k}={v}" for k, v in spec["options"].items())


def _is_str(value: object) -> bool:
    return isinstance(value, str)


def valid_values(name: str) -> str:
    """What an option accepts, in words (for error messages and ``chuanma rules``)."""
    info = RuleSet.model_fields[name]
    bounds = {type(m).__name__: getattr(m, type(m).__name__.lower()) for m in info.metadata}
    if "Ge" in bounds and "Le" in bounds:
        optional = " or none" if type(None) in typing.get_args(info.annotation) else ""
        return f"a whole number from {bounds['Ge']} to {bounds['Le']:,}{optional}"
    return _describe_type(info.annotation)


def option_schema() -> list[dict[str, Any]]:
    """Every option (the preset excepted) for a form: name, description (English; Chinese in
    ``description_zh``), what it accepts, its kind (``bool``, ``choice`` with ``choices``, ``int``,
    or ``other``)."""
    out: list[dict[str, Any]] = []
    for name, info in RuleSet.model_fields.items():
        if name == "preset":
            continue
        extra = info.json_schema_extra
        entry: dict[str, Any] = {"name": name, "description": info.description,
                                 "description_zh": extra.get("zh") if isinstance(extra, dict) else None,
                                 "accepts": valid_values(name)}
        annotation = info.annotation
        if annotation is bool:
            entry["kind"] = "bool"
        elif typing.get_origin(annotation) is Literal:
            entry["kind"], entry["choices"] = "choice", list(typing.get_args(annotation))
        elif annotation is int or annotation == int | None:
            entry["kind"] = "int"
        else:
            entry["kind"] = "other"
        out.append(entry)
    return out


def _describe_type(annotation: Any) -> str:
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return ", ".join(str(a) for a in typing.get_args(annotation))
    if annotation is bool:
        return "on, off"
    if annotation is int:
        return "a whole number"
    if origin in (typing.Union, types.UnionType):
        return " or ".join("none" if a is type(None) else _describe_type(a) for a in typing.get_args(annotation))
    if origin is dict:
        return (f"an object of house fan ids ({', '.join(HOUSE_FAN_DEFAULTS)}) to fan values from 0 to "
                f"{MAX_FAN} (or true: the fan's usual value)")
    return str(annotation)


def _build(name: str, options: Mapping[str, Any]) -> RuleSet:
    unknown = [k for k in options if k not in RuleSet.model_fields or k == "preset"]
    if unknown:
        valid = ", ".join(k for k in RuleSet.model_fields if k != "preset")
        raise RuleSetError(f"unknown rule option {shown(unknown[0])}; valid options: {valid}")
    try:
        return RuleSet(preset=name, **options)
    except ValidationError as exc:
        err = exc.errors()[0]
        cause = err.get("ctx", {}).get("error")
        if isinstance(cause, _OverTotal):  # the rule set as a whole
            raise RuleSetError(f"rules refused: {cause}", "rule_total", total=cause.total, most=MAX_TOTAL) from None
        reason = str(cause or err["msg"])
        field = str(err["loc"][0])
        value = options.get(field)
        raise RuleSetError(
            f"bad value {shown(value)} for rule option {field!r} ({reason}); valid values: {valid_values(field)}",
            "rule_value", option=field,
        ) from None


_XUEZHAN: dict[str, Any] = {}
_XUELIU: dict[str, Any] = {"variant": "xueliu", "pass_rule": "forever", "longqidui": True, "winners_kong": True}
_DOUBLEWIN: dict[str, Any] = {
    "yaojiu": "literal", "flower_pig": "ting_max", "no_kong_in_last_four": False,
    "forced_win_in_last_four": False, "late_added_kong_pays": True, "dihu_on_dealer_discard": False,
    "gangshangpao": False, "haidipao": False, "robbing_kong": False, "call_transfer": "off",
    "refund": False, "escape_penalty": False,
}
_PORTAL: dict[str, Any] = {"max_fan": 4, "dealer": "first_winner"}

_CLASSIC: dict[str, Any] = {
    "base": 6, "fan_label_offset": 1, "zimo_bonus": "base", "flower_pig_pays_winners": True,
    "pass_rule": "none", "no_kong_in_last_four": False, "forced_win_in_last_four": False,
    "late_added_kong_pays": True, "dihu_on_dealer_discard": False, "haidipao": False,
    "concealed_kong_shown": True,
}
_DAZHONG: dict[str, Any] = {
    "variant": "dazhong", "exchange": False, "dealer": "rotate", "multiple_winners": False,
    "chadajiao": False, "refund": False, "no_kong_in_last_four": False, "forced_win_in_last_four": False,
    "late_added_kong_pays": True, "call_transfer": "off", "gangshangpao": False,
}

PRESETS: dict[str, dict[str, Any]] = {
    "xuezhan": _XUEZHAN,
    "xueliu": _XUELIU,
    "doublewin-xuezhan": {**_DOUBLEWIN, "multiple_winners": False, "pass_rule": "none"},
    "doublewin-xueliu": {**_DOUBLEWIN, **_XUELIU},
    "classic": _CLASSIC,
    "portal-xuezhan": {**_PORTAL},
    "portal-xueliu": {**_PORTAL, **_XUELIU, "pass_rule": "same_turn"},
    "classic-normal": {**_CLASSIC, "variant": "normal", "dealer": "discarder"},
    "dazhong": _DAZHONG,
}
"""The named presets: each maps to the options it changes from the defaults (= ``xuezhan``)."""

PRESET_NAMES: dict[str, dict[str, str]] = {
    "xuezhan": {"zh": "血战到底", "en": "Bloody battle (血战)"},
    "xueliu": {"zh": "血流成河", "en": "Bloody river (血流)"},
    "doublewin-xuezhan": {"zh": "血战到底（DoubleWin）", "en": "Bloody battle (血战), DoubleWin rules"},
    "doublewin-xueliu": {"zh": "血流成河（DoubleWin）", "en": "Bloody river (血流), DoubleWin rules"},
    "classic": {"zh": "经典血战", "en": "Classic bloody battle (经典血战)"},
    "portal-xuezhan": {"zh": "血战到底（封顶 4 番）", "en": "Bloody battle (血战), 4-fan cap"},
    "portal-xueliu": {"zh": "血流成河（封顶 4 番）", "en": "Bloody river (血流), 4-fan cap"},
    "classic-normal": {"zh": "经典普通场", "en": "Classic, first win ends (普通场)"},
    "dazhong": {"zh": "大众麻将", "en": "Popular mahjong (大众麻将)"},
}
"""Every preset's name in Chinese and English (served by ``/api/presets`` and ``/api/portal/presets``:
the browser shows these, never a preset's id alone)."""
