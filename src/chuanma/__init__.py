"""chuanma: Sichuan mahjong rules, hand analysis, fan scoring and provably fair dealing."""

__version__ = "0.1.0"
