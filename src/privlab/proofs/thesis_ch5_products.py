"""Checkers for refinement of multi-component queries with continuous priors (thesis §5.2,
Example 7) and for continuous priors over every true answer (§5.1 Propositions 2–3).

Example 7 leaves the distance over a product range to the application; the lab offers the
weighted chebyshev / l1 / l2 norms (:mod:`privlab.mechanisms.refinement_product`).  Each case
is certified with :func:`~privlab.verify.refinement_cert.certify_refinement`: the symbolic
all-answers argument (:mod:`privlab.verify.refinement_all`) plus the exact piecewise analysis of
every pair of a grid of answers (four prior-mass cells per pair).  A deliberately broken control
(statistical query with the individual factors) must be refuted by the same checker.
"""

from __future__ import annotations

from typing import Any

from privlab.mechanisms.refinement import Refinement, broken_statistical
from privlab.mechanisms.refinement_priors import parse_prior
from privlab.types import CheckResult, Method
from privlab.verify.refinement_cert import certify_refinement

PRIORS = ("product(uniform:0,1;norm:0,1)", "product(beta:2,5;uniform:-1,1)")
NORMS = ("chebyshev", "l1", "l2")


def _cases(priors: tuple[str, ...], norms: tuple[str, ...]) -> list[tuple[str, Any]]:
    out = []
    for spec in priors:
        p = parse_prior(spec)
        for norm in norms:
            out.append((f"{spec} {norm} individual",
                        Refinement.individual(p, 1.0, distance=norm)))
            out.append((f"{spec} {norm} statistical",
                        Refinement.statistical(p, 1.0, distance=norm)))
    return out


def _run(cases: list[tuple[str, Any]], claim: str) -> CheckResult:
    rows, bad = [], []
    for label, mech in cases:
        c = certify_refinement(mech)
        rows.append({"case": label, "holds": c.holds,
                     "log_ratios": [ch.value for ch in c.checks],
                     "methods": [ch.method.value for ch in c.checks]})
        if not c.holds:
            bad.append(label)
    ctrl = certify_refinement(broken_statistical(parse_prior(PRIORS[0]), 1.0,
                                                 distance="l2"))
    caught = not ctrl.holds
    return CheckResult(
        holds=not bad and caught, claim=claim,
        value=max(max(r["log_ratios"]) for r in rows), method=Method.SYMBOLIC,
        evidence={"cases": rows, "broken_control_caught": caught,
                  "broken_control_log_ratio": ctrl.checks[0].value},
        counterexample=({"failed": bad} if bad else
                        None if caught else {"broken_control": "not caught"}))


def check_products() -> CheckResult:
    return _run(_cases(PRIORS, NORMS),
                "refinement over product priors with chebyshev/l1/l2 distances is 1-DP")


def check_continuous_all_answers() -> CheckResult:
    specs = ("uniform:0,1", "beta:2,5", "norm:0,1")
    cases: list[tuple[str, Any]] = []
    for spec in specs:
        p = parse_prior(spec)
        cases += [(f"{spec} individual", Refinement.individual(p, 1.0)),
                  (f"{spec} statistical", Refinement.statistical(p, 1.0))]
    return _run(cases, "refinement with a continuous prior is 1-DP for every true answer")
