"""t-closeness by bucketization (thesis §7.1–7.2, ins15 §6): the printed per-class count
rules and the Anatomy / permuted releases.

The names below are re-exported lazily (PEP 562): importing the package imports none of
its modules, so ``privlab --help`` stays fast; ``from privlab.mechanisms.tcloseness import X``
imports X's module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from privlab._lazy import lazy_exports

if TYPE_CHECKING:  # pragma: no cover - for type checkers and readers
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

_EXPORTS: dict[str, str] = {
    "CountPlan": "privlab.mechanisms.tcloseness.counts",
    "TCloseRelease": "privlab.mechanisms.tcloseness.bucketization",
    "as_fraction_t": "privlab.mechanisms.tcloseness.counts",
    "bounds": "privlab.mechanisms.tcloseness.counts",
    "bucket_sizes": "privlab.mechanisms.tcloseness.counts",
    "bucketize": "privlab.mechanisms.tcloseness.bucketization",
    "class_sizes": "privlab.mechanisms.tcloseness.counts",
    "confidential_ranks": "privlab.mechanisms.tcloseness.bucketization",
    "emphasis": "privlab.mechanisms.tcloseness.counts",
    "exact_counts": "privlab.mechanisms.tcloseness.counts",
    "l_range": "privlab.mechanisms.tcloseness.counts",
    "n_buckets": "privlab.mechanisms.tcloseness.counts",
    "partition_alg_7_1": "privlab.mechanisms.tcloseness.bucketization",
    "plan": "privlab.mechanisms.tcloseness.counts",
    "printed_counts": "privlab.mechanisms.tcloseness.counts",
    "qi_key": "privlab.mechanisms.tcloseness.bucketization",
    "release_t_close": "privlab.mechanisms.tcloseness.bucketization",
    "solve_counts": "privlab.mechanisms.tcloseness.counts",
    "utility": "privlab.mechanisms.tcloseness.bucketization",
    "valid_counts": "privlab.mechanisms.tcloseness.counts",
    "validate": "privlab.mechanisms.tcloseness.counts",
}

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

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
