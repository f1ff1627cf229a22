"""The words the front ends use for the hand's events, in Chinese and English: one table, served
to the browser at ``/api/portal/words`` (its narrate.js fills the same templates), used by
``chuanma replay`` and the terminal's ticker (:func:`narrate`, which words the viewer's own events
in the second person when told who the viewer is)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

from chuanma.melds import Meld
from chuanma.scoring import FANS
from chuanma.tiles import SUIT_NAMES_EN, SUIT_NAMES_ZH, Tile, parse_tile, parse_tiles, tile_name

Lang = Literal["zh", "en"]

REASONS: dict[str, dict[Lang, str]] = {
    "zimo": {"zh": "自摸", "en": "self-drawn win (自摸)"},
    "dianpao": {"zh": "点炮", "en": "win on a discard (点炮)"},
    "qianggang": {"zh": "抢杠胡", "en": "robbing a kong (抢杠胡)"},
    "kong": {"zh": "刮风下雨（杠钱）", "en": "kong money (刮风下雨)"},
    "kong_exposed": {"zh": "明杠（刮风）", "en": "exposed kong (刮风)"},
    "kong_concealed": {"zh": "暗杠（下雨）", "en": "concealed kong (下雨)"},
    "kong_added": {"zh": "补杠（刮风）", "en": "added kong (刮风)"},
    "call_transfer": {"zh": "呼叫转移", "en": "kong money passed on (呼叫转移)"},
    "flower_pig": {"zh": "查花猪", "en": "flower pig (查花猪)"},
    "chadajiao": {"zh": "查大叫", "en": "not ready at the end (查大叫)"},
    "refund": {"zh": "退税", "en": "kong money returned (退税)"},
    "escape": {"zh": "逃跑罚分", "en": "escape penalty (逃跑)"},
}
"""A payment's reason (the ledger's, and ``kong`` for every kong kind at once)."""

ENDS: dict[str, dict[Lang, str]] = {
    "exhausted": {"zh": "流局（牌摸完）", "en": "wall exhausted"},
    "three_won": {"zh": "三家胡牌", "en": "three have won"},
    "too_few_players": {"zh": "牌桌上人不够了", "en": "too few players left"},
    "escape": {"zh": "有人逃跑", "en": "a player escaped"},
    "won": {"zh": "有人胡了", "en": "a player has won"},
}
"""Why a hand ended (the engine's ``end`` reasons)."""


EVENTS: dict[Lang, dict[str, str]] = {
    "zh": {
        "start": "开局，庄家 {seat}",
        "deal": "{seat} 起手 {tiles}",
        "deal_done": "发牌完毕，牌墙 {wall} 张",
        "exchange_chosen": "{seat} 换出 {tiles}",
        "exchange_chosen_hidden": "{seat} 选好了换出的三张",
        "exchange": "换三张：{dir}",
        "exchange_received": "{seat} 从 {from} 换来 {tiles}",
        "void_chosen": "{seat} 定缺 {suit}",
        "void_chosen_auto": "{seat} 只有两门，自动缺 {suit}",
        "void_chosen_hidden": "{seat} 定好了缺门",
        "voids": "亮缺：{voids}",
        "void_each": "{seat}缺{suit}",
        "draw": "{seat} 摸牌 {tile}（剩 {wall}）",
        "draw_hidden": "{seat} 摸牌（剩 {wall}）",
        "draw_replacement": "{seat} 杠后补牌 {tile}（剩 {wall}）",
        "draw_replacement_hidden": "{seat} 杠后补牌（剩 {wall}）",
        "discard": "{seat} 打出 {tile}",
        "automatic": "（自动：血流胡后锁牌，只能打摸到的牌）",
        "pong": "{seat} 碰 {tile}（{from} 打的）",
        "chow": "{seat} 吃 {claimed}（{from} 打的），成 {run}",
        "kong_exposed": "{seat} 明杠 {tile}（{from} 打的）",
        "kong_concealed": "{seat} 暗杠 {tile}",
        "kong_concealed_hidden": "{seat} 暗杠",
        "kong_added": "{seat} 补杠 {tile}",
        "late": "（过手杠：不收杠钱）",
        "kong_declared": "{seat} 要补杠 {tile}",
        "kong_robbed": "{seat} 的补杠 {tile} 被抢",
        "claim": "{seat} 回应：{claim}",
        "hu_self": "{seat} 自摸 {tile}：{fans} = {total} 番（×{mult}）",
        "hu_from": "{seat} 胡 {from} 的 {tile}：{fans} = {total} 番（×{mult}）",
        "hu_robbed": "{seat} 抢杠胡 {from} 的 {tile}：{fans} = {total} 番（×{mult}）",
        "forced": "（最后四张，能胡必须胡）",
        "no_fan": "平胡",
        "payment": "{payer} 付给 {payee} {amount} 底（{reason}）",
        "leave": "{seat} 离开牌桌",
        "exhausted": "牌墙摸完，按规则查牌",
        "end": "牌局结束（{reason}）",
        "you": "你",
    },
    "en": {
        "start": "The hand starts; dealer {seat}",
        "deal": "{seat} is dealt {tiles}",
        "deal_done": "Dealt; {wall} tiles in the wall",
        "exchange_chosen": "{seat} gives {tiles}",
        "exchange_chosen_hidden": "{seat} has chosen three tiles to give",
        "exchange": "Exchange three: {dir}",
        "exchange_received": "{seat} receives {tiles} from {from}",
        "void_chosen": "{seat} is void in {suit}",
        "void_chosen_auto": "{seat} holds two suits: void in {suit} automatically",
        "void_chosen_hidden": "{seat} has chosen a void suit",
        "voids": "Voids revealed: {voids}",
        "void_each": "{seat} in {suit}",
        "draw": "{seat} draws {tile} ({wall} left)",
        "draw_hidden": "{seat} draws ({wall} left)",
        "draw_replacement": "{seat} draws the replacement {tile} ({wall} left)",
        "draw_replacement_hidden": "{seat} draws a replacement ({wall} left)",
        "discard": "{seat} discards {tile}",
        "automatic": " (automatic: a locked 血流 hand discards its draw)",
        "pong": "{seat} pongs {tile} from {from}",
        "chow": "{seat} chows {claimed} from {from}: {run}",
        "kong_exposed": "{seat} makes an exposed kong of {tile} from {from}",
        "kong_concealed": "{seat} makes a concealed kong of {tile}",
        "kong_concealed_hidden": "{seat} makes a concealed kong",
        "kong_added": "{seat} adds {tile} to a pong (kong)",
        "late": " (过手杠: no kong money)",
        "kong_declared": "{seat} declares an added kong of {tile}",
        "kong_robbed": "{seat}'s added kong of {tile} is robbed",
        "claim": "{seat} answers: {claim}",
        "hu_self": "{seat} wins self-drawn on {tile}: {fans} = {total} fan (×{mult})",
        "hu_from": "{seat} wins on {tile} from {from}: {fans} = {total} fan (×{mult})",
        "hu_robbed": "{seat} robs the kong of {tile} from {from}: {fans} = {total} fan (×{mult})",
        "forced": " (forced: in the last four tiles a seat that can win must)",
        "no_fan": "平胡 (no fan)",
        "payment": "{payer} pays {payee} {amount} base: {reason}",
        "leave": "{seat} leaves the table",
        "exhausted": "The wall is exhausted: the hands are checked as the rules say",
        "end": "The hand is over ({reason})",
        "you": "you",
    },
}
"""An event's sentence, by its kind (``{seat}``, ``{tile}`` … filled in by :func:`narrate`), each
English one in sentence case (a seat's name may open it: the viewer's own events are
:data:`EVENTS_YOU`'s); one seat's void in the ``voids`` list (``void_each``); the notes added
to a machine's discard (``automatic``), a 过手杠 (``late``) and a forced win
(``forced``); the viewer's name when the narration is told who the viewer is (``you``)."""

EVENTS_YOU: dict[Lang, dict[str, str]] = {
    "zh": {},
    "en": {
        "start": "The hand starts; you are the dealer",
        "deal": "You are dealt {tiles}",
        "exchange_chosen": "You give {tiles}",
        "exchange_chosen_hidden": "You have chosen three tiles to give",
        "exchange_received": "You receive {tiles} from {from}",
        "void_chosen": "You are void in {suit}",
        "void_chosen_auto": "You hold two suits: void in {suit} automatically",
        "void_chosen_hidden": "You have chosen a void suit",
        "draw": "You draw {tile} ({wall} left)",
        "draw_hidden": "You draw ({wall} left)",
        "draw_replacement": "You draw the replacement {tile} ({wall} left)",
        "draw_replacement_hidden": "You draw a replacement ({wall} left)",
        "discard": "You discard {tile}",
        "pong": "You pong {tile} from {from}",
        "chow": "You chow {claimed} from {from}: {run}",
        "kong_exposed": "You make an exposed kong of {tile} from {from}",
        "kong_concealed": "You make a concealed kong of {tile}",
        "kong_concealed_hidden": "You make a concealed kong",
        "kong_added": "You add {tile} to a pong (kong)",
        "kong_declared": "You declare an added kong of {tile}",
        "kong_robbed": "Your added kong of {tile} is robbed",
        "claim": "You answer: {claim}",
        "hu_self": "You win self-drawn on {tile}: {fans} = {total} fan (×{mult})",
        "hu_from": "You win on {tile} from {from}: {fans} = {total} fan (×{mult})",
        "hu_robbed": "You rob the kong of {tile} from {from}: {fans} = {total} fan (×{mult})",
        "payment": "You pay {payee} {amount} base: {reason}",
        "leave": "You leave the table",
    },
}
"""The sentences of the viewer's own events (the event's seat, a payment's payer, the dealer of
``start``) where a language words them apart from :data:`EVENTS` (English conjugates its verbs and
opens a sentence with a capital; Chinese says 你 in the same sentence)."""

ACTIONS: dict[Lang, dict[str, str]] = {
    "zh": {
        "discard": "打出",
        "pong": "碰",
        "chow": "吃",
        "kong": "杠",
        "hu": "胡",
        "pass": "过",
        "void": "定缺",
        "exchange": "换出",
        "leave": "离开",
    },
    "en": {
        "discard": "discard",
        "pong": "pong",
        "chow": "chow",
        "kong": "kong",
        "hu": "win",
        "pass": "pass",
        "void": "void",
        "exchange": "give",
        "leave": "leave",
    },
}
"""A decision's kind in words (a claim's answer in the ticker, a decision in the replay viewer)."""

DIRECTIONS: dict[str, dict[Lang, str]] = {
    "to_next": {"zh": "换给下家", "en": "to the next seat"},
    "to_previous": {"zh": "换给上家", "en": "to the previous seat"},
    "opposite": {"zh": "换给对家", "en": "across"},
}
"""The exchange's direction."""

SUITS: dict[Lang, dict[str, str]] = {"zh": dict(SUIT_NAMES_ZH), "en": dict(SUIT_NAMES_EN)}
"""A suit's name (a void)."""


def reason_text(reason: str, lang: Lang = "en") -> str:
    """A payment's reason in words (the reason itself if it has none)."""
    return REASONS[reason][lang] if reason in REASONS else reason


def end_text(reason: str, lang: Lang = "en") -> str:
    """Why a hand ended, in words (the reason itself if it has none)."""
    return ENDS[reason][lang] if reason in ENDS else reason


FAN_WORDS: dict[str, dict[str, str]] = {fan_id: {"zh": f.name, "en": f.en} for fan_id, f in FANS.items()}
"""Each fan's name in both languages, by id."""


def fan_name(line: Mapping[str, Any], lang: Lang) -> str:
    """A win's fan line named in ``lang`` (a fan unknown to this table keeps the name it carries)."""
    words = FAN_WORDS.get(line["id"])
    return words[lang] if words else str(line["name"])


def word_table() -> dict[str, Any]:
    """Every word of this table in both languages, for the browser."""
    return {"reasons": REASONS, "ends": ENDS, "directions": DIRECTIONS, "events": EVENTS,
            "events_you": EVENTS_YOU, "actions": ACTIONS, "suits": SUITS, "fans": FAN_WORDS}


def narrate(ev: Mapping[str, Any], name: Callable[[int], str], lang: Lang = "en",
            fan_label: Callable[[int], int] | None = None, *, me: int | None = None,
            tile_word: Callable[[Tile], str] | None = None,
            suit_word: Callable[[str], str] | None = None) -> str | None:
    """An event (its JSON form, as a seat is shown it) in one sentence, each seat named by
    ``name(seat)``, a win's fan total shown as ``fan_label`` gives it (the rules' ``fan_label``);
    ``None`` for an event without a sentence. With ``me``, that seat is the viewer: named ``you``
    (你), its own events in :data:`EVENTS_YOU`'s words. ``tile_word`` names a tile and ``suit_word``
    a suit (their names in ``lang`` unless given). The browser's narrate.js fills the same
    templates the same way."""
    words = EVENTS[lang]
    subject = ev.get({"payment": "payer", "start": "dealer"}.get(ev["type"], "seat"))
    own = EVENTS_YOU[lang] if me is not None and subject == me else {}

    def who(seat: int) -> str:
        return words["you"] if seat == me else name(seat)

    def say(key: str, **fields: Any) -> str:
        return own.get(key, words[key]).format(**fields)

    def word(t: Tile) -> str:
        return tile_word(t) if tile_word is not None else tile_name(t, lang)

    def suit(s: str) -> str:
        return suit_word(s) if suit_word is not None else SUITS[lang][s]

    def tile(code: str | None) -> str:
        return word(parse_tile(code)) if code else ""

    def tiles(text: str) -> str:
        return " ".join(word(t) for t in parse_tiles(text))

    v = {"seat": who(ev["seat"]) if ev.get("seat") is not None else "",
         "from": who(ev["from"]) if ev.get("from") is not None else "",
         "tile": tile(ev.get("tile")) if isinstance(ev.get("tile"), str) else "", "wall": ev.get("wall", "")}
    kind = ev["type"]
    if kind == "start":
        return say("start", seat=who(ev["dealer"]))
    if kind == "deal":
        return say("deal", **v, tiles=tiles(ev["hand"])) if ev.get("hand") else None
    if kind in ("deal_done", "pong", "kong_declared", "kong_robbed", "leave"):
        return say(kind, **v)
    if kind == "discard":
        return say("discard", **v) + (words["automatic"] if ev.get("automatic") else "")
    if kind == "exchange_chosen":
        return say("exchange_chosen", **v, tiles=tiles(ev["tiles"])) if ev.get("tiles") else say(
            "exchange_chosen_hidden", **v)
    if kind == "exchange":
        return say("exchange", dir=DIRECTIONS[ev["direction"]][lang])
    if kind == "exchange_received":
        return say("exchange_received", **v, tiles=tiles(ev["tiles"]))
    if kind == "void_chosen":
        if not ev.get("suit"):
            return say("void_chosen_hidden", **v)
        return say("void_chosen_auto" if ev.get("automatic") else "void_chosen", **v, suit=suit(ev["suit"]))
    if kind == "voids":
        each = [say("void_each", seat=who(i), suit=suit(s)) for i, s in enumerate(ev["voids"]) if s]
        return say("voids", voids=("、" if lang == "zh" else ", ").join(each))
    if kind == "draw":
        key = ("draw_replacement" if ev.get("replacement") else "draw") + ("" if ev.get("tile") else "_hidden")
        return say(key, **v)
    if kind == "chow":
        run = " ".join(word(t) for t in Meld("chow", parse_tile(ev["tile"])).tiles)
        return say("chow", **v, claimed=tile(ev["claimed"]), run=run)
    if kind == "kong":
        return say("kong_concealed_hidden" if ev["kind"] == "concealed" and not ev.get("tile")
                   else f"kong_{ev['kind']}", **v) + (words["late"] if ev.get("late") else "")
    if kind == "claim":
        return say("claim", **v, claim=ACTIONS[lang][next(iter(ev["claim"]))])
    if kind == "hu":
        key = "hu_self" if ev["self_drawn"] else "hu_robbed" if ev.get("robbed_kong") else "hu_from"
        fans = " + ".join(f"{fan_name(f, lang)} {f['fan']}" for f in ev["fans"]) or words["no_fan"]
        total = ev["total"] if fan_label is None else fan_label(ev["total"])
        return say(key, **v, fans=fans, total=total, mult=ev["multiplier"]) + (
            words["forced"] if ev.get("forced") else "")
    if kind == "payment":
        return say("payment", payer=who(ev["payer"]), payee=who(ev["payee"]), amount=ev["amount"],
                   reason=reason_text(ev["reason"], lang))
    if kind == "exhausted":
        return say("exhausted")
    if kind == "end":
        return say("end", reason=end_text(ev["reason"], lang))
    return None
