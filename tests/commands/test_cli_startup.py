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

HEAVY = ("scipy", "numba", "matplotlib", "sympy", "mpmath")

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
