"""Skill ratings: OpenSkill's Plackett-Luce model over each hand's order by chip result.

A Sichuan hand has no single winner: in 血战 up to three players win and the last one standing
pays, in 血流 the wins go on to the wall's end, and a drawn hand can still move chips (查大叫,
花猪). What every hand does have is an order: each seat's chip result. Plackett-Luce rates a match
as a ranking of any number of teams, with ties, so a hand is four one-player teams ranked by
their chips (equal results share a place) — two winners who won the same are tied, the payer is
last. Each player is rated per rule family (:data:`FAMILIES`) and overall (:data:`OVERALL`).

Bots are rated per account as the strategy they play (``bot:greedy:17``: see
:mod:`chuanma.server.progress`). Should a hand seat the same subject twice, it takes the mean of its
seats' updates.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from chuanma.rules import RuleSet

FAMILIES = ("xuezhan", "xueliu", "classic", "dazhong")
"""The rule families rated apart: 血战, 血流, 001's classic rules (经典), 大众麻将."""
OVERALL = "all"
"""The rating over every family."""
MODEL = PlackettLuce()
"""OpenSkill's defaults: a new subject starts at mu 25, sigma 25/3."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill estimate: ``mu`` and its uncertainty ``sigma``; shown as ``mu - 3 sigma`` (:attr:`shown`)."""

    mu: float
    sigma: float

    @property
    def shown(self) -> float:
        """The conservative rating (OpenSkill's ordinal): what the leaderboards rank by."""
        return self.mu - 3 * self.sigma


NEW = Rating(MODEL.mu, MODEL.sigma)


def family_of(rules: object) -> str:
    """The family of a record's ``rules`` (a preset name or ``{"preset", "options"}``)."""
    ruleset = RuleSet.from_json(rules)
    if ruleset.preset.startswith("classic"):
        return "classic"
    if ruleset.variant in ("xueliu", "dazhong"):
        return ruleset.variant
    return "xuezhan"


def places(deltas: Sequence[int]) -> list[int]:
    """Each seat's place by chip result, 1 the best; equal results share the better place."""
    return [1 + sum(other > mine for other in deltas) for mine in deltas]


def rate(subjects: Sequence[str], deltas: Sequence[int], current: Mapping[str, Rating]) -> dict[str, Rating]:
    """The ratings of ``subjects`` (by seat) after a hand with these chip ``deltas`` (by seat);
    a subject not in ``current`` starts at :data:`NEW`."""
    teams = [[MODEL.rating(mu=current.get(s, NEW).mu, sigma=current.get(s, NEW).sigma)] for s in subjects]
    after = MODEL.rate(teams, ranks=[float(p) for p in places(deltas)])
    updates: dict[str, list[Rating]] = {}
    for subject, [player] in zip(subjects, after, strict=True):
        updates.setdefault(subject, []).append(Rating(player.mu, player.sigma))
    return {s: Rating(sum(r.mu for r in rs) / len(rs), sum(r.sigma for r in rs) / len(rs))
            for s, rs in updates.items()}
