"""The t-closeness report section: releases verified, broken controls caught, figure written."""

from __future__ import annotations

from privlab.report.section import Context
from privlab.report.sections.tcloseness import build


def test_section_quick(tmp_path):
    s = build(Context(quick=True, figures_dir=tmp_path))
    assert s.ok, [g.to_dict() for g in s.guarantees if not g.holds]
    assert sum("broken control caught" in g.description for g in s.guarantees) == 3
    assert (tmp_path / "tcloseness.png").exists()
    d = s.to_dict()
    assert d["results"][0]["rows"][0]["t_close"] is True
