"""Issue 32, item 1 ("write windows"): a fault at ANY step of a write path leaves, once the next
write has settled the directory (:func:`privlab._io.recover`), exactly the complete old set of
files or the complete new one — byte for byte, with no temp file, backup or journal left.

:data:`privlab._io.FAULT_HOOK` is called before every write, fsync, rename, link, unlink, rmtree
and mkdir of the write paths.  For each write path and starting state the test first records
the steps of an undisturbed run (which also gives the new set), then, for every step ``i``:

* *exception*: the hook raises at step ``i`` in this process (the in-process rollback runs);
* *kill*: a forked child runs the write and the hook calls ``os._exit`` at step ``i`` (no
  cleanup code runs, as after SIGKILL); a few steps are also killed in a fresh interpreter.

The expected set is exact, not "old or new": a fault before the commit point (the rename of the
``committed`` journal, or the one rename of a publish that needs no journal) gives the old set,
a later one the new set.  A mutant that renames without a journal (the old
``atomic_write_group``), removes the backups before the commit, or publishes ``figures/`` before
the report files fails at some step.

Signals: SIGINT/SIGTERM raised at each step of a release through ``privlab.cli.main`` exit 130 /
143 with ``error: interrupted`` / ``error: terminated``; inside the critical section they take
effect only after the publish (the new set is complete).
"""

from __future__ import annotations

import csv
import datetime
import difflib
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from privlab import _io
from privlab.cli import main

KILLED = 77
Snapshot = dict[str, bytes | str | None]


class Injected(BaseException):
    """The fault a test injects (a BaseException: no ``except Exception`` may swallow it)."""


# ---- helpers ---------------------------------------------------------------------------------

def snap(root: Path) -> Snapshot:
    """Every path under ``root``: file bytes, ``None`` for a folder, ``'-> target'`` for a link."""
    out: Snapshot = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            p = Path(dirpath) / n
            rel = str(p.relative_to(root))
            if p.is_symlink():
                out[rel] = "-> " + os.readlink(p)
            elif p.is_dir():
                out[rel] = None
            else:
                out[rel] = p.read_bytes()
    return out


def put(root: Path, s: Snapshot) -> None:
    """Make ``root`` hold exactly ``s``."""
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    for rel, v in sorted(s.items()):
        p = root / rel
        if v is None:
            p.mkdir(parents=True, exist_ok=True)
        elif isinstance(v, str):
            os.symlink(v[3:], p)
        else:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(v)


def diff(got: Snapshot, want: Snapshot) -> str:
    lines = difflib.unified_diff([f"{k} {v!r:.60}" for k, v in sorted(want.items())],
                                 [f"{k} {v!r:.60}" for k, v in sorted(got.items())], lineterm="")
    return "\n".join(lines)


@pytest.fixture
def hook(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Any], None]]:
    def set_hook(f: Any) -> None:
        monkeypatch.setattr(_io, "FAULT_HOOK", f)

    yield set_hook
    monkeypatch.setattr(_io, "FAULT_HOOK", None)


def record(write: Callable[[], object]) -> list[tuple[str, str]]:
    steps: list[tuple[str, str]] = []
    _io.FAULT_HOOK = lambda op, p: steps.append((op, p.name))
    try:
        write()
    finally:
        _io.FAULT_HOOK = None
    return steps


def at_step(i: int, action: Callable[[], None]) -> Callable[[str, Path], None]:
    """A hook running ``action`` at step ``i`` (0-based) only."""
    n = [0]

    def h(op: str, p: Path) -> None:
        n[0] += 1
        if n[0] == i + 1:
            action()

    return h


def raise_injected() -> None:
    raise Injected


def killed_in_child(write: Callable[[], object], i: int | None) -> int:
    """Run ``write`` in a forked child that dies (``os._exit``) at step ``i``; its exit code."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 0
        try:
            _io.FAULT_HOOK = None if i is None else at_step(i, lambda: os._exit(KILLED))
            write()
        except BaseException:
            code = 3
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def commit_step(steps: list[tuple[str, str]]) -> int:
    """Index of the commit point: the 2nd rename of the journal, else the last rename."""
    journal = [i for i, (op, name) in enumerate(steps)
               if op == "rename" and name.startswith(_io.JOURNAL_PREFIX)]
    if journal:
        assert len(journal) == 2, steps
        return journal[1]
    return max(i for i, (op, _) in enumerate(steps) if op == "rename")


def own_temps(s: Snapshot) -> set[str]:
    """Paths in ``s`` that are temp names of this (live) process."""
    tag = str(os.getpid())
    return {k for k in s if _io.is_own_temp(Path(k).name) and tag in Path(k).name}


def every_step(work: Path, old: Snapshot, write: Callable[[], object],
               recover: Callable[[], None], *, kill: bool, nested: bool = False) -> int:
    """Fault ``write`` at every step (see the module docstring); returns the number of steps.

    ``nested``: also kill the recovery at each of its steps before a final recovery."""
    put(work, old)
    steps = record(write)
    new = snap(work)
    assert new != old and not any(_io.is_own_temp(Path(k).name) for k in new), sorted(new)
    commit = commit_step(steps)
    for i in range(len(steps)):
        put(work, old)
        if kill:
            assert killed_in_child(write, i) == KILLED, (i, steps[i])
        else:
            _io.FAULT_HOOK = at_step(i, raise_injected)
            try:
                with pytest.raises(Injected):
                    write()
            finally:
                _io.FAULT_HOOK = None
        want = old if i <= commit else new
        if nested:
            after_kill = snap(work)
            rsteps = record(recover)
            for j in range(len(rsteps)):
                put(work, after_kill)
                assert killed_in_child(recover, j) == KILLED, (i, j, rsteps[j])
                recover()
                got = snap(work)
                assert got == want, (i, steps[i], j, rsteps[j], diff(got, want))
            put(work, after_kill)
        recover()
        got = snap(work)
        if not kill:  # a fault injected into this process's own cleanup leaves its temp name
            left = own_temps(got)
            assert not left or steps[i][0] in ("rmtree", "unlink"), (i, steps[i], left)
            got = {k: v for k, v in got.items() if not any(k == t or k.startswith(t + "/")
                                                           for t in left)}
        assert got == want, (i, steps[i], "commit at", commit, diff(got, want))
    return len(steps)


def probe_write(directory: Path) -> Callable[[], None]:
    """The next privlab write into ``directory`` (settles it), then its file removed."""
    def run() -> None:
        _io.atomic_write_bytes(directory / "probe.txt", b"")
        (directory / "probe.txt").unlink()

    return run


# ---- the primitive ---------------------------------------------------------------------------

FILES = ("o.csv.groups.csv", "o.csv.cert.json", "o.csv")


@pytest.mark.parametrize("kill", [False, True], ids=["exception", "kill"])
@pytest.mark.parametrize("start", ["replace", "fresh", "partial", "missing-dir"])
def test_group_write_every_step(tmp_path: Path, start: str, kill: bool) -> None:
    """A release's three files: all replaced, all new, a side file that did not exist, and an
    output folder that does not exist yet (staged as a folder, one rename)."""
    work = tmp_path / "work"
    sub = "new/sub/" if start == "missing-dir" else ""
    old: Snapshot = {"user.txt": b"mine"}
    if start == "replace":
        old.update({f: f"old {f}".encode() for f in FILES})
    elif start == "partial":
        old.update({f: f"old {f}".encode() for f in FILES[1:]})

    def write() -> None:
        _io.atomic_write_group([(work / f"{sub}{f}", f"new {f}".encode()) for f in FILES])

    n = every_step(work, old, write, probe_write(work), kill=kill)
    assert n >= 3 * 2 + 8  # staging (write+fsync each), journal, renames, commit


def test_group_write_without_hard_links(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a file system without hard links the old files are renamed aside instead."""
    def no_link(*a: object, **k: object) -> None:
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(_io.os, "link", no_link)
    work = tmp_path / "work"
    old: Snapshot = {f: f"old {f}".encode() for f in FILES}

    def write() -> None:
        _io.atomic_write_group([(work / f, f"new {f}".encode()) for f in FILES])

    every_step(work, old, write, probe_write(work), kill=True)


def test_kill_during_recovery(tmp_path: Path) -> None:
    """Recovery itself is killed at each of its steps, after a kill at each step of the write:
    the next recovery still gives the exact old or new set (recovery is idempotent)."""
    work = tmp_path / "work"
    old: Snapshot = {f: f"old {f}".encode() for f in FILES}
    old["figures"] = None
    old["figures/a.png"] = b"old a"

    def write() -> None:  # a folder replaced as a whole, and files
        tmp = _io.make_temp_dir(work)
        try:
            content = tmp / "figures"
            content.mkdir()
            (content / "b.png").write_bytes(b"new b")
            stage = [(work / f, _io._temp_file(work / f, f"new {f}".encode())) for f in FILES]
            _io.publish([(work / "figures", content), *stage])
        finally:
            _io.remove_quietly(tmp)

    every_step(work, old, write, lambda: _io.recover(work), kill=True, nested=True)


def test_single_file_write_every_step(tmp_path: Path) -> None:
    work = tmp_path / "work"
    every_step(work, {"a.json": b"old"}, lambda: _io.atomic_write_bytes(work / "a.json", b"new"),
               probe_write(work), kill=True)


# ---- release commands (write_release → atomic_write_group) -----------------------------------

def _inputs(work: Path) -> Snapshot:
    import numpy as np

    rng = np.random.default_rng(0)
    rows = [["id", "a", "b"]] + [[f"r{i}", (7 * i) % 100, (11 * i) % 50] for i in range(40)]
    tc = [["id", "age", "city", "income"]] + [
        [i, int(rng.integers(18, 80)), str(rng.choice(["a", "b", "c"])),
         int(rng.integers(0, 1000))] for i in range(90)]
    out: Snapshot = {}
    for name, table in (("in.csv", rows), ("tc.csv", tc)):
        p = work / name
        p.parent.mkdir(parents=True, exist_ok=True)
        with p.open("w", newline="") as fh:
            csv.writer(fh).writerows(table)
        out[name] = p.read_bytes()
    return out


RELEASES: dict[str, tuple[list[str], list[str], list[str]]] = {
    # family: (common arguments, old run's arguments, new run's arguments)
    "mdav": (["release", "mdav", "--input", "{w}/in.csv", "--columns", "a,b", "--drop-other"],
             ["--k", "5"], ["--k", "4"]),
    "ir-dp": (["release", "ir-dp", "--input", "{w}/in.csv", "--k", "4", "--columns", "a",
               "--bounds", "0:100", "--drop-other"],
              ["--epsilon", "4", "--seed", "1"], ["--epsilon", "0.5", "--seed", "2"]),
    "t-closeness": (["release", "t-closeness", "--input", "{w}/tc.csv", "--confidential",
                     "income", "--keep", "id", "--seed", "1"],
                    ["--t", "3", "--form", "permuted"], ["--t", "2", "--form", "anatomy"]),
    "insensitive-mdav-dp": (["release", "insensitive-mdav-dp", "--input", "{w}/in.csv",
                             "--k", "5", "--columns", "a,b", "--bounds", "0:100",
                             "--drop-other", "--seed", "0"],
                            ["--epsilon", "4"], ["--epsilon", "1"]),
}


def _release_args(work: Path, family: str, which: int, output: str) -> list[str]:
    common, *runs = RELEASES[family]
    return [a.replace("{w}", str(work)) for a in common] + runs[which] + [
        "--output", str(work / output)]


def _quiet_main(args: list[str]) -> int:
    with open(os.devnull, "w") as null:
        old_out, old_err = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = null
        try:
            return main(args)
        finally:
            sys.stdout, sys.stderr = old_out, old_err


def _release_case(tmp_path: Path, family: str, output: str = "out.csv"
                  ) -> tuple[Path, Snapshot, Callable[[], None]]:
    work = tmp_path / "work"
    _inputs(work)
    assert _quiet_main(_release_args(work, family, 0, "out.csv")) == 0
    old = snap(work)
    args = _release_args(work, family, 1, output)

    def write() -> None:
        code = _quiet_main(args)
        if _io.FAULT_HOOK is None:
            assert code == 0

    return work, old, write


@pytest.mark.parametrize("kill", [False, True], ids=["exception", "kill"])
@pytest.mark.parametrize("family", sorted(RELEASES))
def test_release_every_step(tmp_path: Path, family: str, kill: bool) -> None:
    """Issue 32 (a)-(c): data without a certificate, a new certificate (ε = 0.5) beside the old
    data (ε = 4), new data under the old certificate — none survives a fault at any step.
    t-closeness goes from --form permuted to anatomy: OUTPUT.groups.csv is new."""
    work, old, write = _release_case(tmp_path, family)
    n = every_step(work, old, write, probe_write(work), kill=kill)
    assert n >= 14


def test_release_into_missing_folder_every_step(tmp_path: Path) -> None:
    work, old, write = _release_case(tmp_path, "t-closeness", "new/sub/out.csv")
    every_step(work, old, write, probe_write(work), kill=True)


def test_release_killed_in_a_fresh_interpreter(tmp_path: Path) -> None:
    """The same kill, in a process of its own (no fork): before, at and after the commit."""
    work, old, write = _release_case(tmp_path, "ir-dp")
    args = _release_args(work, "ir-dp", 1, "out.csv")
    steps = record(write)
    new = snap(work)
    commit = commit_step(steps)
    script = textwrap.dedent("""
        import os, sys
        from privlab import _io
        from privlab.cli import main
        i, args = int(sys.argv[1]), sys.argv[2:]
        n = [0]
        def hook(op, path):
            n[0] += 1
            if n[0] == i + 1:
                os._exit(77)
        _io.FAULT_HOOK = hook
        sys.exit(main(args))
    """)
    for i in (commit - 1, commit, commit + 1, len(steps) - 1):
        put(work, old)
        p = subprocess.run([sys.executable, "-c", script, str(i), *args], capture_output=True,
                           text=True, timeout=300)
        assert p.returncode == KILLED, (i, p.stderr)
        probe_write(work)()
        assert snap(work) == (old if i <= commit else new), (i, steps[i])


# ---- signals ---------------------------------------------------------------------------------

@pytest.mark.parametrize("sig, code, message", [
    (signal.SIGINT, 130, "error: interrupted"), (signal.SIGTERM, 143, "error: terminated")])
def test_signal_at_every_step_of_a_release(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           sig: int, code: int, message: str) -> None:
    """SIGINT → 130, SIGTERM → 143 (click's Abort no longer turns SIGINT into 2 "aborted").
    Inside the critical section (from the journal on) the signal waits for the publish: the
    new set is complete; before it, the old set stays."""
    work, old, write = _release_case(tmp_path, "t-closeness")
    steps = record(write)
    new = snap(work)
    critical = next(i for i, (_, name) in enumerate(steps)
                    if name.startswith(_io.JOURNAL_PREFIX))
    capsys.readouterr()
    for i in range(len(steps)):
        put(work, old)
        _io.FAULT_HOOK = at_step(i, lambda: signal.raise_signal(sig))
        try:
            got_code = main(_release_args(work, "t-closeness", 1, "out.csv"))
        finally:
            _io.FAULT_HOOK = None
        err = capsys.readouterr().err
        assert got_code == code and err.strip().endswith(message), (i, steps[i], err)
        assert "Traceback" not in err
        got = snap(work)
        assert got == (new if i >= critical else old), (i, steps[i], diff(got, old))


@pytest.mark.parametrize("sig, code, message", [
    (signal.SIGINT, 130, "error: interrupted"), (signal.SIGTERM, 143, "error: terminated")])
def test_signal_exit_codes_in_a_fresh_process(tmp_path: Path, sig: int, code: int,
                                              message: str) -> None:
    """The real exit status of the process (not click's 2 for an Abort)."""
    work, _old, _write = _release_case(tmp_path, "ir-dp")
    script = textwrap.dedent(f"""
        import os, sys
        from privlab import _io
        from privlab.cli import main
        _io.FAULT_HOOK = lambda op, path: os.kill(os.getpid(), {int(sig)})
        sys.exit(main(sys.argv[1:]))
    """)
    p = subprocess.run([sys.executable, "-c", script,
                        *_release_args(work, "ir-dp", 1, "o2.csv")],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == code and p.stderr.strip().splitlines()[-1] == message, p.stderr
    assert not (work / "o2.csv").exists()
    assert not [n for n in os.listdir(work) if _io.is_own_temp(n)]


def test_signal_inside_publish_is_deferred(tmp_path: Path) -> None:
    """Mutant: no deferral → a KeyboardInterrupt between the renames (rolled back in-process,
    but a SIGKILL at that point would need recovery) — here the interrupt must come after."""
    work = tmp_path / "w"
    work.mkdir()
    seen: list[str] = []

    def h(op: str, p: Path) -> None:
        if op == "link" and not seen:
            seen.append(op)
            signal.raise_signal(signal.SIGINT)

    _io.FAULT_HOOK = h
    try:
        for f in FILES:
            (work / f).write_text("old")
        with pytest.raises(KeyboardInterrupt):
            _io.atomic_write_group([(work / f, b"new") for f in FILES])
    finally:
        _io.FAULT_HOOK = None
    assert seen and {f: (work / f).read_bytes() for f in FILES} == dict.fromkeys(FILES, b"new")
    assert sorted(os.listdir(work)) == sorted(FILES)


# ---- verify's report ---------------------------------------------------------------------------

FIXED = datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.UTC)


@pytest.fixture
def verify_env(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """``run(out, seed, force)``: run_verify with no claims and a fake section writing figures
    (seed 1: a.png, b.png; seed 2: a.png, c.png), at a frozen clock (byte-identical reruns)."""
    from privlab.report import build

    def fake_sections(ctx: Any, sections: Any) -> list[Any]:
        for name in ("a", "b") if ctx.seed == 1 else ("a", "c"):
            _io.atomic_write_bytes(ctx.figure_path(name), f"{name} {ctx.seed}".encode())
        return []

    monkeypatch.setattr(build, "build_sections", fake_sections)
    monkeypatch.setattr(build, "time", types.SimpleNamespace(perf_counter=lambda: 0.0))
    monkeypatch.setattr(build, "_dt", types.SimpleNamespace(
        datetime=types.SimpleNamespace(now=lambda tz: FIXED), UTC=datetime.UTC))
    monkeypatch.setattr(build, "source_hash", lambda: "h")
    ledger = types.SimpleNamespace(run=lambda **kw: [], tables=dict)

    def run(out: Path, seed: int, force: bool = False) -> None:
        build.run_verify(out, ledger=ledger, sections=("fake",), seed=seed, force=force)

    return run


@pytest.mark.parametrize("kill", [False, True], ids=["exception", "kill"])
@pytest.mark.parametrize("start", ["report", "missing", "foreign", "empty"])
def test_verify_install_every_step(tmp_path: Path, verify_env: Callable[..., None], start: str,
                                   kill: bool) -> None:
    """Issue 32: SIGINT at the install's first rename deleted the previous figures/; a signal
    between files left a mixed report; SIGKILL stranded figures.old.  Starting states: a
    previous report (figures/ replaced whole), no DIR (nested, appears with one rename), a
    foreign folder with its own figures/ (--force: files merged, nothing removed), an empty
    folder."""
    from privlab.report.reports import check_out_dir

    work = tmp_path / "work"
    work.mkdir()
    out = work / ("reports/latest" if start == "missing" else "rep")
    if start == "report":
        verify_env(out, 1)
    elif start == "foreign":
        (out / "figures").mkdir(parents=True)
        (out / "figures" / "a.png").write_bytes(b"user's a")
        (out / "figures" / "z.png").write_bytes(b"user's z")
        (out / "notes.txt").write_text("mine")
    elif start == "empty":
        out.mkdir()
    old = snap(work)

    def recover() -> None:
        if out.exists():
            check_out_dir(out, force=True)  # what the next run does first
        _io.recover(work)

    n = every_step(work, old, lambda: verify_env(out, 2, force=start == "foreign"), recover,
                   kill=kill)
    assert n >= 10


def test_killed_first_verify_does_not_block_the_rerun(tmp_path: Path,
                                                      verify_env: Callable[..., None]) -> None:
    """Issue 32: a killed first verify left a temp folder, and every re-run failed with "not
    empty … use --force".  Killed at every step into an empty DIR, the re-run (no --force)
    succeeds and leaves exactly the report."""
    out = tmp_path / "rep"
    out.mkdir()
    steps = record(lambda: verify_env(out, 2))
    want = snap(out)
    for i in range(len(steps)):
        shutil.rmtree(out)
        out.mkdir()
        assert killed_in_child(lambda: verify_env(out, 2), i) == KILLED
        verify_env(out, 2)
        assert snap(out) == want, (i, steps[i])


# ---- audit-suite run --out -------------------------------------------------------------------

def _suite_doc(tag: str, names: tuple[str, ...]) -> dict[str, Any]:
    results = [{"name": n, "kind": "sampler", "reference": f"m:{n}", "claimed_epsilon": 1.0,
                "delta": 0.0, "epsilon_lower_bound": 2.5, "verdict": "violation",
                "expect": "consistent", "as_expected": False, "structural_leak": False,
                "pair": [0, 1], "seconds": 0.5, "confidence": 0.95,
                "counterexample": {"feature": "identity", "event": f"{tag} {n}"}}
               for n in names]
    return {"suite": tag, "path": f"{tag}.toml", "alpha": 0.01, "audits": len(results),
            "error_control": "Bonferroni", "level_per_audit": 0.01 / max(len(results), 1),
            "results": results, "seconds": 1.0, "started": "2024-01-02T03:04:05"}


@pytest.mark.parametrize("kill", [False, True], ids=["exception", "kill"])
@pytest.mark.parametrize("start", ["previous", "missing", "no-counterexamples"])
def test_audit_suite_outputs_every_step(tmp_path: Path, start: str, kill: bool) -> None:
    from privlab.commands.audit_suite import write_outputs

    work = tmp_path / "work"
    work.mkdir()
    out = work / ("a/b" if start == "missing" else "suite-out")
    if start == "previous":
        write_outputs(out, _suite_doc("old", ("x", "y")))
    elif start == "no-counterexamples":
        write_outputs(out, _suite_doc("old", ()))
        assert not (out / "counterexamples").exists()
    old = snap(work)

    def recover() -> None:  # the next write into each folder of the outputs
        for d in (work, out, out / "counterexamples"):
            if d.is_dir():
                probe_write(d)()

    n = every_step(work, old, lambda: write_outputs(out, _suite_doc("new", ("x", "z"))),
                   recover, kill=kill)
    assert n >= 6


# ---- stale names of dead runs ------------------------------------------------------------------

def test_stale_names_of_dead_runs_are_removed_and_others_kept(tmp_path: Path) -> None:
    """Temp names of a dead PID go at the next write; those of a live process, legacy names
    without a PID and the user's look-alikes stay.  Mutant: a cleanup that ignores the PID."""
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    live = str(os.getppid())
    stale = [f".privlab-tmp-{dead}-abc", f".o.csv.privlab-{dead}-k2j_x.tmp",
             f".o.csv.privlab-{dead}.bak", f".fig.privlab-{dead}.del"]
    kept = [f".privlab-tmp-{live}-abc", f".o.csv.privlab-{live}.bak", ".o.csv.1234.bak",
            ".notes.2023.bak", "o.csv.privlab-1.bak", ".privlab-tmp-legacy8x"]
    for n in stale + kept:
        if n.startswith(".privlab-tmp-") or n.endswith(".del"):
            (tmp_path / n).mkdir()
            (tmp_path / n / "f").write_text("x")
        else:
            (tmp_path / n).write_text("x")
    _io.atomic_write_text(tmp_path / "o.csv", "data")
    assert sorted(os.listdir(tmp_path)) == sorted([*kept, "o.csv"])


def test_no_hard_link_backup_outlives_a_run(tmp_path: Path) -> None:
    """The old code left ``.OUTPUT.PID.bak`` hard links to the previous release's data after a
    SIGKILL; now a killed run's backup is removed by the next write, and a completed run keeps
    no second link to any file."""
    out = tmp_path / "o.csv"
    _io.atomic_write_group([(f"{out}.cert.json", b"c1"), (out, b"d1")])
    _io.atomic_write_group([(f"{out}.cert.json", b"c2"), (out, b"d2")])
    assert out.stat().st_nlink == 1 and sorted(os.listdir(tmp_path)) == ["o.csv",
                                                                         "o.csv.cert.json"]
    steps = record(lambda: _io.atomic_write_group([(f"{out}.cert.json", b"c3"), (out, b"d3")]))
    after_links = next(i for i, step in enumerate(steps) if step == ("rename", "o.csv")) + 1
    assert killed_in_child(lambda: _io.atomic_write_group(
        [(f"{out}.cert.json", b"c4"), (out, b"d4")]), after_links) == KILLED
    assert any(n.endswith(".bak") for n in os.listdir(tmp_path))  # the dead run's backup ...
    _io.atomic_write_text(tmp_path / "other.txt", "x")  # ... is gone after the next write
    assert sorted(os.listdir(tmp_path)) == ["o.csv", "o.csv.cert.json", "other.txt"]
    assert out.read_bytes() == b"d3" and out.stat().st_nlink == 1
