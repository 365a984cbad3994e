"""Audit of data-set-valued releases (microaggregation + noise) with the public auditor.

A release configuration (:class:`privlab.verify.releases.certificate.ReleaseConfig`) is run on an
adversarial neighbour pair: the structural-leak pair of
:func:`~privlab.verify.releases.certificate.leak_pair` when there is one, otherwise records on the
domain diagonal with record 0 moved to the opposite corner (it crosses every cluster boundary,
so every cluster changes by one record).  Each sampled release is mapped to features of the
table as a whole: per-column sums, order statistics of column 0, the number of distinct rows
(tie pattern), whether rows 0 and 1 are equal, and the smallest multiplicity of a row.  An
event of probability 1 vs 0 is reported by the auditor as a structural leak (ε = ∞).
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np

from privlab.audit import AuditResult, audit_pair
from privlab.mechanisms.releases.numerical import DPRelease
from privlab.verify.releases.certificate import ReleaseConfig, leak_pair

__all__ = ["adversarial_pair", "audit_dp_release", "certified_epsilon", "release_features"]


def release_features(out: np.ndarray) -> np.ndarray:
    """(T, n, m) releases → (T, d) features (module docstring)."""
    t, n, m = out.shape
    rows = out.reshape(t, n, m)
    eq = (rows[:, :, None, :] == rows[:, None, :, :]).all(axis=-1)   # (t, n, n)
    mult = eq.sum(axis=2)
    first = np.argmax(eq, axis=2)                                     # first equal row
    distinct = (first == np.arange(n)).sum(axis=1)
    feats = [rows.sum(axis=1), np.sort(rows[:, :, 0], axis=1),
             distinct[:, None], (rows[:, 0] == rows[:, 1]).all(axis=1)[:, None] if n > 1
             else np.zeros((t, 1)), mult.min(axis=1)[:, None]]
    return np.concatenate([np.asarray(f, dtype=float).reshape(t, -1) for f in feats], axis=1)


def adversarial_pair(cfg: ReleaseConfig) -> tuple[np.ndarray, np.ndarray, str]:
    leak = leak_pair(cfg)
    if leak is not None:
        return np.array(leak["x"], float), np.array(leak["x_prime"], float), leak["event"]
    n, m = cfg.n, cfg.attributes
    x = np.repeat((np.arange(n) / n)[:, None], m, axis=1)
    xp = x.copy()
    xp[0] = 1.0
    return x, xp, "record 0 moved from the lower to the upper domain corner"


def certified_epsilon(cfg: ReleaseConfig) -> float | None:
    """The ε the lab's certificate establishes for ``cfg`` (None: no finite ε)."""
    from privlab.verify.releases.certificate import certify_dp_release

    cert = certify_dp_release(cfg.microaggregation, cfg.noise_scale, cfg.n, cfg.k, cfg.epsilon,
                              cfg.attributes, cfg.noise, cfg.rows, cfg.neighbour)
    return None if cert.certified_epsilon is None else float(cert.certified_epsilon)


def audit_dp_release(cfg: ReleaseConfig, *, samples: int = 20000, rng: Any = None,
                     confidence: float = 0.95, claimed_epsilon: float | None = None,
                     **kw: Any) -> AuditResult:
    """Audit one configuration on its adversarial pair.

    The claim judged is ``claimed_epsilon``, by default the ε the user asked for
    (``cfg.epsilon``), never silently the lab's certified ε: a configuration certified at
    ε = 9 but run with ``epsilon=1`` is a violation as soon as the bound exceeds 1.  The
    certificate's ε is reported beside it (``certified_epsilon``).  Other keywords go to
    :func:`privlab.audit.audit_pair` (e.g. ``confirm_confidence``).
    """

    x, xp, why = adversarial_pair(cfg)
    # The configuration's law (the continuous Laplace of the papers); the float safety of what
    # ``privlab release`` writes is the grid noise's (tests/mechanisms/test_release_float_safe).
    rel = DPRelease(microaggregation=cfg.microaggregation, k=cfg.k, epsilon=cfg.epsilon,
                    noise_scale=cfg.noise_scale, noise=cfg.noise, rows=cfg.rows,
                    noise_mode="fast")
    bounds = [0.0, 1.0]

    def sampler(data: np.ndarray) -> Any:
        def s(t: int, rng: Any) -> np.ndarray:
            if len(data) != cfg.n:  # add/remove: the row count is itself released
                r2 = DPRelease(microaggregation=rel.microaggregation, k=min(cfg.k, len(data)),
                               epsilon=cfg.epsilon, noise_scale=float(
                                   cfg.scale_per_unit), noise=cfg.noise, rows=cfg.rows,
                               noise_mode="fast")
                out = r2.sample(data, bounds, t, rng=rng)
                f = release_features(out)
                return np.concatenate([np.full((t, 1), len(data)), f[:, :1]], axis=1)
            out = rel.sample(data, bounds, t, rng=rng)
            f = release_features(out)
            if cfg.neighbour.name == "ADD_REMOVE":
                return np.concatenate([np.full((t, 1), len(data)), f[:, :1]], axis=1)
            return f
        return s

    claimed = float(cfg.epsilon) if claimed_epsilon is None else float(claimed_epsilon)
    res = audit_pair(sampler(x), sampler(xp), samples=samples, confidence=confidence,
                     claimed_epsilon=claimed, rng=rng, name=f"dp-release {why}",
                     neighbours=[x.tolist(), xp.tolist()], **kw)
    return attrs.evolve(res, certified_epsilon=certified_epsilon(cfg))
