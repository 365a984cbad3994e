"""Knowledge refinement with a continuous prior is ε-DP for *every* true answer (thesis §5.1–5.2).

The grid check of :mod:`privlab.verify.refinement.certificate` visits finitely many answers t.  For
an
atomless prior (a scipy ``rv_continuous``, a :class:`PiecewisePrior`, or a product of them with a
norm distance) and δ = 0 the question reduces to a few facts that hold for all t at once:

1. *Existence* of U_t with exactly the required mass: r ↦ M_t(r) = P(d(X, t) ≤ r) is
   non-decreasing and continuous (no atoms; the sphere {d = r} of |·| or a norm is
   Lebesgue-null), M_t(0) = 0 and M_t(r) → 1, so for every t and p_u ∈ (0, 1) some r gives
   M_t(r) = p_u (intermediate value theorem); Algorithm 5.1's "else" branch never occurs.  For a
   scipy prior this is an argument by type; for an *exact* piecewise prior (Fraction parameters;
   absolute distance, or chebyshev over a product) its premises are checked in exact arithmetic
   and the radius is computed exactly at every cross-check answer
   (:mod:`privlab.verify.refinement.exact`).
2. *Mass*: p_u = (1 − α_d)/(α_u − α_d) (derived; the text prints (α_u − 1)/(α_u − α_d), the
   mass of U_d) lies in (0, 1) and α_u·p_u + α_d·(1 − p_u) = 1 — sympy, exact factors (ε is the
   exact binary value of the float given; individual α_u = e^ε, α_d = e^{−ε}; statistical α_u as
   given, α_d = α_u·e^{−ε}; Fraction factors are used as they are).
3. *Factor set*: the law at t has density α_u·p on U_t and α_d·p elsewhere — the factor set is
   {α_u, α_d}; checked on the implementation's laws at the cross-check answers.
4. *Ratios*: against the prior (an individual query's absent answer) the ratio is α_u or α_d, the
   worst max(α_u, 1/α_d); between answers t, t′ it is α_u/α_d on U_t \\ U_t′, 1 or α_d/α_u
   elsewhere, the worst α_u/α_d, attained iff U_t \\ U_t′ has positive prior mass (for two
   balls of equal mass p_u: iff their intersection has mass < p_u).  Sympy: max(α_u, 1/α_d) =
   e^ε (individual), α_u/α_d = e^ε (statistical).  For exact piecewise priors every pair of
   cross-check answers is also analysed cell by cell with rational bounds on the cells' masses.

The value reported is the log of the implementation's own float factors' worst ratio, computed
exactly from their binary values.  The numeric grid check runs beside it as a cross-check
(reported in the evidence); the result holds only when both agree.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp

from privlab.errors import InvalidParameter
from privlab.mechanisms.refinement.algorithm import Refinement
from privlab.mechanisms.refinement.priors import ContinuousPrior, PiecewisePrior
from privlab.mechanisms.refinement.product import ProductPrior
from privlab.types import CheckResult, Method
from privlab.verify.refinement import exact as ex

__all__ = ["check_all_answers", "exact_evidence", "symbolic_factors"]

MASS_GAP = 1e-12
"""Largest |M_t(r_impl) − p_u| accepted for the implementation's float radius (exact M)."""
_SLACK = sp.Rational(1, 10**15)


def _atomless(prior: Any) -> bool:
    if isinstance(prior, ProductPrior):
        return all(_atomless(c) for c in prior.components)
    if isinstance(prior, PiecewisePrior):
        return True
    return isinstance(prior, ContinuousPrior) and hasattr(getattr(prior.dist, "dist", None),
                                                          "_pdf")


def _rat(x: Any) -> sp.Rational:
    f = Fraction(x)
    return sp.Rational(f.numerator, f.denominator)


def symbolic_factors(mech: Refinement) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """(α_u, α_d, bound) as exact sympy numbers (module docstring, step 2).  The bound is e^ε,
    or for Fraction factors the exact ratio they define (ε is then its float logarithm).  A
    deliberately broken control's factors are taken as they are (not derived from ε)."""
    f = mech.factors
    if f.exact:
        au, ad = _rat(f.alpha_u), _rat(f.alpha_d)
        return au, ad, (au / ad if f.query == "statistical" else sp.Max(au, 1 / ad))
    e = sp.exp(sp.Rational(mech.epsilon))
    if f.control:
        return _rat(float(f.alpha_u)), _rat(float(f.alpha_d)), e
    if f.query == "individual":
        return e, 1 / e, e
    au = sp.Rational(float(f.alpha_u))
    return au, au / e, e


def _le(a: sp.Expr, b: sp.Expr) -> bool:
    """a ≤ b for exact sympy numbers (certified by 50 digits unless they are equal)."""
    d = sp.N(b - a, 50)
    if abs(d) > sp.Float(10) ** -40:
        return bool(d > 0)
    return sp.simplify(b - a) == 0


def _point(mech: Refinement, t: Any) -> list[Fraction]:
    return [Fraction(float(x)) for x in np.atleast_1d(np.asarray(t, dtype=float))]


def _impl_radius(law: Any) -> float:
    return float(law.radius) if hasattr(law, "radius") else float(law.info["radius"])


def exact_evidence(mech: Refinement, answers: Sequence[Any], laws: Sequence[Any] | None,
                   au: sp.Expr, ad: sp.Expr, bound: sp.Expr, p_u: sp.Expr) -> dict[str, Any]:
    """Step 1 in exact arithmetic for an exact piecewise prior, and the exact cells of every
    pair of ``answers`` (statistical) — see :mod:`privlab.verify.refinement.exact`."""
    case = ex.exact_case(mech)
    if case is None:
        return {}
    comps, weights = case
    target = ex.Target(p_u)
    facts = dict(ex.premises(comps))
    rows, roots = [], []
    cont = zero = one = agree = closed_ok = mass_ok = True
    for i, t in enumerate(answers):
        pt = _point(mech, t)
        pieces = ex.ball_pieces(comps, weights, pt)
        ev = [ex._ev(p, lo) for lo, _hi, p in pieces] + [ex._ev(pieces[-1][2], pieces[-1][1])]
        cont &= all(ex._ev(pieces[k][2], pieces[k][1]) == ev[k + 1]
                    for k in range(len(pieces)))
        zero &= ev[0] == 0
        one &= ev[-1] == 1
        agree &= all(ev[k] == ex.mass_at(comps, weights, pt, [pieces[k][0]] * len(pt))
                     for k in range(len(pieces)))
        root, how = ex.radius_and_check(pieces, target)
        closed_ok &= how in ("exact", "interval")
        row: dict[str, Any] = {"t": [float(x) for x in pt], "degree": root["degree"],
                               "radius": root["float"],
                               "radius_closed_form": None if root["closed_form"] is None
                               else str(root["closed_form"]), "closed_form_check": how}
        if laws is not None:
            r_impl = _impl_radius(laws[i])
            gap = abs(float(ex.mass_at(comps, weights, pt, [Fraction(r_impl)] * len(pt)))
                      - float(target))
            row.update(implementation_radius=r_impl, implementation_mass_gap=gap)
            mass_ok &= gap <= MASS_GAP
        rows.append(row)
        roots.append((pt, root["interval"]))
    facts.update({
        "M_t continuous at every break (exact, each answer)": cont,
        "M_t(0) = 0 and M_t(R_t) = 1 (exact, each answer)": zero and one,
        "pieces agree with the cdf formula at every break (exact)": agree,
        "radius: M_t(r*) = p_u exactly (closed form or isolating interval)": closed_ok,
    })
    if laws is not None:
        facts[f"implementation radius has |M_t(r) - p_u| <= {MASS_GAP:g} (exact M)"] = mass_ok
    pairs: list[dict[str, Any]] = []
    worst: sp.Expr = sp.Integer(1)
    if mech.factors.query == "statistical":
        for i, j in ((i, j) for i in range(len(roots)) for j in range(len(roots)) if i < j):
            (t, rt), (s, rs) = roots[i], roots[j]
            c = ex.exact_pair(comps, weights, t, rt, s, rs, target, au, ad)  # both directions
            worst = ex.sym_max(worst, c["worst_ratio"])
            if len(pairs) < 6 or c["undecided"]:
                pairs.append({"t": [float(x) for x in t], "t'": [float(x) for x in s],
                              "worst_ratio": str(c["worst_ratio"]),
                              "cells": {k: {"ratio": str(v["ratio"]), "status": v["status"],
                                            "prior_mass": v["prior_mass"]}
                                        for k, v in c["cells"].items()}})
        facts["every pair of answers: exact cell ratio <= bound"] = _le(worst, bound)
    n = len(roots)
    out: dict[str, Any] = {"facts": facts, "answers": rows}
    if mech.factors.query == "statistical":
        out.update(pairs_analysed=n * (n - 1) // 2, pair_examples=pairs,
                   worst_pair_ratio=str(worst))
    return out


@functools.lru_cache(maxsize=256)
def _symbolic_steps(au: sp.Expr, ad: sp.Expr, bound: sp.Expr, epsilon: float, query: str
                    ) -> tuple[sp.Expr, sp.Expr, dict[str, bool], float]:
    """Steps 2 and 4 (exact, sympy): p_u, the worst ratio, their facts and log(bound).  A pure
    function of the exact factors, memoised per process (many cases share the factors)."""
    p_u = (1 - ad) / (au - ad)  # from mass conservation (the text prints U_d's mass here)
    e = sp.exp(sp.Rational(epsilon))
    facts = {
        "0 < p_u < 1": bool(sp.simplify(p_u).is_positive and sp.simplify(1 - p_u).is_positive),
        "alpha_u*p_u + alpha_d*(1 - p_u) == 1": sp.simplify(au * p_u + ad * (1 - p_u) - 1) == 0,
        # (a holder's float α_u = e^ε may round above e^ε by 1e-16 relative: slack 1e-15)
        "1 <= alpha_u <= e^eps": _le(sp.Integer(1), au) and _le(au, e * (1 + _SLACK)),
        "e^-eps <= alpha_d <= 1": _le(ad, sp.Integer(1)) and _le(1 / e, ad * (1 + _SLACK)),
    }
    if query == "individual":
        worst = sp.Max(au, 1 / ad)
        facts["max(alpha_u, 1/alpha_d) == bound"] = sp.simplify(worst - bound) == 0
    else:
        worst = au / ad
        facts["alpha_u/alpha_d == bound"] = sp.simplify(worst - bound) == 0
    return p_u, worst, facts, float(sp.log(bound).evalf(30))


def check_all_answers(mech: Refinement, *, cross_check: CheckResult | None = None,
                      answers: Sequence[Any] = (), laws: Sequence[Any] | None = None
                      ) -> CheckResult:
    """Steps 1–4 of the module docstring for ``mech``; ``cross_check`` is the grid check at
    ``answers`` (whose implementation laws are ``laws``)."""
    if mech.prior.kind == "discrete":
        raise InvalidParameter("a discrete prior is checked exhaustively over its values; "
                               "check_all_answers is for continuous and product priors")
    if mech.delta:
        raise InvalidParameter(f"delta={mech.delta!r}: the all-answers argument covers δ = 0")
    au, ad, bound = symbolic_factors(mech)
    p_u, worst, sym_facts, bound_log = _symbolic_steps(au, ad, bound, mech.epsilon,
                                                        mech.factors.query)
    facts = {"prior is atomless (step 1)": _atomless(mech.prior), **sym_facts}
    facts["log(bound) == epsilon (|gap| <= 1e-15)"] = abs(bound_log - mech.epsilon) <= 1e-15 * max(
        1.0, mech.epsilon)
    float_gap = max(abs(float(au) - float(mech.factors.alpha_u)),
                    abs(float(ad) - float(mech.factors.alpha_d)))
    facts["float factors match the exact ones (|gap| <= 1e-15)"] = float_gap <= 1e-15
    if laws is not None:
        allowed = {float(mech.factors.alpha_u), float(mech.factors.alpha_d)}
        facts[f"factor set of the law is {{alpha_u, alpha_d}} at {len(laws)} answers"] = all(
            set(map(float, law.slopes)) <= allowed for law in laws)
    fu, fd = _rat(float(mech.factors.alpha_u)), _rat(float(mech.factors.alpha_d))
    impl = sp.Max(fu, 1 / fd) if mech.factors.query == "individual" else fu / fd
    impl_log = float(sp.log(impl).evalf(30))
    exact = exact_evidence(mech, answers, laws, au, ad, bound, p_u)
    facts.update(exact.get("facts", {}))
    holds = all(facts.values()) and (cross_check is None or cross_check.holds)
    ev: dict[str, Any] = {"facts": facts, "p_u": str(p_u), "p_u_float": float(p_u),
                          "worst_ratio": str(worst), "epsilon": mech.epsilon,
                          "implementation_log_ratio": impl_log,
                          "float_factor_gap": float_gap,
                          "existence": "intermediate value theorem on the ball mass "
                                       + ("(premises exact: verify.refinement_exact)" if exact
                                          else "(argument by type: atomless prior)")}
    if exact:
        ev["exact_piecewise"] = {k: v for k, v in exact.items() if k != "facts"}
    if cross_check is not None:
        ev["numeric_cross_check"] = {"holds": cross_check.holds, "value": cross_check.value,
                                     "method": cross_check.method.value,
                                     "pairs": cross_check.evidence.get("pairs")}
    bad = [k for k, ok in facts.items() if not ok]
    return CheckResult(
        holds=holds,
        claim=f"{mech.name} ({mech.factors.query}, prior {mech.prior.kind}) is "
              f"{mech.epsilon:g}-DP for every true answer",
        value=impl_log if math.isfinite(impl_log) else math.inf, evidence=ev,
        method=Method.SYMBOLIC,
        counterexample=None if holds else {"failed": bad or ["numeric cross-check"]})
