"""Chip settlement (RULES §6): a hand's payments become chip movements that never go below zero.

Chips move once, when the hand ends. A player's loss is capped at the balance they sat down
with; what a capped player cannot pay is taken off their creditors in proportion to what the
player owed each of them (pairwise net debts). A creditor who is itself capped passes its own
shortfall on in the same way, until every balance stays at zero or above.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from chuanma.errors import ChuanmaError


class ChipError(ChuanmaError, ValueError):
    """Payments or balances that cannot be settled (a negative balance or amount, a bad seat)."""


def _share(total: int, weights: Sequence[int], start: int) -> list[int]:
    """Split ``total`` in proportion to ``weights``.

    Largest remainders first; ties go to the seats after ``start`` in play order.
    """
    n = len(weights)
    wsum = sum(weights)
    if wsum == 0 or total == 0:
        return [0] * n
    shares = [total * w // wsum for w in weights]
    rest = total - sum(shares)
    order = sorted(
        range(n),
        key=lambda j: (-(total * weights[j] % wsum), (j - start) % n),
    )
    for j in order[:rest]:
        shares[j] += 1
    return shares


def settle_chips(
    payments: Iterable[tuple[int, int, int]], balances: Sequence[int]
) -> list[int]:
    """Chip deltas for ``payments`` (``(payer, payee, chips)``) given each seat's balance.

    The deltas sum to zero and ``balances[i] + deltas[i] >= 0`` for every seat. Without any
    capped player the deltas are the plain net results.

    >>> settle_chips([(0, 1, 50), (0, 2, 150)], [100, 0, 0])
    [-100, 25, 75]
    """
    n = len(balances)
    if any(b < 0 for b in balances):
        raise ChipError(f"balances must not be negative: {list(balances)}")
    owed = [[0] * n for _ in range(n)]
    for payer, payee, amount in payments:
        if not (0 <= payer < n and 0 <= payee < n):
            raise ChipError(f"payment between unknown seats {payer} and {payee}")
        if amount < 0:
            raise ChipError(f"payment of a negative amount {amount}")
        owed[payer][payee] += amount
    # net each pair: only one direction keeps a debt
    for i in range(n):
        for j in range(i + 1, n):
            common = min(owed[i][j], owed[j][i])
            owed[i][j] -= common
            owed[j][i] -= common

    def deltas() -> list[int]:
        return [sum(owed[j][i] for j in range(n)) - sum(owed[i]) for i in range(n)]

    while True:
        d = deltas()
        short = [i for i in range(n) if balances[i] + d[i] < 0]
        if not short:
            return d
        i = short[0]
        shortfall = -(balances[i] + d[i])
        cut = _share(shortfall, owed[i], i)
        for j in range(n):
            owed[i][j] -= cut[j]
