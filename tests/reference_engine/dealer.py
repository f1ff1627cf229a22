"""Who deals the next hand, by the rule set's ``dealer`` rule (docs/rules.md, Presets).

- ``first_winner``: the first winner; after a 一炮多响 as the hand's first win, its discarder;
- ``discarder``: the discarder of the first win (the declarer of a robbed kong), the winner on
  a self-draw;
- ``rotate``: the dealer when it won or nobody did, else the dealer's 下家;
- every rule: the same dealer after a hand nobody won. (``random`` draws every hand's dealer,
  so what this gives is not used.)
"""

from __future__ import annotations

from chuanma.engine.state import HandState


def next_dealer(st: HandState) -> int:
    """The seat that deals the hand after this one."""
    pub = st.public
    rule = st.rules.dealer
    if not pub.wins:
        return pub.dealer
    first = pub.wins[0]
    if rule == "rotate":
        won = any(w.seat == pub.dealer for w in pub.wins)
        return pub.dealer if won else (pub.dealer + 1) % 4
    if rule == "discarder":
        return first.seat if first.from_seat is None else first.from_seat
    if pub.first_multi_from is not None:
        return pub.first_multi_from
    return first.seat
