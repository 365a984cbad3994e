"""Fast ledger claims of thesis ch.6 / vldb14 / irm (the slow ones run in the ledger)."""

from __future__ import annotations

import pytest

from privlab.proofs.thesis.ch6 import CLAIMS
from privlab.types import Status, status_of

EXPECTED = {"thesis:prop-8": Status.REFUTED, "vldb14:prop-3": Status.REFUTED,
            "vldb14:alg-3": Status.REFUTED, "vldb14:sec-4-sqrt-n": Status.VERIFIED,
            "thesis:prop-9": Status.REFUTED, "vldb14:prop-4": Status.REFUTED,
            "thesis:eq-6.6": Status.VERIFIED, "thesis:sec-6.3-add-remove": Status.REFUTED}


@pytest.mark.parametrize("claim", [c for c in CLAIMS if not c.slow], ids=lambda c: c.id)
def test_fast_claims(claim) -> None:  # type: ignore[no-untyped-def]
    assert status_of(claim.check()) is EXPECTED[claim.id]


def test_ids_unique() -> None:
    assert len({c.id for c in CLAIMS}) == len(CLAIMS)
