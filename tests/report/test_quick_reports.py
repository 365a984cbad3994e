"""Quick reports say what they are (issue "never hang, never flake", part 5): a claim a
``--quick`` run skips has status ``skipped`` — counted apart, never as inconclusive, never a
failed guarantee — and a report or errata sheet built from a quick run says so on its first
line.  Small hand-made ledgers and reports: each test runs in well under a second."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from privlab.commands.errata import errata as errata_cmd
from privlab.proofs.ledger import SKIPPED_QUICK, Ledger
from privlab.report import build, errata, render
from privlab.types import CheckResult, Claim, Method, Mutant, Status

from .test_render_page import _claim, report


def _claims() -> tuple[Claim, ...]:
    """A fast true claim, a slow true seed claim and a slow own claim (privlab:…), each with a
    mutant its check refutes (so that it may be confirmed: able to fail)."""
    def check(total: int) -> CheckResult:
        return CheckResult(holds=1 + 1 == total, claim=f"1 + 1 = {total}", value=1 + 1,
                           method=Method.NUMERIC, counterexample={"1 + 1": 1 + 1})

    mutant = (Mutant(kind="constant", description="1 + 1 = 3", check=lambda: check(3)),)
    return tuple(Claim(id=cid, source="test", statement=cid, slow=slow,
                       check=lambda: check(2), mutants=mutant)
                 for cid, slow in (("test:fast", False), ("test:slow", True),
                                   ("privlab:test-slow", True)))


def _run(tmp_path: Path, quick: bool) -> dict:
    return build.run_verify(tmp_path / ("q" if quick else "f"), quick=quick, workers=1,
                            ledger=Ledger((), extra_claims=_claims()), sections=())


def test_ledger_gives_skipped_not_inconclusive() -> None:
    # mutant caught: ledger.run keeping Status.INCONCLUSIVE for a claim --quick skips
    out = Ledger((), extra_claims=_claims()).run(quick=True)
    assert [o.status for o in out] == [Status.CONFIRMED, Status.SKIPPED, Status.SKIPPED]
    assert out[1].to_dict()["evidence"] == {"reason": SKIPPED_QUICK}


def test_quick_report_counts_skipped_apart_and_keeps_the_verdict(tmp_path: Path) -> None:
    quick, full = _run(tmp_path, True), _run(tmp_path, False)
    on_disk = json.loads((tmp_path / "q" / "report.json").read_text())
    # the two slow claims: counted as skipped (mutant: summarise merging skipped into
    # inconclusive, or dropping it), none inconclusive; the full run checks them
    expected = sum(c.slow for c in _claims())
    assert on_disk["summary"]["claims"]["skipped"] == expected
    assert on_disk["summary"]["claims"]["inconclusive"] == 0
    assert [c["status"] for c in on_disk["claims"]].count("skipped") == expected
    assert "skipped" not in full["summary"]["claims"]
    assert full["summary"]["claims"]["confirmed"] == len(_claims())
    # a skipped own claim is not a failed guarantee (mutant: own_bad counting skipped → exit 1)
    assert quick["summary"]["ok"] is True and full["summary"]["ok"] is True


def test_own_claim_that_fails_still_fails_a_quick_run(tmp_path: Path) -> None:
    """The skipped exemption is for skipped claims only (mutant: exempting every own claim of
    a quick run): a fast own claim that is inconclusive fails the guarantee."""
    bad = Claim(id="privlab:test-bad", source="test", statement="undecided",
                check=lambda: CheckResult(holds=True, claim="x", decided=False,
                                          method=Method.NUMERIC))
    rep = build.run_verify(tmp_path / "q", quick=True, workers=1,
                           ledger=Ledger((), extra_claims=(*_claims(), bad)), sections=())
    assert rep["summary"]["ok"] is False


def _quick_report() -> dict:
    rep = report()  # quick: True
    rep["claims"].append(_claim("thesis:def-12", "skipped", "000_65177858bc9aa63c.txt §6.2",
                                "Slow claim.", evidence={"reason": SKIPPED_QUICK}))
    rep["summary"] = render.summarise(rep["claims"], rep["guarantees"])
    return rep


def test_report_first_line_says_quick_and_counts_skipped() -> None:
    rep = _quick_report()
    md = render.to_markdown(rep)
    first = md.splitlines()[0]
    # mutant caught: the notice missing from the title (or shown on a full report)
    assert first.startswith("# privlab verification report") and "QUICK RUN" in first
    assert "1 slow claims not checked" in first
    assert "1 skipped" in md and "thesis:def-12" in md
    html = render.to_html(rep)
    assert "<title>privlab verification report — QUICK RUN</title>" in html
    rep["quick"] = False
    rep["claims"].pop()
    rep["summary"] = render.summarise(rep["claims"], rep["guarantees"])
    assert "QUICK RUN" not in render.to_markdown(rep) and "QUICK RUN" not in render.to_html(rep)


@pytest.mark.parametrize("fmt", ["md", "json", "html"])
def test_errata_from_a_quick_report_says_so_first(tmp_path: Path, fmt: str) -> None:
    """mutant caught: errata rendering a quick report like a full one (no notice)."""
    for quick in (True, False):
        rep = _quick_report()
        rep["quick"] = quick
        p = tmp_path / f"{quick}.json"
        p.write_text(json.dumps(rep))
        r = CliRunner().invoke(errata_cmd, ["thesis", "--from", str(p), "--format", fmt])
        assert r.exit_code == 0, r.output
        if fmt == "json":
            sheet = json.loads(r.output)
            assert sheet["run"] == ("quick" if quick else "full")
            assert (sheet["notice"] is not None) == quick
            assert sheet["skipped"] == (["thesis:def-12"] if quick else [])
        else:
            head = r.output.splitlines()[0 if fmt == "md" else 2]  # html: the <title> line
            assert ("QUICK RUN" in head) == quick, head
        assert "thesis:prop-2" in r.output  # the erratum itself is still listed


def test_errata_default_prefers_the_full_report(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """No --from: reports/latest (full) first, reports/quick only without it, saying so.
    mutant caught: find_default taking reports/quick first (the tour's 19-not-23 errata)."""
    monkeypatch.chdir(tmp_path)
    quick = _quick_report()
    (tmp_path / "reports" / "quick").mkdir(parents=True)
    (tmp_path / "reports" / "quick" / "report.json").write_text(json.dumps(quick))
    r = CliRunner().invoke(errata_cmd, ["thesis"])
    assert r.exit_code == 0 and "QUICK RUN" in r.output.splitlines()[0]
    assert "reports/quick/report.json" in r.output
    full = report()
    full["quick"] = False
    full["claims"][0] = {**full["claims"][0], "statement": "FULL REPORT MARKER"}
    (tmp_path / "reports" / "latest").mkdir(parents=True)
    (tmp_path / "reports" / "latest" / "report.json").write_text(json.dumps(full))
    r = CliRunner().invoke(errata_cmd, ["--format", "json"])
    sheet = json.loads(r.output)
    assert sheet["run"] == "full" and "reports/latest/report.json" in sheet["origin"]


def test_errata_sheets_never_count_skipped_claims() -> None:
    """A skipped claim is no erratum (only refuted statuses are): the sheet of the quick
    report equals the sheet without the skipped claim."""
    rep = _quick_report()
    with_skipped = errata.errata(rep["claims"], ["thesis"])
    without = errata.errata([c for c in rep["claims"] if c["status"] != "skipped"], ["thesis"])
    assert with_skipped == without


def test_errata_without_a_report_is_complete(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """No saved report: the seed's claims are run with the slow ones, so irm:lemma-3 (slow,
    refuted) is on the irm sheet and the sheet says it is a full run."""
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(errata_cmd, ["irm", "--format", "json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout if hasattr(r, "stdout") else r.output)
    assert out["run"] == "full" and out["notice"] is None
    ids = {e["id"] for sheet in out["errata"] for e in sheet["entries"]}
    assert "irm:lemma-3" in ids
