"""Report-noisy-max variants (Dwork & Roth 2014 §3.3; the buggy variants of Ding, Wang, Wang,
Zhang & Kifer, CCS 2018 / StatDP): exact output laws.

m = 5 queries of sensitivity 1 (neighbours change every answer by at most 1).  The argmax law is
P(argmax = i) = ∫ f_i(x) Π_{j≠i} F_j(x) dx with f_j, F_j the density and CDF of q_j + noise:
piecewise exponential in x, integrated in closed form by :mod:`.exact` (ties have probability 0).
The index variants use the pair (0,1,1,1,1) vs (1,0,0,0,0) (not monotone: the queries move in
opposite directions, the case where Lap(1/ε) is not enough); the value variants use 0⁵ vs 1⁵.
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
IDX_A = (0, 1, 1, 1, 1)
IDX_B = (1, 0, 0, 0, 0)
VAL_A = (0, 0, 0, 0, 0)
VAL_B = (1, 1, 1, 1, 1)
REF = "Dwork & Roth 2014 §3.3; Ding et al. 2018 (StatDP)"


def _sampler(q: tuple[int, ...], noise: str, scale: Fraction, value: bool) -> Any:
    qv = np.asarray(q, dtype=float)
    s = float(scale)

    def draw(n: int, g: np.random.Generator) -> Arr:
        z = g.laplace(0.0, s, (n, qv.size)) if noise == "laplace" else \
            g.exponential(s, (n, qv.size))
        z += qv[None, :]
        return np.asarray(z.max(axis=1) if value else z.argmax(axis=1))
    return draw


def _parts(noise: str) -> tuple[Any, Any]:
    return (ex.laplace_pdf, ex.laplace_cdf) if noise == "laplace" else \
        (ex.exponential_pdf, ex.exponential_cdf)


def argmax_law(q: tuple[int, ...], noise: str, scale: Fraction) -> list[Any]:
    """P(argmax = i), i = 0 … m − 1, exactly (mpf at :data:`.exact.DPS` digits)."""
    pdf, cdf = _parts(noise)
    with mpmath.workdps(ex.DPS):
        return [ex.integrate_product([pdf(q[i], scale)] + [cdf(q[j], scale)
                                                            for j in range(len(q)) if j != i])
                for i in range(len(q))]


def max_density(q: tuple[int, ...], noise: str, scale: Fraction, x: Fraction) -> Any:
    """Density of max_i(q_i + noise_i) at x: Σ_i f_i(x) Π_{j≠i} F_j(x) (inside workdps)."""
    pdf, cdf = _parts(noise)
    total = mpmath.mpf(0)
    for i in range(len(q)):
        term = pdf(q[i], scale).value_at(x)
        for j in range(len(q)):
            if j != i:
                term *= cdf(q[j], scale).value_at(x)
        total += term
    return total


def _argmax_entry(name: str, noise: str, scale: Fraction, claimed: float) -> KnownAnswer:
    def truth() -> float:
        return ex.pure_epsilon(argmax_law(IDX_A, noise, scale), argmax_law(IDX_B, noise, scale))

    return KnownAnswer(name=name, family="noisy max", pair="q = (0,1,1,1,1) vs (1,0,0,0,0)",
                       sample_a=_sampler(IDX_A, noise, scale, False),
                       sample_b=_sampler(IDX_B, noise, scale, False), claimed_epsilon=claimed,
                       truth=truth, reference=REF, cost=1.5)


@entry
def noisy_max_laplace() -> KnownAnswer:
    """Report-noisy-max: argmax_i(q_i + Lap(2/ε)), ε = 1 — ε-DP for any sensitivity-1 queries
    (each noisy answer is ε/2-DP; Dwork & Roth 2014 Claim 3.9 argument with scale 2/ε).  True ε
    on (0,1,1,1,1) vs (1,0,0,0,0): the exact argmax law (closed-form piecewise-exponential
    integrals, :func:`argmax_law`), max_i |log P_a(i)/P_b(i)| ≈ 0.918."""
    return _argmax_entry("noisy-max-laplace", "laplace", Fraction(2), 1.0)


@entry
def noisy_max_exponential() -> KnownAnswer:
    """Report-noisy-max with exponential noise: argmax_i(q_i + Exp(2/ε)), ε = 1 — identical in
    law to permute-and-flip, ε-DP (McKenna & Sheldon 2020; Ding, Kifer et al. 2021).  True ε on
    (0,1,1,1,1) vs (1,0,0,0,0) from the exact argmax law: ≈ 0.9905."""
    return _argmax_entry("noisy-max-exponential", "exponential", Fraction(2), 1.0)


@entry
def noisy_max_laplace_one_over_eps() -> KnownAnswer:
    """Report-noisy-max with Lap(1/ε), ε = 1, claimed ε-DP.  Lap(1/ε) suffices for *monotone*
    queries (counting queries all moving the same way; Dwork & Roth 2014 Claim 3.9) but not for
    general sensitivity-1 queries: on the non-monotone pair (0,1,1,1,1) vs (1,0,0,0,0) the exact
    argmax law gives true ε ≈ 1.759 > 1."""
    return _argmax_entry("noisy-max-laplace-1/eps", "laplace", Fraction(1), 1.0)


@entry
def noisy_max_exponential_one_over_eps() -> KnownAnswer:
    """Report-noisy-max with Exp(1/ε), ε = 1, claimed ε-DP — as for Laplace, scale 1/ε is only
    enough for monotone queries.  Exact argmax law on (0,1,1,1,1) vs (1,0,0,0,0): true ε ≈ 1.894
    (McKenna & Sheldon 2020 for the monotone case)."""
    return _argmax_entry("noisy-max-exponential-1/eps", "exponential", Fraction(1), 1.0)


@entry
def noisy_max_small_noise() -> KnownAnswer:
    """Report-noisy-max with Lap(ε/2) — scale and rate swapped (StatDP's noisy max with the
    wrong scale, Ding et al. 2018), ε = 1, so scale 1/2.  Exact argmax law on
    (0,1,1,1,1) vs (1,0,0,0,0): true ε ≈ 3.191."""
    return _argmax_entry("noisy-max-small-noise", "laplace", Fraction(1, 2), 1.0)


@entry
def noisy_max_value_laplace() -> KnownAnswer:
    """Noisy max releasing the maximum noisy *value*: max_i(q_i + Lap(2/ε)), m = 5, ε = 1,
    claimed ε-DP (StatDP's ``noisy_max_v1b``, Ding et al. 2018).  On 0⁵ vs 1⁵ the output is the
    max of five i.i.d. Lap(2) shifted by 1, with density h(x) = 5·f(x)·F(x)⁴.  For x ≤ 0 both
    x and x − 1 are in the lower tail, f(x)/f(x − 1) = F(x)/F(x − 1) = e^{1/2}, so
    h_a(x)/h_b(x) = e^{5/2}; everywhere else each factor is at most e^{1/2}.  True ε = m·ε/2 =
    2.5 exactly, attained on {max ≤ 0} (probability 2⁻⁵ under 0⁵) — finite for fixed m, but
    growing without bound in m.  The code evaluates the density ratio at x = −1 exactly."""
    def truth() -> float:
        with mpmath.workdps(ex.DPS):
            x = Fraction(-1)
            ra = max_density(VAL_A, "laplace", Fraction(2), x)
            rb = max_density(VAL_B, "laplace", Fraction(2), x)
            return float(mpmath.log(ra / rb))

    return KnownAnswer(name="noisy-max-value-laplace", family="noisy max", pair="q = 0⁵ vs 1⁵",
                       sample_a=_sampler(VAL_A, "laplace", Fraction(2), True),
                       sample_b=_sampler(VAL_B, "laplace", Fraction(2), True),
                       claimed_epsilon=1.0, truth=truth, reference=REF, cost=1.5)


@entry
def noisy_max_value_exponential() -> KnownAnswer:
    """Noisy max with exponential noise releasing the maximum value: max_i(q_i + Exp(2/ε)),
    m = 5, ε = 1, claimed ε-DP.  Exponential noise is non-negative, so under 1⁵ every output is
    ≥ 1 while under 0⁵ the event {max < 1} has probability (1 − e^{−1/2})⁵ ≈ 0.0094 > 0: an
    output set possible under one input only, true ε = ∞ (computed from the two exact CDFs of the
    max at 1/2: (1 − e^{−1/4})⁵ against 0).  Ding et al. 2021 ("The permute-and-flip mechanism
    is identical to report-noisy-max with exponential noise") for the index-only version, which
    is ε-DP."""
    def truth() -> float:
        with mpmath.workdps(ex.DPS):
            x = Fraction(1, 2)  # the sub-event {max ≤ 1/2} of {max < 1}
            pa = mpmath.fprod(ex.exponential_cdf(q, 2).value_at(x) for q in VAL_A)
            pb = mpmath.fprod(ex.exponential_cdf(q, 2).value_at(x) for q in VAL_B)
            return ex.pure_epsilon([pa, 1 - pa], [pb, 1 - pb])

    return KnownAnswer(name="noisy-max-value-exponential", family="noisy max",
                       pair="q = 0⁵ vs 1⁵",
                       sample_a=_sampler(VAL_A, "exponential", Fraction(2), True),
                       sample_b=_sampler(VAL_B, "exponential", Fraction(2), True),
                       claimed_epsilon=1.0, truth=truth, reference=REF, cost=1.5)
