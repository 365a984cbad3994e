"""Insensitivity of microaggregation (thesis §6.2 Definition 12; vldb14 Definition 3) and the
sensitivity of the released centroid list.

Definition 12: M is insensitive if for every pair X, X′ of data sets differing in one record
there is a bijection between the clusters of M(X) and of M(X′) such that each pair of
corresponding clusters differs in at most one record.

Decision for a concrete pair (:func:`clusters_correspond`): clusters are compared as multisets
of records (their values — the release depends on nothing else); C and C′ "differ in at most
one record" when |C ∖ C′| ≤ 1 and |C′ ∖ C| ≤ 1 as multisets (one record replaced, added or
removed).  The bijection is a perfect matching in the bipartite compatibility graph, found
exactly with :func:`scipy.sparse.csgraph.maximum_bipartite_matching` (Hopcroft–Karp); the
multiset intersections come from one sparse product (each copy of a repeated record is its own
token).  Individual ranking has one partition per attribute; each attribute's partition is
checked on that attribute's values.

Search (:func:`check_insensitive` without a pair): (1) exhaustive enumeration — every multiset
of n records on the grid {0, …, g − 1}^m and every substitution of one record by another grid
point, in increasing n, then m, then g, so the first counterexample found is a smallest one
(fewest records, then attributes, then grid values) — each data set's clusters are interned
once, and a pair is accepted at once when matching identical clusters with each other leaves a
matchable remainder, else decided by the exact matching; (2) hypothesis ``find`` over integer data
sets (derandomized, so reproducible), with X′ presented in a random row order (a data set is a
multiset, so an algorithm whose output depends on the presentation is caught), which shrinks
what it finds to a minimal example.  The
declared domain passed to the algorithm is the grid's bounding box.

:func:`check_centroid_sensitivity` maximises the L1 change of the centroid list (domain
scaled to [0, 1]^m; centroids paired by a minimum-cost matching, so a value above the bound
refutes it for every pairing) over neighbouring data sets by exhaustive grids on tiny inputs,
structured extremal starts and randomised hill climbing, and compares it with a claimed bound.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linear_sum_assignment
from scipy.sparse.csgraph import maximum_bipartite_matching

from privlab._rng import as_generator
from privlab.errors import InvalidParameter
from privlab.types import CheckResult, Method

__all__ = [
    "centroid_change",
    "check_centroid_sensitivity",
    "check_insensitive",
    "clusters_correspond",
    "is_neighbour",
]

Labeler = Callable[[np.ndarray, int, np.ndarray], np.ndarray]


def _labeler(algorithm: Any) -> tuple[str, Labeler]:
    if isinstance(algorithm, str):
        from privlab.mechanisms.microaggregation import labeler

        return algorithm, labeler(algorithm)
    if callable(algorithm):
        return getattr(algorithm, "__name__", "algorithm"), algorithm
    raise InvalidParameter(f"algorithm={algorithm!r} must be a name or a callable "
                           f"labels(x, k, bounds)")


def _partitions(x: np.ndarray, labels: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """(records, labels) per partition: one for (n,) labels, one per attribute for (n, m)."""
    labels = np.asarray(labels)
    if labels.ndim == 1:
        return [(x, labels)]
    return [(x[:, [j]], labels[:, j]) for j in range(labels.shape[1])]


def _tokens(ids: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Token of each record: (record id, occurrence number inside its cluster) → int."""
    order = np.lexsort((ids, labels))
    lab_s, ids_s = labels[order], ids[order]
    new = np.ones(len(order), dtype=bool)
    new[1:] = (lab_s[1:] != lab_s[:-1]) | (ids_s[1:] != ids_s[:-1])
    start = np.maximum.accumulate(np.where(new, np.arange(len(order)), 0))
    occ = np.empty(len(order), dtype=np.int64)
    occ[order] = np.arange(len(order)) - start
    return ids, occ


def clusters_correspond(x: np.ndarray, labels_x: np.ndarray, x_prime: np.ndarray,
                        labels_xp: np.ndarray) -> dict[str, Any]:
    """Decide Definition 12's condition for one pair of clusterings (module doc).

    Returns ``{"holds", "clusters": (q, q′), "matched", "unmatched_x", "unmatched_x_prime",
    "worst": {...}}`` where ``unmatched_*`` are cluster labels left unmatched by a maximum
    matching and ``worst`` describes an unmatched cluster of X and its closest cluster of X′.
    Labels of shape (n, m) are checked attribute by attribute (``attribute`` in the output).
    """
    x = np.asarray(x, dtype=float)
    xp = np.asarray(x_prime, dtype=float)
    if x.ndim == 1:
        x = x[:, None]
    if xp.ndim == 1:
        xp = xp[:, None]
    parts_a = _partitions(x, np.asarray(labels_x))
    parts_b = _partitions(xp, np.asarray(labels_xp))
    if len(parts_a) != len(parts_b):
        raise InvalidParameter("the two clusterings have different numbers of partitions")
    clusters: list[Any] = []
    matched: list[Any] = []
    total: dict[str, Any] = {"holds": True, "partitions": len(parts_a), "clusters": clusters,
                             "matched": matched}
    for j, ((xa, la), (xb, lb)) in enumerate(zip(parts_a, parts_b, strict=True)):
        res = _correspond_one(xa, la, xb, lb)
        clusters.append(res["clusters"])
        matched.append(res["matched"])
        if not res["holds"]:
            res["attribute"] = j if len(parts_a) > 1 else None
            total.update({k: v for k, v in res.items() if k not in ("clusters", "matched")})
            total["holds"] = False
            break
    if len(parts_a) == 1:
        total["clusters"] = clusters[0]
        total["matched"] = matched[0]
    return total


def _within_one(a: dict[Any, int], b: dict[Any, int], size_gap: int) -> bool:
    """|A ∖ B| ≤ 1 and |B ∖ A| ≤ 1 for multisets given as counts (``size_gap`` = |A| − |B|).
    |A ∖ B| − |B ∖ A| = |A| − |B|, so |B ∖ A| follows from |A ∖ B|; stops at the first excess."""
    if not -1 <= size_gap <= 1:
        return False
    only_a = 0
    for key, n in a.items():
        extra = n - b.get(key, 0)
        if extra > 0:
            only_a += extra
            if only_a > 1:
                return False
    return only_a - size_gap <= 1


Counts = tuple[list[Any], dict[Any, dict[tuple[float, ...], int]], dict[Any, int]]
"""Clusters of one partition: (sorted labels, label → record → count, label → size)."""


def _counts(x: np.ndarray, labels: np.ndarray) -> Counts:
    lab = labels.tolist()
    keys = sorted(set(lab))
    cnt: dict[Any, dict[tuple[float, ...], int]] = {c: {} for c in keys}
    size = dict.fromkeys(keys, 0)
    for rec, c in zip(map(tuple, x.tolist()), lab, strict=True):
        d = cnt[c]
        d[rec] = d.get(rec, 0) + 1
        size[c] += 1
    return keys, cnt, size


def _match(a: Counts, b: Counts) -> tuple[int, dict[int, int]]:
    """Maximum matching of compatible clusters (Kuhn's augmenting paths): (size, match_b)."""
    ka, ca_d, na = a
    kb, cb_d, nb = b
    adj = [[j for j, b in enumerate(kb) if _within_one(ca_d[a], cb_d[b], na[a] - nb[b])]
           for a in ka]
    match_b: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in adj[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in match_b or augment(match_b[j], seen):
                match_b[j] = i
                return True
        return False

    matched = sum(augment(i, set()) for i in range(len(ka)))
    return matched, match_b


def _small_counts(x: np.ndarray, labels: np.ndarray) -> list[Counts] | None:
    """:func:`_counts` of each partition of :func:`clusters_correspond`, or None when a
    partition is large enough for :func:`_correspond_sparse`."""
    out = []
    for xa, la in _partitions(np.asarray(x, dtype=float), np.asarray(labels)):
        la = np.asarray(la, dtype=np.int64)
        if len(la) > 64:
            return None
        out.append(_counts(xa, la))
    return out


def _key_counts(recs: Sequence[Any], lab: list[int]) -> Counts:
    """:func:`_counts` with the records given by hashable names (``recs``) and labels as ints."""
    keys = sorted(set(lab))
    cnt: dict[Any, dict[Any, int]] = {c: {} for c in keys}
    size = dict.fromkeys(keys, 0)
    for rec, c in zip(recs, lab, strict=True):
        d = cnt[c]
        d[rec] = d.get(rec, 0) + 1
        size[c] += 1
    return keys, cnt, size


def _grid_counts(combo: tuple[int, ...], labels: np.ndarray,
                 coords: Sequence[tuple[int, ...]]) -> list[Counts]:
    """:func:`_small_counts` of the data set of grid points ``combo`` (point i has grid values
    ``coords[i]``; distinct points are distinct records), a record named by its point for
    (n,) labels and by its grid value on attribute j in partition j for (n, m) labels — a
    bijection with the records' values, so the same clusters as multisets."""
    lab = np.asarray(labels, dtype=np.int64)
    if lab.ndim == 1:
        return [_key_counts(combo, lab.tolist())]
    cols = lab.T.tolist()
    return [_key_counts([coords[c][j] for c in combo], cols[j]) for j in range(lab.shape[1])]


def _holds_counts(a: list[Counts], b: list[Counts]) -> bool:
    """``clusters_correspond(...)["holds"]`` from :func:`_small_counts` of both sides."""
    if len(a) != len(b):
        raise InvalidParameter("the two clusterings have different numbers of partitions")
    for pa, pb in zip(a, b, strict=True):
        if len(pa[0]) != len(pb[0]) or _match(pa, pb)[0] != len(pa[0]):
            return False
    return True


class _ClusterTable:
    """Clusters (multisets of records) interned to integer ids, so that the exhaustive search
    decides a pair from the cluster ids of both sides (:meth:`holds`) with the compatibility
    test :func:`_within_one` computed once per pair of distinct clusters."""

    def __init__(self) -> None:
        self._ids: dict[tuple[tuple[tuple[float, ...], int], ...], int] = {}
        self._counts: list[dict[tuple[float, ...], int]] = []
        self._sizes: list[int] = []
        self._compat: dict[tuple[int, int], bool] = {}

    def sign(self, parts: list[Counts]) -> tuple[tuple[int, ...], ...]:
        """Per partition, the sorted ids of its clusters (a multiset of clusters)."""
        out = []
        for keys, cnt, size in parts:
            ids = []
            for c in keys:
                d = cnt[c]
                key = tuple(sorted(d.items()))
                i = self._ids.get(key)
                if i is None:
                    i = self._ids[key] = len(self._counts)
                    self._counts.append(d)
                    self._sizes.append(size[c])
                ids.append(i)
            out.append(tuple(sorted(ids)))
        return tuple(out)

    def _fits(self, a: int, b: int) -> bool:
        """Clusters a (of X) and b (of X′) differ in at most one record each way."""
        key = (a, b)
        ok = self._compat.get(key)
        if ok is None:
            ok = self._compat[key] = _within_one(self._counts[a], self._counts[b],
                                                 self._sizes[a] - self._sizes[b])
        return ok

    @staticmethod
    def _left(pa: tuple[int, ...], pb: tuple[int, ...]) -> tuple[list[int], list[int]]:
        """The clusters of each side left after matching identical clusters with each other."""
        rest = list(pa)
        extra = []
        for c in pb:
            if c in rest:
                rest.remove(c)
            else:
                extra.append(c)
        return rest, extra

    def _perfect(self, pa: Sequence[int], pb: Sequence[int]) -> bool:
        """A perfect matching of fitting clusters exists (Kuhn's augmenting paths, the edges
        tested as they are reached; pa, pb of equal length)."""
        fits = self._fits
        match_b = [-1] * len(pb)

        def augment(i: int, seen: list[bool]) -> bool:
            a = pa[i]
            for j, b in enumerate(pb):
                if seen[j] or not fits(a, b):
                    continue
                seen[j] = True
                if match_b[j] < 0 or augment(match_b[j], seen):
                    match_b[j] = i
                    return True
            return False

        for i in range(len(pa)):
            if not augment(i, [False] * len(pb)):
                return False
        return True

    def holds(self, a: tuple[list[Counts], tuple[tuple[int, ...], ...]],
              b: tuple[list[Counts], tuple[tuple[int, ...], ...]]) -> bool:
        """``_holds_counts(a[0], b[0])`` (so ``clusters_correspond(...)["holds"]``) from the
        counts and :meth:`sign` of both sides.

        Positive fast path: identical clusters matched with each other plus a perfect matching
        of the clusters left (one fitting pair, mostly) is a perfect matching, so the condition
        holds.  When the clusters left have none, that proves nothing (matching identical
        clusters together is not always optimal): the exact matching of all clusters decides.
        """
        sa, sb = a[1], b[1]
        if len(sa) != len(sb):
            return _holds_counts(a[0], b[0])  # raises InvalidParameter
        for pa, pb in zip(sa, sb, strict=True):
            if pa == pb:
                continue
            if len(pa) != len(pb):
                return False
            rest, extra = self._left(pa, pb)
            if len(rest) == 1:
                if self._fits(rest[0], extra[0]):
                    continue
            elif self._perfect(rest, extra):
                continue
            if not self._perfect(pa, pb):
                return False
        return True


def _correspond_small(xa: np.ndarray, la: np.ndarray, xb: np.ndarray, lb: np.ndarray
                      ) -> dict[str, Any]:
    """Same decision as :func:`_correspond_sparse` for small inputs (Counters, Kuhn's
    augmenting paths) — cheaper than building sparse matrices."""
    from collections import Counter

    ka, ca_d, na = _counts(xa, la)
    kb, cb_d, nb = _counts(xb, lb)
    matched, match_b = _match((ka, ca_d, na), (kb, cb_d, nb))
    holds = len(ka) == len(kb) and matched == len(ka)
    out: dict[str, Any] = {"holds": bool(holds), "clusters": (len(ka), len(kb)),
                           "matched": matched}
    if not holds:
        got_a = set(match_b.values())
        un_a = [i for i in range(len(ka)) if i not in got_a]
        out["unmatched_x"] = [ka[i] for i in un_a]
        out["unmatched_x_prime"] = [kb[j] for j in range(len(kb)) if j not in match_b]
        if un_a:
            a = ka[un_a[0]]
            ca = {c: Counter(v) for c, v in ca_d.items()}
            cb = {c: Counter(v) for c, v in cb_d.items()}

            def diff(b: Any) -> tuple[int, int]:
                return (sum((ca[a] - cb[b]).values()), sum((cb[b] - ca[a]).values()))

            bbest = min(kb, key=lambda b: max(diff(b)))
            d1, d2 = diff(bbest)
            out["worst"] = {"cluster_x": sorted(map(list, ca[a].elements())),
                            "closest_cluster_x_prime": sorted(map(list, cb[bbest].elements())),
                            "only_in_x": d1, "only_in_x_prime": d2}
    return out


def _correspond_one(xa: np.ndarray, la: np.ndarray, xb: np.ndarray, lb: np.ndarray
                    ) -> dict[str, Any]:
    la = np.asarray(la, dtype=np.int64)
    lb = np.asarray(lb, dtype=np.int64)
    if len(la) <= 64:
        return _correspond_small(xa, la, xb, lb)
    return _correspond_sparse(xa, la, xb, lb)


def _correspond_sparse(xa: np.ndarray, la: np.ndarray, xb: np.ndarray, lb: np.ndarray
                       ) -> dict[str, Any]:
    la = np.asarray(la, dtype=np.int64)
    lb = np.asarray(lb, dtype=np.int64)
    both = np.concatenate([xa, xb])
    _, inv = np.unique(both, axis=0, return_inverse=True)
    inv = inv.ravel()
    ida, idb = inv[: len(xa)], inv[len(xa):]
    # relabel clusters densely
    ua, la_d = np.unique(la, return_inverse=True)
    ub, lb_d = np.unique(lb, return_inverse=True)
    qa, qb = len(ua), len(ub)
    ta = _tokens(ida, la_d)
    tb = _tokens(idb, lb_d)
    nid = int(inv.max()) + 1
    maxocc = int(max(ta[1].max(), tb[1].max())) + 1
    tok_a = ta[1] * nid + ta[0]
    tok_b = tb[1] * nid + tb[0]
    ntok = nid * maxocc
    ma = sp.csr_matrix((np.ones(len(tok_a)), (la_d, tok_a)), shape=(qa, ntok))
    mb = sp.csr_matrix((np.ones(len(tok_b)), (lb_d, tok_b)), shape=(qb, ntok))
    inter = (ma @ mb.T).tocoo()
    sa = np.bincount(la_d, minlength=qa)
    sb = np.bincount(lb_d, minlength=qb)
    ok = (sa[inter.row] - inter.data <= 1) & (sb[inter.col] - inter.data <= 1)
    rows, cols = list(inter.row[ok]), list(inter.col[ok])
    small_a, small_b = np.flatnonzero(sa <= 1), np.flatnonzero(sb <= 1)
    if small_a.size and small_b.size:  # singletons: compatible even with nothing in common
        rr, cc = np.meshgrid(small_a, small_b, indexing="ij")
        rows += list(rr.ravel())
        cols += list(cc.ravel())
    adj = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(qa, qb))
    adj.sum_duplicates()
    match = maximum_bipartite_matching(adj, perm_type="column")  # match[i] = col or -1
    matched = int((match >= 0).sum())
    holds = qa == qb and matched == qa
    out: dict[str, Any] = {"holds": bool(holds), "clusters": (qa, qb), "matched": matched}
    if not holds:
        un_a = np.flatnonzero(match < 0)
        used_b = set(int(c) for c in match[match >= 0])
        un_b = [c for c in range(qb) if c not in used_b]
        out["unmatched_x"] = [int(ua[i]) for i in un_a]
        out["unmatched_x_prime"] = [int(ub[i]) for i in un_b]
        if un_a.size:
            i = int(un_a[0])
            dense = (ma[i] @ mb.T).toarray().ravel()
            diff = np.maximum(sa[i] - dense, sb - dense)
            jbest = int(np.argmin(diff))
            out["worst"] = {
                "cluster_x": _records(xa, la_d == i),
                "closest_cluster_x_prime": _records(xb, lb_d == jbest),
                "only_in_x": int(sa[i] - dense[jbest]),
                "only_in_x_prime": int(sb[jbest] - dense[jbest])}
    return out


def _records(x: np.ndarray, mask: np.ndarray) -> list[list[float]]:
    return sorted(x[mask].tolist())


def is_neighbour(x: np.ndarray, x_prime: np.ndarray) -> bool:
    """Same size and, as multisets of records, one record replaced (or none)."""
    if x.shape != x_prime.shape:
        return False
    a = sorted(map(tuple, x.tolist()))
    b = sorted(map(tuple, x_prime.tolist()))
    from collections import Counter

    ca, cb = Counter(a), Counter(b)
    return sum((ca - cb).values()) <= 1 and sum((cb - ca).values()) <= 1


def _bounds_of(x: np.ndarray, xp: np.ndarray, bounds: Any) -> np.ndarray:
    if bounds is not None:
        b = np.asarray(bounds, dtype=float).reshape(-1, 2)
        if b.shape[0] == 1:
            b = np.repeat(b, x.shape[1], axis=0)
        return b
    lo = np.minimum(x.min(axis=0), xp.min(axis=0))
    hi = np.maximum(x.max(axis=0), xp.max(axis=0))
    return np.stack([lo, np.where(hi > lo, hi, lo + 1.0)], axis=1)


def _pair_result(name: str, fn: Labeler, x: np.ndarray, xp: np.ndarray, k: int,
                 bounds: np.ndarray) -> dict[str, Any]:
    la = fn(np.ascontiguousarray(x), k, bounds)
    lb = fn(np.ascontiguousarray(xp), k, bounds)
    return clusters_correspond(x, la, xp, lb)


def _pair_witness(x: np.ndarray, xp: np.ndarray, k: int, res: dict[str, Any],
                  **extra: Any) -> dict[str, Any]:
    r = int(np.flatnonzero((x != xp).any(axis=1))[0]) if (x != xp).any() else None
    return {"k": k, "n": int(x.shape[0]), "m": int(x.shape[1]), "x": x.tolist(),
            "x_prime": xp.tolist(), "changed_row": r,
            "clusters": res.get("clusters"), "matched": res.get("matched"),
            "witness": res.get("worst"), **extra}


def check_insensitive(algorithm: Any, x: Any = None, x_prime: Any = None, *, k: int = 2,
                      bounds: Any = None, ms: Sequence[int] = (1, 2), n_max: int | None = None,
                      grids: Sequence[int] = (2, 3, 4), limit: int = 3000,
                      hypothesis_examples: int = 300, max_value: int = 6,
                      hypothesis_n_max: int | None = None) -> CheckResult:
    """Definition 12 for ``algorithm`` (a name of
    :data:`privlab.mechanisms.microaggregation.LABELERS` or a callable ``labels(x, k,
    bounds)``).

    With ``x`` and ``x_prime`` (neighbouring data sets): decides the condition for that pair
    exactly (``bounds`` is the declared domain passed to the algorithm; default: the pair's
    bounding box).  Without them: searches for a counterexample (module doc) — exhaustive over
    multisets of n ∈ [2k, n_max] records (default n_max = 2k + 2) with m ∈ ``ms`` attributes on
    grids of g ∈ ``grids`` values (configurations with more than ``limit`` multisets are
    skipped), then hypothesis with ``hypothesis_examples`` examples (0 to skip).  ``holds`` is
    True when no counterexample was found; ``counterexample`` is the smallest one found.
    """
    name, fn = _labeler(algorithm)
    if isinstance(k, bool) or int(k) != k or k < 1:
        raise InvalidParameter(f"k={k!r} must be a positive integer")
    k = int(k)
    if (x is None) != (x_prime is None):
        raise InvalidParameter("give both x and x_prime, or neither (search)")
    if x is not None:
        a = np.asarray(x, dtype=float)
        b = np.asarray(x_prime, dtype=float)
        a = a[:, None] if a.ndim == 1 else a
        b = b[:, None] if b.ndim == 1 else b
        if a.shape != b.shape:
            raise InvalidParameter(f"x of shape {a.shape} and x_prime of shape {b.shape} must "
                                   f"have the same shape (substitution neighbours)")
        if not is_neighbour(a, b):
            raise InvalidParameter("x and x_prime must differ in exactly one record (as "
                                   "multisets of records)")
        if k > a.shape[0]:
            raise InvalidParameter(f"k={k} must be <= n={a.shape[0]}")
        bb = _bounds_of(a, b, bounds)
        res = _pair_result(name, fn, a, b, k, bb)
        return CheckResult(holds=res["holds"], claim=f"{name} is insensitive on this pair "
                           f"(Definition 12)", value=res["matched"], method=Method.EXACT,
                           evidence={"algorithm": name, "k": k, "clusters": res["clusters"],
                                     "matched": res["matched"]},
                           counterexample=None if res["holds"] else _pair_witness(a, b, k, res))
    return _search(name, fn, k, tuple(ms), n_max if n_max is not None else 2 * k + 2,
                   tuple(grids), limit, hypothesis_examples, max_value,
                   hypothesis_n_max if hypothesis_n_max is not None else max(4 * k, 8))


def _search(name: str, fn: Labeler, k: int, ms: tuple[int, ...], n_max: int,
            grids: tuple[int, ...], limit: int, examples: int, max_value: int,
            h_n_max: int) -> CheckResult:
    tried: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    found: dict[str, Any] | None = None
    pairs_checked = 0
    for n in range(max(2 * k, 2), n_max + 1):
        for m in ms:
            for g in grids:
                npts = g ** m
                count = math.comb(npts + n - 1, n)
                if count > limit:
                    skipped.append({"n": n, "m": m, "g": g, "datasets": count})
                    continue
                cex, pairs = _exhaust(fn, k, n, m, g)
                pairs_checked += pairs
                tried.append({"n": n, "m": m, "g": g, "datasets": count, "pairs": pairs})
                if cex is not None:
                    found = cex
                    break
            if found is not None:
                break
        if found is not None:
            break
    hyp: dict[str, Any] = {"examples": 0}
    if found is None and examples > 0:
        hyp = _hypothesis_search(fn, k, ms, max_value, h_n_max, examples)
        if hyp.get("counterexample") is not None:
            found = hyp["counterexample"]
    evidence = {"algorithm": name, "k": k, "exhaustive": tried, "skipped": skipped,
                "pairs_checked": pairs_checked,
                "hypothesis": {kk: v for kk, v in hyp.items() if kk != "counterexample"}}
    if found is not None:
        evidence["found_by"] = found.get("found_by")
    return CheckResult(holds=found is None, claim=f"{name} with k = {k} is insensitive "
                       f"(Definition 12)", value=pairs_checked,
                       method=Method.EXHAUSTIVE, evidence=evidence, counterexample=found)


def _exhaust(fn: Labeler, k: int, n: int, m: int, g: int) -> tuple[dict[str, Any] | None, int]:
    pts = np.array(list(itertools.product(range(g), repeat=m)), dtype=float)
    npts = len(pts)
    bounds = np.array([[0.0, float(g - 1)]] * m)
    cache: dict[tuple[int, ...], np.ndarray] = {}
    table = _ClusterTable()
    counted: dict[tuple[int, ...], tuple[list[Counts], tuple[tuple[int, ...], ...]] | None] = {}

    def labels(combo: tuple[int, ...]) -> np.ndarray:
        lab = cache.get(combo)
        if lab is None:
            lab = fn(np.ascontiguousarray(pts[list(combo)]), k, bounds)
            cache[combo] = lab
        return lab

    coords = [tuple(int(v) for v in p) for p in pts.tolist()]

    def counts(combo: tuple[int, ...]) -> tuple[list[Counts], tuple[tuple[int, ...], ...]] | None:
        # clusters_correspond's per-partition counts and cluster ids, once per data set, with
        # the records named by grid point (index, or grid value per attribute): the same
        # multisets as _small_counts(pts[list(combo)], labels(combo)), cheaper to build
        if combo not in counted:
            cnt = _grid_counts(combo, labels(combo), coords) if len(combo) <= 64 else None
            counted[combo] = None if cnt is None else (cnt, table.sign(cnt))
        return counted[combo]

    pairs = 0
    for combo in itertools.combinations_with_replacement(range(npts), n):
        ca = counts(combo)
        seen: set[int] = set()
        for pos, c in enumerate(combo):
            if c in seen:
                continue
            seen.add(c)
            for c2 in range(c + 1, npts):  # each unordered pair once
                other = tuple(sorted((*combo[:pos], c2, *combo[pos + 1:])))
                cb = counts(other)
                pairs += 1
                if ca is not None and cb is not None and table.holds(ca, cb):
                    continue  # the same decision as clusters_correspond(...)["holds"]
                xa, la = pts[list(combo)], labels(combo)
                res = clusters_correspond(xa, la, pts[list(other)], labels(other))
                if not res["holds"]:
                    # present x_prime with the changed record in the same row as in x
                    xp = xa.copy()
                    xp[pos] = pts[c2]
                    res2 = clusters_correspond(xa, la, xp, fn(np.ascontiguousarray(xp), k,
                                                              bounds))
                    return _pair_witness(xa, xp, k, res2 if not res2["holds"] else res,
                                         found_by="exhaustive", grid=g,
                                         domain=bounds.tolist()), pairs
    return None, pairs


def _hypothesis_search(fn: Labeler, k: int, ms: tuple[int, ...], max_value: int,
                       n_max: int, examples: int) -> dict[str, Any]:
    from hypothesis import HealthCheck, find, settings
    from hypothesis import strategies as st
    from hypothesis.errors import NoSuchExample

    # the strategies are built once per parameter (the same strategies as building them in
    # each draw, so the same examples): only the drawing is left per example
    s_m = st.sampled_from(ms)
    s_n = st.integers(min_value=2 * k, max_value=max(n_max, 2 * k))
    s_rec = {m: st.lists(st.integers(0, max_value), min_size=m, max_size=m) for m in ms}
    s_rows: dict[tuple[int, int], Any] = {}
    s_row: dict[int, Any] = {}
    s_perm: dict[int, Any] = {}

    @st.composite
    def pairs(draw: Any) -> tuple[np.ndarray, np.ndarray]:
        m = draw(s_m)
        n = draw(s_n)
        rec = s_rec[m]
        if (m, n) not in s_rows:
            s_rows[m, n] = st.lists(rec, min_size=n, max_size=n)
            s_row[n] = st.integers(0, n - 1)
            s_perm[n] = st.permutations(range(n))
        rows = draw(s_rows[m, n])
        r = draw(s_row[n])
        new = draw(rec)
        perm = draw(s_perm[n])
        x = np.array(rows, dtype=float)
        xp = x.copy()
        xp[r] = new
        # a data set is a multiset: X' may be presented in any row order
        return x, xp[list(perm)]

    bounds_cache: dict[int, np.ndarray] = {}
    calls = {"n": 0}

    labels_of: dict[tuple[tuple[int, ...], bytes], np.ndarray] = {}

    def labels(x: np.ndarray, b: np.ndarray) -> np.ndarray:
        # fn is deterministic and b is fixed per m: its labels of a data set, once per search
        # (examples share data sets); copies out, so a caller cannot change the stored labels
        key = (x.shape, x.tobytes())
        lab = labels_of.get(key)
        if lab is None:
            lab = labels_of[key] = np.array(fn(np.ascontiguousarray(x), k, b))
        return lab.copy()

    def broken(pair: tuple[np.ndarray, np.ndarray]) -> bool:
        x, xp = pair
        calls["n"] += 1
        m = x.shape[1]
        b = bounds_cache.setdefault(m, np.array([[0.0, float(max_value)]] * m))
        # = not _pair_result("", fn, x, xp, k, b)["holds"]
        return not clusters_correspond(x, labels(x, b), xp, labels(xp, b))["holds"]

    cfg = settings(max_examples=examples, database=None, derandomize=True, deadline=None,
                   suppress_health_check=list(HealthCheck))
    try:
        x, xp = find(pairs(), broken, settings=cfg)
    except NoSuchExample:
        return {"examples": examples, "evaluations": calls["n"], "counterexample": None}
    m = x.shape[1]
    b = np.array([[0.0, float(max_value)]] * m)
    res = _pair_result("", fn, x, xp, k, b)
    return {"examples": examples, "evaluations": calls["n"],
            "counterexample": _pair_witness(x, xp, k, res, found_by="hypothesis",
                                            domain=b.tolist())}


# ---- centroid-list sensitivity ---------------------------------------------------------------
def centroid_change(x: np.ndarray, labels_x: np.ndarray, xp: np.ndarray, labels_xp: np.ndarray,
                    ) -> float:
    """L1 distance between the centroid lists of two clusterings, centroids paired by a
    minimum-cost matching (per attribute for (n, m) labels: the sorted lists)."""
    from privlab.mechanisms.microaggregation.core import centroids_of

    ca, cb = centroids_of(x, labels_x), centroids_of(xp, labels_xp)
    if labels_x.ndim == 2:
        return float(np.abs(np.sort(ca, axis=0) - np.sort(cb, axis=0)).sum())
    if ca.shape != cb.shape:
        return math.inf
    cost = np.abs(ca[:, None, :] - cb[None, :, :]).sum(axis=2)
    r, c = linear_sum_assignment(cost)
    return float(cost[r, c].sum())


def check_centroid_sensitivity(algorithm: Any, *, k: int, n: int, m: int, bound: float,
                               restarts: int = 12, iterations: int = 300, grid: int = 2,
                               exhaustive_limit: int = 4000, rng: Any = 0) -> CheckResult:
    """Maximise the L1 change of the centroid list (domain [0, 1]^m, so the bound is in units
    of the attribute ranges) over neighbouring data sets of n records and compare it with
    ``bound``.  Search: the exhaustive grid {0, 1/(g−1), …, 1} when it has at most
    ``exhaustive_limit`` multisets; extremal starts (all records on one corner, the changed
    record moved to the opposite corner; records spread along a diagonal); then ``restarts``
    randomised hill climbs of ``iterations`` moves each (a move sets one coordinate of one
    record, or of the replacement record, to 0, 1, a random value or a nudge; kept when the
    change grows).  ``holds`` = the largest change found ≤ bound (+1e-9)."""
    name, fn = _labeler(algorithm)
    g = as_generator(rng)
    for nm, given in (("k", k), ("n", n), ("m", m)):
        if isinstance(given, bool) or int(given) != given or given < 1:
            raise InvalidParameter(f"{nm}={given!r} must be a positive integer")
    if k > n:
        raise InvalidParameter(f"k={k} must be <= n={n}")
    unit = np.array([[0.0, 1.0]] * m)

    def change(x: np.ndarray, r: int, new: np.ndarray) -> float:
        xp = x.copy()
        xp[r] = new
        la = fn(np.ascontiguousarray(x), k, unit)
        lb = fn(np.ascontiguousarray(xp), k, unit)
        return centroid_change(x, np.asarray(la), xp, np.asarray(lb))

    best: tuple[float, Any] = (-1.0, None)
    evals = 0
    # exhaustive on a grid
    pts = np.array(list(itertools.product(np.linspace(0, 1, grid), repeat=m)))
    count = math.comb(len(pts) + n - 1, n)
    exhaustive_done = count <= exhaustive_limit
    if exhaustive_done:
        for combo in itertools.combinations_with_replacement(range(len(pts)), n):
            x = pts[list(combo)]
            for pos in sorted(set(range(n)), key=lambda i: combo[i]):
                for c2 in range(len(pts)):
                    if c2 == combo[pos]:
                        continue
                    v = change(x, pos, pts[c2])
                    evals += 1
                    if v > best[0]:
                        best = (v, (x.copy(), pos, pts[c2].copy()))
    # extremal starts
    starts = []
    for corner in (np.zeros(m), np.ones(m)):
        x = np.repeat(corner[None, :], n, axis=0)
        starts.append((x, n - 1, 1.0 - corner))
        starts.append((x, 0, 1.0 - corner))
    diag = np.linspace(0, 1, n)[:, None].repeat(m, axis=1)
    starts.append((diag, n - 1, np.zeros(m)))
    starts.append((diag, 0, np.ones(m)))
    for _ in range(restarts):
        kind = g.integers(3)
        if kind == 0:
            x = g.random((n, m))
        elif kind == 1:
            x = g.integers(0, 2, size=(n, m)).astype(float)
        else:
            x = np.clip(g.random((n, 1)) + 0.05 * g.standard_normal((n, m)), 0, 1)
        starts.append((x, int(g.integers(n)), g.integers(0, 2, size=m).astype(float)))
    for x0, r0, new0 in starts:
        x, r, new = x0.copy(), r0, new0.copy()
        cur = change(x, r, new)
        evals += 1
        for _ in range(iterations):
            x2, r2, new2 = x.copy(), r, new.copy()
            which = g.integers(4)
            j = int(g.integers(m))
            val: float | None = (0.0, 1.0, float(g.random()), None)[int(g.integers(4))]
            if which == 0:
                r2 = int(g.integers(n))
            elif which == 1:
                new2[j] = val if val is not None else float(np.clip(
                    new2[j] + 0.1 * g.standard_normal(), 0, 1))
            else:
                i = int(g.integers(n))
                x2[i, j] = val if val is not None else float(np.clip(
                    x2[i, j] + 0.1 * g.standard_normal(), 0, 1))
            v = change(x2, r2, new2)
            evals += 1
            if v >= cur:
                x, r, new, cur = x2, r2, new2, v
        if cur > best[0]:
            best = (cur, (x.copy(), r, new.copy()))
    value, wit = best
    holds = value <= bound + 1e-9
    cex = None
    if not holds and wit is not None:
        x, r, new = wit
        xp = x.copy()
        xp[r] = new
        cex = {"x": x.tolist(), "x_prime": xp.tolist(), "changed_row": r, "change": value,
               "bound": bound}
    return CheckResult(holds=holds, claim=f"{name}: L1 change of the centroid list ≤ {bound:g} "
                       f"(k = {k}, n = {n}, m = {m}, units of range)", value=value,
                       method=Method.NUMERIC,
                       evidence={"algorithm": name, "k": k, "n": n, "m": m, "bound": bound,
                                 "max_found": value, "evaluations": evals,
                                 "exhaustive_grid": grid if exhaustive_done else None,
                                 "restarts": restarts, "iterations": iterations},
                       counterexample=cex)
