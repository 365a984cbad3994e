"""Exact ball masses, radii and pair cells for exact piecewise priors (thesis §5.1–5.2,
Algorithm 5.1, Propositions 2–3).

Scope: a :class:`~privlab.mechanisms.refinement.priors.PiecewisePrior` with ``Fraction`` edges
and densities under the absolute distance, or a product of such components under a weighted
chebyshev distance (weights and answers are floats, i.e. exact binary rationals).  Then

    M_t(r) = Π_i (F_i(t_i + r/w_i) − F_i(t_i − r/w_i))

(one factor for a univariate prior) is a product of continuous piecewise-*linear* functions of
r with rational break points w_i|e − t_i| (e an edge of component i), hence a continuous
piecewise polynomial of degree ≤ d with rational coefficients (:func:`ball_pieces`).

*Existence for every t* (not only at the answers visited): each F_i is continuous, F_i = 0
left of its support and 1 right of it — exactly, because the density integrates to exactly 1
(:func:`premises`); so M_t is continuous, M_t(0) = 0 and M_t(r) = 1 for
r ≥ R_t = max_i w_i·max(|t_i − a_i|, |b_i − t_i|); for p_u ∈ (0, 1) the intermediate value
theorem gives r with M_t(r) = p_u.

*The radius at an answer* (:func:`exact_radius`): the first piece [ρ_k, ρ_{k+1}] with
M(ρ_k) < p_u ≤ M(ρ_{k+1}) holds the smallest root of the polynomial equation M(r) = p_u: in
closed form (sympy) when the piece has degree ≤ 2 — always so in d ≤ 2 — and always as an
isolating interval with rational ends (bisection with certified signs, width ≤ 2^-90 of the
piece).  p_u may be transcendental (1/(1 + e^ε)); signs of x − p_u for rational x are decided
from an 80-digit evaluation, falling back to sympy when closer than 1e-70.

*Pairs* (:func:`exact_pair`): for answers t, t′ the output laws have density ratio
α(t)/α(t′) ∈ {1, α_u/α_d, α_d/α_u} on the four cells B_t ∩ B_t′, B_t \\ B_t′, B_t′ \\ B_t,
outside; their prior masses are p_u, p_u and the intersection mass m, a box mass that is
non-decreasing in both radii, so the isolating intervals bound m by exact rationals, and a
cell counts as empty only when its upper bound is ≤ 0 (otherwise its ratio is included).
"""

from __future__ import annotations

import bisect
import functools
import itertools
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp

from privlab.mechanisms.refinement.priors import PiecewisePrior

__all__ = ["Target", "ball_pieces", "exact_case", "exact_cdf", "exact_pair", "exact_radius",
           "mass_at", "premises", "radius_and_check", "verify_closed_form"]

Poly = list[Fraction]  # ascending coefficients


def _mul(a: Poly, b: Poly) -> Poly:
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def _ev(p: Poly, x: Any) -> Any:
    acc: Any = 0
    for c in reversed(p):
        acc = acc * x + c
    return acc


def _deg(p: Poly) -> int:
    return max((k for k, c in enumerate(p) if c != 0), default=0)


# ---- the cases covered ------------------------------------------------------------------------
def exact_case(mech: Any) -> tuple[list[PiecewisePrior], list[Fraction]] | None:
    """(components, weights) when ``mech`` is in scope (module docstring), else None."""
    prior = mech.prior
    if isinstance(prior, PiecewisePrior) and prior.exact:
        return [prior], [Fraction(1)]
    if getattr(prior, "kind", None) != "product":
        return None
    comps = list(prior.components)
    if not all(isinstance(c, PiecewisePrior) and c.exact for c in comps):
        return None
    if not mech.distance.boxlike(len(comps)):
        return None
    return comps, [Fraction(float(w)) for w in mech.distance.w(len(comps))]


def premises(comps: list[PiecewisePrior]) -> dict[str, bool]:
    """The exact facts behind existence for every t (module docstring)."""
    return {
        "densities >= 0 (exact)": all(d >= 0 for c in comps for d in c.densities),
        "every component integrates to exactly 1": all(c.cum_exact()[-1] == 1 for c in comps),
    }


def exact_cdf(c: PiecewisePrior, x: Fraction) -> Fraction:
    """F(x) in exact arithmetic: 0 left of the support, C_j + d_j (x − e_j) on piece j, 1 right."""
    e = c.edges
    if x <= e[0]:
        return Fraction(0)
    if x >= e[-1]:
        return Fraction(1)
    j = _piece(e, x)
    return c.cum_exact_tuple()[j] + c.densities[j] * (x - e[j])


def _piece(e: tuple[Fraction, ...], x: Fraction) -> int:
    """max{k < len(e) − 1 : e[k] ≤ x} for e[0] < x < e[-1] (edges strictly increasing):
    bisection finds the same k as the scan over every edge."""
    return bisect.bisect_right(e, x) - 1


def mass_at(comps: list[PiecewisePrior], weights: list[Fraction], t: list[Fraction],
            lo_r: list[Fraction], hi_r: list[Fraction] | None = None) -> Fraction:
    """Π_i (F_i(t_i + hi_r_i/w_i) − F_i(t_i − lo_r_i/w_i)): the ball mass (hi_r = lo_r = r)
    or a box mass, straight from the cdf (independent of :func:`ball_pieces`)."""
    hi_r = lo_r if hi_r is None else hi_r
    m = Fraction(1)
    for c, w, ti, a, b in zip(comps, weights, t, lo_r, hi_r, strict=True):
        m *= max(Fraction(0), exact_cdf(c, ti + b / w) - exact_cdf(c, ti - a / w))
    return m


def _factor(c: PiecewisePrior, ti: Fraction, w: Fraction, lo: Fraction,
            hi: Fraction) -> Poly:
    """F(t + r/w) − F(t − r/w) as a linear polynomial in r on [lo, hi] (no break inside)."""
    mid = (lo + hi) / 2

    def lin(x: Fraction, sign: int) -> Poly:  # F(ti + sign·r/w) = a + b r
        e = c.edges
        if x <= e[0]:
            return [Fraction(0), Fraction(0)]
        if x >= e[-1]:
            return [Fraction(1), Fraction(0)]
        j = _piece(e, x)
        d = c.densities[j]
        return [c.cum_exact_tuple()[j] + d * (ti - e[j]), sign * d / w]

    up, dn = lin(ti + mid / w, 1), lin(ti - mid / w, -1)
    return [up[0] - dn[0], up[1] - dn[1]]


def ball_pieces(comps: list[PiecewisePrior], weights: list[Fraction],
                t: list[Fraction]) -> list[tuple[Fraction, Fraction, Poly]]:
    """[(ρ_k, ρ_{k+1}, coefficients of M_t on that piece)], ρ_0 = 0, last ρ = R_t."""
    br = {Fraction(0)}
    for c, w, ti in zip(comps, weights, t, strict=True):
        br |= {w * abs(e - ti) for e in c.edges}
    rho = sorted(br)
    out = []
    for lo, hi in itertools.pairwise(rho):
        p: Poly = [Fraction(1)]
        for c, w, ti in zip(comps, weights, t, strict=True):
            p = _mul(p, _factor(c, ti, w, lo, hi))
        out.append((lo, hi, p))
    return out


# ---- comparing rationals with p_u ----------------------------------------------------------
def _rat(x: Fraction) -> sp.Rational:
    return sp.Rational(x.numerator, x.denominator)


class Target:
    """p_u (a sympy number, possibly transcendental) with an 80-digit approximation."""

    DIGITS = 80

    def __init__(self, expr: Any) -> None:
        self.expr = _rat(expr) if isinstance(expr, Fraction) else sp.sympify(expr)
        self.rational = bool(self.expr.is_Rational)
        with mpmath.workdps(self.DIGITS + 10):
            self.approx = mpmath.mpf(str(sp.N(self.expr, self.DIGITS + 10)))

    def __float__(self) -> float:
        return float(self.approx)

    def sign_of_diff(self, x: Fraction) -> int:
        """sign(x − p_u), certified."""
        if self.rational:
            d = x - Fraction(int(self.expr.p), int(self.expr.q))
            return (d > 0) - (d < 0)
        with mpmath.workdps(self.DIGITS + 10):
            diff = mpmath.mpf(x.numerator) / x.denominator - self.approx
            if abs(diff) > mpmath.mpf(10) ** -(self.DIGITS - 10):
                return 1 if diff > 0 else -1
        exact = _rat(x) - self.expr
        return 0 if sp.simplify(exact) == 0 else (1 if exact.evalf(200) > 0 else -1)


BISECTIONS = 90
"""Halvings of the root's piece: the isolating interval has width 2^-90 of the piece."""


def _bisect(p: Poly, lo: Fraction, hi: Fraction, target: Target) -> tuple[Fraction, Fraction]:
    """The isolating interval by bisection with certified signs (the reference algorithm)."""
    a, b = lo, hi
    for _ in range(BISECTIONS):  # M is non-decreasing: keep M(a) < p_u <= M(b)
        m = (a + b) / 2
        if target.sign_of_diff(_ev(p, m)) >= 0:
            b = m
        else:
            a = m
    return a, b


def _approx_root(p: Poly, lo: Fraction, hi: Fraction, target: Target) -> Any:
    """An approximation (60 digits, mpmath) of the smallest r ∈ [lo, hi] with M(r) = p_u: the
    closed form for degree 1; else a float bisection for a seed and four Newton steps.  Not
    certified (the caller certifies what it takes from it)."""
    deg = _deg(p)
    coef = [mpmath.mpf(c.numerator) / c.denominator for c in p[:deg + 1]]
    goal = target.approx
    if deg == 0:
        return mpmath.mpf(lo.numerator) / lo.denominator
    if deg == 1:
        return (goal - coef[0]) / coef[1]
    fc, fg = [float(c) for c in coef], float(goal)
    a, b = float(lo), float(hi)
    for _ in range(60):
        m = (a + b) / 2
        v = 0.0
        for c in reversed(fc):
            v = v * m + c
        if v >= fg:
            b = m
        else:
            a = m
    x = mpmath.mpf(b)
    dcoef = [k * coef[k] for k in range(1, deg + 1)]
    for _ in range(4):
        fx = mpmath.polyval(coef[::-1], x) - goal
        dfx = mpmath.polyval(dcoef[::-1], x)
        if not dfx:
            break
        x -= fx / dfx
    return x


def _isolate(p: Poly, lo: Fraction, hi: Fraction, target: Target) -> tuple[Fraction, Fraction]:
    """:func:`_bisect`'s interval, found by a shortcut and certified, else by :func:`_bisect`.

    Bisection ends at a = lo + j·h, b = a + h (h = (hi − lo)/2^90) with M(a) < p_u ≤ M(b): on
    the piece M is a non-decreasing polynomial (a product of non-decreasing cdf differences)
    with M(lo) < p_u ≤ M(hi), so {M ≥ p_u} = [r*, hi] and j is the one index with
    a < r* ≤ b.  The shortcut approximates r* (:func:`_approx_root`), takes
    j = ⌈(r* − lo)/h⌉ − 1 and its neighbours, and accepts the first j whose ends pass the
    same certified sign tests as bisection's; then j is bisection's j.  When none passes (a
    poor approximation, p_u at a cell end, a flat piece) the bisection itself is run."""
    h = (hi - lo) / 2**BISECTIONS
    try:
        with mpmath.workdps(60):
            x = _approx_root(p, lo, hi, target)
            lo_m = mpmath.mpf(lo.numerator) / lo.denominator
            j0 = int(mpmath.ceil((x - lo_m) / (mpmath.mpf(h.numerator) / h.denominator))) - 1
    except (ValueError, OverflowError, ZeroDivisionError):  # pragma: no cover - defensive
        return _bisect(p, lo, hi, target)
    for j in (j0, j0 - 1, j0 + 1):
        if not 0 <= j < 2**BISECTIONS:
            continue
        a, b = lo + j * h, lo + (j + 1) * h
        if target.sign_of_diff(_ev(p, a)) < 0 <= target.sign_of_diff(_ev(p, b)):
            return a, b
    return _bisect(p, lo, hi, target)


def exact_radius(pieces: list[tuple[Fraction, Fraction, Poly]], target: Target
                 ) -> dict[str, Any]:
    """Smallest r with M(r) = p_u: piece, isolating interval, closed form (degree ≤ 2)."""
    k = next(i for i, (_lo, hi, p) in enumerate(pieces) if target.sign_of_diff(_ev(p, hi)) >= 0)
    lo, hi, p = pieces[k]
    a, b = _isolate(p, lo, hi, target)
    deg = _deg(p)
    c = [_rat(x) for x in p] + [sp.Integer(0)] * 3
    closed: Any = None
    if deg == 1:
        closed = (target.expr - c[0]) / c[1]
    elif deg == 2:
        root = sp.sqrt(c[1] ** 2 - 4 * c[2] * (c[0] - target.expr))
        cands = [(-c[1] + root) / (2 * c[2]), (-c[1] - root) / (2 * c[2])]
        mid = (a + b) / 2
        closed = min(cands, key=lambda z: abs(sp.N(z, 40) - _rat(mid)))
    return {"piece": k, "degree": deg, "interval": (a, b), "closed_form": closed,
            "float": float((a + b) / 2), "poly": p}


def _inside_sympy(cf: Any, a: Fraction, b: Fraction) -> bool:
    """cf − a ≥ −10^-35 and b − cf ≥ −10^-35, each side by a 40-digit sympy evaluation of
    the difference (the reference decision)."""
    ra, rb = _rat(a), _rat(b)
    return bool(sp.N(cf - ra, 40) >= -sp.Float(10) ** -35
                and sp.N(rb - cf, 40) >= -sp.Float(10) ** -35)


def _inside(cf: Any, a: Fraction, b: Fraction) -> bool:
    """:func:`_inside_sympy`'s decision from one 50-digit value v of cf (about 3× cheaper than
    two evaluations of differences with cancellation).  With |v − cf| ≤ |cf|·10^-45 and the
    ends exact to 10^-80, each difference is known to ~10^-45 absolute; the threshold
    −10^-35 (a 15-digit sympy Float: within 10^-50 of −10^-35) and the 40-digit rounding of
    the reference move the decision by less than that.  So a difference farther than 10^-44
    from −10^-35 is decided here, as the reference decides it; otherwise (or for a value that
    is not a real number) the reference runs."""
    v = sp.N(cf, 50)
    if not v.is_real or not (v.is_Float or v.is_Rational):
        return _inside_sympy(cf, a, b)
    with mpmath.workdps(90):
        x = mpmath.mpf(str(v))
        err = abs(x) * mpmath.mpf(10) ** -45 + mpmath.mpf(10) ** -80
        tau, margin = -mpmath.mpf(10) ** -35, mpmath.mpf(10) ** -44 + err
        out = True
        for d in (x - mpmath.mpf(a.numerator) / a.denominator,
                  mpmath.mpf(b.numerator) / b.denominator - x):
            if abs(d - tau) <= margin:
                return _inside_sympy(cf, a, b)
            if d < tau:
                out = False
                break
    return out


def verify_closed_form(root: dict[str, Any], target: Target) -> str:
    """'exact' when M(r*) − p_u simplifies to 0 and r* lies in the isolating interval."""
    cf = root["closed_form"]
    if cf is None:
        return "interval"
    diff = sum(_rat(c) * cf**i for i, c in enumerate(root["poly"])) - target.expr
    inside = _inside(cf, *root["interval"])
    if not inside:
        return "mismatch"
    if sp.expand(diff) == 0 or sp.simplify(diff) == 0:
        return "exact"
    return "numeric-60" if abs(sp.N(diff, 60)) < sp.Float(10) ** -55 else "mismatch"


_RADII: dict[Any, tuple[dict[str, Any], str]] = {}
_RADII_MAX = 4096


def radius_and_check(pieces: list[tuple[Fraction, Fraction, Poly]], target: Target
                     ) -> tuple[dict[str, Any], str]:
    """:func:`exact_radius` and :func:`verify_closed_form` of it, memoised per process on the
    exact pieces and p_u (both are pure functions of them; claims and their controls meet the
    same balls)."""
    key = (tuple((lo, hi, tuple(p)) for lo, hi, p in pieces), target.expr)
    hit = _RADII.get(key)
    if hit is None:
        root = exact_radius(pieces, target)
        hit = (root, verify_closed_form(root, target))
        if len(_RADII) >= _RADII_MAX:
            _RADII.clear()
        _RADII[key] = hit
    return dict(hit[0]), hit[1]


@functools.lru_cache(maxsize=1024)
def sym_max(*args: Any) -> Any:
    """``sp.Max(*args)``, memoised (the same few exact ratios recur over many pairs)."""
    return sp.Max(*args)


# ---- pairs ---------------------------------------------------------------------------------
def exact_pair(comps: list[PiecewisePrior], weights: list[Fraction], t: list[Fraction],
               rt: tuple[Fraction, Fraction], s: list[Fraction],
               rs: tuple[Fraction, Fraction], p_u: Target, au: Any, ad: Any
               ) -> dict[str, Any]:
    """Cells of two answers' laws with rational bounds on their prior masses and the exact
    ratio α(t)/α(t′) on each (module docstring).  A cell is ``positive`` or ``empty`` when
    its bounds decide it, else ``undecided`` — and then counted (conservative)."""
    def inter(ra: Fraction, rb: Fraction) -> Fraction:
        m = Fraction(1)
        for c, w, ti, si in zip(comps, weights, t, s, strict=True):
            lo, hi = max(ti - ra / w, si - rb / w), min(ti + ra / w, si + rb / w)
            if lo >= hi:
                return Fraction(0)
            m *= exact_cdf(c, hi) - exact_cdf(c, lo)
        return m

    m_lo, m_hi = inter(rt[0], rs[0]), inter(rt[1], rs[1])
    same = t == s and rt == rs  # one ball: the difference cells are empty, m = p_u

    def status(pos: bool, empty: bool) -> str:
        return "positive" if pos else ("empty" if empty else "undecided")

    only = status(not same and p_u.sign_of_diff(m_hi) < 0,
                  same or p_u.sign_of_diff(m_lo) >= 0)  # p_u − m
    cells = {
        "B_t ∩ B_t'": (sp.Integer(1), status(m_lo > 0, m_hi == 0), float(m_lo), float(m_hi)),
        "B_t only": (au / ad, only, float(p_u) - float(m_hi), float(p_u) - float(m_lo)),
        "B_t' only": (ad / au, only, float(p_u) - float(m_hi), float(p_u) - float(m_lo)),
        "outside both": (sp.Integer(1),
                         status(p_u.sign_of_diff((1 + m_lo) / 2) > 0,  # 1 − 2p_u + m
                                p_u.sign_of_diff((1 + m_hi) / 2) <= 0),
                         1 - 2 * float(p_u) + float(m_lo), 1 - 2 * float(p_u) + float(m_hi)),
    }
    out = {name: {"ratio": ratio, "status": st, "prior_mass": [lo, hi]}
           for name, (ratio, st, lo, hi) in cells.items()}
    live = [c["ratio"] for c in out.values() if c["status"] != "empty"]
    return {"cells": out, "worst_ratio": sym_max(*live),
            "undecided": [n for n, c in out.items() if c["status"] == "undecided"]}
