"""The refinement report section builds in quick mode, every guarantee holds, controls are
caught and the figures are written."""

from __future__ import annotations

from privlab.report.section import Context
from privlab.report.sections import refinement


def test_section_quick(tmp_path):
    s = refinement.build(Context(quick=True, seed=0, figures_dir=tmp_path))
    assert s.ok, [g.description for g in s.guarantees if not g.holds]
    assert any(a["control"] and a["verdict"] == "violation" for a in s.audits)
    assert all((tmp_path / f.file).exists() for f in s.figures)
    assert {t.id for t in s.results} >= {"thesis-5.5", "thesis-5.5.1"}
