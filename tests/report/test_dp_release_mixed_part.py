"""The mixed-release part of the dp_release report section (quick context)."""

from privlab.report.section import Context
from privlab.report.sections._dp_release_mixed import mixed_part


def test_mixed_part_guarantees_hold(tmp_path):
    table, guarantees, cert = mixed_part(Context(quick=True, figures_dir=tmp_path))
    assert all(g.holds for g in guarantees), [g.evidence for g in guarantees if not g.holds]
    assert cert["holds"] and cert["mechanism"] == "dp-release-mixed"
    rows = {r["case"]: r for r in table.rows}
    default = rows["privlab default (age + job)"]
    assert default["exact_loss"] <= default["certified_epsilon"] <= default["epsilon"] + 1e-12
    assert sum(1 for r in table.rows if not r["within_epsilon"]) == 2
