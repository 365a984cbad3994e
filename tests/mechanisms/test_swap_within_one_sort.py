"""``swap_within``'s one-sort path (float key label + u, uint16 labels) against the former
two-sort formulation, kept here as the oracle (argsort of the draws, stable argsort by label),
and against ``np.lexsort`` — also where label + u rounds so that keys meet (the tie fallback):
at a group boundary (u just below 1 meets the next label's u = 0) and inside a group (two
draws closer than the spacing of floats near a large label)."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.mechanisms.microaggregation import prob_kanon as pk


def old_swap_within(labels: np.ndarray, u: np.ndarray) -> np.ndarray:
    n = labels.shape[0]
    lab, grouped = pk.group_order(labels)
    by_draw = np.argsort(u)
    su = u[by_draw]
    if np.any(su[1:] == su[:-1]):
        by_draw = np.argsort(u, kind="stable")
    shuffled = by_draw[np.argsort(lab[by_draw], kind="stable")]
    p = np.empty(n, dtype=np.int64)
    p[grouped] = shuffled
    return p


def _lexsort_reference(labels: np.ndarray, u: np.ndarray) -> np.ndarray:
    n = labels.shape[0]
    p = np.empty(n, dtype=np.int64)
    p[np.lexsort(np.stack([np.arange(n), labels]))] = np.lexsort(
        np.stack([np.arange(n), u, labels.astype(float)]))
    return p


class _Draws:
    def __init__(self, u: np.ndarray) -> None:
        self.u = u

    def random(self, n: int) -> np.ndarray:
        assert n == self.u.size
        return self.u.copy()


def _check(labels: np.ndarray, u: np.ndarray) -> None:
    got = pk.swap_within(labels, _Draws(u))
    assert np.array_equal(got, old_swap_within(labels, u))
    assert np.array_equal(got, _lexsort_reference(labels, u))
    order = pk.group_order(labels)
    assert np.array_equal(pk.swap_within(labels, _Draws(u), order), got)


@pytest.mark.parametrize("n", [0, 1, 7, 1080, 5000])
@pytest.mark.parametrize("k", [2, 3, 30])
def test_one_sort_equals_the_two_sorts(n: int, k: int) -> None:
    rng = np.random.default_rng(n * 31 + k)
    labels = np.repeat(np.arange(n // k + 1), k)[:n]
    rng.shuffle(labels)
    _check(labels, rng.random(n))
    _check(labels + 60_000, rng.random(n))  # large labels: coarser keys


def test_keys_meeting_at_a_group_boundary() -> None:
    # row 0 has label 6 and u = 0, row 1 label 5 and u just below 1: 5 + u rounds to 6.0
    labels = np.array([6, 5, 6, 5])
    u = np.array([0.0, 1.0 - 2.0**-53, 0.5, 0.25])
    assert (labels.astype(np.uint16) + u)[1] == 6.0
    _check(labels, u)


def test_keys_meeting_inside_a_group() -> None:
    labels = np.array([60_000, 60_000, 60_000, 3])
    u = np.array([0.1 + 2.0**-52, 0.1, 0.7, 0.2])  # distinct draws, one key near 60 000
    assert (labels.astype(np.uint16) + u)[0] == (labels.astype(np.uint16) + u)[1]
    _check(labels, u)


def test_seeded_draws_unchanged() -> None:
    labels = np.random.default_rng(3).integers(0, 200, 1500)
    for seed in range(20):
        u = np.random.default_rng(seed).random(1500)
        assert np.array_equal(pk.swap_within(labels, np.random.default_rng(seed)),
                              old_swap_within(labels, u))
