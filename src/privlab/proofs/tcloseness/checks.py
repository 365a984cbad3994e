"""Checks behind the claims of thesis ch.7 and ins15 (see ``thesis_ch7`` and ``ins15``)."""

from __future__ import annotations

# ruff: noqa: E741  (l: the seeds' name)
import functools
import math
from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp

from privlab.errors import InvalidParameter
from privlab.mechanisms.tcloseness import counts as tc
from privlab.mechanisms.tcloseness.bucketization import partition_alg_7_1, release_t_close
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
SWEEP_TS: tuple[Any, ...] = (1, 1.2, 1.5, 2, 2.5, 3, 4, 5)
"""t values of the §7.2.2 sweeps: the boundary t = 1 (1-closeness, named in §7.2.1), the
thesis's 1.5 (Table 7.5), integers and halves up to 5."""
SWEEP_N = 120


# ---- Algorithm 7.1 --------------------------------------------------------------------------
def check_alg_7_1(*, max_offset: int = 1) -> CheckResult:
    """Exhaustive N ≤ 60, 1 ≤ k ≤ N: a partition, classes contiguous in C, sizes in [k, 2k−1]
    (``max_offset`` = 2 is a mutant: sizes ≤ 2k − 2)."""
    bad = None
    cases = 0
    for n in range(1, 61):
        vals = np.arange(n)
        for k in range(1, n + 1):
            g = partition_alg_7_1(vals, k)
            sizes = np.bincount(g)
            contiguous = all(np.ptp(np.flatnonzero(g == c)) == s - 1 for c, s in enumerate(sizes))
            cases += 1
            if (sizes.sum() != n or sizes.min() < k or sizes.max() > 2 * k - max_offset
                    or not contiguous):
                bad = {"N": n, "k": k, "sizes": sizes.tolist()}
                break
        if bad:
            break
    return CheckResult(holds=bad is None, claim="Algorithm 7.1 yields a partition into "
                       "C-contiguous classes of k … 2k−1 records", method=Method.EXHAUSTIVE,
                       value=cases, evidence={"cases": cases, "N": "1..60", "k": "1..N"},
                       counterexample=bad)


def _opt_sse(x: np.ndarray, k: int) -> float:
    """Minimum SSE over partitions into C-contiguous classes of ≥ k records (dynamic prog.;
    optimal univariate k-partitions are contiguous with sizes k … 2k−1)."""
    n = len(x)
    cs, cs2 = np.r_[0, np.cumsum(x)], np.r_[0, np.cumsum(x * x)]
    best = np.full(n + 1, np.inf)
    best[0] = 0.0
    for j in range(k, n + 1):
        for s in range(k, min(2 * k - 1, j) + 1):
            i = j - s
            sse = cs2[j] - cs2[i] - (cs[j] - cs[i]) ** 2 / s
            best[j] = min(best[j], best[i] + sse)
    return float(best[n])


def check_alg_7_1_optimal() -> CheckResult:
    """'Optimal partitioning' read as minimum within-class SSE of C: a counterexample."""
    x = np.array([0.0, 1.0, 2.0, 3.0, 100.0])
    k = 2
    g = partition_alg_7_1(x, k)
    alg = float(sum(((x[g == c] - x[g == c].mean()) ** 2).sum() for c in np.unique(g)))
    opt = _opt_sse(x, k)
    return CheckResult(holds=alg <= opt, claim="Algorithm 7.1 minimises the within-class SSE",
                       method=Method.EXACT, value={"alg_7_1": alg, "optimum": opt},
                       evidence={"values": x.tolist(), "k": k, "alg_classes": g.tolist(),
                                 "optimal_classes": "{0,1,2},{3,100}"},
                       counterexample={"values": x.tolist(), "k": k, "sse_alg": alg,
                                       "sse_opt": opt})


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
    cex = None
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


def check_printed_rules() -> CheckResult:
    """The printed count rule yields a valid t-close partition for every (N, t, l)."""
    rows = rounding_sweep()
    first = next((r for r in rows if r["first_printed_failure"]), None)
    fails = sum(r["cases"] - r["printed_ok"] for r in rows)
    total = sum(r["cases"] for r in rows)
    cx = None if first is None else {"t": first["t"], **first["first_printed_failure"]}
    return CheckResult(holds=fails == 0, claim="printed per-class count rules always add up",
                       method=Method.EXACT, value=f"{fails}/{total} cases fail",
                       evidence={"sweep": f"N ≤ {SWEEP_N}, t ∈ {list(SWEEP_TS)}, all l",
                                 "failures": fails, "cases": total}, counterexample=cx)


def check_construction(*, t_shrink: float = 0.0) -> CheckResult:
    """privlab's construction: every (N ≤ 60, t, l) gives a verified release or a proof
    (exact max-flow) that no partition with these margins exists.  ``t_shrink`` (a mutant)
    claims the releases are (t − t_shrink)-close."""
    from types import SimpleNamespace

    rng = np.random.default_rng(7)
    made = refused = 0
    for t in SWEEP_TS:
        b = tc.n_buckets(t)
        for n in range(b * b, 61):
            for l in tc.l_range(n, b):
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
                                 "sweep": f"N ≤ 60, t ∈ {list(SWEEP_TS)}, all l"})


def check_l_range(*, offset: int = 1) -> CheckResult:
    """l ≤ ⌊N/b²⌋ is necessary: for l = ⌊N/b²⌋ + 1 no partition exists (N ≤ 80, integer t).
    ``offset`` = 0 is a mutant (l = ⌊N/b²⌋ claimed infeasible)."""
    for t in (1, 2, 3, 4):
        b = t + 1
        for n in range(b * b, 81):
            l = n // (b * b) + offset
            if b * l <= n and tc.solve_counts(n, F(t), l, b) is not None:
                return CheckResult(holds=False, claim="l range", counterexample={
                    "N": n, "t": t, "l": l})
    return CheckResult(holds=True, claim="l ≤ ⌊N/(t+1)²⌋ is necessary", method=Method.EXACT,
                       value="N ≤ 80, t ∈ {1,2,3,4}",
                       evidence={"reason": "a class of ⌊N/(bl)⌋ < b records misses a bucket"})


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
    """ins15 §6.2 as extracted: ⌈e_i p_i t⌉ records of every other bucket, the class completed
    with e_i − t⌈e_i p_i t⌉ of its own."""
    n, t = 12, 2
    e, p = 4, F(1, 3)
    take = math.ceil(e * p * t)
    own = e - t * take
    return CheckResult(holds=own >= 0, claim="ins15's printed count rule gives counts ≥ 0",
                       method=Method.EXACT, value=own,
                       evidence={"N": n, "t": t, "e_i": e, "p": p, "per_other_bucket": take,
                                 "own_bucket": own},
                       counterexample={"N": n, "t": t, "own_bucket_count": own})


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


def check_uninformed_add_remove(*, shrink: float = 1.0) -> CheckResult:
    """Thesis §7.3.1 (I in D vs I absent, prior fixed): posterior/prior ≤ t for every record."""
    worst = F(0)
    cases = 0
    for t in (1.5, 2, 3, 5):
        b = tc.n_buckets(t)
        for n in range(b * b, 61, 3):
            rel = release_t_close(np.arange(n), t, 1)
            val, _ = achieved_t(rel.bucket, rel.group)
            cases += 1
            worst = max(worst, F(val) / (F(repr(float(t))) * F(repr(shrink))))
    ok = worst <= 1  # shrink < 1: a mutant (a bound below t)
    return CheckResult(holds=ok, claim="exp(ε)-closeness bounds the uninformed "
                       "posterior/prior ratio by e^ε", method=Method.PROPERTY, value=worst,
                       evidence={"releases": cases, "max_ratio_over_t": worst},
                       counterexample=None if ok else {"max_ratio_over_bound": worst})


def check_substitute_thesis() -> CheckResult:
    """Thesis §7.3 read under substitution: two neighbouring data sets may place I in classes
    E1, E2; exp(ε)-closeness bounds Q_E1/Q_E2 by e^ε?  Table 7.6 gives t²."""
    t = 2
    _, rows = table_masses(t)
    ratio = rows[0][0] / rows[1][0]
    built = pairwise_view_ratio(36, t, 1)
    return CheckResult(holds=ratio <= t, claim="exp(ε)-closeness ⇒ ε-DP under substitution",
                       method=Method.EXACT, value=ratio,
                       evidence={"t": t, "table_7_6_ratio_E1_E2_on_B1": ratio,
                                 "construction_N36_max_class_ratio": built},
                       counterexample={"t": t, "Q_E1(B1)": rows[0][0], "Q_E2(B1)": rows[1][0],
                                       "ratio": ratio, "epsilon_needed": "2 ln t"})


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


def check_ins15_prop_3(*, sizes: tuple[int, ...] = (2, 3, 4, 5, 6)) -> CheckResult:
    """ins15 Proposition 3 read literally: for *neighbouring data sets* D1, D2, each
    exp(ε/2)-close, I's views k_I(D1), k_I(D2) differ by at most e^ε.  Exhaustive and exact
    over two equivalence classes of sizes e1, e2 ∈ ``sizes``, a binary confidential attribute
    and substitution of one record of I's class other than I's (so I ∈ D1 and I ∈ D2, case
    (iv); the partition is unchanged): t is the smallest value for which both D1 and D2 are
    t-close, e^ε = t², and the view ratio is max over values of Q_E(D1)/Q_E(D2).  The proof's
    case (iv) compares both views with "the whole table", but D1 and D2 have different whole
    tables; the ratio can exceed t²."""
    worst: tuple[F, dict[str, Any]] | None = None
    cases = 0
    for e1 in sizes:
        for e2 in sizes:
            for a1 in range(e1 + 1):
                for a2 in range(e2 + 1):
                    for step in (-1, 1):
                        b1 = a1 + step
                        if not 0 <= b1 <= e1:
                            continue
                        t1, t2 = _binary_t([(e1, a1), (e2, a2)]), _binary_t([(e1, b1), (e2, a2)])
                        if t1 is None or t2 is None:
                            continue
                        t = max(t1, t2)
                        q1, q2 = (F(a1, e1), F(e1 - a1, e1)), (F(b1, e1), F(e1 - b1, e1))
                        if 0 in q1 or 0 in q2:
                            continue
                        ratio = max(max(x / y, y / x) for x, y in zip(q1, q2, strict=True))
                        cases += 1
                        score = ratio / t**2
                        if worst is None or score > worst[0]:
                            worst = (score, {"class_sizes": (e1, e2), "D1 counts of a": (a1, a2),
                                             "D2 counts of a": (b1, a2), "t": t,
                                             "e^ε = t²": t**2, "view ratio": ratio})
    assert worst is not None
    ok = worst[0] <= 1
    cex = None
    if not ok:
        w = worst[1]
        cex = {**w, "privacy_loss_over_epsilon":
               math.log(float(w["view ratio"])) / (2 * math.log(float(w["t"])))}
    return CheckResult(holds=ok, claim="exp(ε/2)-closeness of neighbouring data sets implies "
                       "ε-DP of I's view (ins15 Proposition 3, case iv)", value=worst[0],
                       method=Method.EXHAUSTIVE,
                       evidence={"neighbouring_pairs": cases, "class_sizes": list(sizes),
                                 "max_view_ratio_over_t^2": worst[0], "worst": worst[1]},
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
def prop1_rows() -> list[dict[str, Any]]:
    """Exact t on the worst-case instance and on random instances vs the two formulas."""
    rows = []
    for mech in stt.MECHANISMS:
        for n, e, eps in ((10, 2, 1.0), (20, 5, 0.5), (6, 3, 2.0)):
            v, g = stt.worst_case(n, e)
            if mech == "rr":
                r = F(math.exp(eps))
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
    """The printed t = max_E (|E|/N)(1 + (N−|E|−1)e^ε/|E|) bounds the exact stochastic t."""
    v, g = stt.worst_case(10, 2)
    r = F(2)
    exact, where = stt.stochastic_t_rr(v, g, m=2, r=r)
    printed = stt.prop1_printed(10, 2, r)
    rows = prop1_rows()
    return CheckResult(holds=exact <= printed, claim="ins15 Proposition 1 as printed",
                       method=Method.EXACT, value={"exact": exact, "printed": printed},
                       evidence={"instances": rows},
                       counterexample={"mechanism": "randomized response, m = 2", "N": 10,
                                       "class": "|E| = 2 records at value 0, others at 1",
                                       "exp_epsilon": r, "exact_t": exact,
                                       "printed_t": printed, "where": where})


def check_ins15_prop_1_derived(*, shrink: F | int = 1) -> CheckResult:
    """t = max_E (|E| + (N−|E|)e^ε)/N bounds the exact t (randomized response, 300 random
    instances, exact) and is attained (worst case, exact)."""
    rng = np.random.default_rng(1)
    worst = F(0)
    for _ in range(300):
        n = int(rng.integers(2, 13))
        v = rng.integers(0, 3, n)
        g = rng.integers(0, 3, n)
        r = F(int(rng.integers(1, 30)), int(rng.integers(1, 6))) + 1
        t, _ = stt.stochastic_t_rr(v, g, m=3, r=r)
        bound = shrink * max(stt.prop1_derived(n, int((g == c).sum()), r)
                             for c in np.unique(g))  # shrink < 1: a mutant
        worst = max(worst, t / bound)
    v, g = stt.worst_case(10, 2)
    attained = stt.stochastic_t_rr(v, g, m=2, r=F(2))[0] == stt.prop1_derived(10, 2, F(2))
    ok = worst <= 1 and attained
    return CheckResult(holds=ok, claim="derived bound of Prop. 1",
                       method=Method.PROPERTY, value=worst,
                       counterexample=None if ok else {"max_exact_over_bound": worst},
                       evidence={"max_exact_over_bound": worst, "instances": 300,
                                 "attained_worst_case": attained})


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
