"""Certified configurations in version control (issue 18 item 4): ``privlab certify
--from-json`` and ``--check DIR``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from privlab.cli import main


def _cert(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    code = main(["certify", *args, "--format", "json"])
    out = capsys.readouterr().out
    assert code == 0
    return json.loads(out)


@pytest.fixture
def certs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    d = tmp_path / "certs"
    d.mkdir()
    for name, args in {"lap": ("laplace", "--epsilon", "0.5", "--sensitivity", "2"),
                       "st": ("staircase", "--epsilon", "1", "--neighbour", "add/remove"),
                       "dp": ("dp-release", "--n", "100", "--k", "10", "--epsilon", "1")}.items():
        (d / f"{name}.json").write_text(json.dumps(_cert(capsys, *args)))
    return d


def test_check_passes_on_unchanged_certificates(certs: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["certify", "--check", str(certs), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["file"] for r in rows} == {"lap.json", "st.json", "dp.json"}
    assert all(r["holds"] and r["unchanged"] for r in rows)


def test_check_fails_when_a_parameter_changes(certs: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Able to fail: an edited configuration (record-aligned rows with shared noise, ε = ∞)
    no longer holds, and the stored verdict differs from the new one."""
    doc = json.loads((certs / "dp.json").read_text())
    doc["parameters"]["rows"] = "aligned"
    (certs / "dp.json").write_text(json.dumps(doc))
    assert main(["certify", "--check", str(certs), "--format", "json"]) == 1
    rows = {r["file"]: r for r in json.loads(capsys.readouterr().out)}
    assert not rows["dp.json"]["holds"] and rows["dp.json"]["changes"]
    assert rows["lap.json"]["unchanged"]


def test_check_fails_when_the_stored_verdict_differs(certs: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads((certs / "st.json").read_text())
    doc["guarantee"]["epsilon"] = 0.5  # the file claims what the parameters do not give
    (certs / "st.json").write_text(json.dumps(doc))
    assert main(["certify", "--check", str(certs), "--format", "json"]) == 1
    rows = {r["file"]: r for r in json.loads(capsys.readouterr().out)}
    assert any("guarantee" in c for c in rows["st.json"]["changes"])


def test_from_json_recertifies(certs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["certify", "--from-json", str(certs / "st.json"), "--format", "json"]) == 0
    c = json.loads(capsys.readouterr().out)
    stored = json.loads((certs / "st.json").read_text())
    assert c["parameters"] == stored["parameters"] and c["guarantee"] == stored["guarantee"]


@pytest.mark.parametrize("body", ["not json", "[]", '{"mechanism": "nope", "parameters": {}}',
                                  '{"mechanism": "laplace", "parameters": {}}'])
def test_bad_files_are_one_line_errors(tmp_path: Path, body: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.json"
    f.write_text(body)
    assert main(["certify", "--from-json", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and err.count("\n") == 1 and "Traceback" not in err
