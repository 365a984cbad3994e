"""The integer, memoised brute force of Definition 15 (``distance_bruteforce`` /
``_subset_max``) against the former Fraction loop over ``itertools.combinations``, kept
here as the oracle: same value and type (Fraction or ``math.inf``) on random laws with
zeros, disjoint supports, mapping inputs and large denominators."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np

from privlab.verify import tcloseness as tc


def old_distance_bruteforce(p, q, *, max_support=16):
    dp, dq = tc._as_dist(p), tc._as_dist(q)
    sup = sorted(set(dp) | set(dq), key=repr)
    a = [dp.get(x, Fraction(0)) for x in sup]
    b = [dq.get(x, Fraction(0)) for x in sup]
    best = Fraction(0)
    for r in range(len(sup) + 1):
        for s in itertools.combinations(range(len(sup)), r):
            pa, pb = sum((a[i] for i in s), Fraction(0)), sum((b[i] for i in s), Fraction(0))
            best = max(best, tc._ratio(pa, pb), tc._ratio(pb, pa))
    return best


def _same(x, y):
    assert type(x) is type(y) and x == y, (x, y)


def _cases():
    rng = np.random.default_rng(2026)
    for _ in range(600):
        m = int(rng.integers(1, 8))
        hi = int(rng.choice([2, 5, 50, 10**6]))
        a, b = rng.integers(0, hi, m), rng.integers(0, hi, m)
        if rng.random() < 0.8:  # mostly proper laws; some all-zero / unnormalised ones
            a[0] += 1
            b[int(rng.integers(0, m))] += 1
            yield ([Fraction(int(x), int(a.sum())) for x in a],
                   [Fraction(int(x), int(b.sum())) for x in b])
        else:
            yield ([Fraction(int(x), int(rng.integers(1, 30))) for x in a],
                   [Fraction(int(x), int(rng.integers(1, 30))) for x in b])


def test_bruteforce_equals_the_fraction_loop():
    tc._subset_max.cache_clear()
    kinds = set()
    for p, q in _cases():
        new, old = tc.distance_bruteforce(p, q), old_distance_bruteforce(p, q)
        _same(new, old)
        _same(tc.distance_bruteforce(q, p), old)  # symmetric, and a memo hit for (p, q)
        kinds.add(type(old))
    assert kinds == {Fraction, float}  # finite and infinite distances both covered


def test_bruteforce_mappings_and_edge_cases():
    cases = [({"a": Fraction(1, 3), "b": Fraction(2, 3)}, {"b": Fraction(1, 2), "c": 0.5}),
             ({1: 1}, {1: 1}), ([0, 0], [0, 0]), ([], []), ([Fraction(1, 2), 0.5], [1, 0]),
             ([0, 1], [Fraction(1, 2), Fraction(1, 2)])]
    for p, q in cases:
        _same(tc.distance_bruteforce(p, q), old_distance_bruteforce(p, q))
    assert tc.distance_bruteforce([0, 1], [Fraction(1, 2), Fraction(1, 2)]) == math.inf
    assert tc.distance_bruteforce([Fraction(1, 3), Fraction(2, 3)], [Fraction(2, 3),
                                                                    Fraction(1, 3)]) == 2
