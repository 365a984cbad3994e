"""Knowledge refinement (thesis ch.5): priors, distances, refinement factors, the output
laws of Algorithm 5.1, product priors and their quadrature, data sets and queries, and the
interactive Protocols 1–2 (§5.4.1).
"""

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
    QUAD_EPS3,
    QUAD_EPS3_PAIR,
    ball_mass_3d,
    crossings,
    gauss,
    intersection_mass_3d,
    knots,
    section_integral,
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
