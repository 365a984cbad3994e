"""The fast paths of the d = 2 quadrature and of the t-closeness count solvers equal the code
they replaced: the same floats (bit for bit) and the same feasibility decisions."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from scipy import integrate, optimize, stats

import privlab.mechanisms.tcloseness.counts as tc
from privlab.mechanisms.refinement import quadrature as qd
from privlab.mechanisms.refinement.priors import PiecewisePrior


# ---- reference: section_integral as it was (two integrand calls, numpy Brent steps) ---------
def _ref_shrink(norm: str, r: Any, a: Any) -> Any:
    if norm == "l1":
        return r - a
    return np.where(a <= r, np.sqrt(np.maximum(r * r - a * a, 0.0)), -1.0)


def _ref_gauss(f: Any, br: np.ndarray, n: int) -> float:
    u, w = np.polynomial.legendre.leggauss(n)
    a, b = br[:-1][..., None], br[1:][..., None]
    m, h = (a + b) / 2, (b - a) / 2
    x = m + h * np.sin(np.pi * u / 2)
    jac = w * h * (np.pi / 2) * np.cos(np.pi * u / 2)
    return float(np.sum(jac * f(x)))


def _ref_crossings(halves: Any, c1: float, c2: float, lo: float, hi: float,
                   knots2: Any = ()) -> list[float]:
    if not hi > lo:
        return []

    def row_of(h1: np.ndarray, h2: np.ndarray, row: int) -> np.ndarray:
        if row == 0:
            return (c1 - h1) - (c2 - h2)
        if row == 1:
            return (c1 + h1) - (c2 + h2)
        if row == 2:
            return np.minimum(c1 + h1, c2 + h2) - np.maximum(c1 - h1, c2 - h2)
        e, k = knots2[(row - 3) // 4], (row - 3) % 4
        if k == 0:
            return c1 - h1 - e
        if k == 1:
            return c1 + h1 - e
        return c2 - h2 - e if k == 2 else c2 + h2 - e

    def clamped(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h1, h2 = halves(x)
        return np.maximum(h1, 0.0), np.maximum(h2, 0.0)

    xs = np.linspace(lo, hi, 4097)
    h1, h2 = clamped(xs)
    g = np.stack([row_of(h1, h2, row) for row in range(3 + 4 * len(knots2))])
    out: list[float] = []
    on_rows, on_at = np.nonzero((g[:, 1:-1] == 0) & (g[:, :-2] * g[:, 2:] < 0))
    ch_rows, ch_at = np.nonzero(np.isfinite(g[:, :-1]) & np.isfinite(g[:, 1:])
                                & (g[:, :-1] * g[:, 1:] < 0))
    for row in range(g.shape[0]):
        out.extend(float(xs[i + 1]) for i in on_at[on_rows == row])
        for i in ch_at[ch_rows == row]:
            def fn(z: float, row: int = row) -> float:
                return float(row_of(*clamped(np.array([z])), row)[0])
            out.append(float(optimize.brentq(fn, xs[i], xs[i + 1], xtol=1e-15)))
    return out


def _ref_section_integral(norm: str, w: np.ndarray, comps: Any, t: np.ndarray, r: float,
                          s: np.ndarray, q: float, lo: float, hi: float) -> tuple[float, float]:
    c1, c2 = comps

    def half(x1: np.ndarray, c: np.ndarray, rad: float) -> np.ndarray:
        g = _ref_shrink(norm, rad, w[0] * np.abs(x1 - c[0]))
        return np.where(g >= 0, g / w[1], -1.0)

    def integrand(x1: np.ndarray) -> np.ndarray:
        h1, h2 = half(x1, t, r), half(x1, s, q)
        y0 = np.maximum(t[1] - h1, s[1] - h2)
        y1 = np.minimum(t[1] + h1, s[1] + h2)
        ok = (h1 >= 0) & (h2 >= 0) & (y1 > y0)
        mass = np.where(ok, np.asarray(c2.cdf(np.where(ok, y1, 0.0)), dtype=float)
                        - np.asarray(c2.cdf(np.where(ok, y0, 0.0)), dtype=float), 0.0)
        return np.asarray(c1.pdf(x1), dtype=float) * mass

    extra = [t[0], s[0], t[0] - r / w[0], t[0] + r / w[0], s[0] - q / w[0], s[0] + q / w[0],
             *_ref_crossings(lambda x: (half(x, t, r), half(x, s, q)), t[1], s[1], lo, hi,
                             qd.knots(c2))]
    pts = [lo, hi, *extra, *qd.knots(c1)]
    br = np.unique(np.clip(np.asarray([x for x in pts if math.isfinite(x)]), lo, hi))
    i64, i128 = _ref_gauss(integrand, br, 64), _ref_gauss(integrand, br, 128)
    if abs(i64 - i128) <= qd.QUAD_EPS:
        return i128, abs(i64 - i128)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", integrate.IntegrationWarning)
        val, err = integrate.quad(lambda x: float(integrand(np.array([x]))[0]), lo, hi,
                                  limit=400, epsabs=qd.QUAD_EPS, epsrel=1e-12,
                                  points=list(br[1:-1]))
    return float(val), max(float(err), abs(float(val) - i128))


COMPONENTS = [stats.uniform(0, 1), stats.uniform(-1, 2), stats.norm(0, 1), stats.beta(2, 5),
              stats.beta(1.3, 2), PiecewisePrior(edges=(0.0, 0.25, 0.5, 1.0),
                                                 densities=(2.0, 1.0, 0.5))]


@pytest.mark.parametrize("norm", ["l1", "l2"])
def test_section_integral_equals_reference(norm: str) -> None:
    rng = np.random.default_rng(20240 + len(norm))
    for k in range(60):
        c1, c2 = (COMPONENTS[i] for i in rng.integers(0, len(COMPONENTS), 2))
        w = rng.uniform(0.5, 2.0, 2) if k % 3 else np.ones(2)
        t = rng.uniform(-0.5, 1.0, 2)
        s = t if k % 4 == 0 else t + rng.normal(0, 0.3, 2)
        r = float(rng.uniform(0.05, 1.5))
        q = r if k % 4 == 0 else float(rng.uniform(0.05, 1.5))
        lo = max(t[0] - r / w[0], s[0] - q / w[0])
        hi = min(t[0] + r / w[0], s[0] + q / w[0])
        if not hi > lo:
            continue
        args = (norm, w, (c1, c2), t, r, s, q, float(lo), float(hi))
        assert qd._section_integral(*args) == _ref_section_integral(*args)


# ---- counts: the pure-Python max-flow decides as scipy's ------------------------------------
def _decides(fn: Any, lo: np.ndarray, hi: np.ndarray, rows: np.ndarray,
             cols: np.ndarray) -> bool:
    x = fn(lo, hi, rows, cols)
    return x is not None and tc.valid_counts(x, lo, hi, rows, cols)


def test_small_flow_decides_as_scipy_flow_random() -> None:
    rng = np.random.default_rng(3)
    feasible = 0
    for _ in range(3000):
        e, b = int(rng.integers(1, 9)), int(rng.integers(1, 6))
        lo = rng.integers(0, 4, (e, b))
        hi = lo + rng.integers(0, 5, (e, b))
        x0 = rng.integers(lo, hi + 1)
        rows, cols = x0.sum(axis=1), x0.sum(axis=0)
        if rng.random() < 0.6:  # perturb the margins (keeping the totals equal)
            rows[int(rng.integers(0, e))] += int(rng.integers(-2, 3))
            cols[int(rng.integers(0, b))] += int(rng.integers(-2, 3))
            cols[0] += rows.sum() - cols.sum()
        fast = tc._small_flow_counts(lo, hi, rows, cols)
        assert fast is None or tc.valid_counts(fast, lo, hi, rows, cols)
        ref = _decides(tc._flow_counts, lo, hi, rows, cols)
        assert (fast is not None) == ref
        feasible += ref
    assert 0 < feasible < 3000


def test_small_flow_decides_as_scipy_flow_sweep() -> None:
    checked = 0
    for t in (1.2, 1.5, 2, 3, 5):
        tf = tc.as_fraction_t(t)
        for b in range(2, tc.n_buckets(t) + 1):
            for n in range(b * b, 61):
                for m in range(1, n // b + 1):
                    rows, cols = tc.class_sizes(n, b * m), tc.bucket_sizes(n, b)
                    lo, hi = tc.bounds(n, tf, rows, cols)
                    if (hi < lo).any():
                        continue
                    assert (_decides(tc._small_flow_counts, lo, hi, rows, cols)
                            == _decides(tc._flow_counts, lo, hi, rows, cols)), (t, b, n, m)
                    checked += 1
    assert checked > 1000


def test_solve_counts_matrix_unchanged() -> None:
    """The LP's matrix is still the answer when one exists; None exactly when infeasible."""
    cases = [(10, Fraction(3, 2), 1, 3), (40, Fraction(2), 2, 3), (57, Fraction(6, 5), 5, 3),
             (30, Fraction(6, 5), 7, 3)]
    for n, t, m, b in cases:
        tc._solve_counts.cache_clear()
        rows, cols = tc.class_sizes(n, b * m), tc.bucket_sizes(n, b)
        lo, hi = tc.bounds(n, t, rows, cols)
        got = tc.solve_counts(n, t, m, b)
        if (hi < lo).any() or tc._flow_counts(lo, hi, rows, cols) is None:
            assert got is None
            continue
        lp = tc._lp_counts(lo, hi, rows, cols, tc.emphasis(len(rows), b))
        assert got is not None and lp is not None and np.array_equal(got, lp)
