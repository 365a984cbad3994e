"""Knowledge refinement (thesis ch.5): mass, factor bounds and DP ratios on random exact
instances (hypothesis), golden values on independent routes, samplers, bad input.

Golden values are recomputed here by hand formulas or scipy quadrature, never copied from the
thesis; printed numbers appear only in the proofs' ``paper_*`` columns."""

from __future__ import annotations

import math
from fractions import Fraction as Fr

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from privlab.errors import InvalidParameter
from privlab.mechanisms.refinement.algorithm import (
    ABSENT,
    Refinement,
    broken_statistical,
    refine_discrete,
)
from privlab.mechanisms.refinement.distances import ABSOLUTE, custom, get_distance
from privlab.mechanisms.refinement.factors import Factors, printed_masses, required_masses
from privlab.mechanisms.refinement.priors import (
    ContinuousPrior,
    DiscretePrior,
    PiecewisePrior,
    product_prior,
)
from privlab.mechanisms.refinement.spec import parse_prior

FACTORS = [(Fr(2), Fr(1, 2)), (Fr(3), Fr(1, 3)), (Fr(3, 2), Fr(3, 4)), (Fr(5, 4), Fr(1, 2)),
           (Fr(7, 3), Fr(2, 5)), (Fr(3, 2), Fr(1, 2))]


@st.composite
def instances(draw):
    n = draw(st.integers(1, 6))
    w = draw(st.lists(st.integers(0, 9), min_size=n, max_size=n).filter(lambda x: sum(x) > 0))
    prior = DiscretePrior(values=tuple(range(n)), probs=tuple(Fr(x, sum(w)) for x in w))
    au, ad = draw(st.sampled_from(FACTORS))
    query = draw(st.sampled_from(["individual", "statistical"]))
    dtab = {(i, j): 0 if i == j else draw(st.integers(1, 4)) for i in range(n) for j in range(n)}
    dist = draw(st.sampled_from([ABSOLUTE, custom(lambda x, y: dtab[x, y])]))
    return prior, Factors.from_alphas(au, ad, query), dist


@settings(max_examples=150, deadline=None)
@given(instances())
def test_mass_one_factors_in_bounds_and_dp_ratio(inst):
    prior, f, dist = inst
    laws = {t: refine_discrete(prior, t, dist, f) for t in prior.values}
    bound = f.alpha_u / f.alpha_d if f.query == "statistical" else max(f.alpha_u, 1 / f.alpha_d)
    for law in laws.values():
        assert law.total == 1  # exact
        assert all(f.alpha_d <= x <= f.alpha_u for x in law.factors)
        assert all(p >= 0 for p in law.probs)
    if f.query == "individual":  # add/remove: each answer vs the prior
        pairs = [(law, prior) for law in laws.values()]
    else:  # any two answers
        pairs = [(a, b) for a in laws.values() for b in laws.values()]
    for a, b in pairs:
        for x in prior.values:
            pa, pb = a.probs[x], b.probs[x]
            assert pa <= bound * pb and pb <= bound * pa


@settings(max_examples=60, deadline=None)
@given(instances())
def test_printed_masses_conserve_only_when_alphas_sum_to_2(inst):
    """The text's swapped masses conserve mass iff α_u + α_d = 2 (never for e^{±ε})."""
    _, f, _ = inst
    pu, _ = printed_masses(f)
    assert (f.alpha_u * pu + f.alpha_d * (1 - pu) == 1) == (f.alpha_u + f.alpha_d == 2)
    qu, qd = required_masses(f)
    assert f.alpha_u * qu + f.alpha_d * qd == 1


def test_boolean_golden_values():
    """§5.5.1 instance: q = 1/100, ε = 1; by hand P(1|0) = q/e, P(1|1) = q·e."""
    prior = DiscretePrior(values=(0, 1), probs=(Fr(99, 100), Fr(1, 100)))
    m = Refinement.individual(prior, 1.0)
    assert float(m.output(0).prob(1)) == pytest.approx(0.01 / math.e, rel=1e-14)
    assert float(m.output(1).prob(1)) == pytest.approx(0.01 * math.e, rel=1e-14)
    assert m.output(ABSENT).probs == prior.probs


def test_example8_exact_else_branch():
    m = Refinement(prior=DiscretePrior.uniform([0, 1]),
                   factors=Factors.from_alphas(Fr(2), Fr(1, 2), "individual"))
    law = m.output(0)
    assert law.probs == (Fr(3, 4), Fr(1, 4)) and law.info["alpha_ud"] == Fr(3, 2)


def test_then_branch_exact():
    # masses 1/3 at t: p_u = (1 − 1/2)/(2 − 1/2) = 1/3 exactly → then branch
    prior = DiscretePrior(values=(0, 1, 2), probs=(Fr(1, 3), Fr(1, 3), Fr(1, 3)))
    law = refine_discrete(prior, 0, ABSOLUTE, Factors.from_alphas(Fr(2), Fr(1, 2), "individual"))
    assert law.info["branch"] == "then" and law.probs == (Fr(2, 3), Fr(1, 6), Fr(1, 6))


def test_continuous_uniform_variance_by_quadrature():
    """Var of the refined uniform at t = 1/2 from scipy quadrature of the pdf."""
    for eps in (0.1, math.log(2), 1.0, 2.0):
        law = Refinement.individual(PiecewisePrior.uniform(), eps).output(0.5)
        m2, _ = integrate.quad(lambda x, law=law: (x - 0.5) ** 2 * float(law.pdf(x)), 0, 1,
                               points=law.info["U_u"], epsabs=1e-13)
        assert law.variance() == pytest.approx(m2, rel=1e-8)
        p = 1 / (1 + math.exp(eps))
        assert law.info["U_u"][1] - law.info["U_u"][0] == pytest.approx(p, rel=1e-12)


def test_samplers_seeded_and_match_law():
    m = Refinement.statistical(DiscretePrior.uniform(range(5)), 1.0, distance="absolute")
    law = m.output(1)
    a = law.sample(200_000, rng=3)
    assert np.array_equal(a, law.sample(200_000, rng=3))
    freq = np.bincount(a.astype(int), minlength=5) / a.size
    p = np.array([float(x) for x in law.probs])
    assert np.all(np.abs(freq - p) < 5 * np.sqrt(p * (1 - p) / a.size) + 1e-12)
    cont = Refinement.individual(ContinuousPrior(dist=stats.beta(2, 5)), 1.0).output(0.3)
    x = cont.sample(50_000, rng=4)
    assert stats.kstest(x, cont.cdf).pvalue > 1e-3
    assert cont.total == pytest.approx(1.0, abs=1e-12)


def test_delta_variant_atom_and_tails():
    law = Refinement.individual(PiecewisePrior.uniform(), math.log(2), delta=0.2).output(0.5)
    assert law.atom == pytest.approx(0.1, abs=1e-12)  # δ e^{-ε}: prior mass 0.2 zeroed
    assert float(law.pdf(0.05)) == 0.0 and float(law.pdf(0.5)) == pytest.approx(2.0)
    assert law.total == pytest.approx(1.0, abs=1e-12)
    assert float(np.mean(law.sample(100_000, rng=1) == 0.5)) == pytest.approx(0.1, abs=0.005)


def test_product_prior_and_parse():
    p = product_prior(DiscretePrior.uniform([0, 1]), DiscretePrior.uniform(["a", "b", "c"]))
    assert len(p.values) == 6 and sum(p.probs) == 1
    assert parse_prior("pmf:0=0.99,1=0.01").probs == (Fr(99, 100), Fr(1, 100))
    assert parse_prior("uniform:0,2").cdf(1.0) == pytest.approx(0.5)
    assert parse_prior("beta:2,5").kind == "continuous"


@pytest.mark.parametrize("make", [
    lambda: DiscretePrior(values=(0, 1), probs=(Fr(1, 2), Fr(1, 3))),
    lambda: DiscretePrior(values=(0, 1), probs=(Fr(3, 2), Fr(-1, 2))),
    lambda: DiscretePrior(values=(0, 0), probs=(0.5, 0.5)),
    lambda: Refinement.individual(DiscretePrior.uniform([0, 1]), 0.0),
    lambda: Refinement.individual(DiscretePrior.uniform([0, 1]), -1.0),
    lambda: Refinement.individual(DiscretePrior.uniform([0, 1]), 1.0, delta=1.0),
    lambda: Refinement.individual(DiscretePrior.uniform([0, 1]), 1.0, delta=-0.1),
    lambda: Refinement.individual(DiscretePrior(values=(0, 1), probs=(1, 0)), 1.0,
                                  delta=0.1).output(1),
    lambda: Refinement.individual(PiecewisePrior(edges=(0, 1, 2), densities=(1, 0)), 1.0,
                                  delta=0.1).output(1.5),
    lambda: get_distance("euclid"),
    lambda: Refinement.individual(PiecewisePrior.uniform(), 1.0, distance="nominal"),
    lambda: Factors.statistical(1.0, alpha_u=5.0),
    lambda: Factors(alpha_u=3.0, alpha_d=0.9, query="statistical", epsilon=1.0),
    lambda: parse_prior("pmf:0=x"),
    lambda: parse_prior("nosuch:1"),
])
def test_bad_input_rejected(make):
    with pytest.raises(InvalidParameter):
        make()


def test_error_messages_name_the_parameter():
    with pytest.raises(InvalidParameter, match="sum to 5/6"):
        DiscretePrior(values=(0, 1), probs=(Fr(1, 2), Fr(1, 3)))
    with pytest.raises(InvalidParameter, match=r"probs\[1\]=-0.5"):
        DiscretePrior(values=(0, 1), probs=(1.5, -0.5))
    with pytest.raises(InvalidParameter, match="epsilon=0"):
        Factors.individual(0)
    with pytest.raises(InvalidParameter, match="zero prior mass"):
        Refinement.individual(DiscretePrior(values=(0, 1), probs=(1, 0)), 1.0,
                              delta=0.1).output(1)


def test_broken_control_ratio_is_e_2eps():
    b = broken_statistical(PiecewisePrior.uniform(), 1.0)
    lo, hi = b.output(0.05), b.output(0.95)
    assert float(hi.pdf(0.97) / lo.pdf(0.97)) == pytest.approx(math.e**2)
