"""Exact checkers and certificates for additive noise (thesis ch.4): DP of univariate
densities (ineq. 4.2), normalisation, symmetry, the order of Definition 6, multivariate shell
noise (§4.5) and the parameter-choice certificates.

The names below are re-exported lazily (PEP 562): importing the package imports none of
its modules, so ``privlab --help`` stays fast; ``from privlab.verify.noise import X``
imports X's module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from privlab._lazy import lazy_exports

if TYPE_CHECKING:  # pragma: no cover - for type checkers and readers
    from privlab.verify.noise.certify import (
        accuracy,
        certify_noise,
        make_noise,
    )
    from privlab.verify.noise.density import (
        TailInfo,
        TailMismatch,
        check_dps,
        check_normalisation,
        check_symmetry,
        confirm_ties,
        find_piece,
        mass,
        mirror,
        piece_mass,
        pieces,
        require_structure,
        same_function,
        side_pieces,
        tail_info,
        tolerance,
    )
    from privlab.verify.noise.dp import (
        check_pure_dp,
    )
    from privlab.verify.noise.multivariate import (
        check_core_slack,
        check_marginal_variances,
        check_printed_recursion,
        check_shell_dp,
        check_shell_recursion,
        check_theorem3_conditions,
        recursion_labels,
    )
    from privlab.verify.noise.multivariate_cert import (
        AuditCase,
        Event,
        audit_cases,
        certify_box_staircase,
    )
    from privlab.verify.noise.order import (
        check_order,
        compare,
    )

_EXPORTS: dict[str, str] = {
    "AuditCase": "privlab.verify.noise.multivariate_cert",
    "Event": "privlab.verify.noise.multivariate_cert",
    "TailInfo": "privlab.verify.noise.density",
    "TailMismatch": "privlab.verify.noise.density",
    "accuracy": "privlab.verify.noise.certify",
    "audit_cases": "privlab.verify.noise.multivariate_cert",
    "certify_box_staircase": "privlab.verify.noise.multivariate_cert",
    "certify_noise": "privlab.verify.noise.certify",
    "check_core_slack": "privlab.verify.noise.multivariate",
    "check_dps": "privlab.verify.noise.density",
    "check_marginal_variances": "privlab.verify.noise.multivariate",
    "check_normalisation": "privlab.verify.noise.density",
    "check_order": "privlab.verify.noise.order",
    "check_printed_recursion": "privlab.verify.noise.multivariate",
    "check_pure_dp": "privlab.verify.noise.dp",
    "check_shell_dp": "privlab.verify.noise.multivariate",
    "check_shell_recursion": "privlab.verify.noise.multivariate",
    "check_symmetry": "privlab.verify.noise.density",
    "check_theorem3_conditions": "privlab.verify.noise.multivariate",
    "compare": "privlab.verify.noise.order",
    "confirm_ties": "privlab.verify.noise.density",
    "find_piece": "privlab.verify.noise.density",
    "make_noise": "privlab.verify.noise.certify",
    "mass": "privlab.verify.noise.density",
    "mirror": "privlab.verify.noise.density",
    "piece_mass": "privlab.verify.noise.density",
    "pieces": "privlab.verify.noise.density",
    "recursion_labels": "privlab.verify.noise.multivariate",
    "require_structure": "privlab.verify.noise.density",
    "same_function": "privlab.verify.noise.density",
    "side_pieces": "privlab.verify.noise.density",
    "tail_info": "privlab.verify.noise.density",
    "tolerance": "privlab.verify.noise.density",
}

__all__ = [
    "AuditCase",
    "Event",
    "TailInfo",
    "TailMismatch",
    "accuracy",
    "audit_cases",
    "certify_box_staircase",
    "certify_noise",
    "check_core_slack",
    "check_dps",
    "check_marginal_variances",
    "check_normalisation",
    "check_order",
    "check_printed_recursion",
    "check_pure_dp",
    "check_shell_dp",
    "check_shell_recursion",
    "check_symmetry",
    "check_theorem3_conditions",
    "compare",
    "confirm_ties",
    "find_piece",
    "make_noise",
    "mass",
    "mirror",
    "piece_mass",
    "pieces",
    "recursion_labels",
    "require_structure",
    "same_function",
    "side_pieces",
    "tail_info",
    "tolerance",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
