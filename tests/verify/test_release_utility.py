"""The expected-error formulas of the DP releases (privlab.verify.releases.utility).

Every closed form is compared with an independent computation: sums of the discrete Laplace
pmf in mpmath (50 digits), numerical integration of the Laplace density, the cluster sizes of
the release's own partition, and (for the law of the released mean) simulation of the release
itself.  Each test names the mutant it catches; each mutant was run once and failed the test.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

from privlab.mechanisms.releases.numerical import DPRelease, order_partition
from privlab.metrics.utility import sse
from privlab.verify.releases.utility import (
    NoiseLaw,
    assess,
    cluster_sizes,
    grid_laws,
    on_data,
    sum_of_squared_sizes,
)


@pytest.fixture(autouse=True)
def _fifty_digits():
    """The mpmath references of this module at 50 digits, restored after each test (a
    module-level ``mp.dps = 50`` leaked into later tests of the same worker)."""
    with mp.workdps(50):
        yield


def _pmf_terms(gamma: Fraction, span: int):
    """(y, P(J = y)) for |y| ≤ span, P(J = y) ∝ e^{−γ|y|} normalised by the full series."""
    p = mp.e ** (-mp.mpf(gamma.numerator) / gamma.denominator)
    norm = (1 + p) / (1 - p)  # Σ_y p^|y|, summed in closed form over all of ℤ
    return [(y, p ** abs(y) / norm) for y in range(-span, span + 1)]


@pytest.mark.parametrize("gamma", [Fraction(7, 10), Fraction(1, 20), Fraction(3, 2)])
def test_discrete_sd_is_the_pmf_variance(gamma: Fraction) -> None:
    # catches: sd = Λ·√2/γ (the continuous law's value), off by γ²/24 relative
    lam = 0.25
    law = NoiseLaw(lo=0.0, hi=10.0, scale=1.0, granularity=lam, rate=gamma)
    span = int(120 / float(gamma))  # tail beyond: e^{-120}
    var = mp.fsum(y * y * w for y, w in _pmf_terms(gamma, span))
    assert law.sd() == pytest.approx(float(lam * mp.sqrt(var)), rel=1e-13)


def _clamped_mean_bruteforce(law: NoiseLaw, c: float) -> mp.mpf:
    i = round(c / law.granularity)
    span = int(150 / float(law.rate))
    lo, hi = mp.mpf(law.lo), mp.mpf(law.hi)
    return mp.fsum(min(max(mp.mpf(law.granularity) * (i + y), lo), hi) * w
                   for y, w in _pmf_terms(law.rate, span))


@pytest.mark.parametrize("c", [0.1, 0.13, 0.6, 1.7, 3.2, 3.3])
def test_discrete_clamp_shift_matches_the_pmf(c: float) -> None:
    # bounds off the grid (A = ⌈lo/Λ⌉ ≠ lo/Λ) and centroids next to them
    # catches: dropping the (lo − ΛA)·P(J > i − A) term of h(i)
    law = NoiseLaw(lo=0.1, hi=3.3, scale=1.0, granularity=0.25, rate=Fraction(2, 5))
    exact = _clamped_mean_bruteforce(law, c) - mp.mpf(c)
    assert float(law.clamp_shift(c)) == pytest.approx(float(exact), rel=1e-11, abs=1e-14)


@pytest.mark.parametrize(("c", "b"), [(0.0, 0.3), (0.2, 0.3), (0.5, 2.0), (1.0, 0.05)])
def test_continuous_clamp_shift_matches_integration(c: float, b: float) -> None:
    # catches: the sign of the upper-bound term flipped
    law = NoiseLaw(lo=0.0, hi=1.0, scale=b)
    dens = lambda t: mp.exp(-abs(t) / b) / (2 * b)  # noqa: E731
    lo, hi = law.lo - c, law.hi - c  # clamp(c + L) = lo below lo − c, hi above hi − c
    mean = (law.lo * mp.quad(dens, [-mp.inf, lo]) + law.hi * mp.quad(dens, [hi, mp.inf])
            + mp.quad(lambda t: (c + t) * dens(t), [lo, 0, hi]))
    assert float(law.clamp_shift(c)) == pytest.approx(float(mean - c), rel=1e-10, abs=1e-14)


@pytest.mark.parametrize("law", [
    NoiseLaw(lo=0.1, hi=3.3, scale=1.0, granularity=0.25, rate=Fraction(2, 5)),
    NoiseLaw(lo=-2.0, hi=5.0, scale=3.0),
])
def test_bias_bound_covers_every_centroid_and_is_attained_at_the_ends(law: NoiseLaw) -> None:
    # catches: the bound taken at the middle index instead of the two ends
    cs = np.linspace(law.lo, law.hi, 2001)
    worst = float(np.max(np.abs(law.clamp_shift(cs))))
    bound = law.bias_bound(clamp=True)
    slack = law.grid_unit  # the bound adds one grid unit for rounding and float error
    assert worst <= bound <= worst + slack + 1e-12
    assert law.bias_bound(clamp=False) == law.grid_unit


def test_clamped_at_middle_matches_the_pmf() -> None:
    # catches: one tail instead of both
    law = NoiseLaw(lo=0.1, hi=3.3, scale=1.0, granularity=0.25, rate=Fraction(2, 5))
    i = round(1.7 / 0.25)
    span = int(150 / 0.4)
    p = mp.fsum(w for y, w in _pmf_terms(law.rate, span)
                if not law.lo <= 0.25 * (i + y) <= law.hi)
    assert law.clamped_at_middle() == pytest.approx(float(p), rel=1e-12)
    cont = NoiseLaw(lo=0.0, hi=1.0, scale=0.4)
    p_cont = 2 * mp.quad(lambda t: mp.exp(-t / 0.4) / 0.8, [0.5, mp.inf])
    assert cont.clamped_at_middle() == pytest.approx(float(p_cont), rel=1e-12)


@pytest.mark.parametrize(("n", "k", "kind"), [(23, 5, "insensitive-mdav"), (40, 7,
                         "individual-ranking"), (9, 5, "insensitive-mdav"), (12, 12,
                         "individual-ranking"), (6, 1, "none")])
def test_cluster_sizes_are_those_of_the_partition(n: int, k: int, kind: str) -> None:
    # catches: Σ|C|² = n·k (the last cluster's remainder ignored)
    u = np.random.default_rng(n + k).uniform(size=(n, 2))
    lab, _ = order_partition(u, k, kind)
    lab = lab.reshape(n, -1)
    for j in range(lab.shape[1]):
        got = sorted(np.bincount(lab[:, j]).tolist())
        assert got == sorted(cluster_sizes(n, k))
        assert sum_of_squared_sizes(n, k) == sum(s * s for s in got)


@pytest.mark.parametrize(("noise", "micro", "k"), [("shared", "insensitive-mdav", 5),
                                                   ("per-record", "insensitive-mdav", 5),
                                                   ("shared", "individual-ranking", 4)])
def test_sd_of_the_released_mean_matches_simulation(noise: str, micro: str, k: int) -> None:
    # catches: the shared-noise mean sd taken as σ/√n (independent draws per record): with
    # clusters of k the variance is k times larger, far outside the tolerance below
    n, t = 37, 6000
    x = np.random.default_rng(1).uniform(0, 10, (n, 1))
    rel = DPRelease(microaggregation=micro, k=k, epsilon=2.0, noise_scale=0.3, noise=noise,
                    clamp=False)
    b = [(0.0, 10.0)]
    u = assess(grid_laws(rel.grid(b, n)), n, k, per_record=noise == "per-record",
               clamp=False).attributes[0]
    means = rel.sample(x, b, t, rng=7)[:, :, 0].mean(axis=1)
    # sample variance of t draws: relative sd ~ √(2/t)·(1 + kurtosis excess) < 5 %; 25 % margin
    assert means.var(ddof=1) == pytest.approx(u.mean_noise_sd ** 2, rel=0.25)
    # and the mean is unbiased up to the rounding bound (one grid unit)
    assert abs(means.mean() - x.mean()) <= 6 * u.mean_noise_sd / math.sqrt(t) + u.mean_bias_bound


def test_on_data_expected_mean_and_sse_match_simulation() -> None:
    # catches: the expected released mean computed without the clamping shift (it would stay
    # at the data's mean, while the clamped releases move towards the middle of the range)
    n, t = 30, 4000
    g = np.random.default_rng(2)
    x = np.concatenate([g.uniform(0, 1, (n - 10, 1)), g.uniform(0, 10, (10, 1))])
    b = [(0.0, 10.0)]
    rel = DPRelease(microaggregation="insensitive-mdav", k=5, epsilon=1.0, noise_scale=0.4,
                    clamp=True)
    laws = grid_laws(rel.grid(b, n))
    cen = rel.aggregate(x, b)[0]
    d = on_data(laws, x, cen, clamp=True)["attributes"][0]
    outs = rel.sample(x, b, t, rng=11)[:, :, 0]
    sd_mean = outs.mean(axis=1).std(ddof=1)
    assert abs(d["expected_released_mean"] - outs.mean()) <= 6 * sd_mean / math.sqrt(t)
    assert abs(d["true_mean"] - outs.mean()) > 20 * sd_mean / math.sqrt(t)  # clamping moved it
    # SSE of the aggregation against the metrics module; the expected SSE of the release is
    # a bound on the simulated one (the row order is shuffled, so compare sorted values by
    # their SSE against the centroids' own rows: use aligned rows for this part)
    assert d["sse_aggregation"] == pytest.approx(sse(x, cen), rel=1e-12)
    assert d["sst"] == pytest.approx(float(((x - x.mean()) ** 2).sum()), rel=1e-12)
    aligned = DPRelease(microaggregation="insensitive-mdav", k=5, epsilon=1.0, noise_scale=0.4,
                        clamp=True, rows="aligned")
    sim = np.mean([((o[:, None] - x) ** 2).sum() for o in
                   aligned.sample(x, b, 500, rng=3)[:, :, 0]])
    assert sim <= d["expected_sse_release_bound"]


def test_clamped_figures_never_exceed_the_range() -> None:
    # catches: the clamped per-value error left at σ (36× the range in the case)
    law = NoiseLaw(lo=17.0, hi=90.0, scale=26.0 * 73)
    u = assess([law], 32561, 50, per_record=False, clamp=True).attributes[0]
    assert u.value_rmse_bound == 73.0
    assert u.mean_noise_sd == pytest.approx(36.5 * math.sqrt(sum_of_squared_sizes(32561, 50))
                                            / 32561, rel=1e-12)
    assert u.noise_sd > u.range
