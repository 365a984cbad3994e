"""One certificate shape (privlab.verify.certificate, privlab/data/certificate.schema.json).

Every release and certify command is run once on small inputs; what it writes
(``OUTPUT.cert.json``) or prints (``--format json``) is checked against the published schema
with the ``jsonschema`` library — independently of the validation the commands do themselves
before writing.  Mutants each test catches are named in its docstring."""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import jsonschema
import numpy as np
import pytest
from click.testing import CliRunner

from privlab.cli import cli
from privlab.commands._csvio import write_release
from privlab.mechanisms.microaggregation.semantic import NumericDomain
from privlab.mechanisms.releases.mixed import MixedDPRelease
from privlab.types import Neighbour
from privlab.verify import certificate as vc
from privlab.verify.releases.mixed import certify_mixed

SCHEMA = Path(vc.__file__).parents[1] / "data" / "certificate.schema.json"
TAX = {"job": {"technical": ["engineer", "programmer"], "services": ["nurse", "cashier"],
               "manual": ["farmer"]}}
LEAVES = ["engineer", "programmer", "nurse", "cashier", "farmer"]


def _validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA.read_text())  # the file in the repository, read directly
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _inputs(d: Path) -> tuple[Path, Path]:
    g = np.random.default_rng(0)
    inp = d / "in.csv"
    with inp.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "age", "income", "city", "job"])
        for i in range(40):
            w.writerow([f"r{i}", int(g.integers(18, 90)), int(g.integers(0, 1000)),
                        ["a", "b", "c"][int(g.integers(3))], LEAVES[int(g.integers(5))]])
    tax = d / "job.json"
    tax.write_text(json.dumps(TAX))
    return inp, tax


def _walk(d: Path) -> dict[str, tuple[dict, Path | None]]:
    """{command: (certificate, published file or None)} of every release / certify command."""
    inp, tax = _inputs(d)
    out: dict[str, tuple[dict, Path | None]] = {}

    def run(name: str, args: list, file: Path | None = None) -> None:
        r = CliRunner().invoke(cli, [str(a) for a in args])
        if file is not None:
            assert r.exit_code == 0, (name, r.output, r.exception)
            out[name] = (json.loads(Path(f"{file}.cert.json").read_text()), file)
        else:
            assert r.exit_code in (0, 1), (name, r.output, r.exception)
            out[name] = (json.loads(r.stdout), None)

    ma = ["--input", inp, "--k", "4", "--columns", "age,income",
          "--bounds", "age=0:120,income=0:1000", "--drop-other", "--format", "json"]
    for m in ["mdav", "insensitive-mdav", "individual-ranking", "mdav-swap", "ir-swap"]:
        o = d / f"{m}.csv"
        run(m, ["release", m, "--output", o, *ma], o)
    for m, k in [("insensitive-mdav-dp", "5"), ("ir-dp", "5"), ("laplace-dp", "1")]:
        o = d / f"{m}.csv"
        run(m, ["release", m, "--input", inp, "--output", o, "--epsilon", "1", "--k", k,
                "--columns", "age", "--bounds", "0:120", "--drop-other", "--format", "json"], o)
    o = d / "mixed.csv"
    run("mixed", ["release", "insensitive-mdav-dp", "--input", inp, "--output", o,
                  "--epsilon", "1", "--k", "5", "--columns", "age,income", "--bounds",
                  "0:120,0:1000", "--taxonomy", f"job={tax}", "--drop-other", "--format",
                  "json"], o)
    o = d / "tc.csv"
    run("t-closeness", ["release", "t-closeness", "--input", inp, "--output", o,
                        "--confidential", "income", "--t", "2", "--l", "2", "--qi", "age,city",
                        "--drop-other", "--format", "json"], o)
    run("certify t-closeness", ["certify", "t-closeness", "--input", o, "--groups", "group",
                                "--buckets", "bucket", "--t", "2", "--format", "json"])
    run("certify stochastic-t", ["certify", "stochastic-t", "--n", "10", "--class-size", "2",
                                 "--epsilon", "1", "--mechanism", "rr", "--format", "json"])
    run("certify staircase", ["certify", "staircase", "--epsilon", "1", "--neighbour",
                              "add/remove", "--format", "json"])
    run("certify laplace", ["certify", "laplace", "--epsilon", "1", "--format", "json"])
    run("certify box-staircase", ["certify", "box-staircase", "--epsilon", "1",
                                  "--sensitivity", "1,2", "--format", "json"])
    run("certify dp-release", ["certify", "dp-release", "--n", "100", "--k", "10",
                               "--epsilon", "1", "--neighbour", "add-remove", "--format",
                               "json"])
    run("certify dp-release mixed", ["certify", "dp-release", "--n", "100", "--k", "10",
                                     "--epsilon", "1", "--taxonomy", f"job={tax}",
                                     "--format", "json"])
    run("certify dp-release mixed add-remove", [
        "certify", "dp-release", "--n", "100", "--k", "10", "--epsilon", "1", "--taxonomy",
        f"job={tax}", "--neighbour", "add-remove", "--format", "json"])
    run("certify insensitivity", ["certify", "insensitivity", "--algorithm", "mdav", "--k",
                                  "2", "--examples", "0", "--format", "json"])
    run("certify refinement", ["certify", "refinement", "--prior", "uniform:0,1", "--epsilon",
                               "1", "--query", "individual", "--format", "json"])
    for key in ("certify staircase", "certify box-staircase", "certify dp-release"):
        p = d / (key.replace(" ", "_") + ".json")
        p.write_text(json.dumps(out[key][0]))
        run(key + " --from-json", ["certify", "--from-json", p, "--format", "json"])
    return out


@pytest.fixture(scope="module")
def walked(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[dict, Path | None]]:
    return _walk(tmp_path_factory.mktemp("certs"))


def test_every_command_certificate_validates(walked) -> None:
    """Mutants caught: a producer left on its old shape (no ``version``/``kind``: required),
    a schema file that is not valid draft 2020-12 (check_schema), an envelope key dropped."""
    v = _validator()
    assert len(walked) == 23
    bad = {name: [e.message for e in v.iter_errors(c)] for name, (c, _) in walked.items()}
    assert {k: e for k, e in bad.items() if e} == {}
    assert {c["kind"] for c, _ in walked.values()} == set(vc.KINDS)
    assert all(c["version"] == "1" for c, _ in walked.values())


def test_data_fingerprint_is_the_published_file(walked) -> None:
    """Mutant caught: the fingerprint taken of other bytes than those written (e.g. before the
    side files or of the input): sha256, size, rows and header recomputed from the file."""
    files = [(c, f) for c, f in walked.values() if f is not None]
    assert len(files) == 10
    for c, f in files:
        raw = f.read_bytes()
        rows = list(csv.reader(raw.decode().splitlines()))
        assert c["data"] == {"sha256": hashlib.sha256(raw).hexdigest(), "bytes": len(raw),
                             "rows": len(rows) - 1, "columns": rows[0], "file": f.name}, f
    assert all(c["data"] is None for c, f in walked.values() if f is None)


def test_neighbour_is_canonical(walked) -> None:
    """Mutant caught: the envelope copying a command's own spelling (``certify dp-release
    --neighbour add-remove`` wrote ``add-remove``, refinement ``add/remove``)."""
    assert walked["certify dp-release"][0]["neighbour"] == "add/remove"
    mixed = walked["certify dp-release mixed add-remove"][0]  # certify_mixed spells add-remove
    assert mixed["neighbour"] == "add/remove" and mixed["certified_epsilon"] is None
    assert walked["certify staircase"][0]["neighbour"] == "add/remove"
    assert walked["certify refinement"][0]["neighbour"] == "add/remove"
    assert walked["laplace-dp"][0]["neighbour"] == "substitute"
    assert walked["mdav"][0]["neighbour"] is None


@pytest.mark.parametrize("change, where", [
    (lambda c: c.pop("version"), "version"),
    (lambda c: c.update(neighbour="add-remove"), "add-remove"),
    (lambda c: c.update(holds=False), "refusal"),
    (lambda c: c["data"].update(sha256="x"), "sha256"),
])
def test_schema_rejects_broken_certificates(walked, change, where) -> None:
    """Mutants caught: a schema that does not require ``version``, allows a non-canonical
    neighbour, allows a failed certificate without a refusal reason, or any sha256 text.
    The unchanged certificate validates (checked first), so each rejection is the change's."""
    c = json.loads(json.dumps(walked["laplace-dp"][0]))
    assert not list(_validator().iter_errors(c))
    change(c)
    errs = [e.message for e in _validator().iter_errors(c)]
    assert errs and where in " ".join(errs + [str(e.path) for e in _validator().iter_errors(c)]
                                      + [json.dumps(e.schema) for e in
                                         _validator().iter_errors(c)]), errs


def test_write_release_refuses_an_invalid_certificate(tmp_path: Path) -> None:
    """Mutant caught: write_release writing without validating (here the roles are a text,
    not an object): AssertionError and neither file exists."""
    out = tmp_path / "o.csv"
    with pytest.raises(AssertionError, match=r"certificate\.schema\.json"):
        write_release(out, b"a\n1\n", {"holds": True, "guarantee": "g", "roles": "a"},
                      kind="microaggregation")
    assert not out.exists() and not Path(f"{out}.cert.json").exists()
    with pytest.raises(AssertionError, match="holds"):  # holds missing: not a boolean
        vc.validate({k: None for k in vc.ENVELOPE_KEYS} | {"version": "1", "kind": "noise"})


@pytest.mark.parametrize("spelling", ["add/remove", "add-remove", "add_remove", "ADD_REMOVE"])
def test_mixed_accepts_every_neighbour_spelling(spelling: str) -> None:
    """Mutant caught: verify/releases/mixed.py accepting only ``add-remove`` (it refused
    ``add/remove``, the spelling of :class:`Neighbour`): each gives the add/remove verdict."""
    assert Neighbour.parse(spelling) is Neighbour.ADD_REMOVE
    rel = MixedDPRelease(attributes=(NumericDomain(0, 1),), k=2, epsilon=1.0)
    c = certify_mixed(rel, 6, spelling)
    assert c["certified_epsilon"] is None and "6 rows" in c["counterexample"]["event"]
    assert vc.canonical_neighbour(c["neighbour"]) == "add/remove"
