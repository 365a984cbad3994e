"""Exact checkers for t-closeness releases (thesis §7.2 Definition 15 / Proposition 10,
ins15 Definition 4 / Proposition 2, Li et al. 2007 EMD t-closeness, k-anonymity, l-diversity).

Definition 15: d(D1, D2) = max_S max{P1(S)/P2(S), P2(S)/P1(S)} over all sets S, with 0/0 := 0
and x/0 := ∞ (x > 0).  Proposition 10: for discrete laws the maximum over singletons suffices
(the mediant inequality Σa/Σc ≤ max a/c).  :func:`distance` computes the singleton form with
Fractions; :func:`distance_bruteforce` takes the maximum over *every* subset (small supports)
so that Proposition 10 can be checked rather than assumed.

For a release, the class distribution Q_E and the global P are empirical, so with counts
n_Ej, class size e and global counts c_j: Q_E(j)/P(j) = n_Ej·N/(e·c_j) — a ratio of integers.
:func:`achieved_t` finds max_E d(Q_E, P) exactly: floats locate the candidates within a
relative 1e−9 of the float maximum, and the maximum among those is taken in Fractions.

EMD (ordered distance, Li–Li–Venkatasubramanian ICDE 2007 §4.3): with m ordered values,
EMD(P, Q) = (1/(m−1)) Σ_i |Σ_{j≤i} (p_j − q_j)|, computed here as one exact Fraction.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from privlab.errors import InvalidParameter
from privlab.types import CheckResult, Method

Ratio = Fraction | float  # float only for math.inf
INF = math.inf


def _ratio(a: Fraction, b: Fraction) -> Ratio:
    if b == 0:
        return Fraction(0) if a == 0 else INF
    return a / b


def _as_dist(p: Mapping[Any, Any] | Sequence[Any]) -> dict[Any, Fraction]:
    items = p.items() if isinstance(p, Mapping) else enumerate(p)
    out = {k: Fraction(v) for k, v in items}
    if any(v < 0 for v in out.values()):
        raise InvalidParameter(f"distribution {p!r} has a negative mass")
    return out


def distance(p: Mapping[Any, Any] | Sequence[Any], q: Mapping[Any, Any] | Sequence[Any]) -> Ratio:
    """Definition 15 by Proposition 10: max over support points of max(p/q, q/p) (exact)."""
    dp, dq = _as_dist(p), _as_dist(q)
    best: Ratio = Fraction(0)
    for x in set(dp) | set(dq):
        a, b = dp.get(x, Fraction(0)), dq.get(x, Fraction(0))
        best = max(best, _ratio(a, b), _ratio(b, a))
    return best


def distance_bruteforce(p: Mapping[Any, Any] | Sequence[Any],
                        q: Mapping[Any, Any] | Sequence[Any], *, max_support: int = 16) -> Ratio:
    """Definition 15 literally: the maximum over all 2^n subsets S of the joint support
    (:func:`_subset_max`)."""
    dp, dq = _as_dist(p), _as_dist(q)
    sup = sorted(set(dp) | set(dq), key=repr)
    if len(sup) > max_support:
        raise InvalidParameter(f"support size {len(sup)} exceeds max_support={max_support}")
    return _subset_max(tuple(dp.get(x, Fraction(0)) for x in sup),
                       tuple(dq.get(x, Fraction(0)) for x in sup))


@functools.lru_cache(maxsize=4096)
def _subset_max(a: tuple[Fraction, ...], b: tuple[Fraction, ...]) -> Ratio:
    """max over all subsets S of max{P1(S)/P2(S), P2(S)/P1(S)} (0/0 := 0, x/0 := ∞) for the
    masses ``a`` = P1, ``b`` = P2 of the joint support, exactly, in integers: with D_a, D_b
    the least common denominators and A_i = a_i·D_a, B_i = b_i·D_b, every subset has
    P1(S)/P2(S) = (ΣA·D_b)/(ΣB·D_a), and the sums of all 2^n subsets are built by doubling.
    Memoised per process (the ledger checks the same pairs in several claims and mutants);
    the result is a Fraction or ``math.inf`` (immutable)."""
    da = math.lcm(*(x.denominator for x in a))
    db = math.lcm(*(x.denominator for x in b))
    sa, sb = [0], [0]
    for x, y in zip(a, b, strict=True):
        xi, yi = x.numerator * (da // x.denominator), y.numerator * (db // y.denominator)
        sa += [s + xi for s in sa]
        sb += [s + yi for s in sb]
    num, den = 0, 1  # the maximum so far, num/den (0 for 0/0)
    for x, y in zip(sa, sb, strict=True):
        if (x == 0) != (y == 0):
            return INF
        if x == 0:
            continue
        u, v = x * db, y * da  # P1(S)/P2(S) = u/v
        if u * den > num * v:
            num, den = u, v
        if v * den > num * u:
            num, den = v, u
    return Fraction(num, den)


def check_prop_10(p: Any, q: Any, *, claim: str = "Proposition 10") -> CheckResult:
    """The singleton maximum equals the maximum over all subsets (exact, exhaustive over S)."""
    single, brute = distance(p, q), distance_bruteforce(p, q)
    ok = single == brute
    return CheckResult(holds=ok, claim=claim, value=single, method=Method.EXHAUSTIVE,
                       evidence={"singleton_max": single, "all_subsets_max": brute},
                       counterexample=None if ok else {"p": p, "q": q})


def crosstab(labels: Any, groups: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(class ids, label values, counts[class, label]) of two aligned 1-D arrays."""
    lab, grp = np.asarray(labels), np.asarray(groups)
    if lab.shape != grp.shape or lab.ndim != 1 or lab.size == 0:
        raise InvalidParameter(f"labels and groups must be aligned non-empty 1-D arrays, got "
                               f"shapes {lab.shape} and {grp.shape}")
    gu, gi = np.unique(grp, return_inverse=True)
    lu, li = np.unique(lab, return_inverse=True)
    cnt = np.bincount(gi * len(lu) + li, minlength=len(gu) * len(lu)).reshape(len(gu), len(lu))
    return gu, lu, cnt


def achieved_t(labels: Any, groups: Any) -> tuple[Ratio, dict[str, Any]]:
    """max over classes E of d(Q_E, P) for the empirical laws of ``labels`` (exact)."""
    gu, lu, cnt = crosstab(labels, groups)
    n = int(cnt.sum())
    e = cnt.sum(axis=1)
    c = cnt.sum(axis=0)
    if (cnt == 0).any():
        i, j = (int(x) for x in np.argwhere(cnt == 0)[0])
        return INF, {"class": gu[i].item(), "label": lu[j].item(), "class_count": 0,
                     "class_size": int(e[i]), "global_count": int(c[j]), "direction": "P/Q"}
    num = cnt * n  # Q/P = num/den
    den = np.outer(e, c)
    up = num / den
    down = den / num
    best: tuple[Fraction, dict[str, Any]] = (Fraction(0), {})
    for arr, direction, flip in ((up, "Q/P", False), (down, "P/Q", True)):
        m = arr.max()
        for i, j in np.argwhere(arr >= m * (1 - 1e-9)):
            a, b = int(num[i, j]), int(den[i, j])
            r = Fraction(b, a) if flip else Fraction(a, b)
            if r > best[0]:
                best = (r, {"class": gu[i].item(), "label": lu[j].item(),
                            "class_count": int(cnt[i, j]), "class_size": int(e[i]),
                            "global_count": int(c[j]), "direction": direction})
    return best


def check_t_closeness(labels: Any, groups: Any, t: Any, *,
                      claim: str = "release is t-close (Definition 15)") -> CheckResult:
    """Every class's distribution of ``labels`` (buckets) within distance t of the global one."""
    tf = Fraction(repr(t)) if isinstance(t, float) else Fraction(t)
    val, where = achieved_t(labels, groups)
    ok = val <= tf
    return CheckResult(holds=ok, claim=claim, value=val, method=Method.EXACT,
                       evidence={"t": tf, "achieved_t": val, "worst": where},
                       counterexample=None if ok else where)


def emd_ordered(labels: Any, groups: Any) -> tuple[Fraction, Any]:
    """max over classes of the ordered-distance EMD between Q_E and P (exact Fraction)."""
    gu, _lu, cnt = crosstab(labels, groups)
    m = cnt.shape[1]
    if m == 1:
        return Fraction(0), gu[0].item()
    n = int(cnt.sum())
    e = cnt.sum(axis=1)
    cum_q = np.cumsum(cnt, axis=1)[:, :-1]  # class cumulative counts
    cum_p = np.cumsum(cnt.sum(axis=0))[:-1]
    diff = np.abs(cum_p[None, :] * e[:, None] - cum_q * n)  # |e·Cp − N·Cq| = N·e·|ΣΔ|
    tot = diff.sum(axis=1)
    vals = [Fraction(int(tot[i]), int(n * e[i] * (m - 1))) for i in range(len(gu))]
    best = max(vals)
    i = vals.index(best)
    return best, gu[i].item()


def check_emd_t_closeness(values: Any, groups: Any, t: Any) -> CheckResult:
    """EMD t-closeness (ordered distance over the distinct values, Li et al. 2007)."""
    tf = Fraction(repr(t)) if isinstance(t, float) else Fraction(t)
    val, worst = emd_ordered(values, groups)
    ok = val <= tf
    return CheckResult(holds=ok, claim="release is EMD t-close (ordered distance)", value=val,
                       method=Method.EXACT, evidence={"t": tf, "emd": val, "worst_class": worst},
                       counterexample=None if ok else {"class": worst, "emd": val})


def check_k_anonymity(groups: Any, k: int) -> CheckResult:
    """Every class (group id) holds at least k records."""
    _, sizes = np.unique(np.asarray(groups), return_counts=True)
    kmin = int(sizes.min())
    ok = kmin >= k
    return CheckResult(holds=ok, claim=f"{k}-anonymity of the group ids", value=kmin,
                       method=Method.EXACT, evidence={"k": k, "min_class_size": kmin,
                                                      "classes": len(sizes)},
                       counterexample=None if ok else {"min_class_size": kmin})


def check_l_diversity(values: Any, groups: Any, l: int) -> CheckResult:  # noqa: E741
    """Distinct l-diversity: every class holds at least l distinct confidential values."""
    gu, _lu, cnt = crosstab(values, groups)
    distinct = (cnt > 0).sum(axis=1)
    lmin = int(distinct.min())
    ok = lmin >= l
    return CheckResult(holds=ok, claim=f"distinct {l}-diversity", value=lmin, method=Method.EXACT,
                       evidence={"l": l, "min_distinct": lmin},
                       counterexample=None if ok else {"class": gu[int(np.argmin(distinct))].item(),
                                                       "distinct": lmin})


def check_release(release: Any) -> tuple[CheckResult, ...]:
    """t-closeness on buckets, k-anonymity with k = ⌊N/e⌋, and that the release keeps the
    multiset of rows (each record in exactly one class) — all exact."""
    t_res = check_t_closeness(release.bucket, release.group, release.t)
    k_res = check_k_anonymity(release.group, release.k)
    e = len(release.plan.class_sizes)
    sizes = np.bincount(release.group, minlength=e)
    part_ok = (len(release.group) == release.plan.n and release.group.min() >= 0
               and release.group.max() < e and np.array_equal(sizes, release.plan.class_sizes))
    part = CheckResult(holds=bool(part_ok), claim="every record in exactly one class of the "
                       "planned size", value=sizes.tolist() if e <= 50 else None,
                       method=Method.EXACT, evidence={"classes": e})
    return t_res, k_res, part
