"""The window engine of the exact two-sample tests (privlab.audit.binomgrid.window_pmf and its
users kb_bins and RatioTest): against exact binomial probabilities (mpmath, 50 digits), and
against the former incomplete-beta formulas kept here as oracles (those lose up to ~1e-8
relative to cancellation, so they agree to 1e-8, not to the last bit)."""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest
from scipy import special, stats

from privlab.audit import binomgrid, ratiobound
from privlab.audit.bounds import cp_lower, cp_upper


def _exact(n: int, p: float, t: int) -> mp.mpf:
    with mp.workdps(50):
        q = mp.mpf(p)
        return mp.binomial(n, t) * q**t * (1 - q) ** (n - t)


@pytest.mark.parametrize(("n", "p", "start", "length"), [
    (70000, 0.1873, 12500, 2000), (70000, 0.0079, 300, 400), (10**6, 0.18, 178000, 4001),
    (1000, 0.5, 0, 1001), (50, 0.999, 20, 31), (50, 1e-4, 0, 10), (10, 0.3, 4, 1),
])
def test_window_pmf_is_exact(n: int, p: float, start: int, length: int) -> None:
    pmf, below, above = binomgrid.window_pmf(n, np.array([p]), np.array([start]), length)
    for u in sorted({0, 1, length // 3, length // 2, length - 2, length - 1} & set(range(length))):
        ex = _exact(n, p, start + u)
        if ex > 1e-280:
            assert abs(pmf[0, u] - float(ex)) <= 1e-11 * float(ex), (u, pmf[0, u], ex)
    assert below[0] == (special.bdtr(start - 1, n, p) if start > 0 else 0.0)
    last = start + length - 1
    assert above[0] == (special.bdtrc(last, n, p) if last < n else 0.0)
    assert abs(pmf.sum() + below[0] + above[0] - 1.0) < 1e-14


def test_window_pmf_point_masses_and_rows_are_independent() -> None:
    p = np.array([0.0, 1.0, 0.3, 0.3])
    pmf, below, above = binomgrid.window_pmf(20, p, np.array([0, 15, 2, 0]), 6)
    assert pmf[0].tolist() == [1, 0, 0, 0, 0, 0] and pmf[1].tolist() == [0] * 5 + [1]
    assert below[:2].tolist() == [0, 0] and above[:2].tolist() == [0, 0]
    one, _, _ = binomgrid.window_pmf(20, p[2:3], np.array([2]), 6)
    assert np.array_equal(one[0], pmf[2])  # a row does not depend on the rows beside it


def test_window_pmf_chunks_give_the_same_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    p = np.linspace(0.1, 0.2, 9)
    start = np.arange(9, dtype=np.int64) * 3 + 50
    whole = binomgrid.window_pmf(1000, p, start, 200)
    monkeypatch.setattr(binomgrid, "CHUNK", 400)  # two rows per chunk
    assert all(np.array_equal(a, b) for a, b in zip(whole, binomgrid.window_pmf(
        1000, p, start, 200), strict=True))


def _kb_bins_cdf(p_b: np.ndarray, n_b: int, kbins: int, tail: float = 1e-12) -> tuple:
    """The former kb_bins: bin masses as differences of incomplete-beta CDF values."""
    lo = int(stats.binom.ppf(tail, n_b, float(p_b.min())))
    hi = int(stats.binom.isf(tail, n_b, float(p_b.max())))
    lo, hi = max(lo - 1, 0), min(hi + 1, n_b)
    sd = math.sqrt(n_b * float(p_b.max()) * (1 - float(p_b.min())))
    w = max(1, int(sd / kbins))
    k = np.arange(lo, hi + 1, w)
    ends = np.append(k, hi + 1)
    cdf = np.where(ends[None, :] > 0,
                   special.bdtr(np.maximum(ends - 1.0, 0.0)[None, :], n_b, p_b[:, None]), 0.0)
    outside = (np.where(lo > 0, special.bdtr(max(lo - 1.0, 0.0), n_b, p_b), 0.0)
               + special.bdtrc(float(hi), n_b, p_b))
    return k.astype(float), cdf[:, 1:] - cdf[:, :-1], outside


CASES = [(13109, 70000, 0.05), (553, 70000, 0.05), (180000, 10**6, 0.05 / 40), (30, 10**5, 1e-3),
         (0, 1000, 0.05), (1000, 1000, 0.05), (3, 10, 0.05)]


@pytest.mark.parametrize(("k_b", "n_b", "alpha"), CASES)
def test_kb_bins_matches_the_cdf_differences(k_b: int, n_b: int, alpha: float) -> None:
    g = alpha / 20
    p_b = np.linspace(float(cp_lower(k_b, n_b, g / 2)), float(cp_upper(k_b, n_b, g / 2)),
                      97)[:-1]
    k, weight, outside = binomgrid.kb_bins(p_b, n_b, 30)
    k0, weight0, outside0 = _kb_bins_cdf(p_b, n_b, 30)
    assert np.array_equal(k, k0) and np.array_equal(outside, outside0)
    assert np.abs(weight - weight0).max() < 1e-8
    assert np.abs(weight.sum(axis=1) + outside - 1.0).max() < 1e-14
    # one bin against exact arithmetic
    i, j = 40, len(k) // 2
    ex = sum(_exact(n_b, float(p_b[i]), t) for t in range(int(k[j]), int(k[j + 1])))
    assert abs(weight[i, j] - float(ex)) <= 1e-11 * float(ex)


def _body_bdtrc(test: ratiobound.RatioTest, c: float) -> np.ndarray:
    """The former p-value body: one incomplete-beta tail per live entry."""
    p_a = np.minimum(1.0, c * test.g_hi + test.delta)
    sf = np.where(test.need <= 0, 1.0, np.where(
        test.need > test.n_a, 0.0,
        special.bdtrc(np.clip(test.need - 1.0, 0.0, test.n_a), test.n_a, p_a[test.rows])))
    return np.bincount(test.rows, weights=test.weight * sf, minlength=ratiobound.GRID)


RATIO_CASES = [(35651, 70000, 13109, 70000, 0.05, 0.0), (1365, 70000, 553, 70000, 0.05, 0.0),
               (500000, 10**6, 180000, 10**6, 0.05 / 40, 0.0), (30, 10**5, 3, 10**5, 1e-3, 0.0),
               (50, 1000, 0, 1000, 0.05, 0.0), (900, 1000, 100, 1000, 0.05, 0.01),
               (70000, 70000, 69990, 70000, 0.05, 0.0)]


@pytest.mark.parametrize(("k_a", "n_a", "k_b", "n_b", "alpha", "delta"), RATIO_CASES)
def test_ratio_test_matches_the_incomplete_beta_body(k_a: int, n_a: int, k_b: int, n_b: int,
                                                     alpha: float, delta: float) -> None:
    test = ratiobound.RatioTest(k_a, n_a, k_b, n_b, delta, alpha / 20)
    eps = ratiobound.ratio_lower(k_a, n_a, k_b, n_b, alpha, delta)
    for e in (0.0, 0.5 * eps, eps, 1.02 * eps + 0.01):
        c = math.exp(e)
        new, ref = test._body(c), _body_bdtrc(test, c)
        assert np.abs(new - ref).max() < 1e-8, e
        # a cell evaluated alone is the same float as in the full evaluation
        for r in (0, 17, ratiobound.GRID - 1):
            sl = slice(test._start[r], test._start[r + 1])
            assert test._body(c, sl)[r] == new[r]


def test_ratio_lower_decisions_match_the_incomplete_beta_test() -> None:
    """The bound found with the window engine equals the one the former test gives, to the
    rounding both differ by (the search tests the same points up to ~1e-10)."""
    rng = np.random.default_rng(7)
    for _ in range(12):
        n = int(rng.choice([1000, 70000, 300000]))
        pb = rng.uniform(5e-4, 0.6)
        pa = min(0.999, pb * math.exp(rng.uniform(0.0, 2.0)))
        k_a, k_b = int(rng.binomial(n, pa)), int(rng.binomial(n, pb))
        alpha = float(rng.choice([0.05, 1e-3, 1e-5]))
        test = ratiobound.RatioTest(k_a, n, k_b, n, 0.0, alpha / 20)
        eps = ratiobound.ratio_lower(k_a, n, k_b, n, alpha)
        if eps <= 0:
            continue
        # eps rejected by both bodies; eps·(1 + 4·TOL) + 1e-6 by neither
        for e, rejected in ((eps, True), (eps * (1 + 4 * ratiobound.TOL) + 1e-6, False)):
            c = math.exp(e)
            full = test.gamma + float(np.minimum(1.0, _body_bdtrc(test, c) + test.outside).max())
            assert (full <= alpha) is rejected, (k_a, k_b, n, alpha, e)


def test_a_narrow_window_still_bounds_the_p_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside its window a cell's tail is bounded (by 1 below, by the mass above the window
    above): with a window of ±1.5 sd the body is looser but never below the exact one."""
    monkeypatch.setattr(ratiobound, "WINDOW_SD", 1.5)
    monkeypatch.setattr(ratiobound, "WINDOW_PAD", 0.0)
    looser = 0
    for k_a, n_a, k_b, n_b, alpha, delta in RATIO_CASES[:4]:
        test = ratiobound.RatioTest(k_a, n_a, k_b, n_b, delta, alpha / 20)
        for e in (0.3, 0.9, 1.2):
            new, ref = test._body(math.exp(e)), _body_bdtrc(test, math.exp(e))
            assert (new >= ref - 1e-9).all()  # the oracle itself is good to ~1e-10
            looser += int((new > ref + 1e-6).sum())
    assert looser > 0
