"""The fixed action numbering: every index reads back, none is shared, the space is the documented
table, bad indices are refused clearly, and ``legal_mask`` is exactly the legal actions."""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any

import numpy as np
import pytest

from chuanma.engine import indices
from chuanma.engine.actions import Action, ChooseVoid, Chow, Discard, Exchange, Hu, Kong, Leave, Pass, Pong
from chuanma.engine.indices import (
    ACTION_COUNT,
    CHOW_AT,
    CHOWS,
    DISCARD_AT,
    EXCHANGE_AT,
    EXCHANGES,
    HU_AT,
    KONG_AT,
    PASS_AT,
    PONG_AT,
    VOID_AT,
    ActionIndexError,
    from_index,
    to_index,
)
from chuanma.rules import PRESETS
from chuanma.tiles import NUM_KINDS, SUITS
from engine_play import pick, random_hand


def documented_table() -> list[tuple[int, int, str]]:
    """(first, count, action) for each row of the table in the module's docstring."""
    doc = indices.__doc__ or ""
    rows = re.findall(r"^(\d+)\s+(\d+)\s+(\S.*)$", doc, re.MULTILINE)
    return [(int(first), int(count), what) for first, count, what in rows]


def test_action_count_is_the_documented_table() -> None:
    table = documented_table()
    assert [what.split()[0] for _, _, what in table] == [
        "discard", "pong", "kong", "chow", "hu", "pass", "void", "exchange:"]
    assert [first for first, _, _ in table] == [
        DISCARD_AT, PONG_AT, KONG_AT, CHOW_AT, HU_AT, PASS_AT, VOID_AT, EXCHANGE_AT]
    for (first, count, _), (nxt, _, _) in pairwise(table):
        assert first + count == nxt
    last_first, last_count, _ = table[-1]
    assert last_first + last_count == ACTION_COUNT == 623
    assert f"``ACTION_COUNT`` is {ACTION_COUNT}." in (indices.__doc__ or "")


def test_every_index_reads_back() -> None:
    for i in range(ACTION_COUNT):
        action = from_index(i)
        assert to_index(action) == i
        as_numpy: Any = np.int64(i)
        assert from_index(as_numpy) == action  # numpy's integers are indices too


def test_the_21_chow_indices_are_the_chows_from_1m_to_7s_in_tile_order() -> None:
    starts = [t for t in range(27) if t % 9 <= 6]  # ranks 1-7 of each suit: 7 × 3 = 21
    assert [from_index(CHOW_AT + i) for i in range(CHOWS)] == [Chow(t) for t in starts]


def every_action() -> list[Action]:
    exchanges = [Exchange((a, b, c)) for a in range(27) for b in range(a, 27) for c in range(b, 27)
                 if a // 9 == c // 9]
    return [*(Discard(t) for t in range(NUM_KINDS)), *(Pong(t) for t in range(NUM_KINDS)),
            *(Kong(t) for t in range(NUM_KINDS)), *(Chow(t) for t in range(27) if t % 9 <= 6), Hu(), Pass(),
            *(ChooseVoid(s) for s in SUITS),
            *exchanges]


def test_indices_are_unique_and_cover_the_space() -> None:
    actions = every_action()
    numbers = [to_index(a) for a in actions]
    assert len(set(numbers)) == len(actions) == ACTION_COUNT
    assert set(numbers) == set(range(ACTION_COUNT))
    for a, i in zip(actions, numbers, strict=True):
        assert from_index(i) == a


def test_an_exchange_has_one_index_whatever_the_order_of_its_tiles() -> None:
    first = EXCHANGE_AT + EXCHANGES.index((0, 1, 2))
    assert to_index(Exchange((2, 0, 1))) == to_index(Exchange((1, 2, 0))) == to_index(Exchange((0, 1, 2))) == first
    assert from_index(first) == Exchange((0, 1, 2))


def test_leaving_has_no_index() -> None:
    with pytest.raises(ActionIndexError, match="leaving"):
        to_index(Leave())


@pytest.mark.parametrize("bad", [-1, 623, 1.5, True, "3", None, np.int64(623)])
def test_bad_indices_are_refused_clearly(bad: Any) -> None:
    with pytest.raises(ActionIndexError) as refused:
        from_index(bad)
    message = str(refused.value)
    assert message == f"action index must be a whole number 0-622, got {bad!r}"


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_legal_mask_is_exactly_the_legal_actions(preset: str) -> None:
    steps = 0
    for seed in range(60):
        g, rng = random_hand(preset, 2000 + seed)
        while not g.finished:
            for seat in range(4):
                legal = g.legal_actions(seat)
                mask = g.legal_mask(seat)
                assert mask.dtype == np.int8 and mask.shape == (ACTION_COUNT,)
                assert int(mask.sum()) == len(legal)
                assert all(mask[to_index(a)] == 1 for a in legal)
                assert set(np.flatnonzero(mask).tolist()) == {to_index(a) for a in legal}
                assert (seat in g.to_act()) == bool(legal)
            seat = rng.choice(g.to_act())
            g.apply(seat, pick(rng, g.legal_actions(seat), g, seat))
            steps += 1
    assert steps > 3000
