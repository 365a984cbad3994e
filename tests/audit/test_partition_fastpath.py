"""``events.build_partition`` reads the quantiles and atoms off its sorted pilot
(``sorted_quantile``, ``sorted_unique_counts``) instead of partitioning and re-sorting copies
(``np.quantile``, ``np.unique``, the former code, kept here as the oracle): the same edges,
byte for byte."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.audit import events as ev


def _build_partition_reference(pooled: np.ndarray, bins: int) -> np.ndarray:
    """The former ``build_partition`` (its edges)."""
    y = np.sort(np.asarray(pooled, dtype=float).ravel())
    finite = y[np.isfinite(y)]
    nb = max(1, min(int(bins), finite.size // 20))
    parts = []
    if finite.size and nb > 1:
        parts.append(np.quantile(finite, np.linspace(0.0, 1.0, nb + 1)[1:-1]))
    vals, counts = np.unique(finite, return_counts=True)
    heavy = vals[counts >= 2]
    if heavy.size > bins:
        order = np.argsort(-counts[counts >= 2], kind="stable")[:bins]
        heavy = heavy[order]
    if heavy.size:
        parts.extend([heavy, np.nextafter(heavy, -np.inf)])
    if not parts:
        parts.append(np.array([float(np.median(finite))]) if finite.size else np.zeros(1))
    return np.unique(np.concatenate(parts))


def _samples(rng: np.random.Generator) -> list[np.ndarray]:
    n = int(rng.integers(1, 3000))
    return [rng.laplace(size=n), rng.integers(-3, 4, n).astype(float),
            np.round(rng.normal(size=n), 1), rng.exponential(size=n) ** 3,
            np.concatenate([rng.normal(size=n), [np.inf, -np.inf, np.inf]]),
            rng.choice([-1.0, 0.0, 1.0, 1e6], n), np.full(n, 2.5),
            np.concatenate([rng.integers(0, 3, n).astype(float), -np.zeros(7)])]


@pytest.mark.parametrize("seed", range(12))
def test_sorted_quantile_and_unique_equal_numpy(seed: int) -> None:
    """Catches the two-sided lerp replaced by a + γ(b − a) alone (last bits differ above
    γ = ½), the neighbours taken off by one, and counts of runs taken one run late."""
    rng = np.random.default_rng(seed)
    for x in _samples(rng):
        y = np.sort(x[np.isfinite(x)])
        if not ev._one_zero_sign(y):  # the former path's own business (test below)
            continue
        for nb in (2, 3, 17, 200):
            q = np.linspace(0.0, 1.0, nb + 1)[1:-1]
            assert ev.sorted_quantile(y, q).tobytes() == np.quantile(y, q).tobytes()
        q = np.array([0.0, 1e-9, 0.5, 1 - 1e-9, 1.0])
        assert ev.sorted_quantile(y, q).tobytes() == np.quantile(y, q).tobytes()
        got, want = ev.sorted_unique_counts(y), np.unique(y, return_counts=True)
        assert got[0].tobytes() == want[0].tobytes() and np.array_equal(got[1], want[1])


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("bins", [2, 20, 200])
def test_build_partition_equals_reference(seed: int, bins: int) -> None:
    rng = np.random.default_rng(seed)
    for x in [*_samples(rng), np.array([]), np.array([np.inf]), np.array([1.0])]:
        got = ev.build_partition(x, bins).edges
        assert got.tobytes() == _build_partition_reference(x, bins).tobytes()


def test_mixed_signed_zeros_take_the_former_path() -> None:
    """With zeros of both signs the former code's partition decides which zero is kept;
    the fast path is not used there (catches a guard that ignores the sign of zero)."""
    y = np.sort(np.array([0.0, -0.0, 0.0, 1.0, -0.0, 2.0]))
    assert not ev._one_zero_sign(y)
    assert ev._one_zero_sign(np.sort(np.array([0.0, 0.0, 1.0])))
    assert ev._one_zero_sign(np.sort(np.array([-0.0, -0.0, 1.0])))
    assert ev._one_zero_sign(np.array([-1.0, 1.0]))
    rng = np.random.default_rng(3)
    for _ in range(20):
        x = rng.choice([0.0, -0.0, 1.0, -1.0], 500)
        got = ev.build_partition(x, 200).edges
        assert got.tobytes() == _build_partition_reference(x, 200).tobytes()
