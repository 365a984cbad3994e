"""thesis ch.7 / ins15 ledger: statuses of the fast claims, tables carry paper_ columns."""

from __future__ import annotations

import pytest

from privlab.proofs import ins15
from privlab.proofs.ledger import Ledger
from privlab.proofs.thesis import ch7 as thesis_ch7
from privlab.types import Status

EXPECTED = {
    "thesis:alg-7.1": Status.CONFIRMED,  # bounded: N <= 60
    "thesis:alg-7.1-optimal": Status.REFUTED,
    "thesis:def-15": Status.CONFIRMED,
    "thesis:prop-10": Status.CONFIRMED,
    "thesis:sec-7.2.1-buckets": Status.REFUTED,  # t = 1 leaves b free
    "thesis:table-7.6": Status.VERIFIED,
    "thesis:sec-7.2.2-construction": Status.CONFIRMED,
    "thesis:sec-7.2.2-l-range": Status.CONFIRMED,  # bounded: N ≤ 80, t ≤ 4
    "thesis:sec-7.3.1": Status.INCONCLUSIVE,  # the check restates t-closeness
    "thesis:sec-7.3-substitute": Status.FINDING,  # issue 14: substitution is the lab's extension
    "thesis:sec-7.3.2": Status.VERIFIED,
    "ins15:prop-1": Status.REFUTED,
    "ins15:prop-1-derived": Status.CONFIRMED,
    "ins15:prop-1-second-term": Status.VERIFIED,
    "ins15:prop-2": Status.CONFIRMED,
    "ins15:prop-3": Status.REFUTED,  # neighbouring data sets: ratio 2 > t² = 25/16
    "ins15:sec-6.1-buckets": Status.REFUTED,  # t = 1 leaves b_i free
    "ins15:sec-6.3-bucket-sizes": Status.REFUTED,
    "ins15:sec-6.2-count-rule": Status.REFUTED,
    "ins15:table-1": Status.VERIFIED,
}


@pytest.fixture(scope="module")
def outcomes():
    led = Ledger(["privlab.proofs.thesis.ch7", "privlab.proofs.ins15"])
    assert led.load_errors == ()
    return {o.claim.id: o for o in led.run(quick=True)}


def test_statuses(outcomes):
    for cid, status in EXPECTED.items():
        assert outcomes[cid].status == status, (cid, outcomes[cid].to_dict())
    assert outcomes["thesis:sec-7.2.2-count-rules"].reason is not None  # slow, skipped


def test_refuted_have_counterexamples(outcomes):
    for o in outcomes.values():
        if o.status == Status.REFUTED:
            assert o.result.counterexample is not None


def test_prop1_counterexample_is_exact(outcomes):
    cx = outcomes["ins15:prop-1"].result.counterexample
    from fractions import Fraction

    assert cx["exact_t"] == Fraction(9, 5) and cx["printed_t"] == Fraction(8, 5)


@pytest.mark.parametrize("tid", ["thesis-7.5", "thesis-7.6", "ins15-1", "ins15-prop1",
                                 "tcloseness-utility"])
def test_tables(tid):
    tables = {**thesis_ch7.TABLES, **ins15.TABLES}
    t = tables[tid]()
    assert t.id == tid and t.rows
    if tid != "tcloseness-utility":
        assert any(c.startswith("paper_") for c in t.columns)
    if tid == "thesis-7.6":
        assert all(r["achieved_mass"] == r["derived_mass"] for r in t.rows)
    if tid == "thesis-7.5":
        assert {str(r["distance"]) for r in t.rows} == {"3/2"}
