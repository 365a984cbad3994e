"""Where ``load_reference`` finds the user's code (issue "Never hang, never flake", part 4).

* ``path/to/FILE.py:NAME`` imports modules beside FILE: FILE's folder is on ``sys.path`` while
  FILE is imported (as ``python FILE`` would have it), and only then.
* ``MODULE:NAME`` is imported from ``sys.path``, else from ``base`` (a suite file's folder),
  else from the current directory (``python -m`` looks there; the ``privlab`` console script's
  ``sys.path`` does not hold it), without ``PYTHONPATH``; the one-line error says where it
  looked.

Every module written here has a fresh name, so nothing a test imports can be found in
``sys.modules`` by another test; each test removes what it imported.
"""

from __future__ import annotations

import pathlib
import sys
import uuid

import numpy as np
import pytest

from privlab.audit.usercode import factory_sampler, load_reference
from privlab.errors import InvalidParameter

FACTORY = '''
from {helper} import SCALE

def lap(x):
    return lambda n, rng: x + rng.laplace(0.0, SCALE, n)
'''


def _names() -> tuple[str, str]:
    tag = uuid.uuid4().hex[:10]
    return f"usermod_{tag}", f"userhelper_{tag}"


@pytest.fixture
def clean_modules():
    before = set(sys.modules)
    path_before = list(sys.path)
    yield
    for name in set(sys.modules) - before:
        if name.startswith(("usermod_", "userhelper_", "privlab_user_")):
            del sys.modules[name]
    assert sys.path == path_before, "load_reference left sys.path changed"


def _write(folder: pathlib.Path) -> tuple[str, str]:
    mod, helper = _names()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{helper}.py").write_text("SCALE = 2.0\n")
    (folder / f"{mod}.py").write_text(FACTORY.format(helper=helper))
    return mod, helper


def _scale_of(factory) -> float:
    """The mean absolute deviation of the factory's samples: Laplace(b) has b, so 2.0 (the
    helper's SCALE) shows that the factory written here, helper included, was imported."""
    out = factory_sampler(factory, 0.0, "t")(20_000, np.random.default_rng(0))
    return float(np.mean(np.abs(out)))


def test_file_reference_imports_a_module_beside_the_file(tmp_path, monkeypatch, clean_modules):
    mod, helper = _write(tmp_path / "team" / "code")
    monkeypatch.chdir(tmp_path)  # the file's folder is neither the cwd nor on sys.path
    assert str(tmp_path / "team" / "code") not in sys.path
    f = load_reference(f"team/code/{mod}.py:lap")
    assert abs(_scale_of(f) - 2.0) < 0.1
    assert helper in sys.modules  # imported from beside the file …
    assert str((tmp_path / "team" / "code").resolve()) not in sys.path  # … and removed after


def test_file_reference_relative_to_base(tmp_path, monkeypatch, clean_modules):
    mod, _ = _write(tmp_path / "suites")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    f = load_reference(f"{mod}.py:lap", base=tmp_path / "suites")
    assert abs(_scale_of(f) - 2.0) < 0.1
    with pytest.raises(InvalidParameter, match="does not exist") as e:
        load_reference(f"{mod}.py:lap")  # not under the cwd, no base
    assert "\n" not in str(e.value)


def test_module_reference_is_found_in_the_current_directory(tmp_path, monkeypatch,
                                                             clean_modules):
    mod, _ = _write(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    for entry in ("", ".", str(tmp_path)):  # as under the ``privlab`` console script
        assert entry not in sys.path
    f = load_reference(f"{mod}:lap")
    assert abs(_scale_of(f) - 2.0) < 0.1
    assert sys.modules[mod].__file__ == str((tmp_path / f"{mod}.py").resolve())


def test_module_reference_is_found_in_base(tmp_path, monkeypatch, clean_modules):
    mod, _ = _write(tmp_path / "suites")
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    f = load_reference(f"{mod}:lap", base=tmp_path / "suites")
    assert abs(_scale_of(f) - 2.0) < 0.1


def test_missing_module_error_says_where_it_looked(tmp_path, monkeypatch, clean_modules):
    (tmp_path / "cwd").mkdir()
    (tmp_path / "suites").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    mod, _ = _names()
    with pytest.raises(InvalidParameter) as e:
        load_reference(f"{mod}:lap", what="sampler", base=tmp_path / "suites")
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(f"sampler='{mod}:lap'")
    assert f"No module named '{mod}'" in msg
    assert "sys.path" in msg
    assert str((tmp_path / "cwd").resolve()) in msg and "current directory" in msg
    assert str((tmp_path / "suites").resolve()) in msg
    assert "path/to/file.py:NAME" in msg


def test_a_missing_dependency_is_not_reported_as_a_missing_reference(tmp_path, monkeypatch,
                                                                      clean_modules):
    """The module is found, but it imports something that is not installed: the error names
    that module, not the places the reference was looked for."""
    mod, helper = _names()
    (tmp_path / f"{mod}.py").write_text(f"import {helper}_absent\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InvalidParameter) as e:
        load_reference(f"{mod}:lap")
    msg = str(e.value)
    assert f"No module named '{helper}_absent'" in msg and "looked on" not in msg
    assert "\n" not in msg


def test_cli_module_reference_without_pythonpath(tmp_path, monkeypatch, clean_modules, capsys):
    """``privlab audit --sampler MODULE:F`` in the folder of MODULE, nothing on sys.path: the
    audit runs (exit 0 on a 1-DP factory); from another folder the one-line error names it."""
    from privlab.cli import main

    mod, _ = _write(tmp_path / "code")
    (tmp_path / "code" / f"{mod}.py").write_text(
        "def lap(x):\n    return lambda n, rng: x + rng.laplace(0.0, 1.0, n)\n")
    monkeypatch.chdir(tmp_path / "code")
    args = ["audit", "--sampler", f"{mod}:lap", "--pair", "0", "1", "--claimed-epsilon", "1",
            "--samples", "5000", "--workers", "1"]
    assert main(args) == 0
    capsys.readouterr()
    sys.modules.pop(mod, None)
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and "current directory" in err[0]


def test_replay_spec_finds_a_module_under_its_base(tmp_path, monkeypatch, clean_modules):
    """A saved counterexample (``audit --sampler MODULE:F --save``) replays from another folder:
    its ``base`` (the folder of the original run) is where MODULE is looked for."""
    from privlab.audit.usercode import samplers_from_spec

    mod, _ = _write(tmp_path / "run")
    (tmp_path / "later").mkdir()
    monkeypatch.chdir(tmp_path / "later")
    a, b, label = samplers_from_spec({"sampler": f"{mod}:lap", "pair": [0, 1],
                                      "base": str(tmp_path / "run")})
    assert label == f"sampler {mod}:lap"
    out_a, out_b = a(20_000, np.random.default_rng(0)), b(20_000, np.random.default_rng(0))
    assert abs(float(np.mean(out_b - out_a)) - 1.0) < 1e-9  # same noise, inputs 0 and 1
    assert abs(float(np.mean(np.abs(out_a))) - 2.0) < 0.1
