"""Levels: earned by playing (experience from hands played, wins and 极品 wins), named in Chinese
and English. A room may require one (``Room.min_level``)."""

from __future__ import annotations

from dataclasses import dataclass

HAND_XP = 10
"""Experience for every hand played to its settlement."""
WIN_XP = 15
"""Experience for every win (血流: each of a hand's wins)."""
JIPIN_XP = 50
"""Experience for every 极品 win (the fan cap's hands, RULES §6), besides the win's own."""


@dataclass(frozen=True, slots=True)
class Level:
    number: int
    zh: str
    en: str
    xp: int
    """The experience it starts at."""


LEVELS = (
    Level(1, "新手", "Newcomer", 0),
    Level(2, "学徒", "Apprentice", 100),
    Level(3, "熟手", "Regular", 300),
    Level(4, "好手", "Skilled", 800),
    Level(5, "高手", "Expert", 2_000),
    Level(6, "大师", "Master", 5_000),
    Level(7, "宗师", "Grandmaster", 12_000),
    Level(8, "雀圣", "Mahjong Sage", 30_000),
)


def experience(hands: int, wins: int, jipin: int) -> int:
    return hands * HAND_XP + wins * WIN_XP + jipin * JIPIN_XP


def level_of(xp: int) -> Level:
    return [level for level in LEVELS if level.xp <= xp][-1]


def level_json(xp: int) -> dict[str, object]:
    """The level of ``xp`` as the API shows it: number, names, experience, where the level starts
    and where the next one does (``None`` at the top)."""
    level = level_of(xp)
    following = [n for n in LEVELS if n.number == level.number + 1]
    return {"level": level.number, "zh": level.zh, "en": level.en, "xp": xp, "start": level.xp,
            "next": following[0].xp if following else None}


def level_name(number: int) -> str:
    """``Lv.3 熟手 Regular``: how a refusal names a level."""
    level = LEVELS[number - 1]
    return f"Lv.{level.number} {level.zh} {level.en}"
