"""Issue 15 item 3 (slow): with the family-wise budget and confirmation, a broken mechanism
put among the *guaranteed* (correct) audits of ``privlab verify`` still fails the run."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from privlab.report import workload
from privlab.report.section import Context


@pytest.mark.slow
def test_broken_mechanism_among_guaranteed_audits_fails(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The refinement section's 'adaptive attack estimate' audit is expected consistent at
    ε = 1; its sampler is replaced by Laplace at half the scale (true ε = 2), which must be
    caught after confirmation at the budget's level, so the section (and verify) fails."""
    from privlab.report.sections import refinement

    def broken(k, who, *, budget, rounds, rng):
        shift = 0.0 if who is refinement.atk.PRESENT_0 else 1.0
        return shift + np.random.default_rng(rng).laplace(0.0, 0.5, k)

    monkeypatch.setattr(refinement.atk, "simulate", broken)
    ctx = Context(quick=True, seed=0, figures_dir=tmp_path)
    (sec,) = workload.build_sections(ctx, ["privlab.report.sections.refinement"])
    bad = [g for g in sec.guarantees if not g.holds]
    assert not sec.ok and any("adaptive attack" in g.description for g in bad)
    entry = next(a for a in sec.audits if a["mechanism"].startswith("adaptive attack"))
    assert entry["verdict"] == "violation"
    assert entry["confirmation"]["confidence"] == ctx.audit_budget.confirm_confidence
