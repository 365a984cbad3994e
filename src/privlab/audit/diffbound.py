"""An exact lower confidence bound for δ = p_a − c·p_b from two independent binomial counts.

Why.  At a fixed ε the hockey-stick divergence of one event is δ(S) = P_a(S) − e^ε P_b(S).
Bounding p_a from below and p_b from above separately (Clopper–Pearson, Bonferroni) wastes
confidence: the two errors add as z·(σ_a + c·σ_b) instead of z·√(σ_a² + c²σ_b²).  Here δ is
bounded by inverting one exact test of the difference.

Test.  K_a ~ Bin(n_a, p_a), K_b ~ Bin(n_b, p_b) independent, c > 0, statistic
T = K_a/n_a − c·K_b/n_b with observed value t.  For δ₀ ≥ 0 the null hypothesis is
H(δ₀): p_a − c·p_b ≤ δ₀.  P(T ≥ t) increases in p_a and decreases in p_b, so its supremum over
H(δ₀) lies on the boundary p_a = min(1, δ₀ + c·p_b).  The nuisance p_b is handled as Berger &
Boos (JASA 1994): with C_γ the two-sided Clopper–Pearson interval of p_b at level 1 − γ,

    pval(δ₀) = γ + sup_{p_b ∈ C_γ} P_{δ₀ + c·p_b, p_b}(T ≥ t)

is a valid p-value.  The supremum is bounded *from above* on a grid g_0 < … < g_G of C_γ: on a
cell [g_i, g_{i+1}] the boundary point has p_a ≤ δ₀ + c·g_{i+1} and p_b ≥ g_i, so by the two
monotonicities P(T ≥ t) ≤ P_{δ₀ + c·g_{i+1}, g_i}(T ≥ t) — the grid only costs tightness, never
validity.  Each probability is the finite sum Σ_k P(K_b = k) · P(K_a ≥ ⌈n_a(t + c·k/n_b)⌉) over
the central range of K_b, plus the (tiny) mass of K_b outside it.  pval is non-decreasing in δ₀
(the nulls are nested), so the bound

    δ_lb = the largest δ₀ on a bisection grid with pval(δ₀) ≤ α

satisfies P(δ_lb ≥ δ) ≤ α for every (p_a, p_b): if δ_lb ≥ δ then pval(δ) ≤ pval(δ_lb) ≤ α,
an event of probability ≤ α under H(δ).  δ_lb = 0 when even δ₀ = 0 is not rejected.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from privlab import _validate as v
from privlab.audit.binomgrid import kb_bins
from privlab.audit.bounds import cp_lower, cp_upper

GRID = 48
"""Cells of the nuisance interval C_γ."""
KBINS = 25
"""Bins of K_b per standard deviation (K_b is summed in bins, bounded by each bin's low end)."""
TAIL = 1e-12
STEPS = 40


def _pval(d0: float, t: float, n_a: int, n_b: int, c: float, grid: np.ndarray,
          gamma: float) -> float:
    """γ + an upper bound on sup_{p_b ∈ C_γ} P(T ≥ t) on the boundary of H(d0).

    Cell i = [g_i, g_{i+1}] is bounded at the corner p_a = min(1, d0 + c·g_{i+1}), p_b = g_i
    (module docstring).  For one corner, P(T ≥ t) = Σ_k P(K_b = k)·P(K_a ≥ need(k)) with need
    non-decreasing in k; the k-axis is cut into bins [k_j, k_{j+1}) and each bin's P(K_a ≥ ·)
    is taken at its low end k_j (an upper bound), plus the mass of K_b outside the range.
    """
    p_b = grid[:-1]
    p_a = np.minimum(1.0, d0 + c * grid[1:])  # cells past p_b = (1 − d0)/c: p_a = 1 is in H
    k, weight, outside = kb_bins(p_b, n_b, KBINS, TAIL)
    x = n_a * (t + c * k / n_b)
    need = np.ceil(x - 1e-9 * np.maximum(1.0, np.abs(x)))  # rounding down only enlarges P
    from scipy import stats  # not at import: scipy.stats costs ~0.5 s

    sf = stats.binom.sf(need[None, :] - 1, n_a, p_a[:, None])
    body = np.sum(weight * sf, axis=1)
    return gamma + float(np.max(np.minimum(1.0, body + outside)))


def delta_lower(k_a: int, n_a: int, k_b: int, n_b: int, c: float, alpha: float, *,
                gamma: float | None = None) -> float:
    """Lower (1 − alpha) confidence bound on p_a − c·p_b (module docstring); ≥ 0."""
    n_a, n_b = v.positive_int("n_a", n_a), v.positive_int("n_b", n_b)
    c = v.positive("c", c)
    alpha = v.in_open("alpha", alpha, 0.0, 1.0)
    g = alpha / 20.0 if gamma is None else v.in_open("gamma", gamma, 0.0, alpha)
    t = k_a / n_a - c * k_b / n_b
    if t <= 0:
        return 0.0
    lo_b, hi_b = float(cp_lower(k_b, n_b, g / 2)), float(cp_upper(k_b, n_b, g / 2))
    grid = np.linspace(lo_b, hi_b, GRID + 1)
    if _pval(0.0, t, n_a, n_b, c, grid, g) > alpha:
        return 0.0
    # bracket [lo, hi] with pval(lo) <= alpha < pval(hi), first tried near the normal bound
    lo, hi = 0.0, t
    sd = math.sqrt((k_a / n_a) * (1 - k_a / n_a) / n_a + c * c * (k_b / n_b)
                   * (1 - k_b / n_b) / n_b)
    z = float(-special.ndtri(alpha))  # = scipy.stats.norm.isf
    for f_lo, f_hi in ((1.25, 0.85), (2.0, 0.5)):
        a, b = t - f_lo * z * sd, t - f_hi * z * sd
        if a > lo and _pval(a, t, n_a, n_b, c, grid, g) <= alpha:
            lo = a
            if b > lo and _pval(b, t, n_a, n_b, c, grid, g) > alpha:
                hi = b
            break
    for _ in range(STEPS):
        mid = 0.5 * (lo + hi)
        if _pval(mid, t, n_a, n_b, c, grid, g) <= alpha:
            lo = mid
        else:
            hi = mid
        if hi - lo < max(1e-6, 1e-4 * t):
            break
    return lo


def delta_lower_cp(k_a: int, n_a: int, k_b: int, n_b: int, c: float, alpha: float) -> float:
    """The Bonferroni bound max(0, CP_lower(k_a; α/2) − c·CP_upper(k_b; α/2)) (for comparison)."""
    lo = float(cp_lower(k_a, n_a, alpha / 2))
    hi = float(cp_upper(k_b, n_b, alpha / 2))
    return max(0.0, lo - c * hi)
