"""Mutants of the ledger's claims (issue 14): false variants of each statement that the claim's
own checker must refute — the per-claim evidence that a verified/confirmed verdict could have
failed.  One module per seed chapter; :func:`mutants_for` collects them by claim id."""

from __future__ import annotations

import importlib

from privlab.types import Mutant

MUTANT_MODULES: tuple[str, ...] = (
    "privlab.proofs.mutants.own",
    "privlab.proofs.mutants.ch4",
    "privlab.proofs.mutants.ch5",
    "privlab.proofs.mutants.ch6",
    "privlab.proofs.mutants.ch7",
)


def all_mutants() -> dict[str, tuple[Mutant, ...]]:
    """claim id → its mutants, over :data:`MUTANT_MODULES` (each exposes ``MUTANTS``)."""
    out: dict[str, tuple[Mutant, ...]] = {}
    for name in MUTANT_MODULES:
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        for cid, ms in mod.MUTANTS.items():
            out[cid] = out.get(cid, ()) + tuple(ms)
    return out
