"""``binomgrid.binom_ppf`` / ``binom_isf`` (scipy's binomial quantile ufuncs, called without
importing scipy.stats) give exactly what ``scipy.stats.binom.ppf`` / ``isf`` give (the former
code of ``kb_bins``, kept here as the oracle), so the K_b range of the exact tests is unchanged."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from privlab.audit import binomgrid


@pytest.mark.parametrize("n", [1, 2, 17, 1000, 70_000, 280_000, 1_000_000])
def test_binom_quantiles_equal_scipy_stats(n: int) -> None:
    """Catches ppf and isf swapped, a quantile off by one (e.g. ``bdtrik`` rounded the other
    way) and a tail level passed as 1 − q."""
    rng = np.random.default_rng(n)
    ps = np.concatenate([[0.0, 1.0, 1e-12, 0.5, 1 - 1e-12], rng.random(40), rng.random(40) ** 8])
    for p in ps:
        for q in (1e-12, 1e-6, 0.3):
            assert binomgrid.binom_ppf(q, n, float(p)) == float(stats.binom.ppf(q, n, float(p)))
            assert binomgrid.binom_isf(q, n, float(p)) == float(stats.binom.isf(q, n, float(p)))


def test_kb_bins_equals_former_code() -> None:
    """``kb_bins`` with the scipy.stats quantiles (the former code) gives the same arrays."""
    def former(p_b: np.ndarray, n_b: int, kbins: int, tail: float) -> tuple:
        lo = int(stats.binom.ppf(tail, n_b, float(p_b.min())))
        hi = int(stats.binom.isf(tail, n_b, float(p_b.max())))
        lo, hi = max(lo - 1, 0), min(hi + 1, n_b)
        sd = np.sqrt(n_b * float(p_b.max()) * (1 - float(p_b.min())))
        w = max(1, int(sd / kbins))
        k = np.arange(lo, hi + 1, w)
        pmf, below, above = binomgrid.window_pmf(n_b, p_b, np.full(p_b.size, lo, dtype=np.int64),
                                                 hi - lo + 1)
        return k.astype(float), np.add.reduceat(pmf, k - lo, axis=1), below + above

    for n_b, lo, hi in ((70_000, 0.0, 3e-4), (70_000, 0.01, 0.012), (1000, 0.2, 0.3)):
        p_b = np.linspace(lo, hi, 97)[:-1]
        got, want = binomgrid.kb_bins(p_b, n_b, 30, 1e-12), former(p_b, n_b, 30, 1e-12)
        for g, w in zip(got, want, strict=True):
            assert g.tobytes() == w.tobytes()
