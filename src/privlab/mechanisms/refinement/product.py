"""Knowledge refinement for multi-component queries with continuous components (thesis §5.2).

A query f = (f_1, …, f_d) with an independent continuous prior per component: the joint prior
density is p(x) = Π_i p_i(x_i) on ℝ^d.  Example 7 of §5.2 says the distance over Range(f) is
application-dependent, so the user chooses it; privlab offers the weighted norms

    chebyshev  d(x, t) = max_i w_i |x_i − t_i|
    l1         d(x, t) = Σ_i w_i |x_i − t_i|
    l2         d(x, t) = (Σ_i w_i² (x_i − t_i)²)^{1/2}

and Algorithm 5.1's "then" branch: U_u = {x : d(x, t) ≤ r} with prior mass exactly
p_u = (1 − α_d)/(α_u − α_d) (mass conservation, :func:`required_masses`), α_u on U_u and α_d
elsewhere.  Such an r exists for *every* t: r ↦ P(d(X, t) ≤ r) is non-decreasing, continuous
(the prior is atomless and the sphere {d = r} of a norm is Lebesgue-null), 0 at r = 0 and → 1,
so the intermediate value theorem applies — the "else" branch of Algorithm 5.1 never occurs.

Ball masses: chebyshev — the ball is the box Π_i [t_i − r/w_i, t_i + r/w_i], so its mass is
Π_i (F_i(t_i + r/w_i) − F_i(t_i − r/w_i)), exact up to the components' cdf (any d; exactly in
rationals for Fraction :class:`PiecewisePrior` components, where each factor is piecewise linear
in r — :mod:`privlab.verify.refinement.exact`); l1 / l2 — nested one-dimensional quadrature
(every x_1-section of a ball is a ball of the same norm): d = 2 with error estimate ≤ 1e-12,
d = 3 with ≤ 1e-11 (:mod:`privlab.mechanisms.refinement.quadrature`); d > 3 is rejected, and in
d = 1 every norm is |·|.  The radius solves P(U_u) = p_u by Brent's method.

Not offered: the (ε, δ) variants of §5.2 (rejected for products: the atom at f(D) and the
"farthest points" rule need a separate analysis in d > 1), and discrete components (a product
with atoms breaks the IVT argument, so Algorithm 5.1's else-branch would be needed; a product
of *discrete* components is :func:`~privlab.mechanisms.refinement.priors.product_prior`).

Sampling (vectorised, seeded): choose U_u with probability α_u·p_u (the output mass of U_u);
inside draws come from the prior restricted to the bounding box of the ball (component-wise
inverse cdf on the truncated range) and are kept when inside the ball; outside draws come from
the prior and are kept when outside (acceptance 1 − p_u; p_u = 1/(1 + e^ε) for the individual
factors).  Loops run in batches with a fixed cap and fail loudly rather than hang.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np
from scipy import optimize

from privlab import _validate as v
from privlab._rng import RngLike, as_generator
from privlab.errors import InvalidParameter
from privlab.mechanisms.refinement.priors import ContinuousPrior, PiecewisePrior
from privlab.mechanisms.refinement.quadrature import section_integral
from privlab.mechanisms.refinement.quadrature_3d import ball_mass_3d, intersection_mass_3d

NORMS = ("chebyshev", "l1", "l2")
MAX_QUAD_DIM = 3
MAX_ROUNDS = 10_000

__all__ = ["NORMS", "ProductDistance", "ProductLaw", "ProductPrior", "refine_product"]


def _check_components(_i: Any, _a: Any, comps: tuple[Any, ...]) -> None:
    if not comps:
        raise InvalidParameter("components=() must hold at least one prior")
    for k, c in enumerate(comps):
        if not isinstance(c, ContinuousPrior | PiecewisePrior):
            raise InvalidParameter(f"components[{k}]={c!r} must be a ContinuousPrior or "
                                   f"PiecewisePrior (continuous components)")


@attrs.frozen(kw_only=True)
class ProductPrior:
    """Independent continuous components; values are points of ℝ^d (arrays of shape (d,))."""

    components: tuple[ContinuousPrior | PiecewisePrior, ...] = attrs.field(
        converter=tuple, validator=_check_components)
    kind = "product"

    @property
    def dim(self) -> int:
        return len(self.components)

    def point(self, t: Any, name: str = "true_value") -> np.ndarray:
        try:
            x = np.asarray(t, dtype=float).reshape(-1)
        except (TypeError, ValueError):
            raise InvalidParameter(f"{name}={t!r} must be a point of R^{self.dim}") from None
        if x.size != self.dim or not np.all(np.isfinite(x)):
            raise InvalidParameter(f"{name}={t!r} must be {self.dim} finite numbers")
        return x

    def pdf(self, x: Any) -> np.ndarray:
        x = np.asarray(x, dtype=float).reshape(-1, self.dim)
        out = np.ones(x.shape[0])
        for i, c in enumerate(self.components):
            out = out * np.asarray(c.pdf(x[:, i]), dtype=float)
        return out

    def box_mass(self, lo: np.ndarray, hi: np.ndarray) -> float:
        """P(lo ≤ X ≤ hi) = Π_i (F_i(hi_i) − F_i(lo_i)).  Each component's two cdf values
        come from one call on [hi_i, lo_i] (elementwise: the same floats as two calls)."""
        m = 1.0
        for i, c in enumerate(self.components):
            f = np.asarray(c.cdf(np.array([hi[i], lo[i]], dtype=float)), dtype=float)
            m *= max(0.0, float(f[0]) - float(f[1]))
        return m

    def sample_box(self, lo: np.ndarray, hi: np.ndarray, n: int,
                   g: np.random.Generator) -> np.ndarray:
        """n draws of the prior conditioned on the box [lo, hi] (inverse cdf per component)."""
        cols = []
        for i, c in enumerate(self.components):
            a, b = float(c.cdf(lo[i])), float(c.cdf(hi[i]))
            cols.append(np.asarray(c.ppf(a + (b - a) * g.random(n)), dtype=float))
        return np.stack(cols, axis=1)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "components": [c.to_dict() for c in self.components]}


def _weights(inst: Any, _a: Any, w: tuple[float, ...] | None) -> None:
    if w is None:
        return
    if any(not (math.isfinite(x) and x > 0) for x in w):
        raise InvalidParameter(f"weights={w!r} must all be finite and > 0")


@attrs.frozen(kw_only=True)
class ProductDistance:
    """A weighted chebyshev / l1 / l2 norm of x − t (module docstring)."""

    norm: str = attrs.field(default="chebyshev", validator=v.attrs_validator(
        lambda n, x: v.one_of(n, x, NORMS)))
    weights: tuple[float, ...] | None = attrs.field(
        default=None, converter=lambda w: None if w is None else tuple(float(x) for x in w),
        validator=_weights)

    @property
    def name(self) -> str:
        return self.norm if self.weights is None else f"{self.norm}{list(self.weights)}"

    def w(self, d: int) -> np.ndarray:
        if self.weights is None:
            return np.ones(d)
        if len(self.weights) != d:
            raise InvalidParameter(f"weights={list(self.weights)!r} must have {d} entries")
        return np.asarray(self.weights)

    def check_dim(self, d: int) -> None:
        self.w(d)
        if self.norm != "chebyshev" and d > MAX_QUAD_DIM:
            raise InvalidParameter(f"distance={self.norm!r} needs nested quadrature, offered "
                                   f"for d <= {MAX_QUAD_DIM} components (got d = {d}); use "
                                   f"'chebyshev' for any d")

    def boxlike(self, d: int) -> bool:
        """True when balls are boxes (chebyshev, or any norm in d = 1): product formula."""
        return self.norm == "chebyshev" or d == 1

    def __call__(self, x: np.ndarray, t: np.ndarray) -> np.ndarray:
        z = np.abs(np.asarray(x, dtype=float).reshape(-1, t.size) - t) * self.w(t.size)
        if self.norm == "chebyshev":
            return z.max(axis=1)
        if self.norm == "l1":
            return z.sum(axis=1)
        return np.sqrt((z * z).sum(axis=1))

    def box(self, t: np.ndarray, r: float) -> tuple[np.ndarray, np.ndarray]:
        half = r / self.w(t.size)
        return t - half, t + half

    def intersection_mass(self, prior: ProductPrior, t: np.ndarray, r: float,
                          s: np.ndarray, q: float) -> tuple[float, float]:
        """P(X ∈ B(t, r) ∩ B(s, q)) and the quadrature error estimate (0 when exact)."""
        (lo1, hi1), (lo2, hi2) = self.box(t, r), self.box(s, q)
        lo, hi = np.maximum(lo1, lo2), np.minimum(hi1, hi2)
        if np.any(lo >= hi):
            return 0.0, 0.0
        d, w = t.size, self.w(t.size)
        if self.boxlike(d):
            return prior.box_mass(lo, hi), 0.0
        if d == 2:
            return section_integral(self.norm, w, prior.components, t, r, s, q,
                                    float(lo[0]), float(hi[0]))
        if np.array_equal(t, s) and r == q:
            return ball_mass_3d(self.norm, w, prior.components, t, r)
        return intersection_mass_3d(self.norm, w, prior.components, t, r, s, q,
                                    float(lo[0]), float(hi[0]))

    def ball_mass(self, prior: ProductPrior, t: np.ndarray, r: float) -> float:
        if r <= 0:
            return 0.0
        if self.boxlike(t.size):
            return prior.box_mass(*self.box(t, r))
        return self.intersection_mass(prior, t, r, t, r)[0]


def _radius(prior: ProductPrior, dist: ProductDistance, t: np.ndarray, target: float) -> float:
    """r with P(d(X, t) ≤ r) = target (exists by the IVT, module docstring; Brent's method)."""
    seen: dict[float, float] = {}  # brentq re-evaluates the bracket's ends

    def gap(r: float) -> float:
        if r not in seen:
            seen[r] = dist.ball_mass(prior, t, r) - target
        return seen[r]

    hi = 1.0
    while gap(hi) < 0:
        hi *= 2.0
        if hi > 1e200:  # pragma: no cover - a proper prior always gets there
            raise InvalidParameter("could not bracket the radius of U_u")
    return float(optimize.brentq(gap, 0.0, hi, xtol=1e-14, rtol=1e-14, maxiter=500))


@attrs.frozen(kw_only=True)
class ProductLaw:
    """Output law: density α_u·p(x) on B(center, radius), α_d·p(x) outside."""

    prior: ProductPrior = attrs.field(eq=False)
    distance: ProductDistance
    center: tuple[float, ...]
    radius: float
    alpha_u: float
    alpha_d: float
    ball_mass: float
    info: dict[str, Any] = attrs.field(factory=dict, eq=False)

    @property
    def slopes(self) -> tuple[float, float]:
        """The factors applied to the prior density (for the factor-range lemma)."""
        return (self.alpha_u, self.alpha_d)

    @property
    def total(self) -> float:
        return self.alpha_u * self.ball_mass + self.alpha_d * (1.0 - self.ball_mass)

    def inside(self, x: Any) -> np.ndarray:
        return self.distance(x, np.asarray(self.center)) <= self.radius

    def factor_at(self, x: Any) -> np.ndarray:
        return np.where(self.inside(x), self.alpha_u, self.alpha_d)

    def pdf(self, x: Any) -> np.ndarray:
        return self.factor_at(x) * self.prior.pdf(x)

    def _draw(self, n: int, g: np.random.Generator, want_inside: bool) -> np.ndarray:
        t = np.asarray(self.center)
        lo, hi = self.distance.box(t, self.radius)
        out: list[np.ndarray] = []
        have = 0
        for _ in range(MAX_ROUNDS):
            if have >= n:
                break
            m = max(64, 2 * (n - have))
            x = (self.prior.sample_box(lo, hi, m, g) if want_inside else
                 self.prior.sample_box(np.full(t.size, -np.inf), np.full(t.size, np.inf), m, g))
            keep = self.inside(x) == want_inside
            out.append(x[keep])
            have += int(keep.sum())
        else:  # pragma: no cover - acceptance is bounded below (module docstring)
            raise InvalidParameter("rejection sampling did not finish; the ball's mass is too "
                                   "close to 0 or 1")
        return np.concatenate(out)[:n]

    def sample(self, shape: Any = (), *, rng: RngLike = None) -> np.ndarray:
        """Draws of shape ``shape + (d,)``."""
        g = as_generator(rng)
        shp = (shape,) if isinstance(shape, int) else tuple(shape)
        n = int(np.prod(shp)) if shp else 1
        ins = g.random(n) < self.alpha_u * self.ball_mass
        x = np.empty((n, self.prior.dim))
        k = int(ins.sum())
        if k:
            x[ins] = self._draw(k, g, True)
        if n - k:
            x[~ins] = self._draw(n - k, g, False)
        return x.reshape(*shp, self.prior.dim)

    def to_dict(self) -> dict[str, Any]:
        return {"center": list(self.center), "radius": self.radius,
                "distance": self.distance.name, "alpha_u": self.alpha_u,
                "alpha_d": self.alpha_d, "ball_mass": self.ball_mass, "info": dict(self.info)}


def refine_product(prior: ProductPrior, t: Any, distance: ProductDistance,
                   alpha_u: float, alpha_d: float, p_u: float) -> ProductLaw:
    """Algorithm 5.1 on a product prior (module docstring)."""
    x = prior.point(t)
    distance.check_dim(prior.dim)
    r = _radius(prior, distance, x, p_u)
    mass = distance.ball_mass(prior, x, r)
    return ProductLaw(prior=prior, distance=distance, center=tuple(float(z) for z in x),
                      radius=r, alpha_u=alpha_u, alpha_d=alpha_d, ball_mass=mass,
                      info={"branch": "then", "p_u": p_u, "radius": r})


def absent_law(prior: ProductPrior, distance: ProductDistance) -> ProductLaw:
    """The prior itself (factor 1 everywhere): an individual query's answer when absent."""
    return ProductLaw(prior=prior, distance=distance, center=(0.0,) * prior.dim, radius=-1.0,
                      alpha_u=1.0, alpha_d=1.0, ball_mass=0.0, info={"branch": "absent"})


def parse_product(spec: str, parse_one: Any) -> ProductPrior:
    """``product(uniform:0,1;norm:0,1)`` — components separated by ``;``."""
    body = spec.strip()[len("product("):-1]
    parts: Sequence[str] = [s.strip() for s in body.split(";")]
    if not body.strip() or any(not s for s in parts):
        raise InvalidParameter(f"prior={spec!r}: product(...) needs ';'-separated components")
    return ProductPrior(components=tuple(parse_one(s) for s in parts))
