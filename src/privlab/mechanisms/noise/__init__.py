"""Additive noise laws of thesis ch.4: Laplace, the optimal staircase (§4.4), the
multivariate box and L1 staircases and the Laplace baseline (§4.5), the floating-point-safe
samplers (docs/threat-model.md) with their exact helpers, and the deliberately broken controls.

The names below are re-exported lazily (PEP 562): importing the package imports none of
its modules, so ``privlab --help`` stays fast; ``from privlab.mechanisms.noise import X``
imports X's module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from privlab._lazy import lazy_exports

if TYPE_CHECKING:  # pragma: no cover - for type checkers and readers
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

_EXPORTS: dict[str, str] = {
    "BoxStaircase": "privlab.mechanisms.noise.box_staircase",
    "ConfidenceRegion": "privlab.mechanisms.noise.box_objectives",
    "DiscreteNoise": "privlab.mechanisms.noise.safe",
    "HalfScaleLaplace": "privlab.mechanisms.noise.controls",
    "HalfStepBoxStaircase": "privlab.mechanisms.noise.box_staircase",
    "HalfStepL1Staircase": "privlab.mechanisms.noise.l1_staircase",
    "HalfWidthStaircase": "privlab.mechanisms.noise.controls",
    "IndependentLaplace": "privlab.mechanisms.noise.multi_laplace",
    "L1BallStaircase": "privlab.mechanisms.noise.l1_staircase",
    "Laplace": "privlab.mechanisms.noise.laplace",
    "OversizedCoreBoxStaircase": "privlab.mechanisms.noise.box_staircase",
    "Staircase": "privlab.mechanisms.noise.staircase",
    "WrongRatioBoxStaircase": "privlab.mechanisms.noise.box_staircase",
    "WrongRatioStaircase": "privlab.mechanisms.noise.controls",
    "as_widths": "privlab.mechanisms.noise.box_staircase",
    "check_discrete_dp": "privlab.mechanisms.noise.safe",
    "check_level": "privlab.mechanisms.noise.box_objectives",
    "check_safe_dp": "privlab.mechanisms.noise.safe",
    "confidence_region": "privlab.mechanisms.noise.box_objectives",
    "discrete_pmf": "privlab.mechanisms.noise.safe",
    "grid_index": "privlab.mechanisms.noise.safe",
    "make_control": "privlab.mechanisms.noise.controls",
    "min_volume_level": "privlab.mechanisms.noise.box_objectives",
    "objective_value": "privlab.mechanisms.noise.box_objectives",
    "optimal_core": "privlab.mechanisms.noise.box_objectives",
    "parse_objective": "privlab.mechanisms.noise.box_objectives",
    "prob_box": "privlab.mechanisms.noise.box_objectives",
    "safe_parameters": "privlab.mechanisms.noise.safe",
    "safe_release": "privlab.mechanisms.noise.safe",
}

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

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
