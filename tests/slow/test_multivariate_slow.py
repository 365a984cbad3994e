"""Long statistical runs for multivariate shell noise (run with ``-m slow``)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from privlab.mechanisms.noise.box_staircase import BoxStaircase
from privlab.verify.noise.multivariate import check_shell_recursion

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("d", [5, 10])
def test_high_dimensional_sampler_marginals_and_shells(d):
    s = tuple(float(j) for j in range(1, d + 1))
    m = BoxStaircase.thesis_core(0.5, s)
    n = 400_000
    x = m.sample(n, rng=d)
    for j in range(d):
        assert stats.kstest(x[:, j], lambda t, j=j: m.marginal_cdf(t, j)).pvalue > 1e-4
    i = m.shell_index(x)
    K = int(np.searchsorted(np.cumsum(m.shell_mass(np.arange(2000))), 0.9999)) + 1
    exp = m.shell_mass(np.arange(K)) * n
    obs = np.bincount(np.minimum(i, K), minlength=K + 1)
    exp = np.append(exp, n - exp.sum())
    keep = exp > 5
    assert stats.chisquare(obs[keep], exp[keep] * obs[keep].sum() / exp[keep].sum()).pvalue > 1e-4


def test_dp_on_a_million_pairs_d10():
    s = np.arange(1.0, 11.0)
    m = BoxStaircase.thesis_core(1.0, tuple(s))
    gen = np.random.default_rng(0)
    x = np.concatenate([m.sample(500_000, rng=gen), gen.uniform(-20, 20, (500_000, 10)) * s])
    delta = np.sign(gen.uniform(-1, 1, x.shape)) * s
    assert (m.logpdf(x) - m.logpdf(x + delta)).max() <= 1.0 + 1e-12


def test_set_recursion_more_shells():
    m = BoxStaircase(epsilon=1.0, sensitivity=(1.0, 10.0, 2.5), core=(0.1, 1.0, 0.5))
    res = check_shell_recursion(m, shells=8, max_points=20_000_000)
    assert res.holds and res.decided
