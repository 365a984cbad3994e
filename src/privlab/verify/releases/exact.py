"""Exhaustive sensitivity of microaggregated releases on small grids (evidence for the ledger).

Every data set of n records with values in the grid {0, 1/g, …, 1}^m and every substitution of
one record by another grid point is enumerated (exact rational arithmetic: the grid values and
the centroids are Fractions).  For each configuration the released *quantity* is:

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


def sweep(n: int, k: int, m: int, kind: str, grid: int | None = None,
          limit: int = 20000) -> dict[str, Any]:
    """Maxima (Fractions, in units of range) with a witness pair for each quantity."""
    if grid is None:
        grid = max(g for g in (1, 2, 3, 4, 6) if (g + 1) ** (n * m) <= limit or g == 1)
    pts = [tuple(Fraction(i, grid) for i in c) for c in itertools.product(range(grid + 1),
                                                                          repeat=m)]
    total = len(pts) ** n
    if total > limit:
        raise InvalidParameter(f"grid={grid} gives {total} data sets (> limit={limit}) for "
                               f"n={n}, m={m}")
    datasets = list(itertools.product(range(len(pts)), repeat=n))
    index = {d: i for i, d in enumerate(datasets)}
    reps = [_reps(np.array([pts[c] for c in d], dtype=object), k, kind) for d in datasets]
    best: dict[str, Any] = {q: (Fraction(-1), None) for q in
                            ("centroids", "weighted", "aligned", "row")}
    leaks = {"partition": None, "tuples": None}
    for i, d in enumerate(datasets):
        a = reps[i]
        for r in range(n):
            for c in range(len(pts)):
                if c <= d[r]:
                    continue  # symmetric: each unordered pair once
                j = index[(*d[:r], c, *d[r + 1:])]
                b = reps[j]
                vals = {"aligned": _l1(a["aligned"], b["aligned"]),
                        "row": max(sum((abs(x - y) for x, y in zip(ra, rb, strict=True)),
                                       Fraction(0))
                                   for ra, rb in zip(a["aligned"], b["aligned"], strict=True))}
                if a["sizes"] == b["sizes"]:
                    vals["centroids"] = _l1(a["centroids"], b["centroids"])
                    vals["weighted"] = sum(
                        (abs(x - y) * s for ra, rb, rs in zip(a["centroids"], b["centroids"],
                                                             a["sizes"], strict=True)
                         for x, y, s in zip(ra, rb, rs, strict=True)), Fraction(0))
                for key, val in vals.items():
                    if val > best[key][0]:
                        best[key] = (val, (i, j))
                for key in leaks:
                    if leaks[key] is None and a[key] != b[key]:
                        leaks[key] = (i, j)

    def pair(ij: tuple[int, int] | None) -> dict[str, Any] | None:
        if ij is None:
            return None
        return {"x": [[float(t) for t in pts[c]] for c in datasets[ij[0]]],
                "x_prime": [[float(t) for t in pts[c]] for c in datasets[ij[1]]]}

    return {"n": n, "k": k, "m": m, "microaggregation": kind, "grid": grid,
            "datasets": total, "pairs": total * n * (len(pts) - 1) // 2,
            **{q: str(vq[0]) for q, vq in best.items()},
            **{f"{q}_float": float(vq[0]) for q, vq in best.items()},
            "witness": {q: pair(vq[1]) for q, vq in best.items()},
            "partition_changes": pair(leaks["partition"]),
            "tuple_pattern_changes": pair(leaks["tuples"])}
