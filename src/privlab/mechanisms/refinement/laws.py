"""Exact output laws of knowledge refinement, with vectorized seeded samplers.

* :class:`DiscreteLaw` — the refined pmf over a finite Range(f) (numbers of the prior's type:
  Fractions stay exact), with the factor applied to each value.
* :class:`ContinuousLaw` — a refined a.c. prior.  Every refinement multiplies the prior density
  by a factor that depends on the point only through u = F(x), F the prior CDF, and is constant
  on finitely many u-intervals: the output CDF is G(x) = H(F(x)) with H piecewise linear,
  slopes ``slopes[i]`` on [knots[i], knots[i+1]].  An (ε, δ) variant adds an atom at f(D).
  Sampling inverts H (one uniform per draw) and then F: x = F⁻¹(H⁻¹(v)).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np
from scipy import integrate

from privlab._rng import RngLike, as_generator
from privlab._validate import shape_tuple


@attrs.frozen(kw_only=True)
class DiscreteLaw:
    """pmf ``probs[i]`` at ``values[i]``; ``factors[i]`` = probs[i]/prior[i] where defined."""

    values: tuple[Any, ...]
    probs: tuple[Any, ...]
    factors: tuple[Any, ...] = ()
    info: Mapping[str, Any] = attrs.field(factory=dict)
    """Algorithm 5.1 trace: branch, masses of U_u / U'_u / U'_d, α_ud, moved δ-mass."""

    def prob(self, value: Any) -> Any:
        try:
            return self.probs[self.values.index(value)]
        except ValueError:
            return 0

    def as_dict(self) -> dict[Any, Any]:
        return dict(zip(self.values, self.probs, strict=True))

    @property
    def total(self) -> Any:
        return sum(self.probs)

    def _cum(self) -> np.ndarray:
        p = np.asarray([float(q) for q in self.probs])
        c = np.cumsum(p)
        return c / c[-1]

    def sample_index(self, shape: Any = (), *, rng: RngLike = None) -> np.ndarray:
        """Indices into ``values`` (an integer encoding of categorical answers)."""
        shp = shape_tuple(shape)
        u = as_generator(rng).random(shp)
        idx = np.searchsorted(self._cum(), u, side="right")
        return np.minimum(idx, len(self.values) - 1)

    def sample(self, shape: Any = (), *, rng: RngLike = None) -> np.ndarray:
        vals = np.empty(len(self.values), dtype=object)
        vals[:] = list(self.values)
        idx = self.sample_index(shape, rng=rng)
        out = vals[idx.reshape(-1)].reshape(idx.shape)
        if all(isinstance(x, int | float) and not isinstance(x, bool) for x in self.values):
            return out.astype(float)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"pmf": [[x, str(p) if hasattr(p, "limit_denominator") else float(p)]
                        for x, p in zip(self.values, self.probs, strict=True)],
                "info": dict(self.info)}


@attrs.frozen(kw_only=True)
class ContinuousLaw:
    """Output law x = F⁻¹(u) with u-density ``slopes`` on ``knots`` plus an atom at ``center``."""

    prior: Any = attrs.field(eq=False)
    knots: tuple[float, ...]
    slopes: tuple[float, ...]
    center: float
    atom: float = 0.0
    info: Mapping[str, Any] = attrs.field(factory=dict)

    @property
    def total(self) -> float:
        return float(np.dot(self.slopes, np.diff(self.knots))) + self.atom

    def _masses(self) -> np.ndarray:
        return np.concatenate([[0.0], np.cumsum(np.asarray(self.slopes) *
                                                 np.diff(np.asarray(self.knots)))])

    def factor_at(self, x: Any) -> np.ndarray:
        """The factor applied to the prior density at x (the refined/prior density ratio)."""
        u = np.asarray(self.prior.cdf(x), dtype=float)
        k = np.clip(np.searchsorted(self.knots, u, side="right") - 1, 0, len(self.slopes) - 1)
        return np.asarray(self.slopes)[k]

    def pdf(self, x: Any) -> np.ndarray:
        """Density of the continuous part (the atom, if any, is :attr:`atom` at ``center``)."""
        return self.factor_at(x) * np.asarray(self.prior.pdf(x), dtype=float)

    def cdf(self, x: Any) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        u = np.asarray(self.prior.cdf(x), dtype=float)
        kn, m = np.asarray(self.knots), self._masses()
        k = np.clip(np.searchsorted(kn, u, side="right") - 1, 0, len(self.slopes) - 1)
        h = m[k] + np.asarray(self.slopes)[k] * (u - kn[k])
        return h + self.atom * (x >= self.center)

    def prob_interval(self, a: float, b: float) -> float:
        """P(a ≤ X ≤ b) (atom included when a ≤ center ≤ b)."""
        ua, ub = float(self.prior.cdf(a)), float(self.prior.cdf(b))
        kn, s = np.asarray(self.knots), np.asarray(self.slopes)
        lo, hi = np.clip(kn[:-1], ua, ub), np.clip(kn[1:], ua, ub)
        return float(np.dot(s, hi - lo)) + (self.atom if a <= self.center <= b else 0.0)

    def sample(self, shape: Any = (), *, rng: RngLike = None) -> np.ndarray:
        shp = shape_tuple(shape)
        v = as_generator(rng).random(shp)
        m = self._masses()
        w = np.where(v < self.atom, 0.0, v - self.atom)
        kn, s = np.asarray(self.knots), np.asarray(self.slopes)
        k = np.clip(np.searchsorted(m, w, side="right") - 1, 0, len(s) - 1)
        safe = np.where(s[k] > 0, s[k], 1.0)
        u = np.clip(kn[k] + (w - m[k]) / safe, 0.0, 1.0)
        x = np.asarray(self.prior.ppf(u), dtype=float)
        return np.where(v < self.atom, self.center, x)

    def moment(self, k: int) -> float:
        """E[X^k] = Σ_cells slope·∫ F⁻¹(u)^k du + atom·center^k (quadrature per cell)."""
        return self.moments(k)[0]

    def moments(self, *ks: int) -> tuple[float, ...]:
        """(E[X^k] for k in ``ks``), each exactly as :meth:`moment` computes it (the same
        quadratures, in the same order); the prior quantiles F⁻¹(u) are shared between them
        (the adaptive rules of the k's meet mostly the same nodes u; a quantile is a pure
        function of u, so the integrands return the same floats)."""
        ppf: dict[float, float] = {}

        def quantile(u: float) -> float:
            x = ppf.get(u)
            if x is None:
                x = ppf[u] = float(self.prior.ppf(u))
            return x

        out = []
        for k in ks:
            acc = self.atom * self.center**k
            for lo, hi, s in zip(self.knots[:-1], self.knots[1:], self.slopes, strict=True):
                if s == 0 or hi <= lo:
                    continue
                val, _ = integrate.quad(lambda u, k=k: quantile(u) ** k, lo, hi,
                                        limit=200, epsabs=1e-13, epsrel=1e-12)
                acc += s * val
            out.append(acc)
        return tuple(out)

    def mean(self) -> float:
        return self.moment(1)

    def variance(self) -> float:
        m = self.mean()
        return self.moment(2) - m * m

    def to_dict(self) -> dict[str, Any]:
        return {"knots": list(self.knots), "slopes": list(self.slopes), "center": self.center,
                "atom": self.atom, "info": dict(self.info)}
