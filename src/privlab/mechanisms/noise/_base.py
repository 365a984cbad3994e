"""Shared machinery of symmetric, additive, data-independent noise mechanisms.

A subclass describes the law of |Y| (``_abs_cdf``, ``_abs_icdf``, ``_abs_pdf``) and the exact
piecewise log-density (``log_pieces``, ``tail``); this mixin derives the signed
``pdf/logpdf/cdf/icdf/sample`` (scipy.stats-style, vectorized) and the release
``value + noise`` with a fast (float) and a safe (exact discrete) mode.
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np
from numpy.typing import ArrayLike, NDArray

from privlab._rng import RngLike, as_generator
from privlab._validate import finite_array, one_of, positive, shape_tuple
from privlab.errors import InvalidParameter
from privlab.mechanisms.noise.safe import safe_release
from privlab.types import PureDP

Array = NDArray[np.float64]

OBJECTIVES = ("variance", "ci95", "abs")
MODES = ("fast", "safe")


@attrs.frozen
class LogPiece:
    """log f(x) = intercept + slope·x on the open interval (lo, hi) (mpmath numbers)."""

    lo: Any
    hi: Any
    intercept: Any
    slope: Any

    def at(self, x: Any) -> Any:
        return self.intercept + self.slope * x


@attrs.frozen
class Tail:
    """Periodic-geometric tails: f(x + period)/f(x) is constant for x ≥ start, and
    f(x − period)/f(x) is constant for x ≤ −start.  Log-differences of pairs lying wholly beyond
    ``start`` repeat after a shift by ``period``; checkers use it to reduce ℝ to a window."""

    start: float
    period: float




class SymmetricNoise:
    """Mixin: a symmetric noise law on ℝ given by the law of its absolute value."""

    epsilon: float
    sensitivity: float
    name: str = "noise"

    # --- to be provided by subclasses -------------------------------------------------------
    def _abs_pdf(self, a: Array) -> Array:  # density of Y at |y| = a (not of |Y|)
        raise NotImplementedError

    def _abs_cdf(self, a: Array) -> Array:  # P(|Y| <= a)
        raise NotImplementedError

    def _abs_icdf(self, p: Array) -> Array:  # inverse of _abs_cdf on [0, 1)
        raise NotImplementedError

    def log_pieces(self, lo: Any, hi: Any) -> list[LogPiece]:
        raise NotImplementedError

    def tail(self) -> Tail:
        raise NotImplementedError

    # --- derived ----------------------------------------------------------------------------
    @property
    def guarantee(self) -> PureDP:
        return PureDP(epsilon=self.epsilon, neighbour=getattr(self, "neighbour", "substitute"))

    def pdf(self, x: ArrayLike) -> Array:
        x = np.asarray(x, dtype=float)
        return self._abs_pdf(np.abs(x))

    def logpdf(self, x: ArrayLike) -> Array:
        with np.errstate(divide="ignore"):
            return np.log(self.pdf(x))

    def cdf(self, x: ArrayLike) -> Array:
        x = np.asarray(x, dtype=float)
        g = self._abs_cdf(np.abs(x))
        return np.where(x >= 0, 0.5 + 0.5 * g, 0.5 - 0.5 * g)

    def icdf(self, q: ArrayLike) -> Array:
        q = np.asarray(q, dtype=float)
        if np.any((q < 0) | (q > 1) | np.isnan(q)):
            raise InvalidParameter("q must lie in [0, 1]")
        upper = q >= 0.5
        p = np.where(upper, 2.0 * q - 1.0, 1.0 - 2.0 * q)
        with np.errstate(divide="ignore", invalid="ignore"):
            a = np.where(p >= 1.0, np.inf, self._abs_icdf(np.minimum(p, np.nextafter(1.0, 0))))
        return np.where(upper, a, -a)

    def prob_within(self, alpha: ArrayLike) -> Array:
        """P(|Y| ≤ α) — the quantity ordered by thesis §4.1 Definition 6."""
        return self._abs_cdf(np.abs(np.asarray(alpha, dtype=float)))

    def ci_halfwidth(self, level: float = 0.95) -> float:
        """Smallest α with P(|Y| ≤ α) ≥ level (the symmetric CI is [x − α, x + α])."""
        lv = float(level)
        if not 0.0 < lv < 1.0:
            raise InvalidParameter(f"level={level!r} must lie in (0, 1)")
        return float(self._abs_icdf(np.asarray(lv)))

    def sample(self, shape: Any = (), *, rng: RngLike = None) -> Array:
        """Exact inverse-CDF sampling from one uniform per draw (float threat model: see
        :mod:`privlab.mechanisms.noise.safe`)."""
        shape = shape_tuple(shape)
        gen = as_generator(rng)
        u = gen.random(shape)
        return self._sample_from_uniform(u)

    def _sample_from_uniform(self, u: Array) -> Array:
        # one uniform gives both the sign (u < 1/2) and the quantile of |Y| (|2u - 1|)
        w = 2.0 * u - 1.0
        # u = 0 gives |w| = 1, the quantile at probability 1 (infinite or undefined): an event
        # of probability 2^-53, mapped to the last finite quantile below 1
        a = self._abs_icdf(np.minimum(np.abs(w), np.nextafter(1.0, 0.0)))
        return np.copysign(a, w)

    def release(self, value: ArrayLike, *, rng: RngLike = None, mode: str = "fast",
                granularity: float | None = None) -> Array:
        """``value + noise`` elementwise.

        ``mode="fast"``: float noise (fast, exact in distribution up to float rounding, but open
        to Mironov-2012-style attacks on the low-order bits).  ``mode="safe"``: exact discrete
        noise on a power-of-two grid, see :mod:`privlab.mechanisms.noise.safe`.
        """
        one_of("mode", mode, MODES)
        x = finite_array("value", value)
        if mode == "safe":
            return safe_release(self, x, rng=rng, granularity=granularity)
        return x + self.sample(x.shape, rng=rng)


def validate_eps_sens(epsilon: Any, sensitivity: Any) -> None:
    positive("epsilon", epsilon)
    positive("sensitivity", sensitivity)
