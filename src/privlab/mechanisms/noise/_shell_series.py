"""Exact sums of polynomial-weighted geometric series, and the shell sampler they give.

Shell noise (thesis §4.5) has density M·r^i on shell i with r = e^{−ε}; every quantity of
interest — normalisation, marginal densities and tails, second moments, box probabilities — is
a sum Σ_{m≥0} r^m P(m) where P(m) = Π_l (α_l + β_l m) is a product of linear factors.

Writing P in the binomial basis, P(m) = Σ_k c_k C(m, k), and using Σ_m C(m, k) r^m =
r^k/(1 − r)^{k+1} (the negative binomial series) gives

    Σ_{m≥0} r^m P(m) = (1/(1 − r)) · Σ_k c_k q^k,      q = r/(1 − r) = 1/(e^ε − 1).

The coefficients come from multiplying the factors one at a time, using
(α + β m)·C(m, k) = (α + β k)·C(m, k) + β (k + 1)·C(m, k + 1): with α, β ≥ 0 every coefficient
is a sum of non-negative terms, so nothing cancels (floats stay accurate) and the same code runs
on floats, numpy arrays (elementwise), ``fractions.Fraction`` and mpmath numbers.

The same decomposition samples the shell index exactly: P(i = n + 1) ∝ r^{n+1} Σ_k c'_k C(n, k)
is a finite mixture of shifted negative binomial laws (component k: n − k ~ NB(k + 1, 1 − r)),
so no rejection step is needed; :class:`ShellLaw` uses a float inverse-CDF table for the bulk
(fast) and this mixture, conditioned on the shells beyond the table, for the rest.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

Factor = tuple[Any, Any]


def binomial_coeffs(factors: Sequence[Factor]) -> list[Any]:
    """c with Π_l (α_l + β_l m) = Σ_k c_k C(m, k) (numbers or numpy arrays, elementwise)."""
    c: list[Any] = [1]
    for a, b in factors:
        new: list[Any] = [0] * (len(c) + 1)
        for k, ck in enumerate(c):
            new[k] = new[k] + (a + b * k) * ck
            new[k + 1] = new[k + 1] + b * (k + 1) * ck
        c = new
    return c


def gsum(factors: Sequence[Factor], q: Any) -> Any:
    """Σ_k c_k q^k, i.e. (1 − r)·Σ_{m≥0} r^m Π(α + β m) with q = r/(1 − r)."""
    total: Any = 0
    qk: Any = 1
    for ck in binomial_coeffs(factors):
        total = total + ck * qk
        qk = qk * q
    return total


def shift(factors: Sequence[Factor], by: Any) -> list[Factor]:
    """Factors of m ↦ P(m + by)."""
    return [(a + b * by, b) for a, b in factors]


def range_sum(factors: Sequence[Factor], r: Any, q: Any, lo: int, hi: int | None) -> Any:
    """(1 − r)·Σ_{i=lo}^{hi−1} r^i P(i) (hi=None: to infinity).  Short ranges are summed term by
    term; long ones as the difference of two tails (used with mpmath, where the lost digits are
    covered by the working precision)."""
    if hi is not None and hi <= lo:
        return 0
    if hi is not None and hi - lo <= 64:
        total: Any = 0
        for i in range(lo, hi):
            p: Any = 1
            for a, b in factors:
                p = p * (a + b * i)
            total = total + r**i * p
        return total * (1 - r)
    head = r**lo * gsum(shift(factors, lo), q)
    if hi is None:
        return head
    return head - r**hi * gsum(shift(factors, hi), q)


def tail_weights(volume_factors: Sequence[Factor], q: float, start: int) -> np.ndarray:
    """Component weights of the shell law conditioned on i > ``start`` (start ≥ −1).

    With V(start + m) = Σ_k c_k C(m, k) (V = volume of the union of shells, V(−1) = 0 handled
    by start = −1 meaning "include the core"), shell i = start + 1 + n has mass
    M r^{start+1+n} Σ_{k≥1} c_k C(n, k − 1), so component k − 1 (n − (k − 1) ~ NB(k, 1 − r))
    carries c_k q^k (times the common factor M r^start).  Entry 0 is the core (start = −1 only).
    """
    if start < 0:
        c = [float(x) for x in binomial_coeffs(volume_factors)]
        w = [c[0]] + [ck * q**k for k, ck in enumerate(c) if k >= 1]
    else:
        c = [float(x) for x in binomial_coeffs(shift(volume_factors, start))]
        w = [0.0] + [ck * q**k for k, ck in enumerate(c) if k >= 1]
    arr = np.asarray(w, dtype=float)
    return arr / arr.sum()


def mixture_weights(volume_factors: Sequence[Factor], q: float) -> np.ndarray:
    """Probabilities of the d + 1 components of the shell law (core first, then k = 0..d−1)."""
    return tail_weights(volume_factors, q, -1)


def mixture_draw(weights: np.ndarray, p: float, start: int, n: int,
                 gen: np.random.Generator) -> np.ndarray:
    """n draws of the shell index from :func:`tail_weights` (``start``, p = 1 − r)."""
    comp = np.searchsorted(np.cumsum(weights)[:-1], gen.random(n), side="right")
    k = comp - 1  # −1 = core (weights[0] = 0 unless start = −1)
    out = np.zeros(n, dtype=np.int64)
    tail = k >= 0
    if np.any(tail):
        kt = k[tail]
        out[tail] = max(start, 0) + 1 + kt + gen.negative_binomial(kt + 1, p)
    return out


@attrs.frozen
class ShellLaw:
    """Exact sampler of the shell index i with P(i) ∝ r^i (V(i) − V(i − 1)).

    A float inverse-CDF table covers shells 0..T (T: tail mass ≤ 2^−20, at most 2^16 shells);
    draws falling beyond the table come from the exact conditional law of i > T, a finite
    mixture of shifted negative binomials (:func:`tail_weights`), so the law is exact (up to the
    float rounding of the table) and there is no rejection loop.  Building costs O(T·d)."""

    cum: np.ndarray  # P(i ≤ t), t = 0..T, the last entry = 1 − P(i > T)
    tail: np.ndarray  # mixture weights of i | i > T
    start: int  # T
    p: float  # 1 − r

    @classmethod
    def build(cls, volume_factors: Sequence[Factor], rate: float, *,
              max_shells: int = 1 << 16) -> ShellLaw:
        q = 1.0 / math.expm1(rate)
        c = [float(x) for x in binomial_coeffs(volume_factors)]
        total = sum(ck * q**k for k, ck in enumerate(c))  # = 1/M
        t = min(64, max_shells)
        while True:
            n = np.arange(t, dtype=float)  # shell n + 1
            dv = np.zeros(t)
            binom = np.ones(t)  # C(n, k − 1), k = 1, 2, …
            for k in range(1, len(c)):
                dv += c[k] * binom
                binom = binom * (n - (k - 1)) / k
            masses = np.concatenate([[c[0]], np.exp(-rate * (n + 1.0)) * dv]) / total
            ct = [float(x) for x in binomial_coeffs(shift(volume_factors, t))]
            tail = math.exp(-rate * t) * sum(ck * q**k for k, ck in enumerate(ct)
                                             if k >= 1) / total
            if tail <= 2.0**-20 or t >= max_shells:
                break
            t = min(2 * t, max_shells)
        cum = np.cumsum(masses)  # P(i ≤ t'), t' = 0..t
        return cls(cum=cum / (cum[-1] + tail), tail=tail_weights(volume_factors, q, t),
                   start=t, p=min(max(-math.expm1(-rate), np.finfo(float).tiny), 1.0))

    def draw(self, n: int, gen: np.random.Generator) -> np.ndarray:
        u = gen.random(n)
        i = np.searchsorted(self.cum, u, side="right").astype(np.int64)
        beyond = i > self.start
        nb = int(beyond.sum())
        if nb:
            i[beyond] = mixture_draw(self.tail, self.p, self.start, nb, gen)
        return i
