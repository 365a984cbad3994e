"""Sensitivity of the centroid list released by microaggregation (thesis §6.3; vldb14).

:func:`check_centroid_sensitivity` maximises the L1 change of the centroid list (domain scaled
to [0, 1]^m; centroids paired by a minimum-cost matching, so a value above the bound refutes it
for every pairing) over neighbouring data sets by exhaustive grids on tiny inputs, structured
extremal starts and randomised hill climbing, and compares it with a claimed bound.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment

from privlab._rng import as_generator
from privlab.errors import InvalidParameter
from privlab.types import CheckResult, Method
from privlab.verify.microaggregation.insensitivity import _labeler

__all__ = ["centroid_change", "check_centroid_sensitivity"]


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
