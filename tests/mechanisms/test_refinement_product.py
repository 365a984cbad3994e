"""Refinement over product priors (multi-component queries, thesis §5.2 Example 7)."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction as Fr

import numpy as np
import pytest
import sympy as sp
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from privlab.cli import cli
from privlab.errors import InvalidParameter
from privlab.mechanisms.refinement.algorithm import ABSENT, Refinement, broken_statistical
from privlab.mechanisms.refinement.factors import required_masses
from privlab.mechanisms.refinement.priors import ContinuousPrior, PiecewisePrior
from privlab.mechanisms.refinement.product import ProductDistance, ProductPrior
from privlab.mechanisms.refinement.spec import parse_prior
from privlab.verify.refinement import exact as ex
from privlab.verify.refinement.all_answers import check_all_answers
from privlab.verify.refinement.neighbours import check_true_values

component = st.one_of(
    st.tuples(st.floats(-3, 3), st.floats(0.2, 4)).map(
        lambda a: PiecewisePrior.uniform(a[0], a[0] + a[1])),
    st.tuples(st.integers(-6, 6), st.integers(1, 8), st.integers(1, 4)).map(
        lambda a: PiecewisePrior.uniform(Fr(a[0], a[2]), Fr(a[0] + a[1], a[2]))),
    st.tuples(st.integers(1, 4), st.integers(1, 4), st.integers(0, 3)).map(
        lambda a: PiecewisePrior(edges=(Fr(-a[0]), Fr(0), Fr(a[1])),
                                 densities=(Fr(a[2] + 1, a[2] + 2) / a[0],
                                            Fr(1, a[2] + 2) / a[1]))),
    st.tuples(st.floats(-3, 3), st.floats(0.3, 3)).map(
        lambda a: ContinuousPrior(dist=stats.norm(a[0], a[1]))),
    st.tuples(st.floats(1.2, 5), st.floats(1.2, 5)).map(
        lambda a: ContinuousPrior(dist=stats.beta(a[0], a[1]))))
"""Float and exact uniforms, an exact two-piece density, normal and beta components."""


def _inside(c, u):
    return float(c.ppf(u))


@st.composite
def product_case(draw, dims=(2, 3), quad3=False):
    """(prior, norm, t, t′, ε, query): ``quad3`` draws l1/l2 in d = 3, otherwise d = 3 uses the
    chebyshev distance (the quadrature norms in d = 3 cost ~0.3 s per law: slow test)."""
    d = draw(st.sampled_from(dims))
    comps = tuple(draw(component) for _ in range(d))
    norms = ["chebyshev", "l1", "l2"] if d == 2 else (["l1", "l2"] if quad3 else ["chebyshev"])
    u = [draw(st.floats(0.02, 0.98)) for _ in range(2 * d)]
    t = tuple(_inside(c, x) for c, x in zip(comps, u[:d], strict=True))
    t2 = tuple(_inside(c, x) for c, x in zip(comps, u[d:], strict=True))
    return (ProductPrior(components=comps), draw(st.sampled_from(norms)), t, t2,
            draw(st.floats(0.1, 2.0)), draw(st.sampled_from(["individual", "statistical"])))


def _check_case(prior, norm, t, t2, eps, query):
    """Mass 1 (float law to 1e-9; exactly, via the exact radius, for exact components under
    chebyshev), ball mass p_u, factor set {α_u, α_d} ⊂ [α_d, α_u], and the four-cell ratio of
    (t, t′) (statistical) or (t, prior) (individual) at most e^ε."""
    mech = (Refinement.individual(prior, eps, distance=norm) if query == "individual"
            else Refinement.statistical(prior, eps, distance=norm))
    p_u = float(required_masses(mech.factors)[0])
    laws = [mech.output(t), mech.output(t2)]
    for law in laws:
        assert abs(law.total - 1.0) <= 1e-9 and law.ball_mass == pytest.approx(p_u, abs=1e-9)
        assert set(law.slopes) == {mech.factors.alpha_u, mech.factors.alpha_d}
        assert mech.factors.alpha_d <= min(law.slopes) <= max(law.slopes) <= mech.factors.alpha_u
    case = ex.exact_case(mech)
    if case is not None:
        comps, wts = case
        target = ex.Target(sp.Rational(p_u))  # the implementation's own float p_u, exactly
        for law, pt in zip(laws, (t, t2), strict=True):
            pt = [Fr(x) for x in pt]
            root = ex.exact_radius(ex.ball_pieces(comps, wts, pt), target)
            assert ex.verify_closed_form(root, target) in ("exact", "interval")
            exact_mass = ex.mass_at(comps, wts, pt, [Fr(law.radius)] * len(pt))
            assert abs(float(exact_mass) - p_u) <= 1e-12
    r = check_true_values(mech, [t, t2], laws_given=laws)
    assert r.holds, r.evidence
    assert r.value <= eps * (1 + 1e-12)


@settings(max_examples=25, deadline=None)
@given(case=product_case())
def test_mass_factors_and_ratio_for_random_products(case):
    _check_case(*case)


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(case=product_case(dims=(3,), quad3=True))
def test_mass_factors_and_ratio_for_random_3d_quadrature_products(case):
    _check_case(*case)


def test_3d_quadrature_norm_on_one_prior():
    """d = 3 with l2 (nested quadrature), statistical: the same checks on one mixed prior
    (l1 and random priors: the slow test above)."""
    prior = ProductPrior(components=(PiecewisePrior.uniform(Fr(0), Fr(1)),
                                     ContinuousPrior(dist=stats.norm(0, 1)),
                                     PiecewisePrior.uniform(Fr(-1), Fr(1))))
    _check_case(prior, "l2", (0.3, 0.2, 0.1), (0.6, -0.5, 0.4), 1.0, "statistical")


def test_l2_ball_mass_against_dblquad():
    """Ball mass of the l2 norm computed two ways: the module's section integral, and scipy's
    2-D ``dblquad`` over the disc with the product density (independent code path)."""
    prior = parse_prior("product(uniform:0,1;norm:0,1)")
    d = ProductDistance(norm="l2", weights=(1.0, 2.0))
    t, r = np.array([0.3, 0.2]), 0.45
    mine = d.ball_mass(prior, t, r)
    c1, c2 = prior.components

    def dens(y, x):
        return float(c1.pdf(x)) * float(c2.pdf(y))

    def y_lo(x):
        return t[1] - math.sqrt(max(r * r - (x - t[0]) ** 2, 0.0)) / 2.0

    def y_hi(x):
        return t[1] + math.sqrt(max(r * r - (x - t[0]) ** 2, 0.0)) / 2.0

    ref, _ = integrate.dblquad(dens, max(0.0, t[0] - r), min(1.0, t[0] + r), y_lo, y_hi,
                               epsabs=1e-12, epsrel=1e-12)
    assert mine == pytest.approx(ref, abs=1e-10)


CUBE = ProductPrior(components=(PiecewisePrior.uniform(Fr(0), Fr(1)),) * 3)


def test_3d_masses_against_exact_volumes():
    """Uniform cube, weights w = (1, 2, 2), balls inside the cube: the prior mass is the volume.
    Scaled coordinates y = w∘x turn the balls into unweighted ones (volume / Π w): l2 ball
    (4/3)πr³, l1 ball (4/3)r³, two l2 balls the lens π(R + r − c)²(c² + 2cr − 3r² + 2cR + 6rR
    − 3R²)/(12c) (c the centre distance), two l1 balls a polytope (scipy's halfspace
    intersection and convex hull — independent code)."""
    from scipy.spatial import ConvexHull, HalfspaceIntersection

    w = np.array([1.0, 2.0, 2.0])
    t, s, R, r = np.array([0.5, 0.5, 0.5]), np.array([0.6, 0.45, 0.55]), 0.3, 0.25
    jac = float(np.prod(w))
    l2, l1 = ProductDistance(norm="l2", weights=w), ProductDistance(norm="l1", weights=w)
    assert l2.ball_mass(CUBE, t, R) == pytest.approx(4 / 3 * math.pi * R**3 / jac, abs=1e-13)
    assert l1.ball_mass(CUBE, t, R) == pytest.approx(4 / 3 * R**3 / jac, abs=1e-13)
    c = float(np.linalg.norm(w * (t - s)))
    lens = math.pi * (R + r - c) ** 2 * (c * c + 2 * c * r - 3 * r * r + 2 * c * R + 6 * r * R
                                         - 3 * R * R) / (12 * c)
    mi, err = l2.intersection_mass(CUBE, t, R, s, r)
    assert mi == pytest.approx(lens / jac, abs=1e-12) and err <= 1e-11
    signs = np.array(list(itertools.product((-1.0, 1.0), repeat=3)))
    half = np.vstack([np.hstack([signs * w, -(signs * w @ ctr + rad)[:, None]])
                      for ctr, rad in ((t, R), (s, r))])
    poly = HalfspaceIntersection(half, (t + s) / 2)
    vol = ConvexHull(poly.intersections).volume
    mi1, err1 = l1.intersection_mass(CUBE, t, R, s, r)
    assert mi1 == pytest.approx(vol, abs=1e-12) and err1 <= 1e-11


def test_2d_l2_intersections_against_the_lens_area():
    """Two weighted l2 balls inside the unit square (uniform prior): the intersection's mass is
    the area of the lens of two discs (closed form) over w_1 w_2."""
    prior = ProductPrior(components=(PiecewisePrior.uniform(Fr(0), Fr(1)),) * 2)
    w = np.array([1.0, 2.0])
    d = ProductDistance(norm="l2", weights=w)

    def lens(a, b, c):
        if c >= a + b:
            return 0.0
        if c <= abs(a - b):
            return math.pi * min(a, b) ** 2
        return (a * a * math.acos((c * c + a * a - b * b) / (2 * c * a))
                + b * b * math.acos((c * c + b * b - a * a) / (2 * c * b))
                - 0.5 * math.sqrt((-c + a + b) * (c + a - b) * (c - a + b) * (c + a + b)))

    g = np.random.default_rng(3)
    done = 0
    while done < 12:
        t, R, r = g.uniform(0.35, 0.65, 2), *g.uniform(0.05, 0.3, 2)
        s = t + g.uniform(-0.1, 0.1, 2)
        if np.any(np.abs(np.concatenate([t, s]) - 0.5) + np.repeat([R, r], 2) / np.tile(w, 2)
                  > 0.5):
            continue
        mi, _err = d.intersection_mass(prior, t, R, s, r)
        assert mi == pytest.approx(lens(R, r, float(np.linalg.norm(w * (t - s)))) / 2, abs=1e-13)
        done += 1


def test_3d_masses_independent_of_the_integration_order_and_match_monte_carlo():
    """A beta × normal × two-piece prior: integrating over x_1, x_2 or x_3 first (permuting the
    components) gives the same l1 / l2 masses to 1e-13, and an independent Monte-Carlo estimate
    agrees (exact binomial test at level 1e-6)."""
    comps = (ContinuousPrior(dist=stats.beta(1.5, 3)), ContinuousPrior(dist=stats.norm(0, 1)),
             PiecewisePrior(edges=(Fr(-1), Fr(0), Fr(2)), densities=(Fr(1, 2), Fr(1, 4))))
    w = np.array([1.0, 0.5, 2.0])
    t, s = np.array([0.3, 0.2, 0.1]), np.array([0.5, -0.3, 0.4])
    g = np.random.default_rng(11)
    n = 200_000
    xs = np.stack([np.asarray(c.ppf(g.random(n)), dtype=float) for c in comps], axis=1)
    for norm in ("l1", "l2"):
        vals = []
        for perm in ([0, 1, 2], [2, 0, 1]):
            d = ProductDistance(norm=norm, weights=w[perm])
            pr = ProductPrior(components=tuple(comps[i] for i in perm))
            vals.append((d.ball_mass(pr, t[perm], 0.7),
                         d.intersection_mass(pr, t[perm], 0.7, s[perm], 0.6)[0]))
        assert np.ptp([v[0] for v in vals]) <= 1e-13 and np.ptp([v[1] for v in vals]) <= 1e-13
        d = ProductDistance(norm=norm, weights=w)
        hit = d(xs, t) <= 0.7
        assert stats.binomtest(int(hit.sum()), n, vals[0][0]).pvalue > 1e-6
        both = hit & (d(xs, s) <= 0.6)
        assert stats.binomtest(int(both.sum()), n, vals[0][1]).pvalue > 1e-6


def test_sampler_is_seeded_and_hits_the_ball_at_the_right_rate():
    """Same seed, same draws; the share of draws in U_u matches α_u·P(U_u) (a two-sided exact
    binomial test at level 1e-6 — fails only by a bug or a one-in-a-million fluke)."""
    prior = parse_prior("product(beta:2,5;norm:0,1)")
    mech = Refinement.individual(prior, 1.0, distance="l1")
    law = mech.output((0.3, 0.1))
    a = mech.sample((0.3, 0.1), (40_000,), rng=7)
    b = mech.sample((0.3, 0.1), (40_000,), rng=7)
    assert a.shape == (40_000, 2) and np.array_equal(a, b)
    k = int(law.inside(a).sum())
    p = law.alpha_u * law.ball_mass
    assert stats.binomtest(k, 40_000, p).pvalue > 1e-6
    assert np.all((a[:, 0] >= 0) & (a[:, 0] <= 1))


@pytest.mark.parametrize("spec,norm", [("product(uniform:0,1;uniform:-1,1;uniform:0,2)",
                                        "chebyshev"),
                                       ("product(uniform:0,1;norm:0,1;uniform:-1,1)", "l2")])
def test_3d_sampler_is_seeded_in_range_and_hits_the_ball_at_the_right_rate(spec, norm):
    mech = Refinement.statistical(parse_prior(spec), 0.8, distance=norm)
    t = (0.2, 0.3, 0.4)
    law = mech.output(t)
    a = law.sample((20_000,), rng=np.random.default_rng(5))
    assert a.shape == (20_000, 3) and np.array_equal(a, law.sample((20_000,), rng=5))
    assert np.all((a[:, 0] >= 0) & (a[:, 0] <= 1) & (a[:, 2] >= -1) & (a[:, 2] <= 2))
    k = int(law.inside(a).sum())
    assert stats.binomtest(k, 20_000, law.alpha_u * law.ball_mass).pvalue > 1e-6


def test_absent_answer_is_the_prior_and_individual_ratio_is_exact():
    prior = parse_prior("product(uniform:0,1;uniform:0,1)")
    mech = Refinement.individual(prior, 0.5)
    assert mech.output(ABSENT).total == 1.0
    r = check_true_values(mech, [(0.5, 0.5), (0.1, 0.9)])
    assert r.holds and r.value == pytest.approx(0.5, rel=1e-12)


def test_all_answers_certificate_and_broken_control():
    """The symbolic every-answer check holds for the correct factors and fails (ratio 2ε) for
    the broken control that uses the individual factors on a statistical query."""
    prior = parse_prior("product(uniform:0,1;norm:0,1)")
    good = check_all_answers(Refinement.statistical(prior, 1.0, distance="l2"))
    bad = check_all_answers(broken_statistical(prior, 1.0, distance="l2"))
    assert good.holds and good.value == pytest.approx(1.0, rel=1e-12)
    assert not bad.holds and bad.value == pytest.approx(2.0, rel=1e-12)


@pytest.mark.parametrize("build,needle", [
    (lambda: ProductPrior(components=()), r"components=\(\) must hold at least one prior"),
    (lambda: parse_prior("product(uniform:0,1;pmf:0=1/2,1=1/2)"), r"components\[1\]="),
    (lambda: Refinement.individual(parse_prior("product(uniform:0,1;norm:0,1)"), 1.0,
                                   distance="manhattan"), r"distance='manhattan'"),
    (lambda: ProductDistance(norm="l2", weights=(1.0, 0.0)), r"weights=\(1\.0, 0\.0\)"),
    (lambda: ProductDistance(norm="l1", weights=(1.0, -2.0)), r"must all be finite and > 0"),
    (lambda: Refinement.individual(parse_prior("product(uniform:0,1;norm:0,1)"), 1.0,
                                   distance=ProductDistance(norm="l2", weights=(1.0, 2.0, 3.0))),
     r"weights=\[1\.0, 2\.0, 3\.0\] must have 2 entries"),
    (lambda: ProductPrior(components=(stats.norm(0, 1),)), r"components\[0\]=.*ContinuousPrior"),
    (lambda: Refinement.individual(parse_prior("product(uniform:0,1;norm:0,1)"), 1.0).output(
        (0.5,)), r"true_value=\(0\.5,\) must be 2 finite numbers"),
    (lambda: Refinement.individual(parse_prior("product(uniform:0,1;norm:0,1;norm:0,1;norm:0,1)"),
                                   1.0, distance="l1"), r"d <= 3 components \(got d = 4\)"),
    (lambda: Refinement.individual(parse_prior("product(uniform:0,1;norm:0,1)"), 1.0,
                                   delta=0.01), r"delta=0\.01"),
])
def test_bad_inputs(build, needle):
    with pytest.raises(InvalidParameter, match=needle):
        build()


def test_cli_certifies_a_product_prior():
    r = CliRunner().invoke(cli, ["certify", "refinement", "--prior",
                                 "product(uniform:0,1;norm:0,1)", "--epsilon", "1", "--query",
                                 "statistical", "--distance", "l2", "--format", "json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert [c["method"] for c in d["checks"]] == ["symbolic", "numeric"]
    assert all(c["holds"] for c in d["checks"])



def test_cli_certifies_an_exact_product_with_exact_radii_and_cells():
    r = CliRunner().invoke(cli, ["certify", "refinement", "--prior",
                                 "product(uniform:0,1;uniform:-1,1;uniform:0,0.5)", "--epsilon",
                                 "0.5", "--query", "statistical", "--distance", "chebyshev",
                                 "--format", "json"])
    assert r.exit_code == 0, r.output
    c = json.loads(r.output)["checks"][0]
    assert c["holds"] and c["method"] == "symbolic"
    exact = c["evidence"]["exact_piecewise"]
    assert exact["pairs_analysed"] == 27 * 26 // 2 and exact["worst_pair_ratio"] == "exp(1/2)"
    assert {a["closed_form_check"] for a in exact["answers"]} <= {"exact", "interval"}
    assert all(v for v in c["evidence"]["facts"].values())


def test_cli_rejects_a_bad_product_with_exit_2(capsys):
    from privlab.cli import main

    code = main(["certify", "refinement", "--prior", "product()", "--epsilon", "1"])
    assert code == 2 and "product(...) needs ';'-separated components" in capsys.readouterr().err
    code = main(["certify", "refinement", "--prior", "product(uniform:0,1;norm:0,1;norm:0,1;"
                 "norm:0,1)", "--epsilon", "1", "--distance", "l2"])
    err = capsys.readouterr().err
    assert code == 2 and "offered for d <= 3 components (got d = 4)" in err
    assert "Traceback" not in err
