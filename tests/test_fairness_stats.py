"""Statistical tests: the dealer, the direction and every tile's position are uniform.

Each test computes a Pearson chi-square statistic and its p-value (no SciPy: the survival
function is computed exactly below and itself checked against published table values). A
genuine stream must give ``p > ALPHA``; deliberately biased variants of the algorithm must give
``p < ALPHA`` with the same statistic, which shows the tests can catch such mistakes.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from chuanma.fairness import RandomStream, derive_deal, shuffled_indices
from chuanma.fairness.derive import DIRECTIONS
from chuanma.tiles import SICHUAN_TILES

WALL_SIZE = SICHUAN_TILES.size

ALPHA = 1e-6
"""False-positive rate of each test: one failure in a million runs of a correct implementation.
The seeds are fixed, so in practice the outcome is deterministic."""

N_DEALS = 100_000
N_BIASED = 20_000
SERVER_SEED = bytes.fromhex("a7" * 32)


def chi2_sf(x: float, k: int) -> float:
    """P(X >= x) for X ~ chi-square with k degrees of freedom (closed forms, summed in logs)."""
    if x <= 0:
        return 1.0
    h = x / 2.0
    if k % 2 == 0:
        logs = [i * math.log(h) - math.lgamma(i + 1) - h for i in range(k // 2)]
        head = 0.0
    else:
        logs = [(i + 0.5) * math.log(h) - math.lgamma(i + 1.5) - h for i in range((k - 1) // 2)]
        head = math.erfc(math.sqrt(h))
    if not logs:
        return head
    top = max(logs)
    return head + math.exp(top) * sum(math.exp(v - top) for v in logs)


def chi2_uniform(counts: np.ndarray) -> tuple[float, int]:
    """Pearson's statistic of ``counts`` against a uniform distribution, and its dof."""
    expected = counts.sum() / counts.size
    return float(((counts - expected) ** 2 / expected).sum()), counts.size - 1


def permutation_statistic(perms: np.ndarray) -> tuple[float, int]:
    """Chi-square of the (start index, final position) table of many permutations of n items.

    For uniform permutations the table has both margins fixed; its Pearson statistic is then
    asymptotically ``n/(n-1) * chi2((n-1)**2)``, so it is rescaled by ``(n-1)/n``.
    """
    deals, n = perms.shape
    positions = np.broadcast_to(np.arange(n), perms.shape)
    table = np.bincount((perms.astype(np.int64) * n + positions).ravel(), minlength=n * n)
    expected = deals / n
    stat = float(((table - expected) ** 2 / expected).sum())
    return stat * (n - 1) / n, (n - 1) ** 2


def _client_seed(k: int) -> str:
    return f"stat-{k}|b|c|d"


# ------------------------------------------------------------------------------ the p-values


@pytest.mark.parametrize(
    ("x", "k", "p"),
    # critical values from the standard chi-square table (upper tail 0.05 and 0.001)
    [(3.841, 1, 0.05), (5.991, 2, 0.05), (7.815, 3, 0.05), (9.488, 4, 0.05),
     (18.307, 10, 0.05), (31.410, 20, 0.05), (124.342, 100, 0.05), (29.588, 10, 0.001),
     (149.449, 100, 0.001)],
)
def test_chi2_sf_matches_tables(x: float, k: int, p: float) -> None:
    assert chi2_sf(x, k) == pytest.approx(p, rel=2e-3)


def test_chi2_sf_large_dof_matches_wilson_hilferty() -> None:
    k = 107**2
    for z in (-2.0, 0.0, 3.0, 5.0):
        x = k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3
        assert chi2_sf(x, k) == pytest.approx(0.5 * math.erfc(z / math.sqrt(2)), rel=2e-2)


# ------------------------------------------------------------------------- the genuine deals


@pytest.fixture(scope="module")
def genuine() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Dealer, direction and start-index permutation of N_DEALS hands, drawn exactly as the
    library's derivation draws them."""
    dealers = np.empty(N_DEALS, dtype=np.int64)
    directions = np.empty(N_DEALS, dtype=np.int64)
    perms = np.empty((N_DEALS, WALL_SIZE), dtype=np.uint8)
    for k in range(N_DEALS):
        stream = RandomStream(SERVER_SEED, _client_seed(k), k)
        dealers[k] = stream.uniform(4)
        directions[k] = stream.uniform(3)
        perms[k] = shuffled_indices(WALL_SIZE, stream.uniform)
    return dealers, directions, perms


def test_sampler_is_the_library_derivation(
    genuine: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> None:
    dealers, directions, perms = genuine
    for k in range(0, N_DEALS, 997):
        deal = derive_deal(SERVER_SEED, _client_seed(k), k, SICHUAN_TILES)
        assert deal.dealer == dealers[k]
        assert deal.direction == DIRECTIONS[directions[k]]
        assert list(deal.wall) == [t // 4 for t in perms[k]]


def test_dealer_is_uniform(genuine: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    stat, dof = chi2_uniform(np.bincount(genuine[0], minlength=4))
    assert chi2_sf(stat, dof) > ALPHA


def test_direction_is_uniform(genuine: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    stat, dof = chi2_uniform(np.bincount(genuine[1], minlength=3))
    assert chi2_sf(stat, dof) > ALPHA


def test_every_tile_copy_lands_uniformly(
    genuine: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> None:
    stat, dof = permutation_statistic(genuine[2])
    assert chi2_sf(stat, dof) > ALPHA


def test_first_copy_of_1m_lands_uniformly(
    genuine: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> None:
    positions = np.argmax(genuine[2] == 0, axis=1)
    stat, dof = chi2_uniform(np.bincount(positions, minlength=WALL_SIZE))
    assert chi2_sf(stat, dof) > ALPHA


# ----------------------------------------------------- the same statistics catch biased variants


def _sattolo(size: int, uniform: Callable[[int], int]) -> list[int]:
    """The classic off-by-one: j = uniform(i) only produces cyclic permutations."""
    order = list(range(size))
    for i in range(size - 1, 0, -1):
        j = uniform(i)
        order[i], order[j] = order[j], order[i]
    return order


def test_statistic_catches_sattolo_shuffle() -> None:
    perms = np.empty((N_BIASED, WALL_SIZE), dtype=np.uint8)
    for k in range(N_BIASED):
        stream = RandomStream(SERVER_SEED, _client_seed(k), k)
        stream.uniform(4)
        stream.uniform(3)
        perms[k] = _sattolo(WALL_SIZE, stream.uniform)
    stat, dof = permutation_statistic(perms)
    assert chi2_sf(stat, dof) < ALPHA
    # and the single-copy histogram sees it too: copy 0 of 1m never stays at position 0
    positions = np.argmax(perms == 0, axis=1)
    stat, dof = chi2_uniform(np.bincount(positions, minlength=WALL_SIZE))
    assert chi2_sf(stat, dof) < ALPHA


BIG_N = 3 * 2**30
"""For the n the deal uses (at most 136) the modulo bias is below 136 / 2**32, far too small to
measure; with n = 3·2**30 the same mistake makes the low third of the range twice as likely."""


def _thirds(values: list[int]) -> np.ndarray:
    return np.bincount(np.array(values, dtype=np.int64) // 2**30, minlength=3)


def test_rejection_sampling_is_uniform_for_a_large_n() -> None:
    stream = RandomStream(SERVER_SEED, "big-n", 0)
    stat, dof = chi2_uniform(_thirds([stream.uniform(BIG_N) for _ in range(N_DEALS)]))
    assert chi2_sf(stat, dof) > ALPHA


def test_statistic_catches_modulo_without_rejection() -> None:
    stream = RandomStream(SERVER_SEED, "big-n", 0)
    stat, dof = chi2_uniform(_thirds([stream.next_word() % BIG_N for _ in range(N_DEALS)]))
    assert chi2_sf(stat, dof) < ALPHA
