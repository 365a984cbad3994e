"""Gaussian mechanism (both objectives, several σ) and the discrete Gaussian.

Continuous: x + N(0, σ²) on inputs 0 and 1 (Δ = 1).  Its exact privacy profile is
δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε·Φ(−Δ/(2σ) − εσ/Δ) (Balle & Wang, "Improving the Gaussian
Mechanism for Differential Privacy", ICML 2018, Theorem 8), and ε at a given δ is its root
(:func:`.exact.gaussian_epsilon`); both are exact for the law (the float64 sampler realises it up
to rounding).  Claims come from the classical calibration σ = √(2 ln(1.25/δ))·Δ/ε (Dwork & Roth
2014, Thm A.1, valid for ε < 1) or are stated per entry.

Discrete: the discrete Gaussian N_ℤ(0, σ²), P(k) ∝ e^{−k²/(2σ²)} (Canonne, Kamath & Steinke,
NeurIPS 2020), drawn by an exact table sampler — u uniform on {0, …, 2⁶² − 1} (numpy's unbiased
bounded integers), Z = the first k whose integer cumulative weight exceeds u — so the law the
code draws is exactly W(k)/2⁶² with integer weights W; the truth is computed on that law (it
differs from the ideal discrete Gaussian by < 2⁻⁶² per point, and its support is finite, which
the δ profile accounts for exactly).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import mpmath
import numpy as np
from numpy.typing import NDArray

from . import KnownAnswer, entry
from . import exact as ex

Arr = NDArray[Any]
REF = "Balle & Wang, ICML 2018, Thm 8"


def classical_epsilon(sigma: float, delta: float) -> float:
    """ε of the classical calibration σ = √(2 ln(1.25/δ))/ε (Δ = 1; Dwork & Roth Thm A.1)."""
    return math.sqrt(2 * math.log(1.25 / delta)) / sigma


def _gauss(x: float, sigma: float) -> Any:
    def s(n: int, g: np.random.Generator) -> Arr:
        out = g.standard_normal(n)
        out *= sigma
        out += x
        return out
    return s


def _g_delta(name: str, sigma: float, eps: float, claimed_delta: float, why: str) -> KnownAnswer:
    return KnownAnswer(name=name, family="gaussian", pair="x = 0 vs x = 1",
                       sample_a=_gauss(0.0, sigma), sample_b=_gauss(1.0, sigma),
                       claimed_epsilon=eps, claimed_delta=claimed_delta, objective="delta",
                       truth=lambda: ex.gaussian_delta(sigma, eps), reference=REF + "; " + why,
                       cost=1.5)


def _g_eps(name: str, sigma: float, claimed_eps: float, delta: float, why: str) -> KnownAnswer:
    return KnownAnswer(name=name, family="gaussian", pair="x = 0 vs x = 1",
                       sample_a=_gauss(0.0, sigma), sample_b=_gauss(1.0, sigma),
                       claimed_epsilon=claimed_eps, claimed_delta=delta, objective="epsilon",
                       truth=lambda: ex.gaussian_epsilon(sigma, delta),
                       reference=REF + "; " + why, cost=1.5)


@entry
def gauss_s3_delta() -> KnownAnswer:
    """Gaussian σ = 3 claimed (1, 10⁻⁵)-DP (issue 33's tail case), δ objective at ε = 1.  Exact
    profile (Balle & Wang 2018, Thm 8): δ(1) = Φ(1/6 − 3) − e·Φ(−1/6 − 3) ≈ 2.07·10⁻⁴, 21× the
    claim; the optimal event is {y < −8.5} far in the lower tail of x = 0 (the log-likelihood
    ratio (1 − 2y)/(2σ²) exceeds ε = 1 only for y < 1/2 − σ² = −8.5)."""
    return _g_delta("gauss-s3-delta", 3.0, 1.0, 1e-5, "claim (1, 1e-5)")


@entry
def gauss_s3_epsilon() -> KnownAnswer:
    """Gaussian σ = 3 claimed (1, 10⁻⁵)-DP, ε objective at δ = 10⁻⁵: the true ε(10⁻⁵) is the
    root of the exact profile δ(ε) = 10⁻⁵ (Balle & Wang 2018, Thm 8; bisection to 10⁻³⁰ at 40
    digits), ≈ 1.271 > 1."""
    return _g_eps("gauss-s3-epsilon", 3.0, 1.0, 1e-5, "claim (1, 1e-5)")


@entry
def gauss_s1_epsilon() -> KnownAnswer:
    """Gaussian σ = 1, ε objective at δ = 10⁻⁵, claimed ε = √(2 ln(1.25·10⁵)) ≈ 4.845 by the
    classical calibration (Dwork & Roth 2014, Thm A.1 — stated for ε < 1, here it happens to
    over-estimate).  True ε(10⁻⁵) = root of the exact profile (Balle & Wang 2018) ≈ 4.377."""
    return _g_eps("gauss-s1-epsilon", 1.0, classical_epsilon(1.0, 1e-5), 1e-5,
                  "claim from Dwork & Roth Thm A.1")


@entry
def gauss_s1_delta() -> KnownAnswer:
    """Gaussian σ = 1 claimed (1, 10⁻⁵)-DP, δ objective at ε = 1: exact profile δ(1) =
    Φ(1/2 − 1) − e·Φ(−3/2) ≈ 0.1269 (Balle & Wang 2018, Thm 8)."""
    return _g_delta("gauss-s1-delta", 1.0, 1.0, 1e-5, "claim (1, 1e-5)")


@entry
def gauss_s2_epsilon() -> KnownAnswer:
    """Gaussian σ = 2, ε objective at δ = 10⁻⁶, claimed ε = 1: true ε(10⁻⁶) from the exact
    profile (Balle & Wang 2018) ≈ 2.254 > 1."""
    return _g_eps("gauss-s2-epsilon", 2.0, 1.0, 1e-6, "claim (1, 1e-6)")


@entry
def gauss_s5_epsilon() -> KnownAnswer:
    """Gaussian σ = 5, ε objective at δ = 10⁻⁵, claimed ε = √(2 ln(1.25·10⁵))/5 ≈ 0.969 by the
    classical calibration (Dwork & Roth Thm A.1, valid here since ε < 1).  True ε(10⁻⁵) from the
    exact profile (Balle & Wang 2018) ≈ 0.726: a correct claim whose violation would sit in the
    far tail."""
    return _g_eps("gauss-s5-epsilon", 5.0, classical_epsilon(5.0, 1e-5), 1e-5,
                  "claim from Dwork & Roth Thm A.1")


@entry
def gauss_s5_delta() -> KnownAnswer:
    """Gaussian σ = 5 claimed (0.5, 10⁻⁵)-DP, δ objective at ε = 0.5: exact profile
    δ(0.5) = Φ(0.1 − 2.5) − e^{0.5}·Φ(−0.1 − 2.5) ≈ 5.13·10⁻⁴ (Balle & Wang 2018); the events
    that carry it lie beyond |y| ≈ 12 (log-likelihood ratio above 0.5 needs y < 1/2 − 0.5σ² =
    −12)."""
    return _g_delta("gauss-s5-delta", 5.0, 0.5, 1e-5, "claim (0.5, 1e-5)")


# ---- discrete Gaussian ----------------------------------------------------------------------
BITS = 62


def dgauss_table(sigma2: int) -> tuple[int, list[int]]:
    """(K, W): integer weights W[j] of k = j − K, summing to 2⁶², W[j] = round(2⁶²·CDF(k)) −
    round(2⁶²·CDF(k − 1)) for the ideal discrete Gaussian with variance parameter σ² (CDF at 60
    digits; points beyond ±K have weight 0)."""
    total = 1 << BITS
    with mpmath.workdps(60):
        k_max = math.ceil(math.sqrt(2 * sigma2 * 60 * math.log(10))) + 2
        ks = range(-k_max, k_max + 1)
        w = [mpmath.exp(-mpmath.mpf(k * k) / (2 * sigma2)) for k in ks]
        z = mpmath.fsum(w)
        cum, acc = [], mpmath.mpf(0)
        for x in w:
            acc += x
            cum.append(int(mpmath.nint(acc / z * total)))
    cum[-1] = total
    weights = [cum[0]] + [b - a for a, b in itertools.pairwise(cum)]
    nz = [j for j, x in enumerate(weights) if x > 0]
    lo, hi = nz[0], nz[-1]
    if lo != len(weights) - 1 - hi:
        raise ValueError("asymmetric table")
    return k_max - lo, weights[lo:hi + 1]


def _dgauss_sampler(x: int, sigma2: int) -> Any:
    k, w = dgauss_table(sigma2)
    upper = np.cumsum(np.asarray(w, dtype=np.int64))

    def s(n: int, g: np.random.Generator) -> Arr:
        u = g.integers(0, 1 << BITS, n, dtype=np.int64)
        return x + np.searchsorted(upper, u, side="right").astype(np.int64) - k
    return s


def dgauss_profile(sigma2: int) -> Any:
    """ε ↦ δ(ε) of the table law on inputs 0 vs 1, both directions (mpf in, mpf out)."""
    _, w = dgauss_table(sigma2)
    # outputs -k … k + 1: side a puts w[j] on j − k, side b on j − k + 1
    wa = [*w, 0]
    wb = [0, *w]
    scale = mpmath.mpf(2) ** BITS

    def prof(e: Any) -> Any:
        c = mpmath.exp(e)
        fwd = mpmath.fsum(max(mpmath.mpf(0), a - c * b) for a, b in zip(wa, wb, strict=True))
        bwd = mpmath.fsum(max(mpmath.mpf(0), b - c * a) for a, b in zip(wa, wb, strict=True))
        return max(fwd, bwd) / scale
    return prof


@entry
def dgauss_s2_delta() -> KnownAnswer:
    """Discrete Gaussian N_ℤ(0, σ²), σ² = 4 (Canonne, Kamath & Steinke 2020), claimed
    (1, 10⁻⁵)-DP, δ objective at ε = 1, inputs 0 vs 1.  Exact: the sampler's law is
    W(k)/2⁶² (:func:`dgauss_table`), and δ(1) = max over directions of
    Σ_y (P_a(y) − e·P_b(y))₊ is summed over every point of the (finite) support with 40-digit
    e: ≈ 0.00725 (Canonne et al. give the same expression for the ideal law)."""
    s2 = 4

    def truth() -> float:
        with mpmath.workdps(ex.DPS):
            return float(dgauss_profile(s2)(mpmath.mpf(1)))

    return KnownAnswer(name="dgauss-s2-delta", family="discrete gaussian", pair="x = 0 vs x = 1",
                       sample_a=_dgauss_sampler(0, s2), sample_b=_dgauss_sampler(1, s2),
                       claimed_epsilon=1.0, claimed_delta=1e-5, objective="delta", truth=truth,
                       target="implementation", reference="Canonne, Kamath & Steinke 2020",
                       cost=2.0)


@entry
def dgauss_s2_epsilon() -> KnownAnswer:
    """Discrete Gaussian σ² = 4 (Canonne, Kamath & Steinke 2020), ε objective at δ = 10⁻⁵,
    claimed ε = √(2 ln(1.25·10⁵))/2 ≈ 2.42 (the continuous classical calibration).  True
    ε(10⁻⁵) = the smallest ε whose exact δ profile of the table law (:func:`dgauss_profile`) is
    ≤ 10⁻⁵ — bisection to 10⁻³⁰; this equals sup_S log((P_a(S) − δ)/P_b(S)), the quantity the
    ε objective bounds."""
    s2 = 4

    def truth() -> float:
        with mpmath.workdps(ex.DPS):
            return ex.epsilon_at_delta(dgauss_profile(s2), 1e-5)

    return KnownAnswer(name="dgauss-s2-epsilon", family="discrete gaussian",
                       pair="x = 0 vs x = 1", sample_a=_dgauss_sampler(0, s2),
                       sample_b=_dgauss_sampler(1, s2),
                       claimed_epsilon=classical_epsilon(2.0, 1e-5),
                       claimed_delta=1e-5, objective="epsilon", truth=truth,
                       target="implementation", reference="Canonne, Kamath & Steinke 2020",
                       cost=2.0)
