"""Checkers of the microaggregation family: insensitivity (Def. 12–14, Prop. 6–7),
probabilistic k-anonymity (ch.3 Def. 5), taxonomy metrics (eq. 6.6), the literal exact
reference transcriptions of the algorithms, and the properties of a published table as
written (k-anonymity over the declared quasi-identifiers, l-diversity, SSE/SST, record
linkage: :mod:`~privlab.verify.microaggregation.published`).

The names below are re-exported lazily (PEP 562): importing the package imports none of
its modules, so ``privlab --help`` stays fast; ``from privlab.verify.microaggregation import X``
imports X's module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from privlab._lazy import lazy_exports

if TYPE_CHECKING:  # pragma: no cover - for type checkers and readers
    from privlab.verify.microaggregation.centroid_sensitivity import (
        centroid_change,
        check_centroid_sensitivity,
    )
    from privlab.verify.microaggregation.insensitivity import (
        check_insensitive,
        clusters_correspond,
        is_neighbour,
    )
    from privlab.verify.microaggregation.prob_kanon import (
        PARTITIONS,
        check_probabilistic_k_anonymity,
        posterior,
    )
    from privlab.verify.microaggregation.published import (
        WrittenTable,
        check_published_k_anonymity,
        check_published_l_diversity,
        microaggregation_measures,
    )
    from privlab.verify.microaggregation.reference import (
        brute_force_insensitive_pair,
        literal_corner_sequence,
        literal_individual_ranking_labels,
        literal_insensitive_mdav_labels,
        literal_mdav_labels,
        literal_order_labels,
        mdav_group_sizes,
    )
    from privlab.verify.microaggregation.taxonomy import (
        check_marginality_sensitivity,
        check_semantic_metric,
        ratio_parts,
    )

_EXPORTS: dict[str, str] = {
    "PARTITIONS": "privlab.verify.microaggregation.prob_kanon",
    "brute_force_insensitive_pair": "privlab.verify.microaggregation.reference",
    "centroid_change": "privlab.verify.microaggregation.centroid_sensitivity",
    "check_centroid_sensitivity": "privlab.verify.microaggregation.centroid_sensitivity",
    "check_insensitive": "privlab.verify.microaggregation.insensitivity",
    "check_marginality_sensitivity": "privlab.verify.microaggregation.taxonomy",
    "check_probabilistic_k_anonymity": "privlab.verify.microaggregation.prob_kanon",
    "check_published_k_anonymity": "privlab.verify.microaggregation.published",
    "check_published_l_diversity": "privlab.verify.microaggregation.published",
    "check_semantic_metric": "privlab.verify.microaggregation.taxonomy",
    "clusters_correspond": "privlab.verify.microaggregation.insensitivity",
    "is_neighbour": "privlab.verify.microaggregation.insensitivity",
    "literal_corner_sequence": "privlab.verify.microaggregation.reference",
    "literal_individual_ranking_labels": "privlab.verify.microaggregation.reference",
    "literal_insensitive_mdav_labels": "privlab.verify.microaggregation.reference",
    "literal_mdav_labels": "privlab.verify.microaggregation.reference",
    "literal_order_labels": "privlab.verify.microaggregation.reference",
    "mdav_group_sizes": "privlab.verify.microaggregation.reference",
    "microaggregation_measures": "privlab.verify.microaggregation.published",
    "posterior": "privlab.verify.microaggregation.prob_kanon",
    "ratio_parts": "privlab.verify.microaggregation.taxonomy",
    "WrittenTable": "privlab.verify.microaggregation.published",
}

__all__ = [
    "PARTITIONS",
    "WrittenTable",
    "brute_force_insensitive_pair",
    "centroid_change",
    "check_centroid_sensitivity",
    "check_insensitive",
    "check_marginality_sensitivity",
    "check_probabilistic_k_anonymity",
    "check_published_k_anonymity",
    "check_published_l_diversity",
    "check_semantic_metric",
    "clusters_correspond",
    "is_neighbour",
    "literal_corner_sequence",
    "literal_individual_ranking_labels",
    "literal_insensitive_mdav_labels",
    "literal_mdav_labels",
    "literal_order_labels",
    "mdav_group_sizes",
    "microaggregation_measures",
    "posterior",
    "ratio_parts",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
