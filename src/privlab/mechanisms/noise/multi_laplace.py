"""The comparison baseline of thesis §4.5: d independent Laplace components.

For a query with values in ℝ^d and L1 sensitivity Δ = sup_{δ∈S_f} ‖δ‖₁ (box S_f = Π[−s_j, s_j]:
Δ = Σ s_j, Example 4; L1 ball {Σ|δ_j|/s_j ≤ 1}: Δ = max s_j), the Laplace mechanism adds
Y_j ~ Laplace(b), b = Δ/ε, independently: f(y) = (2b)^{−d} exp(−‖y‖₁/b), ε-DP because
|‖y‖₁ − ‖y + δ‖₁| ≤ ‖δ‖₁ ≤ Δ.

Its level sets are L1 balls, so the minimal-volume region at level L is {‖y‖₁ ≤ α} with
‖Y‖₁ ~ Gamma(d, b): α = b·P^{−1}(d, L) (regularised incomplete gamma), of volume (2α)^d/d!
(Table 4.3: d = 2, b = 11).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs
import mpmath
import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from privlab import _validate as v
from privlab._rng import RngLike, as_generator
from privlab.errors import InvalidParameter
from privlab.mechanisms.noise._base import Array
from privlab.mechanisms.noise.box_objectives import ConfidenceRegion, check_level
from privlab.mechanisms.noise.box_staircase import as_widths
from privlab.types import Neighbour, PureDP


@attrs.frozen(kw_only=True)
class IndependentLaplace:
    """d i.i.d. Laplace(Δ/ε) components (Δ = L1 sensitivity of the vector query)."""

    epsilon: float = attrs.field(converter=v.attrs_converter(v.positive))
    l1_sensitivity: float = attrs.field(converter=v.attrs_converter(v.positive))
    dim: int = attrs.field(converter=v.attrs_converter(v.positive_int))
    neighbour: Neighbour = attrs.field(default=Neighbour.SUBSTITUTE, converter=Neighbour.parse)
    name = "independent-laplace"

    @classmethod
    def for_box(cls, epsilon: float, sensitivity: Sequence[float], **kw: Any) -> IndependentLaplace:
        """Calibrated to S_f = Π[−s_j, s_j]: Δ = Σ s_j (thesis Example 4)."""
        s = as_widths("sensitivity", sensitivity)
        return cls(epsilon=epsilon, l1_sensitivity=math.fsum(s), dim=len(s), **kw)

    @classmethod
    def for_l1_ball(cls, epsilon: float, sensitivity: Sequence[float],
                    **kw: Any) -> IndependentLaplace:
        """Calibrated to S_f = {Σ|δ_j|/s_j ≤ 1}: Δ = max s_j."""
        s = as_widths("sensitivity", sensitivity)
        return cls(epsilon=epsilon, l1_sensitivity=max(s), dim=len(s), **kw)

    @property
    def scale(self) -> float:
        return self.l1_sensitivity / self.epsilon

    @property
    def guarantee(self) -> PureDP:
        return PureDP(epsilon=self.epsilon, neighbour=self.neighbour)

    @property
    def parameters(self) -> dict[str, Any]:
        return {"epsilon": self.epsilon, "l1_sensitivity": self.l1_sensitivity,
                "dim": self.dim, "scale": self.scale}

    def _x(self, x: ArrayLike) -> Array:
        a = np.asarray(x, dtype=float)
        if a.ndim == 0 or a.shape[-1] != self.dim:
            raise InvalidParameter(f"x of shape {a.shape} must have last axis of length "
                                   f"{self.dim}")
        return a

    def logpdf(self, x: ArrayLike) -> Array:
        b = self.scale
        return -np.abs(self._x(x)).sum(axis=-1) / b - self.dim * math.log(2.0 * b)

    def pdf(self, x: ArrayLike) -> Array:
        return np.exp(self.logpdf(x))

    def marginal_pdf(self, x: ArrayLike, axis: int = 0) -> Array:
        b = self.scale
        return np.exp(-np.abs(np.asarray(x, dtype=float)) / b) / (2.0 * b)

    def marginal_cdf(self, x: ArrayLike, axis: int = 0) -> Array:
        x = np.asarray(x, dtype=float)
        half = 0.5 * np.exp(-np.abs(x) / self.scale)
        return np.where(x >= 0, 1.0 - half, half)

    def marginal_variance(self, axis: int = 0, *, exact: bool = False, dps: int = 50) -> Any:
        if exact:
            with mpmath.workdps(dps):
                return 2 * (mpmath.mpf(self.l1_sensitivity) / mpmath.mpf(self.epsilon)) ** 2
        return 2.0 * self.scale**2

    def variances(self) -> tuple[float, ...]:
        return (2.0 * self.scale**2,) * self.dim

    def prob_l1_ball(self, alpha: ArrayLike) -> Array:
        """P(‖Y‖₁ ≤ α) = P(d, α/b) (Gamma(d, b) CDF)."""
        a = np.asarray(alpha, dtype=float)
        return special.gammainc(self.dim, np.maximum(a, 0.0) / self.scale)

    def prob_box(self, lower: Sequence[float], upper: Sequence[float], **_: Any) -> float:
        lo, hi = np.asarray(lower, dtype=float), np.asarray(upper, dtype=float)
        return float(np.prod(self.marginal_cdf(hi) - self.marginal_cdf(lo)))

    def confidence_region(self, level: float = 0.95, *, exact: bool = False,
                          dps: int = 40) -> ConfidenceRegion:
        """{‖y‖₁ ≤ α} with P = level; volume (2α)^d/d!."""
        L = check_level(level)
        d = self.dim
        if exact:
            with mpmath.workdps(dps):
                b = mpmath.mpf(self.l1_sensitivity) / mpmath.mpf(self.epsilon)
                g = float(special.gammaincinv(d, L))
                u = mpmath.findroot(
                    lambda t: mpmath.gammainc(d, 0, t, regularized=True) - mpmath.mpf(L), g)
                alpha = b * u
                return ConfidenceRegion(level=L, radius=alpha,
                                        volume=(2 * alpha) ** d / mpmath.factorial(d))
        alpha = self.scale * float(special.gammaincinv(d, L))
        return ConfidenceRegion(level=L, radius=alpha,
                                volume=(2.0 * alpha) ** d / math.factorial(d))

    def sample(self, shape: Any = (), *, rng: RngLike = None) -> Array:
        """Output shape (*shape, d): numpy's Laplace sampler, d draws per point."""
        shape = v.shape_tuple(shape)
        return as_generator(rng).laplace(0.0, self.scale, (*shape, self.dim))

    def release(self, value: ArrayLike, *, rng: RngLike = None) -> Array:
        x = self._x(value)
        v.finite_array("value", x)
        return x + self.sample(x.shape[:-1], rng=rng)
