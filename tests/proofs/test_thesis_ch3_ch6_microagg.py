"""The microaggregation ledger module: claims load and give the documented statuses."""

from __future__ import annotations

import pytest

from privlab.proofs.ledger import Ledger

MOD = "privlab.proofs.thesis.microaggregation"


def test_module_loads() -> None:
    led = Ledger([MOD])
    assert not led.load_errors
    assert "thesis-3.10" in led.tables()


@pytest.mark.parametrize("cid, status", [
    ("thesis:prop-6", "refuted"),
    ("thesis:prop-7-only-if", "refuted"),  # k = 1
    ("thesis:sec-6.3.3-hamming", "confirmed"),  # bounded check
    ("thesis:sec-3.3.1-reid-bound", "confirmed"),  # bounded check
    ("thesis:sec-3.3.1-reid-bound-ties", "refuted"),
    ("thesis:sec-3.4.2-table-3.11", "inconclusive"),
    ("thesis:def-12", "confirmed"),  # bounded check
    ("thesis:prop-7", "confirmed"),  # bounded check
])
def test_claim_status(cid: str, status: str) -> None:
    (out,) = Ledger([MOD]).run([cid])
    assert out.status.value == status, out.to_dict()


def test_table_3_10_synthetic(monkeypatch) -> None:
    from privlab.proofs.thesis import ch3_tables as tb

    monkeypatch.setattr(tb, "load_census", lambda data_dir=None: None)
    t = tb.table_thesis_3_10(runs=2)
    assert t.columns[:6] == ("k", "method", "mean", "sd", "paper_mean", "paper_sd")
    assert len(t.rows) == 27 and all(r["paper_mean"] is None for r in t.rows)
    assert any("EIA" in n for n in t.notes)
