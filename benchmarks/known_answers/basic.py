"""Randomized response, the geometric and exponential mechanisms, noisy histograms, partial and
prefix sums: closed-form truths.

Randomized response draws ``rng.integers(0, D)`` and compares with integer thresholds, so its
law is exactly rational (numpy's bounded integers are unbiased) and the truth is about the
implementation itself.  The others draw floating-point noise; their truth is about the law.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
from numpy.typing import NDArray

from . import KnownAnswer, entry
from . import exact as ex

Arr = NDArray[Any]


# ---- randomized response --------------------------------------------------------------------
def _rr_law(table: list[list[int]], d: int) -> list[list[Fraction]]:
    """Output law per input: table[x][o] = number of the d equally likely integers giving o."""
    return [[Fraction(c, d) for c in row] for row in table]


def _binary_rr(keep: int, d: int) -> tuple[Any, Any, list[list[Fraction]]]:
    def side(x: int) -> Any:
        def s(n: int, g: np.random.Generator) -> Arr:
            u = g.integers(0, d, n)
            return np.where(u < keep, x, 1 - x).astype(np.int64)
        return s
    law = _rr_law([[keep, d - keep], [d - keep, keep]], d)
    return side(0), side(1), law


@entry
def rr_binary() -> KnownAnswer:
    """Binary randomized response with γ = 1/2: report the true bit with probability
    (1 + γ)/2 = 3/4, else its complement (Warner 1965; the γ-form of e.g. Wang, Blocki, Li &
    Jha, USENIX Security 2017).  P(o = x) / P(o ≠ x) = (1 + γ)/(1 − γ) = 3, so the pair 0 vs 1
    has ε = ln((1 + γ)/(1 − γ)) = ln 3 exactly (each output's probability ratio is 3 or 1/3).
    The sampler draws u ∈ {0, …, 3} and reports x iff u < 3: the implementation's law is
    exactly (3/4, 1/4), enumerated in :func:`_rr_law`."""
    a, b, law = _binary_rr(3, 4)
    return KnownAnswer(name="rr-binary", family="randomized response", pair="x = 0 vs x = 1",
                       sample_a=a, sample_b=b, claimed_epsilon=math.log(3),
                       truth=lambda: ex.pure_epsilon(law[0], law[1]), target="implementation",
                       reference="Warner 1965", cost=0.4)


@entry
def rr_binary_broken() -> KnownAnswer:
    """Binary randomized response claiming ε = 1 (keep probability e/(1 + e) ≈ 0.731) but
    keeping the true bit with probability 9/10 (u ∈ {0, …, 9}, report x iff u < 9).  The output
    law is exactly (9/10, 1/10) against (1/10, 9/10): true ε = ln 9 ≈ 2.197 (Warner 1965)."""
    a, b, law = _binary_rr(9, 10)
    return KnownAnswer(name="rr-binary-broken", family="randomized response",
                       pair="x = 0 vs x = 1", sample_a=a, sample_b=b, claimed_epsilon=1.0,
                       truth=lambda: ex.pure_epsilon(law[0], law[1]), target="implementation",
                       reference="Warner 1965", cost=0.4)


def _kary(d: int, mapping: Any, k: int) -> tuple[Any, Any, list[list[Fraction]]]:
    """k-ary RR from u ∈ {0, …, d − 1}: the output is (x + mapping(u)) mod k."""
    offs = np.array([mapping(u) for u in range(d)], dtype=np.int64)

    def side(x: int) -> Any:
        def s(n: int, g: np.random.Generator) -> Arr:
            return (x + offs[g.integers(0, d, n)]) % k
        return s

    table = [[int(np.sum((x + offs) % k == o)) for o in range(k)] for x in (0, 1)]
    return side(0), side(1), _rr_law(table, d)


@entry
def rr_kary() -> KnownAnswer:
    """4-ary randomized response (direct encoding, generalized RR): report the true value with
    probability p = e^ε/(e^ε + k − 1), each other value with probability 1/(e^ε + k − 1)
    (Kairouz, Oh & Viswanath 2014; Wang et al. 2017).  With k = 4 and ε = ln 3 this is p = 1/2,
    q = 1/6: the sampler draws u ∈ {0, …, 5}, reports x for u < 3 and x + 1 + (u − 3) mod 4
    otherwise — the law is exactly (1/2, 1/6, 1/6, 1/6) rotated by x.  On the pair 0 vs 1 the
    largest output ratio is p/q = 3: true ε = ln 3 exactly (enumerated)."""
    a, b, law = _kary(6, lambda u: 0 if u < 3 else 1 + (u - 3), 4)
    return KnownAnswer(name="rr-4ary", family="randomized response", pair="x = 0 vs x = 1",
                       sample_a=a, sample_b=b, claimed_epsilon=math.log(3),
                       truth=lambda: ex.pure_epsilon(law[0], law[1]), target="implementation",
                       reference="Kairouz, Oh & Viswanath 2014", cost=0.4)


@entry
def rr_kary_mixing() -> KnownAnswer:
    """4-ary randomized response in the "mixing" form — with probability t report the truth,
    otherwise a uniform value of all k (the truth included) — with t set by the direct-encoding
    formula t = e^ε/(e^ε + k − 1) = 1/2 for the claimed ε = ln 3 (a known slip: the two forms
    need different t).  The truth is then reported with probability t + (1 − t)/k = 5/8 and each
    other value with (1 − t)/k = 1/8 (u ∈ {0, …, 7}: x for u < 4, else u − 4).  True ε on 0 vs 1
    = ln((5/8)/(1/8)) = ln 5 ≈ 1.609 > ln 3 (exact enumeration; Kairouz et al. 2014 for the
    forms)."""
    def side(x: int) -> Any:  # "uniform over all k" ignores x: the output is u − 4
        def s(n: int, g: np.random.Generator) -> Arr:
            u = g.integers(0, 8, n)
            return np.where(u < 4, x, u - 4).astype(np.int64)
        return s

    table = [[sum(1 for u in range(8) if (x if u < 4 else u - 4) == o) for o in range(4)]
             for x in (0, 1)]
    law = _rr_law(table, 8)
    return KnownAnswer(name="rr-4ary-mixing", family="randomized response",
                       pair="x = 0 vs x = 1", sample_a=side(0), sample_b=side(1),
                       claimed_epsilon=math.log(3),
                       truth=lambda: ex.pure_epsilon(law[0], law[1]), target="implementation",
                       reference="Kairouz, Oh & Viswanath 2014", cost=0.4)


# ---- geometric and exponential mechanisms ---------------------------------------------------
@entry
def geometric() -> KnownAnswer:
    """Two-sided geometric mechanism (Ghosh, Roughgarden & Sundararajan 2009): x + G₁ − G₂ with
    G ~ Geometric(1 − e^{−ε}) i.i.d., so P(k) = (1 − r)/(1 + r)·r^{|k|}, r = e^{−ε}.  On the pair
    0 vs 1, P(k)/P(k − 1) = r^{|k| − |k − 1|} ∈ {r, 1/r}: true ε = ε = 1 exactly (law; numpy's
    geometric sampler is a floating-point inverse transform)."""
    eps = 1.0
    p = -math.expm1(-eps)

    def side(x: int) -> Any:
        def s(n: int, g: np.random.Generator) -> Arr:
            return x + g.geometric(p, n) - g.geometric(p, n)
        return s

    def truth() -> float:
        with mpmath.workdps(ex.DPS):
            r = mpmath.exp(-mpmath.mpf(eps))
            ks = range(-60, 62)
            pmf = [(1 - r) / (1 + r) * r ** abs(k) for k in ks]
            shifted = [(1 - r) / (1 + r) * r ** abs(k - 1) for k in ks]
            return ex.pure_epsilon(pmf, shifted)

    return KnownAnswer(name="geometric", family="noise", pair="x = 0 vs x = 1",
                       sample_a=side(0), sample_b=side(1), claimed_epsilon=eps, truth=truth,
                       reference="Ghosh, Roughgarden & Sundararajan 2009", cost=0.5)


EM_A = (0.0, 1.0, 1.0, 1.0, 1.0)
EM_B = (1.0, 0.0, 0.0, 0.0, 0.0)


def _em(factor: float, eps: float) -> tuple[Any, Any, Any]:
    def probs(u: tuple[float, ...]) -> Arr:
        w = np.exp(factor * eps * np.asarray(u))
        return np.asarray(w / w.sum())

    def side(u: tuple[float, ...]) -> Any:
        cum = np.cumsum(probs(u))

        def s(n: int, g: np.random.Generator) -> Arr:
            return np.minimum(np.searchsorted(cum, g.random(n), side="right"), len(u) - 1)
        return s

    def truth() -> float:
        with mpmath.workdps(ex.DPS):
            def law(u: tuple[float, ...]) -> list[Any]:
                w = [mpmath.exp(mpmath.mpf(factor) * eps * mpmath.mpf(x)) for x in u]
                z = mpmath.fsum(w)
                return [x / z for x in w]
            return ex.pure_epsilon(law(EM_A), law(EM_B))

    return side(EM_A), side(EM_B), truth


@entry
def exponential_mechanism() -> KnownAnswer:
    """Exponential mechanism over 5 candidates, P(r) ∝ exp(ε·u(r)/(2Δu)) (McSherry & Talwar
    2007), ε = 1, utilities u_a = (0, 1, 1, 1, 1) against u_b = (1, 0, 0, 0, 0) (Δu = 1).
    True ε on this pair, by exact enumeration of the two laws: max_r |log P_a(r)/P_b(r)|; the
    largest ratio is at r = 0: log((e^{1/2}/(e^{1/2} + 4))·(1 + 4e^{1/2})) ≈ 0.796 < ε (the
    worst case over all utilities is ε, approached only as the other scores go to −∞)."""
    a, b, t = _em(0.5, 1.0)
    return KnownAnswer(name="exponential-mechanism", family="exponential mechanism",
                       pair="u = (0,1,1,1,1) vs (1,0,0,0,0)", sample_a=a, sample_b=b,
                       claimed_epsilon=1.0, truth=t, reference="McSherry & Talwar 2007",
                       cost=0.5)


@entry
def exponential_mechanism_no_half() -> KnownAnswer:
    """Exponential mechanism without the 1/2: P(r) ∝ exp(ε·u(r)) claimed ε-DP (a classic slip:
    the ε/(2Δu) scaling is needed because the normaliser moves too).  Same 5 candidates and pair
    as ``exponential-mechanism``; the exact law gives max_r |log P_a(r)/P_b(r)| at r = 0:
    log((e/(e + 4))·(1 + 4e)) ≈ 1.569 > 1 (McSherry & Talwar 2007 for the correct scaling)."""
    a, b, t = _em(1.0, 1.0)
    return KnownAnswer(name="exponential-mechanism-no-half", family="exponential mechanism",
                       pair="u = (0,1,1,1,1) vs (1,0,0,0,0)", sample_a=a, sample_b=b,
                       claimed_epsilon=1.0, truth=t, reference="McSherry & Talwar 2007",
                       cost=0.5)


# ---- noisy histograms -----------------------------------------------------------------------
def _additive(x: tuple[float, ...], scale: float) -> Any:
    c = np.asarray(x, dtype=float)

    def s(n: int, g: np.random.Generator) -> Arr:
        out = g.laplace(0.0, scale, (n, c.size))
        out += c[None, :]
        return out
    return s


def _product_laplace_epsilon(a: tuple[float, ...], b: tuple[float, ...], scale: float) -> float:
    """sup over y of log Π_i f(y_i − a_i)/f(y_i − b_i) for f = Lap(scale): Σ_i |a_i − b_i|/scale,
    attained on the orthant where every changed coordinate lies beyond both centres on the
    side of a_i (an event of positive probability)."""
    return float(sum(abs(Fraction(x) - Fraction(y)) for x, y in zip(a, b, strict=True))
                 / Fraction(scale))


H_ADD = ((1.0, 1.0, 1.0, 1.0, 1.0), (2.0, 1.0, 1.0, 1.0, 1.0))
H_SUB = ((2.0, 1.0, 1.0, 1.0, 1.0), (1.0, 2.0, 1.0, 1.0, 1.0))


@entry
def histogram() -> KnownAnswer:
    """Noisy histogram, Lap(1/ε) on each of 5 cells, ε = 1, add/remove neighbours (one cell
    changes by 1): counts (1,1,1,1,1) vs (2,1,1,1,1).  The density ratio is
    exp((|y₀ − 2| − |y₀ − 1|)/b) with b = 1: true ε = |Δ|/b = 1 exactly, attained on
    {y₀ ≤ 1} (Dwork, McSherry, Nissim & Smith 2006)."""
    (a, b), s = H_ADD, 1.0
    return KnownAnswer(name="histogram", family="histogram", pair="(1,1,1,1,1) vs (2,1,1,1,1)",
                       sample_a=_additive(a, s), sample_b=_additive(b, s), claimed_epsilon=1.0,
                       truth=lambda: _product_laplace_epsilon(a, b, s),
                       reference="Dwork, McSherry, Nissim & Smith 2006", cost=2.0)


@entry
def histogram_wrong_scale() -> KnownAnswer:
    """Noisy histogram with Lap(ε) instead of Lap(1/ε) per cell, ε = 0.5 (StatDP's "histogram
    with the wrong scale", Ding, Wang, Wang, Zhang & Kifer, CCS 2018).  Same add/remove pair as
    ``histogram``; one cell moves by 1 under noise of scale 0.5: true ε = 1/0.5 = 2 exactly."""
    (a, b), s = H_ADD, 0.5
    return KnownAnswer(name="histogram-wrong-scale", family="histogram",
                       pair="(1,1,1,1,1) vs (2,1,1,1,1)", sample_a=_additive(a, s),
                       sample_b=_additive(b, s), claimed_epsilon=0.5,
                       truth=lambda: _product_laplace_epsilon(a, b, s),
                       reference="Ding et al. 2018 (StatDP)", cost=2.0)


@entry
def histogram_substitute() -> KnownAnswer:
    """Noisy histogram with Lap(1/ε), ε = 1, claimed ε-DP but used under *substitution*
    neighbours (one record changes cell: two counts move by 1 in opposite directions):
    (2,1,1,1,1) vs (1,2,1,1,1).  The density ratio is a product over the two cells; its
    supremum Σ|Δ_i|/b = 2 is attained on the product event {y₀ ≥ 2} ∩ {y₁ ≤ 1} (probability
    1/4 under the first input): true ε = 2 exactly, and only a two-dimensional event reaches it
    (Dwork & Roth 2014, §3.3, for the L1 sensitivity 2 of substitution)."""
    (a, b), s = H_SUB, 1.0
    return KnownAnswer(name="histogram-substitute", family="histogram",
                       pair="(2,1,1,1,1) vs (1,2,1,1,1)", sample_a=_additive(a, s),
                       sample_b=_additive(b, s), claimed_epsilon=1.0,
                       truth=lambda: _product_laplace_epsilon(a, b, s),
                       reference="Dwork & Roth 2014 §3.3", cost=2.0)


# ---- partial and prefix sums ----------------------------------------------------------------
PS_A = (0.0, 0.0, 0.0, 0.0)
PS_B = (1.0, 0.0, 0.0, 0.0)


def _partial_sum(x: tuple[float, ...], scale: float) -> Any:
    total = float(sum(x))

    def s(n: int, g: np.random.Generator) -> Arr:
        return total + g.laplace(0.0, scale, n)
    return s


def _prefix_sums(x: tuple[float, ...], scale: float) -> Any:
    pre = np.cumsum(np.asarray(x, dtype=float))
    return _additive(tuple(pre.tolist()), scale)


@entry
def partial_sum() -> KnownAnswer:
    """PartialSum: release Σ_i q_i + Lap(1/ε) for a stream q ∈ ℝ⁴ whose neighbours differ by 1
    in one element (the LightDP / ShadowDP / CheckDP benchmark program; Zhang & Kifer, POPL
    2017; Wang, Ding, Kifer & Zhang, CCS 2020).  Inputs (0,0,0,0) vs (1,0,0,0): the released sum
    moves by 1 under Laplace noise of scale 1: true ε = 1 exactly."""
    s = 1.0
    return KnownAnswer(name="partial-sum", family="partial sums",
                       pair="q = (0,0,0,0) vs (1,0,0,0)", sample_a=_partial_sum(PS_A, s),
                       sample_b=_partial_sum(PS_B, s), claimed_epsilon=1.0,
                       truth=lambda: _product_laplace_epsilon((0.0,), (1.0,), s),
                       reference="Zhang & Kifer 2017 (LightDP); Wang et al. 2020 (CheckDP)",
                       cost=0.5)


@entry
def prefix_sums_broken() -> KnownAnswer:
    """PrefixSum released with Lap(1/ε) on *each* of the m = 4 prefix sums S_j = q₁ + … + q_j,
    claimed ε-DP because each S_j has sensitivity 1 (composition forgotten; the prefix-sum
    program of the CheckDP benchmark, Wang et al. CCS 2020).  Inputs (0,0,0,0) vs (1,0,0,0): all
    four prefix sums move by 1, the noises are independent, so the density ratio is a product of
    four Laplace shift ratios: sup = 4·ε = 4 exactly, attained on {max_j y_j ≤ 0} (each factor is
    exactly e there; probability 1/16 under the first input)."""
    s = 1.0
    return KnownAnswer(name="prefix-sums-broken", family="partial sums",
                       pair="q = (0,0,0,0) vs (1,0,0,0)", sample_a=_prefix_sums(PS_A, s),
                       sample_b=_prefix_sums(PS_B, s), claimed_epsilon=1.0,
                       truth=lambda: _product_laplace_epsilon((0.0,) * 4, (1.0,) * 4, s),
                       reference="Wang et al. 2020 (CheckDP)", cost=2.0)


@entry
def prefix_sums() -> KnownAnswer:
    """PrefixSum with the noise scaled for composition: Lap(m/ε) on each of the m = 4 prefix
    sums, ε = 1.  Inputs (0,0,0,0) vs (1,0,0,0) move all four by 1: true ε = 4·(1/4) = 1 exactly
    (product of four Laplace shift ratios, attained on {max_j y_j ≤ 0}; Dwork & Roth 2014
    Thm 3.16 for the composition)."""
    s = 4.0
    return KnownAnswer(name="prefix-sums", family="partial sums",
                       pair="q = (0,0,0,0) vs (1,0,0,0)", sample_a=_prefix_sums(PS_A, s),
                       sample_b=_prefix_sums(PS_B, s), claimed_epsilon=1.0,
                       truth=lambda: _product_laplace_epsilon((0.0,) * 4, (1.0,) * 4, s),
                       reference="Dwork & Roth 2014", cost=2.0)
