"""Auditing ℝ^d-valued shell noise (thesis §4.5) through a likelihood-ratio feature.

The auditor samples the mechanism as a black box on two neighbouring query answers x0, x1
(x1 − x0 ∈ S_f) and maps each output y to L(y) = log f(y − x0) − log f(y − x1) computed from
the mechanism's density: a fixed *feature map* (issue 8), so the lower bound stays sound — the
level sets {L ≥ t} are the most powerful events by Neyman–Pearson.  ±∞ (support differences) is
clipped to ±60 so that structural leaks become an atom the auditor sees, and L is rounded to
``digits`` decimals so that the audit tests the mathematical mechanism, not the rounding
pattern of float arithmetic (pass ``digits=None`` to expose it — the Mironov-2012 leak).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from privlab._rng import RngLike
from privlab.audit.auditor import AuditResult, audit_pair

CLIP = 60.0


def lr_feature(mech: Any, x0: Sequence[float] | np.ndarray,
               x1: Sequence[float] | np.ndarray, *,
               digits: int | None = 9) -> Callable[[np.ndarray], np.ndarray]:
    """y ↦ log f(y − x0) − log f(y − x1), clipped to ±60 and rounded to ``digits``."""
    a, b = np.asarray(x0, dtype=float), np.asarray(x1, dtype=float)

    def lr(y: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore"):
            v = mech.logpdf(y - a) - mech.logpdf(y - b)
        v = np.clip(np.nan_to_num(v, nan=0.0, posinf=CLIP, neginf=-CLIP), -CLIP, CLIP)
        return v if digits is None else np.round(v, digits)

    return lr


def audit_shift(mech: Any, x0: Sequence[float], x1: Sequence[float], *, samples: int,
                claimed_epsilon: float | None = None, confidence: float = 0.95,
                rng: RngLike = None, digits: int | None = 9, name: str | None = None,
                progress: Any = None, **kw: Any) -> AuditResult:
    """Audit additive ℝ^d noise ``mech`` (``sample(n, rng=)``, ``logpdf``) on x0 vs x1
    (other keywords, e.g. ``confirm_confidence``, go to :func:`audit_pair`)."""
    a, b = np.asarray(x0, dtype=float), np.asarray(x1, dtype=float)
    f = lr_feature(mech, a, b, digits=digits)
    return audit_pair(lambda n, g: f(a + mech.sample(n, rng=g)),
                      lambda n, g: f(b + mech.sample(n, rng=g)), samples=samples,
                      claimed_epsilon=(float(mech.epsilon) if claimed_epsilon is None
                                       else claimed_epsilon),
                      confidence=confidence, rng=rng, name=name or str(mech.name),
                      neighbours=[a.tolist(), b.tolist()], progress=progress, **kw)
