"""privlab writes only what the user asked it to write (issue 32, item 2).

* ``--output`` of a release that exists and is not a regular file (FIFO, folder, device node,
  symlink to one) or that ends with a slash is refused: exit 2, one ``error:`` line naming
  ``--output``, nothing written.
* a derived name (``OUTPUT.cert.json``, ``OUTPUT.groups.csv``) holding a file privlab did not
  write is refused; privlab's own previous release is replaced.
* ``audit-suite run --out``: two audits whose names differ only in characters a file name
  cannot hold (``a/b``, ``a_b``) get two counterexample files; foreign files under the owned
  names are refused unless ``--force``.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import stat
from pathlib import Path

import pytest

from privlab.cli import main
from privlab.commands.audit_suite import counterexample_file


def _run(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str]:
    code = main(args)
    return code, capsys.readouterr().err


def _input(work: Path) -> Path:
    p = work / "in.csv"
    with p.open("w", newline="") as fh:
        csv.writer(fh).writerows([["a", "b"]] + [[(7 * i) % 100, (11 * i) % 50]
                                                 for i in range(12)])
    return p


def _mdav(work: Path, output: str) -> list[str]:
    return ["release", "mdav", "--input", str(_input(work)), "--columns", "a,b", "--k", "3",
            "--seed", "1", "--output", output]


def _dp(work: Path, output: str) -> list[str]:
    return ["release", "laplace-dp", "--input", str(_input(work)), "--columns", "a,b",
            "--bounds", "0:100", "--epsilon", "1", "--seed", "1", "--output", output]


def _tc(work: Path, output: str) -> list[str]:
    p = work / "tc.csv"
    with p.open("w", newline="") as fh:
        csv.writer(fh).writerows([["id", "income"]] + [[i, (37 * i) % 1000]
                                                       for i in range(60)])
    return ["release", "t-closeness", "--input", str(p), "--confidential", "income",
            "--keep", "id", "--t", "3", "--form", "anatomy", "--seed", "1", "--output", output]


COMMANDS = {"mdav": _mdav, "laplace-dp": _dp, "t-closeness": _tc}


def _listing(d: Path) -> set[str]:
    return {p.name for p in d.iterdir()}


def _one_error(code: int, err: str, *needles: str) -> None:
    assert code == 2, err
    assert err.startswith("error:") and err.count("\n") == 1, err
    assert "--output=" in err
    for n in needles:
        assert n in err, err


@pytest.mark.parametrize("cmd", sorted(COMMANDS))
def test_release_works_into_a_fresh_name(tmp_path: Path, cmd: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """The baseline the refusals are measured against: the same arguments with a plain
    file name write OUTPUT and its certificate (so a refusal below is the target's doing)."""
    out = tmp_path / "out.csv"
    code, err = _run(capsys, COMMANDS[cmd](tmp_path, str(out)))
    assert code == 0, err
    assert out.is_file() and Path(f"{out}.cert.json").is_file()
    # a rerun replaces privlab's own previous release (derived files included)
    code, err = _run(capsys, COMMANDS[cmd](tmp_path, str(out)))
    assert code == 0, err


@pytest.mark.parametrize("cmd", sorted(COMMANDS))
def test_fifo_as_output_is_refused(tmp_path: Path, cmd: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "out.csv"
    os.mkfifo(fifo)
    args = COMMANDS[cmd](tmp_path, str(fifo))
    before = _listing(tmp_path)
    code, err = _run(capsys, args)
    _one_error(code, err, "FIFO")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert _listing(tmp_path) == before


@pytest.mark.parametrize("cmd", sorted(COMMANDS))
def test_folder_as_output_is_refused(tmp_path: Path, cmd: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "out.csv"
    folder.mkdir()
    args = COMMANDS[cmd](tmp_path, str(folder))
    before = _listing(tmp_path)
    code, err = _run(capsys, args)
    _one_error(code, err, "folder")
    assert folder.is_dir() and not any(folder.iterdir())
    assert _listing(tmp_path) == before


@pytest.mark.parametrize("cmd", sorted(COMMANDS))
def test_symlink_to_a_folder_is_refused(tmp_path: Path, cmd: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "real").mkdir()
    link = tmp_path / "out.csv"
    link.symlink_to(tmp_path / "real")
    args = COMMANDS[cmd](tmp_path, str(link))
    before = _listing(tmp_path)
    code, err = _run(capsys, args)
    _one_error(code, err, "folder")
    assert link.is_symlink() and not any((tmp_path / "real").iterdir())
    assert _listing(tmp_path) == before


@pytest.mark.parametrize("cmd", sorted(COMMANDS))
def test_trailing_slash_is_refused(tmp_path: Path, cmd: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """``--output newdir/`` used to write a file named ``newdir``."""
    args = COMMANDS[cmd](tmp_path, f"{tmp_path / 'newdir'}/")
    before = _listing(tmp_path)
    code, err = _run(capsys, args)
    _one_error(code, err, "slash")
    assert _listing(tmp_path) == before


@pytest.mark.parametrize("cmd", sorted(COMMANDS))
def test_dev_null_is_refused(tmp_path: Path, cmd: str,
                             capsys: pytest.CaptureFixture[str]) -> None:
    if not os.path.exists("/dev/null"):
        pytest.skip("no /dev/null")
    code, err = _run(capsys, COMMANDS[cmd](tmp_path, "/dev/null"))
    _one_error(code, err, "character device")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_derived_fifo_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.csv"
    os.mkfifo(f"{out}.cert.json")
    args = _mdav(tmp_path, str(out))
    before = _listing(tmp_path)
    code, err = _run(capsys, args)
    _one_error(code, err, "out.csv.cert.json", "FIFO")
    assert _listing(tmp_path) == before


@pytest.mark.parametrize("suffix", [".cert.json", ".groups.csv"])
def test_foreign_derived_file_is_refused(tmp_path: Path, suffix: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """A file the user keeps under a derived name is not replaced (no --force on releases);
    the same name holding privlab's own previous release is (test above)."""
    out = tmp_path / "out.csv"
    mine = Path(f"{out}{suffix}")
    mine.write_text("my notes\n")
    args = _tc(tmp_path, str(out))
    before = _listing(tmp_path)
    code, err = _run(capsys, args)
    _one_error(code, err, mine.name, "not written by privlab")
    assert mine.read_text() == "my notes\n"
    assert _listing(tmp_path) == before


def test_groups_beside_another_kind_of_certificate_is_foreign(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``OUTPUT.groups.csv`` is privlab's only beside a t-closeness certificate: a user's
    groups file beside a DP release's certificate stays."""
    out = tmp_path / "out.csv"
    code, err = _run(capsys, _dp(tmp_path, str(out)))
    assert code == 0, err
    groups = Path(f"{out}.groups.csv")
    groups.write_text("mine\n")
    code, err = _run(capsys, _tc(tmp_path, str(out)))
    _one_error(code, err, groups.name)
    assert groups.read_text() == "mine\n"


# ---- audit-suite run --out -------------------------------------------------------------------

MECHS = '''
import numpy as np

def half_scale(x):           # claims 1-DP, is 2-DP
    return lambda n, rng: x + rng.laplace(0.0, 0.5, n)
'''


def _suite(work: Path, names: list[str]) -> Path:
    (work / "cemechs.py").write_text(MECHS)
    text = "".join(f'[[audit]]\nname = {json.dumps(n)}\nsampler = "cemechs.py:half_scale"\n'
                   'pairs = [[0, 1]]\nclaimed_epsilon = 1.0\nsamples = 20000\n\n'
                   for n in names)
    p = work / "s.toml"
    p.write_text(text)
    return p


def test_counterexample_file_names_are_distinct() -> None:
    names = ["a/b", "a_b", "a:b", "a b", "..", ".", "naive-float-laplace"]
    files = [counterexample_file(n) for n in names]
    assert len(set(files)) == len(names)
    assert counterexample_file("naive-float-laplace") == "naive-float-laplace.json"
    assert all("/" not in f and f not in (".json", "..json", "...json") for f in files)


def test_colliding_audit_names_write_two_files(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    suite = _suite(tmp_path, ["a/b", "a_b"])
    out = tmp_path / "out"
    code, err = _run(capsys, ["audit-suite", "run", str(suite), "--out", str(out)])
    assert code == 1, err
    files = {f.name for f in (out / "counterexamples").iterdir()}
    assert files == {counterexample_file("a/b"), counterexample_file("a_b")}
    assert files == {"a_b.json", f"a_b-{hashlib.sha256(b'a/b').hexdigest()[:10]}.json"}
    md = (out / "suite.md").read_text()
    for n in ("a/b", "a_b"):
        assert f"counterexamples/{counterexample_file(n)}" in md


def test_foreign_suite_outputs_refused_unless_force(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    suite = _suite(tmp_path, ["x"])
    out = tmp_path / "out"
    out.mkdir()
    (out / "suite.md").write_text("my notes\n")
    (out / "other.txt").write_text("kept\n")
    code, err = _run(capsys, ["audit-suite", "run", str(suite), "--out", str(out)])
    assert code == 2 and err.startswith("error:") and err.count("\n") == 1, err
    assert "--force" in err and "suite.md" in err
    assert _listing(out) == {"suite.md", "other.txt"}
    assert (out / "suite.md").read_text() == "my notes\n"
    code, err = _run(capsys, ["audit-suite", "run", str(suite), "--out", str(out), "--force"])
    assert code == 1, err
    assert (out / "suite.json").is_file() and (out / "other.txt").read_text() == "kept\n"
    # now the folder holds privlab's own outputs: a rerun needs no --force
    code, err = _run(capsys, ["audit-suite", "run", str(suite), "--out", str(out)])
    assert code == 1, err


def test_non_regular_suite_output_is_refused_even_with_force(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suite = _suite(tmp_path, ["x"])
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "junit.xml")
    code, err = _run(capsys, ["audit-suite", "run", str(suite), "--out", str(out), "--force"])
    assert code == 2 and err.startswith("error:") and err.count("\n") == 1, err
    assert "junit.xml" in err
    assert stat.S_ISFIFO(os.lstat(out / "junit.xml").st_mode) and _listing(out) == {"junit.xml"}
