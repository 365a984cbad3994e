"""Issue 32, the audit side: user code contained, replay files and suite files as data, every
key checked, suite.md escaped.  One test (or one parametrised family) per item of the issue:

1. a sampler that exits, crashes, is killed or runs out of time never passes: ``audit`` exits 2
   with one ``error:`` line naming it, ``audit-suite run`` records an error verdict and exits 2;
   killed pool workers die without a ``BrokenPipeError`` traceback;
2. non-finite outputs are an error, not "consistent";
3. ``--replay`` runs no code without ``--allow-code``, refuses changed code; suite files stay in
   their folder unless ``--allow-outside``;
4. every input is read through ``privlab._input`` and every key checked by type;
5. ``suite.md`` escapes what comes from the suite file.

Every audit here draws few outputs (2000 per side); the user module is written into a fresh
temporary folder, which is the current directory.
"""

from __future__ import annotations

import json
import os
import pathlib
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from privlab.audit.usercode import ContainedError, contained
from privlab.cli import main
from privlab.errors import InvalidParameter

USER_MODULE = '''
import os, pathlib, signal, sys, time
import numpy as np

pathlib.Path(__file__).with_name("imported.marker").touch()   # proof that it was imported

def good(x):
    return lambda n, rng: x + rng.laplace(0.0, 1.0, n)

def half_scale(x):
    return lambda n, rng: x + rng.laplace(0.0, 0.5, n)

def _fails(action):
    def factory(x):
        def sample(n, rng):
            if action == "sys_exit":
                sys.exit(0)
            if action == "os_exit":
                os._exit(0)
            if action == "raises":
                raise RuntimeError("kaboom")
            if action == "sigkill":
                os.kill(os.getpid(), signal.SIGKILL)
            if action == "segfault":
                import ctypes, faulthandler
                faulthandler.disable()          # no crash report in the test's output
                ctypes.string_at(0)
            if action == "sleeps":
                time.sleep(60)
            return x + rng.laplace(0.0, 1.0, n)
        return sample
    return factory

sys_exit, os_exit, raises = _fails("sys_exit"), _fails("os_exit"), _fails("raises")
sigkill, segfault, sleeps = _fails("sigkill"), _fails("segfault"), _fails("sleeps")

def only_inf(x):
    return lambda n, rng: np.full(n, np.inf)

def some_nan(x):
    def sample(n, rng):
        out = x + rng.laplace(0.0, 1.0, n)
        out[::7] = np.nan
        return out
    return sample

class InfRelease:
    def release(self, values, *, rng):
        return np.full(np.shape(values), -np.inf)

inf_release = InfRelease()
'''

N = "2000"


@pytest.fixture
def user_dir(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> pathlib.Path:
    (tmp_path / "contmechs.py").write_text(USER_MODULE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _audit(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["audit", *args])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def _suite_entry(name: str, ref: str, extra: str = "") -> str:
    return (f'[[audit]]\nname = "{name}"\nsampler = "{ref}"\npairs = [[0, 1]]\n'
            f'claimed_epsilon = 1.0\nsamples = {N}\n{extra}')


# ---- 1. user code contained --------------------------------------------------------------

@pytest.mark.parametrize("factory, words", [
    ("sys_exit", "called sys.exit(0)"),
    ("os_exit", "exited with status 0"),
    ("raises", "RuntimeError: kaboom"),
    ("sigkill", "killed by SIGKILL"),
    ("segfault", "crashed with SIGSEGV"),
    ("sleeps", "did not finish within the timeout of 1 s"),
])
def test_a_failing_sampler_never_passes_audit(user_dir: pathlib.Path,
                                              capsys: pytest.CaptureFixture[str],
                                              factory: str, words: str) -> None:
    """Before: sys.exit(0) / os._exit(0) in a sampler made ``privlab audit`` exit 0 with no
    output (a green CI gate), SIGKILL/SIGSEGV killed the command itself, a hanging sampler
    hung it.  Now: exit 2, nothing on stdout, one ``error:`` line naming the sampler."""
    code, out, err = _audit(capsys, "--sampler", f"contmechs.py:{factory}", "--pair", "0", "1",
                            "--claimed-epsilon", "1", "--samples", N, "--workers", "1",
                            "--timeout", "1", "--format", "json")
    lines = err.strip().splitlines()
    assert code == 2 and out == "", err
    assert len(lines) == 1 and lines[0].startswith("error:"), err
    assert f"contmechs.py:{factory}" in lines[0] and words in lines[0], err


def test_an_exit_at_import_is_contained(user_dir: pathlib.Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Module-level ``os._exit(0)`` used to end ``audit`` and ``audit-suite check`` with exit 0
    (``check`` printing nothing, as if every reference were fine)."""
    (user_dir / "exits_at_import.py").write_text(
        "import os\nos._exit(0)\ndef f(x):\n    return lambda n, rng: rng.random(n)\n")
    code, out, err = _audit(capsys, "--sampler", "exits_at_import.py:f", "--pair", "0", "1",
                            "--claimed-epsilon", "1", "--samples", N)
    assert code == 2 and out == "" and "exits_at_import.py:f" in err and "exited" in err
    (user_dir / "s.toml").write_text(_suite_entry("imp", "exits_at_import.py:f"))
    assert main(["audit-suite", "check", "s.toml"]) == 2
    cap = capsys.readouterr()
    assert cap.out == "" and "'imp'" in cap.err and "1 bad reference(s)" in cap.err


def test_audit_suite_records_errors_continues_and_exits_2(
        user_dir: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each failing audit is an error verdict (suite.json, <error> in JUnit, a finding in
    suite.md); the good and the broken audit still get their verdicts; exit 2 at the end.
    Before: the first sys.exit/os._exit ended the whole run with exit 0 and no report."""
    failing = ("sys_exit", "os_exit", "sigkill", "segfault", "sleeps")
    body = _suite_entry("good", "contmechs.py:good") + _suite_entry(
        "broken", "contmechs.py:half_scale", 'expect = "violation"\n')
    for f in failing:
        body += _suite_entry(f, f"contmechs.py:{f}", "timeout = 1\n" if f == "sleeps" else "")
    (user_dir / "s.toml").write_text(body)
    code = main(["audit-suite", "run", "s.toml", "--out", "out", "--format", "json"])
    cap = capsys.readouterr()
    assert code == 2, cap.err
    d = json.loads(cap.out)
    verdicts = {r["name"]: r["verdict"] for r in d["results"]}
    assert verdicts == {"good": "consistent", "broken": "violation",
                        **{f: "error" for f in failing}}
    assert sorted(d["errors"]) == sorted(failing)
    assert {r["name"]: r["error_type"] for r in d["results"] if r["verdict"] == "error"} == {
        "sys_exit": "InvalidParameter", "os_exit": "ProcessExit", "sigkill": "ProcessKilled",
        "segfault": "ProcessKilled", "sleeps": "Timeout"}
    root = ET.parse(user_dir / "out" / "junit.xml").getroot()
    assert root.get("errors") == str(len(failing)) and root.get("failures") == "0"
    errored = {c.get("name") for c in root.iter("testcase") if c.findall("error")}
    assert errored == set(failing)
    md = (user_dir / "out" / "suite.md").read_text()
    assert md.count("no verdict (the audit raised, exited, crashed or timed out)") == 5
    assert cap.err.splitlines()[-1].startswith("error: 5 audit(s) have no verdict")


def test_a_dead_pool_worker_is_an_error_not_a_hang() -> None:
    """``os._exit`` in a sampler running in a pool worker: the block never comes back, and
    ``Pool.imap_unordered`` would wait for it forever.  The runner watches its workers.  (Run
    contained, so that a regression fails on the timeout instead of hanging the tests.)"""
    from privlab.audit import audit_pair

    def run(_say):
        main_pid = os.getpid()

        def sampler(n: int, rng: np.random.Generator) -> np.ndarray:
            if os.getpid() != main_pid:  # in a worker, not in the pilot
                os._exit(0)
            return rng.laplace(0.0, 1.0, n)

        audit_pair(sampler, sampler, samples=20_000, chunk=1000, workers=2, rng=0)

    with pytest.raises(ContainedError, match=r"worker process .* ended without returning") as e:
        contained(run, label="pool", timeout=120)
    assert e.value.error_type == "InvalidParameter"


KILL_SCRIPT = '''
import os, sys, time
import numpy as np
from privlab.audit import audit_pair
MAIN = os.getpid()
def sampler(n, rng):
    if os.getpid() != MAIN:
        sys.stderr.write(f"worker {os.getpid()} ready\\n"); sys.stderr.flush()
        time.sleep(3)
    return rng.laplace(0.0, 1.0, n)
audit_pair(sampler, sampler, samples=20000, chunk=1000, workers=2, rng=0)
'''


def test_killed_audit_workers_print_no_broken_pipe_traceback(tmp_path: pathlib.Path) -> None:
    """SIGKILL of an audit while its pool workers draw: the workers used to finish their block,
    fail to send it and print a ``BrokenPipeError`` traceback each.  Now they die with the
    audit (and silently on SIGPIPE).  stderr is read to its end, which comes only when every
    worker holding it has ended."""
    script = tmp_path / "kill_me.py"
    script.write_text(KILL_SCRIPT)
    proc = subprocess.Popen([sys.executable, str(script)], stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    first = proc.stderr.readline()
    assert "ready" in first, first
    proc.send_signal(signal.SIGKILL)
    rest = proc.stderr.read()
    proc.wait(timeout=60)
    assert "Traceback" not in rest and "BrokenPipeError" not in rest, rest


def test_contained_returns_results_and_forwards_progress() -> None:
    """The result comes back from the child (pickled), progress lines are forwarded; an
    exit of the child is a ContainedError whatever it printed."""
    seen: list[str] = []

    def work(say):
        say("halfway")
        return {"x": np.arange(3), "pid": os.getpid()}

    out = contained(work, label="t", timeout=30, progress=seen.append)
    assert seen == ["halfway"] and out["x"].tolist() == [0, 1, 2]
    assert out["pid"] != os.getpid()  # it did run elsewhere
    with pytest.raises(ContainedError, match=r"^t: its process ended without a result"):
        contained(lambda say: os._exit(0), label="t", timeout=30)
    with pytest.raises(InvalidParameter, match="timeout"):
        contained(lambda say: 1, label="t", timeout=float("inf"))


# ---- 2. non-finite outputs -----------------------------------------------------------------

@pytest.mark.parametrize("kind, ref, words", [
    ("sampler", "contmechs.py:only_inf", "returned ±inf"),
    ("sampler", "contmechs.py:some_nan", "returned NaN"),
    ("mechanism", "contmechs.py:inf_release", "returned ±inf"),
])
def test_non_finite_outputs_are_an_error(user_dir: pathlib.Path,
                                         capsys: pytest.CaptureFixture[str],
                                         kind: str, ref: str, words: str) -> None:
    """A sampler returning only inf was audited as "consistent" (exit 0)."""
    code, out, err = _audit(capsys, f"--{kind}", ref, "--pair", "0", "1", "--claimed-epsilon",
                            "1", "--samples", N, "--workers", "1")
    assert code == 2 and out == "" and words in err and ref in err, err
    (user_dir / "s.toml").write_text(
        f'[[audit]]\nname = "nf"\n{kind} = "{ref}"\npairs = [[0, 1]]\nclaimed_epsilon = 1.0\n'
        f'samples = {N}\n')
    assert main(["audit-suite", "run", "s.toml", "--format", "json"]) == 2
    d = json.loads(capsys.readouterr().out)
    assert d["results"][0]["verdict"] == "error" and words in d["results"][0]["error"]


# ---- 3. replay and suite references: no code without consent, nothing outside ---------------

def _saved_user_counterexample(user_dir: pathlib.Path,
                               capsys: pytest.CaptureFixture[str]) -> pathlib.Path:
    save = user_dir / "cex.json"
    code, _, err = _audit(capsys, "--sampler", "contmechs.py:good", "--pair", "0", "1",
                          "--claimed-epsilon", "1", "--samples", N, "--workers", "1",
                          "--save", str(save))
    assert code == 0, err
    (user_dir / "imported.marker").unlink()
    return save


def test_replay_runs_code_only_with_allow_code(user_dir: pathlib.Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A replay file naming code (here rewritten to an absolute /path/file.py:NAME) was imported
    with no opt-in.  Now it is refused, before anything is imported; with --allow-code it runs.
    A built-in mechanism's file replays without the flag."""
    save = _saved_user_counterexample(user_dir, capsys)
    doc = json.loads(save.read_text())
    doc["counterexample"]["spec"]["sampler"] = f"{user_dir / 'contmechs.py'}:good"
    save.write_text(json.dumps(doc))
    code, out, err = _audit(capsys, "--replay", str(save), "--samples", N)
    assert code == 2 and out == "" and "--allow-code" in err and err.count("\n") == 1
    assert not (user_dir / "imported.marker").exists()
    code, out, err = _audit(capsys, "--replay", str(save), "--samples", N, "--allow-code",
                            "--format", "json")
    assert code == 0 and json.loads(out)["mechanism"].startswith("replay of sampler"), err
    assert (user_dir / "imported.marker").exists()
    builtin = user_dir / "lap.json"
    assert main(["audit", "laplace", "--samples", N, "--workers", "1", "--save",
                 str(builtin)]) == 0
    capsys.readouterr()
    code, out, err = _audit(capsys, "--replay", str(builtin), "--samples", N)
    assert code == 0 and "replay of laplace" in out, err


def test_replay_refuses_code_that_changed(user_dir: pathlib.Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Files privlab writes record the SHA-256 of the code file; a changed file is refused with
    one line naming it, and is not imported."""
    save = _saved_user_counterexample(user_dir, capsys)
    spec = json.loads(save.read_text())["counterexample"]["spec"]
    assert spec["code_file"] == str((user_dir / "contmechs.py").resolve())
    assert len(spec["code_sha256"]) == 64
    with (user_dir / "contmechs.py").open("a") as fh:
        fh.write("\n# edited after the audit\n")
    code, out, err = _audit(capsys, "--replay", str(save), "--samples", N, "--allow-code")
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1
    assert "has changed since the counterexample was saved" in lines[0]
    assert str((user_dir / "contmechs.py").resolve()) in lines[0]
    assert not (user_dir / "imported.marker").exists()


def test_suite_references_and_inputs_stay_in_the_suite_folder(
        user_dir: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``../x.py``, a symlink out of the folder and ``../data.csv`` used to be followed.  Now
    refused (exit 2, nothing imported) unless --allow-outside."""
    sub = user_dir / "suites"
    sub.mkdir()
    (sub / "link.py").symlink_to(user_dir / "contmechs.py")
    (user_dir / "data.csv").write_text("v\n1\n2\n")
    cases = {"up.toml": _suite_entry("up", "../contmechs.py:good"),
             "abs.toml": _suite_entry("abs", f"{user_dir / 'contmechs.py'}:good"),
             "link.toml": _suite_entry("link", "link.py:good"),
             "data.toml": _suite_entry("data", "link.py:good").replace(
                 "[[0, 1]]", '[["../data.csv", "../data.csv"]]')}
    for name, body in cases.items():
        (sub / name).write_text(body)
        assert main(["audit-suite", "check", str(sub / name)]) == 2, name
        err = capsys.readouterr().err
        assert "outside the suite file's folder" in err and "--allow-outside" in err, err
        assert not (user_dir / "imported.marker").exists()
    assert main(["audit-suite", "check", str(sub / "up.toml"), "--allow-outside"]) == 0
    capsys.readouterr()


# ---- 4. every input validated at the edge ------------------------------------------------

@pytest.mark.parametrize("extra, words", [
    ('claimed_epsilon = "1"', "claimed_epsilon='1' must be a number"),
    ("confidence = 0.9", "confidence is not a key here"),
    ("surprise = 1", "unknown key(s) surprise"),
    ("float_bits = \"no\"", "float_bits='no' must be true or false"),
    ("samples = inf", "samples=inf must be an integer from 1 to 1000000000"),
    ("samples = 1000000001", "samples=1000000001 must be an integer from 1 to 1000000000"),
    ("samples = " + "9" * 5000, "is not valid TOML: Exceeds the limit"),
    ("timeout = 0", "timeout=0 must be a finite number of seconds > 0"),
    ('search = {domain = ["a", 1]}', "search.domain='a' must be a number"),
    ("search = {domain = [true, 1]}", "search.domain=True must be a number"),
    ("search = {domain = [0, 1], step = 1}", "unknown key(s) step"),
    ("pairs = [[true, 1]]", "input True must be"),
    ("pairs = [[inf, 1]]", "must hold finite numbers only"),
])
def test_suite_keys_are_checked_by_type(user_dir: pathlib.Path,
                                        capsys: pytest.CaptureFixture[str],
                                        extra: str, words: str) -> None:
    """A string claim, a never-read ``confidence``, booleans in a domain were accepted;
    ``domain = ["a", 1]`` was an internal error.  Now one ``error:`` line each."""
    base = '[[audit]]\nname = "a"\nsampler = "contmechs.py:good"\n'
    key = extra.split(" =")[0]
    if key not in ("search", "pairs"):
        base += "pairs = [[0, 1]]\n"
    if key != "claimed_epsilon":
        base += "claimed_epsilon = 1.0\n"
    if key == "search":
        base = base.replace("pairs = [[0, 1]]\n", "")
    (user_dir / "s.toml").write_text(base + extra + "\n")
    code = main(["audit-suite", "check", "s.toml"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith("error:"), err
    assert words in err and "internal error" not in err, err


def test_suite_confidence_in_the_suite_table_is_refused(user_dir: pathlib.Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    (user_dir / "s.toml").write_text("[suite]\nconfidence = 0.9\n"
                                     + _suite_entry("a", "contmechs.py:good"))
    assert main(["audit-suite", "run", "s.toml"]) == 2
    assert "confidence is not a key here" in capsys.readouterr().err


@pytest.mark.parametrize("args, words", [
    (["laplace", "--claimed-epsilon", "0"], "--claimed-epsilon=0.0 must be > 0"),
    (["--sampler", "contmechs.py:good", "--pair", "inf", "1", "--claimed-epsilon", "1"],
     "must hold finite numbers only"),
    (["--sampler", "contmechs.py:good", "--pair", "0", "1", "--claimed-epsilon", "1",
      "--timeout", "inf"], "--timeout=inf must be a finite number"),
    (["--sampler", "contmechs.py:good", "--pair", "0", "1", "--claimed-epsilon", "1",
      "--timeout", "0"], "--timeout=0.0 must be a finite number"),
    (["laplace", "--timeout", "5"], "--timeout applies to"),
    (["laplace", "--allow-code"], "--allow-code applies to --replay only"),
])
def test_cli_values_are_refused_in_one_line(user_dir: pathlib.Path,
                                            capsys: pytest.CaptureFixture[str],
                                            args: list[str], words: str) -> None:
    """``--pair inf 1`` and ``--claimed-epsilon 0`` on a built-in were accepted."""
    code, out, err = _audit(capsys, *args, "--samples", N, "--workers", "1")
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err, err
    assert not (user_dir / "imported.marker").exists()


@pytest.mark.parametrize("edit, words", [
    (lambda d: d.update(extra=1), "unknown key(s) 'extra'"),
    (lambda d: d["counterexample"].update(zzz=1), "unknown key(s) 'zzz'"),
    (lambda d: d["counterexample"].update(claimed_epsilon="1"), "claimed_epsilon='1' must be"),
    (lambda d: d["counterexample"]["event"].update(t="x"), "event.t='x' must be"),
    (lambda d: d["counterexample"].update(direction="up"), "direction='up' must be"),
    (lambda d: d["counterexample"]["spec"].update(params={"epsilon": True}),
     "spec.params.epsilon=True must hold finite numbers"),
])
def test_replay_file_keys_are_checked_by_type(user_dir: pathlib.Path,
                                              capsys: pytest.CaptureFixture[str],
                                              edit, words: str) -> None:
    save = user_dir / "lap.json"
    assert main(["audit", "laplace", "--samples", N, "--workers", "1", "--save",
                 str(save)]) == 0
    capsys.readouterr()
    doc = json.loads(save.read_text())
    edit(doc)
    save.write_text(json.dumps(doc))
    code, out, err = _audit(capsys, "--replay", str(save), "--samples", N)
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err, err


@pytest.mark.parametrize("target", ["fifo", "/dev/zero", "deep"])
def test_replay_and_suite_files_are_read_through_the_input_rules(
        user_dir: pathlib.Path, capsys: pytest.CaptureFixture[str], target: str) -> None:
    """A FIFO blocked ``--replay`` and ``audit-suite check``; /dev/zero was read whole; a deep
    JSON array was an internal error.  Now one line each, at once."""
    if target == "fifo":
        path = str(user_dir / "pipe")
        os.mkfifo(path)
    elif target == "deep":
        path = str(user_dir / "deep.json")
        pathlib.Path(path).write_text("[" * 5000 + "]" * 5000)
    else:
        path = target
    for argv in (["audit", "--replay", path], ["audit-suite", "check", path]):
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and "internal error" not in err, err
        assert ("FIFO" in err or "character device" in err or "nested" in err
                or "not valid TOML" in err), err


# ---- 5. suite.md escapes the suite's text --------------------------------------------------

def test_suite_md_escapes_names(user_dir: pathlib.Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    """An audit name with HTML and Markdown in it was written raw into suite.md (a report a
    CI shows as HTML).  Now: no raw tag, the table keeps its columns; JUnit stays XML even
    with a control character in a name."""
    evil = "<img src=x onerror=alert(1)>|*b*_[l](j:x)\\u0007"
    (user_dir / "s.toml").write_text(
        _suite_entry(evil, "contmechs.py:half_scale") + _suite_entry("ok", "contmechs.py:good"))
    assert main(["audit-suite", "run", "s.toml", "--out", "out"]) == 1
    capsys.readouterr()
    md = (user_dir / "out" / "suite.md").read_text()
    assert "<img" not in md and "&lt;img src=x onerror=alert\\(1\\)&gt;" in md
    assert "\\|\\*b\\*\\_\\[l\\]\\(j:x\\)" in md
    rows = [ln for ln in md.splitlines() if ln.startswith("| ")]
    assert len(rows) == 3 and {ln.count(" | ") for ln in rows} == {7}  # header + 2 audits
    root = ET.parse(user_dir / "out" / "junit.xml").getroot()
    assert {c.get("name") for c in root.iter("testcase")} == {
        "<img src=x onerror=alert(1)>|*b*_[l](j:x)?", "ok"}


def test_samples_beyond_the_cap_are_refused_on_the_command_line(capsys) -> None:
    from privlab.cli import main

    assert main(["audit", "laplace", "--samples", str(10**18)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "1<=x<=1000000000" in err[0]


@pytest.mark.parametrize("target", ["fifo", "folder", "slash"])
def test_audit_save_writes_regular_files_only(tmp_path: pathlib.Path, target: str,
                                             capsys) -> None:
    """--save follows the release outputs' rule: a FIFO, a folder or a trailing slash is
    refused before the audit runs, and nothing is written."""
    from privlab.cli import main

    dest = tmp_path / ("cex.json" if target == "fifo" else "adir")
    if target == "fifo":
        os.mkfifo(dest)
    elif target == "folder":
        dest.mkdir()
    before = sorted(p.name for p in tmp_path.iterdir())
    arg = str(tmp_path / "newdir") + "/" if target == "slash" else str(dest)
    assert main(["audit", "laplace", "--samples", "1000", "--save", arg]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "--save" in err[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == before
