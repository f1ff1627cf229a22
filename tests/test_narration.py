"""One wording of the hand's events (chuanma.narration): ``chuanma replay`` says the sentences the
browser says (test_client_flow compares them), the terminal's ticker says them too, and the
viewer's own events are told in the second person."""

from __future__ import annotations

import re
from string import Formatter

import pytest

from chuanma.bots import make_bot
from chuanma.commands.replay import event_line
from chuanma.narration import ENDS, EVENTS, EVENTS_YOU, REASONS, Lang, end_text, narrate, reason_text
from chuanma.rules import RuleSet
from chuanma.scoring import FANS
from chuanma.sim.play import deal_for, play_game
from chuanma.terminal.ticker import Ticker
from chuanma.terminal.words import void_text
from chuanma.tiles import SUIT_NAMES_EN
from narration_samples import EVENTS as SAMPLES


@pytest.mark.parametrize("reason", [r for r in REASONS if r != "kong"])
def test_a_payment_is_worded_alike_by_the_ticker_and_replay(reason: str) -> None:
    event = {"type": "payment", "seq": 9, "payer": 1, "payee": 2, "amount": 4, "reason": reason, "for": 8}
    ticker = Ticker(0, RuleSet.from_preset("xuezhan"), ["you", "a", "b", "c"]).line(event)
    replayed = event_line(event)
    words = f": {reason_text(reason)}"
    assert ticker is not None and replayed is not None
    assert ticker.endswith(words) and replayed.endswith(words)
    assert replayed == "Seat 1 pays Seat 2 4 base" + words


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


NAMES = ("Ann", "Bo", "Cy", "Di")
THIRD_PERSON = re.compile(r"^(?:Ann|Bo|Cy|Di) (\w+)")


def test_every_english_template_is_said_in_sentence_case_with_me_and_with_another_seat(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of EVENTS and EVENTS_YOU's English templates, said of every seat as the viewer and as
    another seat (narration_samples has every kind): it opens with a capital (a name or You), "you"
    never opens a sentence nor follows "dealer", the viewer's verbs are the second person's and
    another seat's the third's."""
    for table in (EVENTS["en"], EVENTS_YOU["en"]):
        for key in table:  # a mark on each template, to see that every one was said
            monkeypatch.setitem(table, key, table[key] + f" ⟨{id(table)}:{key}⟩")
    said: list[str] = []
    for me in (None, 0, 1, 2, 3):
        for ev in SAMPLES:
            line = narrate(ev, NAMES.__getitem__, "en", me=me)
            if line is None:
                continue
            text = re.sub(r" ⟨[^⟩]*⟩", "", line)
            said.append(line)
            assert text[0].isupper(), text
            assert not re.search(r"\bdealer you\b|\byou (?:is|has|\w+[^s]s)\b", text, re.IGNORECASE), text
            verb = THIRD_PERSON.match(text)
            assert verb is None or verb[1].endswith("s"), text
    marks = set(re.findall(r"⟨([^⟩]*)⟩", "\n".join(said)))
    for table in (EVENTS["en"], EVENTS_YOU["en"]):
        for key in table:
            if key != "you":  # the viewer's name, said inside other sentences
                assert f"{id(table)}:{key}" in marks, key


def test_the_terminals_ticker_names_suits_as_its_board_does() -> None:
    """The terminal is English with the table's Chinese terms: its board says 缺万 and 5万, so its
    ticker names a void suit 万 too, never Characters (the browser's English word)."""
    rules = RuleSet.from_preset("xuezhan")
    game = play_game(rules, deal_for(5, 0, rules.tiles), [make_bot("greedy", s) for s in range(4)])
    me = 0
    events = game.events_for(me)
    lines = Ticker(me, rules, ["you", "a", "b", "c"]).lines(events)
    voids = [ev for ev in events if ev["type"] == "voids"]
    said = next(line for line in lines if line.startswith("Voids revealed"))
    assert voids and said.count(" in ") == 4
    for suit in voids[0]["voids"]:
        assert f" in {void_text(suit).plain.removeprefix('缺')}" in said, said
    english = [word for name in SUIT_NAMES_EN.values() for word in (name, name.lower())]
    assert not [line for line in lines if any(word in line for word in english)]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_wins_fans_are_named_in_the_language_of_the_sentence(lang: Lang) -> None:
    win = {"type": "hu", "seat": 1, "tile": "2s", "from": 3, "self_drawn": False, "robbed_kong": False,
           "hand": "1122334455667s", "total": 3, "multiplier": 8,
           "fans": [{"id": "qingyise", "name": "清一色", "fan": 2}, {"id": "gen", "name": "根", "fan": 1}]}
    line = narrate(win, lambda seat: f"seat{seat}", lang)
    assert line is not None
    named = [FANS["qingyise"].name, FANS["gen"].name] if lang == "zh" else [FANS["qingyise"].en, FANS["gen"].en]
    assert f"{named[0]} 2 + {named[1]} 1" in line
    if lang == "en":
        assert not re.search(r"[\u4e00-\u9fff]", line.split(":", 1)[1].split("=")[0])
