"""CLI contract (DESIGN.md §4): JSON alone on stdout, exit codes 0/1/2, errors without
traceback naming the parameter, atomic report directory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from privlab.cli import main
from privlab.proofs.ledger import default_ledger
from privlab.report import build


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_certify_staircase_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "certify", "staircase", "--epsilon", "2", "--format", "json")
    cert = json.loads(out)  # stdout is exactly one JSON document
    assert code == 0 and cert["holds"] is True
    assert cert["guarantee"] == {"kind": "pure", "epsilon": 2.0, "delta": 0.0,
                                 "neighbour": "substitute"}
    assert {c["holds"] for c in cert["checks"]} == {True} and len(cert["checks"]) == 4
    # the variance-optimal member beats Laplace at ε = 2 (ratio from the closed forms)
    assert cert["properties"]["ratio_to_laplace"]["variance"] < 1


def test_certify_broken_parameters_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    # d outside [0, Δ] is rejected as bad input (exit 2) ...
    code, out, err = run(capsys, "certify", "staircase", "--epsilon", "1", "--d", "1.5")
    assert code == 2 and out == "" and "d=1.5" in err and "Traceback" not in err


@pytest.mark.parametrize("args,needle", [
    (("certify", "staircase", "--epsilon", "-1"), "epsilon=-1.0 must be > 0"),
    (("certify", "laplace", "--epsilon", "1", "--sensitivity", "0"), "sensitivity=0.0"),
    (("certify", "box-staircase", "--epsilon", "1", "--sensitivity", "1,x"), "--sensitivity"),
    (("table", "no-such-table"), "table id='no-such-table' is unknown"),
    (("claims", "--id", "thesis:nope"), "claim id='thesis:nope' is unknown"),
    (("verify", "--data-dir", "/nonexistent/dir"), "/nonexistent/dir"),
])
def test_bad_input_exit_2_no_traceback(capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                       needle: str) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2, (code, out, err)
    assert needle in err and "Traceback" not in err and out == ""


def test_table_json_is_the_ledger_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", "thesis-4.1", "--format", "json")
    assert code == 0
    assert json.loads(out) == json.loads(json.dumps(default_ledger().table("thesis-4.1")
                                                    .to_dict()))


def test_claims_filter(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "claims", "--id", "thesis:table-4.4", "--id", "thesis:def-9",
                       "--format", "json")
    rows = json.loads(out)
    assert code == 0 and [r["id"] for r in rows] == ["thesis:table-4.4", "thesis:def-9"]
    # Table 4.4 is refuted by a counterexample (printed β and sizes do not round to the exact)
    assert rows[0]["status"] == "refuted" and rows[0]["counterexample"] is not None


# The one end-to-end run of the main job in the default suite (privlab verify --quick, ~17 s
# alone on 2 cores): kept here on purpose, every other test over ~10 s is marked slow.
def test_verify_quick_writes_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "rep"
    code, out, err = run(capsys, "verify", "--quick", "--out", str(out_dir), "--format", "json")
    summary = json.loads(out)
    report = json.loads((out_dir / "report.json").read_text())
    assert code == (0 if report["summary"]["ok"] else 1) == 0, summary
    assert {"privlab_version", "seed", "generated", "claims", "tables", "audits"} <= set(report)
    assert all(c["status"] in ("verified", "confirmed", "refuted", "inconclusive",
                               "finding (extension)", "skipped")
               for c in report["claims"])
    # claims --quick did not check are skipped, counted apart (never inconclusive)
    skipped = [c for c in report["claims"] if c["status"] == "skipped"]
    assert skipped and all(c["evidence"] == {"reason": "skipped (--quick)"} for c in skipped)
    assert report["summary"]["claims"]["skipped"] == len(skipped) == summary["summary"][
        "claims"]["skipped"]
    assert not any("skipped" in str(c["evidence"].get("reason")) for c in report["claims"]
                   if c["status"] == "inconclusive")
    assert report["tables"]["thesis-4.1"]["columns"]
    for f in (s for sec in report["sections"] for s in sec["figures"]):
        assert (out_dir / f["file"]).stat().st_size > 1000
    assert (out_dir / "report.md").read_text().startswith("# privlab verification report")
    assert "<html lang=\"en\">" in (out_dir / "report.html").read_text()
    controls = [a for a in report["audits"] if a["control"]]
    assert controls and all(a["verdict"] == "violation" for a in controls)
    assert "] claim thesis:def-6" in err  # progress goes to stderr
    # progress from the start: a line with an ETA before the first unit's result line
    lines = err.splitlines()
    first_eta = next(i for i, ln in enumerate(lines) if "ETA ~" in ln)
    first_unit = next(i for i, ln in enumerate(lines) if "] [1/" in ln)
    assert first_eta < first_unit and "ETA" in lines[first_unit]


def test_failing_section_fails_verify_and_interrupt_keeps_old_report(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out_dir = tmp_path / "rep"
    ledger = default_ledger()
    monkeypatch.setattr(ledger, "run", lambda **kw: [])
    monkeypatch.setattr(ledger, "tables", dict)
    rep = build.run_verify(out_dir, ledger=ledger, sections=("privlab.report.sections.nope",))
    assert rep["summary"]["ok"] is False  # a section that cannot run is a failed guarantee
    before = (out_dir / "report.json").read_bytes()

    def boom(*a: object, **k: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(build, "build_sections", boom)
    with pytest.raises(KeyboardInterrupt):
        build.run_verify(out_dir, ledger=ledger)
    assert (out_dir / "report.json").read_bytes() == before  # untouched
    assert [p.name for p in tmp_path.iterdir()] == ["rep"]  # no temp directory left behind


@pytest.mark.parametrize("name,code", [("box-staircase", 0), ("broken-box-staircase-ratio", 1)])
def test_audit_box_staircase(capsys: pytest.CaptureFixture[str], name: str, code: int) -> None:
    """Issue 3: `privlab audit box-staircase`: the correct mechanism passes (bound ≤ ε = 1),
    the control whose shells decay by e^{−1.5ε} is caught (true loss 1.5, exact checker)."""
    rc, out, _ = run(capsys, "audit", name, "--samples", "200000", "--seed", "3",
                     "--format", "json")
    res = json.loads(out)
    assert rc == code, res
    assert res["counterexample"]["neighbours"] == [[0.0, 0.0], [1.0, 10.0]]
    if code:
        assert 1.0 < res["epsilon_lower_bound"] <= 1.5
    else:
        assert res["epsilon_lower_bound"] <= 1.0


def test_audit_box_staircase_bad_core(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(capsys, "audit", "box-staircase", "--sensitivity", "1,10",
                       "--core", "2,1")
    assert rc == 2 and out == "" and "core[0]=2.0 must be <= sensitivity[0]=1.0" in err


def test_audit_dp_release_dispatch(capsys: pytest.CaptureFixture[str]) -> None:
    """`privlab audit dp-release` reaches the release auditor although `audit` is a single
    command; record-aligned rows with one noise draw per cluster leak structurally (ε = ∞)."""
    rc, out, _ = run(capsys, "audit", "dp-release", "--n", "8", "--k", "2", "--epsilon", "1",
                     "--rows", "aligned", "--samples", "2000", "--format", "json")
    res = json.loads(out)
    assert rc == 1 and res["verdict"] == "violation" and res["structural_leak"] is True
    rc, out, err = run(capsys, "audit", "dp-release", "--n", "8", "--k", "0", "--epsilon", "1")
    assert rc == 2 and "k=0" in err and "Traceback" not in err


@pytest.mark.slow  # two whole --quick runs (1 and 2 workers): 60-100 s on 2 cores
def test_parallel_report_equals_sequential(tmp_path: Path) -> None:
    """Claims, tables and sections run in worker processes give the report the sequential path
    gives (every unit is seeded by name), apart from timings."""
    def strip(o: object) -> object:
        if isinstance(o, dict):
            return {k: strip(v) for k, v in o.items()
                    if k not in ("seconds", "generated", "workers")}
        if isinstance(o, list):
            return [strip(x) for x in o]
        return o

    secs = ("privlab.report.sections.refinement",)
    one = build.run_verify(tmp_path / "a", quick=True, sections=secs, workers=1)
    two = build.run_verify(tmp_path / "b", quick=True, sections=secs, workers=2)
    assert two["workers"] == 2 and one["workers"] == 1
    a, b = strip(one), strip(two)
    assert a == b, _first_difference(a, b)


def _first_difference(a: object, b: object, path: str = "") -> str:
    """Where two report dictionaries first differ (for the assertion message)."""
    if type(a) is not type(b):
        return f"{path}: {a!r:.200} != {b!r:.200}"
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                return _first_difference(a.get(k), b.get(k), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {a!r:.300} != {b!r:.300}"


def test_verify_says_loudly_when_it_falls_back_to_synthetic_data(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One stderr line when no data directory is found (issue 14); none when one is given."""
    from privlab import _data
    from privlab.report import build

    seen: dict[str, object] = {}

    def fake_run(out_dir: Path, **kw: object) -> dict[str, object]:
        seen.update(kw)
        return {"summary": {"ok": True, "claims": {}, "guarantees": 0,
                            "guarantees_holding": 0}, "guarantees": [], "seconds": 0.0}

    monkeypatch.delenv(_data.ENV, raising=False)  # restored after the test (verify exports it)
    monkeypatch.setattr(build, "run_verify", fake_run)
    monkeypatch.setattr(_data, "data_dir", lambda *a, **k: None)
    code, _, err = run(capsys, "verify", "--out", str(tmp_path / "a"))
    assert code == 0 and seen["data_dir"] is None
    assert err.count("SYNTHETIC") == 1 and err.startswith("WARNING:")
    (tmp_path / "data").mkdir()
    code, _, err = run(capsys, "verify", "--out", str(tmp_path / "b"), "--data-dir",
                       str(tmp_path / "data"))
    assert code == 0 and "SYNTHETIC" not in err


def test_data_dir_export_does_not_outlive_the_command(tmp_path, monkeypatch) -> None:
    """verify exports --data-dir as $PRIVLAB_DATA_DIR for its workers; a caller running the CLI
    in-process (a test, a notebook) gets its environment back (mutant caught: a later call in
    the same process reading the stale data directory)."""
    import os

    from privlab import _data, cli
    from privlab.errors import PrivlabError
    from privlab.report import build

    seen = {}

    def fake_run(*_a, **_k):
        seen["env"] = os.environ.get(_data.ENV)
        raise PrivlabError("stopped by the test")

    monkeypatch.delenv(_data.ENV, raising=False)
    monkeypatch.setattr(build, "run_verify", fake_run)
    data = tmp_path / "data"
    data.mkdir()
    assert cli.main(["verify", "--out", str(tmp_path / "out"), "--data-dir", str(data)]) == 2
    assert seen["env"] == str(data.resolve())
    assert _data.ENV not in os.environ
