"""Box-staircase noise (thesis §4.5) against references independent of its closed forms.

References:
* ``_ref_normaliser`` — M from the shell definition, Σ_i r^i (V(i) − V(i−1)) with the box
  volumes multiplied out and summed by mpmath.nsum (not the binomial-basis series);
* cell sums — the joint density evaluated pointwise (``pdf``) on the cells of the product grid of
  shell breakpoints, where it is constant, integrated exactly cell by cell;
* the univariate ``Staircase`` (d = 1 is the staircase of §4.4 with d = z);
* Kolmogorov–Smirnov / chi-square / binomial tests with fixed seeds for the sampler.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from privlab.errors import InvalidParameter
from privlab.mechanisms.noise import _shell_series as ss
from privlab.mechanisms.noise.box_staircase import (
    BoxStaircase,
    HalfStepBoxStaircase,
    OversizedCoreBoxStaircase,
    WrongRatioBoxStaircase,
)
from privlab.mechanisms.noise.staircase import Staircase

EX5 = {"epsilon": 1.0, "sensitivity": (1.0, 10.0), "core": (0.1, 1.0)}


def _ref_normaliser(m: BoxStaircase):
    with mpmath.workdps(40):
        r = mpmath.exp(-mpmath.mpf(m.epsilon))

        def V(i):
            if i < 0:
                return mpmath.mpf(0)
            return mpmath.fprod(2 * (mpmath.mpf(z) + i * mpmath.mpf(s))
                                for z, s in zip(m.core, m.sensitivity, strict=True))

        return 1 / mpmath.nsum(lambda i: r**i * (V(int(i)) - V(int(i) - 1)), [0, mpmath.inf])


def _axis_cells(m: BoxStaircase, j: int, shells: int):
    """Cells [b_k, b_{k+1}] of axis j (both signs) between shell breakpoints."""
    z, w = m.core[j], m.step[j]
    pos = [0.0] + [z + k * w for k in range(shells + 1) if z + k * w > 0]
    edges = sorted({-p for p in pos} | set(pos))
    return np.array(edges[:-1]), np.array(edges[1:])


def _marginal_by_cells(m: BoxStaircase, x: float, j: int, shells: int = 60) -> float:
    others = [lx for lx in range(m.dim) if lx != j]
    cells = [_axis_cells(m, lx, shells) for lx in others]
    mids = np.meshgrid(*[0.5 * (lo + hi) for lo, hi in cells], indexing="ij")
    vols = np.ones(mids[0].shape)
    for ax, (lo, hi) in enumerate(cells):
        shape = [1] * len(cells)
        shape[ax] = -1
        vols = vols * (hi - lo).reshape(shape)
    pts = np.zeros((*mids[0].shape, m.dim))
    pts[..., j] = x
    for lx, g in zip(others, mids, strict=True):
        pts[..., lx] = g
    return float((m.pdf(pts) * vols).sum())


# ---- bad input ------------------------------------------------------------------------------
@pytest.mark.parametrize("kw,needle", [
    ({"core": (1.5, 1.0)}, r"core\[0\]=1\.5 must be <= sensitivity\[0\]=1\.0"),
    ({"sensitivity": (1.0, 0.0)}, r"sensitivity\[1\]=0\.0 must be > 0"),
    ({"sensitivity": (-1.0, 10.0)}, r"sensitivity\[0\]=-1\.0 must be > 0"),
    ({"core": (0.1,)}, r"core=\(0\.1,\) has 1 entries but sensitivity=\(1\.0, 10\.0\) has 2"),
    ({"epsilon": 0.0}, r"epsilon=0\.0 must be > 0"),
    ({"epsilon": -1.0}, r"epsilon=-1\.0 must be > 0"),
    ({"epsilon": math.nan}, r"epsilon=nan must not be NaN"),
    ({"core": (-0.1, 1.0)}, r"core\[0\]=-0\.1 must be >= 0"),
    ({"sensitivity": ()}, r"sensitivity=\(\) must have at least one entry"),
    ({"sensitivity": "1,2"}, r"sensitivity='1,2' must be a sequence"),
    ({"sensitivity": (1.0, math.inf)}, r"sensitivity\[1\]=inf must be finite"),
])
def test_bad_parameters(kw, needle):
    with pytest.raises(InvalidParameter, match=needle):
        BoxStaircase(**{**EX5, **kw})


def test_bad_method_inputs():
    m = BoxStaircase(**EX5)
    with pytest.raises(InvalidParameter, match="last axis of length 2"):
        m.pdf([1.0, 2.0, 3.0])
    with pytest.raises(InvalidParameter, match="axis=2 must be an integer"):
        m.marginal_pdf(0.0, 2)
    with pytest.raises(InvalidParameter, match=r"level=1\.0 must lie in"):
        m.confidence_region(1.0)
    with pytest.raises(InvalidParameter, match=r"lower\[0\]=1 must be <= upper\[0\]=0"):
        m.prob_box([1, 0], [0, 1])
    with pytest.raises(InvalidParameter, match="shape="):
        m.sample((-2,))
    with pytest.raises(InvalidParameter, match="objective='median' must be one of"):
        BoxStaircase.optimal(1.0, (1.0, 2.0), "median")
    with pytest.raises(InvalidParameter, match=r"weights=\(1.0,\) must have 2 entries"):
        BoxStaircase.optimal(1.0, (1.0, 2.0), "weighted", weights=(1.0,))
    with pytest.raises(InvalidParameter, match="needs weights"):
        BoxStaircase.optimal(1.0, (1.0, 2.0), "weighted")
    with pytest.raises(InvalidParameter, match="x must be finite"):
        m.shell_index([np.inf, 0.0])


# ---- normalisation, marginals, joint ---------------------------------------------------------
@settings(max_examples=15, deadline=None)
@given(d=st.integers(1, 6), eps=st.floats(0.2, 3.0), data=st.data())
def test_normaliser_matches_shell_definition_any_d(d, eps, data):
    s = tuple(data.draw(st.floats(0.1, 5.0)) for _ in range(d))
    z = tuple(si * data.draw(st.floats(0.0, 1.0)) for si in s)
    m = BoxStaircase(epsilon=eps, sensitivity=s, core=z)
    ref = _ref_normaliser(m)
    assert float(abs(m.normaliser_exact(40) - ref) / ref) < 1e-25
    assert m.normaliser == pytest.approx(float(ref), rel=1e-12)
    masses = m.shell_mass(np.arange(int(80 / eps) + 200))
    assert masses.sum() == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("eps,s,z", [(1.0, (2.0,), (0.7,)), (0.3, (1.0,), (0.0,)),
                                     (2.5, (0.5,), (0.5,))])
def test_one_dimension_is_the_univariate_staircase(eps, s, z):
    box = BoxStaircase(epsilon=eps, sensitivity=s, core=z)
    st1 = Staircase(epsilon=eps, sensitivity=s[0], d=z[0])
    x = np.linspace(-12 * s[0], 12 * s[0], 997)
    np.testing.assert_allclose(box.pdf(x[:, None]), st1.pdf(x), rtol=1e-12)
    np.testing.assert_allclose(box.marginal_pdf(x), st1.pdf(x), rtol=1e-11)
    np.testing.assert_allclose(box.marginal_cdf(x), st1.cdf(x), rtol=1e-11, atol=1e-15)
    assert box.marginal_variance(0) == pytest.approx(st1.variance(), rel=1e-12)


def test_variance_optimal_core_in_one_dimension_is_staircase_optimum():
    box = BoxStaircase.optimal(1.0, (1.0,), "variance")
    assert box.core[0] == pytest.approx(Staircase.optimal(1.0, 1.0).d, abs=1e-5)


@pytest.mark.parametrize("kw", [EX5, {"epsilon": 0.7, "sensitivity": (1.0, 2.0, 0.5),
                                      "core": (0.3, 0.0, 0.5)}])
def test_marginals_integrate_the_joint(kw):
    m = BoxStaircase(**kw)
    shells = 80
    for j in range(m.dim):
        for x in (0.0, 0.05, 0.37 * m.sensitivity[j], 2.6 * m.sensitivity[j]):
            ref = _marginal_by_cells(m, x, j, shells)
            assert float(m.marginal_pdf(x, j)) == pytest.approx(ref, rel=1e-8)
            assert float(m.marginal_pdf_exact(x, j)) == pytest.approx(ref, rel=1e-8)


def test_marginal_pdf_integrates_to_its_cdf():
    m = BoxStaircase(**EX5)
    for j in range(2):
        lo, hi = _axis_cells(m, j, 120)
        mids = 0.5 * (lo + hi)
        pieces = m.marginal_pdf(mids, j) * (hi - lo)
        assert pieces.sum() == pytest.approx(1.0, abs=1e-12)
        cum = np.cumsum(pieces)
        np.testing.assert_allclose(m.marginal_cdf(hi, j), cum, atol=1e-12)


def test_prob_box_matches_cell_sums():
    m = BoxStaircase(**EX5)
    gen = np.random.default_rng(7)
    for _ in range(25):
        c = gen.uniform(-4, 4, 2) * np.array(m.sensitivity)
        h = gen.uniform(0.0, 3, 2) * np.array(m.sensitivity)
        lo, hi = c - h, c + h
        edges = []
        for j in range(2):
            bl, bh = _axis_cells(m, j, 12)
            e = np.unique(np.clip(np.concatenate([bl, bh, [lo[j], hi[j]]]), lo[j], hi[j]))
            edges.append(e)
        mx, my = np.meshgrid(0.5 * (edges[0][1:] + edges[0][:-1]),
                             0.5 * (edges[1][1:] + edges[1][:-1]), indexing="ij")
        area = np.outer(np.diff(edges[0]), np.diff(edges[1]))
        ref = float((m.pdf(np.stack([mx, my], -1)) * area).sum())
        assert m.prob_box(list(lo), list(hi)) == pytest.approx(ref, rel=1e-10, abs=1e-15)
    assert m.prob_centred_box([np.inf, np.inf]) == pytest.approx(1.0, abs=1e-30)


def test_confidence_region_is_level_set_volume():
    """V* from the float shell masses (independent of the mpmath series) and P(region) = L by
    the exact box probability."""
    m = BoxStaircase(**EX5)
    masses = m.shell_mass(np.arange(200))
    vols = np.cumsum(m.shell_volume(np.arange(200)))
    for L in (0.5, 0.9, 0.95, 0.99):
        reg = m.confidence_region(L)
        cum = np.cumsum(masses)
        k = int(np.searchsorted(cum, L))
        before = cum[k - 1] if k else 0.0
        vstar = (vols[k - 1] if k else 0.0) + (L - before) / (m.normaliser * math.exp(-k))
        assert reg.volume == pytest.approx(vstar, rel=1e-10)
        assert m.prob_centred_box(reg.half_widths) == pytest.approx(L, abs=1e-12)
        assert math.prod(2 * h for h in reg.half_widths) == pytest.approx(reg.volume, rel=1e-12)
    small = m.confidence_region(0.001)  # inside the core: β < 0
    assert small.beta < 0 and small.volume == pytest.approx(0.001 / m.normaliser, rel=1e-12)


# ---- DP on random points and shifts ----------------------------------------------------------
@settings(max_examples=30, deadline=None)
@given(d=st.integers(1, 4), eps=st.floats(0.1, 4.0), data=st.data())
def test_dp_inequality_on_random_points_and_shifts(d, eps, data):
    s = np.array([data.draw(st.floats(0.1, 5.0)) for _ in range(d)])
    z = s * np.array([data.draw(st.floats(0.0, 1.0)) for _ in range(d)])
    m = BoxStaircase(epsilon=eps, sensitivity=tuple(s), core=tuple(z))
    gen = np.random.default_rng(data.draw(st.integers(0, 2**31)))
    x = gen.uniform(-8, 8, (2000, d)) * s
    delta = gen.uniform(-1, 1, (2000, d)) * s
    delta[:1000] = np.sign(delta[:1000]) * s  # vertices of S_f
    gap = m.logpdf(x) - m.logpdf(x + delta)
    assert gap.max() <= eps * (1 + 1e-12)
    assert np.abs(m.shell_index(x + delta) - m.shell_index(x)).max() <= 1


@pytest.mark.parametrize("cls,loss", [(WrongRatioBoxStaircase, 1.5), (HalfStepBoxStaircase, 2.0)])
def test_broken_controls_violate_dp_on_random_points(cls, loss):
    m = cls(**EX5)
    gen = np.random.default_rng(3)
    x = m.sample(20000, rng=gen)
    gap = m.logpdf(x) - m.logpdf(x + np.asarray(m.sensitivity))
    assert gap.max() == pytest.approx(loss * m.epsilon, rel=1e-12)


def test_oversized_core_control_is_still_dp():
    m = OversizedCoreBoxStaircase(epsilon=1.0, sensitivity=(1.0, 1.0), core=(3.0, 0.5))
    gen = np.random.default_rng(4)
    x = gen.uniform(-9, 9, (20000, 2))
    d = gen.uniform(-1, 1, (20000, 2))
    assert (m.logpdf(x) - m.logpdf(x + d)).max() <= 1.0 + 1e-12


# ---- sampler ----------------------------------------------------------------------------------
def test_sample_shapes_and_seeding():
    m = BoxStaircase(**EX5)
    assert m.sample(rng=0).shape == (2,)
    assert m.sample((3, 4), rng=0).shape == (3, 4, 2)
    assert m.sample(0, rng=0).shape == (0, 2)
    np.testing.assert_array_equal(m.sample(50, rng=11), m.sample(50, rng=11))
    g = np.random.default_rng(5)
    assert not np.array_equal(m.sample(10, rng=g), m.sample(10, rng=g))
    out = m.release(np.zeros((5, 2)), rng=1)
    assert out.shape == (5, 2)


@pytest.mark.parametrize("kw", [EX5, {"epsilon": 0.4, "sensitivity": (1.0, 2.0, 0.5),
                                      "core": (0.3, 0.0, 0.5)},
                                {"epsilon": 2.0, "sensitivity": (1.0,) * 5, "core": (0.5,) * 5}])
def test_sampler_matches_marginal_cdfs_and_shell_masses(kw):
    m = BoxStaircase(**kw)
    n = 40000
    x = m.sample(n, rng=2024)
    for j in range(m.dim):
        p = stats.kstest(x[:, j], lambda t, j=j: m.marginal_cdf(t, j)).pvalue
        assert p > 1e-3, (j, p)
    i = m.shell_index(x)
    K = int(np.searchsorted(np.cumsum(m.shell_mass(np.arange(400))), 0.999)) + 1
    expected = m.shell_mass(np.arange(K)) * n
    obs = np.bincount(np.minimum(i, K), minlength=K + 1)
    exp = np.append(expected, n - expected.sum())
    assert obs[exp == 0].sum() == 0  # an empty core (some z_j = 0) is never drawn
    assert stats.chisquare(obs[exp > 0], exp[exp > 0]).pvalue > 1e-3


def test_sampler_matches_exact_box_probabilities():
    m = BoxStaircase(**EX5)
    n = 100000
    x = m.sample(n, rng=99)
    gen = np.random.default_rng(1)
    s = np.asarray(m.sensitivity)
    worst = 0.0
    for _ in range(20):
        lo = gen.uniform(-4, 3, 2) * s
        hi = lo + gen.uniform(0.2, 4, 2) * s
        p = m.prob_box(list(lo), list(hi))
        k = np.all((x >= lo) & (x <= hi), axis=1).sum()
        worst = max(worst, abs(k - n * p) / math.sqrt(n * p * (1 - p) + 1e-12))
    assert worst < 4.5


def test_shell_law_tail_branch_is_exact():
    """Force the table to stop after 2 shells so most draws use the negative-binomial tail."""
    m = BoxStaircase(epsilon=0.3, sensitivity=(1.0, 2.0, 0.5), core=(0.3, 0.0, 0.5))
    vf = m._volume_factors(list(m.core), list(m.step))
    law = ss.ShellLaw.build(vf, m.rate, max_shells=2)
    assert law.start == 2
    i = law.draw(60000, np.random.default_rng(8))
    K = 40
    expected = m.shell_mass(np.arange(K)) * len(i)
    exp = np.append(expected, len(i) - expected.sum())
    obs = np.bincount(np.minimum(i, K), minlength=K + 1)
    assert obs[0] == 0 and exp[0] == 0  # z_2 = 0: the core has no volume
    assert stats.chisquare(obs[1:], exp[1:]).pvalue > 1e-3
    pure = ss.mixture_draw(ss.mixture_weights(vf, 1 / math.expm1(m.rate)),
                           -math.expm1(-m.rate), -1, 60000, np.random.default_rng(9))
    obs = np.bincount(np.minimum(pure, K), minlength=K + 1)
    assert obs[0] == 0
    assert stats.chisquare(obs[1:], exp[1:]).pvalue > 1e-3


# ---- constructors ----------------------------------------------------------------------------
def test_core_constructors_improve_their_objective():
    s = (1.0, 10.0)
    thesis = BoxStaircase.thesis_core(1.0, s)
    assert thesis.core == pytest.approx((0.1, 1.0))
    best_var = BoxStaircase.optimal(1.0, s, "variance")
    best_vol = BoxStaircase.optimal(1.0, s, "volume95")
    assert sum(best_var.variances()) <= sum(thesis.variances())
    assert best_vol.confidence_region(0.95).volume <= thesis.confidence_region(0.95).volume
    for m in (best_var, best_vol):
        assert all(0.0 <= z <= si for z, si in zip(m.core, s, strict=True))
    w = BoxStaircase.optimal(1.0, s, "weighted", weights=(1.0, 0.0))
    assert w.variances()[0] <= best_var.variances()[0] + 1e-9


def test_memoised_core_probabilities_and_volume_are_bit_identical():
    """The optimiser's fast paths (prefix sums of the shell series, V* without the β search)
    give exactly the values of the direct formulas, also past the 64-term short sums."""
    import mpmath

    from privlab.mechanisms.noise import _shell_series as ss
    from privlab.mechanisms.noise.box_objectives import (
        _CoreProbs,
        _prob_core_box,
        confidence_region,
        min_volume,
        min_volume_level,
        region_volume,
    )

    for eps, s, z in ((1.0, (1.0, 10.0), (0.1, 1.0)), (0.05, (1.0, 2.0, 3.0), (0.0, 0.5, 3.0)),
                      (3.0, (2.0,), (0.7,))):
        m = BoxStaircase(epsilon=eps, sensitivity=s, core=z)
        for dps in (20, 40):
            with mpmath.workdps(dps):
                zz, w, r, q = m._nums(True)
                vf = m._volume_factors(zz, w)
                M = 1 / ss.gsum(vf, q)
                P = _CoreProbs(M, vf, r, q)
                for k in (5, 0, 3, 70, 64, 63, 200, 1):
                    assert P(k) == _prob_core_box(M, vf, r, q, k)
                for L in (0.001, 0.5, 0.95, 0.99):
                    assert min_volume(vf, r, q, L) == min_volume_level(vf, r, q, L, -1)[0]
            for L in (0.001, 0.95):
                assert region_volume(m, L, dps=dps) == confidence_region(m, L, dps=dps).volume
