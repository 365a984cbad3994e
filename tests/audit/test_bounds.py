"""Clopper–Pearson bounds: against an independent mpmath computation, exact coverage, simulation.

The reference values are computed here from the binomial law itself (mpmath, 40 digits): the
lower bound L(k) is the p solving P_p(K ≥ k) = α and the upper bound U(k) the p solving
P_p(K ≤ k) = α, found by bisection on the binomial tail written as a finite sum of pmf terms
(the shorter side of the sum).  No beta function and no scipy are involved.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from scipy import stats

from privlab.audit.bounds import cp_interval, cp_lower, cp_upper
from privlab.errors import InvalidParameter


@pytest.fixture(autouse=True)
def _forty_digits():
    """The reference computations at 40 digits, restored afterwards (a module-level
    ``mpmath.mp.dps = 40`` leaked into every later test of the same worker process)."""
    with mpmath.workdps(40):
        yield


def _le(k: int, n: int, p: mpmath.mpf) -> mpmath.mpf:
    """P_p(K ≤ k) as a finite sum of pmf terms, t_{i+1} = t_i · (n − i)/(i + 1) · p/(1 − p)."""
    if p >= 1:
        return mpmath.mpf(1 if k >= n else 0)
    t = (1 - p) ** n
    total = t
    q = p / (1 - p)
    for i in range(k):
        t = t * (n - i) / (i + 1) * q
        total += t
    return total


def _tail_ge(k: int, n: int, p: mpmath.mpf) -> mpmath.mpf:
    """P_p(K ≥ k) for K ~ Bin(n, p), summing over whichever side has fewer terms."""
    if k == 0:
        return mpmath.mpf(1)
    if n - k < k:  # P_p(K ≥ k) = P_{1−p}(n − K ≤ n − k)
        return _le(n - k, n, 1 - p)
    return 1 - _le(k - 1, n, p)


def _bisect(f, target: mpmath.mpf, increasing: bool) -> float:
    lo, hi = mpmath.mpf(0), mpmath.mpf(1)
    for _ in range(90):
        mid = (lo + hi) / 2
        if (f(mid) < target) == increasing:
            lo = mid
        else:
            hi = mid
    return float((lo + hi) / 2)


def ref_lower(k: int, n: int, alpha: float) -> float:
    if k == 0:
        return 0.0
    return _bisect(lambda p: _tail_ge(k, n, p), mpmath.mpf(alpha), increasing=True)


def ref_upper(k: int, n: int, alpha: float) -> float:
    if k == n:
        return 1.0
    # P_p(K ≤ k) = 1 − P_p(K ≥ k + 1) is decreasing in p
    return _bisect(lambda p: 1 - _tail_ge(k + 1, n, p), mpmath.mpf(alpha), increasing=False)


CASES = [(k, n) for n in (1, 7, 50, 200) for k in sorted({0, 1, n // 3, n - 1, n})]
CASES += [(0, 10**6), (3, 10**6), (1000, 10**6), (10**6 - 1, 10**6)]


@pytest.mark.parametrize("alpha", [0.025, 0.2])
@pytest.mark.parametrize("k,n", CASES)
def test_against_independent_bisection(k, n, alpha):
    lo, hi = float(cp_lower(k, n, alpha)), float(cp_upper(k, n, alpha))
    rl, ru = ref_lower(k, n, alpha), ref_upper(k, n, alpha)
    assert lo == pytest.approx(rl, rel=1e-9, abs=1e-300), (lo, rl)
    assert hi == pytest.approx(ru, rel=1e-9, abs=1e-300), (hi, ru)


@pytest.mark.parametrize("n", [1, 3, 1000, 10**7])
def test_closed_forms_at_the_ends(n):
    a = 0.05
    # upper(0) = 1 − α^{1/n}; lower(n) = α^{1/n} (solve (1 − p)^n = α and p^n = α)
    assert float(cp_upper(0, n, a)) == pytest.approx(-math.expm1(math.log(a) / n), rel=1e-10)
    assert float(cp_lower(n, n, a)) == pytest.approx(math.exp(math.log(a) / n), rel=1e-12)
    assert float(cp_lower(0, n, a)) == 0.0 and float(cp_upper(n, n, a)) == 1.0


@pytest.mark.parametrize("n", [1, 10, 73, 400])
def test_exact_coverage_over_a_grid_of_p(n):
    """Non-coverage P_p(L(K) > p) and P_p(U(K) < p), summed exactly over k, never exceeds α."""
    alpha = 0.05
    k = np.arange(n + 1)
    lo, hi = cp_lower(k, n, alpha), cp_upper(k, n, alpha)
    for p in np.linspace(0.0005, 0.9995, 397):
        pmf = stats.binom.pmf(k, n, p)
        assert pmf[lo > p].sum() <= alpha + 1e-12
        assert pmf[hi < p].sum() <= alpha + 1e-12


@pytest.mark.parametrize("n,p", [(20, 0.1), (200, 0.5), (1000, 0.003), (100_000, 1e-4)])
def test_coverage_by_simulation(n, p):
    """Failure rate of each one-sided bound over 20 000 binomial draws is not above α
    (one-sided binomial test at level 10⁻³; a bound that is too narrow fails it)."""
    alpha, trials = 0.05, 20_000
    kk = np.random.default_rng(n).binomial(n, p, trials)
    for fails in ((cp_lower(kk, n, alpha) > p).sum(), (cp_upper(kk, n, alpha) < p).sum()):
        assert stats.binomtest(int(fails), trials, alpha, alternative="greater").pvalue > 1e-3


def test_bounds_bracket_the_frequency_and_vectorize():
    k = np.array([[0, 5, 10], [1, 2, 3]])
    n = np.array([[10, 10, 10], [4, 4, 4]])
    lo, hi = cp_interval(k, n, 0.9)
    assert lo.shape == hi.shape == (2, 3)
    assert np.all(lo <= k / n) and np.all(k / n <= hi)
    # two-sided at 0.9 = one-sided at 0.95 on each side
    half = (1.0 - 0.9) / 2.0
    assert np.array_equal(lo, cp_lower(k, n, half)) and np.array_equal(hi, cp_upper(k, n, half))
    # element-wise equal to the scalar calls
    assert float(lo[0, 1]) == float(cp_lower(5, 10, half))


@pytest.mark.parametrize(
    "call,needle",
    [
        (lambda: cp_lower(3, 10, 0.0), "alpha=0.0 must lie in"),
        (lambda: cp_upper(3, 10, 1.5), "alpha=1.5 must lie in"),
        (lambda: cp_lower(11, 10, 0.05), "k=11 must lie in"),
        (lambda: cp_upper(-1, 10, 0.05), "k=-1 must lie in"),
        (lambda: cp_lower(0, 0, 0.05), "n=0 must be"),
        (lambda: cp_interval(1, 10, 1.0), "confidence=1.0 must lie in"),
        (lambda: cp_lower("x", 10, 0.05), "k='x'"),
    ],
)
def test_bad_input(call, needle):
    with pytest.raises(InvalidParameter, match=needle):
        call()
