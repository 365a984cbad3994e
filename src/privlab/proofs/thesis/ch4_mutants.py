"""Mutant checks of thesis ch.4 claims (noise laws): each perturbs a constant, a formula or a
printed value of the statement, and runs the claim's own checker on it.

The ``Mutant(kind=..., description=..., check=...)`` entries themselves are written in each claim's
``Claim(...)`` definition; this module holds the check functions too long for a lambda.
It never imports the chapter modules (they import it)."""

from __future__ import annotations

from typing import Any


def _sym() -> Any:
    from privlab.proofs.thesis import ch4_symbolic as sy

    return sy


def _m_formula_mutant() -> Any:
    import sympy as sp

    sy = _sym()
    r = sp.exp(-sy.EPS)
    return sy.check_m_formula(candidate=sy.DELTA * (1 - r + sy.EPS * r) / (sy.EPS * (1 - r)))


def _di_mutant() -> Any:
    import sympy as sp

    sy = _sym()
    r = sp.exp(-sy.EPS)
    return sy.check_thm1_di(printed=(1 - r - sy.SMALL_M0 * sy.DELTA) / (2 * (sy.M0 - sy.SMALL_M0)))


def _m0d_mutant() -> Any:
    sy = _sym()
    return sy.check_m0_d_relation(
        printed=(1 - sy.R - 2 * sy.M0 * sy.DELTA) / (2 * (1 - sy.R) * sy.M0))


def _tables() -> Any:
    from privlab.proofs.thesis import ch4_tables as tb

    return tb
