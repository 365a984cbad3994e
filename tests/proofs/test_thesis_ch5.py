"""The ch.5 ledger: every claim runs and gets the status its evidence supports; tables carry
paper_* columns; golden values recomputed here by hand formulas (math module)."""

from __future__ import annotations

import math

import pytest

from privlab.proofs import default_ledger
from privlab.proofs.thesis import ch5 as ch5
from privlab.proofs.thesis import ch5_tables as tb
from privlab.types import Status

V, C, R = Status.VERIFIED, Status.CONFIRMED, Status.REFUTED
EXPECTED = {
    "thesis:sec-5.2-masses": R, "thesis:alg-5.1-step-iv": R, "thesis:alg-5.1": V,
    "thesis:alg-5.1-printed-masses": R, "thesis:prop-2": C, "thesis:prop-3": C,
    "thesis:prop-3-substitution": Status.FINDING, "thesis:table-5.2": C,
    "thesis:sec-5.2-delta-individual": R, "thesis:sec-5.2-delta-statistical": R,
    "thesis:ex-8": V, "thesis:prop-4": C, "thesis:prop-5": C, "thesis:cor-2": C,
    "thesis:protocol-2": C, "thesis:protocol-1": C, "thesis:sec-5.4.1-modified-condition": V,
    "thesis:table-5.5": R, "thesis:sec-5.5.1": R, "thesis:sec-5.5.1-conclusion": V,
    "thesis:sec-5.2-example-7-products": C, "thesis:prop-2-continuous-all-answers": C,
}


@pytest.fixture(scope="module")
def outcomes():
    from privlab.proofs.ledger import Ledger

    return {o.claim.id: o for o in Ledger(("privlab.proofs.thesis.ch5",)).run()}


def test_statuses(outcomes):
    assert set(EXPECTED) <= set(outcomes)
    for cid, want in EXPECTED.items():
        assert outcomes[cid].error is None, (cid, outcomes[cid].error)
        assert outcomes[cid].status is want, cid


def test_registered_in_default_ledger():
    ids = set(default_ledger().ids())
    assert set(EXPECTED) <= ids
    assert {"thesis-5.5", "thesis-5.5.1", "thesis-5.3", "thesis-5.4"} <= set(
        default_ledger().tables())


def test_table_55_golden():
    t = tb.table_5_5()
    assert t.columns[:6] == ("epsilon", "laplace_variance", "laplace_p_in_range",
                             "refinement_variance", "refinement_u_size", "refinement_p_in_u")
    for row in t.rows:
        e = row["epsilon"]
        p = 1 / (1 + math.exp(e))  # derived size of U_u
        var = (math.exp(e) * p**3 + math.exp(-e) * (1 - p**3)) / 12
        assert row["refinement_u_size"] == pytest.approx(p, rel=1e-12)
        assert row["refinement_variance"] == pytest.approx(var, rel=1e-9)
        assert row["laplace_p_in_range"] == pytest.approx(1 - math.exp(-e / 2), rel=1e-12)
        assert all(f"paper_{c}" in row for c in t.columns[1:6])


def test_table_551_golden():
    rows = {r["quantity"]: r for r in tb.table_5_5_1().rows}
    q = 0.01
    assert rows["laplace P(K=1|f=0)"]["value"] == pytest.approx(math.exp(-1) / 2)
    assert rows["refinement P(K=1)"]["value"] == pytest.approx(
        q / math.e * (1 - q) + q * math.e * q, rel=1e-12)
    assert all("paper_value" in r for r in rows.values())


def test_mutated_paper_value_is_detected(monkeypatch):
    """If the printed table agreed, the check would hold: the claim can fail both ways."""
    fixed = {k: (v[0], f"{1 - math.exp(-float(sp) / 2):.3f}", *v[2:])
             for (k, sp), v in zip(tb.EPS_55, (tb.PAPER_55[k] for k, _ in tb.EPS_55),
                                   strict=True)}
    monkeypatch.setattr(tb, "PAPER_55", fixed)
    assert tb.check_table_55().holds


def test_claims_have_notes_and_sources():
    for c in ch5.CLAIMS:
        assert c.source.startswith("000_65177858bc9aa63c.txt §")
