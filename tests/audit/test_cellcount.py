"""``cellcount.cell_counts`` (grid-table start + vectorised advance) counts exactly what
``np.bincount(np.searchsorted(edges, x, "left"))`` — the former code of the auditor's
histograms, kept here as the oracle — counts, on the grid path and on every fallback."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.audit import cellcount as cc
from privlab.audit.events import build_partition


def _reference(edges: np.ndarray, x: np.ndarray) -> np.ndarray:
    return np.bincount(np.searchsorted(edges, x, side="left"),
                       minlength=edges.size + 1).astype(np.int64)


def _same(edges: np.ndarray, x: np.ndarray) -> None:
    got, want = cc.cell_counts(edges, x), _reference(edges, x)
    assert got.dtype == want.dtype and np.array_equal(got, want)


def _cases(rng: np.random.Generator) -> list[tuple[np.ndarray, np.ndarray]]:
    n = int(rng.integers(cc.MIN_VALUES, 3 * cc.MIN_VALUES))
    out = []
    for x in (rng.laplace(size=n), rng.normal(3.0, 1e-3, n), rng.exponential(size=n) ** 2,
              np.round(rng.normal(size=n) * 50) / 7, rng.integers(-40, 40, n).astype(float),
              np.concatenate([rng.normal(size=n), rng.normal(1e3, 1, 40)])):
        pilot = x[rng.permutation(x.size)[:2000]]
        edges = build_partition(pilot, 200).edges
        y = x.copy()
        k = int(rng.integers(1, 50))  # values exactly on edges and one ulp either side
        pick = edges[rng.integers(0, edges.size, k)]
        y[:k] = pick
        y[k:2 * k] = np.nextafter(pick, np.inf)
        y[2 * k:3 * k] = np.nextafter(pick, -np.inf)
        y[3 * k] = edges[0] - 1e9
        y[3 * k + 1] = edges[-1] + 1e9
        out.append((edges, y))
    return out


@pytest.mark.parametrize("seed", range(10))
def test_grid_path_equals_searchsorted(seed: int) -> None:
    """Catches the advance counting ``<=`` (values on an edge go one cell up), a start past the
    value (``t[k + 1]`` or no margin), and a missing advance pass."""
    rng = np.random.default_rng(seed)
    used = 0
    for edges, x in _cases(rng):
        used += cc._grid(edges.tobytes()) is not None
        _same(edges, x)
    assert used >= 3  # the grid path itself is exercised, not only the fallback


def test_fallbacks_equal_searchsorted() -> None:
    rng = np.random.default_rng(7)
    edges = np.sort(rng.normal(size=100))
    n = 2 * cc.MIN_VALUES
    for x in (rng.normal(size=n), ):
        for bad in (np.nan, np.inf, -np.inf):
            y = x.copy()
            y[5] = bad
            _same(edges, y)  # NaN / ±∞: binary search
    _same(edges, rng.normal(size=100))  # small batch
    _same(edges[:8], rng.normal(size=n))  # few edges
    _same(edges, rng.normal(size=n).astype(np.float32))  # other dtype
    _same(edges, rng.integers(-3, 3, n))  # integer values
    tiny = 1e12 + np.arange(100) * 1e-3  # range narrow for its magnitude
    assert cc._grid(tiny.tobytes()) is None
    _same(tiny, 1e12 + rng.random(n) * 0.1)
    crowded = np.concatenate([np.linspace(0, 1e-6, 50), [1.0, 2.0]])
    assert cc._grid(crowded.tobytes()) is None
    _same(crowded, rng.random(n) * 1e-6)


def test_signed_zeros_and_duplicate_edges() -> None:
    rng = np.random.default_rng(3)
    edges = np.sort(np.concatenate([rng.normal(size=60), [0.0, 0.0, 1.0, 1.0]]))
    x = rng.choice([0.0, -0.0, 1.0, -1.0, 0.5], 2 * cc.MIN_VALUES)
    _same(edges, x)
    _same(edges, np.concatenate([x, rng.normal(size=100)]))


def test_tables_are_read_only() -> None:
    edges = np.linspace(-3.0, 3.0, 100)
    grid = cc._grid(edges.tobytes())
    assert grid is not None
    with pytest.raises(ValueError):
        grid[3][0] = 1
    with pytest.raises(ValueError):
        grid[4][0] = 1.0


@pytest.mark.parametrize("m", [1, 2, 5, 6, 17, cc.MIN_EDGES - 1])
def test_compare_path_equals_searchsorted(m: int) -> None:
    """Few edges: counted by comparisons.  Catches ``<`` for ``<=`` (values on an edge one cell
    up), the last cell not closed at n, and NaN / ±∞ / −0.0 placed differently."""
    rng = np.random.default_rng(m)
    atoms = np.arange(m // 2 + 1, dtype=float) - m // 4
    edges = np.unique(np.concatenate([atoms, np.nextafter(atoms, -np.inf)]))[:m]
    n = cc.MIN_COMPARE_VALUES + int(rng.integers(0, 5000))
    for x in (rng.choice(atoms, n), rng.normal(size=n) * m, rng.choice(edges, n)):
        y = x.copy()
        y[:6] = [np.nan, np.inf, -np.inf, -0.0, 0.0, np.nextafter(edges[0], np.inf)]
        _same(edges, x)
        _same(edges, y)
    dup = np.sort(np.concatenate([edges, edges[: m // 2]]))  # repeated edges: empty cells
    _same(dup, rng.choice(edges, n))


def test_compare_path_falls_back_on_unsorted_or_nan_edges() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(size=cc.MIN_COMPARE_VALUES)
    _same(np.array([0.5, -0.5, 1.0]), x)  # unsorted: whatever searchsorted does
    _same(np.array([-1.0, np.nan, 1.0]), x)
    _same(np.array([], dtype=float), x)
