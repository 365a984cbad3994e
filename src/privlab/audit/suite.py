"""The auditor's control suite: every mechanism with known ground truth, audited, as a Table.

:func:`run_suite` audits each entry of :data:`SUITE` (built by :func:`privlab.audit.controls.make`)
on its neighbour pairs with :func:`privlab.audit.audit_mechanism` and returns the Table
``audit-suite``: claimed ε, true ε (exact, an upper bound from the literature, or ∞), the
certified lower bound, the verdict, whether it is the expected one (correct mechanisms must
come out "consistent", broken ones "violation"), the feature and event kind that witnessed it,
samples and seconds.  Each entry gets its own seeded stream (``SeedSequence([seed, i])``), so
the table is reproducible and independent of ``workers`` (default 1, as everywhere in the Python
API; ``None``: all cores — :mod:`privlab.audit.mechanism`, "Workers").
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from privlab import _validate as v
from privlab.audit.auditor import AuditResult
from privlab.audit.controls import make
from privlab.audit.mechanism import audit_mechanism
from privlab.types import Table

# name, parameters, (true ε, note) for the lab's noise objects (controls carry their own)
SUITE: tuple[tuple[str, dict[str, Any], tuple[float, str] | None], ...] = (
    ("laplace", {"epsilon": 1.0}, (1.0, "exact")),
    ("geometric", {"epsilon": 1.0}, None),
    ("staircase", {"epsilon": 1.0}, (1.0, "exact")),
    ("randomized-response", {"epsilon": 1.0}, None),
    ("exponential-mechanism", {"epsilon": 1.0}, None),
    ("histogram", {"epsilon": 1.0}, None),
    ("noisy-max-laplace", {"epsilon": 1.0}, None),
    ("noisy-max-exponential", {"epsilon": 1.0}, None),
    ("svt1", {"epsilon": 1.0}, None),
    ("svt2", {"epsilon": 1.0}, None),
    ("float-laplace-safe", {"epsilon": 0.1}, None),
    ("broken-laplace-half-scale", {"epsilon": 1.0}, (2.0, "exact")),
    ("broken-staircase-ratio", {"epsilon": 1.0}, (1.5, "exact")),
    ("broken-staircase-width", {"epsilon": 1.0}, (2.0, "exact")),
    ("randomized-response-wrong", {"epsilon": 1.0}, None),
    ("exponential-mechanism-no-half", {"epsilon": 1.0}, None),
    ("histogram-wrong-scale", {"epsilon": 0.5}, None),
    ("histogram-substitute", {"epsilon": 1.0}, None),
    ("noisy-max-small-noise", {"epsilon": 1.0}, None),
    ("noisy-max-value", {"epsilon": 1.0}, None),
    ("svt3", {"epsilon": 1.0}, None),
    ("svt4", {"epsilon": 1.0}, None),
    ("svt5", {"epsilon": 1.0}, None),
    ("svt6", {"epsilon": 1.0}, None),
    ("float-laplace-naive", {"epsilon": 0.1}, None),
)
QUICK_SAMPLES, FULL_SAMPLES = 100_000, 1_000_000
COLUMNS = ("mechanism", "family", "epsilon_claimed", "epsilon_true", "true_note", "expected",
           "epsilon_lower_bound", "verdict", "ok", "feature", "event", "samples", "seconds")


def truth(name: str, mech: Any, given: tuple[float, str] | None) -> tuple[float, str, str]:
    """(true ε, note, family) of a suite entry."""
    if given is not None:
        return given[0], given[1], "noise (lab)"
    return float(mech.true_epsilon), str(mech.true_note), str(mech.family)


def run(*, samples: int | None = None, rng: Any = 0, quick: bool = False,
        names: Sequence[str] | None = None, workers: int | None = 1, confidence: float = 0.95,
        progress: Callable[[str], Any] | None = None,
        confirm_confidence: float | None = None,
        options: Mapping[str, Any] | None = None) -> list[tuple[dict[str, Any], AuditResult]]:
    """Audit the suite; returns (row, AuditResult) per entry (rows as in :func:`run_suite`).
    ``options``: further :func:`~privlab.audit.audit_pair` keywords for every entry (``bins``:
    ``privlab audit --suite --bins N``)."""
    n = v.positive_int("samples", samples) if samples is not None else \
        (QUICK_SAMPLES if quick else FULL_SAMPLES)
    root = rng if isinstance(rng, np.random.SeedSequence) else np.random.SeedSequence(rng)
    chosen = [e for e in SUITE if names is None or e[0] in names]
    if names is not None:
        unknown = sorted(set(names) - {e[0] for e in SUITE})
        if unknown:
            from privlab.errors import InvalidParameter

            raise InvalidParameter(f"names={unknown!r}: not in the suite")
    out = []
    for i, (name, params, given) in enumerate(chosen):
        idx = [e[0] for e in SUITE].index(name)
        mech = make(name, **params)
        true, note, family = truth(name, mech, given)
        seq = np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, idx))
        if progress:
            progress(f"suite [{i + 1}/{len(chosen)}] {name}")
        t0 = time.perf_counter()
        r = audit_mechanism(mech, samples=n, rng=seq, confidence=confidence, workers=workers,
                            confirm_confidence=confirm_confidence, **(options or {}))
        correct = true <= float(mech.epsilon) * (1 + 1e-9)
        expected = "consistent" if correct else "violation"
        cex = r.counterexample or {}
        row = {"mechanism": name, "family": family, "epsilon_claimed": float(mech.epsilon),
               "epsilon_true": true if math.isfinite(true) else "inf", "true_note": note,
               "expected": expected, "epsilon_lower_bound": round(r.epsilon_lower_bound, 4),
               "verdict": r.verdict, "ok": r.verdict == expected,
               "feature": cex.get("feature"), "event": (cex.get("event") or {}).get("kind"),
               "samples": n, "seconds": round(time.perf_counter() - t0, 2)}
        out.append((row, r))
    return out


def run_suite(*, samples: int | None = None, rng: Any = 0, quick: bool = False,
              names: Sequence[str] | None = None, workers: int | None = 1,
              progress: Callable[[str], Any] | None = None) -> Table:
    """The Table ``audit-suite`` (samples per side: 10⁵ quick, 10⁶ full, unless given;
    ``workers``: local processes, 1 unless asked, ``None`` all cores)."""
    rows = [row for row, _ in run(samples=samples, rng=rng, quick=quick, names=names,
                                  workers=workers, progress=progress)]
    n = rows[0]["samples"] if rows else samples
    return Table(
        id="audit-suite", source="privlab auditor control suite (computed)", columns=COLUMNS,
        rows=tuple(rows),
        notes=(f"{n} outputs per side per neighbour pair, confidence 0.95 (Bonferroni over the "
               "pairs of each mechanism); epsilon_lower_bound holds with probability >= 0.95.",
               "epsilon_true: 'exact' closed form, 'upper bound' from the cited analysis (the "
               "real loss may be lower), 'infinite' (as queries grow: finite for the 10 "
               "queries audited).",
               "ok: correct mechanisms (true <= claimed) must come out consistent, broken ones "
               "violation.",
               "Floating-point controls are audited with the low-bit features "
               "(float_bits=True); the lab's other float mechanisms are audited on their law."))
