"""CLI: ``privlab release insensitive-mdav-dp|laplace-dp|ir-dp --taxonomy COL=FILE`` and
``privlab certify dp-release --taxonomy NAME=FILE`` (privlab.commands.dp_release_mixed)."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import numpy as np
import pytest

from privlab.cli import main

TAX = {"job": {"technical": ["engineer", "programmer"], "services": ["nurse", "cashier"],
               "manual": ["farmer"]}}
LEAVES = ["engineer", "programmer", "nurse", "cashier", "farmer"]
CONCEPTS = {"job", "technical", "services", "manual", *LEAVES}


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    g = np.random.default_rng(3)
    inp = tmp_path / "in.csv"
    with inp.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "age", "job", "hours"])
        for i in range(30):
            w.writerow([f"r{i}", int(g.integers(18, 91)), LEAVES[int(g.integers(5))],
                        int(g.integers(1, 81))])
    tax = tmp_path / "job.json"
    tax.write_text(json.dumps(TAX))
    return {"in": inp, "tax": tax, "out": tmp_path / "out.csv", "dir": tmp_path}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def _release(f: dict[str, Path], *extra: str, method: str = "insensitive-mdav-dp",
             out: Path | None = None) -> list[str]:
    return ["release", method, "--input", f["in"], "--output", out or f["out"], "--epsilon", "1",
            "--taxonomy", f"job={f['tax']}", "--drop-other", *extra]


def test_round_trip(files, capsys):
    code, out, err = run(capsys, *_release(files, "--k", "5", "--columns", "age,hours",
                                           "--bounds", "0:100,0:100", "--seed", "0",
                                           "--format", "json"))
    assert code == 0, err
    assert json.loads(out)["rows"] == 30
    rows = list(csv.reader(files["out"].open()))
    assert rows[0] == ["age", "hours", "job"] and len(rows) == 31
    assert all(r[2] in CONCEPTS and 0 <= float(r[0]) <= 100 and 0 <= float(r[1]) <= 100
               for r in rows[1:])
    body = [tuple(r) for r in rows[1:]]
    assert min(body.count(r) for r in body) >= 5  # one draw per cluster of >= k records
    cert = json.loads(Path(f"{files['out']}.cert.json").read_text())
    assert cert["holds"] and cert["certified_epsilon"] <= 1.0 + 1e-12
    assert cert["method"] == "insensitive-mdav-dp" and cert["neighbour"] == "substitute"
    assert cert["add_remove"]["certified_epsilon"] is None
    assert cert["parameters"]["em_factor"] == "n/k" and cert["parameters"]["rows"] == "shuffled"
    assert [p["kind"] for p in cert["parts"]] == ["numerical", "numerical", "categorical"]
    assert cert["taxonomies"][0]["range_ok"] and "WordNet" in cert["notes"][0]
    assert "seed" not in cert["parameters"]  # whoever knows the seed can replay the release
    # same seed, same output; another seed, another output; no seed: fresh OS entropy
    again = files["dir"] / "again.csv"
    assert run(capsys, *_release(files, "--k", "5", "--columns", "age,hours", "--bounds",
                                 "0:100", "--seed", "0", out=again))[0] == 0
    assert again.read_text() == files["out"].read_text()
    fresh = [files["dir"] / f"fresh{i}.csv" for i in range(2)]
    for f in fresh:
        assert run(capsys, *_release(files, "--k", "5", "--columns", "age,hours", "--bounds",
                                     "0:100", out=f))[0] == 0
    assert fresh[0].read_text() != fresh[1].read_text()  # the default seed 0 made them equal
    other = files["dir"] / "other.csv"
    assert run(capsys, *_release(files, "--k", "5", "--columns", "age,hours", "--bounds",
                                 "0:100", "--seed", "1", out=other))[0] == 0
    assert other.read_text() != files["out"].read_text()


def test_categorical_only_arx_and_baseline(files, capsys):
    arx = files["dir"] / "job.csv"
    arx.write_text("engineer;technical;*\nprogrammer;technical;*\nnurse;services;*\n"
                   "cashier;services;*\nfarmer;manual;*\n")
    code, _, err = run(capsys, "release", "insensitive-mdav-dp", "--input", files["in"],
                       "--output", files["out"], "--epsilon", "1", "--k", "6",
                       "--taxonomy", f"job={arx}", "--drop-other")
    assert code == 0, err
    cert = json.loads(Path(f"{files['out']}.cert.json").read_text())
    assert cert["taxonomy_files"][0]["format"] == "arx-csv"
    assert "hand-made" in cert["notes"][0] and "WordNet" in cert["notes"][0]
    base = files["dir"] / "base.csv"
    code, _, err = run(capsys, *_release(files, "--columns", "age", "--bounds", "0:100",
                                         "--rows", "aligned", method="laplace-dp", out=base))
    assert code == 0, err
    c = json.loads(Path(f"{base}.cert.json").read_text())
    assert c["parameters"]["microaggregation"] == "none" and c["parameters"]["factor"] == 1.0
    assert c["certified_epsilon"] == pytest.approx(1.0)


@pytest.mark.parametrize("extra, fragment", [
    (("--k", "5", "--columns", "age", "--bounds", "0:100", "--noise-scale", "thesis"),
     "> requested ε = 1"),
    (("--k", "5", "--rows", "aligned"), "ε = ∞"),
])
def test_uncertified_refused_unless_allowed(files, capsys, extra, fragment):
    code, out, err = run(capsys, *_release(files, *extra))
    assert code == 1 and out == "" and err.startswith("refused:") and fragment in err, err
    assert err.count("\n") == 1 and "--allow-uncertified" in err
    assert not files["out"].exists() and not Path(f"{files['out']}.cert.json").exists()
    code, _, _ = run(capsys, *_release(files, *extra, "--allow-uncertified"))
    assert code == 1
    cert = json.loads(Path(f"{files['out']}.cert.json").read_text())
    assert not cert["holds"] and files["out"].exists()
    eps = cert["certified_epsilon"]
    assert eps is None or eps > 1.0  # the certificate states the real loss


@pytest.mark.parametrize("extra, method, fragment", [
    (("--taxonomy", "job"), "insensitive-mdav-dp", "must be COLUMN=FILE"),
    (("--taxonomy", "{tax}",), "insensitive-mdav-dp", "given twice"),
    (("--taxonomy", "nojob={tax_path}"), "insensitive-mdav-dp", "'nojob' is not in the input"),
    (("--columns", "job", "--bounds", "0:1"), "insensitive-mdav-dp", "both --columns and"),
    (("--columns", "age,age", "--bounds", "0:100"), "insensitive-mdav-dp", "twice"),
    (("--columns", "age", "--bounds", "0:50"), "insensitive-mdav-dp", "outside the declared"),
    (("--columns", "age"), "insensitive-mdav-dp", "--bounds lo:hi is required"),
    (("--noise", "per-record"), "insensitive-mdav-dp", "per-record"),
    (("--k", "31"), "insensitive-mdav-dp", "n=30 must be >= k=31"),
    (("--k", "0"), "insensitive-mdav-dp", "k=0"),
    ((), "ir-dp", "individual ranking"),
    (("--k", "3"), "laplace-dp", "k = 1"),
])
def test_bad_inputs_exit_2_without_output(files, capsys, extra, method, fragment):
    extra = tuple(x.format(tax=f"job={files['tax']}", tax_path=files["tax"]) for x in extra)
    if method == "insensitive-mdav-dp" and "--k" not in extra:
        extra = ("--k", "5", *extra)
    code, out, err = run(capsys, *_release(files, *extra, method=method))
    assert code == 2 and fragment in err and "Traceback" not in err + out
    assert not files["out"].exists() and not Path(f"{files['out']}.cert.json").exists()


@pytest.mark.parametrize("content, suffix, fragment", [
    ('{"job": {"a": ["x"', ".json", "cannot be read"),
    ("[1, 2]", ".json", "exactly one top key"),
    ("job:\n  a: [x, y\n", ".yaml", "malformed"),
    ("engineer;technical;*\nnurse;services\n", ".csv", "exactly one root"),
    ("engineer;;*\n", ".csv", "is not 'leaf;level1"),
    ("{}", ".txt", "must end in"),
    (None, ".json", "does not exist"),
])
def test_bad_taxonomy_files(files, capsys, content, suffix, fragment):
    p = files["dir"] / f"t{suffix}"
    if content is not None:
        p.write_text(content)
    code, out, err = run(capsys, "release", "insensitive-mdav-dp", "--input", files["in"],
                         "--output", files["out"], "--epsilon", "1", "--k", "5",
                         "--taxonomy", f"job={p}", "--drop-other")
    assert code == 2 and fragment in err and "Traceback" not in err + out, err
    assert not files["out"].exists()


@pytest.mark.parametrize("value, kind", [("astronaut", "not a concept"),
                                         ("services", "a generalisation")])
def test_value_outside_taxonomy_names_row_column_value(files, capsys, value, kind):
    rows = list(csv.reader(files["in"].open()))
    rows[4][2] = value
    with files["in"].open("w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    code, _, err = run(capsys, *_release(files, "--k", "5"))
    assert code == 2
    assert f"row 4, column 'job': value '{value}'" in err and kind in err
    assert not files["out"].exists()


def test_certify_mixed(files, capsys):
    base = ["certify", "dp-release", "--noise-scale", "vldb14", "--n", "40", "--k", "8",
            "--epsilon", "1", "--format", "json"]
    code, out, _ = run(capsys, *base, "--taxonomy", f"job={files['tax']}", "--attributes", "3")
    d = json.loads(out)
    assert code == 0 and d["holds"] and d["parameters"]["numerical"] == 2
    assert d["certified_epsilon"] == pytest.approx(sum(p["epsilon"] for p in d["parts"]))
    code, out, _ = run(capsys, *base, "--taxonomy", "job=project:job", "--em-factor", "1")
    d = json.loads(out)
    assert code == 1 and d["certified_epsilon"] == pytest.approx(5.0) and not d["holds"]
    code, out, _ = run(capsys, *base, "--taxonomy", "job=project:job", "--rows", "aligned")
    d = json.loads(out)
    assert code == 1 and d["certified_epsilon"] is None and d["counterexample"]["p_x"] == 0.0
    code, out, _ = run(capsys, *base, "--taxonomy", "job=project:job", "--neighbour",
                       "add-remove")
    assert code == 1 and "rows" in json.loads(out)["counterexample"]["event"]
    for bad, frag in ((("--taxonomy", "a=project:job", "--attributes", "0"), "attributes=0"),
                      (("--budget", "split"), "only with --taxonomy"),
                      (("--taxonomy", "a=project:nope"), "name='nope'"),
                      (("--taxonomy", "a=project:job", "--microaggregation",
                        "individual-ranking"), "individual ranking")):
        code, out, err = run(capsys, *base, *bad)
        assert code == 2 and frag in err and "Traceback" not in err, (bad, err)


def test_mixed_certificate_carries_the_expected_error_and_no_seed(files, capsys):
    # catches: the seed written into the published certificate (with the seed and n anyone
    # can replay the noise and subtract it), and the utility missing from the mixed release
    code, out, err = run(capsys, *_release(files, "--k", "5", "--columns", "age,hours",
                                           "--bounds", "0:100,0:100", "--max-relative-error",
                                           "0.1", "--format", "json"))
    assert code == 0, err
    text = Path(f"{files['out']}.cert.json").read_text()
    cert = json.loads(text)
    assert "seed" not in cert and "utility_on_data" not in text and "true_mean" not in text
    u = cert["utility"]
    assert [a["attribute"] for a in u["attributes"]] == ["age", "hours"]
    # the vldb14 scale per unit (n/k)·m/(kε), m = 3 attributes (age, hours, job); √2·s·Δ
    # (rounding of the products: 1e-14)
    sd = 2**0.5 * (30 / 5) * 3 / (5 * 1) * 100
    assert u["attributes"][0]["noise_sd_continuous"] == pytest.approx(sd, rel=1e-14)
    assert u["target"]["max_relative_error"] == 0.1 and u["target"]["met"] is False
    assert "warning: age: the noise exceeds the attribute's range" in err
    d = json.loads(out)["utility_on_data"]["attributes"]
    ages = np.array([float(r["age"]) for r in csv.DictReader(files["in"].open())])
    assert d[0]["true_mean"] == ages.mean()
    code, out, _ = run(capsys, "certify", "dp-release", "--n", "30", "--k", "5", "--epsilon",
                       "1", "--taxonomy", f"job={files['tax']}", "--attributes", "3",
                       "--noise-scale", "vldb14", "--format", "json")
    c = json.loads(out)
    assert code == 0 and [a["range"] for a in c["utility"]["attributes"]] == [1.0, 1.0]


def test_mixed_refusal_says_why_and_names_the_smallest_certified_scale(files, capsys):
    # catches: the former refusal (the loss and "raise --noise-scale" only: no reason, no
    # value), and a suggested scale that is not certified or not the smallest to 3 digits
    from privlab.verify.releases.utility_target import _down3

    base = ("--k", "5", "--columns", "age", "--bounds", "0:100", "--noise-scale")
    code, _, err = run(capsys, *_release(files, *base, "thesis"))
    assert code == 1 and err.count("\n") == 1
    assert "the Laplace noise of the numerical columns loses ε =" in err
    m = re.search(r"--noise-scale ([0-9.e+]+) is certified at ε = 1", err)
    assert m is not None
    assert run(capsys, *_release(files, *base, m.group(1)))[0] == 0
    code, _, err = run(capsys, *_release(files, *base, repr(_down3(float(m.group(1))))))
    assert code == 1 and err.startswith("refused:")
    code, _, err = run(capsys, *_release(files, "--k", "5", "--rows", "aligned"))
    assert code == 1 and "publish which records share a cluster" in err
