"""The in-place rewrites of the exact ratio test's hot loops give the same floats as the code
they replaced (kept here as oracles): ``binomgrid._shape`` (sliding-window rows, in-place
exp/scale instead of a gather and temporaries) and ``RatioTest._body`` (tail sums kept in their
reversed accumulation order instead of flipped back)."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.audit import binomgrid, ratiobound


def _shape_reference(n: int, q: np.ndarray, s0: np.ndarray, length: int,
                     mass: np.ndarray) -> np.ndarray:
    """The former ``binomgrid._shape``."""
    lo = int(s0.min())
    steps = np.arange(lo, int(s0.max()) + length - 1, dtype=float)
    log_ratio = np.log((n - steps) / (steps + 1.0))
    idx = (s0 - lo)[:, None] + np.arange(length - 1)[None, :]
    shape = np.zeros((q.size, length))
    np.cumsum(log_ratio[idx] + (np.log(q) - np.log1p(-q))[:, None], axis=1, out=shape[:, 1:])
    shape = np.exp(shape - shape.max(axis=1, keepdims=True))
    return shape * (mass / shape.sum(axis=1))[:, None]


def _body_reference(test: ratiobound.RatioTest, c: float, sl: slice = slice(None)) -> np.ndarray:
    """The former ``RatioTest._body``."""
    p_a, start, length = test._window(c)
    rows, need = test.rows[sl], test.need[sl]
    full = rows.size == test.rows.size
    cells = np.arange(ratiobound.GRID) if full else np.unique(rows)
    pmf, _, above = binomgrid.window_pmf(test.n_a, p_a[cells], start[cells], length)
    tails = np.cumsum(pmf[:, ::-1], axis=1)[:, ::-1] + above[:, None]
    local = rows if full else np.searchsorted(cells, rows)
    u = need.astype(np.int64) - start[rows]
    sf = np.where(need <= 0, 1.0, np.where(need > test.n_a, 0.0, np.where(
        u < 0, 1.0, np.where(u >= length, above[local],
                             tails[local, np.clip(u, 0, length - 1)]))))
    return np.bincount(rows, weights=test.weight[sl] * sf, minlength=ratiobound.GRID)


@pytest.mark.parametrize("n", [1, 2, 40, 5000, 70_000])
@pytest.mark.parametrize("length", [1, 2, 7, 300])
def test_shape_equals_reference(n: int, length: int) -> None:
    """Catches a row slice off by one (``s0 - lo ± 1``), the log-odds added to the wrong rows
    (``[None, :]``), the max or the mass taken over the wrong axis, and a skipped first entry."""
    if length > n + 1:
        pytest.skip("window longer than the support")
    rng = np.random.default_rng(n * 1000 + length)
    for rows in (1, 3, 96):
        q = rng.uniform(0.01, 0.99, rows)
        s0 = rng.integers(0, n + 2 - length, rows)
        mass = rng.uniform(0.5, 1.0, rows)
        got = binomgrid._shape(n, q, s0, length, mass)
        want = _shape_reference(n, q, s0, length, mass)
        assert got.shape == want.shape and got.tobytes() == want.tobytes()


@pytest.mark.parametrize(("k_a", "n_a", "k_b", "n_b"), [
    (700, 70_000, 300, 70_000), (60, 70_000, 0, 70_000), (5, 1000, 1, 1000),
    (40_000, 70_000, 20_000, 70_000), (1000, 1000, 900, 1000), (300, 7000, 299, 7000)])
def test_body_equals_reference(k_a: int, n_a: int, k_b: int, n_b: int) -> None:
    """Every cell and every one-cell slice (the early-stop path of ``pvalue``), at several c.
    Catches the reversed tail index off by one (``length − u``), the ``above`` mass added to the
    wrong rows, and the tails read unreversed."""
    test = ratiobound.RatioTest(k_a, n_a, k_b, n_b, 0.0, 0.0025)
    for c in (1.0, 1.3, 2.0, 7.5, 50.0):
        assert test._body(c).tobytes() == _body_reference(test, c).tobytes()
        for r in (0, 17, ratiobound.GRID - 1):
            sl = slice(test._start[r], test._start[r + 1])
            assert test._body(c, sl).tobytes() == _body_reference(test, c, sl).tobytes()
