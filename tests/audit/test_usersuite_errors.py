"""A suite always leaves a report (issue "never hang, never flake", part 3).

Bad references are all found before any audit runs (one ``InvalidParameter`` naming each);
an audit that raises while it runs becomes an entry with verdict "error" and the exception's
one-line message, and the other audits still run.  Expected verdicts come from the user
module below (``good`` is Laplace(1) noise on a sensitivity-1 input, ε = 1 exactly;
``half_scale`` is Laplace(0.5), ε = 2 against a claim of 1).
"""

from __future__ import annotations

import pathlib

import pytest

from privlab.audit import usersuite
from privlab.audit.usersuite import check_suite, load_suite, resolve_references, run_suite_file
from privlab.errors import InvalidParameter

USER_MODULE = '''
import pathlib

MARK = pathlib.Path(__file__).with_name("ran.marker")

def good(x):
    def sample(n, rng):
        with MARK.open("a") as fh:          # proof that an audit drew outputs
            fh.write(f"good {x} {n}\\n")
        return x + rng.laplace(0.0, 1.0, n)
    return sample

def half_scale(x):                           # claims 1-DP, is 2-DP
    return lambda n, rng: x + rng.laplace(0.0, 0.5, n)

def boom(x):
    def sample(n, rng):
        raise RuntimeError("kaboom\\nsecond line of the traceback text")
    return sample

def no_args():
    return None

class NoRelease:
    pass

no_release = NoRelease()
'''


@pytest.fixture
def user_dir(tmp_path: pathlib.Path) -> pathlib.Path:
    (tmp_path / "errmechs.py").write_text(USER_MODULE)
    return tmp_path


def _audit(name: str, ref: str, *, kind: str = "sampler", samples: int = 20000,
           expect: str = "consistent") -> str:
    return (f'[[audit]]\nname = "{name}"\n{kind} = "{ref}"\npairs = [[0, 1]]\n'
            f'claimed_epsilon = 1.0\nsamples = {samples}\nexpect = "{expect}"\n')


def test_every_bad_reference_is_named_before_any_audit_runs(user_dir: pathlib.Path) -> None:
    """Catches: references resolved lazily when their audit is reached (the good audit, listed
    first, would draw outputs and write the marker), and stopping at the first bad reference
    (the second name would be missing from the message)."""
    p = user_dir / "s.toml"
    p.write_text(_audit("first-good", "errmechs.py:good")
                 + _audit("typo-module", "errmechz_nope:good")
                 + _audit("typo-attr", "errmechs.py:goood")
                 + _audit("not-a-factory", "errmechs.py:no_args")
                 + _audit("no-release", "errmechs.py:no_release", kind="mechanism"))
    with pytest.raises(InvalidParameter) as e:
        run_suite_file(load_suite(p))
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("4 bad reference(s)")
    for name in ("typo-module", "typo-attr", "not-a-factory", "no-release"):
        assert f"audit {name!r}" in msg, (name, msg)
    assert "first-good" not in msg
    assert not (user_dir / "ran.marker").exists()


def test_resolve_accepts_good_references_without_calling_them(user_dir: pathlib.Path) -> None:
    """Catches: a resolution that calls the factory or the sampler (it would write the marker)
    or that rejects a correct factory / mechanism."""
    p = user_dir / "s.toml"
    p.write_text(_audit("g", "errmechs.py:good") + _audit("h", "errmechs.py:half_scale"))
    resolve_references(load_suite(p).audits)
    assert not (user_dir / "ran.marker").exists()


def test_a_raising_audit_is_an_error_entry_and_the_others_run(user_dir: pathlib.Path) -> None:
    """Catches: an exception that ends the run (no results for the audits after it), an error
    counted as a verdict failure, a multi-line message, an exit code other than 2 (no
    verdict) with an error."""
    p = user_dir / "s.toml"
    p.write_text(_audit("good", "errmechs.py:good") + _audit("boom", "errmechs.py:boom")
                 + _audit("broken", "errmechs.py:half_scale", expect="violation"))
    res = run_suite_file(load_suite(p))
    by = {r["name"]: r for r in res.results}
    assert list(by) == ["good", "boom", "broken"]
    assert by["good"]["verdict"] == "consistent" and by["good"]["as_expected"]
    assert by["broken"]["verdict"] == "violation" and by["broken"]["as_expected"]
    err = by["boom"]
    assert err["verdict"] == "error" and not err["as_expected"]
    assert "kaboom" in err["error"] and "RuntimeError" in err["error"]
    assert "\n" not in err["error"] and "boom" in err["error"]  # names the audit
    # the same fields as a verdict (the report and JUnit read them), plus the error's
    assert set(err) - {"error", "error_type"} == set(by["good"])
    d = res.to_dict()
    assert d["errors"] == ["boom"] and d["failures"] == []
    assert res.exit_code == 2
    assert all(r["seconds"] >= 0 for r in res.results)


def test_an_unexpected_exception_keeps_its_type(user_dir: pathlib.Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception that is not the user code's ``InvalidParameter`` (here: from the runner
    itself) is reported as ``Type: message`` after the audit's name.  Catches: catching only
    ``InvalidParameter``."""
    p = user_dir / "s.toml"
    p.write_text(_audit("a", "errmechs.py:good", samples=2000)
                 + _audit("b", "errmechs.py:good", samples=2000))
    real = usersuite._run_one

    def flaky(a, *args, **kw):
        if a.name == "a":
            raise ZeroDivisionError("division by zero in the runner")
        return real(a, *args, **kw)

    monkeypatch.setattr(usersuite, "_run_one", flaky)
    res = run_suite_file(load_suite(p))
    a, b = res.results
    assert a["verdict"] == "error" and a["error_type"] == "ZeroDivisionError"
    assert a["error"] == ("audit 'a' (sampler errmechs.py:good): ZeroDivisionError: division "
                          "by zero in the runner")
    assert b["verdict"] == "consistent"


def test_check_names_every_problem_in_one_message(user_dir: pathlib.Path) -> None:
    """``check`` draws outputs from every audit and reports all that fail.  Catches: stopping
    at the first audit that cannot draw."""
    p = user_dir / "s.toml"
    p.write_text(_audit("boom-1", "errmechs.py:boom") + _audit("ok", "errmechs.py:half_scale")
                 + _audit("boom-2", "errmechs.py:boom"))
    with pytest.raises(InvalidParameter) as e:
        check_suite(load_suite(p))
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("2 audit(s) cannot draw outputs")
    assert "'boom-1'" in msg and "'boom-2'" in msg and "'ok'" not in msg
