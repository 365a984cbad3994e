"""Microaggregation of categorical records with the semantic distance (thesis §6.3.4–6.3.6,
vldb14 §4.4–4.6; the MDAV of thesis §2.8 Algorithm 2.1 with marginality centroids).

Records are tuples of concepts, one per attribute, each attribute with its own
:class:`~privlab.mechanisms.microaggregation.taxonomy.Taxonomy`; columns hold concept codes
(:meth:`Taxonomy.codes`, i.e. indices in the sorted concept names, so code order = name order).

* Record distance: eq. (6.7) / vldb14 eq. (8) restricted to categorical attributes,
  d(x, y)² = Σ_j (δ_j(x_j, y_j) / δ_j(a_b^j, a_t^j))² with δ the semantic distance of eq. (6.6)
  and (a_b, a_t) the domain boundaries of eq. (6.2)–(6.3).
* Centroid of a multiset S of values of one attribute: the marginality-based centroid of
  eq. (6.4), argmin over τ(S) (the values of S and their ancestors) of m(S, c) = Σ_{s∈S} δ(s, c).
* :func:`categorical_mdav_labels` — MDAV (thesis Algorithm 2.1) with that distance and that
  centroid as the "average record": while ≥ 3k records remain, x̄ ← centroid of the remaining
  records (attribute-wise), x1 ← the remaining record farthest from x̄, cluster ← x1 and its
  k − 1 nearest remaining records; x2 ← the remaining record farthest from x1, cluster around
  x2 likewise; if 2k … 3k − 1 remain one more cluster around the record farthest from x̄; the
  rest form the last cluster.
* :func:`insensitive_categorical_labels` — Algorithm 6.1 with the reference points of §6.3.3:
  the corners of Dom(X) built from the boundaries (bit 0 → a_b, bit 1 → a_t), visited in the
  Hamming order of :func:`~privlab.mechanisms.microaggregation.insensitive.corner_sequence`; the
  order
  ≤_R is the eq. (6.7) distance to R, ties "alphabetical" (lexicographic on the concept names,
  attribute 0 first), then by record index.  Data-independent, hence insensitive (Prop. 7).

Ties (documented rule): records are ranked canonically (lexicographic on the codes, then
index); "farthest" and "nearest" take the canonically first record among equal distances;
the centre record always belongs to its own cluster; centroid ties go to the smallest concept
name.  Values within ``TOL`` (relative, 1e-9 for marginalities; absolute 1e-12 for squared
record distances) count as equal, so sums accumulated in different orders give the same
partition.  Identical records are interchangeable, so the kernel runs on the P distinct
tuples with multiplicities (P ≤ 388 on Adult (OCCUPATION, NATIVE-COUNTRY)) and hands the
records of a tuple out in index order: O(n/k · (P·k + Σ_j C_j²)) for C_j concepts.
"""

from __future__ import annotations

from collections.abc import Sequence

import numba
import numpy as np

from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation.insensitive import _take_by_orders, corner_sequence
from privlab.mechanisms.microaggregation.taxonomy import Taxonomy

__all__ = ["MARGINALITY_TOL", "RECORD_TOL", "SemanticSpace", "categorical_mdav_labels",
           "insensitive_categorical_labels", "marginality_centroids"]

MARGINALITY_TOL = 1e-9
RECORD_TOL = 1e-12


class SemanticSpace:
    """The taxonomies of m categorical attributes, with padded (m, C, C) arrays for kernels:
    ``dist[j, a, b]`` = δ_j(a, b), ``anc[j, s, c]`` = c ∈ φ_j(s), ``norm[j]`` = δ_j(a_b, a_t)."""

    def __init__(self, taxonomies: Sequence[Taxonomy]) -> None:
        taxes = tuple(taxonomies)
        if not taxes or not all(isinstance(t, Taxonomy) for t in taxes):
            raise InvalidParameter(f"taxonomies={taxonomies!r} must be a non-empty sequence of "
                                   "Taxonomy")
        self.taxonomies = taxes
        self.m = len(taxes)
        self.sizes = np.array([len(t.concepts) for t in taxes], dtype=np.int64)
        c = int(self.sizes.max())
        self.dist = np.zeros((self.m, c, c))
        self.anc = np.zeros((self.m, c, c), dtype=np.bool_)
        for j, t in enumerate(taxes):
            n = len(t.concepts)
            self.dist[j, :n, :n] = t.distance_matrix
            for a in t.concepts:
                for p in t.ancestors(a):
                    self.anc[j, t.index[a], t.index[p]] = True
        self.norm = np.array([t.boundary_distance for t in taxes])
        if not (self.norm > 0).all():
            raise InvalidParameter("every taxonomy needs two distinct domain values "
                                   "(δ(a_b, a_t) > 0)")

    def check_codes(self, codes: np.ndarray) -> np.ndarray:
        x = np.asarray(codes)
        if x.ndim != 2 or x.shape[1] != self.m or x.shape[0] == 0:
            raise InvalidParameter(f"codes of shape {x.shape} must be a non-empty (n, {self.m}) "
                                   "table")
        if not np.issubdtype(x.dtype, np.integer):
            raise InvalidParameter("codes must be integer concept codes (Taxonomy.codes)")
        if x.min() >= 0 and all(x[:, j].max() < self.sizes[j] for j in range(self.m)):
            return np.ascontiguousarray(x, dtype=np.int64)  # every code valid (fast test)
        bad = (x < 0) | (x >= self.sizes[None, :])
        if bad.any():
            r, c = np.argwhere(bad)[0]
            raise InvalidParameter(f"code {int(x[r, c])} in row {r}, column {c} is not a "
                                   f"concept of taxonomy {self.taxonomies[c].name!r}")
        return np.ascontiguousarray(x, dtype=np.int64)

    def record_sq_distance(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Squared eq. (6.7) distance, broadcasting code arrays x (..., m) and y (..., m)."""
        out = np.zeros(np.broadcast_shapes(x.shape, y.shape)[:-1])
        for j in range(self.m):
            t = self.dist[j][x[..., j], y[..., j]] / self.norm[j]
            out = out + t * t
        return out

    def boundary_codes(self) -> np.ndarray:
        """(m, 2): codes of (a_b, a_t) per attribute."""
        return np.array([[t.index[b] for b in t.boundaries] for t in self.taxonomies])


def distinct(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(U (P, m) distinct rows in lexicographic order, counts w (P,), inverse (n,))."""
    u, inv, w = np.unique(codes, axis=0, return_inverse=True, return_counts=True)
    return u.astype(np.int64), w.astype(np.int64), inv.ravel().astype(np.int64)


@numba.njit(cache=True, nogil=True)
def _centroid(cnt: np.ndarray, dist: np.ndarray, anc: np.ndarray, tol: float,
              out: np.ndarray, mg: np.ndarray, cand: np.ndarray) -> None:
    """Per attribute: argmin over τ(S) of Σ_s cnt[s]·δ(s, c) (ties within tol → smallest c).
    ``mg`` (float) and ``cand`` (bool), of length ≥ C, are work arrays (reset here)."""
    m, c_max = cnt.shape
    for j in range(m):
        for c in range(c_max):
            cand[c] = False
            mg[c] = 0.0
        for s in range(c_max):
            if cnt[j, s] > 0:
                for c in range(c_max):
                    if anc[j, s, c]:
                        cand[c] = True
                    mg[c] += cnt[j, s] * dist[j, s, c]
        best = np.inf
        for c in range(c_max):
            if cand[c] and mg[c] < best:
                best = mg[c]
        ab = abs(best)
        lim = best + tol * (ab if ab > 1.0 else 1.0)  # tol · max(1, |best|)
        for c in range(c_max):
            if cand[c] and mg[c] <= lim:
                out[j] = c
                break


@numba.njit(cache=True, nogil=True)
def _distances(u: np.ndarray, centre: np.ndarray, dist: np.ndarray, norm: np.ndarray,
               d: np.ndarray) -> None:
    p_n, m = u.shape
    for p in range(p_n):
        s = 0.0
        for j in range(m):
            t = dist[j, u[p, j], centre[j]] / norm[j]
            s += t * t
        d[p] = s


@numba.njit(cache=True, nogil=True)
def _farthest(rem: np.ndarray, d: np.ndarray, tol: float) -> int:
    best = -1.0
    for p in range(rem.shape[0]):
        if rem[p] > 0 and d[p] > best:
            best = d[p]
    for p in range(rem.shape[0]):
        if rem[p] > 0 and d[p] >= best - tol:
            return p
    return -1


@numba.njit(cache=True, nogil=True)
def _take(u: np.ndarray, rem: np.ndarray, cnt: np.ndarray, a: int, k: int, dist: np.ndarray,
          norm: np.ndarray, d: np.ndarray, tol: float, label: int, trip: np.ndarray,
          t: int, used: np.ndarray) -> int:
    """Cluster ``label`` ← one record of tuple a and its k − 1 nearest remaining records;
    appends (label, tuple, count) triples to ``trip`` from row t; returns the new t.
    ``used`` (bool, length P) is a work array (cleared here)."""
    _distances(u, u[a], dist, norm, d)
    d[a] = -1.0  # the centre's tuple first (the centre is always in its own cluster)
    for p in range(rem.shape[0]):
        used[p] = False
    need = k
    m = u.shape[1]
    while need > 0:
        best = np.inf
        for p in range(rem.shape[0]):
            if rem[p] > 0 and not used[p] and d[p] < best:
                best = d[p]
        q = -1
        for p in range(rem.shape[0]):
            if rem[p] > 0 and not used[p] and d[p] <= best + tol:
                q = p
                break
        used[q] = True
        got = rem[q] if rem[q] < need else need  # min(rem[q], need)
        rem[q] -= got
        need -= got
        for j in range(m):
            cnt[j, u[q, j]] -= got
        trip[t, 0] = label
        trip[t, 1] = q
        trip[t, 2] = got
        t += 1
    return t


@numba.njit(cache=True, nogil=True)
def _mdav_core(u: np.ndarray, rem: np.ndarray, cnt: np.ndarray, dist: np.ndarray,
               anc: np.ndarray, norm: np.ndarray, k: int, mtol: float, rtol: float,
               trip: np.ndarray, d: np.ndarray, cen: np.ndarray, mg: np.ndarray,
               cand: np.ndarray, used: np.ndarray) -> int:
    """MDAV on the P distinct tuples ``u`` with remaining multiplicities ``rem`` and
    per-attribute concept counts ``cnt`` (both consumed); writes (label, tuple, count)
    triples into ``trip`` and returns their number.  The other arrays are work arrays from
    :func:`_mdav_tuples` (allocated in numpy: numba compiles no allocation code).  ``t`` and
    ``label`` start as int64 values (not literal 0s), so ``_take`` has one signature."""
    p_n = u.shape[0]
    r = 0
    for p in range(p_n):
        r += rem[p]
    t = r - r  # 0 as a non-literal int64
    label = t
    while r >= 3 * k:
        _centroid(cnt, dist, anc, mtol, cen, mg, cand)
        _distances(u, cen, dist, norm, d)
        a = _farthest(rem, d, rtol)
        t = _take(u, rem, cnt, a, k, dist, norm, d, rtol, label, trip, t, used)
        label += 1
        _distances(u, u[a], dist, norm, d)
        b = _farthest(rem, d, rtol)
        t = _take(u, rem, cnt, b, k, dist, norm, d, rtol, label, trip, t, used)
        label += 1
        r -= 2 * k
    if r >= 2 * k:
        _centroid(cnt, dist, anc, mtol, cen, mg, cand)
        _distances(u, cen, dist, norm, d)
        a = _farthest(rem, d, rtol)
        t = _take(u, rem, cnt, a, k, dist, norm, d, rtol, label, trip, t, used)
        label += 1
    for p in range(p_n):
        if rem[p] > 0:
            trip[t, 0] = label
            trip[t, 1] = p
            trip[t, 2] = rem[p]
            t += 1
    return t


def _mdav_tuples(u: np.ndarray, w: np.ndarray, dist: np.ndarray, anc: np.ndarray,
                 norm: np.ndarray, k: int, mtol: float, rtol: float) -> np.ndarray:
    """(T, 3) triples (label, tuple, count) of MDAV on the distinct tuples ``u`` (P, m) with
    multiplicities ``w``: the work arrays are allocated here, the loop is
    :func:`_mdav_core`."""
    u = np.ascontiguousarray(u, dtype=np.int64)
    w = np.ascontiguousarray(w, dtype=np.int64)
    p_n, m = u.shape
    c_max = dist.shape[1]
    n = int(w.sum())
    cnt = np.zeros((m, c_max), dtype=np.int64)
    for j in range(m):  # cnt[j, c] = Σ_p w[p]·[u[p, j] = c] (exact integer sums)
        np.add.at(cnt[j], u[:, j], w)
    trip = np.empty((n + p_n, 3), dtype=np.int64)
    t = _mdav_core(u, w.copy(), cnt, dist, anc, norm, int(k), float(mtol), float(rtol), trip,
                   np.empty(p_n), np.zeros(m, dtype=np.int64), np.empty(c_max),
                   np.zeros(c_max, dtype=np.bool_), np.zeros(p_n, dtype=np.bool_))
    return trip[:t]


def _check_k(k: int, n: int) -> int:
    if isinstance(k, bool) or int(k) != k or k < 1:
        raise InvalidParameter(f"k={k!r} must be a positive integer")
    if k > n:
        raise InvalidParameter(f"k={k} must be <= n={n}")
    return int(k)


def categorical_mdav_labels(codes: np.ndarray, space: SemanticSpace, k: int) -> np.ndarray:
    """MDAV cluster labels (clusters numbered in the order they are formed; module doc)."""
    x = space.check_codes(codes)
    k = _check_k(k, x.shape[0])
    u, w, inv = distinct(x)
    trip = _mdav_tuples(u, w, space.dist, space.anc, space.norm, k, MARGINALITY_TOL,
                        RECORD_TOL)
    # hand the records of each tuple out in index order, in the order the clusters took them
    order = np.argsort(trip[:, 1], kind="stable")
    lab_sorted = np.repeat(trip[order, 0], trip[order, 2])
    rec = np.lexsort((np.arange(x.shape[0]), inv))
    lab = np.empty(x.shape[0], dtype=np.int64)
    lab[rec] = lab_sorted
    return lab


def marginality_centroids(codes: np.ndarray, labels: np.ndarray, space: SemanticSpace
                          ) -> np.ndarray:
    """(q, m) codes of the eq. (6.4) centroid of every cluster (ties → smallest name)."""
    x = space.check_codes(codes)
    lab = np.asarray(labels, dtype=np.int64)
    q = int(lab.max()) + 1
    out = np.empty((q, space.m), dtype=np.int64)
    for j in range(space.m):
        c = int(space.sizes[j])
        cnt = np.bincount(lab * c + x[:, j], minlength=q * c).reshape(q, c).astype(float)
        mg = cnt @ space.dist[j, :c, :c]
        cand = (cnt @ space.anc[j, :c, :c].astype(float)) > 0
        mg = np.where(cand, mg, np.inf)
        best = mg.min(axis=1, keepdims=True)
        ok = mg <= best + MARGINALITY_TOL * np.maximum(1.0, np.abs(best))
        out[:, j] = np.argmax(ok, axis=1)
    return out


def insensitive_categorical_labels(codes: np.ndarray, space: SemanticSpace, k: int
                                   ) -> np.ndarray:
    """Algorithm 6.1 with the boundary corners of §6.3.3 as reference points (module doc);
    cluster i = step i, the last cluster holds the k … 2k − 1 records left."""
    x = space.check_codes(codes)
    n = x.shape[0]
    k = _check_k(k, n)
    q = max(n // k, 1)
    steps = max(q - 1, 1)
    seq = corner_sequence(space.m, min(steps, 1 << min(space.m, 20)))
    bnd = space.boundary_codes()
    cols = [x[:, j] for j in range(space.m - 1, -1, -1)]
    perms = []
    for bits in seq:
        ref = np.array([bnd[j, b] for j, b in enumerate(bits)], dtype=np.int64)
        key = np.round(space.record_sq_distance(x, ref[None, :]), 12)
        perms.append(np.lexsort((np.arange(n), *cols, key)))
    step_order = np.arange(steps, dtype=np.int64) % len(perms)
    return _take_by_orders(np.stack(perms).astype(np.int64), np.zeros(len(perms), np.bool_),
                           step_order, k)
