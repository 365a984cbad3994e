"""Thesis §6.3.4–6.3.6 equations (privlab.proofs.thesis.sec634_equations)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from privlab.proofs.ledger import run_claim
from privlab.proofs.thesis import sec634_equations as eq
from privlab.proofs.verdict import form_problems
from privlab.types import Status

BY_ID = {c.id: c for c in eq.CLAIMS}


def test_tree_enumeration_counts_rooted_trees() -> None:
    """OEIS A000081: unlabelled rooted trees with 1 … 8 nodes."""
    assert [len(eq.rooted_trees(n)) for n in range(1, 9)] == [1, 1, 2, 4, 9, 20, 48, 115]


def test_smallest_counterexample_by_hand() -> None:
    """root → {ℓ, A, B}, A → {a1, a2}, B → {b1, b2}.  φ sizes: ℓ 2, leaves under A/B 3.
    r(ℓ, a) = (2·4 − 1)/4 = 7/4; r(a1, a2) = (2·4 − 2)/4 = 3/2; r(a1, b1) = (2·5 − 1)/5 = 9/5.
    Marginality products: ℓ (7/4)⁴ > a1 (3/2)(7/4)(9/5)², so a_b = ℓ, a_t any leaf (7/4)."""
    from privlab.mechanisms.microaggregation.taxonomy import Taxonomy

    tax = Taxonomy(parents={"root": (), "l": ("root",), "A": ("root",), "B": ("root",),
                            "a1": ("A",), "a2": ("A",), "b1": ("B",), "b2": ("B",)})
    a = eq.boundary_analysis(tax)
    assert {c["a_b"] for c in a["choices"]} == {"l"}
    assert {c["r"] for c in a["choices"]} == {Fraction(7, 4)}
    assert a["sensitivity"] == a["diameter"] == Fraction(9, 5)
    assert Fraction(7, 4) ** 4 > Fraction(3, 2) * Fraction(7, 4) * Fraction(9, 5) ** 2


def test_sensitivity_is_the_diameter_on_every_small_tree() -> None:
    """Δ(m) ≥ δ(s, s′) (candidate c = s) and ≤ by the triangle inequality: equal, exactly."""
    for _, tax in eq._trees():
        a = eq.boundary_analysis(tax)
        assert a["sensitivity"] == a["diameter"], tax.name


def test_exact_and_float_sensitivities_agree_on_the_shipped_taxonomies() -> None:
    from privlab.verify.microaggregation.taxonomy import check_marginality_sensitivity

    for name in eq.SHIPPED:
        tax = eq._shipped(name)
        a = eq.boundary_analysis(tax)
        r = check_marginality_sensitivity(tax)
        assert math.isclose(eq._log2(a["sensitivity"]), r.value, rel_tol=1e-12)
        assert r.holds is all(a["sensitivity"] <= c["r"] for c in a["choices"])


@pytest.mark.parametrize("cid, status", [("thesis:eq-6.2-6.3", Status.REFUTED),
                                         ("thesis:eq-6.4", Status.CONFIRMED),
                                         ("thesis:eq-6.5", Status.CONFIRMED),
                                         ("thesis:eq-6.7", Status.REFUTED)])
def test_claim_status(cid: str, status: Status) -> None:
    out = run_claim(BY_ID[cid])
    assert out.status is status, out.reason
    if status is Status.CONFIRMED:
        assert all(a["status"] == "refuted" for a in out.able_to_fail)


def test_counterexamples_are_the_eight_concept_tree_and_job() -> None:
    r = eq.check_eq_6_2_6_3()
    assert r.counterexample["concepts"] == 8 and "job" in r.counterexample["failing"]
    assert r.evidence["failing_trees"] == 1
    r = eq.check_eq_6_7()
    assert r.counterexample["concepts"] == 8 and r.counterexample["failing"] == ["job"]


def test_refuted_claims_mutants_are_caught_too() -> None:
    for m in BY_ID["thesis:eq-6.2-6.3"].mutants:
        assert m.check().holds is False


def test_wordnet_claim() -> None:
    out = run_claim(BY_ID["thesis:eq-6.2-6.3-wordnet"])
    if out.result is not None and not out.result.decided:
        pytest.skip("wordnet-3.0 not found")
    assert out.status is Status.VERIFIED, out.reason
    assert [a["status"] for a in out.able_to_fail] == ["refuted", "refuted"]


def test_every_claim_is_well_formed() -> None:
    assert len(BY_ID) == len(eq.CLAIMS)
    for c in eq.CLAIMS:
        assert form_problems(c) == (), c.id
