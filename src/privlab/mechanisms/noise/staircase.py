"""The optimal univariate noise family of thesis §4.3–4.4 ("staircase" noise).

Thesis §4.4, Theorem 1: with r = e^{−ε}, Δ the L1 sensitivity and d ∈ [0, Δ],

    f(x) = M0              for |x| ≤ d,
    f(x) = M0 · r^{i+1}    for d + iΔ < |x| ≤ d + (i+1)Δ,  i = 0, 1, 2, …

The thesis prints M0·e^{−iε} on [d + iΔ, d + (i+1)Δ], i ∈ ℕ: neither reading of ℕ gives a
normalised ε-DP density consistent with its own M0–d relation (ledger claim
``thesis:thm-1-indexing``, refuted); the height above, one step lower, is the one the M0–d
relation and the variance formula of §4.4 imply.
Normalisation gives the M0–d relation printed after Theorem 2,

    d = (1 − r − 2·M0·r·Δ) / (2(1 − r)·M0)   ⇔   M0 = (1 − r) / (2(d(1 − r) + rΔ)).

Closed forms used below (derived by summing the geometric series; re-derived symbolically in
``privlab.proofs.thesis.ch4``): with p0 = 2·M0·d = P(|Y| ≤ d),

    Var Y  = 2·M0·[d³/3 + Δ·r·(d²/(1−r) + 2dΔr/(1−r)² + Δ²r(1+r)/(1−r)³)
                  + Δ²·r·(d/(1−r) + Δr/(1−r)²) + Δ³r/(3(1−r))]
    E|Y|   = M0·d² + 2·M0·Δ·r·(d + Δ/2)/(1−r) + 2·M0·Δ²·r²/(1−r)²
    P(|Y| ≤ d + (i+t)Δ) = p0 + (1 − p0)(1 − r^i + r^i(1 − r)t),  t ∈ [0, 1).

§4.3 builds the member improving Laplace(Δ/ε): M0 = ε/(2Δ) and d = m with
m = Δ(1 − r − εr)/(ε(1 − r)) (the printed formula is garbled by extraction; reconstructed from
the mass-conservation equation of that section).
"""

from __future__ import annotations

import functools
import math
from typing import Any

import attrs
import mpmath
import numpy as np
from scipy import optimize

from privlab._rng import RngLike, as_generator
from privlab._validate import attrs_converter, finite, one_of, positive, shape_tuple
from privlab.errors import InvalidParameter
from privlab.mechanisms.noise._base import (
    OBJECTIVES,
    Array,
    LogPiece,
    SymmetricNoise,
    Tail,
)
from privlab.mechanisms.noise.laplace import Laplace
from privlab.types import Neighbour

RATE_RANGE = (1e-30, 700.0)
"""Decay rates ε supported in floating point: above 700, e^-ε underflows (M0 = ∞ at d = 0);
below 1e-100, (1 - e^-ε)^3 underflows in the variance, and below about 1e-33 the float
evidence of the exact DP check (privlab.verify.noise.dp) no longer separates the steps (a
correct member was reported as failing at 1e-35); 1e-30 keeps a margin."""


@attrs.frozen(kw_only=True)
class Staircase(SymmetricNoise):
    """Staircase noise: core [−d, d] at height M0, then steps of width Δ decaying by e^{−ε}."""

    epsilon: float = attrs.field(converter=attrs_converter(positive))
    sensitivity: float = attrs.field(default=1.0, converter=attrs_converter(positive))
    d: float = attrs.field(converter=attrs_converter(finite))
    neighbour: Neighbour = attrs.field(default=Neighbour.SUBSTITUTE, converter=Neighbour.parse)
    name = "staircase"
    # Broken controls (privlab.mechanisms.noise.controls) change these; the real family never does.
    rate_factor = 1.0  # decay per step is exp(-rate_factor * epsilon)
    width_factor = 1.0  # step width is width_factor * sensitivity

    def __attrs_post_init__(self) -> None:
        lo, hi = RATE_RANGE
        if not lo <= self.rate <= hi:
            raise InvalidParameter(
                f"epsilon={self.epsilon:g} is outside the supported range [{lo:g}, {hi:g}] of "
                "staircase noise (see staircase.RATE_RANGE)")
        if not 0.0 <= self.d <= self.sensitivity:
            raise InvalidParameter(
                f"d={self.d!r} must lie in [0, sensitivity={self.sensitivity!r}]"
            )

    # ---- constructors -----------------------------------------------------------------------
    @classmethod
    def from_laplace(cls, laplace: Laplace) -> Staircase:
        """Thesis §4.3: the two-valued redistribution of Laplace(Δ/ε) on each [iΔ, (i+1)Δ]."""
        eps, delta = laplace.epsilon, laplace.sensitivity
        r = math.exp(-eps)
        m = delta * (-math.expm1(-eps) - eps * r) / (eps * -math.expm1(-eps))
        return cls(epsilon=eps, sensitivity=delta, d=m, neighbour=laplace.neighbour)

    @classmethod
    def from_m0(cls, epsilon: float, sensitivity: float, m0: float, **kw: Any) -> Staircase:
        """Member with core height ``m0`` (Theorem 2's M0–d relation)."""
        eps, delta, m0 = positive("epsilon", epsilon), positive("sensitivity", sensitivity), \
            positive("m0", m0)
        r = math.exp(-eps)
        lo, hi = (1 - r) / (2 * (delta * r + delta * (1 - r))), (1 - r) / (2 * delta * r)
        if not lo <= m0 <= hi:
            raise InvalidParameter(f"m0={m0!r} must lie in [{lo:.6g}, {hi:.6g}] so that "
                                   f"d lies in [0, sensitivity]")
        d = (1 - r - 2 * m0 * r * delta) / (2 * (1 - r) * m0)
        return cls(epsilon=eps, sensitivity=delta, d=min(max(d, 0.0), delta), **kw)

    @classmethod
    def optimal(cls, epsilon: float, sensitivity: float = 1.0, objective: str = "variance",
                **kw: Any) -> Staircase:
        """The member minimising ``objective`` ∈ {variance, ci95 (length of the symmetric 95 %
        interval), abs (E|Y|)} over d ∈ [0, Δ] (thesis §4.4, Fig. 4.2–4.3).

        Numerical minimisation: a 401-point scan of [0, Δ] and a bounded Brent refinement of
        the best bracket (objective evaluated in closed form).
        """
        eps, delta = positive("epsilon", epsilon), positive("sensitivity", sensitivity)
        one_of("objective", objective, OBJECTIVES)
        items = tuple(sorted(kw.items()))
        try:
            hash(items)
        except TypeError:  # unhashable keyword values: no memo
            best = _optimal_d(cls, eps, delta, objective, items)
        else:
            best = _optimal_d_memo(cls, eps, delta, objective, items)
        return cls(epsilon=eps, sensitivity=delta, d=best, **kw)

    # ---- shape ------------------------------------------------------------------------------
    @property
    def rate(self) -> float:
        return self.rate_factor * self.epsilon

    @property
    def width(self) -> float:
        return self.width_factor * self.sensitivity

    @property
    def r(self) -> float:
        return math.exp(-self.rate)

    @property
    def m0(self) -> float:
        """Core height M0 = (1 − r)/(2(d(1 − r) + rΔ))."""
        one_m_r = -math.expm1(-self.rate)
        return one_m_r / (2.0 * (self.d * one_m_r + self.r * self.width))

    @property
    def p0(self) -> float:
        """P(|Y| ≤ d) = 2·M0·d."""
        return 2.0 * self.m0 * self.d

    @property
    def parameters(self) -> dict[str, float]:
        return {"epsilon": self.epsilon, "sensitivity": self.sensitivity, "d": self.d,
                "m0": self.m0}

    # ---- law of |Y| -------------------------------------------------------------------------
    def _abs_pdf(self, a: Array) -> Array:
        a = np.asarray(a, dtype=float)
        i = np.ceil((a - self.d) / self.width) - 1.0  # step index for a in (d+iΔ, d+(i+1)Δ]
        with np.errstate(over="ignore", invalid="ignore"):
            tail = self.m0 * np.exp(-self.rate * (i + 1.0))
        out = np.where(a <= self.d, self.m0, tail)
        return np.where(np.isinf(a), 0.0, out)

    def logpdf(self, x: Any) -> Array:
        a = np.abs(np.asarray(x, dtype=float))
        i = np.ceil((a - self.d) / self.width) - 1.0
        return np.where(a <= self.d, math.log(self.m0), math.log(self.m0) - self.rate * (i + 1.0))

    def _abs_cdf(self, a: Array) -> Array:
        a = np.asarray(a, dtype=float)
        p0, r, w = self.p0, self.r, self.width
        with np.errstate(over="ignore", invalid="ignore"):
            u = np.maximum(a - self.d, 0.0) / w
            i = np.floor(u)
            t = u - i
            ri = np.exp(-self.rate * i)
            tail = p0 + (1.0 - p0) * (1.0 - ri + ri * (1.0 - r) * t)
            core = 2.0 * self.m0 * a
        return np.where(np.isinf(a), 1.0, np.where(a <= self.d, core, tail))

    def _abs_icdf(self, p: Array) -> Array:
        p = np.asarray(p, dtype=float)
        p0, w, rate = self.p0, self.width, self.rate
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            # tail: Q = P(|Y| > a)/P(|Y| > d) = r^(i+t')…; E = -log Q ~ Exp(1) on the tail
            lq0 = math.log1p(-p0) if p0 < 1.0 else -math.inf  # p0 = 1.0 when e^-ε ≪ 2^-53
            e = lq0 - np.log1p(-p)
            i = np.floor(e / rate)
            frac = -np.expm1(-(e - i * rate)) / -math.expm1(-rate)
            tail = self.d + w * (i + frac)
            core = p * (self.d / p0) if p0 > 0 else np.zeros_like(p)
        return np.where(p <= p0, core, tail)

    # ---- moments and objectives -------------------------------------------------------------
    def variance(self) -> float:
        m0, d, w, r = self.m0, self.d, self.width, self.r
        q = -math.expm1(-self.rate)  # 1 - r
        s0 = r / q
        s1 = r * (d / q + w * r / q**2)
        s2 = r * (d * d / q + 2 * d * w * r / q**2 + w * w * r * (1 + r) / q**3)
        return 2.0 * m0 * (d**3 / 3.0 + w * s2 + w * w * s1 + w**3 * s0 / 3.0)

    def mean_abs(self) -> float:
        m0, d, w, r = self.m0, self.d, self.width, self.r
        q = -math.expm1(-self.rate)
        return m0 * d * d + 2 * m0 * w * r * (d + w / 2) / q + 2 * m0 * w * w * r * r / q**2

    def objective_value(self, objective: str) -> float:
        one_of("objective", objective, OBJECTIVES)
        if objective == "variance":
            return self.variance()
        if objective == "abs":
            return self.mean_abs()
        return 2.0 * self.ci_halfwidth(0.95)

    # ---- sampling ---------------------------------------------------------------------------
    def sample(self, shape: Any = (), *, rng: RngLike = None) -> Array:
        """Exact inverse-CDF sampler, one uniform per draw, vectorized and in place.

        u ∈ [0, 1) gives the sign (u < ½) and v = |2u − 1| = P(|Y| ≤ a); on the core
        a = v·d/p0; on the tail, E = log(1 − p0) − log(1 − v) ~ Exp(1) conditionally, the step
        is ⌊E/ε⌋ and the position in the step (1 − e^{−(E − iε)})/(1 − e^{−ε}).  Transcendental
        functions run on the tail draws only; v = 1 (u = 0, probability 2^-53) is clamped to
        the largest double below 1.  Same stream and same values as :meth:`icdf`.
        """
        shape = shape_tuple(shape)
        gen = as_generator(rng)
        p0, d, w, rate = self.p0, self.d, self.width, self.rate
        x = gen.random(math.prod(shape))          # same stream as gen.random(shape)
        x *= 2.0
        x -= 1.0                                   # x = 2u − 1 carries the sign
        v = np.abs(x)
        tail = v > p0
        t = np.minimum(v[tail], np.nextafter(1.0, 0.0))
        np.negative(t, out=t)
        np.log1p(t, out=t)
        np.subtract(math.log1p(-p0), t, out=t)     # E
        i = np.floor(t / rate)
        t -= i * rate
        np.negative(t, out=t)
        np.expm1(t, out=t)
        t /= math.expm1(-rate)                     # position in the step, in [0, 1)
        t += i
        t *= w
        t += d
        v *= d / p0 if p0 > 0 else 0.0
        v[tail] = t
        return np.copysign(v, x, out=v).reshape(shape)[()]

    # ---- exact structure for the checkers ---------------------------------------------------
    def _mp(self) -> tuple[Any, Any, Any, Any]:
        rate = mpmath.mpf(self.rate_factor) * mpmath.mpf(self.epsilon)
        width = mpmath.mpf(self.width_factor) * mpmath.mpf(self.sensitivity)
        d = mpmath.mpf(self.d)
        r = mpmath.exp(-rate)
        m0 = (1 - r) / (2 * (d * (1 - r) + r * width))
        return rate, width, d, m0

    def log_pieces(self, lo: Any, hi: Any) -> list[LogPiece]:
        """Constant log-density pieces meeting [lo, hi], exact at the current mpmath precision."""
        rate, width, d, m0 = self._mp()
        lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
        lm0 = mpmath.log(m0)
        out: list[LogPiece] = []
        if d > 0 and lo < d and hi > -d:
            out.append(LogPiece(max(lo, -d), min(hi, d), lm0, mpmath.mpf(0)))
        amax = max(abs(lo), abs(hi))
        n = int(mpmath.ceil((amax - d) / width)) if amax > d else 0
        for i in range(n):
            a, b = d + i * width, d + (i + 1) * width
            c = lm0 - rate * (i + 1)
            if b > lo and a < hi and hi > a:  # right step (a, b]
                out.append(LogPiece(max(lo, a), min(hi, b), c, mpmath.mpf(0)))
            if -a > lo and -b < hi:  # left step [-b, -a)
                out.append(LogPiece(max(lo, -b), min(hi, -a), c, mpmath.mpf(0)))
        out.sort(key=lambda p: p.lo)
        return [p for p in out if p.hi > p.lo]

    def tail(self) -> Tail:
        return Tail(start=self.d, period=self.width)


def _optimal_d(cls: type[Staircase], eps: float, delta: float, objective: str,
               items: tuple[tuple[str, Any], ...]) -> float:
    """The search of :meth:`Staircase.optimal`.  Members differ from one validated prototype
    only in d: each evaluation copies its fields and sets d (converted and checked exactly as
    ``__init__`` does) instead of re-running every converter, so the objective is the same
    method on an equal object (same floats)."""
    kw = dict(items)
    proto = cls(epsilon=eps, sensitivity=delta, d=0.0, **kw)
    fields = [(a.name, getattr(proto, a.name)) for a in attrs.fields(cls) if a.name != "d"]
    setattr_ = object.__setattr__
    d_field = attrs.fields(cls).d
    standard = (d_field.converter is attrs.fields(Staircase).d.converter
                and d_field.validator is None)

    def member(d: float) -> Staircase:
        if not standard:  # a subclass redefining d: build it the ordinary way
            return cls(epsilon=eps, sensitivity=delta, d=d, **kw)
        m = object.__new__(cls)
        for name, val in fields:
            setattr_(m, name, val)
        setattr_(m, "d", finite("d", d))
        m.__attrs_post_init__()
        return m

    def f(d: float) -> float:
        return member(d).objective_value(objective)

    grid = np.linspace(0.0, delta, 401)
    if standard and _plain_objectives(cls):
        vals = _grid_values(proto, grid, objective)
    else:
        vals = np.array([f(g) for g in grid])
    j = int(np.argmin(vals))
    lo, hi = grid[max(j - 1, 0)], grid[min(j + 1, len(grid) - 1)]
    res = optimize.minimize_scalar(f, bounds=(lo, hi), method="bounded",
                                   options={"xatol": 1e-13 * delta})
    return float(res.x) if res.fun <= vals[j] else float(grid[j])


_OBJECTIVE_ATTRS = ("rate", "width", "r", "m0", "p0", "variance", "mean_abs", "objective_value",
                   "ci_halfwidth", "_abs_icdf")


def _plain_objectives(cls: type[Staircase]) -> bool:
    """True when ``cls`` computes its objectives with :class:`Staircase`'s own code."""
    return all(getattr(cls, a) is getattr(Staircase, a) for a in _OBJECTIVE_ATTRS)


def _grid_values(proto: Staircase, grid: Array, objective: str) -> Array:
    """``[member(d).objective_value(objective) for d in grid]`` for members of ``proto``'s
    class, vectorised over d with the very same floats: every operation is the scalar code's,
    in the same order, applied elementwise (IEEE +, −, ×, ÷ are exact-rounded either way);
    where the scalar code calls :mod:`math` (``**``, ``log1p``) it is still called per element,
    and where it calls numpy ufuncs (``log1p``, ``expm1``, ``floor`` on a 0-d array) the same
    ufuncs run on the whole array (elementwise kernels: same value for every element)."""
    one_of("objective", objective, OBJECTIVES)
    d = np.array([float(g) for g in grid])
    w, rate, r = proto.width, proto.rate, proto.r
    one_m_r = -math.expm1(-rate)
    m0 = one_m_r / (2.0 * (d * one_m_r + r * w))
    if objective == "variance":
        q = -math.expm1(-rate)
        s0 = r / q
        s1 = r * (d / q + w * r / q**2)
        s2 = r * (d * d / q + 2 * d * w * r / q**2 + w * w * r * (1 + r) / q**3)
        d3 = np.array([x**3 for x in d.tolist()])
        return 2.0 * m0 * (d3 / 3.0 + w * s2 + w * w * s1 + w**3 * s0 / 3.0)
    if objective == "abs":
        q = -math.expm1(-rate)
        return m0 * d * d + 2 * m0 * w * r * (d + w / 2) / q + 2 * m0 * w * w * r * r / q**2
    # ci95: 2 · _abs_icdf(0.95)
    p = np.asarray(0.95)
    p0 = 2.0 * m0 * d
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        lq0 = np.array([math.log1p(-x) if x < 1.0 else -math.inf for x in p0.tolist()])
        e = lq0 - np.log1p(-p)
        i = np.floor(e / rate)
        frac = -np.expm1(-(e - i * rate)) / -math.expm1(-rate)
        tail = d + w * (i + frac)
        core = np.where(p0 > 0, p * (d / p0), 0.0)
    return 2.0 * np.where(p <= p0, core, tail)


_optimal_d_memo = functools.lru_cache(maxsize=1024)(_optimal_d)
"""Memo of the search (deterministic: a repeated call finds the same d)."""

