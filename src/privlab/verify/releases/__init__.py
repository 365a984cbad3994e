"""Certificates and exact checkers of the DP release pipelines (thesis §6.3, vldb14 §4,
irm §3): sensitivity of the released quantity under the neighbour relation and release
format, exhaustive small-data sweeps, the mixed numerical/categorical release, and the expected
error of a release (utility: what the user gets, and which k / ε / scale meets a target).

The names below are re-exported lazily (PEP 562): importing the package imports none of
its modules, so ``privlab --help`` stays fast; ``from privlab.verify.releases import X``
imports X's module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from privlab._lazy import lazy_exports

if TYPE_CHECKING:  # pragma: no cover - for type checkers and readers
    from privlab.verify.releases.certificate import (
        MICROAGGREGATIONS,
        NOISE_SCALES,
        ReleaseCertificate,
        ReleaseConfig,
        certify_dp_release,
        certify_release,
        leak_pair,
    )
    from privlab.verify.releases.exact import (
        exact_sensitivity,
        sweep,
    )
    from privlab.verify.releases.mixed import (
        certify_mixed,
        quality_sensitivity,
        structure,
    )
    from privlab.verify.releases.mixed_exact import (
        categorical_law,
        check_mixed_exact,
        exact_mixed_loss,
        small_datasets,
    )
    from privlab.verify.releases.utility import NoiseLaw, ReleaseUtility, assess, on_data
    from privlab.verify.releases.utility_plans import (
        law_utility,
        mixed_utility,
        numerical_utility,
    )

_EXPORTS: dict[str, str] = {
    "MICROAGGREGATIONS": "privlab.verify.releases.certificate",
    "NOISE_SCALES": "privlab.verify.releases.certificate",
    "NoiseLaw": "privlab.verify.releases.utility",
    "ReleaseCertificate": "privlab.verify.releases.certificate",
    "ReleaseConfig": "privlab.verify.releases.certificate",
    "ReleaseUtility": "privlab.verify.releases.utility",
    "assess": "privlab.verify.releases.utility",
    "categorical_law": "privlab.verify.releases.mixed_exact",
    "certify_dp_release": "privlab.verify.releases.certificate",
    "certify_mixed": "privlab.verify.releases.mixed",
    "certify_release": "privlab.verify.releases.certificate",
    "check_mixed_exact": "privlab.verify.releases.mixed_exact",
    "exact_mixed_loss": "privlab.verify.releases.mixed_exact",
    "exact_sensitivity": "privlab.verify.releases.exact",
    "law_utility": "privlab.verify.releases.utility_plans",
    "leak_pair": "privlab.verify.releases.certificate",
    "mixed_utility": "privlab.verify.releases.utility_plans",
    "numerical_utility": "privlab.verify.releases.utility_plans",
    "on_data": "privlab.verify.releases.utility",
    "quality_sensitivity": "privlab.verify.releases.mixed",
    "small_datasets": "privlab.verify.releases.mixed_exact",
    "structure": "privlab.verify.releases.mixed",
    "sweep": "privlab.verify.releases.exact",
}

__all__ = [
    "MICROAGGREGATIONS",
    "NOISE_SCALES",
    "NoiseLaw",
    "ReleaseCertificate",
    "ReleaseConfig",
    "ReleaseUtility",
    "assess",
    "categorical_law",
    "certify_dp_release",
    "certify_mixed",
    "certify_release",
    "check_mixed_exact",
    "exact_mixed_loss",
    "exact_sensitivity",
    "law_utility",
    "leak_pair",
    "mixed_utility",
    "numerical_utility",
    "on_data",
    "quality_sensitivity",
    "small_datasets",
    "structure",
    "sweep",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
