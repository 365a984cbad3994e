"""K_b summed in bins over a grid of p_b values — the shared core of the exact two-sample tests
(:mod:`privlab.audit.diffbound`, :mod:`privlab.audit.ratiobound`).

For cells i with lower ends p_b[i] the tests need Σ_k P_{p_b[i]}(K_b = k)·h(k) for a function
h non-increasing in k (a tail probability of K_a past a threshold that grows with k).  The
k-axis is cut into bins [k_j, k_{j+1}) of width ≈ sd/``kbins`` over the range where any cell's
K_b has mass above ``tail``; each bin's mass is weight[i, j] and h is taken at the bin's low
end k_j (an upper bound, h being non-increasing); the mass outside the range is returned apart
(``outside[i]``), to be added as if h = 1 there.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray
from scipy import special

__all__ = ["kb_bins"]


def kb_bins(p_b: NDArray[np.float64], n_b: int, kbins: int, tail: float = 1e-12
            ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """(k, weight, outside): bin low ends, per-cell bin masses, per-cell mass outside."""
    from scipy import stats  # not at import: scipy.stats costs ~0.5 s

    lo = int(stats.binom.ppf(tail, n_b, float(p_b.min())))
    hi = int(stats.binom.isf(tail, n_b, float(p_b.max())))
    lo, hi = max(lo - 1, 0), min(hi + 1, n_b)
    sd = math.sqrt(n_b * float(p_b.max()) * (1 - float(p_b.min())))
    w = max(1, int(sd / kbins))
    k = np.arange(lo, hi + 1, w)  # bin j = [k_j, k_{j+1}); the last one ends at hi + 1
    ends = np.append(k, hi + 1)  # bin j = [ends_j, ends_{j+1}); P(K_b < ends_j) once each
    cdf = np.where(ends[None, :] > 0,
                   special.bdtr(np.maximum(ends - 1.0, 0.0)[None, :], n_b, p_b[:, None]), 0.0)
    weight = cdf[:, 1:] - cdf[:, :-1]
    outside = (np.where(lo > 0, special.bdtr(max(lo - 1.0, 0.0), n_b, p_b), 0.0)
               + special.bdtrc(float(hi), n_b, p_b))
    return k.astype(float), weight, outside
