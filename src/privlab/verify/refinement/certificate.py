"""Certificate for a knowledge-refinement parameter choice (thesis ch.5, Table 5.2).

The answer depends on the data set only through t = f(D) (or ABSENT for an individual query
whose person is missing), so checking the pairs of possible answers covers every data set:

* discrete prior — every value of the prior's range (exhaustive, exact for Fraction masses);
* continuous or product prior, δ = 0 — every true answer at once, symbolically
  (:func:`~privlab.verify.refinement.all_answers.check_all_answers`; for exact piecewise priors with
  exact radii and cells at the grid answers, :mod:`privlab.verify.refinement.exact`), with the
  piecewise analysis at ``grid`` true answers (product: a grid of component quantiles) as a
  numeric cross-check;
* continuous prior, δ > 0 — the piecewise analysis at the ``grid`` answers only (numeric).

Individual queries are certified under add/remove-one (the thesis's relation); the certificate
also reports, as a property, the loss between two *present* values — the substitution loss,
2ε for the individual factors — so nobody mistakes it for a substitution guarantee.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from privlab.mechanisms.refinement.algorithm import Refinement
from privlab.mechanisms.refinement.laws import ContinuousLaw
from privlab.types import Certificate
from privlab.verify.refinement.all_answers import check_all_answers
from privlab.verify.refinement.neighbours import check_true_values


def true_values(mech: Refinement, grid: int = 21) -> list[Any]:
    """The answers the numeric cross-check visits: every value of a discrete prior; ``grid``
    prior quantiles of a continuous one; for a product prior the grid of component quantiles
    (5 per component for d ≤ 2, 3 beyond — 2 for the quadrature norms in d = 3, whose pair
    intersections cost ~0.2 s each)."""
    prior = mech.prior
    if prior.kind == "discrete":
        return list(prior.values)
    if prior.kind == "product":
        k = 5 if prior.dim <= 2 else (3 if mech.distance.boxlike(prior.dim) else 2)
        u = np.linspace(0.05, 0.95, k)
        axes = [np.asarray(c.ppf(u), dtype=float) for c in prior.components]
        return [tuple(float(x) for x in pt) for pt in itertools.product(*axes)]
    u = np.linspace(0.0, 1.0, grid)
    u[0], u[-1] = 1e-6, 1 - 1e-6
    return [float(x) for x in np.asarray(prior.ppf(u), dtype=float)]


def certify_refinement(mech: Refinement, *, grid: int = 21) -> Certificate:
    ts = true_values(mech, grid)
    laws = [mech.output(t) for t in ts]
    main = check_true_values(mech, ts, laws_given=laws)
    props: dict[str, Any] = {"factors": mech.factors.to_dict(), "true_values_checked": len(ts),
                             "worst_log_ratio": main.value}
    if mech.factors.query == "individual":
        stat_view = Refinement(prior=mech.prior, factors=mech.factors.__class__(
            alpha_u=mech.factors.alpha_u, alpha_d=mech.factors.alpha_d, query="statistical",
            epsilon=mech.epsilon, control=True), distance=mech.distance, delta=mech.delta,
            delta_rule=mech.delta_rule)
        sub = check_true_values(stat_view, ts, laws_given=laws)  # same factors, same laws
        props["substitution_log_ratio_between_present_values"] = sub.value
        props["substitution_epsilon_is_not_certified"] = bool(
            sub.value > mech.epsilon * (1 + 1e-12))
    checks: tuple[Any, ...] = (main,)
    if mech.prior.kind != "discrete" and not mech.delta:
        checks = (check_all_answers(mech, cross_check=main, answers=ts, laws=laws), main)
        props["every_true_answer"] = "symbolic (verify.refinement_all); the grid is a cross-check"
    if mech.prior.kind == "continuous":
        law = laws[len(ts) // 2]  # = mech.output(ts[len(ts) // 2]), already computed
        if isinstance(law, ContinuousLaw):  # mean() and variance() without the mean twice
            mean, second = law.moments(1, 2)  # = moment(1), moment(2), quantiles shared
            var = second - mean * mean
        else:  # pragma: no cover - continuous priors give ContinuousLaws
            mean, var = law.mean(), law.variance()
        props["example_output"] = {"true_value": ts[len(ts) // 2], "mean": mean,
                                   "variance": var, "U_u": law.info.get("U_u")}
    notes = ["individual queries: guarantee under add/remove-one (Proposition 3); between two "
             "present values the loss is reported as a property"
             if mech.factors.query == "individual" else
             "statistical queries: the bound α_u/α_d holds between any two data sets "
             "(Proposition 2), hence under both neighbour relations"]
    if mech.delta:
        notes.append(f"(ε, δ) variant, rule {mech.delta_rule!r}: output mass "
                     f"{mech.moved_mass:.6g} moved to f(D)")
    if not math.isfinite(main.value):
        notes.append("an output has zero probability under one answer and not the other")
    return Certificate(mechanism="refinement", parameters=mech.to_dict(),
                       guarantee=mech.guarantee(), checks=checks, properties=props,
                       notes=tuple(notes))
