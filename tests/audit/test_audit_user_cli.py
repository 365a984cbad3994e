"""``privlab audit --sampler/--mechanism`` on a user's module outside the repository, replay of
user-code counterexamples, ``seedable=False`` samplers and the lazy ``privlab.audit.vectorize``
(issues 15 and 18)."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import warnings

import numpy as np
import pytest

from privlab.audit import audit_pair, replay
from privlab.audit.auditor import SeedWarning
from privlab.cli import main

USER_MODULE = '''
import numpy as np

def good(x):                 # x + Laplace(1): 1-DP for |x - x'| <= 1
    return lambda n, rng: x + rng.laplace(0.0, 1.0, n)

def half_scale(x):           # claims 1-DP, is 2-DP
    return lambda n, rng: x + rng.laplace(0.0, 0.5, n)

def wrong_shape(x):
    return lambda n, rng: np.zeros(n + 1)

def raises(x):
    def s(n, rng):
        raise RuntimeError("boom")
    return s

def not_a_factory():
    return None

def no_sampler(x):
    return 3

class Count:                 # number of values > 0.5 plus Laplace(1/eps)
    def __init__(self, eps):
        self.eps = eps
    def release(self, values, *, rng):
        return float((np.asarray(values) > 0.5).sum()) + rng.laplace(0.0, 1.0 / self.eps)

count_ok = Count(1.0)
count_leaky = Count(3.0)     # claims 1, is 3
'''

N = "20000"


@pytest.fixture
def user_dir(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> pathlib.Path:
    """A user's module in a temporary directory (outside the repository), importable by name
    and as a file; the current directory is that folder."""
    (tmp_path / "usermechs_cli.py").write_text(USER_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    sys.modules.pop("usermechs_cli", None)
    return tmp_path


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["audit", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_module_reference_good_and_broken(user_dir: pathlib.Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--sampler", "usermechs_cli:good", "--pair", "0", "1",
                        "--claimed-epsilon", "1", "--samples", N, "--workers", "1",
                        "--format", "json")
    d = json.loads(out)
    assert code == 0 and d["verdict"] == "consistent"
    assert d["counterexample"]["spec"]["sampler"] == "usermechs_cli:good"
    # the broken factory (true eps = 2) is caught: a CLI that ignored the reference, or that
    # audited the wrong pair, would not exceed the claim
    code, out, _ = _run(capsys, "--sampler", "usermechs_cli:half_scale", "--pair", "0", "1",
                        "--claimed-epsilon", "1", "--samples", N, "--workers", "1",
                        "--format", "json")
    d = json.loads(out)
    assert code == 1 and d["verdict"] == "violation"
    assert d["confirmation"]["verdict"] == "violation"
    assert d["epsilon_lower_bound"] > 1.0


def test_file_reference_pairs_are_a_union_bound(user_dir: pathlib.Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--sampler", "usermechs_cli.py:good", "--pair", "0", "1",
                        "--pair", "-1", "0", "--claimed-epsilon", "1", "--samples", N,
                        "--workers", "1", "--confidence", "0.9", "--format", "json")
    d = json.loads(out)
    assert code == 0 and d["pairs_audited"] == 2
    assert d["confidence"] == pytest.approx(1 - 0.1 / 2)  # 1 − α/K per pair


def test_search_and_mechanism_on_data_sets(user_dir: pathlib.Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--sampler", "usermechs_cli:half_scale", "--search", "0,4",
                        "--claimed-epsilon", "1", "--samples", N, "--workers", "1",
                        "--format", "json")
    assert code == 1 and json.loads(out)["verdict"] == "violation"
    (user_dir / "a.csv").write_text("v\n0.1\n0.9\n0.2\n")
    (user_dir / "b.csv").write_text("v\n0.1\n0.2\n0.2\n")  # one value substituted
    for ref, want in (("usermechs_cli:count_ok", 0), ("usermechs_cli:count_leaky", 1)):
        code, out, _ = _run(capsys, "--mechanism", ref, "--input-a", "a.csv", "--input-b",
                            "b.csv", "--claimed-epsilon", "1", "--samples", "5000",
                            "--workers", "1", "--format", "json")
        assert code == want, (ref, out)
        assert json.loads(out)["pair"][0] == [[0.1], [0.9], [0.2]]


@pytest.mark.parametrize("args, words", [
    (["--sampler", "no_such_module_q:f"], "cannot import module"),
    (["--sampler", "usermechs_cli:missing"], "no attribute"),
    (["--sampler", "missing_file.py:f"], "does not exist"),
    (["--sampler", "nocolon"], "MODULE:NAME"),
    (["--sampler", "usermechs_cli:not_a_factory"], "factory taking one input"),
    (["--sampler", "usermechs_cli:no_sampler"], "must return a sampler"),
    (["--sampler", "usermechs_cli:wrong_shape"], "returned shape"),
    (["--sampler", "usermechs_cli:raises"], "RuntimeError: boom"),
    (["--mechanism", "usermechs_cli:good"], "release(values"),
    (["--sampler", "usermechs_cli:good", "--pair", "0", "not_a_file.csv"], "does not exist"),
])
def test_bad_references_are_one_line_errors(user_dir: pathlib.Path,
                                            capsys: pytest.CaptureFixture[str],
                                            args: list[str], words: str) -> None:
    if "--pair" not in args:
        args = [*args, "--pair", "0", "1"]
    code, out, err = _run(capsys, *args, "--claimed-epsilon", "1", "--samples", "2000",
                          "--workers", "1")
    lines = err.strip().splitlines()
    assert code == 2 and out == ""
    assert len(lines) == 1 and lines[0].startswith("error:") and words in lines[0], err
    assert "Traceback" not in err


@pytest.mark.parametrize("args", [
    ["--sampler", "usermechs_cli:good", "--pair", "0", "1"],  # no claim
    ["--sampler", "usermechs_cli:good", "--claimed-epsilon", "1"],  # no neighbours
    ["--sampler", "usermechs_cli:good", "--pair", "0", "1", "--search", "0,1",
     "--claimed-epsilon", "1"],
    ["--sampler", "usermechs_cli:good", "--mechanism", "usermechs_cli:count_ok", "--pair", "0",
     "1", "--claimed-epsilon", "1"],
    ["laplace", "--pair", "0", "1"],
    ["--sampler", "usermechs_cli:good", "--pair", "0", "1", "--claimed-epsilon", "1",
     "--epsilon", "2"],
    ["--sampler", "usermechs_cli:good", "--pair", "0", "1", "--claimed-epsilon", "-1"],
])
def test_bad_usage_is_exit_2(user_dir: pathlib.Path, capsys: pytest.CaptureFixture[str],
                             args: list[str]) -> None:
    code, out, err = _run(capsys, *args, "--samples", "2000", "--workers", "1")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith("error:") and "Traceback" not in err


def test_saved_counterexample_replays_from_the_reference(
        user_dir: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = user_dir / "cex.json"
    code, _, _ = _run(capsys, "--sampler", "usermechs_cli.py:half_scale", "--pair", "0", "1",
                      "--claimed-epsilon", "1", "--samples", N, "--workers", "1",
                      "--save", str(save))
    assert code == 1
    saved = json.loads(save.read_text())
    assert saved["counterexample"]["spec"]["pair"] == [0.0, 1.0]
    code, out, err = _run(capsys, "--replay", str(save), "--samples", N, "--format", "json")
    assert code == 2 and out == "" and "--allow-code" in err  # the file names code to run
    code, out, _ = _run(capsys, "--replay", str(save), "--samples", N, "--format", "json",
                        "--allow-code")
    d = json.loads(out)
    assert code == 1 and d["verdict"] == "violation" and d["epsilon_lower_bound"] > 1
    assert d["mechanism"] == "replay of sampler usermechs_cli.py:half_scale"


def test_replay_is_of_the_named_reference_not_a_fixed_answer(user_dir: pathlib.Path) -> None:
    """The same saved event replayed against the *correct* factory does not violate: replay
    really re-runs the referenced code (a mutant that returned the saved counts would)."""
    from privlab.audit.usersuite import parse_audit, run_audit

    spec = parse_audit({"name": "h", "sampler": "usermechs_cli.py:half_scale",
                        "pairs": [[0, 1]], "claimed_epsilon": 1.0, "samples": 20000},
                       0, user_dir, 20000)
    d = run_audit(spec, 0.05, 0, 1)
    assert d["verdict"] == "violation"
    cex = dict(d["counterexample"])
    # replayed from another working directory: the base directory is in the spec
    cex["spec"] = {**cex["spec"], "sampler": "usermechs_cli.py:good"}
    r = replay({"counterexample": cex}, samples=20000, rng=1)
    assert r.verdict == "consistent"


def test_suite_counterexample_replays(user_dir: pathlib.Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    (user_dir / "s.toml").write_text(
        '[[audit]]\nname = "broken"\nsampler = "usermechs_cli.py:half_scale"\n'
        'pairs = [[0, 1]]\nclaimed_epsilon = 1.0\nsamples = 20000\n')
    code = main(["audit-suite", "run", str(user_dir / "s.toml"), "--out",
                 str(user_dir / "out")])
    capsys.readouterr()
    assert code == 1
    f = user_dir / "out" / "counterexamples" / "broken.json"
    code, out, _ = _run(capsys, "--replay", str(f), "--samples", N, "--format", "json",
                        "--allow-code")
    assert code == 1 and json.loads(out)["verdict"] == "violation"


def test_unseedable_sampler_is_audited_with_a_warning() -> None:
    own = np.random.default_rng(123)  # ignores rng, but fresh draws on every call
    s_a = lambda n, rng: own.laplace(0.0, 1.0, n)  # noqa: E731
    s_b = lambda n, rng: 1.0 + own.laplace(0.0, 1.0, n)  # noqa: E731
    with pytest.warns(SeedWarning, match="seedable=False"):
        r = audit_pair(s_a, s_b, samples=5000, claimed_epsilon=1.0, rng=0, seedable=False)
    assert r.seedable is False and r.to_dict()["seedable"] is False
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the default (seedable) case does not warn
        r2 = audit_pair(lambda n, g: g.laplace(0, 1, n), lambda n, g: 1 + g.laplace(0, 1, n),
                        samples=5000, claimed_epsilon=1.0, rng=0)
    assert r2.seedable is True
    with pytest.raises(Exception, match="seedable"):
        audit_pair(s_a, s_b, samples=5000, rng=0, seedable="no")


def test_vectorize_is_exported_lazily() -> None:
    code = ("import sys, privlab.audit as a; before = 'privlab.audit.usercode' in sys.modules; "
            "f = a.vectorize(lambda g: g.random()); import numpy as np; "
            "print(before, f(5, np.random.default_rng(0)).shape)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "(5,)"]
