"""Disclosure-risk measures of releases.

* :func:`record_linkage` — thesis §6.4.2 (vldb14 §5.2): RL = 100 · Σ_j Pr(x′_j) / n, where
  Pr(x′_j) = 1/|G| if the original record x_j is in the set G of original records at minimum
  distance from x′_j, else 0 (ties shared).  Euclidean distance on standardised attributes
  (original means and standard deviations, the same transform for both tables) by default, or
  raw.  Nearest distances come from a k-d tree; G is counted exactly up to a relative tolerance
  of 1e-12 on the distances (floating-point ties).
* :func:`check_k_anonymity` — every combination of quasi-identifier values of the release is
  shared by at least k records.
* :func:`check_l_diversity` — every such class holds at least l distinct values of the
  confidential attribute (distinct l-diversity).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from privlab.errors import InvalidParameter
from privlab.types import CheckResult, Method

__all__ = ["check_k_anonymity", "check_l_diversity", "record_linkage"]


def record_linkage(original: Any, release: Any, *, scale: str = "standardised",
                   per_record: bool = False) -> Any:
    """RL percentage (module doc); ``per_record=True`` also returns the (n,) Pr(x′_j)."""
    from scipy.spatial import cKDTree

    from privlab.metrics.utility import _pair

    a, b = _pair(original, release)
    if scale == "standardised":
        mu, sd = a.mean(axis=0), a.std(axis=0)
        sd = np.where(sd > 0, sd, 1.0)
        a, b = (a - mu) / sd, (b - mu) / sd
    elif scale != "raw":
        raise InvalidParameter(f"scale={scale!r} must be 'standardised' or 'raw'")
    # sliding-midpoint tree: the same exact answers, about twice as fast as the balanced
    # (median) tree for noisy releases, whose clamped records lie far from the originals
    tree = cKDTree(a, balanced_tree=False, compact_nodes=False)
    dmin, _ = tree.query(b, k=1)
    dtrue = np.sqrt(((a - b) ** 2).sum(axis=1))
    tol = 1e-12 * np.maximum(dmin, 1e-300) + 1e-15
    hit = dtrue <= dmin + tol
    prob = np.zeros(len(a))
    idx = np.flatnonzero(hit)
    if idx.size:
        counts = tree.query_ball_point(b[idx], r=dtrue[idx] + tol[idx], return_length=True)
        prob[idx] = 1.0 / np.maximum(np.asarray(counts), 1)
    rl = 100.0 * float(prob.mean())
    return (rl, prob) if per_record else rl


def _classes(qi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    _, inv, counts = np.unique(qi, axis=0, return_inverse=True, return_counts=True)
    return inv.ravel(), counts


def _qi(release: Any, quasi_identifiers: Sequence[Any] | None) -> np.ndarray:
    from privlab.mechanisms.microaggregation.core import as_table

    x, _ = as_table(release, quasi_identifiers, name="release")
    return x


def check_k_anonymity(release: Any, k: int, *, quasi_identifiers: Sequence[Any] | None = None
                      ) -> CheckResult:
    """k-anonymity of a release on its quasi-identifier columns (all columns by default)."""
    if isinstance(k, bool) or int(k) != k or k < 1:
        raise InvalidParameter(f"k={k!r} must be a positive integer")
    inv, counts = _classes(_qi(release, quasi_identifiers))
    kmin = int(counts.min())
    ok = kmin >= k
    cex = None
    if not ok:
        cls = int(np.argmin(counts))
        cex = {"class_size": kmin, "rows": np.flatnonzero(inv == cls)[:20].tolist()}
    return CheckResult(holds=ok, claim=f"{k}-anonymity of the release", value=kmin,
                       method=Method.EXACT, evidence={"k": int(k), "min_class_size": kmin,
                                                      "classes": len(counts)},
                       counterexample=cex)


def check_l_diversity(release: Any, confidential: Any, l: int, *,  # noqa: E741
                      quasi_identifiers: Sequence[Any] | None = None) -> CheckResult:
    """Distinct l-diversity of ``confidential`` (a column of the release or an array of n
    values) within the classes of equal quasi-identifier values."""
    if isinstance(l, bool) or int(l) != l or l < 1:
        raise InvalidParameter(f"l={l!r} must be a positive integer")
    if isinstance(confidential, str | int) and not isinstance(confidential, bool):
        conf = _qi(release, [confidential])[:, 0]
    else:
        conf = np.asarray(confidential).ravel()
    inv, counts = _classes(_qi(release, quasi_identifiers))
    if len(conf) != len(inv):
        raise InvalidParameter(f"confidential has {len(conf)} values, the release {len(inv)} "
                               f"rows")
    _, cv = np.unique(conf, return_inverse=True)
    pairs = np.unique(np.stack([inv, cv.ravel()], axis=1), axis=0)
    distinct = np.bincount(pairs[:, 0], minlength=len(counts))
    lmin = int(distinct.min())
    ok = lmin >= l
    return CheckResult(holds=ok, claim=f"distinct {l}-diversity of the release", value=lmin,
                       method=Method.EXACT, evidence={"l": int(l), "min_distinct": lmin,
                                                      "classes": len(counts)},
                       counterexample=None if ok else {
                           "class_rows": np.flatnonzero(inv == int(np.argmin(distinct)))[
                               :20].tolist(), "distinct": lmin})
