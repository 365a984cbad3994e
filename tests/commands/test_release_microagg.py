"""``privlab release mdav|insensitive-mdav|individual-ranking|mdav-swap|ir-swap`` and
``privlab certify insensitivity`` (commands of privlab.commands.release)."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from click.testing import CliRunner

from privlab.commands.release import certify_insensitivity, release_group
from privlab.errors import InvalidParameter


@pytest.fixture
def data_csv(tmp_path):
    g = np.random.default_rng(0)
    p = tmp_path / "in.csv"
    with p.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "age", "income", "note"])
        for i in range(23):
            w.writerow([f"r{i}", int(g.integers(18, 90)), int(g.integers(0, 100000)), "x,y"])
    return p


def invoke(*args):
    return CliRunner().invoke(release_group, list(args))


@pytest.mark.parametrize("method", ["mdav", "insensitive-mdav", "individual-ranking",
                                    "mdav-swap", "ir-swap"])
def test_release_keeps_columns_and_order(tmp_path, data_csv, method):
    out = tmp_path / "out.csv"
    args = [method, "--input", str(data_csv), "--output", str(out), "--k", "4",
            "--columns", "age,income", "--bounds", "age=0:120,income=0:100000",
            "--keep", "id,note", "--format", "json"]
    r = invoke(*args)
    assert r.exit_code == 0, (r.output, r.exception)
    cert = json.loads(r.output)
    assert cert["holds"] and cert["achieved_min_group_size"] >= 4
    src = list(csv.reader(data_csv.open()))
    dst = list(csv.reader(out.open()))
    assert dst[0] == src[0] and len(dst) == len(src)
    assert [r[0] for r in dst] == [r[0] for r in src]  # id column and row order kept
    assert all(r[3] == "x,y" for r in dst[1:])
    on_disk = json.loads((tmp_path / "out.csv.cert.json").read_text())
    assert on_disk["method"] == method and on_disk["k"] == 4
    if method.endswith("swap"):
        for j in (1, 2):
            assert sorted(r[j] for r in dst[1:]) == sorted(r[j] for r in src[1:])


def test_release_bad_inputs(tmp_path, data_csv):
    out = tmp_path / "o.csv"
    base = ["--input", str(data_csv), "--output", str(out), "--columns", "age,income",
            "--drop-other"]
    r = invoke("insensitive-mdav", *base, "--k", "3")
    assert isinstance(r.exception, InvalidParameter) and "bounds" in str(r.exception)
    r = invoke("insensitive-mdav", *base, "--k", "3", "--bounds", "age=0:50,income=0:100000")
    assert isinstance(r.exception, InvalidParameter) and "outside" in str(r.exception)
    r = invoke("mdav", *base, "--k", "0")
    assert isinstance(r.exception, InvalidParameter)
    r = invoke("mdav", *base, "--k", "24")
    assert isinstance(r.exception, InvalidParameter) and "k=24" in str(r.exception)
    r = invoke("mdav", "--input", str(data_csv), "--output", str(out), "--columns", "age,zz",
               "--k", "2")
    assert isinstance(r.exception, InvalidParameter) and "zz" in str(r.exception)
    r = invoke("mdav", "--input", str(data_csv), "--output", str(out), "--columns", "note",
               "--k", "2", "--drop-other")
    assert isinstance(r.exception, InvalidParameter) and "not a number" in str(r.exception)
    assert not out.exists()


def test_certify_insensitivity_exit_codes():
    r = CliRunner().invoke(certify_insensitivity, ["--algorithm", "mdav", "--k", "2",
                                                   "--examples", "0", "--format", "json"])
    assert r.exit_code == 1
    d = json.loads(r.output)
    assert d["holds"] is False and d["counterexample"]["n"] == 5
    r = CliRunner().invoke(certify_insensitivity, ["--algorithm", "insensitive-mdav", "--k",
                                                   "2", "--examples", "20"])
    assert r.exit_code == 0 and "no counterexample" in r.output
