"""Exact output laws for the known-answer benchmark.

Everything here computes a *true* privacy quantity without sampling:

* :class:`Piecewise` — functions of one real variable r that are, between finitely many
  breakpoints, finite sums Σ c_j·e^{a_j r} with **rational** rates a_j (Laplace and exponential
  densities, CDFs and survival functions with rational scales, indicators).  Products of such
  functions stay in the class and their integrals over ℝ are closed forms
  (∫_lo^hi c·e^{a r} dr = c·(e^{a·hi} − e^{a·lo})/a, or c·(hi − lo) when a = 0), evaluated with
  mpmath at :data:`DPS` significant digits.  This gives the exact output law of the sparse vector
  variants and of report-noisy-max with Laplace or exponential noise (one-dimensional integrals
  over the threshold noise ρ, or over the winning value x).
* :func:`pure_epsilon` / :func:`delta_profile` / :func:`epsilon_at_delta` — the privacy loss of
  two discrete laws given as aligned probability vectors (∞ when a point has mass under one side
  only).  For discrete outputs sup_S log(P_a(S)/P_b(S)) is attained on a single point, so the
  maximum pointwise log-ratio (both directions) is the pair's exact ε.
* :func:`gaussian_delta` / :func:`gaussian_epsilon` — the analytic privacy profile of the
  Gaussian mechanism (Balle & Wang, ICML 2018, Theorem 8) and its inverse in ε.

All arithmetic runs inside ``mpmath.workdps(DPS)`` (never changing the global precision) and
returns Python floats, rounded once at the end.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any

import mpmath

DPS = 40
"""Working precision (decimal digits) of every exact computation."""

Terms = dict[Fraction, Any]
"""Σ coef·e^{rate·r} as {rate: coef} (coef an mpmath mpf)."""

NEG_INF = -math.inf
POS_INF = math.inf


def _q(x: float | int | Fraction) -> Fraction:
    """Exact rational value of a float / int / Fraction (floats are dyadic rationals)."""
    return x if isinstance(x, Fraction) else Fraction(x)


def _mp(x: Any) -> Any:
    """A number (Fraction, int, float, ±∞ or mpf) as an mpf at the current precision."""
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    return mpmath.mpf(x)


def _mul(s: Terms, t: Terms) -> Terms:
    out: Terms = {}
    for a, c in s.items():
        for b, d in t.items():
            k = a + b
            out[k] = out.get(k, mpmath.mpf(0)) + c * d
    return out


def _const(c: Any) -> Terms:
    return {Fraction(0): mpmath.mpf(c)}


def _integrate(t: Terms, lo: float | Fraction, hi: float | Fraction) -> Any:
    """∫_lo^hi Σ c·e^{a r} dr (lo may be −∞, hi may be +∞)."""
    total = mpmath.mpf(0)
    for a, c in t.items():
        if c == 0:
            continue
        if a == 0:
            if math.isinf(lo) or math.isinf(hi):
                raise ValueError("a constant term on an infinite interval: not integrable")
            total += c * (_mp(hi) - _mp(lo))
            continue
        am = _mp(a)
        up = mpmath.mpf(0) if (math.isinf(hi) and hi > 0 and a < 0) else \
            (None if math.isinf(hi) else mpmath.exp(am * _mp(hi)))
        dn = mpmath.mpf(0) if (math.isinf(lo) and lo < 0 and a > 0) else \
            (None if math.isinf(lo) else mpmath.exp(am * _mp(lo)))
        if up is None or dn is None:
            raise ValueError(f"the term e^({a}·r) diverges on ({lo}, {hi})")
        total += c * (up - dn) / am
    return total


class Piecewise:
    """A function of r: ``pieces[i]`` (a :data:`Terms`) on the i-th interval cut by ``cuts``.

    ``cuts`` are increasing rationals b_1 < … < b_k; piece 0 lives on (−∞, b_1), piece i on
    (b_i, b_{i+1}) and piece k on (b_k, ∞).  Values *at* the cuts do not matter (all uses are
    integrals against a density)."""

    __slots__ = ("cuts", "pieces")

    def __init__(self, cuts: Sequence[Fraction], pieces: Sequence[Terms]) -> None:
        if len(pieces) != len(cuts) + 1:
            raise ValueError("need len(cuts) + 1 pieces")
        if any(b <= a for a, b in itertools.pairwise(cuts)):
            raise ValueError("cuts must increase")
        self.cuts = tuple(cuts)
        self.pieces = tuple(pieces)

    def value_at(self, r: float | Fraction) -> Any:
        """The function's value at ``r`` (not a cut), as an mpf at the current precision."""
        x = _q(r)
        return sum((c * mpmath.exp(_mp(a) * _mp(x)) for a, c in self.piece_at(x).items()),
                   mpmath.mpf(0))

    def piece_at(self, r: Fraction) -> Terms:
        """The piece valid on an open interval containing ``r`` (r not a cut)."""
        i = sum(1 for b in self.cuts if b < r)
        return self.pieces[i]


def _exp_of(x: Fraction) -> Any:
    return mpmath.exp(mpmath.mpf(x.numerator) / x.denominator)


def laplace_pdf(mu: float | Fraction, scale: float | Fraction) -> Piecewise:
    """Density of mu + Lap(scale): (1/2b)·e^{−|r − mu|/b}."""
    m, b = _q(mu), _q(scale)
    k = 1 / (2 * mpmath.mpf(b.numerator) / b.denominator)
    return Piecewise([m], [{1 / b: k * _exp_of(-m / b)}, {-1 / b: k * _exp_of(m / b)}])


def laplace_cdf(mu: float | Fraction, scale: float | Fraction) -> Piecewise:
    """P(mu + Lap(scale) ≤ r)."""
    m, b = _q(mu), _q(scale)
    half = mpmath.mpf(1) / 2
    return Piecewise([m], [{1 / b: half * _exp_of(-m / b)},
                           {Fraction(0): mpmath.mpf(1), -1 / b: -half * _exp_of(m / b)}])


def laplace_sf(mu: float | Fraction, scale: float | Fraction) -> Piecewise:
    """P(mu + Lap(scale) > r) = 1 − CDF."""
    m, b = _q(mu), _q(scale)
    half = mpmath.mpf(1) / 2
    return Piecewise([m], [{Fraction(0): mpmath.mpf(1), 1 / b: -half * _exp_of(-m / b)},
                           {-1 / b: half * _exp_of(m / b)}])


def exponential_pdf(mu: float | Fraction, scale: float | Fraction) -> Piecewise:
    """Density of mu + Exp(scale) (mean ``scale``): 0 below mu, (1/b)·e^{−(r − mu)/b} above."""
    m, b = _q(mu), _q(scale)
    k = 1 / (mpmath.mpf(b.numerator) / b.denominator)
    return Piecewise([m], [{}, {-1 / b: k * _exp_of(m / b)}])


def exponential_cdf(mu: float | Fraction, scale: float | Fraction) -> Piecewise:
    """P(mu + Exp(scale) ≤ r)."""
    m, b = _q(mu), _q(scale)
    return Piecewise([m], [{}, {Fraction(0): mpmath.mpf(1), -1 / b: -_exp_of(m / b)}])


def indicator_below(t: float | Fraction) -> Piecewise:
    """1 for r < t, 0 above."""
    return Piecewise([_q(t)], [_const(1), {}])


def indicator_above(t: float | Fraction) -> Piecewise:
    """1 for r > t, 0 below."""
    return Piecewise([_q(t)], [{}, _const(1)])


def integrate_product(factors: Iterable[Piecewise]) -> Any:
    """∫_ℝ Π factors(r) dr, exactly (closed form per interval), as an mpf.

    Must be called inside ``mpmath.workdps``; :func:`integral` wraps it."""
    fs = list(factors)
    cuts = sorted({b for f in fs for b in f.cuts})
    edges: list[float | Fraction] = [NEG_INF, *cuts, POS_INF]
    total = mpmath.mpf(0)
    for lo, hi in itertools.pairwise(edges):
        if math.isinf(lo) and math.isinf(hi):
            mid = Fraction(0)
        elif isinstance(lo, float):  # −∞
            mid = _q(hi) - 1
        elif isinstance(hi, float):  # +∞
            mid = _q(lo) + 1
        else:
            mid = (lo + hi) / 2
        prod: Terms = _const(1)
        for f in fs:
            prod = _mul(prod, f.piece_at(mid))
            if not prod:
                break
        if prod:
            total += _integrate(prod, lo, hi)
    return total


def integral(factors: Iterable[Piecewise]) -> float:
    """:func:`integrate_product` at :data:`DPS` digits, as a float."""
    with mpmath.workdps(DPS):
        return float(integrate_product(factors))


# ---- privacy loss of two discrete laws ------------------------------------------------------
def pure_epsilon(pa: Sequence[Any], pb: Sequence[Any]) -> float:
    """max over outputs o of |log(P_a(o)/P_b(o))| (∞ if some o has mass on one side only).

    ``pa``, ``pb`` are aligned probabilities (floats, Fractions or mpf)."""
    with mpmath.workdps(DPS):
        best = mpmath.mpf(0)
        for x, y in zip(pa, pb, strict=True):
            xa, yb = _mp(x), _mp(y)
            if xa == 0 and yb == 0:
                continue
            if xa == 0 or yb == 0:
                return math.inf
            best = max(best, abs(mpmath.log(xa / yb)))
        return float(best)


def delta_profile(pa: Sequence[Any], pb: Sequence[Any], epsilon: float) -> float:
    """max over both directions of Σ_o (P_a(o) − e^ε P_b(o))_+ — the smallest δ with which the
    pair is (ε, δ)-indistinguishable (sup over events S of P_a(S) − e^ε P_b(S))."""
    with mpmath.workdps(DPS):
        c = mpmath.exp(mpmath.mpf(epsilon))
        fwd = bwd = mpmath.mpf(0)
        for x, y in zip(pa, pb, strict=True):
            xa, yb = _mp(x), _mp(y)
            fwd += max(mpmath.mpf(0), xa - c * yb)
            bwd += max(mpmath.mpf(0), yb - c * xa)
        return float(max(fwd, bwd))


def epsilon_at_delta(profile: Callable[[Any], Any], delta: float, hi: float = 60.0) -> float:
    """The smallest ε ≥ 0 with profile(ε) ≤ δ (bisection to 10^-30; the profile is
    non-increasing).  This equals sup_S log((P_a(S) − δ)/P_b(S)), the quantity the ε objective
    bounds: the level set attaining profile(ε*) = δ attains it."""
    with mpmath.workdps(DPS):
        d = mpmath.mpf(delta)
        if profile(mpmath.mpf(0)) <= d:
            return 0.0
        lo, up = mpmath.mpf(0), mpmath.mpf(hi)
        if profile(up) > d:
            return math.inf
        while up - lo > mpmath.mpf(10) ** -30:
            mid = (lo + up) / 2
            if profile(mid) > d:
                lo = mid
            else:
                up = mid
        return float(up)


# ---- Gaussian mechanism ---------------------------------------------------------------------
def gaussian_delta(sigma: float, epsilon: float, sensitivity: float = 1.0) -> float:
    """Exact δ(ε) of x + N(0, σ²) on inputs Δ apart (Balle & Wang 2018, Theorem 8):
    δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε·Φ(−Δ/(2σ) − εσ/Δ)."""
    with mpmath.workdps(DPS):
        return float(_gauss_profile(mpmath.mpf(sigma), mpmath.mpf(sensitivity))(
            mpmath.mpf(epsilon)))


def _gauss_profile(s: Any, d: Any) -> Callable[[Any], Any]:
    def prof(e: Any) -> Any:
        return mpmath.ncdf(d / (2 * s) - e * s / d) - mpmath.exp(e) * mpmath.ncdf(
            -d / (2 * s) - e * s / d)
    return prof


def gaussian_epsilon(sigma: float, delta: float, sensitivity: float = 1.0) -> float:
    """The exact ε of x + N(0, σ²) at δ: the root of :func:`gaussian_delta` (ε, δ) = δ."""
    with mpmath.workdps(DPS):
        return epsilon_at_delta(_gauss_profile(mpmath.mpf(sigma), mpmath.mpf(sensitivity)),
                                delta)
