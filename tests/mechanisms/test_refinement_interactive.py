"""Protocols 1–2 as sessions: never past the budget (hypothesis, adversarial sequences), refusal
closes the session, Proposition 4 accounting only when its condition holds, bad input."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import BudgetExceeded, InvalidParameter
from privlab.mechanisms.refinement.interactive import (
    LaplaceSession,
    RefinementSession,
    dec,
    proposition_4_condition,
)
from privlab.mechanisms.refinement.priors import DiscretePrior
from privlab.mechanisms.refinement.queries import Dataset, IndividualQuery, count_query

DATA = Dataset(records={i: i % 2 for i in range(5)})
PRIOR = DiscretePrior.uniform([0, 1])
COUNT_PRIOR = DiscretePrior.uniform(range(6))

queries = st.lists(st.tuples(st.one_of(st.integers(0, 6), st.none()),
                             st.sampled_from([0.01, 0.1, 0.25, 1 / 3, 0.5, 0.7, 1.0, 3.0])),
                   max_size=30)


def _q(i):
    return count_query(1) if i is None else IndividualQuery(individual=i, sensitivity=1.0)


@settings(max_examples=120, deadline=None)
@given(queries, st.sampled_from([0.3, 1.0, 2.5]), st.sampled_from(["sum", "per-individual"]),
       st.booleans())
def test_refinement_session_never_exceeds_budget(seq, budget, acc, close):
    s = RefinementSession(data=DATA, budget=budget, accounting=acc, rng=0,
                          close_on_refusal=close)
    refused = False
    for i, eps in seq:
        try:
            s.ask(_q(i), PRIOR if i is not None else COUNT_PRIOR, eps, "absolute")
            assert not (refused and close)
        except BudgetExceeded:
            refused = True
        assert s.spent <= dec(budget)
    # independent recomputation of the charge from the history
    if acc == "sum":
        assert s.spent == sum((h.epsilon for h in s.history), Fraction(0))
    assert all(h.spent_after <= dec(budget) for h in s.history)


@settings(max_examples=80, deadline=None)
@given(queries, st.sampled_from([0.5, 2.0]), st.sampled_from([0.5, 1.0, 4.0]))
def test_laplace_session_never_exceeds_budget(seq, budget, scale):
    s = LaplaceSession(data=DATA, budget=budget, scale=scale, rng=1, close_on_refusal=False)
    for i, lam in seq:
        try:
            s.ask(_q(i), scale=lam)
        except BudgetExceeded:
            pass
        assert s.spent <= dec(budget)


def test_refusal_closes_and_reports():
    s = RefinementSession(data=DATA, budget=1.0, rng=0)
    for _ in range(10):
        s.ask(IndividualQuery(individual=0), PRIOR, 0.1)
    assert s.spent == 1  # ten times 0.1 fit exactly
    with pytest.raises(BudgetExceeded, match=r"would spend 1\.1 > budget 1"):
        s.ask(IndividualQuery(individual=1), PRIOR, 0.1)
    with pytest.raises(BudgetExceeded, match="closed"):
        s.ask(IndividualQuery(individual=1), PRIOR, 0.001)
    summ = s.summary()
    assert len(summ["answered"]) == 10 and len(summ["refusals"]) == 1


def test_proposition_4_accounting_checked():
    s = RefinementSession(data=DATA, budget=1.0, rng=0, accounting="per-individual")
    for i in range(5):
        s.ask(IndividualQuery(individual=i), PRIOR, 0.9)
    assert s.spent == dec(0.9) and s.proposition_4_holds
    with pytest.raises(BudgetExceeded):  # same person again: sums for that person
        s.ask(IndividualQuery(individual=3), PRIOR, 0.2)
    s2 = RefinementSession(data=DATA, budget=1.0, rng=0, accounting="per-individual")
    s2.ask(count_query(1), COUNT_PRIOR, 0.5, "absolute")
    s2.ask(IndividualQuery(individual=0), PRIOR, 0.4)
    assert s2.spent == dec(0.9) and not s2.proposition_4_holds


def test_condition_function():
    assert proposition_4_condition([frozenset({1}), frozenset({2, 3})])
    assert not proposition_4_condition([frozenset({1}), frozenset({1, 3})])
    assert not proposition_4_condition([frozenset({1}), None])


def test_bad_input_not_charged():
    s = RefinementSession(data=DATA, budget=1.0, rng=0)
    with pytest.raises(InvalidParameter):
        s.ask(IndividualQuery(individual=0), PRIOR, -0.1)
    with pytest.raises(InvalidParameter):
        s.ask(IndividualQuery(individual=0), PRIOR, 0.1, "euclid")
    assert s.spent == 0 and s.closed is None
    with pytest.raises(InvalidParameter):
        RefinementSession(data=DATA, budget=0.0)
    with pytest.raises(InvalidParameter):
        LaplaceSession(data=DATA, budget=1.0).ask(IndividualQuery(individual=0))


def test_absent_individual_answers_from_prior():
    s = RefinementSession(data=DATA, budget=100.0, rng=0)
    answers = [s.ask(IndividualQuery(individual="nobody"), PRIOR, 1.0) for _ in range(60)]
    assert 0 < sum(answers) < 60  # the prior (1/2, 1/2), not a point mass
