"""One wording of the hand's events (chuanma.narration): ``chuanma replay`` says the sentences the
browser says (test_client_flow compares them), and the terminal's ticker words payment reasons and
hand ends with the same words."""

from __future__ import annotations

import pytest

from chuanma.commands.replay import event_line
from chuanma.narration import ENDS, REASONS, end_text, reason_text
from chuanma.rules import RuleSet
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
