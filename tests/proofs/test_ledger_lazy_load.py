"""Loading the ledger imports only what building the claims needs (issue 19): the checks'
modules (scipy, sympy, numba, numpy) are imported when a check or table runs."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from privlab.proofs.lazyref import LazyRef


def test_loading_the_ledger_imports_no_numeric_stack() -> None:
    code = ("import sys\n"
            "from privlab.proofs.ledger import default_ledger\n"
            "L = default_ledger(); L.claims(); L.tables(); assert not L.load_errors\n"
            "print(sorted(m for m in ('numpy', 'scipy', 'sympy', 'numba', 'hypothesis')"
            " if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("ledger_module, source, keep", [
    ("privlab.proofs.thesis.ch3", "privlab.proofs.thesis.ch3_tables", None),
    ("privlab.proofs.thesis.ch4", "privlab.proofs.thesis.ch4_tables", None),
    ("privlab.proofs.thesis.ch5", "privlab.proofs.thesis.ch5_tables", None),
    ("privlab.proofs.thesis.ch7", "privlab.proofs.tcloseness.tables", False),
    ("privlab.proofs.ins15", "privlab.proofs.tcloseness.tables", True),
])
def test_lazy_tables_are_the_source_tables(ledger_module: str, source: str,
                                           keep: bool | None) -> None:
    """The ledger modules list their tables lazily; same ids, order and functions as the
    TABLES of the module that computes them."""
    lazy = importlib.import_module(ledger_module).TABLES
    real = {k: v for k, v in importlib.import_module(source).TABLES.items()
            if keep is None or k.startswith("ins15") == keep}
    assert list(lazy) == list(real)
    for tid, ref in lazy.items():
        assert isinstance(ref, LazyRef) and ref.resolve() is real[tid]


def test_every_lazy_check_resolves() -> None:
    from privlab.proofs.ledger import default_ledger

    refs = [c.check for c in default_ledger().claims() if isinstance(c.check, LazyRef)]
    assert refs and all(callable(r.resolve()) for r in refs)
