"""DP data releases through microaggregation (thesis §6.3, vldb14 §3–4, irm §3): the
numerical pipeline (insensitive MDAV / individual ranking → Laplace noise) and the mixed
numerical/categorical one (exponential-mechanism centroids).  Their certificates live in
:mod:`privlab.verify.releases`; a mechanism never imports a checker.

The names below are re-exported lazily (PEP 562): importing the package imports none of
its modules, so ``privlab --help`` stays fast; ``from privlab.mechanisms.releases import X``
imports X's module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from privlab._lazy import lazy_exports

if TYPE_CHECKING:  # pragma: no cover - for type checkers and readers
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

_EXPORTS: dict[str, str] = {
    "BUDGETS": "privlab.mechanisms.releases.mixed",
    "DPRelease": "privlab.mechanisms.releases.numerical",
    "EM_FACTORS": "privlab.mechanisms.releases.mixed",
    "MICROAGGREGATIONS": "privlab.mechanisms.releases.config",
    "MixedDPRelease": "privlab.mechanisms.releases.mixed",
    "NOISE_SCALES": "privlab.mechanisms.releases.config",
    "ReleaseConfig": "privlab.mechanisms.releases.config",
    "order_partition": "privlab.mechanisms.releases.numerical",
}

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

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
