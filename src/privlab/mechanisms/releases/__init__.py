"""DP data releases through microaggregation (thesis §6.3, vldb14 §3–4, irm §3): the
numerical pipeline (insensitive MDAV / individual ranking → Laplace noise) and the mixed
numerical/categorical one (exponential-mechanism centroids).  Their certificates live in
:mod:`privlab.verify.releases`; a mechanism never imports a checker.
"""

from privlab.mechanisms.releases.config import (
    MICROAGGREGATIONS,
    NOISE_SCALES,
    ReleaseConfig,
)
from privlab.mechanisms.releases.mixed import (
    BUDGETS,
    EM_FACTORS,
    MixedDPRelease,
)
from privlab.mechanisms.releases.numerical import (
    DPRelease,
    order_partition,
)

__all__ = [
    "BUDGETS",
    "EM_FACTORS",
    "MICROAGGREGATIONS",
    "NOISE_SCALES",
    "DPRelease",
    "MixedDPRelease",
    "ReleaseConfig",
    "order_partition",
]
