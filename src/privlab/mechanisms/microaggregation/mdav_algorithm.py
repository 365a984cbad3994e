"""MDAV — maximum distance to average record (thesis §2.8 Algorithm 2.1; Domingo-Ferrer &
Torra 2005), as sdcMicro runs it.

Algorithm (k ≥ 1, n ≥ k records; distances are Euclidean on the *distance space* below):

* while at least 3k records remain: x̄ ← mean of the remaining records; x1 ← the remaining
  record farthest from x̄; cluster 1 ← x1 and its k − 1 nearest remaining records; remove it;
  x2 ← the record farthest from x1 among the records left *after* cluster 1 was removed;
  cluster 2 ← x2 and its k − 1 nearest of those; remove it;
* if 2k … 3k − 1 records remain: one more cluster around the record farthest from their mean;
* the remaining k … 2k − 1 records form the last cluster (n < 2k: one cluster of all n).

So every cluster has k records except the last, which has k … 2k − 1.  Centroids are the
cluster means in the original units.

Distance space (``distance=``): ``"standardised"`` (default, as sdcMicro: each attribute
centred and divided by its sample standard deviation, ddof = 1; a constant attribute is only
centred), ``"raw"`` (original units), or ``"domain"`` (divided by the declared range
``hi − lo``; needs ``bounds``).

Deterministic tie-breaking (documented rule): the records are first put in canonical order
(sorted lexicographically by their original values, column 0 first, stable — see
:func:`privlab.mechanisms.microaggregation.core.canonical_order`).  "Farthest" takes the largest
squared distance and, among equal ones, the record earliest in that order; "nearest" takes the
smallest squared distances and, among equal ones, the earliest records; the centre record x1
(x2) always belongs to its own cluster even when duplicates of it exist.  Squared distances
are compared (no square root, so no ties are created by rounding).  Hence the partition depends
only on the multiset of records: permuting the input rows permutes the output rows.

Cost: O(n² m / k) arithmetic — every step is a pass over the remaining records, compiled with
numba (no Python loop over records); memory O(n m).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation.core import (
    Domain,
    MicroaggregationResult,
    as_table,
    canonical_order,
    check_k,
    finish,
)

__all__ = ["DISTANCES", "distance_space", "mdav", "mdav_labels"]

DISTANCES = ("standardised", "raw", "domain")


@numba.njit(cache=True, nogil=True)
def _take_cluster(z: np.ndarray, idx: np.ndarray, r: int, centre: int, k: int,
                  d: np.ndarray, lab: np.ndarray, label: int, bd: np.ndarray, bt: np.ndarray,
                  flag: np.ndarray, p: np.ndarray, mean: np.ndarray, out: np.ndarray) -> int:
    """Give the record at position ``centre`` of the remaining block z[:r] and its k − 1
    nearest remaining records the label ``label``; compact z[:r], idx[:r] and d (order kept)
    and return the new r.  On return ``d[:r]`` holds the squared distances of the remaining
    records to the centre, ``mean`` their mean and ``out[0]`` the position of the farthest of
    them from the centre (first among equals)."""
    m = z.shape[1]
    for j in range(m):
        p[j] = z[centre, j]
    # k smallest (d, position): sorted insertion into bd/bt; scanning positions in order,
    # an equal distance never displaces an earlier record
    cnt = 0
    for t in range(r):
        dt = 0.0
        for j in range(m):
            diff = z[t, j] - p[j]
            dt += diff * diff
        if t == centre:
            dt = -1.0  # the centre is always in its own cluster
        d[t] = dt
        if cnt == k and dt >= bd[k - 1]:
            continue
        pos = cnt if cnt < k else k - 1
        while pos > 0 and bd[pos - 1] > dt:
            if pos < k:
                bd[pos] = bd[pos - 1]
                bt[pos] = bt[pos - 1]
            pos -= 1
        bd[pos] = dt
        bt[pos] = t
        if cnt < k:
            cnt += 1
    for s in range(k):
        flag[bt[s]] = True
        lab[idx[bt[s]]] = label
    w = 0
    for j in range(m):
        mean[j] = 0.0
    best = -1.0
    far = 0
    for t in range(r):
        if flag[t]:
            flag[t] = False
            continue
        if w != t:
            for j in range(m):
                z[w, j] = z[t, j]
            idx[w] = idx[t]
            d[w] = d[t]
        for j in range(m):
            mean[j] += z[w, j]
        if d[w] > best:
            best = d[w]
            far = w
        w += 1
    if w > 0:
        for j in range(m):
            mean[j] /= w
    out[0] = far
    return w


@numba.njit(cache=True, nogil=True)
def _farthest(z: np.ndarray, r: int, p: np.ndarray) -> int:
    """Position of the record of z[:r] farthest from p (first among equals)."""
    m = z.shape[1]
    best = -1.0
    arg = 0
    for t in range(r):
        s = 0.0
        for j in range(m):
            diff = z[t, j] - p[j]
            s += diff * diff
        if s > best:
            best = s
            arg = t
    return arg


@numba.njit(cache=True, nogil=True)
def _mdav_kernel(z0: np.ndarray, k: int) -> np.ndarray:
    n, m = z0.shape
    z = z0.copy()
    idx = np.arange(n)
    lab = np.full(n, -1, dtype=np.int64)
    d = np.empty(n)
    bd = np.empty(k)
    bt = np.empty(k, dtype=np.int64)
    flag = np.zeros(n, dtype=np.bool_)
    p = np.empty(m)
    mean = np.zeros(m)
    for t in range(n):
        for j in range(m):
            mean[j] += z[t, j]
    for j in range(m):
        mean[j] /= n
    r = n
    label = 0
    out = np.zeros(1, dtype=np.int64)
    while r >= 3 * k:
        a = _farthest(z, r, mean)
        r = _take_cluster(z, idx, r, a, k, d, lab, label, bd, bt, flag, p, mean, out)
        label += 1
        b = out[0]  # farthest from x1 among the records left
        r = _take_cluster(z, idx, r, b, k, d, lab, label, bd, bt, flag, p, mean, out)
        label += 1
    if r >= 2 * k:
        a = _farthest(z, r, mean)
        r = _take_cluster(z, idx, r, a, k, d, lab, label, bd, bt, flag, p, mean, out)
        label += 1
    for t in range(r):
        lab[idx[t]] = label
    return lab


def distance_space(x: np.ndarray, distance: str, domain: Domain | None) -> np.ndarray:
    """The coordinates whose Euclidean distances MDAV uses (see module doc)."""
    if distance == "raw":
        return np.ascontiguousarray(x)
    if distance == "domain":
        if domain is None:
            raise InvalidParameter("distance='domain' needs bounds (the declared domain)")
        return np.ascontiguousarray(domain.scale(x))
    if distance == "standardised":
        mu = x.mean(axis=0)
        sd = x.std(axis=0, ddof=1) if x.shape[0] > 1 else np.zeros(x.shape[1])
        sd = np.where(sd > 0, sd, 1.0)
        return np.ascontiguousarray((x - mu) / sd)
    raise InvalidParameter(f"distance={distance!r} must be one of {', '.join(DISTANCES)}")


def mdav_labels(x: np.ndarray, k: int, distance: str = "standardised",
                domain: Domain | None = None) -> np.ndarray:
    """MDAV cluster labels of the rows of a validated float array (clusters numbered in the
    order they are formed)."""
    perm = canonical_order(x)
    xc = np.ascontiguousarray(x[perm])
    z = distance_space(xc, distance, domain)
    lab_c = _mdav_kernel(z, int(k))
    lab = np.empty_like(lab_c)
    lab[perm] = lab_c
    return lab


def mdav(data: Any, k: int, *, columns: Any = None, distance: str = "standardised",
         bounds: Any = None) -> MicroaggregationResult:
    """MDAV microaggregation of ``data`` (numpy array or DataFrame; ``columns`` selects the
    attributes).  ``bounds`` (optional, required for ``distance="domain"``) declares the domain
    and is checked against the data.  Returns a :class:`MicroaggregationResult`."""
    x, names = as_table(data, columns)
    k = check_k(k, x.shape[0])
    if distance not in DISTANCES:
        raise InvalidParameter(f"distance={distance!r} must be one of {', '.join(DISTANCES)}")
    dom = None
    if bounds is not None:
        dom = Domain.parse(bounds, names)
        dom.check(x)
    lab = mdav_labels(x, k, distance, dom)
    params: dict[str, Any] = {"distance": distance}
    if dom is not None:
        params["bounds"] = dom.to_dict()
    return finish("mdav", x, lab, k, names, params)
