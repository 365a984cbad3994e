"""Checks behind the claims of thesis ch.7 and ins15 (see ``thesis_ch7`` and ``ins15``)."""

from __future__ import annotations

# ruff: noqa: E741  (l: the seeds' name)
import functools
import itertools
import math
from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp

from privlab.errors import InvalidParameter
from privlab.mechanisms.tcloseness import counts as tc
from privlab.mechanisms.tcloseness.bucketization import partition_alg_7_1, release_t_close
from privlab.proofs.tcloseness import grids as gr
from privlab.types import CheckResult, Method
from privlab.verify import stochastic_t as stt
from privlab.verify.tcloseness import (
    achieved_t,
    check_prop_10,
    check_release,
    crosstab,
    distance,
)

F = Fraction
SWEEP_TS = gr.SWEEP_TS
"""t values of the §7.2.2 sweeps (:data:`privlab.proofs.tcloseness.grids.SWEEP_TS`)."""
SWEEP_N = 120


def _runs(values: Any) -> list[list[int]]:
    """Sorted integers as [first, last] runs of consecutive values (compact evidence)."""
    out: list[list[int]] = []
    for v in sorted(set(values)):
        if out and v == out[-1][1] + 1:
            out[-1][1] = v
        else:
            out.append([v, v])
    return out


# ---- Algorithm 7.1 --------------------------------------------------------------------------
def check_alg_7_1(*, max_offset: int = 1) -> CheckResult:
    """Exhaustive over :func:`~privlab.proofs.tcloseness.grids.alg71_cases` — every N ≤ 60
    with every k ≤ N, and every N in k … 5k for the thesis's k = 100 and 300: a partition,
    classes contiguous in C, sizes in [k, 2k−1] (``max_offset`` = 2 is a mutant: sizes
    ≤ 2k − 2)."""
    bad = None
    cases = 0
    ks: set[int] = set()
    ns: set[int] = set()
    for n, k in gr.alg71_cases():
        g = partition_alg_7_1(np.arange(n), k)
        sizes = np.bincount(g)
        contiguous = all(np.ptp(np.flatnonzero(g == c)) == s - 1 for c, s in enumerate(sizes))
        cases += 1
        ks.add(k)
        ns.add(n)
        if (sizes.sum() != n or sizes.min() < k or sizes.max() > 2 * k - max_offset
                or not contiguous):
            bad = {"N": n, "k": k, "sizes": sizes.tolist()}
            break
    return CheckResult(holds=bad is None, claim="Algorithm 7.1 yields a partition into "
                       "C-contiguous classes of k … 2k−1 records", method=Method.EXHAUSTIVE,
                       value=cases, evidence={"cases": cases,
                                              "N": f"1..{gr.ALG71_N_MAX} with k ≤ N; "
                                                   f"k..{gr.ALG71_SPAN}k for k ∈ "
                                                   f"{list(gr.ALG71_LARGE_K)}",
                                              "k_grid": _runs(ks), "N_grid": _runs(ns)},
                       counterexample=bad)


def _sse(xs: list[int]) -> F:
    """Within-class sum of squared errors Σx² − (Σx)²/s, exact."""
    return F(sum(x * x for x in xs)) - F(sum(xs)) ** 2 / len(xs)


def _opt_sse(x: list[int], k: int) -> tuple[F, list[int]]:
    """Minimum SSE over partitions of the sorted values ``x`` into C-contiguous classes of
    k … 2k−1 records (optimal univariate partitions into classes of ≥ k records are of this
    form), exact, by dynamic programming; with the class sizes of one optimum."""
    n = len(x)
    cs, cs2 = [0], [0]
    for v in x:
        cs.append(cs[-1] + v)
        cs2.append(cs2[-1] + v * v)
    best: list[F | None] = [None] * (n + 1)
    prev = [0] * (n + 1)
    best[0] = F(0)
    for j in range(k, n + 1):
        for s in range(k, min(2 * k - 1, j) + 1):
            i = j - s
            b = best[i]
            if b is None:
                continue
            cand = b + cs2[j] - cs2[i] - F(cs[j] - cs[i]) ** 2 / s
            cur = best[j]
            if cur is None or cand < cur:
                best[j], prev[j] = cand, i
    out = best[n]
    assert out is not None  # n ≥ k: one class of all n records if nothing else
    sizes, j = [], n
    while j:
        sizes.append(j - prev[j])
        j = prev[j]
    return out, sizes[::-1]


def alg_7_1_instance(k: int) -> list[int]:
    """0, 1, …, 2k − 1 and the outlier 25k² (k = 2: 0, 1, 2, 3, 100)."""
    return [*range(2 * k), 25 * k * k]


def check_alg_7_1_optimal() -> CheckResult:
    """'Optimal partitioning' read as minimum within-class SSE of C.  For every k of
    :data:`~privlab.proofs.tcloseness.grids.ALG71_OPT_K`, Algorithm 7.1's SSE on
    :func:`alg_7_1_instance` against the exact optimum (dynamic programme): at k = 1 the
    algorithm's singletons have SSE 0, the least any partition has; at k ≥ 2 it keeps the
    first k values apart and puts the outlier with k others, where k − 1 would do."""
    rows: list[dict[str, Any]] = []
    for k in gr.ALG71_OPT_K:
        x = alg_7_1_instance(k)
        g = partition_alg_7_1(np.array(x), k)
        alg = sum((_sse([x[i] for i in np.flatnonzero(g == c).tolist()])
                   for c in np.unique(g).tolist()), F(0))
        opt, sizes = _opt_sse(x, k)
        rows.append({"k": k, "N": len(x), "sse_alg": alg, "sse_opt": opt,
                     "alg_class_sizes": np.bincount(g).tolist(), "opt_class_sizes": sizes,
                     "alg_optimal": alg <= opt})
    failing = [r for r in rows if not r["alg_optimal"]]
    first = failing[0] if failing else None
    cex = None if first is None else {
        "values": alg_7_1_instance(first["k"]), "k": first["k"],
        "sse_alg": first["sse_alg"], "sse_opt": first["sse_opt"],
        "alg_class_sizes": first["alg_class_sizes"], "opt_class_sizes": first["opt_class_sizes"],
        "refuted_at_k": [r["k"] for r in failing]}
    return CheckResult(holds=first is None, claim="Algorithm 7.1 minimises the within-class "
                       "SSE", method=Method.EXACT,
                       value=None if first is None else {"alg_7_1": first["sse_alg"],
                                                         "optimum": first["sse_opt"]},
                       evidence={"k_grid": list(gr.ALG71_OPT_K), "per_k": rows},
                       counterexample=cex)


# ---- Definition 15, Proposition 10 ----------------------------------------------------------
def _random_pairs(seed: int, count: int) -> list[tuple[list[F], list[F]]]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        m = int(rng.integers(1, 8))
        a, b = rng.integers(0, 5, m), rng.integers(0, 5, m)
        a[0] += 1
        b[0] += 1
        out.append(([F(int(x), int(a.sum())) for x in a], [F(int(x), int(b.sum())) for x in b]))
    return out


def check_def_15(*, dist: Any = None) -> CheckResult:
    """Consequences: d symmetric, d ≥ 1, d = 1 iff equal laws, ∞ iff supports differ
    (``dist``: the distance checked — a mutant passes another)."""
    dd = distance if dist is None else dist
    bad = None
    pairs = _random_pairs(15, 300)
    for p, q in pairs:
        d = dd(p, q)
        same_support = all((x == 0) == (y == 0) for x, y in zip(p, q, strict=True))
        if (d != dd(q, p) or d < 1 or (d == 1) != (p == q)
                or (d == math.inf) == same_support):
            bad = {"p": p, "q": q, "d": d}
            break
    return CheckResult(holds=bad is None, claim="Definition 15 is a symmetric distance ≥ 1, "
                       "= 1 iff equal, ∞ iff supports differ", method=Method.PROPERTY,
                       value=len(pairs), evidence={"pairs": len(pairs)}, counterexample=bad)


def check_prop_10_family() -> CheckResult:
    """Singleton maximum = maximum over all 2^m sets S on 400 random pairs (m ≤ 7)."""
    for p, q in _random_pairs(10, 400):
        r = check_prop_10(p, q)
        if not r.holds:
            return r
    return CheckResult(holds=True, claim="Proposition 10 (max over singletons = max over sets)",
                       method=Method.PROPERTY, value=400,
                       evidence={"pairs": 400, "support": "1..7 points, zeros included",
                                 "sets": "all subsets, exact Fractions"})


# ---- bucketization ------------------------------------------------------------------------
def check_bucket_optimum(*, offset: int = 1) -> CheckResult:
    """sympy: t/b + (1/t)(1 − 1/b) = 1 ⇔ b = t + 1 for t > 1; full emphasis feasible ⇔
    b ≥ t + 1.  The domain is t ≥ 1 (Definition 15's distance is ≥ 1 and §7.2.1 names
    1-closeness): at t = 1 the equation reads 1 = 1 and does not determine b, so "yields
    b = t + 1" fails there (read as: the equation determines b).  ``offset`` (a mutant: 2)
    replaces the claimed b = t + 1 by b = t + offset."""
    t, b = sp.symbols("t b", positive=True)
    equation = t / b + (1 / t) * (1 - 1 / b) - 1
    sol = sp.solve(sp.Eq(equation, 0), b)
    rest = sp.factor(t * (b - t) - (b - 1))  # (b−t)/(b−1) ≥ 1/t  ⇔  t(b−t) − (b−1) ≥ 0
    generic = sol == [t + offset] and sp.simplify(rest - (t - 1) * (b - t - 1)) == 0
    at_one = sp.simplify(equation.subs(t, 1))  # 0 for every b: b is not determined
    ok = generic and at_one != 0
    cex: dict[str, Any] | None = None
    if not generic:
        cex = {"solution": str(sol), "claimed": str(t + offset)}
    elif at_one == 0:
        cex = {"t": 1, "equation at t = 1": "1/b + (1 − 1/b) = 1 holds for every b",
               "b = 2 and b = 3 both solve it": True}
    return CheckResult(holds=ok, claim="t/b + (1/t)(1 − 1/b) = 1 determines b = t + 1 for "
                       "every t ≥ 1", method=Method.SYMBOLIC, value=str(sol),
                       evidence={"solution for t ≠ 1": str(sol), "emphasis_condition": str(rest),
                                 "equation at t = 1": str(at_one)},
                       counterexample=cex)


def table_masses(t: int) -> tuple[list[F], list[list[F]]]:
    """Table 7.6 / ins15 Table 1 as derived: global 1/(t+1); class i: t/(t+1) on B_i and
    1/(t(t+1)) elsewhere."""
    b = t + 1
    glob = [F(1, b)] * b
    rows = [[F(t, b) if j == i else F(1, t * b) for j in range(b)] for i in range(b)]
    return glob, rows


def check_table_7_6(*, other_power: int = 1) -> CheckResult:
    """Symbolic in t: each row sums to one and the ratios to the global row are t and 1/t
    (``other_power`` = 2 is a mutant: 1/(t²(t+1)) off the emphasised bucket)."""
    t = sp.symbols("t", positive=True)
    emph, other, glob = t / (t + 1), 1 / (t**other_power * (t + 1)), 1 / (t + 1)
    row_sum = sp.simplify(emph + t * other)
    ratios = (sp.simplify(emph / glob), sp.simplify(other / glob))
    ok = row_sum == 1 and ratios == (t, 1 / t)
    return CheckResult(holds=ok, claim="Table 7.6 rows are distributions with ratios t, 1/t",
                       method=Method.SYMBOLIC, value=str(row_sum),
                       evidence={"row_sum": str(row_sum), "ratios": [str(r) for r in ratios]},
                       counterexample=None if ok else {"row_sum": str(row_sum),
                                                       "ratios": [str(r) for r in ratios]})


@functools.lru_cache(maxsize=1)
def rounding_sweep() -> tuple[dict[str, Any], ...]:
    """For each t of the sweep and every N ≤ 120 and l: printed rule ok / exact / infeasible."""
    out = []
    for t in SWEEP_TS:
        b = tc.n_buckets(t)
        row: dict[str, Any] = {"t": t, "b": b, "cases": 0, "printed_ok": 0, "exact_needed": 0,
                               "infeasible_at_b": 0, "solved_with_fewer_buckets": 0,
                               "first_printed_failure": None, "first_infeasible": None}
        for n in range(b * b, SWEEP_N + 1):
            for l in tc.l_range(n, b):
                row["cases"] += 1
                _, fails = tc.printed_counts(n, t, l)
                if not fails:
                    row["printed_ok"] += 1
                    continue
                if row["first_printed_failure"] is None:
                    row["first_printed_failure"] = {"N": n, "l": l, "why": list(fails)}
                if tc.counts_exist(n, tc.as_fraction_t(t), l, b):  # = exact_counts(…) found
                    row["exact_needed"] += 1
                    continue
                row["infeasible_at_b"] += 1
                if row["first_infeasible"] is None:
                    row["first_infeasible"] = {"N": n, "l": l}
                if tc.plan_exists(n, t, l):  # tc.plan(n, t, l) succeeds
                    row["solved_with_fewer_buckets"] += 1
        out.append(row)
    return tuple(out)


def literal_ins15_counts(n: int, t: int, l: int) -> tuple[np.ndarray, tuple[str, ...]]:
    """ins15 §6.2's count rule as extracted, for integer t (b = t + 1 buckets): class i takes
    ⌈e_i p_i t⌉ records of every bucket j ≠ i (p_i = b_i/N, its own bucket's share) and
    e_i − t⌈e_i p_i t⌉ of its own bucket B_i; with the conditions it violates (a negative
    count, a count outside [L, U] — the class is then not t-close —, column sums other than
    the bucket sizes — not a partition of D), as :func:`~privlab.mechanisms.tcloseness.counts
    .printed_counts` reports them for the thesis's rule."""
    b = t + 1
    rows, cols = tc.class_sizes(n, b * l), tc.bucket_sizes(n, b)
    lo, hi = tc.bounds(n, F(t), rows, cols)
    h = tc.emphasis(len(rows), b)
    take = -((-rows * cols[h] * t) // n)  # ⌈e_i b_{h(i)} t / N⌉, exact integers
    cnt = np.repeat(take[:, None], b, axis=1)
    idx = np.arange(len(rows))
    cnt[idx, h] = rows - t * take
    fails = []
    if (cnt < 0).any():
        i, j = (int(v) for v in np.argwhere(cnt < 0)[0])
        fails.append(f"negative count n[{i + 1},{j + 1}]={int(cnt[i, j])}")
    bad = np.argwhere((cnt < lo) | (cnt > hi))
    if len(bad):
        i, j = (int(v) for v in bad[0])
        fails.append(f"count n[{i + 1},{j + 1}]={int(cnt[i, j])} outside [L, U] = "
                     f"[{int(lo[i, j])}, {int(hi[i, j])}] ({len(bad)} entries)")
    colsum = cnt.sum(axis=0)
    if not np.array_equal(colsum, cols):
        fails.append(f"column sums {colsum.tolist()} != bucket sizes {cols.tolist()}")
    return cnt, tuple(fails)


def _count_rule_sweep(rule: Any) -> tuple[list[dict[str, Any]], dict[str, Any] | None, int,
                                          int]:
    """``rule(N, t, l) → (counts, failed conditions)`` on every (t, N, l) of
    :func:`~privlab.proofs.tcloseness.grids.count_rule_cases`.  A failing case is the rule's
    fault when a valid count matrix exists for the same buckets and classes (exact max-flow),
    else no partition with these buckets and l classes per bucket is t-close at all.  Returns
    the rows per t, the first case at the rule's fault (else the first failing case), and the
    numbers of failing and of all cases."""
    per_t: dict[int, dict[str, Any]] = {}
    first_fault: dict[str, Any] | None = None
    first_any: dict[str, Any] | None = None
    for t, n, l in gr.count_rule_cases():
        row = per_t.setdefault(t, {"t": t, "b": t + 1, "cases": 0, "rule_ok": 0,
                                   "rule_at_fault": 0, "no_t_close_partition": 0,
                                   "first_rule_at_fault": None})
        row["cases"] += 1
        cnt, fails = rule(n, t, l)
        if not fails:
            row["rule_ok"] += 1
            continue
        case = {"t": t, "N": n, "l": l, "b": t + 1, "why": list(fails),
                "class_sizes": tc.class_sizes(n, (t + 1) * l).tolist(),
                "bucket_sizes": tc.bucket_sizes(n, t + 1).tolist(), "counts": cnt.tolist()}
        if first_any is None:
            first_any = case
        if tc.counts_exist(n, F(t), l, t + 1):
            row["rule_at_fault"] += 1
            if row["first_rule_at_fault"] is None:
                row["first_rule_at_fault"] = {"N": n, "l": l, "why": list(fails)}
            if first_fault is None:
                first_fault = {**case, "a_valid_count_matrix_exists": True}
        else:
            row["no_t_close_partition"] += 1
    rows = list(per_t.values())
    fails_n = sum(r["cases"] - r["rule_ok"] for r in rows)
    return rows, first_fault or first_any, fails_n, sum(r["cases"] for r in rows)


def _count_rule_result(rule: Any, claim: str) -> CheckResult:
    rows, cex, fails, total = _count_rule_sweep(rule)
    ns, ls = gr.count_rule_grid()
    return CheckResult(holds=fails == 0, claim=claim, method=Method.EXACT,
                       value=f"{fails}/{total} cases fail",
                       evidence={"t_grid": [r["t"] for r in rows], "N_grid": _runs(ns),
                                 "l_grid": _runs(ls), "failures": fails, "cases": total,
                                 "per_t": rows,
                                 "reading": "a case fails when the counts are negative, leave "
                                            "[L, U] (a class not t-close) or miss the bucket "
                                            "sizes (not a partition of D); 'rule at fault' = a "
                                            "valid count matrix exists (exact max-flow)"},
                       counterexample=cex)


def check_printed_rules() -> CheckResult:
    """Thesis §7.2.2's count rule (⌈k_i p_j/t⌉ records of each bucket j ≠ i, the class
    completed from B_i: :func:`~privlab.mechanisms.tcloseness.counts.printed_counts`) gives a
    t-close partition for every (t, N, l) of
    :func:`~privlab.proofs.tcloseness.grids.count_rule_cases` — integer t (b = t + 1 buckets),
    N = (t+1)² … 120, every l.  The counterexample is the first case where the rule fails
    although a valid count matrix exists."""
    return _count_rule_result(lambda n, t, l: tc.printed_counts(n, t, l, t + 1),
                              "the printed per-class count rule gives a t-close partition "
                              "for every N, t and l")


def check_construction(*, t_shrink: float = 0.0) -> CheckResult:
    """privlab's construction: every t of :data:`SWEEP_TS`, N = b² … 60 and l = 1 … ⌊N/b²⌋
    gives a verified release or a proof (exact max-flow) that no partition with these margins
    exists.  ``t_shrink`` (a mutant) claims the releases are (t − t_shrink)-close."""
    from types import SimpleNamespace

    rng = np.random.default_rng(7)
    made = refused = 0
    ns: set[int] = set()
    ls: set[int] = set()
    for t in SWEEP_TS:
        b = tc.n_buckets(t)
        for n in range(b * b, gr.CONSTRUCTION_N_MAX + 1):
            for l in tc.l_range(n, b):
                ns.add(n)
                ls.add(l)
                vals = rng.integers(0, 8, n)
                try:
                    rel = release_t_close(vals, t, l, qi=rng.normal(size=(n, 2)))
                except InvalidParameter:
                    refused += 1
                    if any(tc.solve_counts(n, F(repr(float(t))), l, bb) is not None
                           for bb in range(b, 1, -1) if l <= n // (bb * bb)):
                        return CheckResult(holds=False, claim="construction", decided=True,
                                           counterexample={"N": n, "t": t, "l": l})
                    continue
                made += 1
                res = check_release(SimpleNamespace(
                    bucket=rel.bucket, group=rel.group, t=rel.t - F(t_shrink), k=rel.k,
                    plan=rel.plan) if t_shrink else rel)
                if not all(r.holds for r in res):
                    return CheckResult(holds=False, claim="construction", counterexample={
                        "N": n, "t": t, "l": l, "checks": [r.to_dict() for r in res]})
    return CheckResult(holds=True, claim="construction gives a verified t-close k-anonymous "
                       "release whenever one exists", method=Method.PROPERTY, value=made,
                       evidence={"releases_verified": made, "refused_infeasible": refused,
                                 "sweep": f"N ≤ {gr.CONSTRUCTION_N_MAX}, "
                                          f"t ∈ {list(SWEEP_TS)}, all l",
                                 "t_grid": list(SWEEP_TS), "N_grid": _runs(ns),
                                 "l_grid": _runs(ls)})


def l_max_printed(n: int, t: Any) -> int:
    """⌊N/(t+1)²⌋ with t read exactly (§7.2.2's largest l)."""
    tf = tc.as_fraction_t(t)
    return math.floor(F(n) / (tf + 1) ** 2)


def check_l_range(*, offset: int = 1) -> CheckResult:
    """§7.2.2's bound l ≤ ⌊N/(t+1)²⌋ is necessary: for l = ⌊N/(t+1)²⌋ + 1 no partition into
    b·l classes with b = ⌈t⌉ + 1 buckets exists (exact max-flow), for every t of
    :data:`SWEEP_TS` and N = ⌈(t+1)²⌉ … 80.  For integer t, b = t + 1 (the thesis's buckets);
    for non-integer t the construction's b = ⌈t⌉ + 1 (Table 7.5: t = 1.5, three buckets).
    ``offset`` = 0 is a mutant (l = ⌊N/(t+1)²⌋ claimed infeasible)."""
    cases = 0
    ns: set[int] = set()
    for t in SWEEP_TS:
        tf = tc.as_fraction_t(t)
        b = tc.n_buckets(tf)
        for n in range(gr.first_l_range_n(t), gr.L_RANGE_N_MAX + 1):
            l = l_max_printed(n, tf) + offset
            cases += 1
            ns.add(n)
            if b * l <= n and tc.solve_counts(n, tf, l, b) is not None:
                return CheckResult(holds=False, claim="l range", counterexample={
                    "N": n, "t": t, "b": b, "l": l})
    return CheckResult(holds=True, claim="l ≤ ⌊N/(t+1)²⌋ is necessary", method=Method.EXACT,
                       value=cases,
                       evidence={"reason": "b·l classes of ⌊N/(bl)⌋ < b records: one misses "
                                           "a bucket (distance ∞); decided by max-flow",
                                 "cases": cases, "t_grid": list(SWEEP_TS),
                                 "N_grid": _runs(ns)})


def check_ins15_bucket_sizes() -> CheckResult:
    """ins15 §6.3(a) as printed: buckets of ⌈N/b⌉ values, some of ⌈N/b⌉ + 1."""
    n, b = 10, 3
    least = b * math.ceil(n / b)
    return CheckResult(holds=least <= n, claim="b buckets of ≥ ⌈N/b⌉ values fit in N records",
                       method=Method.EXACT, value=least,
                       evidence={"N": n, "b": b, "printed_minimum_total": least,
                                 "privlab_sizes": tc.bucket_sizes(n, b).tolist()},
                       counterexample={"N": n, "b": b, "total_at_least": least})


def check_ins15_count_rule_literal() -> CheckResult:
    """ins15 §6.2 as extracted (:func:`literal_ins15_counts`: ⌈e_i p_i t⌉ records of every
    other bucket, the class completed with e_i − t⌈e_i p_i t⌉ of its own) gives a t-close
    partition, for every (t, N, l) of :func:`~privlab.proofs.tcloseness.grids.count_rule_cases`
    (integer t, N = (t+1)² … 120, every l).  The counterexample is the first case where the
    rule fails although a valid count matrix exists."""
    return _count_rule_result(literal_ins15_counts, "ins15's count rule as extracted gives a "
                              "t-close partition for every N, t and l")


# ---- t-closeness ⇒ DP (thesis §7.3, ins15 Proposition 3) ------------------------------------
def pairwise_view_ratio(n: int, t: Any, l: int) -> F:
    """max over classes E1, E2 and buckets of Q_E1/Q_E2 (exact)."""
    rel = release_t_close(np.arange(n), t, l)
    _, _, cnt = crosstab(rel.bucket, rel.group)
    e = cnt.sum(axis=1)
    best = F(0)
    for i in range(len(e)):
        for j in range(len(e)):
            for c in range(cnt.shape[1]):
                best = max(best, F(int(cnt[i, c]) * int(e[j]), int(cnt[j, c]) * int(e[i])))
    return best


def exp_bounds(spec: str) -> tuple[F, F]:
    """Rationals lo ≤ e^ε ≤ hi for an ε written as in
    :data:`~privlab.proofs.tcloseness.grids.SEC73_EPS`: equal when e^ε is rational (ε = 0 or
    ln q), else mpmath's e^ε at 60 digits widened by 10⁻⁵⁰ relative on each side."""
    exact = gr.eps_exp(spec)
    if exact is not None:
        return exact, exact
    import mpmath

    eps = F(spec)
    with mpmath.workdps(60):
        man, exp = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator).man_exp
    mid = F(int(man)) * F(2) ** int(exp)
    margin = F(1, 10**50)
    return mid * (1 - margin), mid * (1 + margin)


def _le_exp(x: F, lo: F, hi: F) -> bool | None:
    """x ≤ e^ε decided from lo ≤ e^ε ≤ hi (None: x falls between the bounds)."""
    return True if x <= lo else (False if x > hi else None)


def construction_t(spec: str) -> F:
    """A rational t ≤ e^ε to build releases with: e^ε itself when rational, else e^ε rounded
    down to six decimals (small numerators and denominators for the integer bounds)."""
    lo, _ = exp_bounds(spec)
    return lo if gr.eps_exp(spec) is not None else F(math.floor(lo * 10**6), 10**6)


def _release_or_none(n: int, t: F) -> Any:
    """The construction on the values 0 … N−1 with l = 1 and the most buckets that admit a
    t-close partition, b = min(⌈t⌉ + 1, ⌊√N⌋) … 2; None when none does."""
    for b in range(min(tc.n_buckets(t), math.isqrt(n)), 1, -1):
        try:
            return release_t_close(np.arange(n), t, 1, b=b)
        except InvalidParameter:
            continue
    return None


def check_uninformed_add_remove(*, shrink: F | int = 1) -> CheckResult:
    """Thesis §7.3.1 (I in D vs I absent, prior fixed): for every ε of
    :data:`~privlab.proofs.tcloseness.grids.SEC73_EPS`, releases of the construction at a
    rational t ≤ e^ε (N = 4, 7, …, 58), and posterior/prior ≤ e^ε for every record, decided
    exactly (``shrink`` < 1 is a mutant: a bound of shrink·e^ε).  A grid value where no
    release could be built leaves the check undecided."""
    rows: list[dict[str, Any]] = []
    bad: dict[str, Any] | None = None
    undecided: list[str] = []
    for spec in gr.SEC73_EPS:
        lo, hi = exp_bounds(spec)
        t = construction_t(spec)
        worst, made, sizes = F(0), 0, []
        for n in gr.SEC731_N:
            rel = _release_or_none(n, t)
            if rel is None:
                continue
            val, _ = achieved_t(rel.bucket, rel.group)
            made += 1
            sizes.append(n)
            worst = max(worst, F(val))
        ok = _le_exp(worst, shrink * lo, shrink * hi) if made else None
        rows.append({"epsilon": spec, "t_built": t, "releases": made, "N": sizes,
                     "max_posterior_over_prior": worst, "within_bound": ok})
        if ok is None:
            undecided.append(spec)
        elif not ok and bad is None:
            bad = {"epsilon": spec, "max_posterior_over_prior": worst,
                   "bound": f"{shrink}·e^ε" if shrink != 1 else "e^ε"}
    return CheckResult(holds=bad is None and not undecided, decided=not undecided,
                       claim="exp(ε)-closeness bounds the uninformed posterior/prior ratio by "
                             "e^ε", method=Method.PROPERTY,
                       value=max(r["max_posterior_over_prior"] for r in rows),
                       evidence={"epsilon_grid": list(gr.SEC73_EPS), "per_epsilon": rows,
                                 "undecided": undecided},
                       counterexample=bad)


def substitute_witness(spec: str) -> dict[str, Any] | None:
    """Two classes E1 = (m records, c of value a), E2 = (m, m − c) of one data set with a binary
    attribute: the marginal is (1/2, 1/2), the data set is t-close with t = m/(2(m − c)) for
    c > m/2, and Q_E1(a)/Q_E2(a) = c/(m − c) = (2c/m)·t > t.  Returns the smallest m (with the
    largest c) such that t ≤ e^ε < c/(m − c), decided exactly; None at ε = 0, where no
    witness exists (1-closeness makes every class equal to the marginal)."""
    lo, hi = exp_bounds(spec)
    if hi <= 1:
        return None
    share = 1 - 1 / (2 * lo)
    m = 2
    while True:
        c = math.floor(m * share)  # the largest c with m/(2(m − c)) ≤ lo
        if m / 2 < c < m and F(c, m - c) > hi:
            t = F(m, 2 * (m - c))
            assert _binary_t([(m, c), (m, m - c)]) == t
            return {"epsilon": spec, "class_size": m, "count_a": (c, m - c), "t": t,
                    "view_ratio": F(c, m - c), "ratio_over_t": F(c, m - c) / t}
        m += 1


def check_substitute_thesis() -> CheckResult:
    """Thesis §7.3 read under substitution: two neighbouring data sets may place I in classes
    E1, E2; does exp(ε)-closeness bound Q_E1/Q_E2 by e^ε?  For every ε of
    :data:`~privlab.proofs.tcloseness.grids.SEC73_EPS`: at ε = 0 it does (every class of a
    1-close data set equals the marginal); at every ε > 0 :func:`substitute_witness` gives an
    e^ε-close data set whose two classes differ by more than e^ε (exact).  Table 7.6 at t = 2
    (and the construction on N = 36) gives t²."""
    t = 2
    _, rows = table_masses(t)
    ratio = rows[0][0] / rows[1][0]
    built = pairwise_view_ratio(36, t, 1)
    per_eps = []
    for spec in gr.SEC73_EPS:
        w = substitute_witness(spec)
        per_eps.append({"epsilon": spec, "holds": w is None,
                        "witness": w if w is not None else
                        "none: 1-closeness makes every class equal to the marginal"})
    failing = [r["epsilon"] for r in per_eps if not r["holds"]]
    return CheckResult(holds=not failing, claim="exp(ε)-closeness ⇒ ε-DP under substitution",
                       method=Method.EXACT, value=ratio,
                       evidence={"t": t, "table_7_6_ratio_E1_E2_on_B1": ratio,
                                 "construction_N36_max_class_ratio": built,
                                 "epsilon_grid": list(gr.SEC73_EPS), "per_epsilon": per_eps},
                       counterexample=None if not failing else {
                           "t": t, "Q_E1(B1)": rows[0][0], "Q_E2(B1)": rows[1][0],
                           "ratio": ratio, "epsilon_needed": "2 ln t",
                           "refuted_at_epsilon": failing})


def _binary_t(classes: list[tuple[int, int]]) -> F | None:
    """Achieved t (Definition 4: max of Q_E/P and P/Q_E over classes and values) of a data set
    given as classes (size, count of value a) with a binary confidential attribute; None: ∞."""
    n = sum(e for e, _ in classes)
    a = sum(c for _, c in classes)
    worst = F(1)
    for e, c in classes:
        for q, p in ((F(c, e), F(a, n)), (F(e - c, e), F(n - a, n))):
            if (q == 0) != (p == 0):
                return None
            if p:
                worst = max(worst, q / p, p / q)
    return worst


def prop3_pairs(sizes: tuple[int, ...] = gr.PROP3_SIZES) -> list[tuple[F, F, dict[str, Any]]]:
    """Neighbouring data sets D1, D2 of :func:`check_ins15_prop_3` with I in both (case iv):
    one class of e records, or two classes of e1, e2 records (sizes in ``sizes``), a binary
    confidential attribute, and one record of I's class other than I substituted (its value
    flips; the partition is unchanged).  Each entry: (t, view ratio, description), t the least
    value for which D1 and D2 are both t-close; pairs where a class or the marginal loses a
    value (distance ∞) are left out."""
    out: list[tuple[F, F, dict[str, Any]]] = []
    shapes = [(e1,) for e1 in sizes] + [(e1, e2) for e1 in sizes for e2 in sizes]
    for shape in shapes:
        e1 = shape[0]
        others = [range(e + 1) for e in shape[1:]]
        for a1 in range(e1 + 1):
            for rest in (itertools.product(*others) if others else [()]):
                for step in (-1, 1):
                    b1 = a1 + step
                    if not 0 <= b1 <= e1:
                        continue
                    d1 = [(e1, a1), *zip(shape[1:], rest, strict=True)]
                    d2 = [(e1, b1), *zip(shape[1:], rest, strict=True)]
                    t1, t2 = _binary_t(d1), _binary_t(d2)
                    if t1 is None or t2 is None:
                        continue
                    q1, q2 = (F(a1, e1), F(e1 - a1, e1)), (F(b1, e1), F(e1 - b1, e1))
                    if 0 in q1 or 0 in q2:
                        continue
                    ratio = max(max(x / y, y / x) for x, y in zip(q1, q2, strict=True))
                    out.append((max(t1, t2), ratio, {"class_sizes": shape,
                                                     "D1 counts of a": (a1, *rest),
                                                     "D2 counts of a": (b1, *rest),
                                                     "t": max(t1, t2), "view ratio": ratio}))
    return out


def check_ins15_prop_3(*, sizes: tuple[int, ...] = gr.PROP3_SIZES,
                       ts: tuple[F, ...] = gr.PROP3_TS) -> CheckResult:
    """ins15 Proposition 3 read literally: for *neighbouring data sets* D1, D2, each
    exp(ε/2)-close, I's views k_I(D1), k_I(D2) differ by at most e^ε.  For every t = e^{ε/2} of
    ``ts``, exhaustive and exact over the pairs of :func:`prop3_pairs` that are both t-close:
    is the view ratio (max over values of Q_E(D1)/Q_E(D2) and its inverse) ≤ t² = e^ε?  The
    proof's case (iv) compares both views with "the whole table", but D1 and D2 have different
    whole tables; the ratio can exceed t².  The family's view ratio never exceeds 2 (a count
    c ≥ 1 moves by one), so it can refute only t < √2."""
    pairs = prop3_pairs(sizes)
    per_t: list[dict[str, Any]] = []
    for t in ts:
        close = [(r, w) for tt, r, w in pairs if tt <= t]
        top = max(close, key=lambda x: x[0], default=None)
        per_t.append({"t": t, "e^ε = t²": t * t, "pairs_t_close": len(close),
                      "max_view_ratio": None if top is None else top[0],
                      "holds": top is None or top[0] <= t * t,
                      "worst": None if top is None else top[1]})
    failing = [r for r in per_t if not r["holds"]]
    cex = None
    if failing:
        w = failing[0]
        cex = {**w["worst"], "t": w["t"], "e^ε = t²": w["e^ε = t²"],
               "privacy_loss_over_epsilon": (
                   math.log(float(w["max_view_ratio"])) / (2 * math.log(float(w["t"])))
                   if w["t"] > 1 else "∞ (ε = 0)"),
               "refuted_at_t": [r["t"] for r in failing]}
    return CheckResult(holds=not failing, claim="exp(ε/2)-closeness of neighbouring data sets "
                       "implies ε-DP of I's view (ins15 Proposition 3, case iv)",
                       value=None if not failing else failing[0]["max_view_ratio"],
                       method=Method.EXHAUSTIVE,
                       evidence={"neighbouring_pairs": len(pairs), "class_sizes": list(sizes),
                                 "t_grid": list(ts), "per_t": per_t},
                       counterexample=cex)


def check_add_remove_views(*, sizes: tuple[int, ...] = (2, 3, 4, 5, 6)) -> CheckResult:
    """Thesis §7.3.1 under add/remove with each data set's own release as the view: D contains
    I and is t-close; the neighbouring data set D ∖ {I} releases its own marginal, which is
    the intruder's view of I when I is absent; with I present the view is I's class
    distribution in D.  Exhaustive and exact over two classes of sizes in ``sizes`` and a binary
    confidential attribute (every record as I): is max view ratio ≤ t = e^ε?"""
    worst: tuple[F, dict[str, Any]] | None = None
    above: tuple[F, dict[str, Any]] | None = None  # the worst case with t > 1 (ε > 0)
    cases = 0
    for e1 in sizes:
        for e2 in sizes:
            for a1 in range(e1 + 1):
                for a2 in range(e2 + 1):
                    t = _binary_t([(e1, a1), (e2, a2)])
                    if t is None:
                        continue
                    n, a = e1 + e2, a1 + a2
                    for i_is_a in (True, False):  # I in class 1, with value a or b
                        if (a1 if i_is_a else e1 - a1) == 0:
                            continue
                        rest_a = a - (1 if i_is_a else 0)
                        prior = (F(rest_a, n - 1), F(n - 1 - rest_a, n - 1))
                        post = (F(a1, e1), F(e1 - a1, e1))
                        pairs = [(x, y) for x, y in zip(post, prior, strict=True) if x or y]
                        ratio = None if any(not x or not y for x, y in pairs) else max(
                            max(x / y, y / x) for x, y in pairs)
                        cases += 1
                        ratio_txt: F | str
                        if ratio is None:
                            score, ratio_txt = F(10**9), "∞"
                        else:
                            score, ratio_txt = ratio / t, ratio
                        row = {"class_sizes": (e1, e2), "counts of a": (a1, a2),
                               "I's value": "a" if i_is_a else "b", "t": t,
                               "view ratio": ratio_txt, "ratio over t": score}
                        if worst is None or score > worst[0]:
                            worst = (score, row)
                        if t > 1 and (above is None or score > above[0]):
                            above = (score, row)
    assert worst is not None
    ok = worst[0] <= 1
    return CheckResult(holds=ok, claim="exp(ε)-closeness bounds I's view under add/remove when "
                       "the absent case releases the marginal of D ∖ {I}",
                       value=worst[1]["view ratio"], method=Method.EXHAUSTIVE,
                       evidence={"cases": cases, "class_sizes": list(sizes),
                                 "worst": worst[1],
                                 "worst_with_t_above_1": None if above is None else above[1]},
                       counterexample=None if ok else {
                           **worst[1], "with t > 1": None if above is None else above[1]})


def check_informed_intruder(*, unknown: int = 1) -> CheckResult:
    """Thesis §7.3.2: knowing k−1 values of I's Anatomy class pins I's value: posterior is a
    point mass, at distance ∞ from the prior (t-closeness ⇏ DP for informed intruders)."""
    rel = release_t_close(np.arange(24), 2, 2)
    g = 0
    members = np.flatnonzero(rel.group == g)
    known, target = members[:-unknown], members[-1]  # unknown > 1: a mutant
    remaining = sorted(set(rel.values[rel.group == g].tolist())
                       - set(rel.values[known].tolist()))
    prior = {int(v): F(1, 24) for v in rel.values.tolist()}
    post = {int(remaining[0]): F(1)} if len(remaining) == 1 else {}
    d = distance(post, prior) if post else F(0)
    ok = len(remaining) == 1 and remaining[0] == rel.values[target] and d == math.inf
    return CheckResult(holds=ok, claim="t-closeness does not imply DP for informed intruders",
                       method=Method.EXACT, value=d,
                       evidence={"class_size": len(members), "known": len(known),
                                 "inferred_value": remaining, "true_value":
                                 int(rel.values[target]), "distance_to_prior": d,
                                 "release_t": rel.t},
                       counterexample=None if ok else {"known": len(known),
                                                       "remaining_values": remaining})


# ---- ins15 Proposition 1 ----------------------------------------------------------------
def prop1_instance(n: int, e: int) -> tuple[np.ndarray, np.ndarray]:
    """The extremal instance (the class E of |E| records at value 0, the rest at 1, in a class
    of its own); for |E| = N one class holding every record (values 0 and 1 alternating)."""
    if e < n:
        return stt.worst_case(n, e)
    return np.arange(n) % 2, np.zeros(n, dtype=np.int64)


def prop1_rows() -> list[dict[str, Any]]:
    """Exact t on the instance of each (N, |E|, ε) of
    :data:`~privlab.proofs.tcloseness.grids.PROP1_CASES` vs the printed and derived formulas:
    randomized response (e^ε = q exactly for ε = ln q, else the Fraction of exp ε) and, for
    ε > 0, Laplace and staircase."""
    rows = []
    for mech in stt.MECHANISMS:
        for n, e, spec in gr.PROP1_CASES:
            eps = gr.eps_float(spec)
            if mech != "rr" and eps == 0:
                continue  # Laplace(Δ/ε) and the staircase need ε > 0
            v, g = prop1_instance(n, e)
            if mech == "rr":
                exact_r = gr.eps_exp(spec)
                r = exact_r if exact_r is not None else F(math.exp(eps))
                exact, _ = stt.stochastic_t_rr(v, g, m=2, r=r)
                der, pri = stt.prop1_derived(n, e, r), stt.prop1_printed(n, e, r)
            else:
                exact, _ = stt.stochastic_t(mech, v, g, epsilon=eps)
                der = stt.prop1_derived(n, e, math.exp(eps))
                pri = stt.prop1_printed(n, e, math.exp(eps))
            rows.append({"mechanism": mech, "N": n, "E": e, "epsilon": eps,
                         "exact_t": float(exact), "derived_bound": float(der),
                         "paper_formula": float(pri), "exact_exceeds_paper": exact > pri})
    return rows


def check_ins15_prop_1_printed() -> CheckResult:
    """The printed t = max_E (|E|/N)(1 + (N−|E|−1)e^ε/|E|) bounds the exact stochastic t?
    Exact counterexample: randomized response, e^ε = 2, N = 10, |E| = 2; every row of
    :func:`prop1_rows` (the boundary cases |E| = 1, |E| = N, N = 1, ε = 0 included) is
    compared too."""
    v, g = stt.worst_case(10, 2)
    r = F(2)
    exact, where = stt.stochastic_t_rr(v, g, m=2, r=r)
    printed = stt.prop1_printed(10, 2, r)
    rows = prop1_rows()
    exceeded = [r_ for r_ in rows if r_["exact_exceeds_paper"]]
    holds = exact <= printed and not exceeded
    return CheckResult(holds=holds, claim="ins15 Proposition 1 as printed",
                       method=Method.EXACT, value={"exact": exact, "printed": printed},
                       evidence={"instances": rows,
                                 "rows_exceeding_printed": f"{len(exceeded)}/{len(rows)}",
                                 "N_grid": sorted({n for n, _, _ in gr.PROP1_CASES}),
                                 "E_grid": sorted({e for _, e, _ in gr.PROP1_CASES}),
                                 "epsilon_grid": sorted({s for _, _, s in gr.PROP1_CASES},
                                                        key=gr.eps_float)},
                       counterexample=None if holds else {
                           "mechanism": "randomized response, m = 2", "N": 10,
                           "class": "|E| = 2 records at value 0, others at 1",
                           "exp_epsilon": r, "exact_t": exact, "printed_t": printed,
                           "where": where})


def prop1_derived_cases() -> list[tuple[F, int, int]]:
    """(e^ε, N, |E|) of the attainment part of :func:`check_ins15_prop_1_derived`: every r of
    :data:`~privlab.proofs.tcloseness.grids.PROP1_DERIVED_R`, N = 1 … 12, |E| = 1 … N."""
    return [(r, n, e) for r in gr.PROP1_DERIVED_R
            for n in range(1, gr.PROP1_DERIVED_N_MAX + 1) for e in range(1, n + 1)]


def check_ins15_prop_1_derived(*, shrink: F | int = 1) -> CheckResult:
    """t = max_E (|E| + (N−|E|)e^ε)/N bounds the exact t and is attained (randomized response,
    exact).  Attained: on :func:`prop1_instance` for every (e^ε, N, |E|) of
    :func:`prop1_derived_cases` the exact t equals the bound.  Bounds: on those instances and on
    three random data sets (3 values, up to 3 classes) per e^ε and N.  ``shrink`` < 1 is a
    mutant (a bound shrink times smaller)."""
    rng = np.random.default_rng(1)
    worst = F(0)
    not_attained: list[dict[str, Any]] = []
    instances = 0

    def bound(n: int, g: np.ndarray, r: F) -> F:
        return shrink * max(stt.prop1_derived(n, int((g == c).sum()), r) for c in np.unique(g))

    for r, n, e in prop1_derived_cases():
        v, g = prop1_instance(n, e)
        t, _ = stt.stochastic_t_rr(v, g, m=2, r=r)
        b = bound(n, g, r)
        instances += 1
        worst = max(worst, t / b)
        if t != max(stt.prop1_derived(n, int((g == c).sum()), r) for c in np.unique(g)):
            not_attained.append({"r": r, "N": n, "E": e, "exact_t": t})
    for r in gr.PROP1_DERIVED_R:
        for n in range(1, gr.PROP1_DERIVED_N_MAX + 1):
            for _ in range(3):
                v, g = rng.integers(0, 3, n), rng.integers(0, 3, n)
                t, _ = stt.stochastic_t_rr(v, g, m=3, r=r)
                instances += 1
                worst = max(worst, t / bound(n, g, r))
    ok = worst <= 1 and not not_attained
    return CheckResult(holds=ok, claim="derived bound of Prop. 1",
                       method=Method.PROPERTY, value=worst,
                       counterexample=None if ok else {"max_exact_over_bound": worst,
                                                       "not_attained": not_attained[:5]},
                       evidence={"max_exact_over_bound": worst, "instances": instances,
                                 "exp_epsilon_grid": list(gr.PROP1_DERIVED_R),
                                 "N_grid": _runs(range(1, gr.PROP1_DERIVED_N_MAX + 1)),
                                 "attained_on_every_extremal_instance": not not_attained})


def check_ins15_second_term(*, exponent: int = 2) -> CheckResult:
    """'The second term is always greater than the first': with x = |E|/N, r = e^ε,
    (x + (1−x)r)(x + (1−x)/r) − 1 = x(1−x)(r + 1/r − 2) ≥ 0 (sympy)."""
    x, r = sp.symbols("x r", positive=True)
    diff = sp.factor(sp.expand((x + (1 - x) * r) * (x + (1 - x) / r) - 1))
    target = x * (1 - x) * (r - 1) ** exponent / r  # exponent 1: a mutant (sign-indefinite)
    ok = sp.simplify(diff - target) == 0
    return CheckResult(holds=ok, claim="second term ≥ first term", method=Method.SYMBOLIC,
                       value=str(diff), evidence={"difference": str(diff),
                                                  "nonnegative_on": "0 < x ≤ 1, r > 0"},
                       counterexample=None if ok else {"difference": str(diff),
                                                       "claimed": str(target)})
