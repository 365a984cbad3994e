"""``privlab verify --quick`` never replaces the user's full report (issue "never hang, never
flake", part 5), and ``verify`` says where it writes and how long it will take before any work
(part 6).  The real ``run_verify`` writes the reports, on a small hand-made ledger without
sections (well under a second each)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from privlab import _data
from privlab.cli import main
from privlab.proofs.ledger import Ledger
from privlab.report import build
from privlab.types import CheckResult, Claim, Method, Mutant


def _claims() -> tuple[Claim, ...]:
    """A fast claim and a slow one (skipped by --quick), each able to fail (a refuted mutant)."""
    def check(total: int) -> CheckResult:
        return CheckResult(holds=1 + 1 == total, claim=f"1 + 1 = {total}", value=1 + 1,
                           method=Method.NUMERIC, counterexample={"1 + 1": 1 + 1})

    mutant = (Mutant(kind="constant", description="1 + 1 = 3", check=lambda: check(3)),)
    return tuple(Claim(id=cid, source="test", statement=cid, slow=slow,
                       check=lambda: check(2), mutants=mutant)
                 for cid, slow in (("test:fast", False), ("test:slow", True)))


def _tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` with its bytes."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


@pytest.fixture
def small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """cwd = tmp_path, ``run_verify`` on the small ledger, no data directory."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(_data.ENV, raising=False)  # restored after the test (verify exports it)
    monkeypatch.setattr(_data, "data_dir", lambda *a, **k: None)
    monkeypatch.setattr(build, "run_verify", functools.partial(
        build.run_verify, ledger=Ledger((), extra_claims=_claims()), sections=()))
    return tmp_path


def test_quick_run_leaves_the_full_report_and_lands_in_reports_quick(
        small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """mutant caught: ``--quick`` keeping the default ``--out reports/latest`` (the full
    report's bytes change and reports/quick is not written)."""
    assert main(["verify"]) == 0
    full = small / "reports" / "latest"
    before = _tree(full)
    assert json.loads(before["report.json"])["quick"] is False
    capsys.readouterr()
    assert main(["verify", "--quick"]) == 0
    err = capsys.readouterr().err
    assert _tree(full) == before  # byte for byte
    quick = json.loads((small / "reports" / "quick" / "report.json").read_text())
    assert quick["quick"] is True and quick["summary"]["claims"]["skipped"] >= 1
    assert "reports/quick/" in err and "reports/latest/ (the full report) is not touched" in err


def test_quick_over_a_full_report_is_refused_without_force(
        small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """mutant caught: check_out_dir ignoring ``quick`` (the full report silently replaced)."""
    assert main(["verify"]) == 0
    full = small / "reports" / "latest"
    before = _tree(full)
    capsys.readouterr()
    code = main(["verify", "--quick", "--out", str(full)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and _tree(full) == before
    assert err.startswith("error: ") and err.count("\n") == 1 and "--force" in err
    assert "holds a full report" in err
    assert main(["verify", "--quick", "--out", str(full), "--force"]) == 0
    assert json.loads((full / "report.json").read_text())["quick"] is True
    # a full run over a quick report needs no --force: it only adds what was skipped
    assert main(["verify", "--out", str(full)]) == 0
    assert json.loads((full / "report.json").read_text())["quick"] is False


def test_verify_json_summary_names_the_run(small: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """stdout holds the JSON alone (progress stays on stderr), with the run's kind."""
    assert main(["verify", "--quick", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    summary = json.loads(out)
    assert summary["run"] == "quick" and summary["out"] == "reports/quick"
    assert summary["summary"]["claims"]["skipped"] >= 1
    assert "ETA" in err and "ETA" not in out


def test_eta_line_comes_before_any_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """The first progress line (where, ETA) is printed before run_verify starts (mutant caught:
    announcing after the run, or without an ETA); the stand-in run prints a unit line."""
    import sys

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(_data.ENV, raising=False)
    events: list[str] = []

    def fake_run(out_dir: Path, **kw: object) -> dict[str, object]:
        events.append("run starts")
        kw["progress"]("[1/1] claim test:fast · ETA <1 s")  # type: ignore[operator]
        return {"summary": {"ok": True, "claims": {}, "guarantees": 0,
                            "guarantees_holding": 0}, "guarantees": [], "seconds": 0.0}

    def echo(msg: str) -> None:
        events.append(msg)
        print(msg, file=sys.stderr)

    monkeypatch.setattr(build, "run_verify", fake_run)
    monkeypatch.setattr("privlab.commands.core.progress", echo)
    assert main(["verify", "--quick"]) == 0
    first_eta = next(i for i, e in enumerate(events) if "ETA ~" in e)
    assert first_eta < events.index("run starts")
    assert "unit costs shipped with privlab" in events[first_eta]
