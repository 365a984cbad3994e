"""The integer sweep of :mod:`privlab.verify.releases.exact` against the original
Fraction-by-Fraction enumeration (kept here as the oracle): same maxima, same witnesses, same
leak pairs, on every kind and both widths."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from privlab.errors import InvalidParameter
from privlab.verify.releases.exact import _l1, _reps, sweep


def reference_sweep(n: int, k: int, m: int, kind: str, grid: int | None = None,
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


@pytest.mark.parametrize(("n", "k", "m", "kind", "grid"), [
    (3, 1, 1, "none", 3),
    (4, 2, 1, "insensitive-mdav", 4),
    (4, 2, 1, "individual-ranking", 6),
    (4, 2, 2, "insensitive-mdav", 1),
    (3, 2, 2, "individual-ranking", 2),
    (4, 2, 2, "individual-ranking", 1),
    (5, 2, 1, "insensitive-mdav", 2),
])
def test_integer_sweep_equals_fraction_enumeration(n, k, m, kind, grid):
    assert sweep(n, k, m, kind, grid=grid) == reference_sweep(n, k, m, kind, grid=grid)


def test_sweep_finds_the_known_maxima():
    """Values derived by hand in privlab.proofs.thesis.ch6 (7/4 ordered-list, row 1)."""
    s = sweep(4, 2, 2, "insensitive-mdav")
    assert (s["grid"], s["centroids"]) == (2, "7/4")
    assert sweep(4, 2, 1, "insensitive-mdav")["row"] == "1"


def test_sweep_refuses_too_many_data_sets():
    with pytest.raises(InvalidParameter, match="limit"):
        sweep(6, 3, 2, "insensitive-mdav", grid=2)
