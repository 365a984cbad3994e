"""An exact joint lower confidence bound for ε = log((p_a − δ)/p_b) from two binomial counts.

Why.  Bounding p_a from below and p_b from above separately (two Clopper–Pearson bounds at
α/2 each, Bonferroni) makes the two errors add as z_{α/2}·(σ_a/p_a + σ_b/p_b) in log-ratio
terms; inverting one exact test of the ratio pays about z_α·√((σ_a/p_a)² + (σ_b/p_b)²) instead —
at the Laplace audit of issue 8 (p_a ≈ 0.5, p_b ≈ 0.18) a width about 0.64× as large.

Test.  K_a ~ Bin(n_a, p_a), K_b ~ Bin(n_b, p_b) independent; δ ∈ [0, 1) fixed.  For c ≥ 1 the
null hypothesis is H(c): p_a ≤ c·p_b + δ (the event's probabilities are consistent with
(log c, δ)-DP).  The statistic does **not** depend on c:

    R = (K_a/n_a − δ) / (K_b/n_b)          (R = +∞ when K_b = 0 < K_a/n_a − δ),

large values are evidence against every H(c).  P(R ≥ r) increases in p_a and decreases in p_b,
so its supremum over H(c) lies on the boundary p_a = min(1, c·p_b + δ).  The nuisance p_b is
handled as in Berger & Boos (JASA 1994): with C_γ the two-sided Clopper–Pearson interval of p_b
at level 1 − γ,

    pval(c) = γ + sup_{p_b ∈ C_γ} P_{min(1, c·p_b + δ), p_b}(R ≥ r_obs)

is a valid p-value for H(c).  The supremum is bounded from above on a grid g_0 < … < g_G of C_γ
exactly as in :mod:`privlab.audit.diffbound` (cell [g_i, g_{i+1}] at the corner
p_a = min(1, c·g_{i+1} + δ), p_b = g_i), and P(R ≥ r) = Σ_k P(K_b = k)·P(K_a ≥ need(k)) with
need(k) = ⌈n_a(δ + r·k/n_b)⌉ non-decreasing in k (K_b summed in bins at each bin's low end, an
upper bound); need(0) = ⌊n_a·δ⌋ + 1 (R = +∞ there).

Nested tests.  Because R does not depend on c and the computed bound on pval is non-decreasing
in c (the corner p_a grows with c, P(R ≥ r) grows with p_a, nothing else depends on c), the
rejection regions are nested: rejecting H(c) rejects every H(c′) with c′ ≤ c.  Hence

    ε_lb = sup{ε ≥ 0 : pval(e^ε) ≤ α}      (found by a safeguarded search; 0 when pval(1) > α)

satisfies P(ε_lb > ε*) ≤ α for every (p_a, p_b), where ε* = log((p_a − δ)/p_b) is the event's
true privacy loss: if ε_lb > ε* then pval(e^{ε*}) ≤ α (nesting), an event of probability ≤ α
because H(e^{ε*}) is true.  The search (:func:`_refine`) only ever reports a point it has tested
and rejected, within TOL·max(1, ε_lb) of a point it has tested and not rejected.

Error budget.  α in total: γ = α/20 for the nuisance interval, the rest for the test.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import special

from privlab import _validate as v
from privlab.audit.binomgrid import kb_bins, window_pmf
from privlab.audit.bounds import cp_lower, cp_upper
from privlab.errors import InvalidParameter

GRID = 96
"""Cells of the nuisance interval C_γ (each costs ≈ σ_b/(GRID·p_b)/4 of tightness)."""
KBINS = 30
"""Bins of K_b per standard deviation."""
TAIL = 1e-12
EPS_MAX = 60.0
"""Largest ε tested (e^60 ≈ 1e26: beyond any finite sample's reach)."""
TOL = 2e-5
WINDOW_SD, WINDOW_PAD = 10.0, 40.0
"""Window of K_a evaluated per cell: mean ± (WINDOW_SD·sd + WINDOW_PAD) (tails beyond ~1e-20)."""

__all__ = ["RatioTest", "ratio_lower"]


class RatioTest:
    """The test of H(c) for fixed counts: everything that does not depend on c is built once.

    Statistic R = ((K_a + ½)/n_a − δ) / ((K_b + ½)/n_b) — the ½ keeps R finite and ordered by
    K_a when K_b = 0 (without it every K_b = 0 outcome would tie at +∞ and small-count
    structural leaks could never be rejected); any c-free statistic gives nested tests.
    """

    def __init__(self, k_a: int, n_a: int, k_b: int, n_b: int, delta: float, gamma: float):
        self.n_a, self.delta, self.gamma = n_a, delta, gamma
        lo_b, hi_b = float(cp_lower(k_b, n_b, gamma / 2)), float(cp_upper(k_b, n_b, gamma / 2))
        grid = np.linspace(lo_b, hi_b, GRID + 1)
        p_b = grid[:-1]
        self.g_hi = grid[1:]
        k, weight, self.outside = kb_bins(p_b, n_b, KBINS, TAIL)
        r = ((k_a + 0.5) / n_a - delta) / ((k_b + 0.5) / n_b)
        x = n_a * (delta + r * (k + 0.5) / n_b) - 0.5  # R ≥ r  ⇔  K_a ≥ x  (bin low end)
        need = np.ceil(x - 1e-9 * np.maximum(1.0, np.abs(x)))
        live = weight > TAIL * 1e-3
        self.rows, self.cols = np.nonzero(live)
        self.weight = weight[live]
        self.need = need[self.cols]
        self._start = np.searchsorted(self.rows, np.arange(GRID + 1))  # cell r's entries
        self._hot = 0

    def _window(self, c: float) -> tuple[NDArray[np.float64], NDArray[np.int64], int]:
        """(p_a, start, length): the corners p_a = min(1, c·g_hi + δ) and a window of K_a per
        cell, mean ± (WINDOW_SD·sd + WINDOW_PAD), all of one length (set by every cell, so
        that a cell's values do not depend on which cells are evaluated with it)."""
        p_a = np.minimum(1.0, c * self.g_hi + self.delta)
        mean = self.n_a * p_a
        reach = WINDOW_SD * np.sqrt(mean * (1.0 - p_a)) + WINDOW_PAD
        length = int(min(self.n_a + 1, 2 * math.ceil(float(reach.max())) + 1))
        start = np.clip(np.floor(mean - reach), 0, self.n_a + 1 - length).astype(np.int64)
        return p_a, start, length

    def _body(self, c: float, sl: slice = slice(None)) -> NDArray[np.float64]:
        """Σ_k P(K_b = k)·P(K_a ≥ need(k)) per cell, over the live entries ``sl``.

        P(K_a ≥ need) is read from the cell's window of K_a probabilities
        (:func:`~privlab.audit.binomgrid.window_pmf`): the window's upper tail sums plus the
        exact mass above it; below the window it is bounded by 1 and above it by the mass above
        the window (both upper bounds, P(K_a ≥ need) being non-increasing in need; the window
        reaches WINDOW_SD standard deviations, so the bounds are tight to ~1e-20)."""
        p_a, start, length = self._window(c)
        rows, need = self.rows[sl], self.need[sl]
        full = rows.size == self.rows.size  # every cell (rows sorted): no lookup needed
        cells = np.arange(GRID) if full else np.unique(rows)
        pmf, _, above = window_pmf(self.n_a, p_a[cells], start[cells], length)
        # rev[i, length − 1 − u] = P(K_a ≥ start + u): the tail sums kept in the reversed
        # order they are accumulated in (flipping them back cost three times the sums; the
        # former flipped form is the oracle of tests/audit/test_ratio_fastpaths.py)
        rev = np.cumsum(pmf[:, ::-1], axis=1)
        rev += above[:, None]
        local = rows if full else np.searchsorted(cells, rows)
        u = need.astype(np.int64) - start[rows]
        sf = np.where(need <= 0, 1.0, np.where(need > self.n_a, 0.0, np.where(
            u < 0, 1.0, np.where(u >= length, above[local],
                                 rev[local, length - 1 - np.clip(u, 0, length - 1)]))))
        return np.asarray(np.bincount(rows, weights=self.weight[sl] * sf, minlength=GRID),
                          dtype=np.float64)

    def pvalue(self, c: float, stop_above: float | None = None) -> float:
        """Upper bound on the p-value of H(c): p_a ≤ c·p_b + δ (module docstring).

        With ``stop_above``, the cells that were largest before (and cell 0) are summed first;
        when one of them already exceeds ``stop_above`` its value is returned — a lower bound
        on the full maximum, so ``pvalue(c, s) > s`` exactly when ``pvalue(c) > s`` (a cell's
        sum is the same float either way: same entries, same order)."""
        if stop_above is not None:
            for r in dict.fromkeys((self._hot, 0)):
                sl = slice(self._start[r], self._start[r + 1])
                part = self.gamma + min(1.0, float(self._body(c, sl)[r] + self.outside[r]))
                if part > stop_above:
                    return part
        cells = np.minimum(1.0, self._body(c) + self.outside)
        self._hot = int(np.argmax(cells))
        return self.gamma + float(cells[self._hot])


def ratio_lower(k_a: int, n_a: int, k_b: int, n_b: int, alpha: float, delta: float = 0.0, *,
                gamma: float | None = None) -> float:
    """Lower (1 − alpha) confidence bound on log((p_a − δ)/p_b), ≥ 0 (module docstring)."""
    n_a, n_b = v.positive_int("n_a", n_a), v.positive_int("n_b", n_b)
    for nm, k, n in (("k_a", k_a, n_a), ("k_b", k_b, n_b)):
        if not 0 <= int(k) <= n or int(k) != k:
            raise InvalidParameter(f"{nm}={k!r} must be an integer in [0, {n}]")
    alpha = v.in_open("alpha", alpha, 0.0, 1.0)
    delta = v.in_closed("delta", delta, 0.0, 1.0)
    if delta >= 1.0:
        raise InvalidParameter(f"delta={delta!r} must be < 1")
    g = alpha / 20.0 if gamma is None else v.in_open("gamma", gamma, 0.0, alpha)
    k_a, k_b = int(k_a), int(k_b)
    if k_a / n_a - delta <= 0:
        return 0.0
    test = RatioTest(k_a, n_a, k_b, n_b, delta, g)
    log_p: dict[float, float] = {}

    def rejected(e: float) -> bool:
        p = test.pvalue(math.exp(e), stop_above=alpha)  # exact below alpha, else ≥ alpha
        log_p[e] = math.log(p - g) if p > g else -math.inf  # for interpolation only
        return p <= alpha

    # bracket [lo, hi] (lo rejected, hi not), first tried near the normal-approximation bound;
    # ε = 0 needs no test once a larger ε is rejected (nested tests)
    pa, pb = (k_a + 0.5) / n_a, (k_b + 0.5) / n_b
    est = math.log((pa - delta) / pb) if pa > delta else 0.0
    var = (1 - pa) * pa / n_a / max(pa - delta, 1e-300) ** 2 + (1 - pb) / (n_b * pb)
    z = float(-special.ndtri(alpha))  # = scipy.stats.norm.isf
    lo, hi = 0.0, EPS_MAX
    zero_rejected = False
    guesses = (est - 1.3 * z * math.sqrt(var), est - 0.7 * z * math.sqrt(var)) if var > 0 else ()
    for guess in guesses:
        if lo < guess < hi:
            if rejected(guess):
                lo, zero_rejected = guess, True
            else:
                hi = guess
    if not zero_rejected and not rejected(0.0):
        return 0.0
    if hi == EPS_MAX:
        step = max(lo + 0.5, 2 * lo)
        while step < EPS_MAX and rejected(step):
            lo, step = step, 2 * step
        hi = min(step, EPS_MAX)
        if hi == EPS_MAX and rejected(EPS_MAX):
            return EPS_MAX
    return _refine(lo, hi, rejected, log_p, math.log(alpha - g))


def _refine(lo: float, hi: float, rejected: Any, log_p: dict[float, float],
            target: float) -> float:
    """Shrink the bracket [lo, hi] (lo rejected, hi not) to width TOL·max(1, lo); return lo.

    Each round interpolates log(pval − γ) linearly between the ends to estimate where it
    crosses log(α − γ) and tests the two points TOL/2 either side of the estimate (an accurate
    estimate ends the search in two tests); a round that does not halve the bracket is
    followed by a bisection step, so no more rounds are needed than bisection steps.  Only
    tested points become ends: the result is a point tested and rejected."""
    while hi - lo > TOL * max(1.0, lo):
        tol, width = TOL * max(1.0, lo), hi - lo
        a, b = log_p.get(lo, math.nan), log_p.get(hi, math.nan)
        x = lo + (target - a) / (b - a) * width if math.isfinite(a) and math.isfinite(b) \
            and b > a else 0.5 * (lo + hi)
        for y in (x - tol / 2, x + tol / 2):
            if lo < y < hi:
                if rejected(y):
                    lo = y
                else:
                    hi = y
        if hi - lo > width / 2 and hi - lo > TOL * max(1.0, lo):
            mid = 0.5 * (lo + hi)
            if rejected(mid):
                lo = mid
            else:
                hi = mid
    return lo
