"""Exact t-closeness checkers: Definition 15 / Proposition 10, achieved t, EMD, k, l.

Independent references: plain Fraction loops over classes and values; golden values by hand."""

from __future__ import annotations

# ruff: noqa: B905
import itertools
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.mechanisms.tcloseness.bucketization import release_t_close
from privlab.verify.tcloseness import (
    achieved_t,
    check_emd_t_closeness,
    check_k_anonymity,
    check_l_diversity,
    check_prop_10,
    check_t_closeness,
    distance,
    distance_bruteforce,
    emd_ordered,
)

F = Fraction


def test_distance_golden():
    # Table 7.5's class P1: (1/2, 1/4, 1/4) against (1/3, 1/3, 1/3): max(3/2, 4/3) = 3/2
    assert distance([F(1, 2), F(1, 4), F(1, 4)], [F(1, 3)] * 3) == F(3, 2)
    assert distance([1, 0], [F(1, 2), F(1, 2)]) == float("inf")
    assert distance({"a": 1}, {"a": 1}) == 1
    # both zero on a point: 0/0 := 0 does not raise the maximum
    assert distance([F(1, 2), F(1, 2), 0], [F(1, 4), F(3, 4), 0]) == 2


dist = st.lists(st.integers(0, 6), min_size=1, max_size=7).filter(lambda v: sum(v) > 0)


@settings(max_examples=120, deadline=None)
@given(a=dist, b=dist)
def test_prop_10_all_subsets(a, b):
    m = max(len(a), len(b))
    a, b = a + [0] * (m - len(a)), b + [0] * (m - len(b))
    p = [F(x, sum(a)) for x in a]
    q = [F(x, sum(b)) for x in b]
    res = check_prop_10(p, q)
    assert res.holds, res.evidence
    # the subset maximum is never below any singleton ratio (independent direction)
    assert distance_bruteforce(p, q) >= max(
        (F(x) / y for x, y in zip(p, q) if y > 0), default=F(0))


def naive_achieved(labels, groups):
    n = len(labels)
    best = F(0)
    for g in set(groups):
        mem = [lab for lab, h in zip(labels, groups) if h == g]
        for v in set(labels):
            q, p = F(mem.count(v), len(mem)), F(labels.count(v), n)
            if q == 0:
                return float("inf")
            best = max(best, q / p, p / q)
    return best


@settings(max_examples=80, deadline=None)
@given(data=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=40))
def test_achieved_t_matches_naive(data):
    labels = [d[0] for d in data]
    groups = [d[1] for d in data]
    val, _ = achieved_t(np.array(labels), np.array(groups))
    assert val == naive_achieved(labels, groups)


def naive_emd(values, groups):
    vs = sorted(set(values))
    m = len(vs)
    if m == 1:
        return F(0)
    n = len(values)
    best = F(0)
    for g in set(groups):
        mem = [v for v, h in zip(values, groups) if h == g]
        acc, tot = F(0), F(0)
        for v in vs[:-1]:
            acc += F(values.count(v), n) - F(mem.count(v), len(mem))
            tot += abs(acc)
        best = max(best, tot / (m - 1))
    return best


@settings(max_examples=60, deadline=None)
@given(data=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 2)), min_size=1, max_size=30))
def test_emd_matches_naive(data):
    v = [d[0] for d in data]
    g = [d[1] for d in data]
    assert emd_ordered(np.array(v), np.array(g))[0] == naive_emd(v, g)


def test_emd_golden():
    # one class holding the lowest half of 0..3: cumulative diffs 1/4 − 1/2, 1/2 − 1, 3/4 − 1
    v = np.array([0, 1, 2, 3])
    g = np.array([0, 0, 1, 1])
    assert emd_ordered(v, g)[0] == (F(1, 4) + F(1, 2) + F(1, 4)) / 3
    assert not check_emd_t_closeness(v, g, 0.3).holds


def test_k_and_l():
    g = np.array([0, 0, 0, 1, 1])
    v = np.array([1, 1, 2, 3, 4])
    assert check_k_anonymity(g, 2).holds and not check_k_anonymity(g, 3).holds
    assert check_l_diversity(v, g, 2).holds and not check_l_diversity(v, g, 3).holds


def test_broken_control_caught():
    """A release whose groups are re-cut by the confidential order violates t; the checker
    names the class and the bucket."""
    rel = release_t_close(np.arange(60.0), 2, 2)
    assert check_t_closeness(rel.bucket, rel.group, 2).holds
    bad_groups = np.arange(60) // 10  # contiguous in C: each class inside one bucket
    res = check_t_closeness(rel.bucket, bad_groups, 2)
    assert not res.holds and res.counterexample is not None and res.value == float("inf")
    # a milder break: move one record between two classes to exceed t = 3/2 exactly
    rel = release_t_close(np.arange(12.0), 1.5, 1)
    g = rel.group.copy()
    i = int(np.flatnonzero((rel.group == 0) & (rel.bucket == 1))[0])
    g[i] = 1
    res = check_t_closeness(rel.bucket, g, 1.5)
    assert not res.holds and res.value > F(3, 2)


def test_fraction_threshold_is_exact():
    # achieved t = 3/2 exactly: 1.5 passes, 1.4999999999 fails
    rel = release_t_close(np.arange(12.0), 1.5, 1)
    assert check_t_closeness(rel.bucket, rel.group, 1.5).holds
    assert not check_t_closeness(rel.bucket, rel.group, 1.4999999999).holds


def test_exhaustive_subsets_small_release():
    rel = release_t_close(np.arange(12.0), 1.5, 1)
    n = 12
    for g in range(rel.n_groups):
        mem = rel.bucket[rel.group == g]
        q = [F(int((mem == j).sum()), len(mem)) for j in range(3)]
        p = [F(int((rel.bucket == j).sum()), n) for j in range(3)]
        best = max(max(sum(q[i] for i in s) / sum(p[i] for i in s),
                       sum(p[i] for i in s) / sum(q[i] for i in s))
                   for r in (1, 2, 3) for s in itertools.combinations(range(3), r))
        assert best <= F(3, 2)
