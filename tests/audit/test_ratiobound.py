"""The joint ratio bound of :mod:`privlab.audit.ratiobound`: exact coverage, nesting, tightness."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from privlab.audit.bounds import cp_lower, cp_upper
from privlab.audit.ratiobound import RatioTest, ratio_lower
from privlab.errors import InvalidParameter


@pytest.mark.parametrize("p_a,p_b,delta", [(0.5, 0.5 / math.e, 0.0), (0.3, 0.1, 0.0),
                                           (0.9, 0.2, 0.05), (0.2, 0.2, 0.0)])
def test_exact_coverage_on_a_small_sample(p_a, p_b, delta):
    """P(ε_lb > ε*) summed exactly over every outcome (k_a, k_b) of two Bin(12, ·) — the
    definition of a (1 − α) lower bound, with no Monte-Carlo error — is at most α."""
    n, alpha = 12, 0.1
    truth = math.log((p_a - delta) / p_b)
    pmf_a = stats.binom.pmf(np.arange(n + 1), n, p_a)
    pmf_b = stats.binom.pmf(np.arange(n + 1), n, p_b)

    def miss(level: float) -> float:
        return sum(pmf_a[i] * pmf_b[j] for i in range(n + 1) for j in range(n + 1)
                   if ratio_lower(i, n, j, n, level, delta) > truth)

    assert miss(alpha) <= alpha


def test_exact_coverage_check_has_power():
    """Control for the test above: the bound computed at level 2.5α (a mis-stated confidence)
    misses more often than α at (p_a, p_b) = (0.3, 0.1), n = 12 (exact sum)."""
    n, alpha = 12, 0.1
    pmf_a = stats.binom.pmf(np.arange(n + 1), n, 0.3)
    pmf_b = stats.binom.pmf(np.arange(n + 1), n, 0.1)
    miss = sum(pmf_a[i] * pmf_b[j] for i in range(n + 1) for j in range(n + 1)
               if ratio_lower(i, n, j, n, 2.5 * alpha) > math.log(3.0))
    assert miss > alpha


@settings(max_examples=25, deadline=None)
@given(k_a=st.integers(1, 400), k_b=st.integers(0, 400), d=st.sampled_from([0.0, 0.01]))
def test_p_value_is_nested_in_c(k_a, k_b, d):
    """The bound on the p-value never decreases in c — what makes the bisection's answer a
    valid confidence bound (module docstring, "Nested tests")."""
    t = RatioTest(k_a, 400, k_b, 400, d, 0.0025)
    ps = [t.pvalue(c) for c in np.exp(np.linspace(0.0, 6.0, 40))]
    assert np.all(np.diff(ps) >= -1e-15)


def test_tighter_than_bonferroni_at_large_counts():
    """At the Laplace ε = 1 audit's counts (p_a = ½, p_b = ½e⁻¹, 70 000 per side) the joint
    bound beats the Bonferroni pair of Clopper–Pearson bounds (both computed here) and stays
    below the plug-in estimate."""
    n = 70_000
    k_a, k_b = n // 2, round(n * 0.5 / math.e)
    joint = ratio_lower(k_a, n, k_b, n, 0.05)
    bonf = math.log(float(cp_lower(k_a, n, 0.025)) / float(cp_upper(k_b, n, 0.025)))
    assert bonf < joint < math.log(k_a / k_b)


def test_structural_leak_gets_a_large_finite_bound():
    """50 hits against none: a bound well above 0 but finite."""
    lb = ratio_lower(50, 1000, 0, 1000, 0.05)
    assert 1.0 < lb < 60.0


def test_no_evidence_gives_zero():
    assert ratio_lower(10, 10, 10, 10, 0.05) == 0.0
    assert ratio_lower(0, 10, 0, 10, 0.05) == 0.0
    assert ratio_lower(3, 100, 0, 100, 0.05, delta=0.05) == 0.0


@pytest.mark.parametrize("kw,needle", [
    ({"k_a": -1}, r"k_a=-1 must be an integer in \[0, 10\]"),
    ({"k_b": 11}, r"k_b=11 must be an integer in \[0, 10\]"),
    ({"alpha": 1.0}, r"alpha=1"),
    ({"delta": 1.0}, r"delta=1"),
    ({"n_a": 0}, r"n_a=0"),
])
def test_bad_inputs(kw, needle):
    args = {"k_a": 5, "n_a": 10, "k_b": 1, "n_b": 10, "alpha": 0.05} | kw
    with pytest.raises(InvalidParameter, match=needle):
        ratio_lower(**args)


@pytest.mark.parametrize("workers", [1, 2])
def test_progress_bar_counts_every_output(workers):
    """The ``bar`` callback of the auditor receives every output drawn: 2·samples in total
    (pilot, both selection halves and estimation, both sides), for any number of workers."""
    from privlab.audit import audit_pair

    seen: list[int] = []
    audit_pair(lambda n, g: g.laplace(size=n), lambda n, g: 1 + g.laplace(size=n),
               samples=30_000, rng=3, chunk=4096, bar=seen.append, workers=workers)
    assert sum(seen) == 2 * 30_000 and len(seen) > 4


@pytest.mark.parametrize("counts", [(350000, 700000, 130000, 700000, 0.0),
                                    (3500, 700000, 130, 700000, 0.0),
                                    (70000, 100000, 10, 100000, 0.0),
                                    (40000, 70000, 14000, 70000, 1e-3)])
def test_early_stop_decides_exactly_like_the_full_maximum(counts) -> None:
    """pvalue(c, stop_above=s) > s exactly when pvalue(c) > s, and an early value never exceeds
    the full one (it is one cell of the maximum)."""
    from privlab.audit.ratiobound import RatioTest

    k_a, n_a, k_b, n_b, delta = counts
    est = math.log(max((k_a + 0.5) / n_a - delta, 1e-12) / ((k_b + 0.5) / n_b))
    test = RatioTest(k_a, n_a, k_b, n_b, delta, 0.0025)
    for s in (0.01, 0.05, 0.5):
        for c in np.exp(np.linspace(0.0, est * 1.2 + 0.1, 25)):
            full = test.pvalue(float(c))
            for hot in (0, 47, 95):  # the cell an earlier evaluation found largest
                test._hot = hot
                early = test.pvalue(float(c), stop_above=s)
                assert (early > s) == (full > s)
                assert early <= full
                if early <= s:
                    assert early == full  # not stopped early: the exact maximum
