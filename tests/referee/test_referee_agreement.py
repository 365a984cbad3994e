"""Every ledger verdict against an independent re-derivation (issue 30).

``tests/referee/ref_*.py`` are referee scripts written from the seed texts alone (each says how
in its docstring); they import nothing from privlab (checked here, on their syntax tree).  Each
exposes ``CLAIMS`` (claim id → a function returning ``{"holds": True | False | None, ...}``) and
``SLOW`` (ids whose function is long; compared in the ``slow`` run).

A claim the ledger verifies or confirms must be judged true by its referee; a claim the ledger
refutes (or reports as a finding) must be judged false.  Every decided ledger claim needs a
referee.  A referee that cannot decide (``holds`` None, e.g. data absent) skips with its note.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from privlab.proofs import default_ledger
from privlab.proofs.ledger import run_claim
from privlab.types import Claim, Status

HERE = Path(__file__).resolve().parent
SCRIPTS = sorted(HERE.glob("ref_*.py"))
ALLOWED = {"__future__", "fractions", "itertools", "math", "functools", "json", "os", "sys",
           "pathlib", "collections", "typing", "dataclasses", "statistics", "decimal",
           "numpy", "scipy", "mpmath", "sympy", "pandas", "csv", "re", "random", "time",
           "operator", "bisect", "heapq", "hashlib", "warnings", "string", "enum", "copy",
           "contextlib", "textwrap", "zipfile", "io", "cmath", "abc"}
HOLDS = (Status.VERIFIED, Status.CONFIRMED)
FAILS = (Status.REFUTED, Status.FINDING)


@cache
def _module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_referee_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def _referees() -> dict[str, tuple[Path, bool]]:
    """claim id → (script, slow)."""
    out: dict[str, tuple[Path, bool]] = {}
    for path in SCRIPTS:
        mod = _module(path)
        for cid in mod.CLAIMS:
            assert cid not in out, f"{cid} refereed twice ({out[cid][0].name}, {path.name})"
            out[cid] = (path, cid in getattr(mod, "SLOW", frozenset()))
    return out


REFEREES = _referees()
CLAIMS = {c.id: c for c in default_ledger().claims()}


def _referee(cid: str) -> dict[str, Any]:
    path, _ = REFEREES[cid]
    fn: Callable[[], dict[str, Any]] = _module(path).CLAIMS[cid]
    out = fn()
    assert isinstance(out, dict) and "holds" in out, (cid, out)
    return out


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_referee_imports_nothing_from_the_lab(path: Path) -> None:
    tree = ast.parse(path.read_text("utf-8"))
    doc = ast.get_docstring(tree) or ""
    assert "without reading privlab" in doc, f"{path.name}: docstring must say how it was derived"
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: relative import"
            names = [node.module or ""]
        for n in names:
            assert n.split(".")[0] in ALLOWED, f"{path.name} imports {n}"


def test_every_referee_id_is_a_ledger_claim() -> None:
    assert set(REFEREES) <= set(CLAIMS), sorted(set(REFEREES) - set(CLAIMS))


def _cases(slow: bool) -> list[Any]:
    out = []
    for cid, claim in CLAIMS.items():
        if cid.startswith("ledger:"):
            continue
        ref_slow = REFEREES[cid][1] if cid in REFEREES else False
        if (claim.slow or ref_slow) == slow:
            out.append(pytest.param(claim, id=cid))
    return out


def _agree(claim: Claim) -> None:
    outcome = run_claim(claim)
    if outcome.status not in (*HOLDS, *FAILS):
        if claim.id in REFEREES:  # recorded for the report, not compared
            _referee(claim.id)
        return
    assert claim.id in REFEREES, f"{claim.id} is {outcome.status.value} but has no referee"
    ref = _referee(claim.id)
    if ref["holds"] is None:
        pytest.skip(f"referee cannot decide {claim.id}: {ref.get('note')}")
    lab = outcome.status in HOLDS
    assert ref["holds"] is lab, (
        f"disputed: {claim.id} is {outcome.status.value} in the ledger, the referee says "
        f"holds={ref['holds']}: {ref.get('note')} {ref.get('numbers')}")


@pytest.mark.parametrize("claim", _cases(False))
def test_ledger_agrees_with_its_referee(claim: Claim) -> None:
    _agree(claim)


@pytest.mark.slow
@pytest.mark.parametrize("claim", _cases(True))
def test_slow_ledger_claims_agree_with_their_referee(claim: Claim) -> None:
    _agree(claim)
