"""The claim ledger: collects ``CLAIMS`` and ``TABLES`` from the proof modules and runs them.

Adding a proof module is a one-line change to :data:`MODULES`.  Modules are imported lazily
(on first use of a ledger) and robustly: a module that fails to import, or exposes malformed
``CLAIMS``/``TABLES``, becomes an *error entry* — a synthetic claim
``ledger:load-error:<module>`` that always comes out inconclusive with the error recorded — so
a broken module is visible in every report instead of silently missing.

A check that raises, or returns something that is not a :class:`~privlab.types.CheckResult`,
is recorded as inconclusive with the error; :meth:`Ledger.run` never raises because of a check.
"""

from __future__ import annotations

import importlib
import time
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from privlab.errors import InvalidParameter
from privlab.proofs.printed import NOTE_PREFIX, table_note
from privlab.proofs.verdict import BOUNDED, verdict
from privlab.types import CheckResult, Claim, Method, Status, Table, jsonable

MODULES: tuple[str, ...] = (
    "privlab.proofs.own",
    "privlab.proofs.thesis.ch3",
    "privlab.proofs.thesis.sec341_correlations",
    "privlab.proofs.thesis.sec342_eia",
    "privlab.proofs.thesis.sec62_insensitivity",
    "privlab.proofs.thesis.ch4",
    "privlab.proofs.thesis.sec45",
    "privlab.proofs.thesis.ch5",
    "privlab.proofs.thesis.ch6",
    "privlab.proofs.thesis.irm_sec31",
    "privlab.proofs.thesis.ch6_mixed",
    "privlab.proofs.thesis.sec634_equations",
    "privlab.proofs.thesis.ch6_tables",
    "privlab.proofs.thesis.ch6_adult_tables",
    "privlab.proofs.thesis.vldb14_sec5_tables",
    "privlab.proofs.thesis.ch7",
    "privlab.proofs.ins15",
)
"""Proof modules of the default ledger (one line per module)."""

SKIPPED_QUICK = "skipped (--quick)"
REFUTATION_KEYS = ("kind", "severity", "severity_rank", "loss", "weakest", "paper_parameters")
"""Keys every claim entry carries (None unless the claim is refuted / a finding)."""
__all__ = ["BOUNDED", "MODULES", "SKIPPED_QUICK", "ClaimOutcome", "Ledger", "default_ledger",
           "run_claim"]
LOAD_ERROR_PREFIX = "ledger:load-error:"

Progress = Callable[[int, int, str], Any]


@attrs.frozen(kw_only=True)
class LoadError:
    """A proof module that could not be loaded (import error, malformed CLAIMS/TABLES, …)."""

    module: str
    error: str


@attrs.frozen(kw_only=True)
class ClaimOutcome:
    """The result of running one claim: its status, the check's result and timing.

    ``error`` is set when the check raised (or the module failed to load); ``reason`` when the
    claim was not run (``"skipped (--quick)"``).
    """

    claim: Claim
    status: Status
    result: CheckResult | None
    seconds: float
    error: str | None = None
    reason: str | None = None
    able_to_fail: tuple[Mapping[str, Any], ...] = ()
    data: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The claim entry of ``report.json`` (DESIGN.md §4)."""
        res = self.result
        evidence: dict[str, Any] = dict(jsonable(res.evidence)) if res is not None else {}
        if self.error is not None:
            evidence["error"] = self.error
        if self.reason is not None:
            evidence["reason"] = self.reason
        return {
            "id": self.claim.id,
            "source": self.claim.source,
            "statement": self.claim.statement,
            "status": self.status.value,
            "method": res.method.value if res is not None else None,
            "evidence": evidence,
            "counterexample": jsonable(res.counterexample) if res is not None else None,
            "value": jsonable(res.value) if res is not None else None,
            "notes": list(self.claim.notes),
            "seconds": round(self.seconds, 6),
            "scope": self.claim.scope.to_dict() if self.claim.scope is not None else None,
            "bounded": self.claim.bounded,
            **self._refutation(),
            "able_to_fail": [dict(a) for a in self.able_to_fail],
            "data": jsonable(self.data) if self.data is not None else (
                {"name": self.claim.data, "path": None} if self.claim.data else None),
        }

    def _refutation(self) -> dict[str, Any]:
        """``kind``/``severity`` (and for privacy: loss, weakest instance) of a refutation."""
        out: dict[str, Any] = dict.fromkeys(REFUTATION_KEYS)
        ref = self.claim.refutation
        if self.status in (Status.REFUTED, Status.FINDING) and ref is not None:
            out.update(ref.to_dict())
        return out


def _load_error_claim(err: LoadError) -> Claim:
    def check() -> CheckResult:
        return CheckResult(holds=False, claim=f"module {err.module} loads", decided=False,
                           method=Method.EXACT, evidence={"module": err.module,
                                                          "error": err.error})

    return Claim(id=f"{LOAD_ERROR_PREFIX}{err.module}", source=err.module,
                 statement=f"proof module {err.module} can be loaded", check=check,
                 notes=(f"load error: {err.error}",))


class Ledger:
    """Claims and tables collected from a list of proof modules (imported on first use)."""

    def __init__(self, modules: Sequence[str] = MODULES, *,
                 extra_claims: Iterable[Claim] = (),
                 extra_tables: dict[str, Callable[[], Table]] | None = None) -> None:
        self.modules: tuple[str, ...] = tuple(modules)
        self._extra_claims = tuple(extra_claims)
        self._extra_tables = dict(extra_tables or {})
        self._loaded = False
        self._claims: list[Claim] = []
        self._tables: dict[str, Callable[[], Table]] = {}
        self._errors: list[LoadError] = []

    # ---- loading ----------------------------------------------------------------------------
    def _load(self) -> None:
        if self._loaded:
            return
        seen: dict[str, str] = {}
        for name in self.modules:
            try:
                mod = importlib.import_module(name)
                claims = tuple(getattr(mod, "CLAIMS", ()))
                tables = dict(getattr(mod, "TABLES", {}))
                bad = [c for c in claims if not isinstance(c, Claim)]
                if bad:
                    raise TypeError(f"CLAIMS holds non-Claim entries: {bad[:3]!r}")
                if not all(callable(t) for t in tables.values()):
                    raise TypeError("TABLES values must be callables returning a Table")
            except Exception as exc:  # a broken module becomes an error entry
                self._errors.append(LoadError(module=name, error=f"{type(exc).__name__}: {exc}"))
                continue
            self._add(name, claims, tables, seen)
        self._add("<extra>", self._extra_claims, self._extra_tables, seen)
        self._loaded = True

    def _add(self, name: str, claims: Iterable[Claim], tables: dict[str, Callable[[], Table]],
             seen: dict[str, str]) -> None:
        for c in claims:
            if c.id in seen:
                self._errors.append(LoadError(
                    module=name, error=f"duplicate claim id {c.id!r} (also in {seen[c.id]})"))
                continue
            seen[c.id] = name
            self._claims.append(c)
        for tid, fn in tables.items():
            if tid in self._tables:
                self._errors.append(LoadError(module=name, error=f"duplicate table id {tid!r}"))
                continue
            self._tables[tid] = fn

    @property
    def load_errors(self) -> tuple[LoadError, ...]:
        self._load()
        return tuple(self._errors)

    # ---- claims -----------------------------------------------------------------------------
    def claims(self) -> list[Claim]:
        """Every claim, in module order, followed by one error entry per load error."""
        self._load()
        return [*self._claims, *(_load_error_claim(e) for e in self._errors)]

    def ids(self) -> list[str]:
        return [c.id for c in self.claims()]

    def get(self, claim_id: str) -> Claim:
        for c in self.claims():
            if c.id == claim_id:
                return c
        known = ", ".join(self.ids())
        raise InvalidParameter(f"claim id={claim_id!r} is unknown; known ids: {known}")

    def run(self, ids: Iterable[str] | None = None, *, quick: bool = False,
            progress: Progress | None = None) -> list[ClaimOutcome]:
        """Run the claims (all, or ``ids`` in the given order).

        ``quick`` skips claims marked ``slow`` (status skipped, reason
        ``"skipped (--quick)"``: not run, so never counted as inconclusive);
        ``progress(i, n, claim_id)`` is called before claim ``i`` (1-based) of ``n`` is run.
        Never raises because of a check.
        """
        claims = self.claims() if ids is None else [self.get(i) for i in ids]
        out: list[ClaimOutcome] = []
        n = len(claims)
        for k, claim in enumerate(claims, start=1):
            if progress is not None:
                progress(k, n, claim.id)
            if quick and claim.slow:
                out.append(ClaimOutcome(claim=claim, status=Status.SKIPPED, result=None,
                                        seconds=0.0, reason=SKIPPED_QUICK))
                continue
            out.append(run_claim(claim))
        return out

    # ---- tables -----------------------------------------------------------------------------
    def tables(self) -> dict[str, Callable[[], Table]]:
        self._load()
        return dict(self._tables)

    def table(self, table_id: str) -> Table:
        """Compute the reproduced table ``table_id``."""
        tables = self.tables()
        if table_id not in tables:
            known = ", ".join(sorted(tables)) or "(none)"
            raise InvalidParameter(f"table id={table_id!r} is unknown; known ids: {known}")
        table = tables[table_id]()
        note = table_note(table.columns, table.rows)
        if note is None or any(n.startswith(NOTE_PREFIX) for n in table.notes):
            return table
        return attrs.evolve(table, notes=(*table.notes, note))  # one rule for every table


def run_claim(claim: Claim) -> ClaimOutcome:
    """Run one claim's check; a raising or malformed check gives an inconclusive outcome."""
    t0 = time.perf_counter()
    try:
        result = claim.check()
    except Exception as exc:
        tb = traceback.format_exc(limit=-3)
        return ClaimOutcome(claim=claim, status=Status.INCONCLUSIVE, result=None,
                            seconds=time.perf_counter() - t0,
                            error=f"{type(exc).__name__}: {exc}\n{tb}")
    seconds = time.perf_counter() - t0
    if not isinstance(result, CheckResult):
        return ClaimOutcome(claim=claim, status=Status.INCONCLUSIVE, result=None,
                            seconds=seconds,
                            error=f"check returned {type(result).__name__}, not CheckResult")
    err = None
    if claim.id.startswith(LOAD_ERROR_PREFIX):
        err = str(result.evidence.get("error"))
    v = verdict(claim, result)  # bounded, data provenance, able-to-fail, scope
    return ClaimOutcome(claim=claim, status=v.status, result=result, seconds=seconds,
                        error=err, reason=v.reason, able_to_fail=v.able_to_fail, data=v.data)


def default_ledger() -> Ledger:
    """The ledger over :data:`MODULES`."""
    return Ledger(MODULES)
