"""How many records of each bucket go to each equivalence class (thesis §7.2, ins15 §6).

Integer bookkeeping of the bucketization construction, independent of the data:

* number of buckets ``b``: §7.2.1 / ins15 §6.1 solve t·(1/b) + (1/t)(1 − 1/b) = 1, i.e.
  b = t + 1 — every class can emphasise one bucket by the factor t and under-represent the
  others by exactly 1/t.  For real t: a class putting mass t/b on one bucket leaves ratio
  (b − t)/(b − 1) to each other bucket, which is ≥ 1/t iff (t − 1)(b − t − 1) ≥ 0, i.e.
  b ≥ t + 1; privlab takes the smallest such integer, b = ⌈t⌉ + 1 (t = 1.5 → 3 buckets, as in
  the 1.5-close example of thesis Fig. 7.5 / ins15 Fig. 2).
* bucket sizes (thesis §7.2.2, ins15 §6.2): B_j holds the records of ranks
  ⌊(j−1)N/b + 0.5⌋ + 1 … ⌊jN/b + 0.5⌋ of the confidential attribute.
* classes: e = b·l classes, l = 1 … ⌊N/b²⌋ (so that k ≥ b); sizes
  e_i = ⌈iN/e⌉ − ⌈(i−1)N/e⌉ (ins15 §6.2; the thesis prints [·] rounding, which gives the same
  multiset of sizes ⌊N/e⌋ / ⌈N/e⌉).  Class i emphasises bucket h(i) = i mod b.
* t-closeness of class i with the distance of Definition 15 (Proposition 10: the maximum over
  buckets): with p_j = b_j/N, the count n_ij must satisfy e_i·p_j/t ≤ n_ij ≤ t·e_i·p_j, i.e.
  L_ij = ⌈e_i b_j/(N t)⌉ ≤ n_ij ≤ ⌊t e_i b_j/N⌋ = U_ij.
* the printed per-class rule (thesis §7.2.2, last paragraph): take ⌈e_i p_j/t⌉ records of every
  bucket j ≠ h(i) and complete the class with e_i − Σ_{j≠h(i)} ⌈e_i p_j/t⌉ records of B_h(i)
  (the thesis prints "k_i − t⌈k_i p_j/t⌉": with b = t + 1 there are t other buckets).
  Nothing in the rule makes the column sums Σ_i n_ij equal the bucket sizes b_j, and the
  completed count may leave [L, U]; :func:`printed_counts` reports which condition fails.
* when it fails, :func:`exact_counts` solves the integer feasibility problem (bounded counts
  with fixed row sums e_i and column sums b_j) exactly: an LP maximising the emphasised counts
  (HiGHS; the constraint matrix of a transportation problem is totally unimodular, so a vertex
  is integral — checked in integers) for up to 20 000 counts, else a max-flow restricted to a
  window of ±1, ±2 around the printed counts; falling back on an integral max-flow with bounds
  (``scipy.sparse.csgraph.maximum_flow``), whose value decides feasibility exactly.
"""

from __future__ import annotations

# ruff: noqa: E741  (l is the seeds' name for the number of classes per bucket)
import functools
import math
from fractions import Fraction
from typing import Any

import attrs
import numpy as np

from privlab.errors import InvalidParameter

TLike = float | int | str | Fraction


def as_fraction_t(t: TLike) -> Fraction:
    """t as an exact Fraction: floats are read by their shortest repr (1.5 → 3/2, 2.1 → 21/10).
    Memoised per process by value *and type* (``typed``: True, 1 and 1.0 are three keys; an
    error is not remembered); unhashable values are read without the memo."""
    try:
        return _as_fraction_t_cached(t)
    except TypeError:  # unhashable t: the memo cannot key it (the reading below raises)
        return _as_fraction_t(t)


def _as_fraction_t(t: TLike) -> Fraction:
    if isinstance(t, bool):
        raise InvalidParameter(f"t={t!r} must be a real number >= 1, not a bool")
    try:
        f = Fraction(repr(t)) if isinstance(t, float) else Fraction(t)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        raise InvalidParameter(f"t={t!r} must be a real number >= 1") from None
    if f < 1:
        raise InvalidParameter(f"t={t!r} must be >= 1 (t-closeness with the distance of "
                               f"Definition 15 is never below 1)")
    return f


_as_fraction_t_cached = functools.lru_cache(maxsize=1024, typed=True)(_as_fraction_t)


def n_buckets(t: TLike) -> int:
    """b = ⌈t⌉ + 1 (= t + 1 for integer t, thesis §7.2.1; see the module docstring)."""
    return math.ceil(as_fraction_t(t)) + 1


def bucket_sizes(n: int, b: int) -> np.ndarray:
    """Printed bucket sizes: boundaries ⌊jN/b + 0.5⌋ = ⌊(2jN + b)/(2b)⌋, j = 0 … b."""
    j = np.arange(b + 1, dtype=np.int64)
    edges = (2 * j * n + b) // (2 * b)
    edges[0] = 0
    return np.diff(edges)


def class_sizes(n: int, e: int) -> np.ndarray:
    """e_i = ⌈iN/e⌉ − ⌈(i−1)N/e⌉ (ins15 §6.2), i = 1 … e."""
    i = np.arange(e + 1, dtype=np.int64)
    return np.diff(-((-i * n) // e))


def l_range(n: int, b: int) -> range:
    """Admissible l: 1 … ⌊N/b²⌋ (k = N/(bl) ≥ b)."""
    return range(1, n // (b * b) + 1)


def bounds(n: int, t: Fraction, rows: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray,
                                                                             np.ndarray]:
    """L_ij = ⌈e_i b_j/(N t)⌉ and U_ij = ⌊t e_i b_j/N⌋ in exact integer arithmetic."""
    prod = np.outer(rows.astype(np.int64), cols.astype(np.int64))
    num, den = t.numerator, t.denominator
    lo = -((-(prod * den)) // (n * num))
    hi = (prod * num) // (n * den)
    return lo, hi


def emphasis(e: int, b: int) -> np.ndarray:
    """h(i) = i mod b (0-based): l classes emphasise each bucket, interleaved."""
    return np.arange(e) % b


@attrs.frozen(kw_only=True, eq=False)
class CountPlan:
    """Row i = class, column j = bucket; ``method`` is "printed" or "exact"."""

    n: int
    t: Fraction
    b: int
    l: int
    bucket_sizes: np.ndarray
    class_sizes: np.ndarray
    counts: np.ndarray
    method: str
    printed_failures: tuple[str, ...] = ()

    @property
    def k(self) -> int:
        return int(self.class_sizes.min())

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "t": str(self.t), "b": self.b, "l": self.l, "k": self.k,
                "method": self.method, "printed_failures": list(self.printed_failures),
                "bucket_sizes": self.bucket_sizes.tolist(),
                "class_sizes": self.class_sizes.tolist()}


def validate(n: Any, t: TLike, l: Any, b: Any = None) -> tuple[int, Fraction, int, int]:
    """Check (N, t, l, b); returns them normalised.  Errors name the parameter and value."""
    tf = as_fraction_t(t)
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 1:
        raise InvalidParameter(f"N={n!r} must be a positive integer (number of records)")
    n = int(n)
    if b is None:
        b = n_buckets(tf)
    elif isinstance(b, bool) or not isinstance(b, int | np.integer) or b < 1:
        raise InvalidParameter(f"b={b!r} must be a positive integer (number of buckets)")
    b = int(b)
    if n < b * b:
        raise InvalidParameter(f"N={n} is too small for t={t} ({b} buckets need N >= b² = "
                               f"{b * b} records so that every class can hold every bucket)")
    lr = l_range(n, b)
    if isinstance(l, bool) or not isinstance(l, int | np.integer) or int(l) not in lr:
        raise InvalidParameter(f"l={l!r} must be an integer in 1..{lr.stop - 1} "
                               f"(= ⌊N/b²⌋ with N={n}, b={b})")
    return n, tf, int(l), b


def printed_counts(n: int, t: TLike, l: int, b: int | None = None) -> tuple[
        np.ndarray, tuple[str, ...]]:
    """The count matrix of the printed rule and the list of conditions it violates
    (memoised per process by the validated (N, t, l, b); each caller gets its own matrix)."""
    n, tf, l, b = validate(n, t, l, b)
    cnt, fails = _printed_counts(n, tf, l, b)
    return cnt.copy(), fails


@functools.lru_cache(maxsize=8192)
def _printed_counts(n: int, tf: Fraction, l: int, b: int) -> tuple[np.ndarray, tuple[str, ...]]:
    rows, cols = class_sizes(n, b * l), bucket_sizes(n, b)
    lo, hi = bounds(n, tf, rows, cols)
    h = emphasis(len(rows), b)
    cnt = lo.copy()
    idx = np.arange(len(rows))
    cnt[idx, h] = 0
    cnt[idx, h] = rows - cnt.sum(axis=1)
    fails = []
    bad = np.argwhere((cnt < lo) | (cnt > hi))
    if len(bad):
        i, j = (int(x) for x in bad[0])
        fails.append(f"count n[{i + 1},{j + 1}]={int(cnt[i, j])} outside [L, U] = "
                     f"[{int(lo[i, j])}, {int(hi[i, j])}] ({len(bad)} entries)")
    colsum = cnt.sum(axis=0)
    if not np.array_equal(colsum, cols):
        fails.append(f"column sums {colsum.tolist()} != bucket sizes {cols.tolist()}")
    cnt.setflags(write=False)  # the memo's copy
    return cnt, tuple(fails)


DENSE_LP = 400
"""Up to this many counts :func:`_lp_counts` passes the constraint matrix dense (≤ 400·(e + b)
floats), above it sparse: the same matrix, so the same CSC arrays reach HiGHS."""


def _lp_counts(lo: np.ndarray, hi: np.ndarray, rows: np.ndarray, cols: np.ndarray,
               h: np.ndarray) -> np.ndarray | None:
    """Vertex of the transportation LP maximising the emphasised counts (None if not found)."""
    from scipy import optimize, sparse

    e, b = lo.shape
    nv = e * b
    r_idx = np.repeat(np.arange(e), b)
    c_idx = np.tile(np.arange(b), e)
    # rows 0..e-1: class sums; rows e..e+b-1: bucket sums (one csr build, no vstack); small
    # problems as a dense matrix: linprog hands HiGHS the same CSC arrays, with less set-up
    if nv <= DENSE_LP:
        a_eq: Any = np.zeros((e + b, nv))
        a_eq[r_idx, np.arange(nv)] = 1.0
        a_eq[e + c_idx, np.arange(nv)] = 1.0
    else:
        a_eq = sparse.csr_matrix((np.ones(2 * nv), (np.concatenate([r_idx, e + c_idx]),
                                                    np.tile(np.arange(nv), 2))),
                                 shape=(e + b, nv))
    cost = np.zeros(nv)
    cost[np.arange(e) * b + h] = -1.0
    res = optimize.linprog(cost, A_eq=a_eq, b_eq=np.concatenate([rows, cols]).astype(float),
                           bounds=np.column_stack([lo.ravel(), hi.ravel()]).astype(float),
                           method="highs-ds")
    if res.status != 0:
        return None
    x = np.rint(res.x).astype(np.int64).reshape(e, b)
    return x


def _flow_counts(lo: np.ndarray, hi: np.ndarray, rows: np.ndarray,
                 cols: np.ndarray) -> np.ndarray | None:
    """Integral max-flow with lower bounds; None iff the bounded problem is infeasible."""
    from scipy import sparse
    from scipy.sparse.csgraph import maximum_flow

    e, b = lo.shape
    r = rows - lo.sum(axis=1)
    c = cols - lo.sum(axis=0)
    if (r < 0).any() or (c < 0).any() or (hi < lo).any():
        return None
    src, sink = 0, e + b + 1
    ri = np.arange(e) + 1
    cj = np.arange(b) + e + 1
    u = np.concatenate([np.zeros(e, np.int64), np.repeat(ri, b), cj])
    v = np.concatenate([ri, np.tile(cj, e), np.full(b, sink)])
    cap = np.concatenate([r, (hi - lo).ravel(), c]).astype(np.int32)
    g = sparse.csr_matrix((cap, (u, v)), shape=(e + b + 2, e + b + 2))
    res = maximum_flow(g, src, sink)
    if int(res.flow_value) != int(r.sum()):
        return None
    flow = res.flow.tocsr()
    x = np.asarray(flow[1:e + 1, e + 1:e + b + 1].todense(), dtype=np.int64)
    return lo + x


def _small_flow_counts(lo: np.ndarray, hi: np.ndarray, rows: np.ndarray,
                      cols: np.ndarray) -> np.ndarray | None:
    """The same decision as :func:`_flow_counts` (None iff no count matrix within [lo, hi]
    has row sums ``rows`` and column sums ``cols``) by a pure-Python integral max-flow —
    greedy start, then shortest augmenting paths from every deficient class at once until
    none is left (max-flow = min-cut: the flow is then maximum).  No scipy set-up: much
    cheaper on the ledger's small instances.  The matrix may differ from
    :func:`_flow_counts`'s; callers use it only to decide (and check it in integers)."""
    e, b = lo.shape
    if (hi < lo).any():
        return None
    r = [int(v) for v in rows - lo.sum(axis=1)]
    c = [int(v) for v in cols - lo.sum(axis=0)]
    if min(r, default=0) < 0 or min(c, default=0) < 0 or sum(r) != sum(c):
        return None
    cap = (hi - lo).tolist()
    x = [[0] * b for _ in range(e)]
    for i in range(e):  # greedy start
        ri, ci, xi = r[i], cap[i], x[i]
        for j in range(b):
            if not ri:
                break
            d = min(ri, ci[j], c[j])
            if d > 0:
                xi[j], ri, c[j] = d, ri - d, c[j] - d
        r[i] = ri
    while any(r):
        # BFS over classes (i) and buckets (b + j): class → bucket when x < cap, bucket →
        # class when x > 0; a bucket with spare capacity c_j > 0 ends the path
        prev: dict[int, int] = {i: -1 for i in range(e) if r[i] > 0}
        queue, end = list(prev), -1
        for node in queue:
            if node < e:
                xi, ci = x[node], cap[node]
                for j in range(b):
                    if xi[j] < ci[j] and b + j + e not in prev:
                        prev[b + j + e] = node
                        if c[j] > 0:
                            end = b + j + e
                            break
                        queue.append(b + j + e)
                if end >= 0:
                    break
            else:
                j = node - e - b
                for i in range(e):
                    if x[i][j] > 0 and i not in prev:
                        prev[i] = node
                        queue.append(i)
        if end < 0:
            return None  # no augmenting path: the maximum flow leaves a class short
        path, node = [], end  # (class, bucket, +1) / (class, bucket, -1) steps
        while prev[node] != -1:
            p = prev[node]
            path.append((p, node - e - b, 1) if node >= e else (node, p - e - b, -1))
            node = p
        start = node
        d = min(r[start], c[end - e - b],
                *(cap[i][j] - x[i][j] if sg > 0 else x[i][j] for i, j, sg in path))
        for i, j, sg in path:
            x[i][j] += sg * d
        r[start] -= d
        c[end - e - b] -= d
    return lo + np.asarray(x, dtype=np.int64).reshape(e, b)


def valid_counts(cnt: np.ndarray, lo: np.ndarray, hi: np.ndarray, rows: np.ndarray,
                 cols: np.ndarray) -> bool:
    """Exact integer check of bounds and both margins."""
    return bool(((cnt >= lo) & (cnt <= hi)).all() and np.array_equal(cnt.sum(axis=1), rows)
                and np.array_equal(cnt.sum(axis=0), cols))


def exact_counts(n: int, t: TLike, l: int, b: int | None = None, *,
                 lp_limit: int = 20_000) -> np.ndarray | None:
    """A valid count matrix (preferring emphasis) or None when none exists (decided exactly)."""
    n, tf, l, b = validate(n, t, l, b)
    return solve_counts(n, tf, l, b, lp_limit=lp_limit)


def solve_counts(n: int, tf: Fraction, l: int, b: int, *,
                 lp_limit: int = 20_000) -> np.ndarray | None:
    """:func:`exact_counts` without the parameter range checks (any l with b·l ≤ N).
    Memoised per process (the sweeps of the ledger ask for the same cases); each caller gets
    its own copy of the matrix."""
    x = _solve_counts(int(n), Fraction(tf), int(l), int(b), int(lp_limit))
    return None if x is None else x.copy()


def counts_exist(n: int, tf: Fraction, l: int, b: int) -> bool:
    """Whether :func:`solve_counts` finds a matrix, decided exactly without the LP: the
    integral max-flow with bounds (whose value decides feasibility) returns a matrix, checked
    in integers.  ``solve_counts`` returns None exactly when this is False.  Memoised per
    process (:func:`plan_exists` asks again for cases a sweep has decided)."""
    return _counts_exist(int(n), Fraction(tf), int(l), int(b))


@functools.lru_cache(maxsize=8192)
def _counts_exist(n: int, tf: Fraction, l: int, b: int) -> bool:
    rows, cols = class_sizes(n, b * l), bucket_sizes(n, b)
    lo, hi = bounds(n, Fraction(tf), rows, cols)
    if (hi < lo).any():
        return False
    x = _small_flow_counts(lo, hi, rows, cols)
    return x is not None and valid_counts(x, lo, hi, rows, cols)


@functools.lru_cache(maxsize=4096)
def _solve_counts(n: int, tf: Fraction, l: int, b: int, lp_limit: int) -> np.ndarray | None:
    rows, cols = class_sizes(n, b * l), bucket_sizes(n, b)
    lo, hi = bounds(n, tf, rows, cols)
    if (hi < lo).any():
        return None
    if lo.size <= lp_limit and _small_flow_counts(lo, hi, rows, cols) is None:
        return None  # infeasible (decided exactly): the LP and the max-flow below fail too
    if lo.size <= lp_limit:
        x = _lp_counts(lo, hi, rows, cols, emphasis(len(rows), b))
        if x is not None and valid_counts(x, lo, hi, rows, cols):
            return x
    else:  # large: max-flow within a window around the printed counts keeps the emphasis
        h = emphasis(len(rows), b)
        near = lo.copy()
        near[np.arange(len(rows)), h] = 0
        near[np.arange(len(rows)), h] = rows - near.sum(axis=1)
        for w in (1, 2):
            x = _flow_counts(np.maximum(lo, near - w), np.minimum(hi, near + w), rows, cols)
            if x is not None and valid_counts(x, lo, hi, rows, cols):
                return x
    x = _flow_counts(lo, hi, rows, cols)
    if x is not None and not valid_counts(x, lo, hi, rows, cols):  # pragma: no cover
        raise AssertionError("max-flow returned an invalid count matrix")
    return x


def plan(n: int, t: TLike, l: int = 1, b: int | None = None) -> CountPlan:
    """The printed counts when they are valid, else an exact solution.

    With ``b`` None, b = ⌈t⌉ + 1 is tried first and then b − 1, b − 2, … ≥ 2 (for
    non-integer t < 2 the three buckets of ⌈t⌉ + 1 often admit no partition while two do);
    ``printed_failures`` records why the printed rule was not used.  Raises
    :class:`InvalidParameter` when no t-close partition with these margins exists.
    """
    tf = as_fraction_t(t)
    candidates = [b] if b is not None else list(range(n_buckets(tf), 1, -1))
    validate(n, tf, l, candidates[0])  # N and l are judged against the requested b
    notes: list[str] = []
    err: InvalidParameter | None = None
    for bb in candidates:
        try:
            return _plan_b(n, tf, l, bb, tuple(notes))
        except InvalidParameter as exc:
            if err is None:
                err = exc
            notes.append(f"b={bb}: {exc}")
    assert err is not None
    raise err


def plan_exists(n: int, t: TLike, l: int = 1) -> bool:
    """Whether :func:`plan` (``b`` None) succeeds, decided as it decides (the printed counts
    are valid, or a valid matrix exists — :func:`counts_exist`) without solving the LPs."""
    tf = as_fraction_t(t)
    candidates = list(range(n_buckets(tf), 1, -1))
    validate(n, tf, l, candidates[0])
    for bb in candidates:
        try:
            nn, tt, ll, bb = validate(n, tf, l, bb)
        except InvalidParameter:
            continue
        if not printed_counts(nn, tt, ll, bb)[1] or counts_exist(nn, tt, ll, bb):
            return True
    return False


def _plan_b(n: int, t: Fraction, l: int, b: int, notes: tuple[str, ...]) -> CountPlan:
    n, tf, l, b = validate(n, t, l, b)
    rows, cols = class_sizes(n, b * l), bucket_sizes(n, b)
    cnt, fails = printed_counts(n, tf, l, b)
    method = "printed"
    if fails:
        x = exact_counts(n, tf, l, b)
        if x is None:
            raise InvalidParameter(
                f"no {tf}-close partition exists for N={n}, t={tf}, l={l} ({b} buckets of "
                f"sizes {sorted(set(cols.tolist()))}, {b * l} classes of sizes "
                f"{sorted(set(rows.tolist()))}): choose a larger t or a smaller l")
        cnt, method = x, "exact"
    return CountPlan(n=n, t=tf, b=b, l=l, bucket_sizes=cols, class_sizes=rows, counts=cnt,
                     method=method, printed_failures=notes + fails)
