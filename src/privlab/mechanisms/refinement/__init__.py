"""Knowledge refinement (thesis ch.5): priors, distances, refinement factors, the output
laws of Algorithm 5.1, product priors and their quadrature, data sets and queries, and the
interactive Protocols 1–2 (§5.4.1).

The names below are re-exported lazily (PEP 562): importing the package imports none of
its modules, so ``privlab --help`` stays fast; ``from privlab.mechanisms.refinement import X``
imports X's module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from privlab._lazy import lazy_exports

if TYPE_CHECKING:  # pragma: no cover - for type checkers and readers
    from privlab.mechanisms.refinement.algorithm import (
        Refinement,
        broken_statistical,
        move_mass_continuous,
        move_mass_discrete,
        refine_continuous,
        refine_discrete,
    )
    from privlab.mechanisms.refinement.distances import (
        Distance,
        custom,
        get_distance,
        ordinal,
    )
    from privlab.mechanisms.refinement.factors import (
        Factors,
        printed_alpha_ud,
        printed_masses,
        required_masses,
    )
    from privlab.mechanisms.refinement.interactive import (
        Answered,
        LaplaceSession,
        RefinementSession,
        proposition_4_condition,
        session_from_spec,
    )
    from privlab.mechanisms.refinement.laws import (
        ContinuousLaw,
        DiscreteLaw,
    )
    from privlab.mechanisms.refinement.priors import (
        ContinuousPrior,
        DiscretePrior,
        PiecewisePrior,
        product_prior,
    )
    from privlab.mechanisms.refinement.product import (
        NORMS,
        ProductDistance,
        ProductLaw,
        ProductPrior,
        refine_product,
    )
    from privlab.mechanisms.refinement.quadrature import (
        QUAD_EPS,
        crossings,
        gauss,
        knots,
        section_integral,
    )
    from privlab.mechanisms.refinement.quadrature_3d import (
        QUAD_EPS3,
        QUAD_EPS3_PAIR,
        ball_mass_3d,
        intersection_mass_3d,
    )
    from privlab.mechanisms.refinement.queries import (
        Dataset,
        IndividualQuery,
        StatisticalQuery,
        count_query,
    )
    from privlab.mechanisms.refinement.spec import (
        parse_prior,
    )

_EXPORTS: dict[str, str] = {
    "Answered": "privlab.mechanisms.refinement.interactive",
    "ContinuousLaw": "privlab.mechanisms.refinement.laws",
    "ContinuousPrior": "privlab.mechanisms.refinement.priors",
    "Dataset": "privlab.mechanisms.refinement.queries",
    "DiscreteLaw": "privlab.mechanisms.refinement.laws",
    "DiscretePrior": "privlab.mechanisms.refinement.priors",
    "Distance": "privlab.mechanisms.refinement.distances",
    "Factors": "privlab.mechanisms.refinement.factors",
    "IndividualQuery": "privlab.mechanisms.refinement.queries",
    "LaplaceSession": "privlab.mechanisms.refinement.interactive",
    "NORMS": "privlab.mechanisms.refinement.product",
    "PiecewisePrior": "privlab.mechanisms.refinement.priors",
    "ProductDistance": "privlab.mechanisms.refinement.product",
    "ProductLaw": "privlab.mechanisms.refinement.product",
    "ProductPrior": "privlab.mechanisms.refinement.product",
    "QUAD_EPS": "privlab.mechanisms.refinement.quadrature",
    "QUAD_EPS3": "privlab.mechanisms.refinement.quadrature_3d",
    "QUAD_EPS3_PAIR": "privlab.mechanisms.refinement.quadrature_3d",
    "Refinement": "privlab.mechanisms.refinement.algorithm",
    "RefinementSession": "privlab.mechanisms.refinement.interactive",
    "StatisticalQuery": "privlab.mechanisms.refinement.queries",
    "ball_mass_3d": "privlab.mechanisms.refinement.quadrature_3d",
    "broken_statistical": "privlab.mechanisms.refinement.algorithm",
    "count_query": "privlab.mechanisms.refinement.queries",
    "crossings": "privlab.mechanisms.refinement.quadrature",
    "custom": "privlab.mechanisms.refinement.distances",
    "gauss": "privlab.mechanisms.refinement.quadrature",
    "get_distance": "privlab.mechanisms.refinement.distances",
    "intersection_mass_3d": "privlab.mechanisms.refinement.quadrature_3d",
    "knots": "privlab.mechanisms.refinement.quadrature",
    "move_mass_continuous": "privlab.mechanisms.refinement.algorithm",
    "move_mass_discrete": "privlab.mechanisms.refinement.algorithm",
    "ordinal": "privlab.mechanisms.refinement.distances",
    "parse_prior": "privlab.mechanisms.refinement.spec",
    "printed_alpha_ud": "privlab.mechanisms.refinement.factors",
    "printed_masses": "privlab.mechanisms.refinement.factors",
    "product_prior": "privlab.mechanisms.refinement.priors",
    "proposition_4_condition": "privlab.mechanisms.refinement.interactive",
    "refine_continuous": "privlab.mechanisms.refinement.algorithm",
    "refine_discrete": "privlab.mechanisms.refinement.algorithm",
    "refine_product": "privlab.mechanisms.refinement.product",
    "required_masses": "privlab.mechanisms.refinement.factors",
    "section_integral": "privlab.mechanisms.refinement.quadrature",
    "session_from_spec": "privlab.mechanisms.refinement.interactive",
}

__all__ = [
    "NORMS",
    "QUAD_EPS",
    "QUAD_EPS3",
    "QUAD_EPS3_PAIR",
    "Answered",
    "ContinuousLaw",
    "ContinuousPrior",
    "Dataset",
    "DiscreteLaw",
    "DiscretePrior",
    "Distance",
    "Factors",
    "IndividualQuery",
    "LaplaceSession",
    "PiecewisePrior",
    "ProductDistance",
    "ProductLaw",
    "ProductPrior",
    "Refinement",
    "RefinementSession",
    "StatisticalQuery",
    "ball_mass_3d",
    "broken_statistical",
    "count_query",
    "crossings",
    "custom",
    "gauss",
    "get_distance",
    "intersection_mass_3d",
    "knots",
    "move_mass_continuous",
    "move_mass_discrete",
    "ordinal",
    "parse_prior",
    "printed_alpha_ud",
    "printed_masses",
    "product_prior",
    "proposition_4_condition",
    "refine_continuous",
    "refine_discrete",
    "refine_product",
    "required_masses",
    "section_integral",
    "session_from_spec",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
