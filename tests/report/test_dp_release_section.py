"""Report section dp_release (quick): guarantees hold, grid complete, figure written."""

from privlab.report.section import Context
from privlab.report.sections import dp_release


def test_section_quick(tmp_path):
    s = dp_release.build(Context(quick=True, figures_dir=tmp_path))
    assert s.ok, [g.description for g in s.guarantees if not g.holds]
    grid = next(t for t in s.results if t.id == "dp-release-certification")
    assert len(grid.rows) == 3 * 3 * 2 * 2 * 2
    # every add/remove configuration is refused (the row count separates neighbours)
    assert all(r["certified_epsilon"] is None for r in grid.rows
               if r["neighbour"] == "add-remove")
    # shared noise + aligned rows with k >= 2 is refused for both microaggregations
    assert all(r["certified_epsilon"] is None for r in grid.rows
               if r["noise"] == "shared" and r["rows"] == "aligned" and r["k"] > 1)
    controls = [a for a in s.audits if a["control"]]
    assert len(controls) == 3 and all(a["structural_leak"] for a in controls)
    assert all(a["verdict"] == "consistent" for a in s.audits if not a["control"])
    assert (tmp_path / "dp_release_sse_rl.png").is_file()
    curves = next(t for t in s.results if t.id == "dp-release-sse-rl")
    assert {r["epsilon"] for r in curves.rows} == set(dp_release.EPSILONS)
