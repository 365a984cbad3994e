"""Exact neighbour analysis of refinement: individual factors give ε under add/remove, 2ε under
substitution; statistical factors give ε under both; the broken control and the printed (ε, δ)
rules are caught; continuous priors analysed piecewise."""

from __future__ import annotations

import math
from fractions import Fraction as Fr

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.mechanisms.refinement.algorithm import Refinement, broken_statistical
from privlab.mechanisms.refinement.factors import Factors
from privlab.mechanisms.refinement.priors import DiscretePrior, PiecewisePrior
from privlab.mechanisms.refinement.queries import Dataset, IndividualQuery, count_query
from privlab.types import Method
from privlab.verify.refinement.certificate import certify_refinement
from privlab.verify.refinement.neighbours import check_refinement_dp, check_true_values

Q = IndividualQuery(individual="a")


def _ind(prior=None):
    return Refinement(prior=prior or DiscretePrior.uniform([0, 1, 2]),
                      factors=Factors.from_alphas(Fr(2), Fr(1, 2), "individual"),
                      distance="absolute")


def test_individual_add_remove_exact_ln2():
    r = check_refinement_dp(_ind(), Q, Dataset(records={"a": 1, "b": 0}),
                            neighbour="add/remove", domain=(0, 1, 2))
    assert r.holds and r.method is Method.EXHAUSTIVE and r.evidence["exact"]
    assert r.evidence["worst_ratio"] == 2 and r.evidence["mass_conserved"]


def test_individual_substitution_fails_with_location():
    r = check_refinement_dp(_ind(), Q, Dataset(records={"a": 2, "b": 0}),
                            neighbour="substitute", domain=(0, 1, 2))
    assert not r.holds
    assert r.evidence["worst_ratio"] == 4  # e^{2ε} = 4, exact
    assert r.counterexample["neighbour"].startswith("set 'a'")


def test_continuous_individual_piecewise():
    mech = Refinement.individual(PiecewisePrior.uniform(), 1.0)
    data = Dataset(records={"a": 0.9, "b": 0.1})
    ar = check_refinement_dp(mech, Q, data, neighbour="add/remove", domain=(0.0, 1.0))
    su = check_refinement_dp(mech, Q, data, neighbour="substitute", domain=(0.0, 1.0))
    assert ar.holds and ar.value == pytest.approx(1.0, abs=1e-12)
    assert not su.holds and su.value == pytest.approx(2.0, abs=1e-12)


@pytest.mark.parametrize("nb", ["add/remove", "substitute"])
def test_statistical_both_relations_and_control(nb):
    prior = DiscretePrior.uniform(range(6))
    good = Refinement(prior=prior, factors=Factors.from_alphas(Fr(3, 2), Fr(3, 4), "statistical"),
                      distance="absolute")
    data = Dataset(records={"a": 1, "b": 0, "c": 1})
    assert check_refinement_dp(good, count_query(1), data, neighbour=nb, domain=(0, 1)).holds
    bad = broken_statistical(prior, math.log(2), distance="absolute")
    r = check_refinement_dp(bad, count_query(1), data, neighbour=nb, domain=(0, 1))
    assert not r.holds and r.value > math.log(2)


def test_delta_rules_exact():
    prior = DiscretePrior.uniform(range(5))
    for query, paper_need in (("individual", Fr(2, 5)), ("statistical", Fr(1, 2))):
        f = Factors.from_alphas(Fr(2), Fr(1, 2), query)
        exact = Refinement(prior=prior, factors=f, distance="absolute", delta=0.2)
        paper = Refinement(prior=prior, factors=f, distance="absolute", delta=0.2,
                           delta_rule="paper")
        r_exact = check_true_values(exact, list(range(5)))
        r_paper = check_true_values(paper, list(range(5)))
        assert r_exact.holds and r_exact.evidence["delta_needed_at_epsilon"] <= Fr(1, 5)
        assert not r_paper.holds
        assert r_paper.evidence["delta_needed_at_epsilon"] == paper_need


def test_certificate_reports_substitution_loss():
    cert = certify_refinement(Refinement.individual(PiecewisePrior.uniform(), 1.0))
    assert cert.holds and cert.guarantee.neighbour.value == "add/remove"
    assert cert.properties["substitution_log_ratio_between_present_values"] == pytest.approx(2.0)
    bad = certify_refinement(broken_statistical(DiscretePrior.uniform(range(4)), 1.0,
                                                distance="absolute"))
    assert not bad.holds


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=1, max_size=4),
       st.lists(st.integers(0, 5), min_size=3, max_size=3).filter(lambda w: sum(w) > 0),
       st.sampled_from([(Fr(2), Fr(1, 2)), (Fr(3), Fr(1, 3)), (Fr(3, 2), Fr(3, 4))]))
def test_stated_relation_holds_on_random_datasets(vals, w, fac):
    """Individual: add/remove; statistical (count of 1s over a prior on 0..5): both."""
    data = Dataset(records={f"p{i}": x for i, x in enumerate(vals)})
    prior = DiscretePrior(values=(0, 1, 2), probs=tuple(Fr(x, sum(w)) for x in w))
    ind = Refinement(prior=prior, factors=Factors.from_alphas(*fac, "individual"),
                     distance="absolute")
    assert check_refinement_dp(ind, IndividualQuery(individual="p0"), data,
                               neighbour="add/remove", domain=(0, 1, 2)).holds
    counts = DiscretePrior.uniform(range(6))
    stat = Refinement(prior=counts, factors=Factors.from_alphas(*fac, "statistical"),
                      distance="absolute")
    for nb in ("add/remove", "substitute"):
        assert check_refinement_dp(stat, count_query(1), data, neighbour=nb,
                                   domain=(0, 1, 2)).holds
