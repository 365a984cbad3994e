"""The exact cdf of a piecewise prior (issue 19, round 6) equals the code it replaced: the cdf
at the edges is read from a per-instance memo (a tuple) and the piece of x is found by
bisection instead of a scan over every edge.  The oracles below are the former code, verbatim.
Both sides are exact ``Fraction``s, so equality is exact."""

from __future__ import annotations

import gc
import itertools
import random
from fractions import Fraction as Fr
from typing import Any

import pytest

from privlab.mechanisms.refinement import priors as pr
from privlab.mechanisms.refinement.priors import PiecewisePrior
from privlab.verify.refinement import exact as ex


def _old_cum_exact(c: PiecewisePrior) -> list[Fr]:
    """PiecewisePrior.cum_exact before round 6 (no per-instance memo)."""
    return list(pr._cum_exact(tuple((type(x), x) for x in c.edges),
                              tuple((type(x), x) for x in c.densities)))


def _old_exact_cdf(c: PiecewisePrior, x: Fr) -> Fr:
    """exact.exact_cdf before round 6."""
    e, cum = c.edges, _old_cum_exact(c)
    if x <= e[0]:
        return Fr(0)
    if x >= e[-1]:
        return Fr(1)
    j = max(k for k in range(len(e) - 1) if e[k] <= x)
    return cum[j] + c.densities[j] * (x - e[j])


def _old_factor(c: PiecewisePrior, ti: Fr, w: Fr, lo: Fr, hi: Fr) -> list[Fr]:
    """exact._factor before round 6."""
    mid = (lo + hi) / 2

    def lin(x: Fr, sign: int) -> list[Fr]:
        e = c.edges
        if x <= e[0]:
            return [Fr(0), Fr(0)]
        if x >= e[-1]:
            return [Fr(1), Fr(0)]
        j = max(k for k in range(len(e) - 1) if e[k] <= x)
        d = c.densities[j]
        return [_old_cum_exact(c)[j] + d * (ti - e[j]), sign * d / w]

    up, dn = lin(ti + mid / w, 1), lin(ti - mid / w, -1)
    return [up[0] - dn[0], up[1] - dn[1]]


def _random_prior(rng: random.Random) -> PiecewisePrior:
    n = rng.randint(1, 6)
    edges = sorted({Fr(rng.randint(-40, 40), rng.randint(1, 8)) for _ in range(n + 1)})
    while len(edges) < 2:
        edges.append(edges[-1] + 1)
    widths = [b - a for a, b in itertools.pairwise(edges)]
    raw = [Fr(rng.randint(0, 5)) for _ in widths]
    if not any(raw):
        raw[0] = Fr(1)
    total = sum(r * w for r, w in zip(raw, widths, strict=True))
    return PiecewisePrior(edges=tuple(edges), densities=tuple(r / total for r in raw))


def _points(c: PiecewisePrior, rng: random.Random) -> list[Fr]:
    e = list(c.edges)
    pts = [*e, e[0] - 1, e[-1] + 1]  # the edges themselves (ties) and both outsides
    pts += [a + (b - a) * Fr(rng.randint(0, 64), 64) for a, b in itertools.pairwise(e)]
    pts += [Fr(rng.randint(-400, 400), rng.randint(1, 16)) for _ in range(20)]
    return pts


def test_exact_cdf_equals_the_former_scan():
    rng = random.Random(6)
    for _ in range(60):
        c = _random_prior(rng)
        for x in _points(c, rng):
            assert ex.exact_cdf(c, x) == _old_exact_cdf(c, x), (c, x)


def test_factor_equals_the_former_scan():
    rng = random.Random(7)
    for _ in range(40):
        c = _random_prior(rng)
        w = Fr(rng.randint(1, 4), rng.randint(1, 3))
        for ti in _points(c, rng)[:12]:
            br = sorted({Fr(0)} | {w * abs(e - ti) for e in c.edges})
            for lo, hi in itertools.pairwise(br):
                assert ex._factor(c, ti, w, lo, hi) == _old_factor(c, ti, w, lo, hi)


def test_ball_pieces_and_mass_of_the_thesis_priors_equal_the_former_code(monkeypatch):
    """End to end on the priors the claims use (ch5_products.STEP and exact uniforms): the
    pieces and masses with the shortcut equal those with the former functions patched in."""
    from privlab.proofs.thesis.ch5_products import STEP
    comps = [STEP, PiecewisePrior.uniform(Fr(-1), Fr(1))]
    weights = [Fr(1), Fr(1)]
    pts = [[Fr(1, 3), Fr(-1, 5)], [Fr(0), Fr(1)], [Fr(1, 4), Fr(0)], [Fr(9, 10), Fr(1, 2)]]
    new = [(ex.ball_pieces(comps, weights, t), ex.mass_at(comps, weights, t, [Fr(1, 3)] * 2))
           for t in pts]
    monkeypatch.setattr(ex, "exact_cdf", _old_exact_cdf)
    monkeypatch.setattr(ex, "_factor", _old_factor)
    old = [(ex.ball_pieces(comps, weights, t), ex.mass_at(comps, weights, t, [Fr(1, 3)] * 2))
           for t in pts]
    assert new == old


def test_cum_exact_memo_is_per_instance_and_immutable():
    a = PiecewisePrior(edges=(Fr(0), Fr(1, 2), Fr(1)), densities=(Fr(3, 2), Fr(1, 2)))
    b = PiecewisePrior(edges=(Fr(0), Fr(1, 2), Fr(1)), densities=(Fr(1, 2), Fr(3, 2)))
    ta, tb = a.cum_exact_tuple(), b.cum_exact_tuple()
    assert isinstance(ta, tuple)
    assert ta == (Fr(0), Fr(3, 4), Fr(1)) and tb == (Fr(0), Fr(1, 4), Fr(1))
    assert a.cum_exact_tuple() is ta  # memo hit
    got = a.cum_exact()  # the list form is a fresh copy callers may change
    got[1] = Fr(99)
    assert a.cum_exact_tuple() == (Fr(0), Fr(3, 4), Fr(1))
    key = id(a)
    del a
    gc.collect()
    assert key not in pr._CUM_BY_INSTANCE or pr._CUM_BY_INSTANCE[key][0]() is not None


@pytest.mark.parametrize("x", [Fr(1, 4), Fr(1, 2), Fr(3, 4)])
def test_piece_at_an_edge_is_the_piece_starting_there(x: Any):
    """Ties: the former scan takes the largest k with e[k] ≤ x (bisect_right − 1 does too; a
    bisect_left mutant gives the piece before and fails here)."""
    e = (Fr(0), Fr(1, 4), Fr(1, 2), Fr(3, 4), Fr(1))
    assert ex._piece(e, x) == max(k for k in range(len(e) - 1) if e[k] <= x)
