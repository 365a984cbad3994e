"""Refinement over product priors (multi-component queries, thesis §5.2 Example 7)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from privlab.cli import cli
from privlab.errors import InvalidParameter
from privlab.mechanisms.refinement import ABSENT, Refinement, broken_statistical
from privlab.mechanisms.refinement_priors import ContinuousPrior, PiecewisePrior, parse_prior
from privlab.mechanisms.refinement_product import ProductDistance, ProductPrior
from privlab.verify.refinement import check_true_values
from privlab.verify.refinement_all import check_all_answers

component = st.one_of(
    st.tuples(st.floats(-3, 3), st.floats(0.2, 4)).map(
        lambda a: PiecewisePrior.uniform(a[0], a[0] + a[1])),
    st.tuples(st.floats(-3, 3), st.floats(0.3, 3)).map(
        lambda a: ContinuousPrior(dist=stats.norm(a[0], a[1]))),
    st.tuples(st.floats(1.2, 5), st.floats(1.2, 5)).map(
        lambda a: ContinuousPrior(dist=stats.beta(a[0], a[1]))))


def _inside(c, u):
    return float(c.ppf(u))


@settings(max_examples=20, deadline=None)
@given(c1=component, c2=component, norm=st.sampled_from(["chebyshev", "l1", "l2"]),
       u=st.tuples(st.floats(0.02, 0.98), st.floats(0.02, 0.98),
                   st.floats(0.02, 0.98), st.floats(0.02, 0.98)),
       eps=st.floats(0.1, 2.0), query=st.sampled_from(["individual", "statistical"]))
def test_mass_factors_and_ratio_for_random_products(c1, c2, norm, u, eps, query):
    """Mass 1 (to the quadrature's 1e-9), factors in [α_d, α_u], and the exact four-cell
    analysis of (t, t′) (statistical) or (t, prior) (individual) gives a ratio ≤ e^ε."""
    prior = ProductPrior(components=(c1, c2))
    mech = (Refinement.individual(prior, eps, distance=norm) if query == "individual"
            else Refinement.statistical(prior, eps, distance=norm))
    t = (_inside(c1, u[0]), _inside(c2, u[1]))
    t2 = (_inside(c1, u[2]), _inside(c2, u[3]))
    law = mech.output(t)
    assert abs(law.total - 1.0) <= 1e-9
    assert mech.factors.alpha_d <= min(law.slopes) and max(law.slopes) <= mech.factors.alpha_u
    r = check_true_values(mech, [t, t2])
    assert r.holds, r.evidence
    assert r.value <= eps * (1 + 1e-12)


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
    (lambda: Refinement.individual(parse_prior("product(uniform:0,1;norm:0,1)"), 1.0).output(
        (0.5,)), r"true_value=\(0\.5,\) must be 2 finite numbers"),
    (lambda: Refinement.individual(parse_prior("product(uniform:0,1;norm:0,1;norm:0,1)"), 1.0,
                                   distance="l1"), r"d = 2 components only"),
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



def test_cli_rejects_a_bad_product_with_exit_2(capsys):
    from privlab.cli import main

    code = main(["certify", "refinement", "--prior", "product()", "--epsilon", "1"])
    assert code == 2 and "product(...) needs ';'-separated components" in capsys.readouterr().err
