"""Issue 16 ("Nothing lost, nothing leaked"): one regression test per case of the issue's *Why*.

Each test names the broken behaviour it catches (the mutant): e.g. restoring the old
``report/build._swap`` (rename DIR away and delete it) fails ``test_verify_out_keeps_user_files``.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from privlab import _io
from privlab.cli import main
from privlab.errors import InvalidParameter
from privlab.proofs.ledger import default_ledger
from privlab.report import build

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def _one_error_line(code: int, out: str, err: str, *needles: str) -> None:
    assert code == 2, (code, out, err)
    assert out == "" and err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and "internal error" not in err, err
    for n in needles:
        assert n in err, (n, err)


def _tiny_ledger(monkeypatch: pytest.MonkeyPatch):
    ledger = default_ledger()
    monkeypatch.setattr(ledger, "run", lambda **kw: [])
    monkeypatch.setattr(ledger, "tables", dict)
    return ledger


# ---- 1. verify --out never deletes what privlab did not write ---------------------------------

def test_verify_out_keeps_user_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Mutant: the old ``_swap`` (rename DIR away, rmtree) deletes ``notes.txt``."""
    proj = tmp_path / "project"
    (proj / "src").mkdir(parents=True)
    (proj / "notes.txt").write_text("my work")
    (proj / "src" / "code.py").write_text("x = 1")
    # refused (exit 2) before any work, nothing written
    code, out, err = run(capsys, "verify", "--quick", "--out", proj)
    _one_error_line(code, out, err, "is not empty and holds no privlab report; use --force")
    assert sorted(p.name for p in proj.iterdir()) == ["notes.txt", "src"]
    # with force: only the owned names are added, the user's files stay
    ledger = _tiny_ledger(monkeypatch)
    build.run_verify(proj, ledger=ledger, sections=(), force=True)
    names = sorted(p.name for p in proj.iterdir())
    assert names == sorted(["notes.txt", "src", *build.REPORT_FILES]), names
    assert (proj / "notes.txt").read_text() == "my work"
    assert (proj / "src" / "code.py").read_text() == "x = 1"
    # now DIR holds a privlab report: a second run needs no --force and keeps the user's files
    (proj / "report.md").write_text("old")
    build.run_verify(proj, ledger=ledger, sections=())
    assert (proj / "report.md").read_text() != "old"
    assert (proj / "notes.txt").read_text() == "my work"
    assert oct((proj / "report.json").stat().st_mode & 0o777) == oct(_io.file_mode())


def test_verify_recognises_report_json_and_cleans_up_on_interrupt(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "rep"
    out.mkdir()
    (out / "report.json").write_text(json.dumps({"privlab_version": "0.0.1"}))
    (out / "mine.csv").write_text("a\n1\n")
    assert build.check_out_dir(out) is True
    ledger = _tiny_ledger(monkeypatch)

    def boom(*a: object, **k: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(build, "build_sections", boom)
    with pytest.raises(KeyboardInterrupt):
        build.run_verify(out, ledger=ledger)
    assert sorted(p.name for p in out.iterdir()) == ["mine.csv", "report.json"]  # no temp dir
    with pytest.raises(InvalidParameter, match="not empty"):
        build.check_out_dir(tmp_path)  # holds 'rep' only: no report, not empty


def test_workers_exit_when_parent_is_killed(tmp_path: Path) -> None:
    """A parent killed with SIGKILL runs no cleanup; the watchdog must end the worker.
    Mutant: no initializer → the worker keeps sleeping (pid alive after the loop)."""
    script = textwrap.dedent("""
        import multiprocessing, os, sys, time
        from concurrent.futures import ProcessPoolExecutor
        from privlab.report import parallel
        if __name__ == "__main__":
            pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                       initializer=parallel.worker_init,
                                       initargs=(os.getpid(),))
            pid = pool.submit(os.getpid).result()
            pool.submit(time.sleep, 600)
            print(pid, flush=True)
            os.kill(os.getpid(), 9)
    """)
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       timeout=120)
    pid = int(p.stdout.split()[0])
    for _ in range(200):  # the watchdog polls every 0.5 s; wait up to ~20 s for it
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        import time

        time.sleep(0.1)
    else:
        os.kill(pid, signal.SIGKILL)
        pytest.fail(f"worker {pid} outlived its SIGKILLed parent")


# ---- 2. CI installs into a fresh venv with the README's commands --------------------------------

def test_ci_uses_fresh_venv_and_readme_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python3 -m venv" in ci and "mktemp -d" in ci
    for cmd in ("python3 -m pip install -e '.[test]'", "python3 -m pytest -q -n 2"):
        assert cmd in readme and cmd in ci
    assert ci.index("python3 -m venv") < ci.index("pip install -e")


# ---- 3./4. releases: refused when uncertified; data and certificate one unit -------------------

@pytest.fixture
def data_csv(tmp_path: Path) -> Path:
    p = tmp_path / "in.csv"
    with p.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "a", "b"])
        for i in range(40):
            w.writerow([f"r{i}", (7 * i) % 100, (11 * i) % 50])
    return p


def _dp(data: Path, out: Path, *extra: object) -> list[object]:
    return ["release", "ir-dp", "--input", data, "--output", out, "--epsilon", "1", "--k", "4",
            "--columns", "a", "--bounds", "0:100", "--drop-other", *extra]


def test_uncertified_release_is_refused(tmp_path: Path, data_csv: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Mutant: writing before the refusal leaves o.csv (issue: ir-dp --rows aligned)."""
    out = tmp_path / "o.csv"
    code, stdout, err = run(capsys, *_dp(data_csv, out, "--rows", "aligned"))
    assert code == 1 and stdout == "" and err.count("\n") == 1
    assert err.startswith("refused:") and "ε = ∞" in err and "--rows shuffled" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.csv"]
    code, stdout, _ = run(capsys, *_dp(data_csv, out, "--rows", "aligned", "--allow-uncertified"))
    cert = json.loads(Path(f"{out}.cert.json").read_text())
    assert code == 1 and out.exists() and cert["certified_epsilon"] is None
    assert cert["row_order"].startswith("aligned") and cert["dropped_columns"] == ["id", "b"]


def test_group_write_is_one_unit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure at the data's rename rolls the certificate back in-process; a rename that keeps
    failing (so the rollback fails too) leaves a journal that the next write settles.
    Mutant: no rollback → a new cert beside the old data."""
    data, cert = tmp_path / "o.csv", tmp_path / "o.csv.cert.json"
    data.write_text("old")
    cert.write_text("old cert")

    def fail_once(op: str, path: Path) -> None:
        if op == "rename" and path == data and not calls:
            calls.append(path)
            raise OSError(28, "No space left on device")

    calls: list[Path] = []
    monkeypatch.setattr(_io, "FAULT_HOOK", fail_once)
    with pytest.raises(OSError):
        _io.atomic_write_group([(cert, b"new cert"), (data, b"new")])
    assert calls == [data]
    assert data.read_text() == "old" and cert.read_text() == "old cert"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.csv", "o.csv.cert.json"]

    def fail_twice(op: str, path: Path) -> None:
        if op == "rename" and path in (cert, data):
            calls.append(path)
            if path == data or calls.count(cert) > 1:  # the data, then the rollback
                raise OSError(28, "No space left on device")

    calls.clear()
    monkeypatch.setattr(_io, "FAULT_HOOK", fail_twice)
    with pytest.raises(OSError):
        _io.atomic_write_group([(cert, b"new cert"), (data, b"new")])
    assert cert.read_text() == "new cert"  # the rollback could not rename the cert back ...
    assert any(p.name.startswith(".privlab-journal-") for p in tmp_path.iterdir())
    monkeypatch.setattr(_io, "FAULT_HOOK", None)
    _io.atomic_write_text(tmp_path / "other.txt", "x")  # ... the next write settles it
    assert data.read_text() == "old" and cert.read_text() == "old cert"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.csv", "o.csv.cert.json",
                                                          "other.txt"]
    (tmp_path / "other.txt").unlink()
    # an interrupt (SIGTERM → SystemExit) while writing temp files leaves nothing behind
    writes: list[Path] = []

    def interrupted(op: str, path: Path) -> None:
        if op == "write":
            writes.append(path)
            if len(writes) == 2:
                raise _io.Terminated(143)

    monkeypatch.setattr(_io, "FAULT_HOOK", interrupted)
    with pytest.raises(SystemExit):
        _io.atomic_write_group([(cert, b"c"), (data, b"d")])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.csv", "o.csv.cert.json"]


def test_files_honour_umask(tmp_path: Path) -> None:
    """Mutant: mkstemp's 0600 (the issue: every file written 0600, dirs 0700)."""
    old = os.umask(0o022)
    try:
        p = _io.atomic_write_text(tmp_path / "x.txt", "x")
        d = _io.make_temp_dir(tmp_path, "t")
        assert p.stat().st_mode & 0o777 == 0o644 and d.stat().st_mode & 0o777 == 0o755
    finally:
        os.umask(old)


def test_sigterm_becomes_exit(tmp_path: Path) -> None:
    script = ("import os, signal, time\nfrom privlab._io import terminate_as_exit\n"
              "terminate_as_exit()\ntry:\n    os.kill(os.getpid(), signal.SIGTERM)\n"
              "    time.sleep(5)\nfinally:\n    print('cleanup ran')\n")
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 143 and "cleanup ran" in p.stdout


# ---- 5. no traceback for any input ---------------------------------------------------------------

@pytest.mark.parametrize("content, needle", [
    (b"a,b\n1,\xe92\n", "is not utf-8 text (byte 0xe9 on line 2)"),
    (b"\x00\x01\x02binary\xff\xfe", "input="),
    (b"a,b\n1,2\n3\n", "line 3 has 1 fields, the header 2"),
])
def test_bad_csv_to_every_release_family(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         content: bytes, needle: str) -> None:
    """Mutants: UnicodeDecodeError / TypeError (ragged row to laplace-dp) tracebacks."""
    inp = tmp_path / "in.csv"
    inp.write_bytes(content)
    out = tmp_path / "o.csv"
    for args in (["laplace-dp", "--epsilon", "1", "--columns", "a,b", "--bounds", "0:10"],
                 ["mdav", "--k", "1", "--columns", "a,b"],
                 ["t-closeness", "--confidential", "b", "--t", "2"]):
        code, o, err = run(capsys, "release", *args, "--input", inp, "--output", out)
        _one_error_line(code, o, err, needle)
        assert not out.exists()


def test_unwritable_output_is_one_line(tmp_path: Path, data_csv: Path,
                                       monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Mutant: the PermissionError of the final rename escapes as a traceback."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, o, err = run(capsys, *_dp(data_csv, blocker / "o.csv"))
    _one_error_line(code, o, err, "output=", "is not a folder")

    def denied(src: object, dst: object) -> None:
        raise PermissionError(13, "Permission denied", str(dst))

    monkeypatch.setattr(_io.os, "replace", denied)
    out = tmp_path / "o.csv"
    code, o, err = run(capsys, *_dp(data_csv, out))
    _one_error_line(code, o, err, f"output={str(out)!r} cannot be written: Permission denied")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "in.csv"]
    code, o, err = run(capsys, "verify", "--out", blocker)
    _one_error_line(code, o, err, "--out", "is a file")


@pytest.mark.parametrize("eps", ["1e308", "1e-300"])
def test_extreme_epsilon_refused_with_range(capsys: pytest.CaptureFixture[str],
                                            eps: str) -> None:
    """Mutant: ZeroDivisionError in Staircase.m0 / variance (the issue's traceback)."""
    code, o, err = run(capsys, "certify", "staircase", "--epsilon", eps)
    _one_error_line(code, o, err, "epsilon=", "supported range")
    code, o, err = run(capsys, "certify", "laplace", "--epsilon", eps)
    _one_error_line(code, o, err, "epsilon=")


def test_staircase_api_extremes() -> None:
    from privlab import Staircase
    from privlab.mechanisms.noise.staircase import RATE_RANGE

    with pytest.raises(InvalidParameter, match="supported range"):
        Staircase.optimal(1000.0)
    s = Staircase.optimal(RATE_RANGE[1])  # the edge of the range works and is finite
    assert s.m0 > 0 and s.variance() >= 0 and s.ci_halfwidth(0.95) >= 0


@pytest.mark.parametrize("args", [
    ("release", "mdav", "--k", "x"), ("certify", "staircase"), ("release", "mdav", "--nope"),
    ("verify", "--workers", "0"), ("nope",),
])
def test_click_usage_errors_are_one_line(capsys: pytest.CaptureFixture[str],
                                         args: tuple[str, ...]) -> None:
    code, o, err = run(capsys, *args)
    _one_error_line(code, o, err)
    assert "Usage:" not in err


# ---- 6. data handling ---------------------------------------------------------------------

def test_output_equal_to_input_is_refused(tmp_path: Path, data_csv: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    before = data_csv.read_bytes()
    for args in (_dp(data_csv, data_csv),
                 ["release", "mdav", "--input", data_csv, "--output",
                  tmp_path / "." / "in.csv", "--k", "3", "--columns", "a,b", "--drop-other"]):
        code, o, err = run(capsys, *args)
        _one_error_line(code, o, err, "would overwrite --input")
    assert data_csv.read_bytes() == before


def test_mdav_column_policy_and_row_order(tmp_path: Path, data_csv: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Mutant: mdav passing 'id' through silently (the issue's leak)."""
    out = tmp_path / "o.csv"
    base = ["release", "mdav", "--input", data_csv, "--output", out, "--k", "4",
            "--columns", "a,b"]
    code, o, err = run(capsys, *base)
    _one_error_line(code, o, err, "not anonymised: id", "--keep", "--drop-other")
    assert not out.exists()
    assert run(capsys, *base, "--drop-other")[0] == 0
    assert out.read_text().splitlines()[0] == "a,b"
    cert = json.loads(Path(f"{out}.cert.json").read_text())
    assert cert["dropped_columns"] == ["id"] and cert["row_order"].startswith("input order")
    assert run(capsys, *base, "--keep", "id")[0] == 0
    rows = list(csv.reader(out.open()))
    assert rows[0] == ["id", "a", "b"]
    assert [r[0] for r in rows[1:]] == [f"r{i}" for i in range(40)]


def test_messages_use_column_names_and_plain_numbers(tmp_path: Path, data_csv: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Mutant: the mechanism's 'value np.float64(…) in row 0, column 0' message."""
    code, o, err = run(capsys, "release", "laplace-dp", "--input", data_csv, "--output",
                       tmp_path / "o.csv", "--epsilon", "1", "--columns", "a,b",
                       "--bounds", "0:10,0:50", "--drop-other")
    _one_error_line(code, o, err, "column 'a', row 3: value 14 lies outside --bounds [0, 10]")
    assert "np." not in err and "Fraction(" not in err


# ---- 7. hypothesis storage not in the user's folder -------------------------------------------

def test_no_hypothesis_folder_in_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Mutant: without configure_hypothesis, ./.hypothesis/constants appears."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PRIVLAB_CACHE_DIR", str(tmp_path.parent / f"{tmp_path.name}-cache"))
    code, _, _ = run(capsys, "certify", "insensitivity", "--algorithm", "insensitive-mdav",
                     "--k", "2", "--attributes", "1", "--grids", "2", "--examples", "20")
    assert code in (0, 1)
    assert not (tmp_path / ".hypothesis").exists()


def test_no_hypothesis_folder_in_cwd_fresh_process(tmp_path: Path) -> None:
    """In a fresh interpreter Hypothesis is imported only by the command that uses it, and is
    then configured at import (privlab._data._on_import); mutant: an unarmed hook leaves
    ./.hypothesis behind."""
    import os
    import subprocess
    import sys

    cache = tmp_path / "cache"
    cwd = tmp_path / "work"
    cwd.mkdir()
    env = {**os.environ, "PRIVLAB_CACHE_DIR": str(cache)}
    proc = subprocess.run([sys.executable, "-m", "privlab", "certify", "insensitivity",
                           "--algorithm", "insensitive-mdav", "--k", "2", "--attributes", "1",
                           "--grids", "2", "--examples", "20"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    assert "hypothesis examples" in proc.stdout
    assert not (cwd / ".hypothesis").exists()
    assert (cache / "hypothesis").is_dir()
