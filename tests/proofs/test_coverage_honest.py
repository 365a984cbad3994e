"""Coverage that cannot lie (issue 30): a not-checkable reason is checked against the seed
texts — a table excused as holding no computed number must have no row of results in its block,
and a reason naming absent data must name a file that really is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from privlab.proofs import coverage as cov
from privlab.proofs import default_ledger

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT.parent / "shared" / "seeds"
DATA = ROOT.parent / "shared" / "data"
needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason=f"seed texts absent ({SEEDS})")


@needs_seeds
def test_no_not_checkable_reason_is_contradicted_by_the_seeds() -> None:
    assert cov.contradicted(SEEDS, DATA if DATA.is_dir() else None) == []


@needs_seeds
def test_a_false_excuse_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reasons the last referee round found false, put back: each is reported."""
    wrong = {("thesis", "Table 3.6"): "illustrative data layout, no computed number",
             ("vldb14", "Table 1"): "description of the data sets, no computed number",
             ("vldb14", "Table 5"): "experimental results on data not available (adult.csv)"}
    monkeypatch.setattr(cov, "NOT_CHECKABLE", {**cov.NOT_CHECKABLE, **wrong})
    found = cov.contradicted(SEEDS, DATA if DATA.is_dir() else None)
    assert any(f.startswith("thesis Table 3.6") for f in found)
    assert any(f.startswith("vldb14 Table 1") for f in found)
    if (DATA / "adult.csv").exists():
        assert any(f.startswith("vldb14 Table 5") and "present" in f for f in found)


def test_open_items_are_listed_not_excused() -> None:
    led = default_ledger()
    rows = cov.coverage_rows(led.claims(), led.tables())
    opened = {(r["seed"], r["item"]) for r in rows if (r["why"] or "").startswith("open: ")}
    assert opened == set(cov.OPEN) - {(r["seed"], r["item"]) for r in rows if r["covered_by"]}
    assert not set(cov.OPEN) & set(cov.NOT_CHECKABLE)


def test_an_unnumbered_claim_has_a_section_id() -> None:
    """The chapter introduction's sentence about 'any sensible criterion' is a ledger entry."""
    assert "thesis:ch-4-intro-any-criterion" in default_ledger().ids()
