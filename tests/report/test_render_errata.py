"""Errata per paper and ``privlab errata`` (issue 17), on a hand-made report.json."""

from __future__ import annotations

import json

from click.testing import CliRunner

from privlab.commands.errata import errata as errata_cmd
from privlab.report import errata, recommend

from .test_render_page import report


def test_document_order_and_seed_filter():
    rep = report()
    sheets = errata.from_report(rep, ["thesis"])
    assert [s["seed"] for s in sheets] == ["thesis"]
    ids = [e["id"] for e in sheets[0]["entries"]]
    assert ids == ["thesis:prop-2", "thesis:sec-7.3-x"]  # §5.1 before §7.3, verified left out
    e = sheets[0]["entries"][0]
    assert e["correction"] == {"corrected_value": "1/3"}
    assert e["reproduce"] == "privlab claims --id thesis:prop-2"


def test_command_formats(tmp_path):
    p = tmp_path / "report.json"
    p.write_text(json.dumps(report()))
    r = CliRunner().invoke(errata_cmd, ["thesis", "--from", str(p)])
    assert r.exit_code == 0, r.output
    assert r.output.index("thesis:prop-2") < r.output.index("thesis:sec-7.3-x")
    assert "ins15:prop-1" not in r.output
    r = CliRunner().invoke(errata_cmd, ["ins15", "--from", str(p), "--format", "json"])
    assert json.loads(r.output)["errata"][0]["entries"][0]["id"] == "ins15:prop-1"
    r = CliRunner().invoke(errata_cmd, ["--from", str(p), "--format", "html"])
    assert r.output.startswith("<!doctype html>") and "thesis:prop-2" in r.output


def test_command_bad_input(tmp_path):
    r = CliRunner().invoke(errata_cmd, ["thesis", "--from", str(tmp_path / "none.json")])
    assert r.exit_code == 2 and "--from=" in r.output
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    r = CliRunner().invoke(errata_cmd, ["--from", str(bad)])
    assert r.exit_code == 2 and "claims" in r.output
    r = CliRunner().invoke(errata_cmd, ["nosuchpaper"])
    assert r.exit_code == 2


def test_recommendations_follow_the_data():
    rep = report()
    t = {"id": "grid", "source": "", "notes": [], "columns": ["noise", "rows", "holds"],
         "rows": [{"noise": n, "rows": r, "holds": n == "shared" and r == "shuffled"}
                  for n in ("shared", "per-record") for r in ("shuffled", "aligned")]}
    rep["sections"][0]["results"] = [t]
    rows = [x for x in recommend.recommendations(rep) if x["evidence"].startswith("grid")]
    got = {(x["verdict"], x["configuration"]) for x in rows}
    assert ("certified", "noise = shared, rows = shuffled") in got
    assert ("refuted", "noise = per-record") in got
    # flip one verdict: the recommendation changes with it
    t["rows"][0]["holds"] = False
    rows = [x for x in recommend.recommendations(rep) if x["evidence"].startswith("grid")]
    assert all(x["verdict"] == "refuted" for x in rows)
