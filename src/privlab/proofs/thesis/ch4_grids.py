"""The parameter grids the thesis ch.4 checks run on (issue 30), shared by the checks and by the
``params=`` of their claims (so a declared grid is the grid run).  Light: imports no checker.

Seed 000_65177858bc9aa63c.txt: the thesis's experimental ε (registry ``epsilon`` of
:mod:`privlab.proofs.parameters`: 0.01, 0.1, 0.5, ln 2, 1, 2, 10) and Δf = 1 (registry
``sensitivity``).
"""

from __future__ import annotations

from privlab.proofs.parameters import PAPER_PARAMETERS
from privlab.types import Param

PAPER_EPS: tuple[float, ...] = tuple(PAPER_PARAMETERS["thesis"]["epsilon"])
"""The thesis's experimental ε."""
UNIT_DELTA: tuple[float, ...] = (1.0,)
"""Δf = 1, the thesis's ch.4 value."""

EQ42_EPS = PAPER_EPS
"""(4.2): every noise of the family at each ε."""
SEC43_EPS: tuple[float, ...] = tuple(sorted({*PAPER_EPS, 0.05, 5.0}))
SEC43_DELTA: tuple[float, ...] = (1.0, 2.5)
"""§4.3 DP: ε from 0.01 to 10 (issue 14's sweep with the thesis's values), two sensitivities."""
SMALLER_EPS: tuple[float, ...] = tuple(sorted({*PAPER_EPS, 5.0}))
"""§4.3 member vs Laplace."""
LEMMA1_EPS = PAPER_EPS
MEMBER_EPS = PAPER_EPS
"""Lemma 2, Corollary 1 and the numeric corroboration of Theorem 2 (interior) on members."""
MEMBER_D: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)
"""Members d ∈ [0, Δ] (end points included) of Lemma 2 and Corollary 1."""
LEMMA2_I: tuple[int, ...] = tuple(range(16))
"""Lemma 2's index i ∈ ℕ = {0, 1, …}, checked for i = 0 … 15."""
THM1_EPS = PAPER_EPS
"""Theorem 1 as printed: the counterexample evaluated at each ε."""
INDEXING_D: tuple[float, ...] = (0.0, 0.5)
"""Theorem 1's printed indexing: the reading-0 mass evaluated at these d (Δ = 1)."""
THM2_EPS = PAPER_EPS
"""Theorem 2 as printed: the end-point counterexample evaluated at each ε."""


def eps_param(grid: tuple[float, ...] | None) -> Param:
    """ε ∈ (0, ∞), tied to the thesis's registry; ``grid=None``: covered by a proof object."""
    return Param(name="epsilon", lo=0, registry="epsilon", grid=grid)


def delta_param(grid: tuple[float, ...] | None) -> Param:
    """Δ = Δf ∈ (0, ∞), tied to the registry ``sensitivity``."""
    return Param(name="Delta", lo=0, registry="sensitivity", grid=grid)
