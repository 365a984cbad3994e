"""Fast ledger claims of thesis ch.6 / vldb14 / irm (the slow ones run in the ledger)."""

from __future__ import annotations

import pytest

from privlab.proofs.thesis.ch6 import CLAIMS
from privlab.types import Status, status_of

EXPECTED = {"thesis:prop-8": Status.REFUTED, "vldb14:prop-3": Status.REFUTED,
            "vldb14:alg-3": Status.REFUTED, "vldb14:sec-4-sqrt-n": Status.VERIFIED,
            "thesis:prop-9": Status.REFUTED, "vldb14:prop-4": Status.REFUTED,
            "thesis:eq-6.6": Status.VERIFIED, "thesis:sec-6.3-add-remove": Status.REFUTED}


@pytest.mark.parametrize("claim", [c for c in CLAIMS if not c.slow and c.id in EXPECTED],
                         ids=lambda c: c.id)
def test_fast_claims(claim) -> None:  # type: ignore[no-untyped-def]
    assert status_of(claim.check()) is EXPECTED[claim.id]


def test_ids_unique() -> None:
    assert len({c.id for c in CLAIMS}) == len(CLAIMS)


def test_em_worst_loss_matches_the_per_pair_oracle() -> None:
    """sec634_em.worst_loss (vectorised over b, additive marginality) equals the loss of
    ExponentialCentroid.privacy_loss pair by pair (the former code, kept as the oracle)."""
    from privlab.mechanisms.microaggregation.semantic import ExponentialCentroid
    from privlab.mechanisms.microaggregation.taxonomy import project_taxonomy
    from privlab.proofs.thesis.sec634_em import worst_loss

    t = project_taxonomy("job")
    for eps, k in ((0.1, 3), (1.0, 30), (10.0, 300)):
        em = ExponentialCentroid(taxonomy=t, epsilon=eps)
        oracle = max(em.privacy_loss([a] * k, [b] + [a] * (k - 1))
                     for a in t.domain for b in t.domain)
        assert abs(worst_loss(eps, k)[0] - oracle) <= 1e-12 * max(1.0, oracle)
