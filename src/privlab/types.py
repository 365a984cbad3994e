"""Value types shared by the whole lab (frozen attrs classes).

* :class:`Neighbour` — the neighbour relation a guarantee is stated under.  The seeds differ:
  thesis §2.x Definition 3 uses *add/remove one record*; vldb14, irm and ins15 use
  *substitute one record*.  A guarantee is meaningless without naming one.
* :class:`PureDP`, :class:`ApproxDP` — privacy guarantees tied to a neighbour relation.
* :class:`CheckResult` — what every checker returns (never a bare bool).
* :class:`Status`, :class:`Method` — ledger vocabulary.
* :class:`Certificate` — a parameter choice with the evidence that it gives its guarantee.
* :class:`Claim` with its :class:`Scope` (the paper's own setting or the lab's extension),
  :class:`Refutation` (kind and severity of a failure) and :class:`Mutant` s (false variants
  of the statement its checker must refute) — issue 14; the verdict rules are in
  :mod:`privlab.proofs.verdict`.
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
    FINDING = "finding (extension)"
    """A check under a setting the paper does not use (scope ``extension``) failed: a finding
    about that setting, never an erratum of the paper (not counted among refuted claims)."""
    SKIPPED = "skipped"
    """The check was not run (a claim marked slow under ``--quick``): no verdict at all, so
    neither inconclusive nor a failure; the claim's ``evidence.reason`` says why."""

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


def _mpf_text(x: Any) -> str | None:
    """An mpmath real as text with as many digits as its own mantissa carries (at least a
    double's 15), independent of the ambient ``mpmath.mp.dps`` — so that evidence, and the
    report, do not depend on the precision the caller's process happens to be at."""
    import sys

    mpmath = sys.modules.get("mpmath")
    if mpmath is None or not isinstance(x, mpmath.mpf):
        return None
    bits = max(int(x._mpf_[3]), 53)
    return str(mpmath.nstr(x, mpmath.libmp.prec_to_dps(bits)))


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
    mpf = _mpf_text(x)
    if mpf is not None:
        return mpf
    try:  # sympy numbers
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


SETTINGS = ("paper", "extension")
RELEASES = ("record-aligned", "shuffled", "set", "n/a")
NEIGHBOURS = ("substitute", "add/remove", "both", "n/a")
KINDS = ("privacy", "false-statement", "proof-gap", "numeric", "typo")
SEVERITY = {"privacy": "high", "false-statement": "medium", "proof-gap": "low",
            "numeric": "low", "typo": "cosmetic"}
"""Severity of a refutation by kind: privacy > false-statement > proof-gap > numeric > typo."""
SEVERITY_RANK = {"privacy": 5, "false-statement": 4, "proof-gap": 3, "numeric": 2, "typo": 1}


def _one_of(allowed: tuple[str, ...]) -> Any:
    def check(inst: Any, att: attrs.Attribute, value: Any) -> None:
        if value not in allowed:
            raise v.InvalidParameter(f"{att.name}={value!r} must be one of {', '.join(allowed)}")
    return check


@attrs.frozen(kw_only=True)
class Scope:
    """The setting a claim is checked in (issue 14).

    ``setting`` is ``"paper"`` when the check uses the seed's own setting and ``"extension"``
    when it is the lab's own question (another neighbour relation or release format, or a
    privlab guarantee); a failed extension is a finding about that setting, not an erratum.
    ``neighbour`` and ``release`` (record-aligned / shuffled / set / n/a) name the relation and
    the output format; ``noise`` how noise is shared (e.g. one draw per centroid); ``domain``
    the parameter domain the statement quantifies over; ``reading`` the reading taken where the
    printed text is ambiguous.
    """

    setting: str = attrs.field(validator=_one_of(SETTINGS))
    neighbour: str = attrs.field(default="n/a", validator=_one_of(NEIGHBOURS))
    release: str = attrs.field(default="n/a", validator=_one_of(RELEASES))
    noise: str = "n/a"
    domain: str = ""
    reading: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"setting": self.setting, "neighbour": self.neighbour, "release": self.release,
                "noise": self.noise, "domain": self.domain, "reading": self.reading}


@attrs.frozen(kw_only=True)
class Refutation:
    """What a refutation means (issue 14): ``kind`` ∈ :data:`KINDS`; for ``privacy`` the exact
    ``loss`` (or ``"∞"``), the ``weakest`` failing instance found, and whether the paper's own
    experiment parameters are affected (``paper_parameters``)."""

    kind: str = attrs.field(validator=_one_of(KINDS))
    loss: str | None = None
    weakest: str | None = None
    paper_parameters: str | None = None

    @property
    def severity(self) -> str:
        return SEVERITY[self.kind]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "severity": self.severity,
                               "severity_rank": SEVERITY_RANK[self.kind]}
        if self.kind == "privacy":
            out.update(loss=self.loss, weakest=self.weakest,
                       paper_parameters=self.paper_parameters)
        return out


MUTANT_KINDS = ("constant", "direction", "factor", "dropped-hypothesis", "construction")
"""How a mutant perturbs the statement (issue 30): a constant changed, an inequality's
direction flipped, a factor changed, a hypothesis dropped, or the construction the statement is
about altered in a plausible way (e.g. one noise draw shared where the text draws one per
record).  The claim's plain negation is not a mutant."""
UNCLASSIFIED = "unclassified"


@attrs.frozen(kw_only=True)
class Mutant:
    """A perturbed (false) version of a claim's statement and the claim's checker run on it.

    ``check`` is a zero-argument callable returning a :class:`CheckResult`; the mutant is
    *caught* when that result is refuted — evidence that the claim's checker can fail.
    ``conjunct`` names the part of the statement it falsifies (``""``: the whole statement of a
    claim with one conjunct); ``kind`` is one of :data:`MUTANT_KINDS`."""

    description: str
    check: Any = attrs.field(eq=False, repr=False)
    conjunct: str = ""
    kind: str = attrs.field(default=UNCLASSIFIED,
                            validator=_one_of((*MUTANT_KINDS, UNCLASSIFIED)))


@attrs.frozen(kw_only=True)
class Conjunct:
    """One part of a statement that is judged separately ("ε-DP *and* optimal", each direction
    of an "if and only if"); every conjunct needs a mutant of its own that the checker refutes."""

    name: str
    statement: str


@attrs.frozen(kw_only=True)
class Param:
    """A parameter a claim quantifies over, with its domain as data (issue 30).

    The domain is the interval from ``lo`` to ``hi`` (``None``: unbounded; ``lo_closed`` /
    ``hi_closed`` say whether the end belongs to it), restricted to integers when ``integer``,
    or the finite set ``values`` when given.  ``registry`` is the key of the seed's registry of
    experimental parameters (:mod:`privlab.proofs.parameters`) whose values in the domain the
    grid must contain; ``boundary`` lists the boundary cases the hypotheses allow (also
    required in the grid).  ``grid`` is what the checker runs on — ``None`` when the proof
    object covers the parameter symbolically."""

    name: str
    lo: Any = None
    hi: Any = None
    lo_closed: bool = False
    hi_closed: bool = False
    integer: bool = False
    values: tuple[Any, ...] | None = None
    registry: str | None = None
    boundary: tuple[Any, ...] = ()
    grid: tuple[Any, ...] | None = None

    def contains(self, x: Any) -> bool:
        """Whether ``x`` lies in the declared domain."""
        if self.values is not None:
            return x in self.values
        try:
            fx = float(x)
        except (TypeError, ValueError):
            return False
        if self.integer and fx != int(fx):
            return False
        if self.lo is not None and (fx < self.lo or (fx == self.lo and not self.lo_closed)):
            return False
        return not (self.hi is not None
                    and (fx > self.hi or (fx == self.hi and not self.hi_closed)))

    @property
    def finite(self) -> bool:
        """True when the domain is a finite set (so a grid can exhaust it)."""
        if self.values is not None:
            return True
        return self.integer and self.lo is not None and self.hi is not None

    def domain_text(self) -> str:
        if self.values is not None:
            return "{" + ", ".join(map(str, self.values)) + "}"
        lo = "−∞" if self.lo is None else str(self.lo)
        hi = "∞" if self.hi is None else str(self.hi)
        br = ("[" if self.lo_closed and self.lo is not None else "(",
              "]" if self.hi_closed and self.hi is not None else ")")
        return f"{'ℤ ∩ ' if self.integer else ''}{br[0]}{lo}, {hi}{br[1]}"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "domain": self.domain_text(), "registry": self.registry,
                "boundary": jsonable(list(self.boundary)),
                "grid": None if self.grid is None else jsonable(list(self.grid))}


PROOF_KINDS = ("symbolic", "exact-decision", "exhaustive")


@attrs.frozen(kw_only=True)
class Proof:
    """What makes a *verified* verdict (issue 30): a symbolic identity (sympy), an exact
    decision procedure whose domain is the claim's declared domain, or an exhaustive
    enumeration of a finite domain.  ``argument`` says in one sentence what is proved."""

    kind: str = attrs.field(validator=_one_of(PROOF_KINDS))
    argument: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "argument": self.argument}


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
    scope: Scope | None = None
    """The setting checked (paper's own or the lab's extension); see :class:`Scope`."""
    refutation: Refutation | None = None
    """Kind and severity of the failure when the check refutes the statement."""
    mutants: tuple[Mutant, ...] = ()
    """False variants of the statement the checker must refute (able-to-fail evidence)."""
    data: str | None = None
    """Name of the real data set the check depends on; its evidence must carry ``data``
    provenance ``{name, path, rows, sha256}`` — a synthetic run is inconclusive."""
    params: tuple[Param, ...] = ()
    """The quantified parameters and their domains (see :class:`Param`)."""
    conjuncts: tuple[Conjunct, ...] = ()
    """The parts of the statement judged separately; empty: the statement is one conjunct."""
    proof: Proof | None = None
    """The proof object a *verified* verdict needs; without one a passing check confirms."""
    premise_implies: str | None = None
    """Set when the check's verdict follows from the conditions it sets up (why); the claim is
    then inconclusive whatever the check says."""
    covers: tuple[str, ...] = ()
    """Seed items this claim decides besides its own id (``"thesis:Definition 13"``)."""


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
