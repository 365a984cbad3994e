"""Value types shared by the whole lab (frozen attrs classes).

* :class:`Neighbour` — the neighbour relation a guarantee is stated under.  The seeds differ:
  thesis §2.x Definition 3 uses *add/remove one record*; vldb14, irm and ins15 use
  *substitute one record*.  A guarantee is meaningless without naming one.
* :class:`PureDP`, :class:`ApproxDP` — privacy guarantees tied to a neighbour relation.
* :class:`CheckResult` — what every checker returns (never a bare bool).
* :class:`Status`, :class:`Method` — ledger vocabulary.
* :class:`Certificate` — a parameter choice with the evidence that it gives its guarantee.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from typing import Any

import attrs

from privlab import _validate as v


class Neighbour(enum.Enum):
    """Neighbour relation between data sets."""

    ADD_REMOVE = "add/remove"
    """D and D' differ by adding or removing one record (|D'| = |D| ± 1)."""
    SUBSTITUTE = "substitute"
    """D and D' have the same size and differ in the value of one record."""

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str | Neighbour) -> Neighbour:
        if isinstance(text, Neighbour):
            return text
        norm = str(text).strip().lower().replace("_", "/").replace("-", "/")
        for member in cls:
            if norm in (member.value, member.name.lower().replace("_", "/")):
                return member
        allowed = ", ".join(m.value for m in cls)
        raise v.InvalidParameter(f"neighbour={text!r} must be one of {allowed}")


@attrs.frozen(kw_only=True)
class PureDP:
    """ε-differential privacy under ``neighbour``: P(M(D)∈S) ≤ e^ε P(M(D')∈S) for all S."""

    epsilon: float = attrs.field(converter=v.attrs_converter(v.positive))
    neighbour: Neighbour = attrs.field(default=Neighbour.SUBSTITUTE, converter=Neighbour.parse)

    @property
    def delta(self) -> float:
        return 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "pure", "epsilon": self.epsilon, "delta": 0.0,
                "neighbour": self.neighbour.value}


@attrs.frozen(kw_only=True)
class ApproxDP:
    """(ε, δ)-differential privacy under ``neighbour``."""

    epsilon: float = attrs.field(converter=v.attrs_converter(v.positive))
    delta: float = attrs.field(
        converter=v.attrs_converter(lambda n, x: v.in_closed(n, x, 0.0, 1.0))
    )
    neighbour: Neighbour = attrs.field(default=Neighbour.SUBSTITUTE, converter=Neighbour.parse)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "approx", "epsilon": self.epsilon, "delta": self.delta,
                "neighbour": self.neighbour.value}


Guarantee = PureDP | ApproxDP


class Status(enum.Enum):
    """Status of a claim in the ledger."""

    VERIFIED = "verified"  # proved symbolically, or checked exactly / exhaustively
    CONFIRMED = "confirmed"  # supported numerically or on a bounded domain
    REFUTED = "refuted"  # a concrete counterexample exists
    INCONCLUSIVE = "inconclusive"  # the check could not decide

    def __str__(self) -> str:
        return self.value


class Method(enum.Enum):
    SYMBOLIC = "symbolic"
    EXACT = "exact"
    EXHAUSTIVE = "exhaustive"
    PROPERTY = "property"
    NUMERIC = "numeric"
    AUDIT = "audit"

    def __str__(self) -> str:
        return self.value


def jsonable(x: Any) -> Any:
    """Best-effort conversion of evidence values to JSON-serialisable Python objects."""
    import fractions

    import numpy as np

    if x is None or isinstance(x, bool | str | int):
        return x
    if isinstance(x, float):
        return x if math.isfinite(x) else repr(x)
    if isinstance(x, fractions.Fraction):
        return str(x)
    if isinstance(x, enum.Enum):
        return x.value
    if isinstance(x, np.generic):
        return jsonable(x.item())
    if isinstance(x, np.ndarray):
        return [jsonable(e) for e in x.tolist()]
    if isinstance(x, Mapping):
        return {str(k): jsonable(val) for k, val in x.items()}
    if isinstance(x, list | tuple | set | frozenset):
        return [jsonable(e) for e in x]
    if hasattr(x, "to_dict"):
        return jsonable(x.to_dict())
    if attrs.has(type(x)):
        return jsonable(attrs.asdict(x, recurse=False))
    try:  # mpmath / sympy numbers
        return str(x)
    except Exception:  # pragma: no cover
        return repr(x)


@attrs.frozen(kw_only=True)
class CheckResult:
    """Outcome of a checker.

    ``holds`` is the decision; ``value`` the headline quantity (e.g. the worst log-ratio);
    ``evidence`` how it was obtained; ``counterexample`` a concrete witness when it fails.
    """

    holds: bool = attrs.field(converter=bool)
    claim: str
    value: Any = None
    evidence: Mapping[str, Any] = attrs.field(factory=dict)
    counterexample: Any = None
    method: Method = Method.EXACT
    decided: bool = True
    """False when the checker could not decide (e.g. precision exhausted): ledger → inconclusive."""

    def __bool__(self) -> bool:  # pragma: no cover - convenience only
        return self.holds

    def to_dict(self) -> dict[str, Any]:
        return {"holds": self.holds, "claim": self.claim, "value": jsonable(self.value),
                "method": self.method.value, "decided": self.decided,
                "evidence": jsonable(self.evidence),
                "counterexample": jsonable(self.counterexample)}


@attrs.frozen(kw_only=True)
class Certificate:
    """A parameter choice for a mechanism, with the evidence that it gives ``guarantee``."""

    mechanism: str
    parameters: Mapping[str, Any]
    guarantee: PureDP | ApproxDP
    checks: tuple[CheckResult, ...] = ()
    properties: Mapping[str, Any] = attrs.field(factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def holds(self) -> bool:
        return all(c.holds for c in self.checks)

    def to_dict(self) -> dict[str, Any]:
        return {"mechanism": self.mechanism, "parameters": jsonable(self.parameters),
                "guarantee": self.guarantee.to_dict(), "holds": self.holds,
                "checks": [c.to_dict() for c in self.checks],
                "properties": jsonable(self.properties), "notes": list(self.notes)}


def status_of(result: CheckResult) -> Status:
    """Ledger status implied by a check result.

    verified  — holds, decided, by a symbolic / exact / exhaustive method;
    confirmed — holds, decided, by a numeric / property / audit method;
    refuted   — does not hold and a concrete counterexample is attached;
    inconclusive — anything else (undecided, or failed without a witness).
    """
    if not result.decided:
        return Status.INCONCLUSIVE
    if result.holds:
        if result.method in (Method.SYMBOLIC, Method.EXACT, Method.EXHAUSTIVE):
            return Status.VERIFIED
        return Status.CONFIRMED
    if result.counterexample is not None:
        return Status.REFUTED
    return Status.INCONCLUSIVE


@attrs.frozen(kw_only=True)
class Claim:
    """A named obligation taken from a seed, with the checker that decides it.

    ``id`` follows DESIGN.md §3 (``thesis:thm-1``); ``source`` names the seed file and section;
    ``check`` is a zero-argument callable returning a :class:`CheckResult`.
    """

    id: str
    source: str
    statement: str
    check: Any = attrs.field(eq=False, repr=False)
    notes: tuple[str, ...] = ()
    slow: bool = False
    """True when the check takes more than a few seconds (skipped by ``verify --quick``)."""
    bounded: bool = False
    """True when the statement is universal but the check covers finitely many instances (a
    grid, random priors, small n): an exact/exhaustive pass then *confirms*, never verifies."""


@attrs.frozen(kw_only=True)
class Table:
    """A reproduced table: for each number a seed printed, the value privlab computed and the
    printed one side by side (``paper_<column>``)."""

    id: str
    source: str
    columns: tuple[str, ...]
    rows: tuple[Mapping[str, Any], ...]
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "source": self.source, "columns": list(self.columns),
                "rows": [jsonable(dict(r)) for r in self.rows], "notes": list(self.notes)}
