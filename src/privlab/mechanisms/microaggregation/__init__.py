"""The microaggregation family (thesis §2.8, ch.3, §6.2–6.3.3; vldb14 §3–4; irm §2.1).

Public facade over small private-ish modules:

* :func:`mdav` — MDAV, Algorithm 2.1 (:mod:`~privlab.mechanisms.microaggregation.mdav_algorithm`);
* :func:`insensitive_mdav`, :func:`insensitive_microaggregation`, :func:`algorithm_6_1`,
  :func:`corner_sequence` — insensitive microaggregation
  (:mod:`~privlab.mechanisms.microaggregation.insensitive`);
* :func:`individual_ranking` — univariate microaggregation
  (:mod:`~privlab.mechanisms.microaggregation.ranking`);
* :class:`Domain`, :class:`MicroaggregationResult`
(:mod:`~privlab.mechanisms.microaggregation.core`).

Every function takes a numpy array or a pandas DataFrame (``columns=`` selects attributes),
``k`` with 1 ≤ k ≤ n, and returns a frozen :class:`MicroaggregationResult` (labels, centroids
as means in original units, released array).  The insensitive variants require ``bounds``
(the declared domain, checked against the data) and never look at the data to fix their
orders.

:data:`LABELERS` maps algorithm names to ``labels(x, k, bounds) -> labels`` functions on plain
arrays — the interface the insensitivity checker
(:mod:`privlab.verify.microaggregation.insensitivity`) uses.
:func:`dp_release_labels` is the hook :mod:`privlab.mechanisms.releases.numerical` calls for its
partition.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation.core import (
    Domain,
    MicroaggregationResult,
    as_table,
    canonical_order,
    centroids_of,
    check_k,
    parse_bounds,
)
from privlab.mechanisms.microaggregation.insensitive import (
    algorithm_6_1,
    algorithm_6_1_labels,
    corner_sequence,
    corners_labels,
    insensitive_mdav,
    insensitive_mdav_labels,
    insensitive_microaggregation,
    reference_point,
    total_order,
)
from privlab.mechanisms.microaggregation.mdav_algorithm import mdav, mdav_labels
from privlab.mechanisms.microaggregation.ranking import (
    individual_ranking,
    individual_ranking_labels,
)

__all__ = ["LABELERS", "METHODS", "Domain", "MicroaggregationResult", "algorithm_6_1",
           "algorithm_6_1_labels",
           "as_table", "canonical_order", "centroids_of", "check_k", "corner_sequence",
           "dp_release_labels", "individual_ranking", "insensitive_mdav",
           "insensitive_microaggregation", "labeler", "mdav", "microaggregate", "parse_bounds",
           "reference_point", "total_order"]

Labeler = Callable[[np.ndarray, int, np.ndarray], np.ndarray]
"""``labels(x, k, bounds)``: x float (n, m), bounds (m, 2) → (n,) or (n, m) int labels."""


def _dom(x: np.ndarray, bounds: np.ndarray) -> Domain:
    b = np.asarray(bounds, dtype=float).reshape(-1, 2)
    if b.shape[0] == 1 and x.shape[1] > 1:
        b = np.repeat(b, x.shape[1], axis=0)
    return Domain(lower=b[:, 0], upper=b[:, 1])


def _preorder_labels(x: np.ndarray, k: int, bounds: np.ndarray) -> np.ndarray:
    """Broken control: Algorithm 6.1 with the distance to the lower corner only — ties are
    broken by input position instead of the records' values (a preorder, not a total order)."""
    dom = _dom(x, bounds)
    u = dom.scale(x)
    order = np.argsort(np.einsum("ij,ij->i", u, u), kind="stable")
    from privlab.mechanisms.microaggregation.ranking import consecutive_labels

    return consecutive_labels(order, k)


LABELERS: dict[str, Labeler] = {
    "mdav": lambda x, k, b: mdav_labels(x, k, "standardised"),
    "mdav-raw": lambda x, k, b: mdav_labels(x, k, "raw"),
    "insensitive-mdav": lambda x, k, b: insensitive_mdav_labels(x, k, _dom(x, b)),
    "insensitive-mdav-literal": lambda x, k, b: insensitive_mdav_labels(
        x, k, _dom(x, b), final="average"),
    "insensitive-corners": lambda x, k, b: corners_labels(x, k, _dom(x, b)),
    "individual-ranking": lambda x, k, b: individual_ranking_labels(x, k),
    "preorder-control": _preorder_labels,
}
"""Algorithms by name, on plain arrays (``bounds`` is ignored by the data-driven ones)."""

METHODS = ("mdav", "insensitive-mdav", "insensitive-corners", "individual-ranking")


def labeler(name: str) -> Labeler:
    if name not in LABELERS:
        raise InvalidParameter(f"algorithm={name!r} must be one of {', '.join(LABELERS)}")
    return LABELERS[name]


def microaggregate(method: str, data: Any, k: int, *, columns: Any = None, bounds: Any = None,
                   **options: Any) -> MicroaggregationResult:
    """Dispatch by name: ``mdav``, ``insensitive-mdav``, ``insensitive-corners``,
    ``individual-ranking``."""
    if method == "mdav":
        return mdav(data, k, columns=columns, bounds=bounds, **options)
    if method == "insensitive-mdav":
        return insensitive_mdav(data, k, columns=columns, bounds=bounds, **options)
    if method == "insensitive-corners":
        return insensitive_microaggregation(data, k, columns=columns, bounds=bounds, **options)
    if method == "individual-ranking":
        return individual_ranking(data, k, columns=columns, bounds=bounds, **options)
    raise InvalidParameter(f"method={method!r} must be one of {', '.join(METHODS)}")


def dp_release_labels(u: np.ndarray, k: int, kind: str) -> np.ndarray:
    """Partition used by :mod:`privlab.mechanisms.releases.numerical` for data ``u`` in units
    ([0, 1]^m): ``(n,)`` labels for ``insensitive-mdav``, ``(n, m)`` for
    ``individual-ranking``."""
    u = np.ascontiguousarray(np.asarray(u, dtype=float))
    if kind == "insensitive-mdav":
        m = u.shape[1]
        dom = Domain(lower=np.zeros(m), upper=np.ones(m))
        return insensitive_mdav_labels(u, k, dom)
    if kind == "individual-ranking":
        return individual_ranking_labels(u, k)
    raise InvalidParameter(f"kind={kind!r} must be 'insensitive-mdav' or 'individual-ranking'")

