"""Knowledge refinement: sensitivity-independent DP from the user's prior (thesis ch.5).

The user sends the prior P_f over Range(f) (and a distance d); the holder computes t = f(D),
multiplies the prior mass of the points nearest t by α_u ≥ 1 and of the rest by α_d ≤ 1, and
returns one sample of the result (§5.1).  The output law depends on D only through t, and every
output point gets a factor in [α_d, α_u]; hence for *any* two data sets the output densities
differ by at most α_u/α_d (Proposition 2), whatever the sensitivity of f.  An individual query
(about one person) only has to be compared with the prior, the answer when the person is absent,
so α_u = e^ε, α_d = e^{−ε} give ε under add/remove-one (Proposition 3) — but e^{2ε} between two
present values, i.e. *not* ε under substitution (see :mod:`privlab.verify.refinement.neighbours`).

Algorithm 5.1 (discrete prior; the candidate sets (5.1) are unions of the k nearest distance
levels, cumulative masses c_0 = 0 < … < c_K = 1; p_u, p_d from mass conservation,
:func:`~privlab.mechanisms.refinement.factors.required_masses`):

* *then*: some c_k = p_u — α_u on the first k levels, α_d on the rest;
* *else*: U′_u = first k_u levels, k_u = max{k : c_k < p_u}; U′_d = levels after k_d,
  k_d = min{k : 1 − c_k < p_d}; the middle gets α_ud = (1 − α_u c_{k_u} − α_d(1 − c_{k_d}))
  /(c_{k_d} − c_{k_u}).  α_ud ∈ [α_d, α_u] because c_{k_u} < p_u and 1 − c_{k_d} < p_d.  The
  printed step iv, (1 − α_u p_u − α_d p_d)/(1 − p_u − p_d), divides 0 by 0 (p_u + p_d = 1).

Continuous prior (absolute distance): U_u = [t − r, t + r] with F(t+r) − F(t−r) = p_u (exists
by continuity); see :class:`~privlab.mechanisms.refinement.laws.ContinuousLaw`.  Products of
continuous priors (multi-component queries, a user-chosen chebyshev / l1 / l2 distance):
:mod:`privlab.mechanisms.refinement.product`.

(ε, δ) variants (§5.2): move output mass ``m`` from the points farthest from t to t.  Exact
rule (privlab): individual m = δe^{−ε} (the prior-vs-answer ratio is already tight at e^{−ε} on
the tails, so removing mass x costs e^ε·x of δ), statistical m = δ/(1 + e^ε).  The printed rule
(individual m = δ, statistical m = δ/2) needs δe^ε resp. δ(1 + e^ε)/2: ``delta_rule="paper"``.
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np
from scipy import optimize

from privlab import _validate as v
from privlab._rng import RngLike
from privlab.errors import InvalidParameter
from privlab.mechanisms.refinement.distances import ABSOLUTE, NOMINAL, Distance, get_distance
from privlab.mechanisms.refinement.factors import Factors, printed_masses, required_masses
from privlab.mechanisms.refinement.laws import ContinuousLaw, DiscreteLaw
from privlab.mechanisms.refinement.priors import DiscretePrior, Prior
from privlab.mechanisms.refinement.product import (
    NORMS,
    ProductDistance,
    ProductLaw,
    absent_law,
    refine_product,
)
from privlab.types import ApproxDP, Neighbour, PureDP


class _Absent:
    """The answer of an individual query whose individual is not in the data set."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT = _Absent()
DELTA_RULES = ("exact", "paper")
FLOAT_EQ = 1e-12


def _eq(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return abs(float(a) - float(b)) <= FLOAT_EQ
    return bool(a == b)


def _levels(prior: DiscretePrior, t: Any, distance: Distance) -> tuple[list[Any], list[int]]:
    """Sorted distinct distance levels and the level index of each value."""
    dists = [distance(t, x) for x in prior.values]
    levels = sorted(set(dists))
    index = {d: i for i, d in enumerate(levels)}
    return levels, [index[d] for d in dists]


# ---- Algorithm 5.1 (discrete) -------------------------------------------------------------------
def refine_discrete(prior: DiscretePrior, t: Any, distance: Distance, factors: Factors, *,
                    masses: str = "derived") -> DiscreteLaw:
    """Algorithm 5.1 on a discrete prior; ``masses="printed"`` uses the text's swapped p_u/p_d
    (for the ledger only; the corrected α_ud formula is used either way)."""
    v.one_of("masses", masses, ("derived", "printed"))
    au, ad = factors.alpha_u, factors.alpha_d
    p_u, p_d = required_masses(factors) if masses == "derived" else printed_masses(factors)
    _levels_, lev = _levels(prior, t, distance)
    nlev = len(_levels_)
    lmass: list[Any] = [0] * nlev
    for i, p in zip(lev, prior.probs, strict=True):
        lmass[i] = lmass[i] + p
    cum: list[Any] = [0]
    for m in lmass:
        cum.append(cum[-1] + m)
    hits = [k for k in range(nlev + 1) if _eq(cum[k], p_u)]
    if hits:
        k = hits[-1]
        lf = [au if i < k else ad for i in range(nlev)]
        info = {"branch": "then", "k_u": k, "P(U_u)": cum[k], "alpha_ud": None}
    else:
        k_u = max(k for k in range(nlev + 1) if cum[k] < p_u)
        k_d = min(k for k in range(nlev + 1) if 1 - cum[k] < p_d)
        a_ud = (1 - au * cum[k_u] - ad * (1 - cum[k_d])) / (cum[k_d] - cum[k_u])
        lf = [au if i < k_u else (a_ud if i < k_d else ad) for i in range(nlev)]
        info = {"branch": "else", "k_u": k_u, "k_d": k_d, "P(U'_u)": cum[k_u],
                "P(U'_d)": 1 - cum[k_d], "alpha_ud": a_ud}
    info.update(p_u=p_u, p_d=p_d, masses=masses, levels=nlev)
    facs = tuple(lf[i] for i in lev)
    probs = tuple(f * p for f, p in zip(facs, prior.probs, strict=True))
    return DiscreteLaw(values=prior.values, probs=probs, factors=facs, info=info)


def move_mass_discrete(law: DiscreteLaw, t: Any, distance: Distance, moved: Any) -> DiscreteLaw:
    """Move output mass ``moved`` from the farthest distance levels (never t's own level) to t;
    a level is reduced proportionally when only part of it is needed."""
    if law.prob(t) == 0:
        raise InvalidParameter(f"the prior has zero mass at the true answer {t!r}: the (ε, δ) "
                               f"variant cannot move mass there")
    levels = sorted({distance(t, x) for x in law.values}, reverse=True)
    dt = distance(t, t)
    probs = list(law.probs)
    left = moved
    for lvl in levels:
        if lvl == dt or left <= 0:
            break
        idx = [i for i, x in enumerate(law.values) if distance(t, x) == lvl]
        have = sum(probs[i] for i in idx)
        if have == 0:
            continue
        take = have if have <= left else left
        for i in idx:
            probs[i] = probs[i] - probs[i] * take / have
        left = left - take
    done = moved - left
    it = law.values.index(t)
    probs[it] = probs[it] + done
    return attrs.evolve(law, probs=tuple(probs), info={**law.info, "moved": done})


# ---- continuous ------------------------------------------------------------------------------
def _ball_radius(prior: Any, t: float, target: float) -> float:
    """r ≥ 0 with F(t + r) − F(t − r) = target (bisection on a monotone function).  Both cdf
    values come from one call (elementwise: the same floats as two calls)."""
    def mass(r: float) -> float:
        f = np.asarray(prior.cdf(np.array([t + r, t - r])), dtype=float)
        return float(f[0] - f[1]) - target

    hi = 1.0
    lo_s, hi_s = prior.support()
    if math.isfinite(lo_s) and math.isfinite(hi_s):
        hi = max(abs(t - lo_s), abs(hi_s - t)) + 1.0
    while mass(hi) < 0:
        hi *= 2.0
        if hi > 1e300:  # pragma: no cover
            raise InvalidParameter("could not bracket the radius of U_u")
    if mass(0.0) >= 0:
        return 0.0
    return float(optimize.brentq(mass, 0.0, hi, xtol=1e-15, rtol=1e-15, maxiter=500))


def refine_continuous(prior: Any, t: float, factors: Factors) -> ContinuousLaw:
    """U_u = [t − r, t + r] of prior mass p_u; factors α_u inside, α_d outside."""
    t = v.finite("true_value", t)
    p_u, _ = required_masses(factors)
    p_u = float(p_u)
    r = _ball_radius(prior, t, p_u)
    ua = float(prior.cdf(t - r))
    ua = min(ua, 1.0 - p_u)
    ub = ua + p_u
    knots = (0.0, ua, ub, 1.0)
    slopes = (float(factors.alpha_d), float(factors.alpha_u), float(factors.alpha_d))
    return ContinuousLaw(prior=prior, knots=knots, slopes=slopes, center=t,
                         info={"branch": "then", "p_u": p_u, "radius": r,
                               "U_u": [t - r, t + r]})


def move_mass_continuous(law: ContinuousLaw, moved: float) -> ContinuousLaw:
    """Zero the output mass ``moved`` of {|x − t| ≥ R} (the farthest points) and put it at t."""
    t, prior = law.center, law.prior
    if not float(prior.pdf(t)) > 0:
        raise InvalidParameter(f"the prior has zero density at the true answer {t!r}: the "
                               f"(ε, δ) variant cannot move mass there")
    moved = min(float(moved), law.total - law.atom)

    def outside(rr: float) -> float:
        return law.total - law.prob_interval(t - rr, t + rr) - moved

    lo_s, hi_s = prior.support()
    hi = max(abs(t - lo_s), abs(hi_s - t)) if math.isfinite(lo_s + hi_s) else 1.0
    while outside(hi) > 0:
        hi *= 2.0
    radius = 0.0 if outside(0.0) <= 0 else float(optimize.brentq(outside, 0.0, hi, xtol=1e-15))
    ua, ub = float(prior.cdf(t - radius)), float(prior.cdf(t + radius))
    kn = sorted({*law.knots, ua, ub})
    mids = (np.asarray(kn[:-1]) + np.asarray(kn[1:])) / 2
    k = np.clip(np.searchsorted(law.knots, mids, side="right") - 1, 0, len(law.slopes) - 1)
    s = np.where((mids < ua) | (mids > ub), 0.0, np.asarray(law.slopes)[k])
    removed = law.total - law.atom - float(np.dot(s, np.diff(kn)))
    return ContinuousLaw(prior=prior, knots=tuple(kn), slopes=tuple(float(x) for x in s),
                         center=t, atom=law.atom + removed,
                         info={**law.info, "moved": removed, "tail_radius": radius})


# ---- the mechanism ---------------------------------------------------------------------------
def _check_delta(_i: Any, _a: Any, x: Any) -> None:
    d = v.in_closed("delta", x, 0.0, 1.0)
    if d >= 1.0:
        raise InvalidParameter(f"delta={x!r} must lie in [0, 1)")


@attrs.frozen(kw_only=True)
class Refinement:
    """Knowledge refinement of ``prior`` with ``factors`` (Table 5.2) and ``distance``.

    ``output(t)`` is the exact output law for true answer t (``ABSENT`` for an individual
    query whose individual is missing: the prior itself); ``sample(t, shape, rng=)`` draws.
    """

    prior: Prior
    factors: Factors
    distance: Any = None
    delta: float = attrs.field(default=0.0, validator=_check_delta)
    delta_rule: str = attrs.field(default="exact", validator=v.attrs_validator(
        lambda n, x: v.one_of(n, x, DELTA_RULES)))
    name = "refinement"

    def __attrs_post_init__(self) -> None:
        if not hasattr(self.prior, "kind"):
            raise InvalidParameter(f"prior={self.prior!r} must be a DiscretePrior, "
                                   f"ContinuousPrior, PiecewisePrior or ProductPrior")
        if self.prior.kind == "product":
            d = ProductDistance() if self.distance is None else self.distance
            if isinstance(d, str) and d in NORMS:
                d = ProductDistance(norm=d)
            if not isinstance(d, ProductDistance):
                raise InvalidParameter(f"distance={self.distance!r}: a product prior needs one "
                                       f"of {', '.join(NORMS)} (or a ProductDistance)")
            d.check_dim(self.prior.dim)
            if self.delta:
                raise InvalidParameter(f"delta={self.delta!r}: the (ε, δ) variants are not "
                                       f"offered for product priors; use delta=0")
            object.__setattr__(self, "distance", d)
            return
        if self.distance is None:
            dist = NOMINAL if self.prior.kind == "discrete" else ABSOLUTE
            object.__setattr__(self, "distance", dist)
        else:
            object.__setattr__(self, "distance", get_distance(self.distance))
        if self.prior.kind == "continuous" and not self.distance.metric_on_reals:
            raise InvalidParameter(f"distance={self.distance.name!r}: a continuous prior needs "
                                   f"the absolute distance")

    @classmethod
    def individual(cls, prior: Prior, epsilon: float, **kw: Any) -> Refinement:
        return cls(prior=prior, factors=Factors.individual(epsilon), **kw)

    @classmethod
    def statistical(cls, prior: Prior, epsilon: float, alpha_u: float | None = None,
                    **kw: Any) -> Refinement:
        return cls(prior=prior, factors=Factors.statistical(epsilon, alpha_u), **kw)

    @property
    def epsilon(self) -> float:
        return self.factors.epsilon

    @property
    def moved_mass(self) -> float:
        """Output mass moved to t by the (ε, δ) variant (0 when δ = 0)."""
        if self.delta == 0:
            return 0.0
        e = math.exp(self.epsilon)
        if self.factors.query == "individual":
            return self.delta / e if self.delta_rule == "exact" else self.delta
        return self.delta / (1 + e) if self.delta_rule == "exact" else self.delta / 2

    def guarantee(self) -> PureDP | ApproxDP:
        """What privlab certifies: individual → add/remove-one; statistical → any pair (stated
        as substitution, which with add/remove is implied)."""
        nb = Neighbour.ADD_REMOVE if self.factors.query == "individual" else Neighbour.SUBSTITUTE
        if self.delta:
            return ApproxDP(epsilon=self.epsilon, delta=self.delta, neighbour=nb)
        return PureDP(epsilon=self.epsilon, neighbour=nb)

    def output(self, t: Any) -> DiscreteLaw | ContinuousLaw | ProductLaw:
        if t is ABSENT:
            if self.factors.query != "individual":
                raise InvalidParameter("true_value=ABSENT only makes sense for an individual "
                                       "query")
            return self._prior_law()
        if self.prior.kind == "discrete":
            if self.delta and self.prior.mass(t) == 0:
                raise InvalidParameter(f"true_value={t!r} has zero prior mass: the (ε, δ) "
                                       f"variant must move mass to it (prior {self.prior!r})")
            law: Any = refine_discrete(self.prior, t, self.distance, self.factors)
            if self.delta:
                law = move_mass_discrete(law, t, self.distance, self._moved_exact())
            return law
        if self.prior.kind == "product":
            p_u, _ = required_masses(self.factors)
            return refine_product(self.prior, t, self.distance, float(self.factors.alpha_u),
                                  float(self.factors.alpha_d), float(p_u))
        law = refine_continuous(self.prior, t, self.factors)
        if self.delta:
            law = move_mass_continuous(law, self.moved_mass)
        return law

    def _moved_exact(self) -> Any:
        """:attr:`moved_mass` as an exact rational when prior and factors are exact (e^ε is
        then α_u/α_d, or max(α_u, 1/α_d) for an individual query, and δ its decimal value)."""
        f = self.factors
        if not (getattr(self.prior, "exact", False) and f.exact):
            return self.moved_mass
        from fractions import Fraction

        e = f.alpha_u / f.alpha_d if f.query == "statistical" else max(f.alpha_u, 1 / f.alpha_d)
        d = Fraction(repr(float(self.delta)))
        if f.query == "individual":
            return d / e if self.delta_rule == "exact" else d
        return d / (1 + e) if self.delta_rule == "exact" else d / 2

    def _prior_law(self) -> DiscreteLaw | ContinuousLaw | ProductLaw:
        if self.prior.kind == "product":
            return absent_law(self.prior, self.distance)
        if self.prior.kind == "discrete":
            return DiscreteLaw(values=self.prior.values, probs=self.prior.probs,
                               factors=(1,) * len(self.prior.values), info={"branch": "absent"})
        return ContinuousLaw(prior=self.prior, knots=(0.0, 1.0), slopes=(1.0,), center=math.nan,
                             info={"branch": "absent"})

    def sample(self, t: Any, shape: Any = (), *, rng: RngLike = None) -> np.ndarray:
        return self.output(t).sample(shape, rng=rng)

    def release(self, t: Any, *, rng: RngLike = None) -> Any:
        out = self.sample(t, (), rng=rng)
        return out.item() if hasattr(out, "item") else out

    def to_dict(self) -> dict[str, Any]:
        return {"prior": self.prior.to_dict(), "factors": self.factors.to_dict(),
                "distance": self.distance.name, "delta": self.delta,
                "delta_rule": self.delta_rule, "moved_mass": self.moved_mass}


def broken_statistical(prior: Prior, epsilon: float, **kw: Any) -> Refinement:
    """Deliberately broken control: a *statistical* query refined with the individual factors
    α_u = e^ε, α_d = e^{−ε} (ratio e^{2ε}) while claiming ε.  Never use to release data."""
    f = Factors(alpha_u=math.exp(epsilon), alpha_d=math.exp(-epsilon), query="statistical",
                epsilon=epsilon, control=True)
    return Refinement(prior=prior, factors=f, **kw)
