"""Audit suites of user code (issue 18): references, suite files, error control, outputs."""

from __future__ import annotations

import json
import pathlib
import shutil
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from click.testing import CliRunner

from privlab.audit.usercode import factory_sampler, load_reference, mechanism_sampler
from privlab.audit.usersuite import load_suite, run_suite_file
from privlab.commands.audit_suite import audit_suite
from privlab.errors import InvalidParameter

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"

USER_MODULE = '''
import numpy as np

def good(x):
    return lambda n, rng: x + rng.laplace(0.0, 1.0, n)

def half_scale(x):          # claims 1-DP, is 2-DP
    return lambda n, rng: x + rng.laplace(0.0, 0.5, n)

def wrong_shape(x):
    return lambda n, rng: np.zeros(n + 1)

def not_a_factory():
    return None

class Counter:
    def release(self, values, *, rng):
        return float(np.sum(values)) + rng.laplace(0.0, 1.0)

counter = Counter()
'''


@pytest.fixture
def user_dir(tmp_path: pathlib.Path) -> pathlib.Path:
    """A user's module outside the repository."""
    (tmp_path / "teammechs.py").write_text(USER_MODULE)
    return tmp_path


def test_load_reference_file_and_errors(user_dir: pathlib.Path) -> None:
    f = load_reference(f"{user_dir / 'teammechs.py'}:good")
    out = factory_sampler(f, 0.0, "s")(10, np.random.default_rng(0))
    assert out.shape == (10,)
    for ref, msg in [("nocolon", "MODULE:NAME"), ("no_such_module_xyz:f", "cannot import"),
                     (f"{user_dir / 'missing.py'}:f", "does not exist"),
                     (f"{user_dir / 'teammechs.py'}:nope", "no attribute")]:
        with pytest.raises(InvalidParameter, match=msg) as e:
            load_reference(ref)
        assert "\n" not in str(e.value)


def test_wrong_signature_and_shape_are_one_line_errors(user_dir: pathlib.Path) -> None:
    f = load_reference(f"{user_dir / 'teammechs.py'}:not_a_factory")
    with pytest.raises(InvalidParameter, match="factory taking one input"):
        factory_sampler(f, 0.0, "s")
    g = load_reference(f"{user_dir / 'teammechs.py'}:wrong_shape")
    with pytest.raises(InvalidParameter, match=r"shape \(11,\) for n=10"):
        factory_sampler(g, 0.0, "s")(10, np.random.default_rng(0))


def test_mechanism_object_on_a_data_set(user_dir: pathlib.Path) -> None:
    obj = load_reference(f"{user_dir / 'teammechs.py'}:counter")
    s = mechanism_sampler(obj, [0.0, 1.0, 2.0], "m")
    out = s(50, np.random.default_rng(1))
    assert out.shape == (50,) and abs(out.mean() - 3.0) < 1.0


def _suite(tmp: pathlib.Path, body: str) -> pathlib.Path:
    p = tmp / "suite.toml"
    p.write_text(body)
    return p


def test_suite_validation_errors(user_dir: pathlib.Path) -> None:
    cases = {
        "[[audit]]\nname = 'a'\nsampler = 'teammechs.py:good'\nclaimed_epsilon = 1\n":
            "exactly one of pairs",
        "[[audit]]\nname = 'a'\nsampler = 'teammechs.py:good'\npairs=[[0,1]]\n":
            "claimed_epsilon",
        "[[audit]]\nname = 'a'\nsampler = 'teammechs.py:good'\npairs=[[0,1]]\n"
        "claimed_epsilon = 1\nexpect = 'maybe'\n": "expect",
        "[[audit]]\nname = 'a'\nsampler = 'x:y'\npairs=[[0,1]]\nclaimed_epsilon=1\nbogus=1\n":
            "unknown key",
        "[suite]\nalpha = 2\n[[audit]]\nname = 'a'\nsampler = 'x:y'\npairs=[[0,1]]\n"
        "claimed_epsilon=1\n": "alpha",
        "not toml [": "not valid TOML",
        "": "no \\[\\[audit\\]\\]",
    }
    for body, msg in cases.items():
        with pytest.raises(InvalidParameter, match=msg):
            load_suite(_suite(user_dir, body))


def test_violation_is_confirmed_and_named(user_dir: pathlib.Path) -> None:
    p = _suite(user_dir, """
[suite]
samples = 50000
[[audit]]
name = "good"
sampler = "teammechs.py:good"
pairs = [[0, 1]]
claimed_epsilon = 1.0
[[audit]]
name = "broken"
sampler = "teammechs.py:half_scale"
pairs = [[0, 1]]
claimed_epsilon = 1.0
""")
    res = run_suite_file(load_suite(p))
    by = {r["name"]: r for r in res.results}
    assert by["good"]["verdict"] == "consistent" and by["good"]["as_expected"]
    assert by["broken"]["verdict"] == "violation" and not by["broken"]["as_expected"]
    assert by["broken"]["confirmation"]["verdict"] == "violation"
    assert by["broken"]["epsilon_lower_bound"] > 1.0
    assert res.exit_code == 1
    d = res.to_dict()
    assert d["level_per_audit"] == pytest.approx(0.01 / 2)
    assert d["failures"] == ["broken"]


def test_search_domain_finds_the_pair(user_dir: pathlib.Path) -> None:
    p = _suite(user_dir, """
[[audit]]
name = "search"
sampler = "teammechs.py:half_scale"
search = { domain = [0, 10], sensitivity = 1 }
claimed_epsilon = 1.0
samples = 50000
""")
    r = run_suite_file(load_suite(p)).results[0]
    assert r["verdict"] == "violation"
    a, b = r["pair"]
    assert abs(a - b) == pytest.approx(1.0)


def test_example_suite_cli_outputs_and_expect(tmp_path: pathlib.Path) -> None:
    ex = tmp_path / "examples"
    shutil.copytree(EXAMPLES, ex)
    out = tmp_path / "out"
    (tmp_path / "out").mkdir()
    (out / "mine.txt").write_text("user file")
    r = CliRunner().invoke(audit_suite, ["run", str(ex / "suite.toml"), "--out", str(out),
                                         "--format", "junit"])
    assert r.exit_code == 0, r.output
    tree = ET.fromstring(r.stdout)
    assert tree.get("failures") == "0" and int(tree.get("tests")) == 4
    assert (out / "mine.txt").read_text() == "user file"
    for f in ("suite.json", "suite.md", "junit.xml",
              "counterexamples/naive-float-laplace.json"):
        assert (out / f).is_file(), f
    d = json.loads((out / "suite.json").read_text())
    assert {r["name"]: r["verdict"] for r in d["results"]}["naive-float-laplace"] == "violation"
    # without its expect line the intentionally broken entry (and only it) fails the run
    text = (ex / "suite.toml").read_text().replace('expect = "violation"', "")
    (ex / "suite.toml").write_text(text)
    r2 = CliRunner().invoke(audit_suite, ["run", str(ex / "suite.toml"), "--format", "json"])
    assert r2.exit_code == 1
    d2 = json.loads(r2.stdout)
    assert d2["failures"] == ["naive-float-laplace"]


def test_check_command(user_dir: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``privlab audit-suite check``: a wrong output shape is one ``error:`` line, exit 2; a good
    suite passes with one line per audit."""
    from privlab.cli import main

    bad = _suite(user_dir, "[[audit]]\nname='w'\nsampler='teammechs.py:wrong_shape'\n"
                           "pairs=[[0,1]]\nclaimed_epsilon=1\n")
    assert main(["audit-suite", "check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and err.count("\n") == 1 and "shape" in err
    good = _suite(user_dir, "[[audit]]\nname='g'\nsampler='teammechs.py:good'\n"
                            "pairs=[[0,1]]\nclaimed_epsilon=1\n")
    assert main(["audit-suite", "check", str(good)]) == 0
    assert "g: sampler teammechs.py:good ok" in capsys.readouterr().out
