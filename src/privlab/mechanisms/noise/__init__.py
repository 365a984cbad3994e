"""Additive noise laws of thesis ch.4: Laplace, the optimal staircase (§4.4), the
multivariate box and L1 staircases and the Laplace baseline (§4.5), the floating-point-safe
samplers (docs/threat-model.md) with their exact helpers, and the deliberately broken controls.
"""

from privlab.mechanisms.noise.box_objectives import (
    ConfidenceRegion,
    check_level,
    confidence_region,
    min_volume_level,
    objective_value,
    optimal_core,
    parse_objective,
    prob_box,
)
from privlab.mechanisms.noise.box_staircase import (
    BoxStaircase,
    HalfStepBoxStaircase,
    OversizedCoreBoxStaircase,
    WrongRatioBoxStaircase,
    as_widths,
)
from privlab.mechanisms.noise.controls import (
    HalfScaleLaplace,
    HalfWidthStaircase,
    WrongRatioStaircase,
    make_control,
)
from privlab.mechanisms.noise.l1_staircase import (
    HalfStepL1Staircase,
    L1BallStaircase,
)
from privlab.mechanisms.noise.laplace import (
    Laplace,
)
from privlab.mechanisms.noise.multi_laplace import (
    IndependentLaplace,
)
from privlab.mechanisms.noise.safe import (
    DiscreteNoise,
    check_discrete_dp,
    check_safe_dp,
    discrete_pmf,
    grid_index,
    safe_parameters,
    safe_release,
)
from privlab.mechanisms.noise.staircase import (
    Staircase,
)

__all__ = [
    "BoxStaircase",
    "ConfidenceRegion",
    "DiscreteNoise",
    "HalfScaleLaplace",
    "HalfStepBoxStaircase",
    "HalfStepL1Staircase",
    "HalfWidthStaircase",
    "IndependentLaplace",
    "L1BallStaircase",
    "Laplace",
    "OversizedCoreBoxStaircase",
    "Staircase",
    "WrongRatioBoxStaircase",
    "WrongRatioStaircase",
    "as_widths",
    "check_discrete_dp",
    "check_level",
    "check_safe_dp",
    "confidence_region",
    "discrete_pmf",
    "grid_index",
    "make_control",
    "min_volume_level",
    "objective_value",
    "optimal_core",
    "parse_objective",
    "prob_box",
    "safe_parameters",
    "safe_release",
]
