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

Cost: O(n² m / k) arithmetic; memory O(n m), allocated once (in numpy, outside the compiled
code).  Compiled with numba (no Python loop over records); the remaining records are kept
column-major and compacted once per pair of clusters.  Per pair: one vectorised pass of
squared distances to the mean, to x1 and to x2 (each followed by a scan for the farthest
record or the k nearest, records of cluster 1 being flagged rather than moved), and one
compaction pass that also sums the remaining records.  The
floating-point operations are those of the literal algorithm in the same order (the means are
sequential sums in position order, each squared distance sums its terms in column order), so
the partition is bit-for-bit that of a per-record loop.
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
def _sq_dist(zt: np.ndarray, r: int, p: np.ndarray, d: np.ndarray) -> None:
    """d[t] = Σ_j (zt[j, t] − p[j])² for t < r, summed over j in increasing order (the same
    rounding as a per-record loop); column by column, so the loop over records vectorises."""
    m = zt.shape[0]
    p0 = p[0]
    for t in range(r):
        diff = zt[0, t] - p0
        d[t] = diff * diff
    for j in range(1, m):
        pj = p[j]
        for t in range(r):
            diff = zt[j, t] - pj
            d[t] += diff * diff


@numba.njit(cache=True, nogil=True)
def _farthest(d: np.ndarray, r: int, flag: np.ndarray) -> int:
    """Position of the largest d[t] among the unflagged t < r (first among equals)."""
    best = -1.0
    arg = 0
    for t in range(r):
        if d[t] > best and not flag[t]:
            best = d[t]
            arg = t
    return arg


@numba.njit(cache=True, nogil=True)
def _take_nearest(d: np.ndarray, r: int, centre: int, k: int, flag: np.ndarray,
                  bd: np.ndarray, bt: np.ndarray) -> None:
    """Flag ``centre`` and the k − 1 unflagged t < r of smallest d[t] (earliest among equals);
    their positions end in bt[:k].  Sorted insertion into bd/bt: scanning positions in order,
    an equal distance never displaces an earlier record; the centre gets −1 so it is always
    in its own cluster."""
    d[centre] = -1.0
    cnt = 0
    lim = np.inf
    for t in range(r):
        dt = d[t]
        if dt >= lim or flag[t]:
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
        if cnt == k:
            lim = bd[k - 1]
    for s in range(k):
        flag[bt[s]] = True


@numba.njit(cache=True, nogil=True)
def _compact(zt: np.ndarray, idx: np.ndarray, r: int, flag: np.ndarray,
             mean: np.ndarray) -> int:
    """Drop the flagged records of zt[:, :r] / idx[:r] (order kept, flags cleared), put the
    mean of the rest in ``mean`` (sequential sums in position order) and return their count."""
    m = zt.shape[0]
    s0 = 0.0
    s1 = 0.0
    s2 = 0.0
    s3 = 0.0
    for j in range(m):
        mean[j] = 0.0
    w = 0
    for t in range(r):
        if flag[t]:
            flag[t] = False
            continue
        if w != t:
            for j in range(m):
                zt[j, w] = zt[j, t]
            idx[w] = idx[t]
        s0 += zt[0, w]  # local accumulators: independent add chains for the first 4 columns
        if m > 1:
            s1 += zt[1, w]
            if m > 2:
                s2 += zt[2, w]
                if m > 3:
                    s3 += zt[3, w]
                    for j in range(4, m):
                        mean[j] += zt[j, w]
        w += 1
    mean[0] = s0
    if m > 1:
        mean[1] = s1
    if m > 2:
        mean[2] = s2
    if m > 3:
        mean[3] = s3
    if w > 0:
        for j in range(m):
            mean[j] /= w
    return w


@numba.njit(cache=True, nogil=True)
def _mdav_core(zt: np.ndarray, idx: np.ndarray, k: int, lab: np.ndarray, d: np.ndarray,
               flag: np.ndarray, p: np.ndarray, mean: np.ndarray, bd: np.ndarray,
               bt: np.ndarray) -> None:
    """MDAV on the column-major records ``zt`` (m, n), writing the labels into ``lab``.

    Work arrays come from :func:`_mdav_kernel` (allocated in numpy, so numba compiles no
    array-allocation code): idx = 0 … n − 1, flag all False, d (n,), p, mean (m,), bd, bt (k,).
    A round forms two clusters while ≥ 3k records remain, else one (2k ≤ r < 3k): x1 is the
    record farthest from the mean, x2 the record farthest from x1 among those left (d holds
    the squared distances to x1 after cluster 1); a cluster is its centre and the k − 1
    nearest unflagged records (:func:`_take_nearest`).  Each helper has one call site per
    argument-type signature and ``label`` starts as an int64 (not a literal 0): each helper
    compiles once."""
    n = zt.shape[1]
    r = _compact(zt, idx, n, flag, mean)  # nothing flagged: only the mean
    label = r - r  # 0 as a non-literal int64
    while r >= 2 * k:
        pair = r >= 3 * k  # two clusters (x1, then x2), else one (x1)
        _sq_dist(zt, r, mean, d)
        for _ in range(2 if pair else 1):
            a = _farthest(d, r, flag)  # x1 from the mean, then x2 from x1
            for j in range(zt.shape[0]):
                p[j] = zt[j, a]
            _sq_dist(zt, r, p, d)  # squared distances to the centre
            _take_nearest(d, r, a, k, flag, bd, bt)
            for s in range(k):
                lab[idx[bt[s]]] = label
            label += 1
        r = _compact(zt, idx, r, flag, mean)
    for t in range(r):
        lab[idx[t]] = label


def _mdav_kernel(z0: np.ndarray, k: int) -> np.ndarray:
    """MDAV labels of the rows of ``z0`` (n, m) in the distance space, rows in canonical order
    (clusters numbered in the order they are formed).  Allocates the work arrays in numpy and
    runs the compiled :func:`_mdav_core`."""
    n, m = z0.shape
    k = int(k)
    # a C-ordered copy, one row per attribute (always a copy: the kernel compacts it in place,
    # and np.ascontiguousarray would return a view of z0 when m = 1)
    zt = np.array(z0.T, dtype=np.float64, order="C")
    lab = np.full(n, -1, dtype=np.int64)
    _mdav_core(zt, np.arange(n, dtype=np.int64), k, lab, np.empty(n),
               np.zeros(n, dtype=np.bool_), np.empty(m), np.zeros(m), np.empty(k),
               np.empty(k, dtype=np.int64))
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
