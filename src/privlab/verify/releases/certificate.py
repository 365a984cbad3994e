"""Certification of DP data releases through microaggregation (thesis §6.3, vldb14 §4, irm §3).

Units: every attribute j has a declared range Δ_j; the Laplace scale on attribute j is
``s · Δ_j`` where s is the *scale per unit of range*.  The sources' scales, with m attributes:
thesis §6.3.1 Δ(I_r)/(kε) with Δ(I_r) = Σ_j Δ_j → s = m/(kε); vldb14 §4 (n/k)·Δ/(kε) →
s = (n/k)·m/(kε); irm Algorithm 1 m·Δ_j/(kε) → s = m/(kε).  A release whose released
quantity has L1 sensitivity S (in units of range) under the neighbour relation is
(S/s)-DP (Laplace mechanism); a release with an output event of probability 1 under one data set
and 0 under a neighbour is not ε-DP for any ε (``certified_epsilon = None``).

What is released, and the sound bound on S used (q = ⌊n/k⌋ clusters, sizes fixed by n):

* add/remove neighbours: every configuration releases exactly n rows, so the event
  "n rows" separates neighbours → no guarantee.
* shared noise (one draw per cluster, copied to its rows), aligned rows (row i = record i),
  k ≥ 2, n ≥ 2k: equal rows ⟺ same cluster, so the partition of record indices is released;
  it changes between neighbours → no guarantee.
* individual ranking, shared noise, m ≥ 2 (aligned or shuffled): a row repeats another row iff
  the two records share their cluster in every attribute; the pattern changes → no guarantee.
* insensitive MDAV (one fixed total order, Prop. 6/7: each cluster changes by ≤ 1 record),
  shared noise, shuffled rows: the output is post-processing of the list of q noisy centroids;
  each centroid moves by ≤ m/k in L1 → S ≤ q·m/k.  For m = 1 the order is the numerical one
  and the monotone-shift argument below gives S ≤ 1/k.
* individual ranking (or m = 1), shared, shuffled, m = 1: monotone shift — replacing x by
  x' ≥ x makes every order statistic weakly larger, their total increase is x' − x ≤ 1, so the
  cluster sums change by non-negative amounts summing to ≤ 1 and Σ_i |Δc_i| ≤ 1/k (irm Lemma 1).
* per-record noise, shuffled: post-processing of the cluster-ordered n-row vector.  IR: per
  attribute Σ_i |C_i|·|Δc_i| = Σ_i ΔSum_i ≤ 1 for m = 1; for m ≥ 2 rows link attributes, the
  aligned bound applies.  Insensitive MDAV: Σ_i |C_i|·m/|C_i| = q·m.
* per-record noise, aligned: a record changes cluster only at a cluster boundary (≤ q records
  per attribute, each by ≤ 1); the others move with their centroid (Σ ≤ 1 per attribute for
  IR, ≤ m per cluster for MDAV).  IR: S ≤ m·(q + 1); MDAV: S ≤ 2·q·m; both capped at n·m.
* no microaggregation (k = 1): S = m (one record changes by at most its range in each attr).

What is *written* (:func:`certify_release` with the release's ``noise_mode``): in the default
safe mode the noise is exact integer noise on a power-of-two grid
(:class:`~privlab.mechanisms.releases.grid.GridNoise`), and the ε of the written values is
ε_written = max_j(γ_j Δ_j/Λ_j)·S + SLACK·Σ_j γ_j·N_j (rounding of the centroids to the grid and
their float error add at most SLACK grid units per changed coordinate; N_j = 1 for k = 1, q for
shared noise, n for per-record noise), computed exactly; the certificate's ε is that one.  In
fast mode (float Laplace) the law is (S/s)-DP but the written doubles are not ε-DP for any ε
(Mironov 2012): the certificate says ``float_safe: false`` and warns.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import attrs

from privlab.mechanisms.releases.config import (
    MICROAGGREGATIONS,
    NOISE_SCALES,
    ReleaseConfig,
)
from privlab.types import Neighbour

__all__ = ["MICROAGGREGATIONS", "NOISE_SCALES", "ReleaseCertificate", "ReleaseConfig",
           "certify_dp_release", "certify_release", "leak_pair"]

@attrs.frozen(kw_only=True)
class ReleaseCertificate:
    """The guarantee the lab establishes for a :class:`ReleaseConfig`."""

    config: ReleaseConfig
    certified_epsilon: float | None
    reason: str
    argument: str
    sensitivity: float | None = None
    counterexample: dict[str, Any] | None = None
    exact: dict[str, Any] | None = None
    noise: dict[str, Any] | None = None
    """How the noise of the written file is drawn (:func:`certify_release`); None: the law only."""
    written_epsilon: Fraction | None = None
    """Safe mode: the exact ε of the written values (``certified_epsilon`` is it, rounded up)."""

    @property
    def holds(self) -> bool:
        """The requested ε is established (exactly, for the written values in safe mode)."""
        if self.written_epsilon is not None:
            return self.written_epsilon <= Fraction(self.config.epsilon)
        return (self.certified_epsilon is not None
                and self.certified_epsilon <= self.config.epsilon * (1 + 1e-12))

    def to_dict(self) -> dict[str, Any]:
        out = {"mechanism": "dp-release", "parameters": self.config.to_dict(),
               "certified_epsilon": self.certified_epsilon, "requested_epsilon":
               self.config.epsilon, "holds": self.holds, "reason": self.reason,
               "argument": self.argument, "sensitivity_units": self.sensitivity,
               "counterexample": self.counterexample, "exact": self.exact}
        if self.noise is not None:
            out["noise"] = self.noise
            out["float_safe"] = bool(self.noise.get("float_safe"))
        if self.written_epsilon is not None:
            out["written_epsilon_exact"] = str(self.written_epsilon)
        return out


def leak_pair(cfg: ReleaseConfig) -> dict[str, Any] | None:
    """A neighbour pair and an event of probability 1 vs 0, or None if there is no such leak.

    Data sets are in units ([0, 1] per attribute); records on the diagonal make every total
    order used (distance to either corner, per-attribute rank) list them by index.
    """
    n, k, m = cfg.n, cfg.k, cfg.attributes
    diag = [[round(i / n, 12)] * m for i in range(n)]
    if cfg.neighbour is Neighbour.ADD_REMOVE:
        return {"x": diag, "x_prime": diag[:-1],
                "event": f"the released table has {n} rows",
                "p_x": 1.0, "p_x_prime": 0.0}
    if cfg.microaggregation == "none" or k < 2 or n < 2 * k or cfg.noise != "shared":
        return None
    if cfg.rows == "aligned":
        xp = [[1.0] * m, *diag[1:]]
        return {"x": diag, "x_prime": xp, "event": "released row 0 equals released row 1",
                "p_x": 1.0, "p_x_prime": 0.0,
                "why": "rows 0 and 1 share the first cluster in x; in x' record 0 is last in "
                       "the order and record 1 first, so they lie in different clusters"}
    if cfg.microaggregation == "individual-ranking" and m >= 2:
        xp = [[0.0] + [1.0] * (m - 1), *diag[1:]]
        return {"x": diag, "x_prime": xp,
                "event": "every released row equals at least one other released row",
                "p_x": 1.0, "p_x_prime": 0.0,
                "why": "in x all attributes induce the same partition, so rows repeat in "
                       "groups of >= k; in x' record 0 is first in attribute 1 and last in "
                       "attribute 2, a combination no other record shares"}
    return None


def certify_dp_release(microaggregation: str, noise_scale: str | float, n: int, k: int,
                       epsilon: float, attributes: int = 1, noise: str = "shared",
                       rows: str = "shuffled",
                       neighbour: Neighbour | str = Neighbour.SUBSTITUTE,
                       exact: bool = False) -> ReleaseCertificate:
    """The smallest ε the lab can establish for the configuration (module docstring).

    ``exact=True`` adds an exhaustive sensitivity computation on a small grid of data sets
    (:func:`privlab.verify.releases.exact.exact_sensitivity`) when n·m is small.
    """
    cfg = ReleaseConfig(microaggregation=microaggregation, noise_scale=noise_scale, n=n, k=k,
                        epsilon=epsilon, attributes=attributes, noise=noise, rows=rows,
                        neighbour=neighbour)
    leak = leak_pair(cfg)
    if leak is not None:
        return ReleaseCertificate(
            config=cfg, certified_epsilon=None, counterexample=leak,
            reason=f"structural leak: the event '{leak['event']}' has probability 1 on x and "
                   "0 on the neighbour x' (ε = ∞)",
            argument="explicit neighbour pair (verify.dp_release_cert.leak_pair); replayed by "
                     "the release audit")
    s_bound, argument = _sensitivity_bound(cfg)
    eps = s_bound / cfg.scale_per_unit
    ex = None
    if exact:
        from privlab.verify.releases.exact import exact_sensitivity

        ex = exact_sensitivity(cfg)
    return ReleaseCertificate(
        config=cfg, certified_epsilon=eps, sensitivity=s_bound, argument=argument, exact=ex,
        reason=(f"L1 sensitivity of the released quantity <= {s_bound:g} units of range; "
                f"Laplace scale {cfg.scale_per_unit:g} per unit gives ε = {eps:g}"
                + ("" if eps <= cfg.epsilon * (1 + 1e-12) else
                   f" > requested {cfg.epsilon:g}")))


def _sensitivity_bound(cfg: ReleaseConfig) -> tuple[float, str]:
    n, k, m, q = cfg.n, cfg.k, cfg.attributes, cfg.clusters
    micro = cfg.microaggregation
    if micro == "none" or k == 1:
        return float(m), "k = 1: one record changes by at most its range in each attribute"
    univariate = micro == "individual-ranking" or m == 1
    if cfg.noise == "shared":  # shuffled (aligned leaks unless a single cluster)
        if q == 1:
            return m / n, "single cluster of n records: its mean moves by <= m/n"
        if univariate and m == 1:
            return 1.0 / k, ("monotone shift: order statistics move one way by a total <= 1, "
                             "so the centroid list moves by <= 1/k (irm Lemma 1)")
        return q * m / k, ("insensitivity (Prop. 6/7): each of the q clusters changes by <= 1 "
                           "record, each centroid by <= m/k in L1 (vldb14 §4 argument)")
    if cfg.rows == "shuffled" and univariate and m == 1:
        return 1.0, ("per-record noise: cluster-ordered row vector; cluster sums move one "
                     "way by a total <= 1")
    if micro == "individual-ranking" or m == 1:
        return float(min(m * (q + 1), n * m)), (
            "per-record noise: <= q records per attribute change cluster (<= 1 each), the "
            "others move with their centroid (total <= 1 per attribute)")
    if cfg.rows == "shuffled":
        return float(min(q * m, n * m)), "per-record noise: Σ_i |C_i|·(m/|C_i|) = q·m"
    return float(min(2 * q * m, n * m)), (
        "per-record noise, aligned: per cluster <= m for the stayers and <= m for the newcomer")


FAST_WARNING = ("noise_mode=fast: float Laplace noise; the written doubles carry the "
                "centroids' low-order bits, so the file is not ε-DP for any ε (Mironov 2012, "
                "docs/threat-model.md). The ε above is that of the continuous law only.")


def changed_coordinates(cfg: ReleaseConfig) -> int:
    """N: how many released coordinates of one attribute a neighbour can change (k = 1: one
    record; shared noise: every cluster's centroid; per-record noise: every row)."""
    if cfg.microaggregation == "none" or cfg.k == 1:
        return 1
    return cfg.clusters if cfg.noise == "shared" else cfg.n


def _round_up(x: Fraction) -> float:
    f = float(x)
    return f if Fraction(f) >= x else math.nextafter(f, math.inf)


def grid_unit_checks(grid: Any) -> list[dict[str, Any]]:
    """The exact checker of the safe law (:func:`~privlab.mechanisms.noise.safe.
    check_discrete_dp`, exhaustive with Fractions) on each attribute's integer noise: the worst
    log pmf(y) − log pmf(y ± 1) must be exactly γ_j, the rate per grid unit that ε_written
    charges for every grid unit an index moves."""
    from privlab.mechanisms.noise.safe import DiscreteNoise, check_discrete_dp

    out = []
    for j, (g, lam) in enumerate(zip(grid.rate, grid.granularity, strict=True)):
        law = DiscreteNoise(kind="laplace", mechanism=f"release grid noise, attribute {j}",
                            epsilon=float(g), epsilon_prime=g, granularity=lam, K=1)
        res = check_discrete_dp(law)
        out.append({"attribute": j, "worst_log_ratio_per_grid_unit": str(res.value),
                    "rate_per_grid_unit": str(g), "equals_rate": res.value == g,
                    "method": str(res.method.value)})
    return out


def certify_release(release: Any, n: int, m: int,
                    neighbour: Neighbour | str = Neighbour.SUBSTITUTE, *,
                    bounds: Any = None) -> ReleaseCertificate:
    """The certificate of a configured
    :class:`~privlab.mechanisms.releases.numerical.DPRelease` on an n × m table with domains
    ``bounds`` (the orchestration of a release and its certificate lives here and in the
    commands, above both the mechanism and the checker).

    Safe mode (the default) needs ``bounds``: the grid and the exact ε of the written values
    (module docstring) replace the law's ε.  Without ``bounds`` the law alone is certified."""
    c = release.config(n, m, neighbour)
    cert = certify_dp_release(c.microaggregation, c.noise_scale, n, c.k, c.epsilon, m,
                              c.noise, c.rows, neighbour)
    mode = getattr(release, "noise_mode", "fast")
    if mode == "fast":
        return attrs.evolve(cert, noise={"implementation": "float Laplace (numpy "
                                         "Generator.laplace times the scale)",
                                         "float_safe": False, "warning": FAST_WARNING})
    if bounds is None:
        return cert
    grid = release.grid(bounds, n)
    checks = grid_unit_checks(grid)
    noise = {**grid.to_dict(), "law_epsilon": cert.certified_epsilon,
             "changed_coordinates_per_attribute": changed_coordinates(c),
             "exact_check": checks}
    if cert.certified_epsilon is None or cert.sensitivity is None:
        return attrs.evolve(cert, noise=noise)
    eps = grid.written_epsilon(cert.sensitivity, changed_coordinates(c))
    noise["written_epsilon"] = str(eps)
    ok = eps <= Fraction(c.epsilon) and all(ch["equals_rate"] for ch in checks)
    return attrs.evolve(
        cert, noise=noise, written_epsilon=eps, certified_epsilon=_round_up(eps),
        reason=(f"{cert.reason}; written on a power-of-two grid with exact integer noise: "
                f"ε of the written values = {float(eps):.9g} (exact {eps})"
                + ("" if ok else f" > requested {c.epsilon:g}")))


def recheck_written(data: bytes, columns: Any, grid: Any, clamp: bool) -> dict[str, Any]:
    """Re-read the CSV bytes about to be written and check that every value of every released
    column is a grid point of its attribute (or a clamping bound): the property the safe-mode
    ε rests on, checked on the file's own text.  Raises ``AssertionError`` (a bug, never user
    input) when a value is off the grid, so nothing is written."""
    import csv
    import io

    import numpy as np

    rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
    header, body = rows[0], rows[1:]
    checked = 0
    for j, name in enumerate(columns):
        col = header.index(name)
        vals = np.array([float(r[col]) for r in body])
        ok = grid.on_grid(j, vals, clamp)
        if not ok.all():
            bad = vals[~ok][0]
            raise AssertionError(f"written value {bad!r} of column {name!r} is off the grid "
                                 f"{grid.granularity[j]!r}")
        checked += vals.size
    return {"values_on_grid": True, "checked_values": checked,
            "what": "every written value re-read from the file's text is a grid point "
                    "(or a clamping bound)"}
