"""The audit-suite report section states the run's family-wise error budget (issue 15)."""

from __future__ import annotations

from typing import Any

import pytest

from privlab.audit.budget import ErrorBudget
from privlab.report.section import Context
from privlab.report.sections import audit_suite


def test_summary_states_the_budget_it_was_given(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def fake_run(**kw: Any) -> list[Any]:  # the suite itself is audited elsewhere
        seen.update(kw)
        return []

    monkeypatch.setattr(audit_suite.suite, "run", fake_run)
    budget = ErrorBudget(total=2e-4, audits=8)
    sec = audit_suite.build(Context(quick=True, audit_budget=budget))
    # the sentence of *this* budget (a hard-coded "5 %" or the default budget would fail)
    assert budget.describe() in sec.summary
    assert "2e-04" in sec.summary or "0.0002" in sec.summary
    assert budget.describe() in sec.results[0].notes
    assert seen["confirm_confidence"] == pytest.approx(1 - 2e-4 / 8)
