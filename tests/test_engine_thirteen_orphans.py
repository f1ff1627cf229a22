"""十三幺 in play (大众麻将): a single wait on a tile the hand holds no copy of wins on a discard and
by self-draw, and the thirteen-sided wait wins on any orphan. Payments from docs/rules.md's 大众麻将
table: 十三幺 is a fixed 8 fan, 2^8 = 256 base, from the discarder alone or from each other player.
"""

from __future__ import annotations

from chuanma.engine.actions import Discard, Hu, Pass
from chuanma.engine.game import Game
from engine_setup import game, play, rules, t

# Seat 3 waits on 7z alone (19m19p19s1234566z: every orphan but 7z, 6z twice). One round of
# unclaimable discards first (so no 地胡); then the dealer draws its second tile.
HANDS = ["7z22233356789s44p", "23m678m123s45s66p1p", "44m13579p234567z", "19m19p19s1234566z"]
ALL_THIRTEEN = ["7z22233356789s44p", "23m678m123s45s66p1p", "44m13579p23456z6p", "19m19p19s1234567z"]


def _round(hands: list[str], draws: str) -> Game:
    g = game(hands, draws, ruleset=rules("dazhong"))
    play(g, (0, Discard(t("8s"))), (1, Discard(t("9m"))), (2, Discard(t("8p"))))
    return g


def _wins(g: Game) -> list[tuple[int, int | None, list[str]]]:
    return [(w.seat, w.from_seat, [f[0] for f in w.fans]) for w in g.wins]


def test_thirteen_orphans_single_wait_wins_on_a_discard() -> None:
    g = _round(HANDS, "9m8p9m5z")
    play(g, (3, Discard(t("9m"))), (0, Discard(t("7z"))))
    assert g.legal_actions(3) == [Hu(), Pass()]
    play(g, (3, Hu()))
    assert _wins(g) == [(3, 0, ["shisanyao"])]
    assert [(p.payer, p.payee, p.amount) for p in g.ledger if p.reason == "dianpao"] == [(0, 3, 256)]


def test_thirteen_orphans_single_wait_wins_by_self_draw() -> None:
    # a second round (seat 3's first draw would be 地胡), then seat 3 draws 7z
    g = _round(HANDS, "9m8p9m5z9s8p7z")
    play(g, (3, Discard(t("9m"))), (0, Discard(t("5z"))), (1, Discard(t("9s"))), (2, Discard(t("8p"))))
    assert Hu() in g.legal_actions(3)
    play(g, (3, Hu()))
    assert _wins(g) == [(3, None, ["shisanyao"])]
    assert sorted((p.payer, p.amount) for p in g.ledger if p.reason == "zimo") == [(0, 256), (1, 256), (2, 256)]


def test_thirteen_orphans_thirteen_sided_wait_wins_on_any_orphan() -> None:
    # one of each orphan: seat 1's 9m completes it (9m twice), and so would any other orphan
    g = game(ALL_THIRTEEN, "9m", ruleset=rules("dazhong"))
    play(g, (0, Discard(t("8s"))), (1, Discard(t("9m"))))
    assert g.legal_actions(3) == [Hu(), Pass()]
    play(g, (3, Hu()))
    assert _wins(g) == [(3, 1, ["shisanyao"])]
