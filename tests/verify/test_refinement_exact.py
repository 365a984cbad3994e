"""Exact analysis of refinement for exact piecewise priors (verify/refinement_exact.py) and the
every-answer certificate that uses it (verify/refinement_all.py).

Expected values are derived by hand here (uniform densities: the ball mass is the length of an
interval or the area of a box), never copied from the code under test."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as Fr

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import InvalidParameter
from privlab.mechanisms.refinement.algorithm import Refinement, broken_statistical
from privlab.mechanisms.refinement.factors import Factors
from privlab.mechanisms.refinement.priors import PiecewisePrior
from privlab.mechanisms.refinement.product import ProductPrior
from privlab.mechanisms.refinement.spec import parse_prior
from privlab.types import Method
from privlab.verify.refinement import exact as ex
from privlab.verify.refinement.all_answers import check_all_answers
from privlab.verify.refinement.certificate import certify_refinement
from privlab.verify.refinement.neighbours import check_true_values

U01 = PiecewisePrior.uniform(Fr(0), Fr(1))


@st.composite
def exact_components(draw):
    """A PiecewisePrior with 1–3 pieces, small rational edges and exactly normalised masses."""
    k = draw(st.integers(1, 3))
    start = Fr(draw(st.integers(-4, 4)), draw(st.integers(1, 4)))
    widths = [Fr(draw(st.integers(1, 6)), draw(st.integers(1, 4))) for _ in range(k)]
    masses = [draw(st.integers(0, 5)) for _ in range(k)]
    if sum(masses) == 0:
        masses[0] = 1
    edges = [start]
    for w in widths:
        edges.append(edges[-1] + w)
    dens = [Fr(m, sum(masses)) / w for m, w in zip(masses, widths, strict=True)]
    return PiecewisePrior(edges=tuple(edges), densities=tuple(dens))


def test_exact_piecewise_prior_validation_and_parsing():
    assert U01.exact and U01.densities == (Fr(1),)
    p = parse_prior("uniform:0.1,0.35")
    assert p.exact and p.edges == (Fr(1, 10), Fr(7, 20)) and p.densities == (Fr(4),)
    assert p.to_dict()["exact"] is True and p.cdf(0.2) == pytest.approx(0.4)
    assert not PiecewisePrior.uniform(0.0, 1.0).exact
    with pytest.raises(InvalidParameter, match=r"integrate to 5/6 \(exactly\)"):
        PiecewisePrior(edges=(Fr(0), Fr(1), Fr(2)), densities=(Fr(1, 2), Fr(1, 3)))
    with pytest.raises(InvalidParameter, match=r"densities=.* must be finite and >= 0"):
        PiecewisePrior(edges=(Fr(0), Fr(1), Fr(2)), densities=(Fr(3, 2), Fr(-1, 2)))


@settings(max_examples=40, deadline=None)
@given(comps=st.lists(exact_components(), min_size=1, max_size=3),
       u=st.lists(st.integers(-8, 40), min_size=3, max_size=3),
       w=st.lists(st.sampled_from([Fr(1), Fr(1, 2), Fr(2), Fr(3)]), min_size=3, max_size=3))
def test_ball_pieces_agree_with_the_cdf_exactly_and_with_float_cdfs(comps, u, w):
    """The piecewise-polynomial M_t equals Π(F(t + r/w) − F(t − r/w)) at rational radii (exact,
    two code paths) and the float cdfs of the priors (independent code) to 1e-12;
    M_t(0) = 0, M_t(R_t) = 1 and M_t is continuous."""
    d = len(comps)
    t = [c.edges[0] + (c.edges[-1] - c.edges[0]) * Fr(ui, 32) for c, ui in zip(comps, u,
                                                                               strict=False)]
    wts = w[:d]
    pieces = ex.ball_pieces(comps, wts, t)
    assert pieces[0][0] == 0 and ex._ev(pieces[0][2], Fr(0)) == 0
    assert ex._ev(pieces[-1][2], pieces[-1][1]) == 1
    for (_a, b, p), (b2, _c, q) in itertools.pairwise(pieces):
        assert b == b2 and ex._ev(p, b) == ex._ev(q, b)
    for lo, hi, p in pieces:
        for r in (lo, (2 * lo + hi) / 3, hi):
            exact = ex.mass_at(comps, wts, t, [r] * d)
            assert ex._ev(p, r) == exact
            flo = math.prod(float(c.cdf(float(ti + r / wi))) - float(c.cdf(float(ti - r / wi)))
                            for c, ti, wi in zip(comps, t, wts, strict=True))
            assert flo == pytest.approx(float(exact), abs=1e-12)


def test_radius_by_hand_on_uniform_prior():
    """U[0, 1], p_u = 1/3 (α_u = 2, α_d = 1/2): at t = 1/4 the ball [t − r, t + r] lies inside,
    2r = 1/3, r = 1/6; at t = 1/20 it is cut at 0, r + t = 1/3, r = 17/60."""
    target = ex.Target(Fr(1, 3))
    for t, want in ((Fr(1, 4), Fr(1, 6)), (Fr(1, 20), Fr(17, 60))):
        root = ex.exact_radius(ex.ball_pieces([U01], [Fr(1)], [t]), target)
        assert root["closed_form"] == sp.Rational(want.numerator, want.denominator)
        assert root["interval"][0] <= want <= root["interval"][1]
        assert ex.verify_closed_form(root, target) == "exact"


def test_radius_transcendental_target_box_by_hand():
    """Product U[0,1] × U[0,1], chebyshev, t = (1/2, 1/2): M(r) = (2r)² for r ≤ 1/2, so for the
    individual p_u = 1/(1 + e) the radius is √p_u / 2 (a quadratic piece; closed form)."""
    pu = 1 / (1 + sp.E)
    target = ex.Target(pu)
    root = ex.exact_radius(ex.ball_pieces([U01, U01], [Fr(1), Fr(1)], [Fr(1, 2)] * 2), target)
    assert root["degree"] == 2 and ex.verify_closed_form(root, target) == "exact"
    assert sp.N(root["closed_form"] - sp.sqrt(pu) / 2, 50) == 0
    a, b = root["interval"]
    assert float(b - a) < 1e-25 and a <= Fr(float(sp.N(sp.sqrt(pu) / 2, 30))) + Fr(1, 10**25)


def test_three_components_give_an_isolating_interval_for_a_cubic_piece():
    target = ex.Target(1 / (1 + sp.E))
    root = ex.exact_radius(ex.ball_pieces([U01] * 3, [Fr(1)] * 3, [Fr(1, 2)] * 3), target)
    assert root["degree"] == 3 and root["closed_form"] is None
    a, b = root["interval"]
    assert target.sign_of_diff((2 * a) ** 3) < 0 <= target.sign_of_diff((2 * b) ** 3)
    assert float(2 * b) ** 3 == pytest.approx(1 / (1 + math.e), rel=1e-15)


@settings(max_examples=25, deadline=None)
@given(u=st.lists(st.floats(0.02, 0.98), min_size=4, max_size=4), eps=st.floats(0.2, 2.0))
def test_exact_pair_cells_agree_with_the_float_four_cell_analysis(u, eps):
    """Cell statuses of the exact analysis match the float cell masses of compare_product, and
    the worst ratio is α_u/α_d exactly when the balls differ."""
    prior = ProductPrior(components=(U01, PiecewisePrior.uniform(Fr(-1), Fr(1))))
    mech = Refinement.statistical(prior, eps)
    comps, wts = ex.exact_case(mech)
    t = (float(prior.components[0].ppf(u[0])), float(prior.components[1].ppf(u[1])))
    s = (float(prior.components[0].ppf(u[2])), float(prior.components[1].ppf(u[3])))
    au, ad = sp.Rational(mech.factors.alpha_u), sp.Rational(mech.factors.alpha_d)
    target = ex.Target((1 - ad) / (au - ad))
    tf, sf = [Fr(x) for x in t], [Fr(x) for x in s]
    rt = ex.exact_radius(ex.ball_pieces(comps, wts, tf), target)["interval"]
    rs = ex.exact_radius(ex.ball_pieces(comps, wts, sf), target)["interval"]
    cells = ex.exact_pair(comps, wts, tf, rt, sf, rs, target, au, ad)
    lt, ls = mech.output(t), mech.output(s)
    mi = lt.distance.intersection_mass(prior, np.array(t), lt.radius, np.array(s), ls.radius)[0]
    floats = {"B_t ∩ B_t'": mi, "B_t only": lt.ball_mass - mi,
              "outside both": 1 - lt.ball_mass - ls.ball_mass + mi}
    for name, m in floats.items():
        st_ = cells["cells"][name]["status"]
        if st_ == "undecided":  # allowed only for a (numerically) empty cell: then conservative
            assert abs(m) <= 1e-9, (name, m, cells)
            continue
        if st_ == "positive" and m <= 1e-12:
            # the float oracle cannot resolve a cell below 1e-12 (e.g. t, t′ one ulp apart):
            # then the exact bounds must themselves put the cell below that size
            assert float(cells["cells"][name]["prior_mass"][1]) <= 1e-12, (name, m, cells)
            continue
        assert (st_ == "positive") == (m > 1e-12), (name, m, cells)
    if cells["cells"]["B_t only"]["status"] == "positive":
        assert sp.simplify(cells["worst_ratio"] - au / ad) == 0
    if cells["cells"]["B_t only"]["status"] == "empty":
        assert cells["worst_ratio"] == 1


def test_identical_answers_have_empty_difference_cells():
    mech = Refinement.statistical(ProductPrior(components=(U01, U01)), 1.0)
    comps, wts = ex.exact_case(mech)
    au, ad = sp.Rational(mech.factors.alpha_u), sp.Rational(mech.factors.alpha_d)
    target = ex.Target((1 - ad) / (au - ad))
    t = [Fr(3, 10), Fr(7, 10)]
    r = ex.exact_radius(ex.ball_pieces(comps, wts, t), target)["interval"]
    c = ex.exact_pair(comps, wts, t, r, t, r, target, au, ad)
    assert c["cells"]["B_t only"]["status"] != "positive" and c["worst_ratio"] == 1


@pytest.mark.parametrize("query", ["individual", "statistical"])
def test_all_answers_certificate_exact_for_rational_factors(query):
    """Fraction factors α_u = 2, α_d = 1/2 on a 3-piece exact prior: p_u = 1/3 is rational, the
    radius at every answer is a rational closed form, and the implementation's float radius
    has exact ball mass within 1e-12 of 1/3."""
    prior = PiecewisePrior(edges=(Fr(0), Fr(1, 4), Fr(1, 2), Fr(1)),
                           densities=(Fr(2), Fr(1), Fr(1, 2)))
    mech = Refinement(prior=prior, factors=Factors.from_alphas(Fr(2), Fr(1, 2), query))
    ts = [0.05, 0.2, 0.3, 0.7, 0.95]
    laws = [mech.output(t) for t in ts]
    r = check_all_answers(mech, cross_check=check_true_values(mech, ts, laws_given=laws),
                          answers=ts, laws=laws)
    assert r.holds and r.method is Method.SYMBOLIC, r.evidence["facts"]
    ex_ev = r.evidence["exact_piecewise"]
    assert all(row["closed_form_check"] == "exact" for row in ex_ev["answers"])
    assert all(sp.sympify(row["radius_closed_form"]).is_Rational for row in ex_ev["answers"])
    assert max(row["implementation_mass_gap"] for row in ex_ev["answers"]) <= 1e-12
    want = math.log(4) if query == "statistical" else math.log(2)
    assert r.value == pytest.approx(want, rel=1e-15)
    if query == "statistical":
        assert ex_ev["pairs_analysed"] == 10 and sp.sympify(ex_ev["worst_pair_ratio"]) == 4


def test_certificate_refutes_the_broken_control_on_the_exact_path():
    """(The holding case through the CLI: tests/mechanisms/test_refinement_product.py.)"""
    prior = parse_prior("product(uniform:0,1;uniform:-1,1)")
    bad = certify_refinement(broken_statistical(prior, 1.0))
    assert "exact_piecewise" in bad.checks[0].evidence
    assert bad.checks[0].evidence["existence"].endswith("(premises exact: "
                                                        "verify.refinement_exact)")
    assert not bad.holds and bad.checks[0].value == pytest.approx(2.0, rel=1e-12)
    failed = bad.checks[0].counterexample["failed"]
    assert "alpha_u/alpha_d == bound" in failed
    assert "every pair of answers: exact cell ratio <= bound" in failed
