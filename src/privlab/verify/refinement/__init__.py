"""Exact analysis of knowledge refinement (thesis ch.5): every neighbour of a small data
set, exact piecewise laws of continuous priors, every-answer symbolic certificates.

The names below are re-exported lazily (PEP 562): importing the package imports none of
its modules, so ``privlab --help`` stays fast; ``from privlab.verify.refinement import X``
imports X's module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from privlab._lazy import lazy_exports

if TYPE_CHECKING:  # pragma: no cover - for type checkers and readers
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

_EXPORTS: dict[str, str] = {
    "Target": "privlab.verify.refinement.exact",
    "ball_pieces": "privlab.verify.refinement.exact",
    "certify_refinement": "privlab.verify.refinement.certificate",
    "check_all_answers": "privlab.verify.refinement.all_answers",
    "check_refinement_dp": "privlab.verify.refinement.neighbours",
    "check_true_values": "privlab.verify.refinement.neighbours",
    "compare_continuous": "privlab.verify.refinement.neighbours",
    "compare_discrete": "privlab.verify.refinement.neighbours",
    "compare_product": "privlab.verify.refinement.neighbours",
    "exact_case": "privlab.verify.refinement.exact",
    "exact_cdf": "privlab.verify.refinement.exact",
    "exact_evidence": "privlab.verify.refinement.all_answers",
    "exact_pair": "privlab.verify.refinement.exact",
    "exact_radius": "privlab.verify.refinement.exact",
    "exp_epsilon": "privlab.verify.refinement.neighbours",
    "law_of": "privlab.verify.refinement.neighbours",
    "mass_at": "privlab.verify.refinement.exact",
    "pairs": "privlab.verify.refinement.neighbours",
    "premises": "privlab.verify.refinement.exact",
    "symbolic_factors": "privlab.verify.refinement.all_answers",
    "true_values": "privlab.verify.refinement.certificate",
    "verify_closed_form": "privlab.verify.refinement.exact",
}

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

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
