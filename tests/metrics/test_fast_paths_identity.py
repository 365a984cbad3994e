"""The shortcuts added for speed in issue 19 give what the code they replaced gave.

* ``swap_within``: the permutation of the former ``np.lexsort`` formulation, also when the
  uniform draws tie (the stable fallback);
* ``_distinct_keys``: ``np.unique(rows, axis=0)`` (the former ``distinct``), on both the
  counting path (small key space) and the ``np.unique`` path;
* ``correlation_differences``: the remembered correlation matrix of the original is reused only
  for identical bytes, and a caller changing the returned values does not change it.
"""

from __future__ import annotations

import numpy as np
import pytest

from privlab.mechanisms.microaggregation.categorical import distinct
from privlab.mechanisms.microaggregation.prob_kanon import swap_within
from privlab.metrics import categorical as cat
from privlab.metrics import utility as ut


def _swap_reference(labels: np.ndarray, u: np.ndarray) -> np.ndarray:
    n = labels.shape[0]
    grouped = np.lexsort(np.stack([np.arange(n), labels]))
    shuffled = np.lexsort(np.stack([u, labels.astype(float)]))
    p = np.empty(n, dtype=np.int64)
    p[grouped] = shuffled
    return p


class _Draws:
    """A generator stand-in whose ``random(n)`` returns given values (to force ties)."""

    def __init__(self, u: np.ndarray) -> None:
        self.u = u

    def random(self, n: int) -> np.ndarray:
        assert n == self.u.size
        return self.u.copy()


@pytest.mark.parametrize("seed", range(12))
def test_swap_within_equals_the_lexsort_formulation(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 400))
    labels = rng.integers(0, int(rng.integers(1, 40)), n)
    if seed % 3 == 1:
        labels = labels * 70_000  # labels beyond the uint16 radix path
    u = rng.random(n)
    if seed % 2:
        u = np.round(u, 1)  # many tied draws: the stable fallback
    assert np.array_equal(swap_within(labels, _Draws(u)), _swap_reference(labels, u))


@pytest.mark.parametrize(("sizes", "n"), [((3, 4, 2), 500), ((200, 300, 400), 50)])
def test_distinct_keys_equals_unique_rows(sizes: tuple[int, ...], n: int) -> None:
    rng = np.random.default_rng(len(sizes) + n)
    sz = np.asarray(sizes, dtype=np.int64)
    x = np.stack([rng.integers(0, s, n) for s in sizes], axis=1)
    x[n // 2:] = x[: n - n // 2]  # repeated rows
    stride = np.cumprod(np.r_[1, sz[::-1][:-1]])[::-1]
    got = cat._distinct_keys(x @ stride, stride, sz)
    for g, w in zip(got, distinct(x), strict=True):
        assert np.array_equal(g, w)


def test_original_correlation_reused_only_for_the_same_bytes() -> None:
    rng = np.random.default_rng(5)
    a = rng.normal(size=(300, 4))
    b = a + rng.normal(scale=0.3, size=a.shape)
    first = ut.correlation_differences(a, b, [0])
    a2 = a.copy()
    a2[0, 0] += 1.0  # same shape, other bytes: the remembered matrix of a must not be used
    second = ut.correlation_differences(a2, b, [0])
    cb, c2 = ut._corr(b), ut._corr(a2)
    assert np.array_equal(second["values"],
                          [abs(cb[i, j] - c2[i, j]) for i, j in second["pairs"]])
    assert not np.array_equal(first["values"], second["values"])
    got = ut._corr_original(a2)
    got[:] = 99.0  # the caller's copy only
    assert np.array_equal(ut._corr_original(a2), c2)
