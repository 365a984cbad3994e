"""The Laplace mechanism (thesis §2.9; textbook, "Laplace mechanism").

Noise density f(y) = 1/(2b) · exp(−|y|/b) with scale b = Δ/ε.  For a query of sensitivity Δ under
the stated neighbour relation, x + Y is ε-DP because log f is (1/b)-Lipschitz: for |δ| ≤ Δ,
log f(y) − log f(y+δ) ≤ |δ|/b ≤ ε.

Moments: Var Y = 2b², E|Y| = b, P(|Y| ≤ α) = 1 − e^{−α/b}, so the symmetric CI at level L has
half-width b·ln(1/(1−L)) (95 %: b·ln 20).  Every objective is increasing in b, so the smallest
admissible scale b = Δ/ε is optimal for all of them within the Laplace family.
"""

from __future__ import annotations

from typing import Any

import attrs
import mpmath
import numpy as np

from privlab._validate import attrs_converter, one_of, positive, shape_tuple
from privlab.mechanisms.noise._base import OBJECTIVES, Array, LogPiece, SymmetricNoise, Tail
from privlab.types import Neighbour


@attrs.frozen(kw_only=True)
class Laplace(SymmetricNoise):
    """Laplace noise of scale ``sensitivity / epsilon``."""

    epsilon: float = attrs.field(converter=attrs_converter(positive))
    sensitivity: float = attrs.field(default=1.0, converter=attrs_converter(positive))
    neighbour: Neighbour = attrs.field(default=Neighbour.SUBSTITUTE, converter=Neighbour.parse)
    name = "laplace"
    scale_factor = 1.0  # broken controls (mechanisms.controls) override this; never the users


    @classmethod
    def optimal(cls, epsilon: float, sensitivity: float = 1.0, objective: str = "variance",
                **kw: Any) -> Laplace:
        """The Laplace member optimal for ``objective``: always scale Δ/ε (see module doc)."""
        one_of("objective", objective, OBJECTIVES)
        return cls(epsilon=epsilon, sensitivity=sensitivity, **kw)

    @property
    def scale(self) -> float:
        return self.scale_factor * self.sensitivity / self.epsilon

    @property
    def parameters(self) -> dict[str, float]:
        return {"epsilon": self.epsilon, "sensitivity": self.sensitivity, "scale": self.scale}

    # law of |Y|
    def _abs_pdf(self, a: Array) -> Array:
        b = self.scale
        return np.exp(-a / b) / (2.0 * b)

    def _abs_cdf(self, a: Array) -> Array:
        return -np.expm1(-np.asarray(a, dtype=float) / self.scale)

    def _abs_icdf(self, p: Array) -> Array:
        return -self.scale * np.log1p(-np.asarray(p, dtype=float))

    def logpdf(self, x: Any) -> Array:
        b = self.scale
        return -np.abs(np.asarray(x, dtype=float)) / b - np.log(2.0 * b)

    def sample(self, shape: Any = (), *, rng: Any = None) -> Array:
        from privlab._rng import as_generator

        return as_generator(rng).laplace(0.0, self.scale, shape_tuple(shape))

    def variance(self) -> float:
        return 2.0 * self.scale * self.scale  # inf, not OverflowError, past 1e154

    def mean_abs(self) -> float:
        return self.scale

    def objective_value(self, objective: str) -> float:
        one_of("objective", objective, OBJECTIVES)
        return {"variance": self.variance, "abs": self.mean_abs,
                "ci95": lambda: 2.0 * self.ci_halfwidth(0.95)}[objective]()

    # exact structure for the checkers
    def log_pieces(self, lo: Any, hi: Any) -> list[LogPiece]:
        """Two log-linear pieces, clipped to [lo, hi] (mpmath at the caller's precision)."""
        b = mpmath.mpf(self.scale_factor) * mpmath.mpf(self.sensitivity) / mpmath.mpf(self.epsilon)
        c = -mpmath.log(2 * b)
        lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
        out = []
        if lo < 0:
            out.append(LogPiece(lo, min(hi, mpmath.mpf(0)), c, 1 / b))
        if hi > 0:
            out.append(LogPiece(max(lo, mpmath.mpf(0)), hi, c, -1 / b))
        return out

    def tail(self) -> Tail:
        return Tail(start=0.0, period=self.sensitivity)
