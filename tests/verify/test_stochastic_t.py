"""Stochastic t-closeness (ins15 Def. 3, Prop. 1): exact t vs the printed and derived formulas.

Independent references: the derived bound (|E| + (N−|E|)e^ε)/N by hand; a dense grid of the
float mixture densities (privlab Laplace/Staircase pdf) for the continuous mechanisms."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import InvalidParameter
from privlab.mechanisms.noise.laplace import Laplace
from privlab.verify.stochastic_t import (
    prop1_derived,
    prop1_first_term,
    prop1_printed,
    stochastic_t,
    stochastic_t_laplace,
    stochastic_t_rr,
    stochastic_t_staircase,
    worst_case,
)


def test_rr_worst_case_golden():
    v, g = worst_case(10, 2)
    t, _ = stochastic_t_rr(v, g, m=2, r=Fraction(2))
    assert t == Fraction(2 + 8 * 2, 10)  # by hand: (|E| + (N − |E|)r)/N
    assert prop1_printed(10, 2, Fraction(2)) == Fraction(8, 5) < t


@settings(max_examples=60, deadline=None)
@given(data=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), min_size=2, max_size=12),
       r=st.fractions(min_value=1, max_value=8, max_denominator=5))
def test_rr_exact_t_below_derived_bound(data, r):
    v = np.array([d[0] for d in data])
    g = np.array([d[1] for d in data])
    t, _ = stochastic_t_rr(v, g, m=4, r=r)
    n = len(v)
    bound = max(prop1_derived(n, int((g == c).sum()), r) for c in np.unique(g))
    assert t <= bound


def test_laplace_matches_grid_and_bound():
    rng = np.random.default_rng(3)
    v = rng.uniform(0, 1, 7)
    g = np.array([0, 0, 1, 1, 1, 2, 2])
    t, _ = stochastic_t_laplace(v, g, epsilon=1.0)
    lap = Laplace(epsilon=1.0)
    x = np.linspace(-15, 16, 60001)
    dens = lap.pdf(x[None, :] - v[:, None])
    tot = dens.mean(axis=0)
    grid = max(max((dens[g == c].mean(0) / tot).max(), (tot / dens[g == c].mean(0)).max())
               for c in range(3))
    assert grid <= float(t) * (1 + 1e-9)
    assert grid >= float(t) * (1 - 1e-3)
    assert float(t) <= max(prop1_derived(7, e, math.e) for e in (2, 3)) * (1 + 1e-12)


def test_worst_case_attains_derived_for_all_mechanisms():
    for n, e, eps in [(10, 2, 1.0), (7, 3, 0.5), (20, 5, 2.0)]:
        v, g = worst_case(n, e)
        d = prop1_derived(n, e, math.exp(eps))
        assert float(stochastic_t_laplace(v, g, epsilon=eps)[0]) == pytest.approx(d, rel=1e-12)
        assert stochastic_t_staircase(v, g, epsilon=eps)[0] == pytest.approx(d, rel=1e-9)
        assert d > prop1_printed(n, e, math.exp(eps))


def test_second_term_dominates_first():
    for n in range(2, 12):
        for e in range(1, n):
            for r in (Fraction(1), Fraction(3, 2), Fraction(7)):
                assert prop1_derived(n, e, r) >= prop1_first_term(n, e, r)


def test_bad_input():
    with pytest.raises(InvalidParameter, match="mechanism='gauss'"):
        stochastic_t("gauss", [0, 1], [0, 1], epsilon=1.0)
    with pytest.raises(InvalidParameter, match="sensitivity"):
        stochastic_t("laplace", [0, 5], [0, 1], epsilon=1.0)
    with pytest.raises(InvalidParameter, match="class size"):
        worst_case(3, 3)
