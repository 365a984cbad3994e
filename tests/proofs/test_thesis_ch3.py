"""privlab.proofs.thesis.ch3: the ledger entry of the microaggregation family."""

from __future__ import annotations

import numpy as np

from privlab.proofs import ledger
from privlab.proofs.ledger import run_claim
from privlab.proofs.thesis import ch3 as thesis_ch3
from privlab.types import Status
from privlab.verify.microaggregation.reference import mdav_group_sizes


def test_registered_once_and_ids_unique():
    assert ledger.MODULES.count("privlab.proofs.thesis.ch3") == 1
    assert "privlab.proofs.thesis.microaggregation" not in ledger.MODULES
    ids = [c.id for c in thesis_ch3.CLAIMS]
    assert len(ids) == len(set(ids))
    for needed in ("thesis:alg-2.1", "thesis:def-12", "thesis:prop-6", "thesis:prop-7",
                   "thesis:prop-7-only-if", "thesis:sec-3.3.1-reid-bound"):
        assert needed in ids
    assert "thesis-3.10" in thesis_ch3.TABLES


def test_ledger_loads_the_module_without_errors():
    led = ledger.Ledger(("privlab.proofs.thesis.ch3",))
    ids = {c.id for c in led.claims()}
    assert "thesis:alg-2.1" in ids
    assert not any(i.startswith(ledger.LOAD_ERROR_PREFIX) for i in ids)


def test_group_size_arithmetic_by_hand():
    # n = 23, k = 4: 23 ≥ 12 → 4, 4 (15 left) → 4, 4 (7 left) → 7 < 8 → last cluster of 7
    assert mdav_group_sizes(23, 4) == [4, 4, 4, 4, 7]
    # n = 10, k = 3: 10 ≥ 9 → 3, 3 (4 left) → 4 < 6 → last cluster of 4
    assert mdav_group_sizes(10, 3) == [3, 3, 4]
    # 2k ≤ n < 3k: one extra cluster; n = 5, k = 2 → 2, 3
    assert mdav_group_sizes(5, 2) == [2, 3]


def test_alg_2_1_confirmed():
    """Runs of privlab's MDAV are instances: confirmed (no proof object), not verified."""
    out = run_claim(thesis_ch3.ALG_2_1)
    assert out.error is None
    assert out.status is Status.CONFIRMED, out.result


def test_alg_2_1_check_can_fail(monkeypatch):
    from privlab.mechanisms.microaggregation import mdav_algorithm as microagg_mdav

    def broken(x, k, distance="standardised", domain=None):  # chunks of k in input order
        n = x.shape[0]
        return np.minimum(np.arange(n) // k, max(n // k, 1) - 1)

    monkeypatch.setattr(microagg_mdav, "mdav_labels", broken)
    res = thesis_ch3.check_alg_2_1(random_sets=20)
    assert res.holds is False and res.counterexample is not None
