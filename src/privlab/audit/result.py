"""The result of an audit (:func:`privlab.audit.auditor.audit_pair`): a frozen value with the
lower bounds, the verdict about the claim, the replayable counterexample, and its JSON and
:class:`~privlab.types.CheckResult` views (docs/auditor.md, "AuditResult")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from privlab import _validate as v
from privlab.types import CheckResult, Method, jsonable

__all__ = ["VERDICTS", "AuditResult", "SeedWarning"]

VERDICTS = ("consistent", "violation")


class SeedWarning(UserWarning):
    """An audit of samplers that ignore ``rng``: no same-seed reproducibility."""


def _in_unit(name: str, x: Any) -> float:
    return v.in_open(name, x, 0.0, 1.0)


def _opt_verdict(_i: Any, attribute: Any, value: Any) -> None:
    if value is not None:
        v.one_of(attribute.name, value, VERDICTS)


@attrs.frozen(kw_only=True)
class AuditResult:
    """Outcome of one audit (see the module docstring for the method and its guarantee)."""

    mechanism: str
    epsilon_lower_bound: float = attrs.field(validator=v.attrs_validator(v.non_negative))
    delta_lower_bound: float = attrs.field(default=0.0,
                                           validator=v.attrs_validator(v.non_negative))
    confidence: float = attrs.field(validator=v.attrs_validator(_in_unit))
    samples: int = attrs.field(validator=v.attrs_validator(v.positive_int))
    """Outputs drawn per side (per input pair), selection and estimation together."""
    seconds: float = attrs.field(validator=v.attrs_validator(v.non_negative))
    claimed_epsilon: float | None = None
    delta: float = 0.0
    verdict: str | None = attrs.field(default=None, validator=_opt_verdict)
    structural_leak: bool = False
    counterexample: Mapping[str, Any] | None = None
    """The event achieving the bound: neighbour pair, feature, event, counts, probabilities
    and CP bounds (a counterexample to the claim when ``verdict == "violation"``); replayable
    with :func:`privlab.audit.replay`."""
    selection_samples: int = 0
    estimation_samples: int = 0
    candidates: int = 0
    pairs: tuple[Mapping[str, Any], ...] = ()
    """Per input pair: {"inputs": [a, b], "epsilon_lower_bound": …} (audit_mechanism)."""
    objective: str = "epsilon"
    features: tuple[str, ...] = ()
    certified_epsilon: float | None = None
    """The ε a certificate of the lab establishes for the audited configuration, reported
    beside the claim (the verdict is about ``claimed_epsilon``, the user's claim)."""
    confirm_confidence: float | None = None
    """Confidence of the confirmation step (None: violations are not confirmed)."""
    confirmation: Mapping[str, Any] | None = None
    """The replay of the selected event on fresh samples at ``confirm_confidence`` (only run
    when the screening bound exceeds the claim): counts, bounds and its verdict."""
    seedable: bool = True
    """False when the caller declared that the samplers ignore ``rng`` (``seedable=False``):
    the bound is still sound, but the same seed need not give the same result."""
    description: str = ""
    """The event in words, with its frequency under each input (and, for a structural leak,
    that one input never produced it): :func:`privlab.audit.words.describe`.  Not part of
    :meth:`to_dict` yet — saved results are read back by :mod:`privlab.audit.replay`, which
    accepts only the keys it knows."""
    event_class: str = "law"
    """"law" (an event of the output values: unions of intervals of a feature) or
    "implementation" (bit patterns, lattice residues or exact values seen under one side only:
    an event of the floating-point / fixed-point implementation)."""

    @property
    def false_alarm_rate(self) -> float:
        """Upper bound on P(verdict == "violation") for a mechanism meeting its claim: the
        confirmation's error when violations are confirmed, else 1 − ``confidence``."""
        if self.confirm_confidence is not None:
            return 1.0 - self.confirm_confidence
        return 1.0 - self.confidence

    def to_dict(self) -> dict[str, Any]:
        """The ``audits`` entry of report.json (DESIGN.md §4) plus the evidence."""
        return jsonable({
            "mechanism": self.mechanism, "epsilon_claimed": self.claimed_epsilon,
            "claimed_epsilon": self.claimed_epsilon, "certified_epsilon": self.certified_epsilon,
            "confirm_confidence": self.confirm_confidence, "confirmation": self.confirmation,
            "event_class": self.event_class, "seedable": self.seedable,
            "epsilon_lower_bound": self.epsilon_lower_bound, "confidence": self.confidence,
            "samples": self.samples, "verdict": self.verdict, "delta": self.delta,
            "delta_lower_bound": self.delta_lower_bound, "objective": self.objective,
            "structural_leak": self.structural_leak,
            "false_alarm_rate": self.false_alarm_rate if self.verdict else None,
            "selection_samples": self.selection_samples,
            "estimation_samples": self.estimation_samples, "candidates": self.candidates,
            "features": list(self.features),
            "seconds": self.seconds, "method": "audit", "pairs": list(self.pairs),
            "counterexample": self.counterexample})

    def as_check(self) -> CheckResult:
        """As a :class:`CheckResult` (method "audit"; undecided when nothing was claimed)."""
        holds = self.verdict != "violation"
        claim = (f"{self.mechanism} is ({self.claimed_epsilon}, {self.delta})-DP" if self.delta
                 else f"{self.mechanism} is {self.claimed_epsilon}-DP")
        return CheckResult(
            holds=holds, claim=claim, value=self.epsilon_lower_bound, evidence=self.to_dict(),
            counterexample=None if holds else dict(self.counterexample or {}),
            method=Method.AUDIT, decided=self.verdict is not None)


# --------------------------------------------------------------------------------------------
