"""Attach the reviewed scope, refutation kind, data dependency and mutants to the ledger's
claims (issue 14).  A field the claim sets itself wins over the registries."""

from __future__ import annotations

from functools import cache

import attrs

from privlab.proofs.mutants import all_mutants
from privlab.proofs.scopes import DATA, REFUTATIONS, SCOPES
from privlab.types import Claim, Mutant


@cache
def _mutants() -> dict[str, tuple[Mutant, ...]]:
    return all_mutants()


def annotate(claim: Claim) -> Claim:
    """``claim`` with scope / refutation / data / mutants filled from the registries
    (idempotent: a mutant already attached is not added twice)."""
    changes: dict[str, object] = {}
    if claim.scope is None and claim.id in SCOPES:
        changes["scope"] = SCOPES[claim.id]
    if claim.refutation is None and claim.id in REFUTATIONS:
        changes["refutation"] = REFUTATIONS[claim.id]
    if claim.data is None and claim.id in DATA:
        changes["data"] = DATA[claim.id]
    have = {m.description for m in claim.mutants}
    extra = tuple(m for m in _mutants().get(claim.id, ()) if m.description not in have)
    if extra:
        changes["mutants"] = (*claim.mutants, *extra)
    return attrs.evolve(claim, **changes) if changes else claim
