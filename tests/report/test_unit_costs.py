"""The shipped unit costs are derived from two reports and name only units that exist."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from privlab.report import parallel, unit_costs


def _report(quick: bool, seconds: float) -> dict[str, object]:
    return {"privlab_version": "x", "quick": quick,
            "sections": [{"id": "audit-suite", "seconds": seconds}],
            "claims": [{"id": "thesis:thm-2", "seconds": 2 * seconds}],
            "tables": {"thesis-4.1": {"seconds": 3 * seconds}}}


def test_costs_are_the_seconds_each_report_recorded() -> None:
    out = unit_costs.derive(_report(True, 1.234), _report(False, 5.0), provenance="two runs")
    assert out["quick"] == {"section:audit-suite": 1.23, "claim:thesis:thm-2": 2.47,
                            "table:thesis-4.1": 3.7}
    assert out["full"]["table:thesis-4.1"] == 15.0
    assert "python -m privlab.report.unit_costs" in out["about"]


def test_written_file_is_read_back_by_the_scheduler(tmp_path: Path) -> None:
    """mutant caught: section ids written with underscores are read as other units."""
    for name, quick in (("q", True), ("f", False)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "report.json").write_text(json.dumps(_report(quick, 1.0)))
    out = tmp_path / "costs.json"
    assert unit_costs.main([str(tmp_path / "q" / "report.json"),
                            str(tmp_path / "f" / "report.json"), str(out)]) == 0
    table = json.loads(out.read_text())["quick"]
    keys = {parallel._unit_key(k) for k in table}
    assert ("section", parallel.SECTION_PREFIX + "audit_suite") in keys


def test_reports_in_the_wrong_slot_are_refused(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("q", "f"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "report.json").write_text(json.dumps(_report(False, 1.0)))
    out = tmp_path / "costs.json"
    assert unit_costs.main([str(tmp_path / "q" / "report.json"),
                            str(tmp_path / "f" / "report.json"), str(out)]) == 2
    assert capsys.readouterr().err.startswith("error: the quick report is a full run")
    assert not out.exists()


def test_shipped_costs_are_derived() -> None:
    """The shipped file is the command's output (its staleness: tests/report/test_parallel_plan)."""
    shipped = json.loads(unit_costs.SHIPPED.read_text("utf-8"))
    assert "derived by `python -m privlab.report.unit_costs`" in shipped["about"]
    assert set(shipped) == {"about", "quick", "full"}
