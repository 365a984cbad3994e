"""The microaggregation report section: guarantees hold, controls caught, figure written."""

from __future__ import annotations

from privlab.report.section import Context
from privlab.report.sections.microaggregation import build


def test_section_quick(tmp_path):
    s = build(Context(quick=True, figures_dir=tmp_path))
    assert s.ok, [g.to_dict() for g in s.guarantees if not g.holds]
    assert sum("broken control caught" in g.description for g in s.guarantees) >= 6
    assert (tmp_path / "microaggregation.png").exists()
    d = s.to_dict()
    rows = {(r["algorithm"], r["k"]): r for r in d["results"][1]["rows"]}
    assert rows["mdav", 2]["insensitive"] is False and rows["mdav", 2]["counterexample_n"] == 5
    assert rows["insensitive-mdav", 2]["insensitive"] is True
