"""Individual-ranking (univariate) microaggregation (irm §2.1; Defays & Nanopoulos 1993).

Each attribute is microaggregated on its own: the records are sorted by that attribute and cut
into consecutive groups of k, the last group absorbing the remainder (k … 2k − 1 values), and
every value is replaced by its group's mean.  This is Algorithm 6.1 on one attribute with the
numerical order, fixed by the attribute itself — so it is insensitive per attribute (irm
Lemma 1: the centroid list moves by at most Δ/k in L1 when one value changes by Δ).

Order and ties: attribute j ascending; records with equal values of attribute j are ordered by
their whole record lexicographically (attribute 0 first), then by input position (identical
records only).  Permuting the input rows permutes the output rows.

Cost: O(m · n log n) (one sort per attribute); the cut is O(n).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from privlab.mechanisms.microaggregation.core import (
    Domain,
    MicroaggregationResult,
    as_table,
    check_k,
    finish,
)

__all__ = ["consecutive_labels", "individual_ranking", "individual_ranking_labels"]


def consecutive_labels(order: np.ndarray, k: int) -> np.ndarray:
    """Label of each record when the records listed in ``order`` are cut into consecutive
    chunks of k, the last chunk absorbing the remainder (label i = i-th chunk)."""
    n = len(order)
    q = max(n // k, 1)
    lab = np.empty(n, dtype=np.int64)
    lab[order] = np.minimum(np.arange(n) // k, q - 1)
    return lab


def individual_ranking_labels(x: np.ndarray, k: int) -> np.ndarray:
    """``(n, m)`` labels: column j is attribute j's partition (numbered along its order)."""
    n, m = x.shape
    lab = np.empty((n, m), dtype=np.int64)
    rest = tuple(x[:, j] for j in range(m - 1, -1, -1))
    for j in range(m):
        order = np.lexsort((*rest, x[:, j]))
        lab[:, j] = consecutive_labels(order, k)
    return lab


def individual_ranking(data: Any, k: int, *, columns: Any = None, bounds: Any = None
                       ) -> MicroaggregationResult:
    """Individual-ranking microaggregation of every selected attribute.  ``bounds`` is
    optional (the order is the attributes' own); when given it is checked against the data."""
    x, names = as_table(data, columns)
    k = check_k(k, x.shape[0])
    params: dict[str, Any] = {}
    if bounds is not None:
        dom = Domain.parse(bounds, names)
        dom.check(x)
        params["bounds"] = dom.to_dict()
    return finish("individual-ranking", x, individual_ranking_labels(x, k), k, names, params)
