"""``privlab claims`` lists the latest report's ledger when that report comes from the same
sources (issue 19), and recomputes otherwise, saying why on stderr; a --quick report's skipped
claims are listed as skipped, the first line saying so (issue "never hang, never flake")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from privlab._sources import source_hash
from privlab.cli import main

CID = "thesis:def-9"
SLOW = "thesis:def-12"  # marked slow: a --quick run skips it


def _report(d: Path, *, same: bool, quick: bool = False, skipped: bool = False) -> None:
    """A report holding CID (status skipped when ``skipped``, marker statement) and, for a
    quick report, the slow claim SLOW skipped."""
    d.mkdir(parents=True, exist_ok=True)
    claim = {"id": CID, "status": "skipped" if skipped else "confirmed", "method": "exact",
             "source": "x", "statement": "MARKER statement from the report", "evidence": {}}
    slow = {"id": SLOW, "status": "skipped", "method": None, "source": "x",
            "statement": "slow MARKER", "evidence": {"reason": "skipped (--quick)"}}
    (d / "report.json").write_text(json.dumps({
        "privlab_version": "0", "source_hash": source_hash() if same else "0" * 64,
        "quick": quick, "generated": "2026-01-01T00:00:00+00:00",
        "claims": [claim, *([slow] if quick else [])]}))


def test_listing_reads_a_report_of_the_same_sources(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    _report(tmp_path / "rep", same=True)
    assert main(["claims", "--id", CID, "--report", str(tmp_path / "rep"),
                 "--format", "json"]) == 0
    cap = capsys.readouterr()
    rows = json.loads(cap.out)
    assert rows[0]["statement"] == "MARKER statement from the report"
    assert "claims from" in cap.err and "--rerun" in cap.err
    assert "computing" not in cap.err  # nothing recomputed, nothing announced


@pytest.mark.parametrize("case,why", [
    ("no-report", "no report in"),
    ("other-sources", "produced by other privlab sources (source hash differs)"),
    ("quick-skipped", "is a --quick report that skipped thesis:def-9"),
    ("rerun", "recomputing the claims (--rerun)"),
])
def test_listing_recomputes_otherwise_and_says_why(tmp_path: Path, case: str, why: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Able to fail: no report, a report of other sources, a --quick report that skipped the
    claim asked for by --id, or --rerun must not be read (the marker statement must not come
    back), and one stderr line gives the reason (mutant caught: a silent recomputation)."""
    if case != "no-report":
        _report(tmp_path / "rep", same=case != "other-sources", quick=case == "quick-skipped",
                skipped=case == "quick-skipped")
    extra = ["--rerun"] if case == "rerun" else []
    assert main(["claims", "--id", CID, "--report", str(tmp_path / "rep"), "--format", "json",
                 *extra]) == 0
    cap = capsys.readouterr()
    rows = json.loads(cap.out)
    assert rows[0]["id"] == CID and rows[0]["statement"] != "MARKER statement from the report"
    assert rows[0]["status"] != "skipped"
    assert why in cap.err
    assert len([ln for ln in cap.err.splitlines() if why in ln]) == 1


def _quick_report_of_every_claim(d: Path) -> list[str]:
    """A quick report of the same sources holding every ledger claim (slow ones skipped, the
    others confirmed with a marker statement); returns the slow ids."""
    from privlab.proofs.ledger import default_ledger

    claims = default_ledger().claims()
    d.mkdir(parents=True)
    rows = [{"id": c.id, "source": "x", "method": None if c.slow else "exact",
             "status": "skipped" if c.slow else "confirmed", "evidence": {},
             "statement": "slow MARKER" if c.slow else "MARKER statement from the report"}
            for c in claims]
    (d / "report.json").write_text(json.dumps({
        "privlab_version": "0", "source_hash": source_hash(), "quick": True,
        "generated": "2026-01-01T00:00:00+00:00", "claims": rows}))
    return [c.id for c in claims if c.slow]


def test_quick_report_listing_says_so_first_and_counts_skipped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The whole ledger from a quick report (the README tour's `privlab claims --status
    refuted` after `verify --quick`): its checked claims are reused (a quick run checks them
    as a full one does), its skipped ones listed as skipped — nothing recomputed — and the
    first line says so.  Mutants caught: the notice missing; skipped claims listed under
    --status inconclusive; the slow claims recomputed (80 s) without being asked for."""
    slow = _quick_report_of_every_claim(tmp_path / "rep")
    args = ["claims", "--report", str(tmp_path / "rep")]
    assert main(args) == 0
    cap = capsys.readouterr()
    first = cap.out.splitlines()[0]
    assert first.startswith("QUICK RUN") and f"{len(slow)} slow claims not checked" in first
    assert "computing" not in cap.err and "slow MARKER" in cap.out
    assert main([*args, "--status", "inconclusive", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert main([*args, "--status", "skipped", "--format", "json"]) == 0
    cap = capsys.readouterr()
    assert [r["id"] for r in json.loads(cap.out)] == slow
    assert "QUICK RUN" in cap.err  # JSON stays the claims list: the notice goes to stderr
    # --quick asks for the same listing by id: the skipped claim stays skipped, not recomputed
    assert main([*args, "--id", slow[0], "--quick", "--format", "json"]) == 0
    cap = capsys.readouterr()
    assert json.loads(cap.out)[0]["status"] == "skipped" and "computing" not in cap.err


def test_default_report_is_the_full_one_then_the_quick_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """No --report: reports/latest, else reports/quick (mutant caught: the quick report read
    although a full one exists)."""
    monkeypatch.chdir(tmp_path)
    _report(tmp_path / "reports" / "quick", same=True, quick=True)
    assert main(["claims", "--id", CID]) == 0
    out = capsys.readouterr().out
    assert out.startswith("QUICK RUN") and "reports/quick/report.json" in out
    _report(tmp_path / "reports" / "latest", same=True)
    assert main(["claims", "--id", CID]) == 0
    cap = capsys.readouterr()
    assert "QUICK RUN" not in cap.out and "MARKER statement" in cap.out
    assert "reports/latest/report.json" in cap.err


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
