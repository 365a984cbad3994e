"""CLI: certify dp-release, audit dp-release (command object), release *-dp."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
from click.testing import CliRunner

from privlab.cli import cli
from privlab.commands.dp_release import audit_dp_release
from privlab.errors import InvalidParameter


def test_certify_json_and_exit_codes() -> None:
    r = CliRunner().invoke(cli, ["certify", "dp-release", "--noise-scale", "vldb14", "--n",
                                 "100", "--k", "10", "--epsilon", "1", "--attributes", "2",
                                 "--format", "json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["certified_epsilon"] <= 1.0 and d["holds"]
    r = CliRunner().invoke(cli, ["certify", "dp-release", "--n", "100", "--k", "10",
                                 "--epsilon", "1", "--rows", "aligned", "--format", "json"])
    assert r.exit_code == 1 and json.loads(r.output)["certified_epsilon"] is None
    r = CliRunner().invoke(cli, ["certify", "dp-release", "--n", "10", "--k", "0",
                                 "--epsilon", "1"])
    assert isinstance(r.exception, InvalidParameter)


def test_audit_catches_leak() -> None:
    r = CliRunner().invoke(audit_dp_release, ["--n", "6", "--k", "2", "--epsilon", "1",
                                              "--rows", "aligned", "--samples", "4000",
                                              "--format", "json"])
    assert r.exit_code == 1, r.output
    assert json.loads(r.output)["structural_leak"] is True


def test_release_writes_certificate(tmp_path: Path) -> None:
    x = np.random.default_rng(0).uniform(0, 100, (50, 2))
    inp = tmp_path / "in.csv"
    inp.write_text("a,b\n" + "\n".join(f"{p},{q}" for p, q in x))
    out = tmp_path / "out.csv"
    r = CliRunner().invoke(cli, ["release", "ir-dp", "--input", str(inp), "--output", str(out),
                                 "--epsilon", "1", "--k", "5", "--columns", "a",
                                 "--bounds", "0:100", "--drop-other", "--format", "json"])
    assert r.exit_code == 0, r.output
    cert = json.loads((tmp_path / "out.csv.cert.json").read_text())
    assert len(out.read_text().splitlines()) == 51
    # the law is 1-DP (irm scale, m = 1, shared noise, shuffled); the written grid values lose
    # slightly less (margin 2^-20 minus the rounding term), exactly as the certificate states
    assert cert["noise"]["law_epsilon"] == 1.0 and cert["float_safe"] is True
    written = Fraction(cert["written_epsilon_exact"])
    assert written <= 1 and cert["certified_epsilon"] >= float(written)
    assert 1 - written < Fraction(2, 2**20)
    r = CliRunner().invoke(cli, ["release", "ir-dp", "--input", str(inp), "--output", str(out),
                                 "--epsilon", "1", "--k", "5", "--columns", "a",
                                 "--bounds", "0:10", "--drop-other"])
    assert isinstance(r.exception, InvalidParameter)
