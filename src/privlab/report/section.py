"""The building block of ``privlab verify``'s report: one :class:`Section` per mechanism family.

A workload module (listed in :data:`privlab.report.workload.SECTIONS`) exposes
``build(ctx: Context) -> Section``.  It runs its mechanisms on seeded synthetic data (or on the
real data under ``ctx.data_dir`` when given), certifies parameter choices, audits the correct
mechanisms *and* deliberately broken controls, draws its figures into ``ctx.figures_dir`` and
returns everything as plain values; :mod:`privlab.report.render` turns sections into
``report.json`` / ``report.md`` / ``report.html``.

Exit status of ``privlab verify`` (DESIGN.md §4): 0 iff every :class:`Guarantee` of every
section holds — a guarantee is something privlab itself promises (a certificate, a correct
mechanism passing its audit, a broken control being caught).  A seed's claim being refuted is a
finding, not a failure.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from privlab.audit.budget import ErrorBudget
from privlab.types import Table, jsonable


def _ignore(msg: str) -> None:
    return None


@attrs.frozen(kw_only=True)
class Context:
    """What a section may use: run size, seed, data, where figures go, a progress callback."""

    quick: bool = False
    seed: int = 0
    data_dir: Path | None = None
    figures_dir: Path = Path("figures")
    progress: Callable[[str], Any] = _ignore
    audit_budget: ErrorBudget = attrs.field(factory=ErrorBudget)
    """The run's family-wise error budget (:mod:`privlab.audit.budget`): every guaranteed audit
    confirms a violation at ``audit_budget.confirm_confidence`` before reporting it."""

    def rng(self, name: str) -> np.random.Generator:
        """An independent, reproducible stream per (seed, name): sections never share state."""
        return np.random.default_rng(np.random.SeedSequence([self.seed, zlib.crc32(name.encode())]))

    def samples(self, full: int, quick: int) -> int:
        """Sample size for audits: ``quick`` under ``--quick``, else ``full``."""
        return quick if self.quick else full

    def figure_path(self, name: str) -> Path:
        self.figures_dir.mkdir(parents=True, exist_ok=True)
        return self.figures_dir / f"{name}.png"


@attrs.frozen(kw_only=True)
class Figure:
    """A PNG written under ``figures/``; ``file`` is its name there."""

    file: str
    caption: str


@attrs.frozen(kw_only=True)
class Guarantee:
    """A promise privlab makes in this report; ``holds`` False makes ``privlab verify`` exit 1."""

    description: str
    holds: bool
    evidence: Mapping[str, Any] = attrs.field(factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"description": self.description, "holds": bool(self.holds),
                "evidence": jsonable(dict(self.evidence))}


@attrs.frozen(kw_only=True)
class Section:
    """One family's part of the report.

    ``summary`` is Markdown prose (what was run and what it shows); ``results`` are result
    tables (:class:`~privlab.types.Table`, rendered as Markdown/HTML tables); ``audits`` are
    ``AuditResult.to_dict()`` entries extended with ``control`` (True for a deliberately broken
    mechanism) and ``expected`` ("consistent" or "violation"); ``certificates`` are
    ``Certificate.to_dict()`` entries.
    """

    id: str
    title: str
    summary: str = ""
    results: Sequence[Table] = ()
    figures: Sequence[Figure] = ()
    audits: Sequence[Mapping[str, Any]] = ()
    certificates: Sequence[Mapping[str, Any]] = ()
    guarantees: Sequence[Guarantee] = ()
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return all(g.holds for g in self.guarantees)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "ok": self.ok, "summary": self.summary,
                "results": [t.to_dict() for t in self.results],
                "figures": [{"file": f"figures/{f.file}", "caption": f.caption}
                            for f in self.figures],
                "audits": [jsonable(dict(a)) for a in self.audits],
                "certificates": [jsonable(dict(c)) for c in self.certificates],
                "guarantees": [g.to_dict() for g in self.guarantees],
                "seconds": round(self.seconds, 3)}


def audit_entry(result: Any, *, control: bool, guarantee: str | None = None) -> tuple[
        dict[str, Any], Guarantee]:
    """An ``audits`` entry and its guarantee: a correct mechanism must come out "consistent", a
    broken control must be caught ("violation")."""
    entry = result.to_dict()
    entry.setdefault("confirmation", None)
    expected = "violation" if control else "consistent"
    entry.update(control=control, expected=expected, ok=entry["verdict"] == expected)
    what = "broken control caught by the auditor" if control else "correct mechanism passes audit"
    g = Guarantee(description=guarantee or f"{entry['mechanism']}: {what}",
                  holds=entry["ok"],
                  evidence={"epsilon_claimed": entry["epsilon_claimed"],
                            "epsilon_lower_bound": entry["epsilon_lower_bound"],
                            "verdict": entry["verdict"], "samples": entry["samples"],
                            "confirm_confidence": entry.get("confirm_confidence")})
    return entry, g


def certificate_guarantee(cert: Any, description: str | None = None) -> tuple[
        dict[str, Any], Guarantee]:
    """A certificate entry (``Certificate.to_dict()``) and the guarantee that it holds."""
    d = cert.to_dict()
    g = Guarantee(description=description or f"certificate: {d['mechanism']} "
                                             f"{d['guarantee']}",
                  holds=bool(d["holds"]), evidence={"parameters": d["parameters"]})
    return d, g
