"""Shell noise for an L1-ball sensitivity set (extension of thesis §4.5 beyond boxes).

S_f = {δ : ‖δ‖_s ≤ 1}, ‖x‖_s = Σ_j |x_j|/s_j (s_j = Δ for all j: the plain L1 ball of radius Δ).
Such an S_f fits queries whose components trade off against each other: a record moves a total
weight of at most Δ across the d outputs (e.g. a record's fractional contributions to d counts,
or a histogram under add/remove, whose Definition-9 set — the cross of the segments ⟨0, ±e_j⟩ —
lies inside the unit L1 ball, so calibrating to the ball is safe and slightly conservative).

With core S_0 = ρ·S_f (ρ ∈ [0, 1], so S_0 ⊂ S_f and S_0 is star-shaped), Theorem 3's recursion
gives B_i = S_0 + i·S_f = (ρ + i)·S_f (convexity), hence the shell of x is
i(x) = max(0, ⌈‖x‖_s − ρ⌉), and i(x+δ) ≥ i(x) − 1 for ‖δ‖_s ≤ 1 by the triangle inequality.

vol B_i = κ (ρ + i)^d with κ = 2^d Π s_j / d!, so every series is the one of the box case with
the factors (ρ, 1)^d (see :mod:`._shell_series`).  Given its shell, a point is uniform on the
shell: its norm T has density ∝ t^{d−1} on (ρ + i − 1, ρ + i] and its direction is uniform on
the unit sphere of ‖·‖_s (cone measure = Dirichlet(1, …, 1) with random signs), independent of
T.  Hence E Y_j² = s_j² E T² · E D_j² with E D_j² = 2/(d(d + 1)).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import attrs
import mpmath
import numpy as np
from numpy.typing import ArrayLike

from privlab import _validate as v
from privlab._rng import RngLike, as_generator
from privlab.errors import InvalidParameter
from privlab.mechanisms.noise import _shell_series as ss
from privlab.mechanisms.noise._base import Array
from privlab.mechanisms.noise.box_objectives import (
    ConfidenceRegion,
    check_level,
    min_volume,
    min_volume_level,
)
from privlab.mechanisms.noise.box_staircase import as_widths
from privlab.types import Neighbour, PureDP


@attrs.frozen(kw_only=True)
class L1BallStaircase:
    """Shell noise for S_f = {‖δ‖_s ≤ 1} with core ρ·S_f."""

    epsilon: float = attrs.field(converter=v.attrs_converter(v.positive))
    sensitivity: tuple[float, ...] = attrs.field(converter=v.attrs_converter(as_widths))
    core: float = attrs.field(
        converter=v.attrs_converter(lambda n, x: v.in_closed(n, x, 0.0, 1.0)))
    neighbour: Neighbour = attrs.field(default=Neighbour.SUBSTITUTE, converter=Neighbour.parse)
    name = "l1-staircase"
    rate_factor = 1.0  # broken controls only
    width_factor = 1.0

    @classmethod
    def optimal(cls, epsilon: float, sensitivity: Sequence[float], objective: str = "variance",
                *, level: float = 0.95, **kw: Any) -> L1BallStaircase:
        """ρ ∈ [0, 1] minimising the sum of variances (∝ E‖Y‖_s²) or the minimal region's
        volume at ``level`` (``volume``, ``volume95``…): 41-point scan, then bounded Brent."""
        from scipy import optimize

        from privlab.mechanisms.noise.box_objectives import parse_objective

        kind, lv = parse_objective(objective, level)
        if kind == "weighted":
            raise InvalidParameter("objective='weighted' is not defined for L1 shells (all "
                                   "components share E‖Y‖_s²)")
        s = as_widths("sensitivity", sensitivity)

        def f(rho: float) -> float:
            m = cls(epsilon=epsilon, sensitivity=s, core=min(max(rho, 0.0), 1.0))
            if kind == "volume":
                return m._region_volume(lv, dps=20)
            return float(m.second_moment_norm())

        grid = np.linspace(0.0, 1.0, 41)
        vals = [f(g) for g in grid]
        j = int(np.argmin(vals))
        res = optimize.minimize_scalar(f, bounds=(grid[max(j - 1, 0)], grid[min(j + 1, 40)]),
                                       method="bounded", options={"xatol": 1e-10})
        best = float(res.x) if res.fun <= vals[j] else float(grid[j])
        return cls(epsilon=epsilon, sensitivity=s, core=best, **kw)

    @property
    def dim(self) -> int:
        return len(self.sensitivity)

    @property
    def rate(self) -> float:
        return self.rate_factor * self.epsilon

    @property
    def guarantee(self) -> PureDP:
        return PureDP(epsilon=self.epsilon, neighbour=self.neighbour)

    @property
    def parameters(self) -> dict[str, Any]:
        return {"epsilon": self.epsilon, "sensitivity": list(self.sensitivity),
                "core": self.core, "normaliser": self.normaliser}

    def _nums(self, exact: bool) -> tuple[Any, Any, Any, Any, Any]:
        """(ρ, step, κ, r, q) as floats or mpmath numbers."""
        d = self.dim
        if exact:
            rate = mpmath.mpf(self.rate_factor) * mpmath.mpf(self.epsilon)
            kappa = 2**d * mpmath.fprod(mpmath.mpf(s) for s in self.sensitivity) \
                / mpmath.factorial(d)
            return (mpmath.mpf(self.core), mpmath.mpf(self.width_factor), kappa,
                    mpmath.exp(-rate), 1 / mpmath.expm1(rate))
        kappa = 2.0**d * math.prod(self.sensitivity) / math.factorial(d)
        return (self.core, self.width_factor, kappa, math.exp(-self.rate),
                1.0 / math.expm1(self.rate))

    def _volume_factors(self, exact: bool, power: int | None = None,
                        const: Any = 1) -> list[ss.Factor]:
        rho, w, kappa, _r, _q = self._nums(exact)
        return [(rho, w)] * (power or self.dim) + [(kappa * const, 0)]

    @property
    def normaliser(self) -> float:
        _rho, _w, _k, _r, q = self._nums(False)
        return float(1 / ss.gsum(self._volume_factors(False), q))

    def norm(self, x: ArrayLike) -> Array:
        a = np.asarray(x, dtype=float)
        if a.ndim == 0 or a.shape[-1] != self.dim:
            raise InvalidParameter(f"x of shape {a.shape} must have last axis of length "
                                   f"{self.dim}")
        return (np.abs(a) / np.asarray(self.sensitivity)).sum(axis=-1)

    def _shell_float(self, x: ArrayLike) -> Array:
        return np.maximum(0.0, np.ceil((self.norm(x) - self.core) / self.width_factor))

    def shell_index(self, x: ArrayLike) -> np.ndarray:
        i = self._shell_float(x)
        if not np.all(np.isfinite(i)):
            raise InvalidParameter("x must be finite")
        return i.astype(np.int64)

    def shell_index_exact(self, x: Sequence[Any]) -> int:
        if len(x) != self.dim:
            raise InvalidParameter(f"x={x!r} must have {self.dim} entries")
        n = sum(abs(Fraction(xj)) / Fraction(s) for xj, s in zip(x, self.sensitivity,
                                                                 strict=True))
        return max(0, math.ceil((n - Fraction(self.core)) / Fraction(self.width_factor)))

    def logpdf(self, x: ArrayLike) -> Array:
        i = self._shell_float(x)
        with np.errstate(invalid="ignore"):
            out = math.log(self.normaliser) - self.rate * i
        return np.where(np.isnan(out), -np.inf, out)

    def pdf(self, x: ArrayLike) -> Array:
        return np.exp(self.logpdf(x))

    def logpdf_exact(self, x: Sequence[Any], dps: int = 50) -> Any:
        with mpmath.workdps(dps):
            _rho, _w, _k, _r, q = self._nums(True)
            rate = mpmath.mpf(self.rate_factor) * mpmath.mpf(self.epsilon)
            return -mpmath.log(ss.gsum(self._volume_factors(True), q)) \
                - rate * self.shell_index_exact(x)

    def shell_mass(self, i: ArrayLike) -> Array:
        i = np.asarray(i, dtype=float)
        rho, w, kappa, _r, _q = self._nums(False)
        vol = kappa * ((rho + i * w) ** self.dim - np.where(
            i > 0, np.maximum(rho + (i - 1) * w, 0.0) ** self.dim, 0.0))
        return self.normaliser * np.exp(-self.rate * i) * vol

    def second_moment_norm(self, *, exact: bool = False, dps: int = 50) -> Any:
        """E ‖Y‖_s² = M(1 − r) Σ_i r^i κ d/(d+2) (ρ + i)^{d+2}."""
        with mpmath.workdps(dps):
            _rho, _w, _k, _r, q = self._nums(exact)
            d = self.dim
            M = 1 / ss.gsum(self._volume_factors(exact), q)
            val = M * ss.gsum(self._volume_factors(exact, d + 2, (d / (d + 2)) if not exact
                                                   else mpmath.mpf(d) / (d + 2)), q)
            return +val if exact else float(val)

    def marginal_variance(self, axis: int = 0, *, exact: bool = False, dps: int = 50) -> Any:
        if isinstance(axis, bool) or not isinstance(axis, int) or not 0 <= axis < self.dim:
            raise InvalidParameter(f"axis={axis!r} must be an integer in [0, {self.dim - 1}]")
        d = self.dim
        with mpmath.workdps(dps):
            s = mpmath.mpf(self.sensitivity[axis]) if exact else self.sensitivity[axis]
            val = s**2 * self.second_moment_norm(exact=exact, dps=dps) * 2 / (d * (d + 1))
            return +val if exact else float(val)

    def variances(self) -> tuple[float, ...]:
        return tuple(self.marginal_variance(j) for j in range(self.dim))

    def prob_norm_ball(self, t: float, *, dps: int = 40) -> float:
        """P(‖Y‖_s ≤ t) = M(1 − r) Σ_i r^i κ min(ρ + i, t)^d."""
        t = v.non_negative("t", t)
        with mpmath.workdps(dps):
            rho, w, kappa, r, q = self._nums(True)
            vf = self._volume_factors(True)
            M = 1 / ss.gsum(vf, q)
            k = max(0, int(mpmath.ceil((t - rho) / w)))
            head = ss.range_sum(vf, r, q, 0, k)
            return float(M * (head + r**k * kappa * mpmath.mpf(t) ** self.dim))

    def _region_volume(self, level: float, *, dps: int = 40) -> float:
        """``confidence_region(level, dps=dps).volume`` without the search for β."""
        L = check_level(level)
        with mpmath.workdps(dps):
            _rho, _w, _kappa, r, q = self._nums(True)
            return float(min_volume(self._volume_factors(True), r, q, L))

    def confidence_region(self, level: float = 0.95, *, exact: bool = False,
                          dps: int = 40) -> ConfidenceRegion:
        """{‖y‖_s ≤ ρ + β} of minimal volume at ``level`` (radius in ‖·‖_s units)."""
        L = check_level(level)
        with mpmath.workdps(dps):
            rho, w, _kappa, r, q = self._nums(True)
            vstar, beta = min_volume_level(self._volume_factors(True), r, q, L, -rho / w)
            cv = (lambda x: +x) if exact else float
            return ConfidenceRegion(level=L, volume=cv(vstar), beta=cv(beta),
                                    radius=cv(rho + beta * w))

    def sample(self, shape: Any = (), *, rng: RngLike = None) -> Array:
        """Exact sampler, output (*shape, d): shell by :class:`._shell_series.ShellLaw`, norm by
        inverse CDF of t^{d−1}, direction from normalised exponentials with random signs."""
        shape = v.shape_tuple(shape)
        gen = as_generator(rng)
        n, d = math.prod(shape), self.dim
        rho, w, _k, _r, _q = self._nums(False)
        law = ss.ShellLaw.build(self._volume_factors(False), self.rate)
        i = law.draw(n, gen).astype(float)
        outer = rho + i * w
        inner = np.where(i > 0, rho + (i - 1.0) * w, 0.0)
        u = gen.random(n)
        t = (inner**d + u * (outer**d - inner**d)) ** (1.0 / d)
        e = gen.exponential(size=(n, d))
        sign = np.where(gen.random((n, d)) < 0.5, -1.0, 1.0)
        x = sign * e / e.sum(axis=1, keepdims=True) * t[:, None] * np.asarray(self.sensitivity)
        return x.reshape((*shape, d))

    def release(self, value: ArrayLike, *, rng: RngLike = None) -> Array:
        x = np.asarray(value, dtype=float)
        self.norm(x)
        v.finite_array("value", x)
        return x + self.sample(x.shape[:-1], rng=rng)


@attrs.frozen(kw_only=True)
class HalfStepL1Staircase(L1BallStaircase):
    """Broken control: shells built with step S_f/2 (loss 2ε)."""

    name = "broken-l1-staircase-step"
    width_factor = 0.5
