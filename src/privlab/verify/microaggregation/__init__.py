"""Checkers of the microaggregation family: insensitivity (Def. 12–14, Prop. 6–7),
probabilistic k-anonymity (ch.3 Def. 5), taxonomy metrics (eq. 6.6) and the literal exact
reference transcriptions of the algorithms.
"""

from privlab.verify.microaggregation.insensitivity import (
    centroid_change,
    check_centroid_sensitivity,
    check_insensitive,
    clusters_correspond,
    is_neighbour,
)
from privlab.verify.microaggregation.prob_kanon import (
    PARTITIONS,
    check_probabilistic_k_anonymity,
    posterior,
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

__all__ = [
    "PARTITIONS",
    "brute_force_insensitive_pair",
    "centroid_change",
    "check_centroid_sensitivity",
    "check_insensitive",
    "check_marginality_sensitivity",
    "check_probabilistic_k_anonymity",
    "check_semantic_metric",
    "clusters_correspond",
    "is_neighbour",
    "literal_corner_sequence",
    "literal_individual_ranking_labels",
    "literal_insensitive_mdav_labels",
    "literal_mdav_labels",
    "literal_order_labels",
    "mdav_group_sizes",
    "posterior",
    "ratio_parts",
]
