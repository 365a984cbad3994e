"""L1-ball shell noise (extension of thesis §4.5) and the independent-Laplace baseline.

References independent of the code under test: mpmath.nsum of the shell definition (volumes of
L1 balls multiplied out), the direct integral ∫_{‖x‖₁≤a} x₁² dx = a⁴/3 (d = 2, unit weights),
the univariate staircase for d = 1, scipy's gamma / laplace laws for the baseline, and fixed-seed
goodness-of-fit tests for the samplers.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from scipy import stats

from privlab.errors import InvalidParameter
from privlab.mechanisms.noise.l1_staircase import HalfStepL1Staircase, L1BallStaircase
from privlab.mechanisms.noise.multi_laplace import IndependentLaplace
from privlab.mechanisms.noise.staircase import Staircase


def test_bad_parameters():
    with pytest.raises(InvalidParameter, match=r"core=1\.5 must lie in \[0, 1\]"):
        L1BallStaircase(epsilon=1.0, sensitivity=(1.0, 1.0), core=1.5)
    with pytest.raises(InvalidParameter, match=r"sensitivity\[0\]=0\.0 must be > 0"):
        L1BallStaircase(epsilon=1.0, sensitivity=(0.0, 1.0), core=0.5)
    with pytest.raises(InvalidParameter, match=r"epsilon=-1\.0 must be > 0"):
        L1BallStaircase(epsilon=-1.0, sensitivity=(1.0, 1.0), core=0.5)
    with pytest.raises(InvalidParameter, match="last axis of length 2"):
        L1BallStaircase(epsilon=1.0, sensitivity=(1.0, 1.0), core=0.5).pdf([1.0])
    with pytest.raises(InvalidParameter, match=r"dim=0 must be a positive integer"):
        IndependentLaplace(epsilon=1.0, l1_sensitivity=1.0, dim=0)
    with pytest.raises(InvalidParameter, match="objective='weighted' is not defined"):
        L1BallStaircase.optimal(1.0, (1.0, 1.0), "weighted")


@pytest.mark.parametrize("d,eps,rho,s", [(2, 1.0, 0.4, (1.0, 1.0)), (3, 0.5, 0.0, (1.0, 2.0, 3.0)),
                                         (3, 2.0, 1.0, (0.5, 0.5, 0.5))])
def test_normaliser_matches_shell_definition(d, eps, rho, s):
    m = L1BallStaircase(epsilon=eps, sensitivity=s, core=rho)
    with mpmath.workdps(30):
        kappa = 2**d * mpmath.fprod(s) / mpmath.factorial(d)
        r = mpmath.exp(-eps)

        def V(i):
            return kappa * (rho + i) ** d if i >= 0 else 0

        ref = 1 / mpmath.nsum(lambda i: r**i * (V(int(i)) - V(int(i) - 1)), [0, mpmath.inf])
    assert m.normaliser == pytest.approx(float(ref), rel=1e-12)
    assert m.shell_mass(np.arange(400)).sum() == pytest.approx(1.0, abs=1e-12)


def test_variance_matches_direct_integral_d2():
    m = L1BallStaircase(epsilon=0.8, sensitivity=(1.0, 1.0), core=0.3)
    with mpmath.workdps(30):
        r = mpmath.exp(-mpmath.mpf(0.8))
        M = mpmath.mpf(m.normaliser)
        # E Y_1² = M Σ_i r^i (W(i) − W(i−1)), W(i) = ∫_{‖x‖₁ ≤ 0.3+i} x_1² = (0.3+i)⁴/3
        W = lambda i: (mpmath.mpf(0.3) + i) ** 4 / 3 if i >= 0 else 0  # noqa: E731
        ref = M * mpmath.nsum(lambda i: r**i * (W(int(i)) - W(int(i) - 1)), [0, mpmath.inf])
    assert m.marginal_variance(0) == pytest.approx(float(ref), rel=1e-10)
    assert float(m.marginal_variance(1, exact=True)) == pytest.approx(float(ref), rel=1e-10)


def test_one_dimension_is_the_univariate_staircase():
    m = L1BallStaircase(epsilon=1.3, sensitivity=(2.0,), core=0.35)
    st1 = Staircase(epsilon=1.3, sensitivity=2.0, d=0.7)
    x = np.linspace(-20, 20, 801)
    np.testing.assert_allclose(m.pdf(x[:, None]), st1.pdf(x), rtol=1e-12)
    assert m.marginal_variance(0) == pytest.approx(st1.variance(), rel=1e-12)


@pytest.mark.parametrize("d", [2, 3])
def test_dp_and_broken_control(d):
    m = L1BallStaircase(epsilon=1.0, sensitivity=tuple(float(j) for j in range(1, d + 1)),
                        core=0.5)
    bad = HalfStepL1Staircase(epsilon=1.0, sensitivity=m.sensitivity, core=0.5)
    gen = np.random.default_rng(d)
    x = gen.uniform(-6, 6, (20000, d))
    e = gen.exponential(size=(20000, d))
    delta = e / e.sum(1, keepdims=True) * np.asarray(m.sensitivity) \
        * np.where(gen.random((20000, d)) < .5, -1, 1)  # on the boundary of S_f
    assert (m.logpdf(x) - m.logpdf(x + delta)).max() <= 1.0 + 1e-12
    assert (bad.logpdf(x) - bad.logpdf(x + delta)).max() == pytest.approx(2.0)


@pytest.mark.parametrize("d", [2, 3])
def test_sampler_matches_shells_norm_and_moments(d):
    m = L1BallStaircase(epsilon=0.7, sensitivity=tuple(float(j) for j in range(1, d + 1)),
                        core=0.6)
    n = 60000
    x = m.sample(n, rng=77)
    assert x.shape == (n, d) and m.sample((2, 3), rng=1).shape == (2, 3, d)
    i = m.shell_index(x)
    K = 30
    exp = m.shell_mass(np.arange(K)) * n
    obs = np.bincount(np.minimum(i, K), minlength=K + 1)
    assert stats.chisquare(obs, np.append(exp, n - exp.sum())).pvalue > 1e-3
    norms = m.norm(x)
    p = stats.kstest(norms[:3000], np.vectorize(m.prob_norm_ball)).pvalue  # mpmath per point
    assert p > 1e-3
    for j in range(d):  # second moments against the closed form (z-score with 4th moments)
        v = m.marginal_variance(j)
        se = np.std(x[:, j] ** 2) / math.sqrt(n)
        assert abs(np.mean(x[:, j] ** 2) - v) < 4.5 * se
    # directions: given the norm, |x_1|/s_1 / ‖x‖ is Beta(1, d−1) (Dirichlet marginal)
    frac = np.abs(x[:, 0]) / m.sensitivity[0] / norms
    assert stats.kstest(frac, stats.beta(1, d - 1).cdf).pvalue > 1e-3


def test_confidence_region_and_laplace_comparison():
    m = L1BallStaircase(epsilon=1.0, sensitivity=(1.0, 1.0), core=0.65)
    reg = m.confidence_region(0.95)
    assert m.prob_norm_ball(reg.radius) == pytest.approx(0.95, abs=1e-12)
    assert reg.volume == pytest.approx(2 * reg.radius**2, rel=1e-12)  # area of the L1 ball
    lap = IndependentLaplace.for_l1_ball(1.0, (1.0, 1.0))
    lreg = lap.confidence_region(0.95)
    assert lreg.radius == pytest.approx(stats.gamma(2, scale=1.0).ppf(0.95), rel=1e-12)
    assert float(lap.confidence_region(0.95, exact=True).radius) == pytest.approx(lreg.radius)
    best = L1BallStaircase.optimal(1.0, (1.0, 1.0), "volume95")
    assert best.confidence_region(0.95).volume <= lreg.volume
    assert sum(L1BallStaircase.optimal(1.0, (1.0, 1.0)).variances()) <= sum(lap.variances())


def test_laplace_baseline_law():
    lap = IndependentLaplace.for_box(1.0, (1.0, 10.0))
    assert lap.scale == 11.0 and lap.variances() == (242.0, 242.0)
    x = np.array([[0.3, -4.0], [12.0, 1.0]])
    ref = stats.laplace(scale=11).logpdf(x).sum(axis=1)
    np.testing.assert_allclose(lap.logpdf(x), ref, rtol=1e-13)
    np.testing.assert_allclose(lap.marginal_cdf([-3.0, 5.0]),
                               stats.laplace(scale=11).cdf([-3.0, 5.0]), rtol=1e-13)
    y = lap.sample(50000, rng=3)
    assert stats.kstest(np.abs(y).sum(1), stats.gamma(2, scale=11).cdf).pvalue > 1e-3
    p = lap.prob_box([-5.0, -5.0], [5.0, 20.0])
    ref = np.prod(stats.laplace(scale=11).cdf([5, 20]) - stats.laplace(scale=11).cdf([-5, -5]))
    assert p == pytest.approx(ref, rel=1e-13)


def test_region_volume_without_beta_search_is_bit_identical():
    for core, s in ((0.5, (1.0, 1.0)), (0.0, (1.0, 3.0, 2.0)), (1.0, (2.0,))):
        m = L1BallStaircase(epsilon=0.7, sensitivity=s, core=core)
        for L in (0.001, 0.5, 0.95):
            for dps in (20, 40):
                assert m._region_volume(L, dps=dps) == m.confidence_region(L, dps=dps).volume
