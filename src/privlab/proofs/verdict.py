"""From a check's result to the verdict a referee would sign (issues 14, 30).

:func:`verdict` turns a claim and its :class:`~privlab.types.CheckResult` into the ledger
status, applying in order:

1. ``status_of`` (verified / confirmed / refuted / inconclusive);
2. *proof object*: *verified* needs ``Claim.proof`` — a symbolic identity, an exact decision
   procedure whose domain is the claim's declared domain (no parameter restricted to a grid), or
   an exhaustive enumeration of a finite domain (every parameter finite and its grid the whole
   domain).  Anything else that passes is *confirmed (bounded)*, with the grid listed;
3. *premises*: a claim whose check is implied by the conditions it sets up
   (``Claim.premise_implies``) is inconclusive with that reason, whatever the check says;
4. *grid*: a quantified parameter whose grid misses a value of the seed's registry of
   experimental parameters inside the domain, or a declared boundary case
   (:func:`grid_gaps`), leaves a passing claim inconclusive;
5. *data*: a claim that depends on a real data set (``Claim.data``) whose evidence does not
   carry real-data provenance (``evidence["data"]["path"] != "synthetic"``) is inconclusive with
   reason ``"data unavailable"`` — the synthetic run stays as a labelled illustration;
6. *able to fail, per conjunct*: for a verified/confirmed claim, every conjunct
   (``Claim.conjuncts``; one when none are listed) needs a classified mutant of its own
   (``Mutant.kind`` in :data:`~privlab.types.MUTANT_KINDS`) that the checker refutes; otherwise
   the claim is inconclusive with reason ``"able to fail not shown"``;
7. *scope*: a refutation under a setting the paper does not use (``scope.setting ==
   "extension"``) is a ``finding (extension)``, never an erratum of the paper.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import attrs

from privlab.proofs.parameters import paper_values
from privlab.types import UNCLASSIFIED, CheckResult, Claim, Status, status_of

BOUNDED = ("bounded check: decided on the instances listed in the evidence, with no proof object "
           "for the whole domain; the universal statement is confirmed, not verified")
DATA_UNAVAILABLE = "data unavailable"
NOT_ABLE_TO_FAIL = "able to fail not shown"
IMPLIED = "check implied by its premises"
GRID_GAP = "grid misses the paper's parameters"


@attrs.frozen(kw_only=True)
class Verdict:
    status: Status
    reason: str | None
    able_to_fail: tuple[Mapping[str, Any], ...]
    data: Mapping[str, Any] | None


def run_mutants(claim: Claim) -> tuple[dict[str, Any], ...]:
    """Run every mutant of ``claim``; each entry is ``{mutant, status}`` (status of the checker
    on the false statement: ``refuted`` means the mutant was caught)."""
    out = []
    for m in claim.mutants:
        try:
            res = m.check()
            st = status_of(res).value if isinstance(res, CheckResult) else "error"
            err = None if isinstance(res, CheckResult) else f"returned {type(res).__name__}"
        except Exception as exc:  # a raising mutant check is not a catch
            st, err = "error", f"{type(exc).__name__}: {exc}"
        row: dict[str, Any] = {"mutant": m.description, "status": st,
                               "conjunct": m.conjunct, "kind": m.kind}
        if err:
            row["error"] = err
        out.append(row)
    return tuple(out)


def _data_of(result: CheckResult) -> Mapping[str, Any] | None:
    d = result.evidence.get("data") if isinstance(result.evidence, Mapping) else None
    return d if isinstance(d, Mapping) else None


def _same(a: Any, b: Any) -> bool:
    try:
        return math.isclose(float(a), float(b), rel_tol=1e-12, abs_tol=0.0)
    except (TypeError, ValueError):
        return bool(a == b)


def grid_gaps(claim: Claim) -> tuple[str, ...]:
    """The required values each quantified parameter's grid misses: the seed's experimental
    values inside the declared domain and the declared boundary cases (rule 4).  A parameter
    without a grid is a gap unless a symbolic / exact-decision proof covers it."""
    gaps: list[str] = []
    for p in claim.params:
        if p.grid is None:  # decided symbolically in p; the seed's values need a proof then
            if p.registry and (claim.proof is None or claim.proof.kind == "exhaustive"):
                gaps.append(f"{p.name}: no grid and no symbolic proof")
            continue
        required = [x for x in paper_values(claim.id, p.registry) if p.contains(x)] \
            if p.registry else []
        required += list(p.boundary)
        missing = [x for x in required if not any(_same(x, g) for g in p.grid)]
        outside = [g for g in p.grid if not p.contains(g)]
        if missing:
            gaps.append(f"{p.name}: grid misses {', '.join(map(str, missing))}")
        if outside:
            gaps.append(f"{p.name}: grid value(s) {', '.join(map(str, outside))} outside "
                        f"the domain {p.domain_text()}")
    return tuple(gaps)


def proved(claim: Claim) -> bool:
    """Whether ``claim`` carries a proof object that can make it *verified* (rule 2)."""
    pr = claim.proof
    if pr is None or claim.bounded:
        return False
    if pr.kind == "exhaustive":
        return all(p.finite and p.grid is not None
                   and (p.values is None or set(p.values) <= set(p.grid))
                   and (p.values is not None
                        or len(p.grid) == int(p.hi) - int(p.lo) + 1
                        - (not p.lo_closed) - (not p.hi_closed))
                   for p in claim.params)
    return all(p.grid is None for p in claim.params)


def _values_text(grid: tuple[Any, ...], most: int = 12) -> str:
    """``{a, b, c}``; a grid longer than ``most`` as its first and last values and its size."""
    if len(grid) <= most:
        return "{" + ", ".join(map(str, grid)) + "}"
    head, tail = ", ".join(map(str, grid[:8])), ", ".join(map(str, grid[-2:]))
    return f"{{{head}, …, {tail}}} ({len(grid)} values)"


def _grid_text(claim: Claim) -> str:
    parts = [f"{p.name} ∈ {_values_text(p.grid)}" for p in claim.params if p.grid is not None]
    return f" (grid: {'; '.join(parts)})" if parts else ""


def conjunct_names(claim: Claim) -> tuple[str, ...]:
    """The conjuncts judged separately (``("",)``: the statement as a whole)."""
    return tuple(c.name for c in claim.conjuncts) or ("",)


def verdict(claim: Claim, result: CheckResult) -> Verdict:
    """The ledger status of ``claim`` given its check ``result`` (rules 1–7 of the module doc)."""
    status = status_of(result)
    reasons: list[str] = []
    passing = (Status.VERIFIED, Status.CONFIRMED)
    if status is Status.VERIFIED and not proved(claim):
        status = Status.CONFIRMED
    if status is Status.CONFIRMED:
        reasons.append(BOUNDED + _grid_text(claim))
    if status in passing and claim.premise_implies:
        status = Status.INCONCLUSIVE
        reasons.append(f"{IMPLIED}: {claim.premise_implies}")
    gaps = grid_gaps(claim)
    if status in passing and gaps:
        status = Status.INCONCLUSIVE
        reasons.append(f"{GRID_GAP}: {'; '.join(gaps)}")
    data = _data_of(result)
    if claim.data is not None and status in passing:
        if data is None or data.get("path") in (None, "synthetic"):
            status = Status.INCONCLUSIVE
            reasons.append(f"{DATA_UNAVAILABLE}: {claim.data} not found; the run on synthetic "
                           "data is an illustration only")
    able: tuple[dict[str, Any], ...] = ()
    if status in passing:
        able = run_mutants(claim)
        caught = {a["conjunct"] for a in able
                  if a["status"] == Status.REFUTED.value and a["kind"] != UNCLASSIFIED}
        uncaught = [n or "the statement" for n in conjunct_names(claim) if n not in caught]
        if uncaught:
            status = Status.INCONCLUSIVE
            reasons.append(f"{NOT_ABLE_TO_FAIL}: " + (
                "no mutant of the statement is defined for this checker" if not able
                else "no classified mutant refuted for " + ", ".join(uncaught)))
    if status is Status.REFUTED and claim.scope is not None \
            and claim.scope.setting == "extension":
        status = Status.FINDING
    return Verdict(status=status, reason="; ".join(reasons) or None, able_to_fail=able,
                   data=data)


def form_problems(claim: Claim) -> tuple[str, ...]:
    """What is wrong with a claim's definition, read without running it: unclassified mutants,
    a mutant tied to no conjunct, grid gaps, a proof object that does not cover the declared
    domain, a missing scope.  Empty for every claim of the ledger (``tests/proofs``)."""
    names = conjunct_names(claim)
    out = [f"mutant {m.description!r} is unclassified" for m in claim.mutants
           if m.kind == UNCLASSIFIED]
    out += [f"mutant {m.description!r} names no conjunct of the claim ({m.conjunct!r})"
            for m in claim.mutants if m.conjunct not in names]
    out += list(grid_gaps(claim))
    if claim.proof is not None and not proved(claim):
        out.append("its proof object does not cover the declared domain")
    if claim.scope is None:
        out.append("no scope")
    return tuple(out)
