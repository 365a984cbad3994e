"""Scheduling of ``privlab verify``'s units: longest first by an earlier report's timings."""

from __future__ import annotations

import pytest

from privlab.proofs.ledger import default_ledger
from privlab.report.parallel import _plan, previous_costs, table_dict
from privlab.report.section import Context
from privlab.report.workload import SECTIONS


def test_plan_without_timings_puts_sections_then_slow_claims_first() -> None:
    ledger = default_ledger()
    plan = _plan(Context(quick=False), SECTIONS, ledger, {})
    n_sec = len(SECTIONS)
    assert plan[:n_sec] == [("section", s) for s in SECTIONS]
    slow = {c.id for c in ledger.claims() if c.slow}
    assert {u[1] for u in plan[n_sec:n_sec + len(slow)]} == slow
    assert len(plan) == len(set(plan)) == n_sec + len(ledger.claims()) + len(ledger.tables())


def test_plan_orders_by_previous_seconds() -> None:
    ledger = default_ledger()
    claim = ledger.claims()[-1].id
    table = sorted(ledger.tables())[0]
    report = {"claims": [{"id": claim, "seconds": 99.0}],
              "tables": {table: {"id": table, "seconds": 50.0}},
              "sections": [{"id": "audit-suite", "seconds": 0.01}]}
    costs = previous_costs(report)
    assert costs["section", "privlab.report.sections.audit_suite"] == 0.01
    plan = _plan(Context(quick=True), SECTIONS, ledger, costs)
    assert plan[:2] == [("claim", claim), ("table", table)]
    others = [plan.index(("section", s)) for s in SECTIONS if not s.endswith("audit_suite")]
    assert plan.index(("section", "privlab.report.sections.audit_suite")) > max(others)
    assert previous_costs(None) == {}


def test_table_dict_records_seconds() -> None:
    ledger = default_ledger()
    tid = sorted(ledger.tables())[0]
    d = table_dict(ledger, tid)
    assert d["seconds"] >= 0 and d["id"] == tid and "rows" in d


@pytest.mark.parametrize("report", [{"claims": ["x"]}, {"tables": {"t": {"seconds": "fast"}}},
                                    {"sections": [None]}, {"claims": 3}])
def test_previous_costs_ignore_a_malformed_report(report: dict) -> None:
    """The timings only order the units: an edited report.json never stops a run."""
    assert previous_costs(report) == {}
