"""Ledger claims on the whole mixed release (privlab.proofs.thesis.ch6_mixed)."""

from __future__ import annotations

import math

import pytest

from privlab.proofs.thesis import ch6_mixed as mx
from privlab.proofs.thesis.ch6_mixed import CLAIMS, privlab_cases
from privlab.proofs.verdict import form_problems
from privlab.types import Status, status_of

BY_ID = {c.id: c for c in CLAIMS}


def test_thesis_algorithm_6_3_release_refuted_with_counterexample() -> None:
    r = BY_ID["thesis:sec-6.3.6-mixed-release"].check()
    assert status_of(r) is Status.REFUTED
    cex = r.counterexample["sweep"]
    assert cex["exact_loss"] > cex["epsilon"] and cex["p_x"] > 0 and cex["p_x_prime"] > 0
    # every data set of 5 records: within ε at the smallest ε (the factor 2 absorbs it) …
    assert r.evidence["cases"][0]["within_epsilon"]
    # … while the two-cluster pairs fail at ε = 1 already for k = 5 (thesis Tables 6.x)
    fam = {(p["epsilon"], p["k"]): p for p in r.evidence["pairs_by_k_and_epsilon"]}
    assert fam[(1.0, 5)]["exact_loss"] > 1.0 and fam[(1.0, 5)]["clusters_changed"] == 2


def test_vldb14_release_refuted_by_composition_only() -> None:
    r = BY_ID["vldb14:sec-4.6-mixed-release"].check()
    assert status_of(r) is Status.REFUTED
    three, one = r.evidence["cases"][:2]
    assert three["exact_loss"] > three["epsilon"] and three["certified_epsilon"] > 5
    assert one["within_epsilon"] and one["certificate_sound"]
    # one cluster changes; its three draws approach the bound 3·ε·k/n
    for p in r.evidence["pairs_by_k_and_epsilon"]:
        assert p["clusters_changed"] == 1
        assert p["exact_loss"] <= 3 * p["epsilon"] * p["k"] / p["n"] * (1 + 1e-9)


@pytest.mark.parametrize("rel_of, pair_of, k, eps", [
    (mx._thesis_rel, mx._thesis_pair, 2, 4.0), (mx._thesis_rel, mx._thesis_pair, 3, 1.0),
    (mx._vldb14_rel, mx._vldb14_pair, 2, 5.0)])
def test_two_cluster_loss_equals_the_enumerated_law(rel_of, pair_of, k, eps) -> None:
    """The product-law loss equals max_o |log P_x(o) − log P_x′(o)| over the enumerated law
    of the released multiset (verify.releases.mixed_exact.categorical_law)."""
    from privlab.verify.releases.mixed_exact import categorical_law

    rel = rel_of(k, eps)
    x, xp = pair_of(k)
    law_x, law_y = categorical_law(rel, x), categorical_law(rel, xp)
    oracle = max(abs(math.log(law_x[o]) - math.log(law_y[o])) for o in law_x)
    assert set(law_x) == set(law_y)
    assert math.isclose(mx._two_cluster_loss(rel, x, xp)["exact_loss"], oracle, rel_tol=1e-9)


@pytest.mark.parametrize("cid", ["thesis:sec-6.3.6-mixed-release",
                                 "vldb14:sec-4.6-mixed-release"])
def test_grid_is_what_the_check_runs(cid: str) -> None:
    claim = BY_ID[cid]
    eps, ks = (p.grid or () for p in claim.params)
    r = claim.check()
    ran = {(p["epsilon"], p["k"]) for p in r.evidence["pairs_by_k_and_epsilon"]}
    assert ran == {(e, k) for e in eps for k in ks if k >= 2}
    assert any(c["k"] == 1 for c in r.evidence["cases"])  # the boundary k = 1


def test_privlab_certificate_confirmed_and_controls_caught() -> None:
    claim = BY_ID["privlab:mixed-release-certificate"]
    assert claim.bounded and status_of(claim.check()) is Status.VERIFIED
    controls = [c for c in privlab_cases() if c["case"].startswith("control")]
    assert len(controls) == 2 and not any(c["within_epsilon"] for c in controls)
    ran = {c["epsilon"] for c in privlab_cases() if not c["case"].startswith("control")}
    eps, ks = (p.grid or () for p in claim.params)
    assert ran == set(eps)
    assert {c["k"] for c in privlab_cases()} == set(ks)


def test_ids_unique_sources_and_form() -> None:
    assert len(BY_ID) == len(CLAIMS)
    assert all(c.source for c in CLAIMS)
    assert all(form_problems(c) == () for c in CLAIMS)
