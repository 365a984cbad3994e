"""Whether two clusterings correspond as Definition 12 asks (thesis §6.2; vldb14
Definition 3): the decision for one pair of data sets, used by
:mod:`privlab.verify.microaggregation.insensitivity`.

Clusters are compared as multisets of records (their values — the release depends on nothing
else); C and C′ "differ in at most one record" when |C ∖ C′| ≤ 1 and |C′ ∖ C| ≤ 1 as multisets
(one record replaced, added or removed).  The bijection is a perfect matching in the bipartite
compatibility graph, found exactly with :func:`scipy.sparse.csgraph.maximum_bipartite_matching`
(Hopcroft–Karp); the multiset intersections come from one sparse product (each copy of a
repeated record is its own token, :func:`_tokens`).  Small clusterings are decided on record
counts (:func:`_small_counts`, :func:`_holds_counts`), and the exhaustive search interns each
data set's clusters once (:class:`_ClusterTable`), accepting a pair at once when matching
identical clusters with each other leaves a matchable remainder.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import maximum_bipartite_matching

from privlab.errors import InvalidParameter


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
