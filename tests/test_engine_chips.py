"""RULES §6: chips never go below zero; a capped loss is shared among creditors in proportion."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chuanma.engine.chips import ChipError, settle_chips
from conftest import examples


def test_uncapped_payments_are_the_net_results() -> None:
    assert settle_chips([(0, 1, 8), (2, 1, 8), (3, 1, 8), (1, 0, 2)], [100] * 4) == [-6, 22, -8, -8]


def test_loss_capped_at_balance_shared_in_proportion() -> None:
    # seat 0 owes 50 to seat 1 and 150 to seat 2 but sat down with 100
    assert settle_chips([(0, 1, 50), (0, 2, 150)], [100, 0, 0, 0]) == [-100, 25, 75, 0]


def test_capped_creditor_passes_its_shortfall_on() -> None:
    assert settle_chips([(0, 1, 50), (1, 2, 100)], [1000, 10, 0, 0]) == [-50, -10, 60, 0]


def test_rounding_keeps_the_sum_zero() -> None:
    deltas = settle_chips([(0, 1, 1), (0, 2, 1), (0, 3, 1)], [2, 0, 0, 0])
    assert deltas == [-2, 0, 1, 1]  # the seat right after the debtor absorbs the odd unit


def test_bad_input_refused() -> None:
    with pytest.raises(ChipError):
        settle_chips([(0, 1, -1)], [1, 1, 1, 1])
    with pytest.raises(ChipError):
        settle_chips([(0, 1, 1)], [-1, 1, 1, 1])
    with pytest.raises(ChipError):
        settle_chips([(0, 7, 1)], [1, 1, 1, 1])


payment = st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 500))


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(payment, max_size=20), st.lists(st.integers(0, 400), min_size=4, max_size=4))
def test_never_below_zero_and_sums_to_zero(
    payments: list[tuple[int, int, int]], balances: list[int]
) -> None:
    deltas = settle_chips(payments, balances)
    assert sum(deltas) == 0
    assert all(b + d >= 0 for b, d in zip(balances, deltas, strict=True))
    plain = [0] * 4
    for a, b, x in payments:
        plain[a] -= x
        plain[b] += x
    if all(b + d >= 0 for b, d in zip(balances, plain, strict=True)):
        assert deltas == plain
    # nobody wins more than they would without caps
    assert all(d <= max(p, 0) or d <= 0 for d, p in zip(deltas, plain, strict=True))
