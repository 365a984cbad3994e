"""Checkers for refinement of multi-component queries with continuous priors (thesis §5.2,
Example 7) and for continuous priors over every true answer (§5.1 Propositions 2–3).

Example 7 leaves the distance over a product range to the application; the lab offers the
weighted chebyshev / l1 / l2 norms (:mod:`privlab.mechanisms.refinement.product`).  Each case
is certified with :func:`~privlab.verify.refinement.certificate.certify_refinement`: the symbolic
all-answers argument (:mod:`privlab.verify.refinement.all_answers`) plus the piecewise analysis of
every pair of a grid of answers (four prior-mass cells per pair).  Priors whose components are
exact piecewise densities (``uniform:a,b`` with decimal ends, :class:`PiecewisePrior` with
Fractions) under chebyshev / absolute distances are in addition analysed in exact arithmetic
(exact radii at every grid answer, rational bounds on every pair's cells,
:mod:`privlab.verify.refinement.exact`).  A deliberately broken control (statistical query with
the individual factors) must be refuted by the same checker.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

from privlab.mechanisms.refinement.algorithm import Refinement, broken_statistical
from privlab.mechanisms.refinement.priors import PiecewisePrior
from privlab.mechanisms.refinement.spec import parse_prior
from privlab.types import CheckResult, Method
from privlab.verify.refinement.certificate import certify_refinement

PRIORS = ("product(uniform:0,1;norm:0,1)", "product(beta:2,5;uniform:-1,1)")
NORMS = ("chebyshev", "l1", "l2")
EXACT_PRODUCTS = ("product(uniform:0,1;uniform:-1,1)",
                  "product(uniform:0,1;uniform:-1,1;uniform:0,2)")
"""Exact components, chebyshev: radii and pair cells in exact arithmetic (d = 2 and d = 3)."""
STEP = PiecewisePrior(edges=(Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(1)),
                      densities=(Fraction(2), Fraction(1), Fraction(1, 2)))
"""A three-piece exact density on [0, 1] (masses 1/2, 1/4, 1/4)."""


def _pair(label: str, p: Any, norm: Any) -> list[tuple[str, Any]]:
    return [(f"{label} individual", Refinement.individual(p, 1.0, distance=norm)),
            (f"{label} statistical", Refinement.statistical(p, 1.0, distance=norm))]


@functools.cache
def _prior(spec: str) -> Any:
    """``parse_prior(spec)``, one frozen object per spec and process: the cases and the broken
    control then share their components, so the memo of
    :func:`~privlab.mechanisms.refinement.quadrature.section_integral` (keyed on the component
    objects) serves the control's radius searches, which are those of the individual case of
    the same prior and norm (same p_u = 1/(1 + e))."""
    return parse_prior(spec)


def _cases(priors: tuple[str, ...], norms: tuple[str, ...]) -> list[tuple[str, Any]]:
    out = []
    for spec in priors:
        p = _prior(spec)
        for norm in norms:
            out += _pair(f"{spec} {norm}", p, norm)
    return out


@functools.cache
def _control() -> tuple[bool, float]:
    """The broken control of :func:`_run` (caught?, its log ratio): the same certificate for
    every run, so it is computed once per process."""
    ctrl = certify_refinement(broken_statistical(_prior(PRIORS[0]), 1.0, distance="l2"))
    return not ctrl.holds, ctrl.checks[0].value


def _run(cases: list[tuple[str, Any]], claim: str) -> CheckResult:
    rows, bad = [], []
    for label, mech in cases:
        c = certify_refinement(mech)
        rows.append({"case": label, "holds": c.holds,
                     "log_ratios": [ch.value for ch in c.checks],
                     "methods": [ch.method.value for ch in c.checks],
                     "exact_radii_and_cells": "exact_piecewise" in c.checks[0].evidence})
        if not c.holds:
            bad.append(label)
    caught, ctrl_value = _control()
    return CheckResult(
        holds=not bad and caught, claim=claim,
        value=max(max(r["log_ratios"]) for r in rows), method=Method.SYMBOLIC,
        evidence={"cases": rows, "broken_control_caught": caught,
                  "broken_control_log_ratio": ctrl_value},
        counterexample=({"failed": bad} if bad else
                        None if caught else {"broken_control": "not caught"}))


def check_products() -> CheckResult:
    return _run(_cases(PRIORS, NORMS) + _cases(EXACT_PRODUCTS, ("chebyshev",)),
                "refinement over product priors with chebyshev/l1/l2 distances is 1-DP")


def check_continuous_all_answers() -> CheckResult:
    cases: list[tuple[str, Any]] = []
    for spec in ("uniform:0,1", "beta:2,5", "norm:0,1"):
        cases += _pair(spec, parse_prior(spec), None)
    cases += _pair("piecewise 2|1|1/2 on 0,1/4,1/2,1 (exact)", STEP, None)
    return _run(cases, "refinement with a continuous prior is 1-DP for every true answer")
