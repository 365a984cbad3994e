"""The CLI starts without importing the engines (issue 19): ``privlab --help`` and each
command's ``--help`` import no scipy / numba / matplotlib / sympy.  Counted in a fresh
interpreter by the modules it holds, not timed (the ratio to ``import numpy`` is measured in
benchmarks/bench_startup.py)."""

from __future__ import annotations

import json
import subprocess
import sys

import click
import pytest

from privlab import cli
from privlab.commands import tcloseness
from privlab.verify import stochastic_t

HEAVY = ("scipy", "numba", "matplotlib", "sympy", "mpmath", "hypothesis")

PROBE = """
import sys, json, contextlib, io
from privlab.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main({argv!r})
print(json.dumps({{"code": code, "mods": sorted(m.split('.')[0] for m in sys.modules)}}))
"""


def _loaded(argv: list[str]) -> tuple[int, set[str]]:
    out = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv)], capture_output=True,
                         text=True, check=True).stdout
    d = json.loads(out.strip().splitlines()[-1])
    return d["code"], set(d["mods"])


@pytest.mark.parametrize("argv", [["--help"], ["verify", "--help"], ["claims", "--help"],
                                  ["audit-suite", "--help"], ["errata", "--help"]])
def test_help_imports_no_engine(argv: list[str]) -> None:
    code, mods = _loaded(argv)
    assert code == 0
    assert not mods & set(HEAVY), sorted(mods & set(HEAVY))


def test_probe_sees_an_engine_import() -> None:
    """Able to fail: a command that does need an engine shows up in the probe."""
    _, mods = _loaded(["certify", "staircase", "--epsilon", "1", "--format", "json"])
    assert "scipy" in mods


def test_lazy_table_names_real_commands() -> None:
    for name, (load, hlp) in cli.COMMANDS.items():
        cmd = load()
        assert isinstance(cmd, click.Command) and cmd.name == name, name
        assert hlp and "\n" not in hlp


def test_stochastic_t_choices_match_the_checker() -> None:
    assert tcloseness.STOCHASTIC_T_MECHANISMS == stochastic_t.MECHANISMS


#: engines that no ``--help`` may import (issue 19: every ``privlab COMMAND --help`` ≤ 0.25 s)
ENGINES = (*HEAVY, "numpy", "pandas")

WALK = """
import contextlib, io, json, sys
import click
from privlab import cli

ENGINES = set({engines!r})
root, descend = {root!r}, {descend!r}


def engines():
    return sorted({{m.split('.')[0] for m in sys.modules}} & ENGINES)


def command(argv):
    if tuple(argv[:2]) in cli.SUBCOMMANDS:
        cmd, argv = cli.SUBCOMMANDS[argv[0], argv[1]](), argv[2:]
    else:
        cmd = cli.cli
    for name in argv:
        cmd = cmd.get_command(click.Context(cmd), name)
    return cmd


out, todo = [], [list(root)]
while todo:
    argv = todo.pop(0)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = cli.main([*argv, "--help"])
    out.append({{"argv": argv, "code": code, "usage": "Usage:" in buf.getvalue(),
                 "engines": engines()}})
    cmd = command(argv) if descend else None
    if isinstance(cmd, click.Group):
        todo += [[*argv, name] for name in sorted(cmd.commands)]
print(json.dumps(out))
"""


def _walk_help(root: list[str], descend: bool = True) -> list[dict[str, object]]:
    """``--help`` of ``root`` and of every subcommand below it, in one fresh interpreter; for
    each: exit code, whether a usage text was printed, and the engines loaded so far."""
    script = WALK.format(engines=list(ENGINES), root=root, descend=descend)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.parametrize("root", [[], *([name] for name in cli.COMMANDS),
                                  *(list(key) for key in cli.SUBCOMMANDS)],
                         ids=lambda r: " ".join(r) or "privlab")
def test_every_help_imports_no_numpy(root: list[str]) -> None:
    """``privlab [COMMAND [SUB …]] --help`` for every command and subcommand imports no numpy,
    pandas, scipy, numba (nor the other engines of :data:`HEAVY`): command modules import their
    engines inside the command functions."""
    seen = _walk_help(root, descend=bool(root))
    assert seen and all(s["code"] == 0 and s["usage"] for s in seen), seen
    if root in (["certify"], ["release"]):  # the walk reached the subcommands
        assert len(seen) > 3, [s["argv"] for s in seen]
    first = next((s for s in seen if s["engines"]), None)
    assert first is None, f"privlab {' '.join(first['argv'])} --help imports {first['engines']}"
