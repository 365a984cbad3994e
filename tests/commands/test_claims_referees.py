"""``privlab claims --referees DIR``: each claim beside its independent referee; a verdict the
referee contradicts is shown as disputed and exits 1 (issue 30)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from privlab.cli import main
from privlab.report.referees import verdict

REPO_REFEREES = Path(__file__).resolve().parents[1] / "referee"


def _write(tmp: Path, holds: bool) -> Path:
    d = tmp / "refs"
    d.mkdir()
    (d / "ref_fake.py").write_text(
        '"""A fake referee (written without reading privlab\'s checkers)."""\n'
        f"CLAIMS = {{'thesis:thm-3': lambda: {{'holds': {holds}, 'note': 'fake'}}}}\n"
        "SLOW = frozenset()\n", encoding="utf-8")
    return d


def _run(d: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict]]:
    code = main(["claims", "--id", "thesis:thm-3", "--rerun", "--workers", "1", "--referees",
                 str(d), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_agreeing_referee(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, rows = _run(_write(tmp_path, holds=False), capsys)  # thm-3 is refuted
    assert code == 0 and rows[0]["referee"]["agreement"] == "agrees"


def test_disputed_claim_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, rows = _run(_write(tmp_path, holds=True), capsys)
    assert code == 1 and rows[0]["referee"]["agreement"] == "disputed"


def test_verdict_rules() -> None:
    assert verdict("confirmed", {"holds": False})["agreement"] == "disputed"
    assert verdict("verified", {"holds": True})["agreement"] == "agrees"
    assert verdict("finding (extension)", {"holds": True})["agreement"] == "disputed"
    assert verdict("inconclusive", {"holds": True})["agreement"] == "not compared"
    assert verdict("refuted", {"holds": None})["agreement"] == "undecided"
    assert verdict("refuted", None)["agreement"] == "none"


def test_the_repository_referees_load() -> None:
    from privlab.report.referees import load

    refs = load(REPO_REFEREES)
    assert "thesis:thm-3" in refs and "thesis:prop-9" in refs
