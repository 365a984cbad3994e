"""Binomial probabilities on integer windows — the shared core of the exact two-sample tests
(:mod:`privlab.audit.diffbound`, :mod:`privlab.audit.ratiobound`).

:func:`window_pmf`.  For rows i with success probabilities p_i and windows
W_i = {s_i, …, s_i + L − 1} ⊆ {0, …, n} it returns P_{p_i}(K = t), t ∈ W_i, K ~ Bin(n, p_i),
computed from the ratio of consecutive probabilities

    log P(K = t + 1) − log P(K = t) = log((n − t)/(t + 1)) + log(p/(1 − p)),

summed along the window (the shape of the row, exact up to rounding: ~10⁻¹³ relative near the
mode) and scaled so that the row sums to its exact in-window mass 1 − below_i − above_i, with
below_i = P(K < s_i) and above_i = P(K > s_i + L − 1) from the incomplete beta function.
Scaling by the mass instead of anchoring on one probability keeps the error of a single
log-probability (scipy's ``binom.logpmf`` is off by up to ~10⁻⁹ relative at n = 10⁶) out of
every entry.  It replaces differences of two incomplete-beta CDF values, which lose up to
~10⁻⁸ relative in the bulk and ~10⁻⁴ in the tails to cancellation, and costs one logarithm and
one exponential per integer instead of one incomplete beta function (~0.8 µs at n = 10⁶) per bin.

:func:`kb_bins`.  For cells i with lower ends p_b[i] the tests need Σ_k P_{p_b[i]}(K_b = k)·h(k)
for a function h non-increasing in k (a tail probability of K_a past a threshold that grows with
k).  The k-axis is cut into bins [k_j, k_{j+1}) of width ≈ sd/``kbins`` over the range where any
cell's K_b has mass above ``tail``; each bin's mass is weight[i, j] (the window probabilities
summed over the bin) and h is taken at the bin's low end k_j (an upper bound, h being
non-increasing); the mass outside the range is returned apart (``outside[i]``), to be added as
if h = 1 there.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray
from scipy import special
from scipy.special import _ufuncs  # binom._ppf/_isf's ufuncs (scipy.stats' own)

__all__ = ["binom_isf", "binom_ppf", "kb_bins", "window_pmf"]

CHUNK = 2**21
"""Window entries computed at once (bounds the temporary arrays to a few tens of MB)."""


def _shape(n: int, q: NDArray[np.float64], s0: NDArray[np.int64], length: int,
           mass: NDArray[np.float64]) -> NDArray[np.float64]:
    """Rows of :func:`window_pmf` for 0 < q < 1: the summed log-ratios, exponentiated relative
    to the row's largest entry, scaled to the row's exact in-window mass.  Each row's log-ratios
    are a contiguous slice of one array (copied row by row from a sliding-window view) and every
    step after that works in place: the same floats as the gather and temporaries it replaced
    (``_shape_reference`` in ``tests/audit/test_ratio_fastpaths.py``)."""
    lo = int(s0.min())
    steps = np.arange(lo, int(s0.max()) + length - 1, dtype=float)  # t -> t + 1, t < n
    log_ratio = np.log((n - steps) / (steps + 1.0))
    shape = np.zeros((q.size, length))
    if length > 1:
        rows = np.lib.stride_tricks.sliding_window_view(log_ratio, length - 1)[s0 - lo]
        rows += (np.log(q) - np.log1p(-q))[:, None]
        np.cumsum(rows, axis=1, out=shape[:, 1:])
    shape -= shape.max(axis=1, keepdims=True)
    np.exp(shape, out=shape)
    shape *= (mass / shape.sum(axis=1))[:, None]
    return shape


def window_pmf(n: int, p: NDArray[np.float64], start: NDArray[np.int64], length: int
               ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """(pmf, below, above): pmf[i, u] = P_{p[i]}(K = start[i] + u) for u < ``length``,
    K ~ Bin(n, p[i]); below[i] = P(K < start[i]), above[i] = P(K > start[i] + length − 1).

    Needs 0 ≤ start[i] and start[i] + length − 1 ≤ n; p[i] ∈ [0, 1] (p = 0 and p = 1 are
    point masses).  Module docstring for the method and its accuracy."""
    p = np.asarray(p, dtype=float)
    start = np.asarray(start, dtype=np.int64)
    last = start + (length - 1)
    with np.errstate(invalid="ignore"):
        below = np.where(start > 0, special.bdtr(np.maximum(start - 1, 0), n, p), 0.0)
        above = np.where(last < n, special.bdtrc(np.minimum(last, n), n, p), 0.0)
    pmf = np.zeros((p.size, length))
    inner = np.flatnonzero((p > 0.0) & (p < 1.0))
    rows = max(1, CHUNK // length)  # bounded memory: rows of a chunk are independent
    for i in range(0, inner.size, rows):
        sel = inner[i:i + rows]
        pmf[sel] = _shape(n, p[sel], start[sel], length, 1.0 - below[sel] - above[sel])
    point = np.flatnonzero((p <= 0.0) | (p >= 1.0))  # K = 0 or K = n surely
    at = np.where(p[point] >= 1.0, n, 0) - start[point]
    hit = (at >= 0) & (at < length)
    pmf[point[hit], at[hit]] = 1.0
    return pmf, below, above


def binom_ppf(q: float, n: int, p: float) -> float:
    """``scipy.stats.binom.ppf(q, n, p)`` for 0 < q < 1, n ≥ 0 and 0 ≤ p ≤ 1 (the least k with
    P(K ≤ k) ≥ q): the ufunc that ``binom._ppf`` calls, without importing scipy.stats (~0.5 s)
    or its argument handling (``tests/audit/test_binomgrid_quantiles.py`` compares the two)."""
    return float(_ufuncs._binom_ppf(q, n, p))


def binom_isf(q: float, n: int, p: float) -> float:
    """``scipy.stats.binom.isf(q, n, p)`` for 0 < q < 1, n ≥ 0 and 0 ≤ p ≤ 1 (the least k with
    P(K > k) ≤ q), the same way as :func:`binom_ppf`."""
    return float(_ufuncs._binom_isf(q, n, p))


def kb_bins(p_b: NDArray[np.float64], n_b: int, kbins: int, tail: float = 1e-12
            ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """(k, weight, outside): bin low ends, per-cell bin masses, per-cell mass outside."""
    lo = int(binom_ppf(tail, n_b, float(p_b.min())))
    hi = int(binom_isf(tail, n_b, float(p_b.max())))
    lo, hi = max(lo - 1, 0), min(hi + 1, n_b)
    sd = math.sqrt(n_b * float(p_b.max()) * (1 - float(p_b.min())))
    w = max(1, int(sd / kbins))
    k = np.arange(lo, hi + 1, w)  # bin j = [k_j, k_{j+1}); the last one ends at hi + 1
    pmf, below, above = window_pmf(n_b, p_b, np.full(p_b.size, lo, dtype=np.int64),
                                   hi - lo + 1)
    weight = np.add.reduceat(pmf, k - lo, axis=1)
    return k.astype(float), weight, below + above
