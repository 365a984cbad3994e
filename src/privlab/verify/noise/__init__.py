"""Exact checkers and certificates for additive noise (thesis ch.4): DP of univariate
densities (ineq. 4.2), normalisation, symmetry, the order of Definition 6, multivariate shell
noise (§4.5) and the parameter-choice certificates.
"""

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
