"""Report section: the auditor's control suite (table ``audit-suite``).

Every mechanism with known ground truth (:mod:`privlab.audit.controls`) is audited black-box
(:func:`privlab.audit.suite.run`); the guarantees are that each correct mechanism comes out
"consistent" and each broken one is caught ("violation").  Samples per side: 10⁵ under
``--quick``, 10⁶ otherwise.  The summary states the run's family-wise error budget
(:class:`privlab.audit.budget.ErrorBudget`, ``ctx.audit_budget``): each lower bound holds at
95 % confidence, and a violation is reported only after confirmation at the budget's level.
"""

from __future__ import annotations

import numpy as np

from privlab.audit import suite
from privlab.report.section import Context, Guarantee, Section, audit_entry
from privlab.types import Table


def build(ctx: Context) -> Section:
    n = ctx.samples(suite.FULL_SAMPLES, suite.QUICK_SAMPLES)
    results = suite.run(samples=n, rng=np.random.SeedSequence([ctx.seed, 8]),
                        progress=ctx.progress,
                        confirm_confidence=ctx.audit_budget.confirm_confidence)
    audits, guarantees = [], []
    for row, res in results:
        control = row["expected"] == "violation"
        entry, g = audit_entry(res, control=control)
        entry.update(epsilon_true=row["epsilon_true"], true_note=row["true_note"])
        audits.append(entry)
        guarantees.append(Guarantee(
            description=f"audit suite: {row['mechanism']} ({row['family']}) "
                        f"{'caught' if control else 'passes'}",
            holds=bool(row["ok"]), evidence=dict(g.evidence)))
    rows = tuple(r for r, _ in results)
    budget = ctx.audit_budget
    table = Table(id="audit-suite", source="privlab auditor control suite (computed)",
                  columns=suite.COLUMNS, rows=rows,
                  notes=(
                      f"{n} outputs per side per neighbour pair, confidence 0.95.",
                      "epsilon_true: exact, an upper bound from the cited analysis, or inf.",
                      "ok: correct mechanisms must be consistent, broken ones a violation.",
                      budget.describe()))
    caught = sum(1 for r in rows if r["expected"] == "violation" and r["ok"])
    broken = sum(1 for r in rows if r["expected"] == "violation")
    passed = sum(1 for r in rows if r["expected"] == "consistent" and r["ok"])
    summary = (f"Black-box audit of {len(rows)} mechanisms with known privacy loss "
               f"({n:,} outputs per side, 95 % confidence): {passed} of "
               f"{len(rows) - broken} correct mechanisms pass, {caught} of {broken} broken "
               f"ones are caught.  Each lower bound holds at 95 % confidence (it exceeds "
               f"the true ε with probability at most 5 %); verdicts are controlled run-wide. "
               f"{budget.describe()}  See docs/auditor.md.")
    return Section(id="audit-suite", title="Auditor control suite", summary=summary,
                   results=(table,), audits=tuple(audits), guarantees=tuple(guarantees))
