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
from privlab.proofs.thesis.ch5_exact import EPSILONS, eps_float
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


EPS_GRID = tuple(eps_float(e) for e in EPSILONS)
"""The thesis's registry ε (0.01, 0.1, 0.5, ln 2, 1, 2, 10)."""
OTHER_EPS_CASES = (("product(uniform:0,1;norm:0,1)", "chebyshev"),
                   ("product(uniform:0,1;norm:0,1)", "l2"))
"""The product cases run at the registry ε other than 1 (ε = 1 runs every prior and norm)."""


def _pair(label: str, p: Any, norm: Any, eps: float = 1.0) -> list[tuple[str, Any]]:
    tag = "" if eps == 1.0 else f" ε={eps:.6g}"
    return [(f"{label} individual{tag}", Refinement.individual(p, eps, distance=norm)),
            (f"{label} statistical{tag}", Refinement.statistical(p, eps, distance=norm))]


@functools.cache
def _prior(spec: str) -> Any:
    """``parse_prior(spec)``, one frozen object per spec and process: the cases and the broken
    control then share their components, so the memo of
    :func:`~privlab.mechanisms.refinement.quadrature.section_integral` (keyed on the component
    objects) serves the control's radius searches, which are those of the individual case of
    the same prior and norm (same p_u = 1/(1 + e))."""
    return parse_prior(spec)


def _cases(priors: tuple[str, ...], norms: tuple[str, ...], eps: float = 1.0
           ) -> list[tuple[str, Any]]:
    out = []
    for spec in priors:
        p = _prior(spec)
        for norm in norms:
            out += _pair(f"{spec} {norm}", p, norm, eps)
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
        rows.append({"case": label, "epsilon": mech.epsilon, "holds": c.holds,
                     "log_ratios_over_eps": [ch.value / mech.epsilon for ch in c.checks],
                     "methods": [ch.method.value for ch in c.checks],
                     "exact_radii_and_cells": "exact_piecewise" in c.checks[0].evidence})
        if not c.holds:
            bad.append(label)
    caught, ctrl_value = _control()
    return CheckResult(
        holds=not bad and caught, claim=claim,
        value=max(max(r["log_ratios_over_eps"]) for r in rows), method=Method.SYMBOLIC,
        evidence={"cases": rows, "epsilons": sorted({r["epsilon"] for r in rows}),
                  "value": "the largest worst log-ratio / ε over the cases",
                  "broken_control_caught": caught,
                  "broken_control_log_ratio": ctrl_value},
        counterexample=({"failed": bad} if bad else
                        None if caught else {"broken_control": "not caught"}))


def product_cases() -> list[tuple[str, Any]]:
    """ε = 1: two continuous product priors × chebyshev / l1 / l2 and the exact uniform products
    (d = 2, 3) under chebyshev; every other registry ε: :data:`OTHER_EPS_CASES`.  Both rows of
    Table 5.2 (individual, statistical) for each."""
    cases = _cases(PRIORS, NORMS) + _cases(EXACT_PRODUCTS, ("chebyshev",))
    for eps in EPS_GRID:
        if eps != 1.0:
            for spec, norm in OTHER_EPS_CASES:
                cases += _cases((spec,), (norm,), eps)
    return cases


def check_products() -> CheckResult:
    return _run(product_cases(),
                "refinement over product priors with chebyshev/l1/l2 distances is ε-DP")


CONTINUOUS = ("uniform:0,1", "beta:2,5", "norm:0,1")
OTHER_EPS_CONTINUOUS = ("norm:0,1",)
"""The scipy priors run at the registry ε other than 1 (with :data:`STEP`); ε = 1 runs all."""


def continuous_cases() -> list[tuple[str, Any]]:
    """ε = 1: uniform, beta(2, 5), N(0, 1) and the exact three-piece density :data:`STEP`; every
    other registry ε: N(0, 1) and :data:`STEP`; both rows of Table 5.2 each time."""
    cases: list[tuple[str, Any]] = []
    for eps in EPS_GRID:
        for spec in CONTINUOUS if eps == 1.0 else OTHER_EPS_CONTINUOUS:
            cases += _pair(spec, parse_prior(spec), None, eps)
        cases += _pair("piecewise 2|1|1/2 on 0,1/4,1/2,1 (exact)", STEP, None, eps)
    return cases


def check_continuous_all_answers() -> CheckResult:
    return _run(continuous_cases(),
                "refinement with a continuous prior is ε-DP for every true answer")
