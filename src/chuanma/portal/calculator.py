"""The fan calculator: a hand scored by :mod:`chuanma.scoring`, with what each seat pays.

The winner is seat 0. A self-drawn win is paid by the three others (the first win of a hand:
everyone is still playing), each :func:`chuanma.engine.wins.self_drawn_each`; a win on a
discard or a robbed kong is paid by the seat ``from`` alone, the multiplier. Amounts are in
units of base; ``chips`` multiplies them by the rule set's 底分.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chuanma.engine import self_drawn_each
from chuanma.errors import NotationError, shown
from chuanma.rules import RuleSet
from chuanma.score_input import read_score_input
from chuanma.scoring import FANS

WINNER = 0

SCORING_OPTIONS = ("base", "robbing_kong", "longqidui", "yaojiu", "gangshangpao", "haidilaoyue", "haidipao",
                   "gangshang_shuanghua", "dihu_on_dealer_discard", "max_fan", "fan_label_offset", "zimo_bonus")
"""The rule options that change a hand's fans or what is paid for it, which the calculator offers
(served with every option, ``scoring``, by :func:`chuanma.portal.reference.presets`); the house
fans have their own switches, the other options are about play."""


def calculate(data: object) -> dict[str, Any]:
    """Score ``data`` (the fields of ``chuanma score`` and ``from``, the discarder's seat 1–3)."""
    if not isinstance(data, Mapping):
        raise NotationError("the hand to score must be a JSON object")
    fields = dict(data)
    frm = fields.pop("from", 1)
    if type(frm) is not int or not 1 <= frm <= 3:
        raise NotationError(f"'from' must be the discarder's seat 1, 2 or 3, got {shown(frm)}", "discarder")
    request = read_score_input(fields, RuleSet.from_preset("xuezhan"), {})
    result = request.score()
    rules = request.rules
    out = result.to_dict()
    out["rules"] = {"preset": rules.preset, "options": rules.options()}
    if not result.win:
        return {**out, "reason_zh": result.reason_zh}
    out["label"] = rules.fan_label(result.total)
    out["fans"] = [{**f.to_dict(), "en": FANS[f.id].en, "when_zh": FANS[f.id].when_zh, "when_en": FANS[f.id].when_en}
                   for f in result.fans]
    out["capped"] = sum(f.fan for f in result.fans) > result.total
    if request.self_drawn:
        each = self_drawn_each(rules, result.multiplier)
        rows = [(payer, each, "zimo") for payer in range(4) if payer != WINNER]
    else:
        reason = "qianggang" if "robbing_kong" in request.situations else "dianpao"
        rows = [(frm, result.multiplier, reason)]
    out["payments"] = [{"payer": payer, "payee": WINNER, "amount": amount, "chips": amount * rules.base,
                        "reason": reason} for payer, amount, reason in rows]
    out["deltas"] = [sum(a for _, a, _ in rows) * rules.base if s == WINNER else
                     -sum(a for p, a, _ in rows if p == s) * rules.base for s in range(4)]
    return out
