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

The sensitivity of the released centroid list: :mod:`.centroid_sensitivity`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from privlab.errors import InvalidParameter
from privlab.types import CheckResult, Method
from privlab.verify.microaggregation.correspondence import (
    Counts,
    _ClusterTable,
    _correspond_one,
    _grid_counts,
    _partitions,
)

__all__ = [
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
