"""``privlab claims`` lists the latest report's ledger when that report comes from the same
sources (issue 19), and recomputes otherwise."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from privlab._sources import source_hash
from privlab.cli import main

CID = "thesis:def-9"


def _report(d: Path, *, same: bool, quick: bool = False) -> None:
    d.mkdir(parents=True, exist_ok=True)
    claim = {"id": CID, "status": "confirmed", "method": "exact", "source": "x",
             "statement": "MARKER statement from the report", "evidence": {}}
    (d / "report.json").write_text(json.dumps({
        "privlab_version": "0", "source_hash": source_hash() if same else "0" * 64,
        "quick": quick, "generated": "2026-01-01T00:00:00+00:00", "claims": [claim]}))


def test_listing_reads_a_report_of_the_same_sources(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    _report(tmp_path / "rep", same=True)
    assert main(["claims", "--id", CID, "--report", str(tmp_path / "rep"),
                 "--format", "json"]) == 0
    cap = capsys.readouterr()
    rows = json.loads(cap.out)
    assert rows[0]["statement"] == "MARKER statement from the report"
    assert "claims from" in cap.err and "--rerun" in cap.err


@pytest.mark.parametrize("case", ["other-sources", "quick-report", "rerun"])
def test_listing_recomputes_otherwise(tmp_path: Path, case: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Able to fail: a report of other sources, a --quick report for a full listing, or
    --rerun must not be read (the marker statement must not come back)."""
    _report(tmp_path / "rep", same=case != "other-sources", quick=case == "quick-report")
    extra = ["--rerun"] if case == "rerun" else []
    assert main(["claims", "--id", CID, "--report", str(tmp_path / "rep"), "--format", "json",
                 *extra]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["id"] == CID and rows[0]["statement"] != "MARKER statement from the report"


def test_source_hash_changes_with_the_sources(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    import privlab
    from privlab import _sources

    src = Path(privlab.__file__).parent
    shutil.copytree(src, tmp_path / "privlab", ignore=shutil.ignore_patterns("__pycache__"))
    def digest(root: Path) -> str:
        monkeypatch.setattr(_sources, "__file__", str(root / "_sources.py"))
        _sources.source_hash.cache_clear()
        return _sources.source_hash()
    a = digest(tmp_path / "privlab")
    assert a == digest(src)
    (tmp_path / "privlab" / "types.py").write_text((src / "types.py").read_text() + "\n# x\n")
    assert digest(tmp_path / "privlab") != a
    _sources.source_hash.cache_clear()
