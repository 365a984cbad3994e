"""Exhaustive sensitivity of microaggregated releases on small grids (evidence for the ledger).

Every data set of n records with values in the grid {0, 1/g, …, 1}^m and every substitution of
one record by another grid point is enumerated, in exact arithmetic: :func:`sweep` works in
integers in units of 1/(g·lcm(1..n)), where every value and centroid is whole, and returns
Fractions; :func:`_reps` gives one data set's centroids as Fractions.  For each configuration
the released *quantity* is:

* ``centroids``   — the ordered list of cluster centroids (shared noise, shuffled rows);
* ``weighted``    — cluster centroids weighted by cluster size (per-record noise, shuffled);
* ``aligned``     — the centroid table row i = record i (per-record noise, aligned rows);
* ``row``         — the largest change of a single record's row (Prop. 8 / vldb14 Prop. 3).

It also reports whether the tie pattern that shared noise makes visible (the partition of row
indices for aligned rows; the multiset of per-attribute cluster tuples for shuffled rows)
changes between neighbours — a structural leak.  The partition is the one the release uses
(:func:`privlab.mechanisms.releases.numerical.order_partition`).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from typing import Any

import numpy as np

from privlab.errors import InvalidParameter

__all__ = ["exact_sensitivity", "sweep"]


def _reps(u: np.ndarray, k: int, kind: str) -> dict[str, Any]:
    from privlab.mechanisms.releases.numerical import order_partition

    n, m = u.shape
    lab, _ = order_partition(u.astype(float), k, kind)
    lab2 = lab[:, None].repeat(m, axis=1) if lab.ndim == 1 else lab
    q = int(lab2.max()) + 1
    cents = [[Fraction(0)] * m for _ in range(q)]
    sizes = [[0] * m for _ in range(q)]
    for r in range(n):
        for j in range(m):
            cents[lab2[r, j]][j] += u[r, j]
            sizes[lab2[r, j]][j] += 1
    cents = [[c / s if s else Fraction(0) for c, s in zip(cr, sr, strict=True)]
             for cr, sr in zip(cents, sizes, strict=True)]
    aligned = [[cents[lab2[r, j]][j] for j in range(m)] for r in range(n)]
    groups: dict[tuple[int, ...], list[int]] = {}
    for r in range(n):
        groups.setdefault(tuple(lab2[r]), []).append(r)
    return {"centroids": cents, "sizes": sizes, "aligned": aligned,
            "partition": frozenset(frozenset(g) for g in groups.values()),
            "tuples": Counter(tuple(lab2[r]) for r in range(n))}


def _l1(a: list[list[Fraction]], b: list[list[Fraction]]) -> Fraction:
    return sum((abs(x - y) for ra, rb in zip(a, b, strict=True)
                for x, y in zip(ra, rb, strict=True)), Fraction(0))


def exact_sensitivity(cfg: Any, grid: int | None = None, limit: int = 20000) -> dict[str, Any]:
    """Exhaustive maxima for ``cfg``'s n, k, m, microaggregation on the grid (module doc)."""
    return sweep(cfg.n, cfg.k, cfg.attributes, cfg.microaggregation, grid=grid, limit=limit)


def _labels(v: np.ndarray, g: int, k: int, kind: str) -> np.ndarray:
    """Cluster labels (T, n, m) of the T data sets ``v`` (integer grid units, (T, n, m))."""
    from privlab.mechanisms.releases.numerical import order_partition

    t, n, m = v.shape
    u = v / g  # the floats order_partition sees for Fraction(i, g)
    out = np.empty((t, n, m), dtype=np.int64)
    for i in range(t):
        lab, _ = order_partition(u[i], k, kind)
        out[i] = lab[:, None] if lab.ndim == 1 else lab
    return out


def _canonical(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per data set: the tie partition as "first row with the same label tuple" (T, n), and
    the multiset of label tuples as their lexicographically sorted list (T, n)."""
    m = lab.shape[2]
    same = (lab[:, :, None, :] == lab[:, None, :, :]).all(axis=3)  # (T, n, n)
    first = same.argmax(axis=2)
    w = (lab.max() + 1) ** np.arange(m - 1, -1, -1, dtype=np.int64)
    code = np.sort((lab * w).sum(axis=2), axis=1)  # a tuple <-> one integer, sorted
    return first, code


def sweep(n: int, k: int, m: int, kind: str, grid: int | None = None,
          limit: int = 20000, matching: bool = False) -> dict[str, Any]:
    """Maxima (Fractions, in units of range) with a witness pair for each quantity:
    ``centroids`` (ordered centroid lists, same cluster sizes), ``matching`` (only when asked:
    the centroid lists' L1 distance under the best matching of clusters — the loss bound of a
    shuffled release — with every pair attaining it, at most 512, in ``matching_witnesses``),
    ``weighted``, ``aligned`` (record-aligned rows) and ``row`` (one row).

    Exact integer arithmetic: every value is a multiple of 1/grid and every centroid of
    1/(grid·s) for a cluster size s ≤ n, so all quantities are integers in units of
    1/L, L = grid·lcm(1..n), and each maximum is the Fraction (integer, L).  The pairs are
    scanned in the order data set i, record r, new point c > old point (each unordered
    pair once) and a witness is the first pair attaining its maximum.
    """
    if grid is None:
        grid = max(g for g in (1, 2, 3, 4, 6) if (g + 1) ** (n * m) <= limit or g == 1)
    pts = np.array(list(itertools.product(range(grid + 1), repeat=m)), dtype=np.int64)
    p = len(pts)
    total = p ** n
    if total > limit:
        raise InvalidParameter(f"grid={grid} gives {total} data sets (> limit={limit}) for "
                               f"n={n}, m={m}")
    datasets = np.array(list(itertools.product(range(p), repeat=n)), dtype=np.int64)
    v = pts[datasets]  # (T, n, m)
    lab = _labels(v, grid, k, kind)
    den = grid * math.lcm(*range(1, n + 1))
    ti = np.arange(total)[:, None, None]
    jj = np.arange(m)[None, None, :]
    sums = np.zeros((total, n, m), dtype=np.int64)
    sizes = np.zeros((total, n, m), dtype=np.int64)
    np.add.at(sums, (ti, lab, jj), v)
    np.add.at(sizes, (ti, lab, jj), 1)
    cents = np.where(sizes > 0, sums * (den // grid) // np.maximum(sizes, 1), 0)
    aligned = cents[ti, lab, jj]  # (T, n, m)
    first, code = _canonical(lab)

    # all pairs (i, j): record r of data set i moves from point d[r] to c = d[r] + delta
    ii, rr, cc = [], [], []
    for r in range(n):
        for delta in range(1, p):
            i = np.flatnonzero(datasets[:, r] + delta < p)
            ii.append(i)
            rr.append(np.full(i.size, r))
            cc.append(datasets[i, r] + delta)
    i = np.concatenate(ii)
    r = np.concatenate(rr)
    c = np.concatenate(cc)
    order = np.lexsort((c, r, i))
    i, r, c = i[order], r[order], c[order]
    j = i + (c - datasets[i, r]) * p ** (n - 1 - r)

    da = np.abs(aligned[i] - aligned[j])
    dc = np.abs(cents[i] - cents[j])
    same = (sizes[i] == sizes[j]).all(axis=(1, 2))
    # the shuffled release's loss bound: min over matchings of the centroid lists' L1 distance
    # (ch6_shuffled); labels are cluster indices, a matching permutes those of one data set
    used_i, used_j = (sizes[i] > 0).any(axis=2), (sizes[j] > 0).any(axis=2)  # (P, n)
    match = np.full(i.size, np.iinfo(np.int64).max, dtype=np.int64)
    for perm in itertools.permutations(range(n)) if matching else ():
        pj = np.asarray(perm)
        ok = (used_i == used_j[:, pj]).all(axis=1)
        cost = np.abs(cents[i] - cents[j][:, pj, :]).sum(axis=(1, 2))
        match = np.where(ok, np.minimum(match, cost), match)
    same_q = used_i.sum(axis=1) == used_j.sum(axis=1)
    match = np.where(same_q & (match < np.iinfo(np.int64).max), match, -den)
    vals = {"centroids": np.where(same, dc.sum(axis=(1, 2)), -den),
            **({"matching": match} if matching else {}),
            "weighted": np.where(same, (dc * sizes[i]).sum(axis=(1, 2)), -den),
            "aligned": da.sum(axis=(1, 2)),
            "row": da.sum(axis=2).max(axis=1)}
    best = {}
    for q, val in vals.items():
        at = int(np.argmax(val))
        best[q] = (Fraction(int(val[at]), den), (int(i[at]), int(j[at]))
                   if val[at] >= 0 else None)
    matching_pairs: list[tuple[int, int]] = []
    if matching and match.max() >= 0:
        top = np.flatnonzero(match == match.max())[:512]
        matching_pairs = [(int(i[t]), int(j[t])) for t in top]
    leaks = {}
    for q, canon in (("partition", first), ("tuples", code)):
        diff = np.flatnonzero((canon[i] != canon[j]).any(axis=1))
        leaks[q] = (int(i[diff[0]]), int(j[diff[0]])) if diff.size else None

    def pair(ij: tuple[int, int] | None) -> dict[str, Any] | None:
        if ij is None:
            return None
        return {"x": [[float(Fraction(int(t), grid)) for t in pts[e]] for e in datasets[ij[0]]],
                "x_prime": [[float(Fraction(int(t), grid)) for t in pts[e]]
                            for e in datasets[ij[1]]]}

    return {"n": n, "k": k, "m": m, "microaggregation": kind, "grid": grid,
            "datasets": total, "pairs": total * n * (p - 1) // 2,
            **{q: str(vq[0]) for q, vq in best.items()},
            **{f"{q}_float": float(vq[0]) for q, vq in best.items()},
            "witness": {q: pair(vq[1]) for q, vq in best.items()},
            **({"matching_witnesses": [pair(ij) for ij in matching_pairs]} if matching else {}),
            "partition_changes": pair(leaks["partition"]),
            "tuple_pattern_changes": pair(leaks["tuples"])}
