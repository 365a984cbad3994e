"""Certificates and exact checkers of the DP release pipelines (thesis §6.3, vldb14 §4,
irm §3): sensitivity of the released quantity under the neighbour relation and release
format, exhaustive small-data sweeps, the mixed numerical/categorical release.
"""

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

__all__ = [
    "MICROAGGREGATIONS",
    "NOISE_SCALES",
    "ReleaseCertificate",
    "ReleaseConfig",
    "categorical_law",
    "certify_dp_release",
    "certify_mixed",
    "certify_release",
    "check_mixed_exact",
    "exact_mixed_loss",
    "exact_sensitivity",
    "leak_pair",
    "quality_sensitivity",
    "small_datasets",
    "structure",
    "sweep",
]
