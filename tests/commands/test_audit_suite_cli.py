"""``privlab audit-suite`` on the command line: exit codes, the report a CI can gate on, JUnit
structure, ``check --format json``.

Verdicts come from the user module below (``good``: Laplace(1) on a sensitivity-1 input, ε = 1;
``half_scale``: Laplace(0.5), ε = 2 against a claimed 1; ``boom``: its sampler raises).
"""

from __future__ import annotations

import datetime
import json
import pathlib
import re
import xml.etree.ElementTree as ET

import pytest

from privlab.cli import main

USER_MODULE = '''
import pathlib

MARK = pathlib.Path(__file__).with_name("ran.marker")

def good(x):
    def sample(n, rng):
        with MARK.open("a") as fh:          # proof that an audit drew outputs
            fh.write(f"good {x} {n}\\n")
        return x + rng.laplace(0.0, 1.0, n)
    return sample

def half_scale(x):
    return lambda n, rng: x + rng.laplace(0.0, 0.5, n)

def boom(x):
    def sample(n, rng):
        raise RuntimeError("kaboom\\nsecond line")
    return sample
'''


@pytest.fixture
def user_dir(tmp_path: pathlib.Path) -> pathlib.Path:
    (tmp_path / "climechs.py").write_text(USER_MODULE)
    return tmp_path


def _audit(name: str, ref: str, expect: str = "consistent") -> str:
    return (f'[[audit]]\nname = "{name}"\nsampler = "{ref}"\npairs = [[0, 1]]\n'
            f'claimed_epsilon = 1.0\nsamples = 20000\nexpect = "{expect}"\n')


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["audit-suite", *args])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_bad_references_exit_2_one_line_nothing_run_or_written(
        user_dir: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Catches: lazy resolution (the good audit, first, would run: marker, report files) and a
    message naming only the first bad reference."""
    suite = user_dir / "nightly.toml"
    suite.write_text(_audit("good", "climechs.py:good") + _audit("typo-1", "climechz:good")
                     + _audit("typo-2", "climechs.py:goood"))
    out = user_dir / "report"
    code, stdout, err = _run(capsys, "run", str(suite), "--out", str(out), "--format", "junit")
    assert code == 2 and stdout == ""
    assert err.startswith("error:") and err.count("\n") == 1
    assert "'typo-1'" in err and "'typo-2'" in err
    assert not (user_dir / "ran.marker").exists()
    assert not (out / "junit.xml").exists() and not (out / "suite.json").exists()


def test_a_raising_audit_still_leaves_the_report(user_dir: pathlib.Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """One raising sampler among good ones: exit 2 (an audit has no verdict) after the report
    is written, junit.xml with an <error> entry carrying the message, suite.json with verdict
    "error", the other audits have verdicts.  Catches: an exception that aborts the run (no
    files), errors="0" in JUnit, the error reported as a <failure>."""
    suite = user_dir / "nightly.toml"
    suite.write_text(_audit("good", "climechs.py:good") + _audit("boom", "climechs.py:boom")
                     + _audit("broken", "climechs.py:half_scale", expect="violation"))
    out = user_dir / "report"
    code, stdout, err = _run(capsys, "run", str(suite), "--out", str(out), "--format", "json")
    assert code == 2, err
    assert err.splitlines()[-1].startswith("error: 1 audit(s) have no verdict ('boom')")
    d = json.loads(stdout)
    assert d == json.loads((out / "suite.json").read_text())
    verdicts = {r["name"]: r["verdict"] for r in d["results"]}
    assert verdicts == {"good": "consistent", "boom": "error", "broken": "violation"}
    boom = next(r for r in d["results"] if r["name"] == "boom")
    assert "kaboom" in boom["error"] and "\n" not in boom["error"]
    assert d["errors"] == ["boom"] and d["failures"] == []
    assert "boom" in err and "kaboom" in err  # progress says which audit raised
    root = ET.parse(out / "junit.xml").getroot()
    assert root.get("errors") == "1" and root.get("failures") == "0"
    cases = {c.get("name"): c for c in root.iter("testcase")}
    (error,) = cases["boom"].findall("error")
    assert "kaboom" in error.get("message") and error.get("type")
    assert not cases["boom"].findall("failure")
    for name in ("good", "broken"):
        assert not cases[name].findall("error") and not cases[name].findall("failure")
    assert "kaboom" in (out / "suite.md").read_text()


def test_junit_is_structurally_valid(user_dir: pathlib.Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """testsuite: tests/failures/errors/time/timestamp, counts equal to its testcases' children;
    testcase: classname from the suite file's stem, time.  Catches: the former fixed classname
    "privlab.audit", a missing time or timestamp, counts that disagree with the entries."""
    suite = user_dir / "team-nightly.v2.toml"
    suite.write_text(_audit("good", "climechs.py:good") + _audit("boom", "climechs.py:boom")
                     + _audit("broken", "climechs.py:half_scale"))
    code, stdout, _ = _run(capsys, "run", str(suite), "--format", "junit")
    assert code == 2  # "boom" has no verdict
    root = ET.fromstring(stdout)
    assert root.tag == "testsuite"
    for attr in ("tests", "failures", "errors", "time", "timestamp"):
        assert root.get(attr) is not None, attr
    cases = root.findall("testcase")
    assert int(root.get("tests")) == len(cases) == 3
    assert int(root.get("failures")) == sum(len(c.findall("failure")) for c in cases) == 1
    assert int(root.get("errors")) == sum(len(c.findall("error")) for c in cases) == 1
    assert float(root.get("time")) >= 0.0
    # JUnit's schema: ISO 8601 date-time without a time zone
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", root.get("timestamp"))
    datetime.datetime.fromisoformat(root.get("timestamp"))
    stem = re.sub(r"[^A-Za-z0-9_]", "_", suite.stem)  # team-nightly.v2 -> team_nightly_v2
    for c in cases:
        assert c.get("classname") == f"privlab.audit_suite.{stem}"
        assert float(c.get("time")) >= 0.0


def test_check_format_json_and_errors(user_dir: pathlib.Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """``check --format json``: JSON alone on stdout; bad references: exit 2, one line naming
    each, nothing on stdout.  Catches: ``check`` without ``--format`` (a usage error, exit 2)
    and a table line mixed into the JSON."""
    good = user_dir / "good.toml"
    good.write_text(_audit("a", "climechs.py:good") + _audit("b", "climechs.py:half_scale"))
    code, stdout, _ = _run(capsys, "check", str(good), "--format", "json")
    assert code == 0
    d = json.loads(stdout)
    assert d["ok"] is True and [r["name"] for r in d["audits"]] == ["a", "b"]
    assert all(r["ok"] for r in d["audits"])
    code, stdout, _ = _run(capsys, "check", str(good))
    assert code == 0 and stdout.splitlines() == ["a: sampler climechs.py:good ok",
                                                 "b: sampler climechs.py:half_scale ok"]
    bad = user_dir / "bad.toml"
    bad.write_text(_audit("a", "climechs.py:good") + _audit("x", "nope_mod:f")
                   + _audit("y", "climechs.py:nope"))
    code, stdout, err = _run(capsys, "check", str(bad), "--format", "json")
    assert code == 2 and stdout == ""
    assert err.startswith("error:") and err.count("\n") == 1
    assert "'x'" in err and "'y'" in err
