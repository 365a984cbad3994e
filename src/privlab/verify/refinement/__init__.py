"""Exact analysis of knowledge refinement (thesis ch.5): every neighbour of a small data
set, exact piecewise laws of continuous priors, every-answer symbolic certificates.
"""

from privlab.verify.refinement.all_answers import (
    check_all_answers,
    exact_evidence,
    symbolic_factors,
)
from privlab.verify.refinement.certificate import (
    certify_refinement,
    true_values,
)
from privlab.verify.refinement.exact import (
    Target,
    ball_pieces,
    exact_case,
    exact_cdf,
    exact_pair,
    exact_radius,
    mass_at,
    premises,
    verify_closed_form,
)
from privlab.verify.refinement.neighbours import (
    check_refinement_dp,
    check_true_values,
    compare_continuous,
    compare_discrete,
    compare_product,
    exp_epsilon,
    law_of,
    pairs,
)

__all__ = [
    "Target",
    "ball_pieces",
    "certify_refinement",
    "check_all_answers",
    "check_refinement_dp",
    "check_true_values",
    "compare_continuous",
    "compare_discrete",
    "compare_product",
    "exact_case",
    "exact_cdf",
    "exact_evidence",
    "exact_pair",
    "exact_radius",
    "exp_epsilon",
    "law_of",
    "mass_at",
    "pairs",
    "premises",
    "symbolic_factors",
    "true_values",
    "verify_closed_form",
]
