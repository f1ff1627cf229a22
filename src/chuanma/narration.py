"""The words every front end uses for a payment's reason and a hand's end, in Chinese and English:
the browser (served at ``/api/portal/words``), the terminal's ticker and ``chuanma replay``."""

from __future__ import annotations

from typing import Literal

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


def reason_text(reason: str, lang: Lang = "en") -> str:
    """A payment's reason in words (the reason itself if it has none)."""
    return REASONS[reason][lang] if reason in REASONS else reason


def end_text(reason: str, lang: Lang = "en") -> str:
    """Why a hand ended, in words (the reason itself if it has none)."""
    return ENDS[reason][lang] if reason in ENDS else reason


def word_table() -> dict[str, dict[str, dict[Lang, str]]]:
    """Every reason and end in both languages, for the browser."""
    return {"reasons": REASONS, "ends": ENDS}
