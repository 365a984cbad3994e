"""Knowledge refinement with a continuous prior is ε-DP for *every* true answer (thesis §5.1–5.2).

The grid check of :mod:`privlab.verify.refinement_cert` visits finitely many answers t.  For an
atomless prior (a scipy ``rv_continuous``, a :class:`PiecewisePrior`, or a product of them with a
norm distance) and δ = 0 the question reduces to a few exact facts about the factors:

1. *Existence* (argument, by type): r ↦ P(d(X, t) ≤ r) is non-decreasing and continuous (the
   prior has no atoms and the sphere {d = r} of |·| or a norm is Lebesgue-null), 0 at r = 0 and
   → 1, so for every t and every p_u ∈ (0, 1) some r gives P(U_t) = p_u exactly (intermediate
   value theorem); Algorithm 5.1's "else" branch never occurs.
2. *Mass*: p_u = (1 − α_d)/(α_u − α_d) (derived; the text prints (α_u − 1)/(α_u − α_d), the
   mass of U_d) lies in (0, 1) and α_u·p_u + α_d·(1 − p_u) = 1 —
   checked in sympy with the exact factors (ε is the exact binary value of the float given;
   individual α_u = e^ε, α_d = e^{−ε}; statistical α_u as given, α_d = α_u·e^{−ε}).
3. *Ratios* (the value reported is log of the implementation's own float factors' worst ratio,
   computed exactly from their binary values): the law at t has density α_u·p on U_t and α_d·p
   elsewhere, so against the prior (an individual query's absent answer) the ratio is α_u or α_d
   and the worst is max(α_u, 1/α_d); between two answers t, t′ it is α_u/α_d, 1 or α_d/α_u and
   the worst is α_u/α_d (attained whenever U_t \\ U_t′ has positive prior mass). Checked in
   sympy: max(α_u, 1/α_d) = e^ε (individual), α_u/α_d = e^ε (statistical).

The numeric grid check runs beside it as a cross-check of the implementation (its radii and
masses), reported in the evidence; the result holds only when both agree.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from privlab.errors import InvalidParameter
from privlab.mechanisms.refinement import Refinement
from privlab.mechanisms.refinement_priors import ContinuousPrior, PiecewisePrior
from privlab.mechanisms.refinement_product import ProductPrior
from privlab.types import CheckResult, Method

__all__ = ["check_all_answers", "symbolic_factors"]


def _atomless(prior: Any) -> bool:
    if isinstance(prior, ProductPrior):
        return all(_atomless(c) for c in prior.components)
    if isinstance(prior, PiecewisePrior):
        return True
    return isinstance(prior, ContinuousPrior) and hasattr(getattr(prior.dist, "dist", None),
                                                          "_pdf")


def symbolic_factors(mech: Refinement) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """(α_u, α_d, e^ε) as exact sympy numbers (module docstring, step 2)."""
    eps = sp.Rational(mech.epsilon)
    e = sp.exp(eps)
    if mech.factors.query == "individual":
        return e, 1 / e, e
    au = sp.Rational(float(mech.factors.alpha_u))
    return au, au / e, e


def check_all_answers(mech: Refinement, *, cross_check: CheckResult | None = None
                      ) -> CheckResult:
    """Steps 1–3 of the module docstring for ``mech``; ``cross_check`` is the grid check."""
    if mech.prior.kind == "discrete":
        raise InvalidParameter("a discrete prior is checked exhaustively over its values; "
                               "check_all_answers is for continuous and product priors")
    if mech.delta:
        raise InvalidParameter(f"delta={mech.delta!r}: the all-answers argument covers δ = 0")
    au, ad, e = symbolic_factors(mech)
    p_u = (1 - ad) / (au - ad)  # from mass conservation (the text prints U_d's mass here)
    facts = {
        "prior is atomless (step 1)": _atomless(mech.prior),
        "0 < p_u < 1": bool(sp.simplify(p_u).is_positive and sp.simplify(1 - p_u).is_positive),
        "alpha_u*p_u + alpha_d*(1 - p_u) == 1": sp.simplify(au * p_u + ad * (1 - p_u) - 1) == 0,
        "1 <= alpha_u <= e^eps": bool((au - 1).is_nonnegative and (e - au).is_nonnegative),
        "e^-eps <= alpha_d <= 1": bool((1 - ad).is_nonnegative and (ad - 1 / e).is_nonnegative),
    }
    if mech.factors.query == "individual":
        worst = sp.Max(au, 1 / ad)
        facts["max(alpha_u, 1/alpha_d) == e^eps"] = sp.simplify(worst - e) == 0
    else:
        worst = au / ad
        facts["alpha_u/alpha_d == e^eps"] = sp.simplify(worst - e) == 0
    float_gap = max(abs(float(au) - float(mech.factors.alpha_u)),
                    abs(float(ad) - float(mech.factors.alpha_d)))
    facts["float factors match the exact ones (|gap| <= 1e-15)"] = float_gap <= 1e-15
    fu, fd = sp.Rational(float(mech.factors.alpha_u)), sp.Rational(float(mech.factors.alpha_d))
    impl = sp.Max(fu, 1 / fd) if mech.factors.query == "individual" else fu / fd
    impl_log = float(sp.log(impl).evalf(30))
    holds = all(facts.values()) and (cross_check is None or cross_check.holds)
    ev: dict[str, Any] = {"facts": facts, "p_u": str(p_u), "p_u_float": float(p_u),
                          "worst_ratio": str(worst), "epsilon": mech.epsilon,
                          "implementation_log_ratio": impl_log,
                          "float_factor_gap": float_gap,
                          "existence": "intermediate value theorem on the ball mass "
                                       "(module docstring, step 1)"}
    if cross_check is not None:
        ev["numeric_cross_check"] = {"holds": cross_check.holds, "value": cross_check.value,
                                     "pairs": cross_check.evidence.get("pairs")}
    bad = [k for k, ok in facts.items() if not ok]
    return CheckResult(
        holds=holds,
        claim=f"{mech.name} ({mech.factors.query}, prior {mech.prior.kind}) is "
              f"{mech.epsilon:g}-DP for every true answer",
        value=impl_log, evidence=ev, method=Method.SYMBOLIC,
        counterexample=None if holds else {"failed": bad or ["numeric cross-check"]})
