"""One wording of the hand's events (chuanma.narration): ``chuanma replay`` says the sentences the
browser says (test_client_flow compares them), the terminal's ticker says them too, and the
viewer's own events are told in the second person."""

from __future__ import annotations

from string import Formatter

import pytest

from chuanma.bots import make_bot
from chuanma.commands.replay import event_line
from chuanma.narration import ENDS, EVENTS, EVENTS_YOU, REASONS, Lang, end_text, narrate, reason_text
from chuanma.rules import RuleSet
from chuanma.sim.play import deal_for, play_game
from chuanma.terminal.ticker import Ticker


@pytest.mark.parametrize("reason", [r for r in REASONS if r != "kong"])
def test_a_payment_is_worded_alike_by_the_ticker_and_replay(reason: str) -> None:
    event = {"type": "payment", "seq": 9, "payer": 1, "payee": 2, "amount": 4, "reason": reason, "for": 8}
    ticker = Ticker(0, RuleSet.from_preset("xuezhan"), ["you", "a", "b", "c"]).line(event)
    replayed = event_line(event)
    words = f"({reason_text(reason)})"
    assert ticker is not None and replayed is not None
    assert ticker.endswith(words) and replayed.endswith(words)
    assert replayed == "Seat 1 pays Seat 2 4 base " + words


@pytest.mark.parametrize("reason", list(ENDS))
def test_a_hand_end_is_worded_alike_by_the_ticker_and_replay(reason: str) -> None:
    event = {"type": "end", "seq": 9, "reason": reason, "hands": ["", "", "", ""], "melds": [[], [], [], []],
             "deltas": [0, 0, 0, 0]}
    ticker = Ticker(0, RuleSet.from_preset("xuezhan"), ["you", "a", "b", "c"]).line(event)
    replayed = event_line(event)
    assert ticker is not None and replayed is not None
    assert end_text(reason) in ticker and end_text(reason) in replayed


def fields(template: str) -> set[str]:
    return {f for _, f, _, _ in Formatter().parse(template) if f}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_viewers_own_sentences_take_the_others_fields_but_the_subject(lang: Lang) -> None:
    for key, own in EVENTS_YOU[lang].items():
        assert fields(own) == fields(EVENTS[lang][key]) - {"seat", "payer"}, key  # the subject is "you"


def test_the_viewers_own_events_are_told_in_the_second_person() -> None:
    rules = RuleSet.from_preset("xueliu")
    game = play_game(rules, deal_for(5, 0, rules.tiles), [make_bot("greedy", s) for s in range(4)])
    me = 1
    events = game.events_for(me)
    said = {lang: [narrate(ev, "ABCD".__getitem__, lang, me=me) for ev in events] for lang in ("en", "zh")}
    own = [i for i, ev in enumerate(events) if ev["type"] not in ("start", "voids", "exchange", "deal_done", "end")
           and (ev["payer"] if ev["type"] == "payment" else ev.get("seat")) == me]
    others = [i for i, ev in enumerate(events) if ev["type"] == "payment" and ev["payee"] == me]
    assert len(own) > 20 and others
    assert all(str(said["en"][i]).startswith(("You ", "Your ")) for i in own)
    assert all(str(said["zh"][i]).startswith("你") for i in own)
    assert all(f"{'ABCD'[events[i]['payer']]} pays you " in str(said["en"][i]) for i in others)
    text = "\n".join(str(line) for line in said["en"])
    assert not any(wrong in text for wrong in ("you's", "You wins", "You discards", "You pays", "you pays"))
    # without a viewer every seat is named alike, in the third person
    assert all(str(narrate(events[i], "ABCD".__getitem__)).startswith(("B ", "B's ")) for i in own)
