"""t-closeness by bucketization (thesis §7.1–7.2, ins15 §6): the printed per-class count
rules and the Anatomy / permuted releases.
"""

from privlab.mechanisms.tcloseness.bucketization import (
    TCloseRelease,
    bucketize,
    confidential_ranks,
    partition_alg_7_1,
    qi_key,
    release_t_close,
    utility,
)
from privlab.mechanisms.tcloseness.counts import (
    CountPlan,
    as_fraction_t,
    bounds,
    bucket_sizes,
    class_sizes,
    emphasis,
    exact_counts,
    l_range,
    n_buckets,
    plan,
    printed_counts,
    solve_counts,
    valid_counts,
    validate,
)

__all__ = [
    "CountPlan",
    "TCloseRelease",
    "as_fraction_t",
    "bounds",
    "bucket_sizes",
    "bucketize",
    "class_sizes",
    "confidential_ranks",
    "emphasis",
    "exact_counts",
    "l_range",
    "n_buckets",
    "partition_alg_7_1",
    "plan",
    "printed_counts",
    "qi_key",
    "release_t_close",
    "solve_counts",
    "utility",
    "valid_counts",
    "validate",
]
