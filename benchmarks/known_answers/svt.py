"""The six sparse vector variants of Lyu, Su & Li, "Understanding the Sparse Vector Technique
for Differential Privacy", PVLDB 10(6), 2017 (Figure 1, Table 1), re-implemented from the paper.

Queries q ∈ ℝᵐ of sensitivity Δ = 1 (neighbours change every answer by at most 1, in any
direction), threshold T = 1/2, ε = 1, ε₁ = ε/2 and ε₂ = ε − ε₁ unless stated.  Query i is
answered ⊤ when q_i + ν_i ≥ T + ρ.  Output: one row of m codes, 1 = ⊤, 0 = ⊥, −1 = not answered
(after the c-th ⊤); Algorithm 3 releases the noisy answer q_i + ν_i in place of ⊤ (⊥ and "not
answered" coded −10⁶ and −2·10⁶).

| Alg. | source | ρ | ν_i | cutoff | paper's verdict |
|---|---|---|---|---|---|
| 1 | Lyu et al. | Lap(Δ/ε₁) | Lap(2cΔ/ε₂) | c | ε-DP |
| 2 | Dwork & Roth 2014 | Lap(cΔ/ε₁), redrawn after each ⊤ | Lap(2cΔ/ε₁) | c | ε-DP |
| 3 | Roth 2011 | Lap(Δ/ε₁) | Lap(cΔ/ε₂) | c, outputs q_i + ν_i | ∞-DP |
| 4 | Lee & Clifton 2014 | Lap(Δ/ε₁), ε₁ = ε/4 | Lap(Δ/ε₂) | c | ((1 + 6c)/4)·ε-DP |
| 5 | Stoddard et al. 2014 | Lap(Δ/ε₁) | none | none | ∞-DP |
| 6 | Chen et al. 2015 | Lap(Δ/ε₁) | Lap(Δ/ε₂) | none | ∞-DP |

Exact law (:func:`pattern_law`).  Given ρ = r the answers are independent, so a pattern's
probability is ∫ f_ρ(r) Π_{answered i} P_i(r) dr with P_i(r) = P(q_i − T + ν_i ≥ r) for ⊤ and
its complement for ⊥ (an indicator when there is no ν) — piecewise exponential in r, integrated
in closed form (:mod:`.exact`).  Algorithm 2 redraws ρ after each ⊤, so its pattern probability
is the product of one such integral per segment ending in a ⊤.  Every pattern is enumerated
(7 with c = 1 and m = 6, 2⁶ = 64 without cutoff); the pair's ε is the largest pointwise
log-ratio.  Algorithms 1, 2, 4, 5 and 6 are audited on (0,0,0,1,1,1) vs (1,1,1,0,0,0), whose
loss is larger than that of the other standard pair 0⁶ vs 1⁶ for each of them (moving every
answer the same way acts like moving the threshold, and that loss stays near ε₁); Algorithm 3
on 0⁶ vs 1⁶, where its released values leak m·ε₂/c.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
from numpy.typing import NDArray

from . import KnownAnswer, entry
from . import exact as ex

Arr = NDArray[Any]
T = Fraction(1, 2)
M = 6
MIXED = ((0, 0, 0, 1, 1, 1), (1, 1, 1, 0, 0, 0))
SHIFT = ((0,) * M, (1,) * M)
BOT, NONE = -1e6, -2e6
REF = "Lyu, Su & Li, PVLDB 2017"


def sample_svt(q: tuple[int, ...], n: int, g: np.random.Generator, *, rho: Fraction,
               nu: Fraction | None, c: int | None, redraw: bool = False,
               numeric: bool = False) -> Arr:
    """n runs of the sparse vector variant on answers q: an (n, m) array of codes (module
    docstring).  ``rho``/``nu`` are the Laplace scales (``nu=None``: no query noise), ``c`` the
    cutoff (None: answer every query), ``redraw`` draws a fresh ρ (same scale) after each ⊤."""
    qa = np.asarray(q, dtype=float)
    lim = float(T) + g.laplace(0.0, float(rho), n)
    count = np.zeros(n, dtype=np.int64)
    out = np.empty((n, qa.size), dtype=float if numeric else np.int64)
    for i in range(qa.size):
        active = np.ones(n, dtype=bool) if c is None else count < c
        val = qa[i] + (g.laplace(0.0, float(nu), n) if nu is not None else 0.0)
        top = (val >= lim) & active
        if numeric:
            out[:, i] = np.where(top, val, np.where(active, BOT, NONE))
        else:
            out[:, i] = np.where(top, 1, np.where(active, 0, -1))
        count += top
        if redraw and top.any():
            fresh = float(T) + g.laplace(0.0, float(rho), n)
            lim = np.where(top, fresh, lim)
    return out


def patterns(m: int, c: int | None) -> list[tuple[int, ...]]:
    """Every output row of codes {1, 0, −1} with at most ``c`` ⊤ (after the c-th, −1)."""
    out: list[tuple[int, ...]] = []

    def rec(prefix: tuple[int, ...], tops: int) -> None:
        if len(prefix) == m:
            out.append(prefix)
            return
        if c is not None and tops >= c:
            rec((*prefix, -1), tops)
            return
        rec((*prefix, 1), tops + 1)
        rec((*prefix, 0), tops)

    rec((), 0)
    return out


def _answer(q_i: int, code: int, nu: Fraction | None) -> ex.Piecewise:
    """P(answer ``code`` to query i | ρ = r) as a function of r."""
    mu = Fraction(q_i) - T
    if nu is None:  # ⊤ iff q_i ≥ T + r
        return ex.indicator_below(mu) if code == 1 else ex.indicator_above(mu)
    return ex.laplace_sf(mu, nu) if code == 1 else ex.laplace_cdf(mu, nu)


def pattern_law(q: tuple[int, ...], *, rho: Fraction, nu: Fraction | None, c: int | None,
                redraw: bool = False) -> tuple[list[tuple[int, ...]], list[Any]]:
    """Every output pattern and its exact probability (mpf, :data:`.exact.DPS` digits)."""
    pats = patterns(len(q), c)
    probs = []
    with mpmath.workdps(ex.DPS):
        for pat in pats:
            segments: list[list[ex.Piecewise]] = [[]]
            for i, code in enumerate(pat):
                if code == -1:
                    continue
                segments[-1].append(_answer(q[i], code, nu))
                if code == 1 and redraw:
                    segments.append([])
            p = mpmath.mpf(1)
            for seg in segments:
                p *= ex.integrate_product([ex.laplace_pdf(0, rho), *seg])
            probs.append(p)
    return pats, probs


def _pattern_entry(name: str, alg: int, *, rho: Fraction, nu: Fraction | None, c: int | None,
                   redraw: bool = False) -> KnownAnswer:
    a, b = MIXED

    def side(q: tuple[int, ...]) -> Any:
        def s(n: int, g: np.random.Generator) -> Arr:
            return sample_svt(q, n, g, rho=rho, nu=nu, c=c, redraw=redraw)
        return s

    def truth() -> float:
        _, pa = pattern_law(a, rho=rho, nu=nu, c=c, redraw=redraw)
        _, pb = pattern_law(b, rho=rho, nu=nu, c=c, redraw=redraw)
        return ex.pure_epsilon(pa, pb)

    return KnownAnswer(name=name, family="sparse vector", pair="q = (0,0,0,1,1,1) vs (1,1,1,0,0,0)",
                       sample_a=side(a), sample_b=side(b), claimed_epsilon=1.0, truth=truth,
                       reference=f"{REF}, Alg. {alg}", cost=4.0)


@entry
def svt1() -> KnownAnswer:
    """SVT Algorithm 1 of Lyu et al. (their proposal), c = 1: ρ ~ Lap(2), ν_i ~ Lap(4) (ε = 1,
    ε₁ = ε₂ = 1/2, Δ = 1), stop after the first ⊤.  ε-DP (Lyu et al. Thm 2).  True ε on
    (0,0,0,1,1,1) vs (1,1,1,0,0,0): exact enumeration of the 7 output patterns
    (:func:`pattern_law`), ≈ 0.711 < 1."""
    return _pattern_entry("svt1", 1, rho=Fraction(2), nu=Fraction(4), c=1)


@entry
def svt2() -> KnownAnswer:
    """SVT Algorithm 2 (Dwork & Roth 2014, as listed by Lyu et al.), c = 2: ρ ~ Lap(c/ε₁) =
    Lap(4), redrawn from Lap(c/ε₂) = Lap(4) after each ⊤, ν_i ~ Lap(2c/ε₁) = Lap(8).  ε-DP.  The
    redraw makes a pattern's probability a product of one integral per segment ending in ⊤;
    exact enumeration of the 22 patterns on (0,0,0,1,1,1) vs (1,1,1,0,0,0): true ε ≈ 0.440."""
    return _pattern_entry("svt2", 2, rho=Fraction(4), nu=Fraction(8), c=2, redraw=True)


# ---- Algorithm 3: released values ----------------------------------------------------------
def svt3_density(q: tuple[int, ...], k: int, v: Fraction, *, rho: Fraction = Fraction(2),
                 nu: Fraction = Fraction(2)) -> Any:
    """Density of the Algorithm-3 output "⊥ for queries 1 … k−1, value v at query k" (c = 1):
    f_ν(v − q_k)·∫ f_ρ(r)·1[r ≤ v − T]·Π_{i<k} P(q_i − T + ν_i < r) dr (inside workdps)."""
    integ = ex.integrate_product([ex.laplace_pdf(0, rho), ex.indicator_below(v - T),
                                  *(ex.laplace_cdf(Fraction(q[i]) - T, nu) for i in range(k - 1))])
    return ex.laplace_pdf(q[k - 1], nu).value_at(v) * integ


def svt3_truth(m: int = M) -> float:
    """The exact ε of Algorithm 3 (c = 1, ε = 1) on 0ᵐ vs 1ᵐ (see :func:`svt3`)."""
    a, b = (0,) * m, (1,) * m
    with mpmath.workdps(ex.DPS):
        v = Fraction(-1)
        best = max(abs(mpmath.log(svt3_density(a, k, v) / svt3_density(b, k, v)))
                   for k in range(1, m + 1))
        _, pa = pattern_law(a, rho=Fraction(2), nu=Fraction(2), c=1)
        _, pb = pattern_law(b, rho=Fraction(2), nu=Fraction(2), c=1)
        none = abs(mpmath.log(pa[-1] / pb[-1]))  # the last pattern: no ⊤ at all
        return float(max(best, none))


@entry
def svt3() -> KnownAnswer:
    """SVT Algorithm 3 (Roth 2011 lecture notes, as listed by Lyu et al.), c = 1, claimed ε = 1:
    ρ ~ Lap(Δ/ε₁) = Lap(2), ν_i ~ Lap(cΔ/ε₂) = Lap(2), and the first query above the noisy
    threshold releases its noisy answer q_k + ν_k.  Pair 0⁶ vs 1⁶ (m = 6, every answer moves by
    Δ = 1).

    Derivation.  The output "⊥ for 1 … k−1, value v at k" has density
    g_q(k, v) = f_ν(v − q)·∫_{r ≤ v−T} f_ρ(r)·F_ν(T + r − q)^{k−1} dr.  The ρ-density does not
    depend on q (the threshold is not shifted), so the ratio g₀/g₁ is at most
    sup f_ν(v)/f_ν(v − 1) · sup_r (F_ν(x)/F_ν(x − 1))^{k−1} ≤ e^{1/2}·e^{(k−1)/2} = e^{k/2}, and
    for v ≤ 0 every argument is in the lower tail (T + r − q ≤ v ≤ 0) where both bounds hold with
    equality: g₀(k, v)/g₁(k, v) = e^{k/2} exactly.  The other direction is at most e^{1/2}, and
    the "no ⊤" atom's ratio is below e^{m/2}.  So the pair's loss is m·ε₂/c = m/2 = 3.0 exactly,
    attained on {⊥ for queries 1–5, value ≤ 0 at query 6}; it grows without bound in m (Lyu et
    al. Table 1: ∞-DP).  The code evaluates the density ratio at v = −1 for every k and the "no
    ⊤" atom with the exact integrals (:func:`svt3_density`); the result is 3.0 to 40 digits."""
    a, b = SHIFT

    def side(q: tuple[int, ...]) -> Any:
        def s(n: int, g: np.random.Generator) -> Arr:
            return sample_svt(q, n, g, rho=Fraction(2), nu=Fraction(2), c=1, numeric=True)
        return s

    return KnownAnswer(name="svt3", family="sparse vector", pair="q = 0⁶ vs 1⁶",
                       sample_a=side(a), sample_b=side(b), claimed_epsilon=1.0,
                       truth=svt3_truth, reference=f"{REF}, Alg. 3", cost=4.0)


@entry
def svt4() -> KnownAnswer:
    """SVT Algorithm 4 (Lee & Clifton 2014, as listed by Lyu et al.), c = 1: ε₁ = ε/4, ρ ~
    Lap(4), ν_i ~ Lap(1/ε₂) = Lap(4/3) — claimed ε-DP; Lyu et al. show ((1 + 6c)/4)·ε = 1.75
    (an upper bound, not known to be tight).  Exact enumeration on (0,0,0,1,1,1) vs
    (1,1,1,0,0,0): true ε on this pair ≈ 1.580 > 1."""
    return _pattern_entry("svt4", 4, rho=Fraction(4), nu=Fraction(4, 3), c=1)


@entry
def svt5() -> KnownAnswer:
    """SVT Algorithm 5 (Stoddard et al. 2014, as listed by Lyu et al.): ρ ~ Lap(2), no query
    noise, no cutoff.  Query i is ⊤ iff q_i ≥ T + ρ, so the whole row is a deterministic function
    of ρ.  On (0,0,0,1,1,1) vs (1,1,1,0,0,0) with T = 1/2, ρ ∈ (−1/2, 1/2) gives (⊥⊥⊥⊤⊤⊤) under
    the first input and (⊤⊤⊤⊥⊥⊥) under the second; neither row is possible under the other
    input: true ε = ∞ (exact pattern law; Lyu et al. Table 1: ∞-DP)."""
    return _pattern_entry("svt5", 5, rho=Fraction(2), nu=None, c=None)


@entry
def svt6() -> KnownAnswer:
    """SVT Algorithm 6 (Chen et al. 2015, as listed by Lyu et al.): ρ ~ Lap(2), ν_i ~ Lap(2), no
    cutoff — ∞-DP as the number of queries grows (Lyu et al. Table 1), finite for fixed m.
    Exact enumeration of all 2⁶ patterns on (0,0,0,1,1,1) vs (1,1,1,0,0,0): true ε ≈ 2.369."""
    return _pattern_entry("svt6", 6, rho=Fraction(2), nu=Fraction(2), c=None)
