"""Ledger claims on the whole mixed release (privlab.proofs.thesis.ch6_mixed)."""

from __future__ import annotations

from privlab.proofs.thesis.ch6_mixed import CLAIMS, privlab_cases
from privlab.types import Status, status_of

BY_ID = {c.id: c for c in CLAIMS}


def test_thesis_algorithm_6_3_release_refuted_with_counterexample() -> None:
    r = BY_ID["thesis:sec-6.3.6-mixed-release"].check()
    assert status_of(r) is Status.REFUTED
    cex = r.counterexample
    assert cex["exact_loss"] > cex["epsilon"] and cex["p_x"] > 0 and cex["p_x_prime"] > 0
    # the failure is invisible at ε = 1 on the same data sets (the factor 2 absorbs it)
    assert r.evidence["cases"][0]["within_epsilon"]


def test_vldb14_release_refuted_by_composition_only() -> None:
    r = BY_ID["vldb14:sec-4.6-mixed-release"].check()
    assert status_of(r) is Status.REFUTED
    three, one = r.evidence["cases"]
    assert three["exact_loss"] > three["epsilon"] and three["certified_epsilon"] > 5
    assert one["within_epsilon"] and one["certificate_sound"]


def test_privlab_certificate_confirmed_and_controls_caught() -> None:
    claim = BY_ID["privlab:mixed-release-certificate"]
    assert claim.bounded and status_of(claim.check()) is Status.VERIFIED
    controls = [c for c in privlab_cases() if c["case"].startswith("control")]
    assert len(controls) == 2 and not any(c["within_epsilon"] for c in controls)


def test_ids_unique_and_sources() -> None:
    assert len(BY_ID) == len(CLAIMS)
    assert all(c.source for c in CLAIMS)
