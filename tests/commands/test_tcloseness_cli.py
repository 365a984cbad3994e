"""CLI: release t-closeness (both forms), certify t-closeness, certify stochastic-t."""

from __future__ import annotations

import csv
import json
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from privlab.commands.tcloseness import (
    certify_stochastic_t,
    certify_t_closeness,
    release_t_closeness,
)


def _stdout(res):
    return getattr(res, "stdout", res.output)


@pytest.fixture
def data(tmp_path):
    rng = np.random.default_rng(0)
    path = tmp_path / "in.csv"
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "age", "city", "income"])
        for i in range(90):
            w.writerow([i, int(rng.integers(18, 80)), rng.choice(["a", "b", "c"]),
                        int(rng.integers(0, 1000))])
    return path


def _read(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def test_permuted_release_roundtrip(data, tmp_path):
    out = tmp_path / "out.csv"
    res = CliRunner().invoke(release_t_closeness, [
        "--input", str(data), "--output", str(out), "--confidential", "income", "--t", "2",
        "--l", "2", "--qi", "age,city", "--keep", "id", "--format", "json"])
    assert res.exit_code == 0, res.output
    summary = json.loads(_stdout(res))
    assert summary["holds"] and Fraction(summary["properties"]["achieved_t"]) <= 2
    rows_in, rows_out = _read(data), _read(out)
    assert [r["id"] for r in rows_out] == [r["id"] for r in rows_in]
    assert sorted(int(r["income"]) for r in rows_out) == sorted(int(r["income"]) for r in rows_in)
    groups = {r["group"] for r in rows_out}
    for g in groups:  # within-class multiset preserved
        ids = {r["id"] for r in rows_out if r["group"] == g}
        assert sorted(r["income"] for r in rows_out if r["group"] == g) == sorted(
            r["income"] for r in rows_in if r["id"] in ids)
    cert = json.loads((tmp_path / "out.csv.cert.json").read_text())
    assert cert["holds"] and cert["properties"]["min_class_size"] >= 3
    # the independent certify command agrees
    res2 = CliRunner().invoke(certify_t_closeness, [
        "--input", str(out), "--groups", "group", "--buckets", "bucket", "--t", "2",
        "--format", "json"])
    assert res2.exit_code == 0 and json.loads(_stdout(res2))["holds"]
    res3 = CliRunner().invoke(certify_t_closeness, [
        "--input", str(out), "--groups", "group", "--buckets", "bucket", "--t", "1.1"])
    assert res3.exit_code == 1


def test_anatomy_release(data, tmp_path):
    out = tmp_path / "a.csv"
    res = CliRunner().invoke(release_t_closeness, [
        "--input", str(data), "--output", str(out), "--confidential", "income", "--t", "1.5",
        "--form", "anatomy"])
    assert res.exit_code == 0, res.output
    rows = _read(out)
    assert "income" not in rows[0] and len(rows) == 90
    st = _read(f"{out}.groups.csv")
    assert len(st) == 90 and set(st[0]) == {"group", "income", "bucket"}


def test_stochastic_t_json():
    res = CliRunner().invoke(certify_stochastic_t, [
        "--n", "10", "--class-size", "2", "--epsilon", "1", "--mechanism", "rr",
        "--format", "json"])
    assert res.exit_code == 0
    out = json.loads(_stdout(res))
    assert out["exact_t"] > out["paper_prop1"] and out["paper_formula_holds"] is False


@pytest.mark.parametrize("args,match", [
    (["--t", "0.5"], "t='0.5' must be >= 1"),
    (["--t", "2", "--l", "99"], "l=99"),
    (["--t", "2", "--confidential", "nope"], "confidential='nope'"),
    (["--t", "2", "--confidential", "city"], "not numeric"),
])
def test_bad_input(data, tmp_path, args, match):
    base = ["--input", str(data), "--output", str(tmp_path / "x.csv")]
    if "--confidential" not in args:
        base += ["--confidential", "income"]
    res = CliRunner().invoke(release_t_closeness, base + args)
    assert res.exit_code != 0
    assert match in str(res.exception)
    assert not (tmp_path / "x.csv").exists()
