"""One family-wise error budget for a run of many audits (``privlab verify``).

A run audits m mechanisms that are meant to meet their claims.  Each audit screens at its own
``confidence`` (the reported lower bound holds with that probability) and, when the screening
bound exceeds the claim, *confirms* the violation by counting the same, already fixed event on
fresh samples at level 1 − α_c (:func:`privlab.audit.audit_pair`, ``confirm_confidence``).  The
verdict is "violation" only when the confirmation is one too.  For a mechanism that meets its
claim, the confirmation samples are independent of the event, so

    P(verdict = "violation") ≤ P(confirmation bound > claim) ≤ α_c,

whatever the screening did.  With α_c = B / m for each of at most m audits (Bonferroni), the
probability that *any* correct mechanism of the run is reported as violating its claim is at
most B (union bound).  Broken controls must still be caught: their confirmation has to clear
the stricter level, which the sample sizes of the report are chosen to allow.

``ErrorBudget(total=B, audits=m)``: the budget B (default 10⁻³) and the number m of audits it
is split over (an upper bound; the report states both and the number actually used).
"""

from __future__ import annotations

from typing import Any

import attrs

from privlab import _validate as v

__all__ = ["ErrorBudget"]

DEFAULT_TOTAL = 1e-3
DEFAULT_AUDITS = 64


def _total(_i: Any, _a: Any, value: Any) -> None:
    v.in_open("total", value, 0.0, 1.0)


def _audits(_i: Any, _a: Any, value: Any) -> None:
    v.positive_int("audits", value)


@attrs.frozen(kw_only=True)
class ErrorBudget:
    """Family-wise error budget B over at most m audits (module docstring)."""

    total: float = attrs.field(default=DEFAULT_TOTAL, validator=_total)
    """B: bound on the probability that any correct mechanism of the run fails its audit."""
    audits: int = attrs.field(default=DEFAULT_AUDITS, validator=_audits)
    """m: the number of audits B is split over (Bonferroni)."""
    method: str = "bonferroni"

    @property
    def per_audit(self) -> float:
        """α_c = B / m: the error of one audit's confirmation step."""
        return self.total / self.audits

    @property
    def confirm_confidence(self) -> float:
        """1 − B/m: the confidence at which each audit confirms a violation."""
        return 1.0 - self.per_audit

    def to_dict(self) -> dict[str, Any]:
        return {"family_wise_error": self.total, "audits": self.audits, "method": self.method,
                "per_audit_error": self.per_audit,
                "confirm_confidence": self.confirm_confidence,
                "rule": "a violation is reported only when the selected event, counted again "
                        "on fresh samples, gives a bound above the claim at confirm_confidence"}

    def describe(self) -> str:
        """One sentence for the report."""
        return (f"Family-wise error budget {self.total:g} ({self.method} over at most "
                f"{self.audits} audits): a violation is reported only after the selected event "
                f"is replayed on fresh samples at confidence 1 − {self.per_audit:.3g}, so the "
                f"probability that any correct mechanism fails this run is at most "
                f"{self.total:g}.")
