"""From a check's result to the verdict a referee would sign (issue 14).

:func:`verdict` turns a claim and its :class:`~privlab.types.CheckResult` into the ledger
status, applying in order:

1. ``status_of`` (verified / confirmed / refuted / inconclusive);
2. *bounded*: a universal statement checked on finitely many instances is confirmed, never
   verified;
3. *data*: a claim that depends on a real data set (``Claim.data``) whose evidence does not
   carry real-data provenance (``evidence["data"]["path"] != "synthetic"``) is inconclusive with
   reason ``"data unavailable"`` — the synthetic run stays as a labelled illustration;
4. *able to fail*: a verified/confirmed claim's mutants (false variants of its statement) are
   run through its checker; unless at least one comes back refuted the claim is inconclusive
   with reason ``"able to fail not shown"`` (a checker that cannot fail proves nothing);
5. *scope*: a refutation under a setting the paper does not use (``scope.setting ==
   "extension"``) is a ``finding (extension)``, never an erratum of the paper.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from privlab.types import CheckResult, Claim, Status, status_of

BOUNDED = ("bounded check: exact on the finite instances listed in the evidence; the universal "
           "statement is confirmed, not verified")
DATA_UNAVAILABLE = "data unavailable"
NOT_ABLE_TO_FAIL = "able to fail not shown"


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
        row: dict[str, Any] = {"mutant": m.description, "status": st}
        if err:
            row["error"] = err
        out.append(row)
    return tuple(out)


def _data_of(result: CheckResult) -> Mapping[str, Any] | None:
    d = result.evidence.get("data") if isinstance(result.evidence, Mapping) else None
    return d if isinstance(d, Mapping) else None


def verdict(claim: Claim, result: CheckResult) -> Verdict:
    """The ledger status of ``claim`` given its check ``result`` (rules 1–5 of the module doc)."""
    status = status_of(result)
    reasons: list[str] = []
    if claim.bounded:
        reasons.append(BOUNDED)
        if status is Status.VERIFIED:
            status = Status.CONFIRMED
    data = _data_of(result)
    if claim.data is not None and status in (Status.VERIFIED, Status.CONFIRMED):
        if data is None or data.get("path") in (None, "synthetic"):
            status = Status.INCONCLUSIVE
            reasons.append(f"{DATA_UNAVAILABLE}: {claim.data} not found; the run on synthetic "
                           "data is an illustration only")
    able: tuple[dict[str, Any], ...] = ()
    if status in (Status.VERIFIED, Status.CONFIRMED):
        able = run_mutants(claim)
        if not any(a["status"] == Status.REFUTED.value for a in able):
            status = Status.INCONCLUSIVE
            reasons.append(f"{NOT_ABLE_TO_FAIL}: " + (
                "no mutant of the statement is defined for this checker" if not able
                else "no mutant was refuted by the checker"))
    if status is Status.REFUTED and claim.scope is not None \
            and claim.scope.setting == "extension":
        status = Status.FINDING
    return Verdict(status=status, reason="; ".join(reasons) or None, able_to_fail=able,
                   data=data)
