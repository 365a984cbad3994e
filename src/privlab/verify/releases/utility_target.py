"""What would meet a requested error: the smallest k at the requested ε, and the smallest ε at
the requested k, for which the release is certified and the relative error of its mean
(:mod:`privlab.verify.releases.utility`, max over the numerical attributes) is at most R.

The error is not monotone in k (the last cluster absorbs the remainder, so Σ_C |C|² jumps;
the scale rules move with k: vldb14 s = (n/k)·m/(kε), thesis/irm s = m/(kε)), so k is scanned
in increasing order over every admissible k.  Each k is first screened with the continuous
law (:attr:`Planner.quick`: a value ≤ the exact error·(1 + :data:`SLACK`) + :data:`ABS_SLACK`)
and a lower bound on the certified ε (:attr:`Planner.floor`), then computed with the
release's own noise law (:attr:`Planner.error`) and, when it meets R, checked with its
certificate (:attr:`Planner.certify`); the first k that passes is the answer.  At most
:data:`MAX_CHECKS` certificates are computed (said so when the search stops there).

At fixed k the error falls as ε grows when the scale is a source's rule (s ∝ 1/ε, so the
certified ε is a fixed multiple of ε: certified at every ε or at none); the smallest ε is
found by bisection on the exact error (60 halvings of a bracket in log ε), rounded up to 3
significant digits and re-checked with the certificate.  With a numerical ``--noise-scale``
the noise does not depend on ε: the smallest ε is the certified ε of the configuration when it
meets the error, else there is none.

:func:`calibrated_scale`: the smallest scale per unit of range certified at the requested k
and ε — what the source's rule should have been; the utility warns when the rule's scale is
more than twice it (e.g. the vldb14 rule on one attribute: n/k times too much noise).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from privlab.errors import InvalidParameter
from privlab.types import Neighbour

__all__ = ["ABS_SLACK", "MAX_CHECKS", "SLACK", "Planner", "calibrated_scale", "meet_target",
           "quick_error", "structural_leak"]

SLACK = 1e-3
"""Relative slack of the continuous screen (the discrete law differs by ~1e-6 relative)."""
ABS_SLACK = 2.0**-30
"""Absolute slack of the screen (a grid coarser than the noise: both errors are ~2^-44)."""
MAX_CHECKS = 64
"""Exact checks (law + certificate) at most per search."""


def quick_error(widths: Sequence[float], s: float, n: int, ss: int, clamp: bool) -> float:
    """The continuous law's relative error of the mean (utility module docstring): max over
    attributes of √(σ'²·ss/n² + β²)/Δ with σ = √2·s·Δ, σ' = σ unclamped, min(σ, Δ/2)
    clamped, β = (b/2)(1 − e^{−Δ/b}) clamped, b = s·Δ; it does not depend on Δ, so
    ``widths`` only says how many attributes there are."""
    if not widths:
        return 0.0
    sd = math.sqrt(2) * s
    beta = -s / 2 * math.expm1(-1 / s) if clamp else 0.0
    return math.hypot((min(sd, 0.5) if clamp else sd) * math.sqrt(ss) / n, beta)


def structural_leak(cfg: Any) -> bool:
    """Whether :func:`privlab.verify.releases.certificate.leak_pair` finds a leak, without
    building its data sets (O(1); tested to agree with it)."""
    if cfg.neighbour is Neighbour.ADD_REMOVE:
        return True
    if cfg.microaggregation == "none" or cfg.k < 2 or cfg.n < 2 * cfg.k or cfg.noise != "shared":
        return False
    return cfg.rows == "aligned" or (cfg.microaggregation == "individual-ranking"
                                     and cfg.attributes >= 2)


@attrs.frozen(kw_only=True)
class Planner:
    """How one release is re-planned at another (k, ε)."""

    k: int
    epsilon: float
    ks: Sequence[int]
    """The admissible k in increasing order (``range(1, n + 1)``; ``(1,)`` without
    microaggregation)."""
    scale_depends_on_epsilon: bool
    floor: Callable[[int, float], float | None]
    """A lower bound on the certified ε (None: a structural leak, no ε): a k whose floor
    exceeds ε cannot be certified."""
    quick: Callable[[int, float], float]
    """Continuous screen: ≤ the exact error·(1 + SLACK) + ABS_SLACK."""
    error: Callable[[int, float], float]
    """The relative error of the mean with the release's own noise law."""
    certify: Callable[[int, float], tuple[bool, float | None]]
    """(the certificate holds at ε, the certified ε)."""
    scale: float
    """The scale per unit of range of the requested configuration."""
    at_scale: Callable[[float], tuple[float, bool, float | None]]
    """At the requested k and ε with a numerical scale per unit s: (error, holds, certified ε)."""


def _error(p: Planner, k: int, e: float) -> float:
    """The exact error, ∞ where the configuration cannot be planned (a grid or an integer
    rate outside what the exact sampler represents: extreme ε or scale)."""
    try:
        return p.error(k, e)
    except InvalidParameter:
        return math.inf


def _at_scale(p: Planner, s: float) -> tuple[float, bool, float | None]:
    try:
        return p.at_scale(s)
    except InvalidParameter:
        return math.inf, False, None


def _up3(x: float) -> float:
    """x rounded up to 3 significant digits."""
    e = math.floor(math.log10(x)) - 2
    return float(f"{math.ceil(x / 10.0 ** e - 1e-9) * 10.0 ** e:.3g}")


def _down3(x: float) -> float:
    """The 3-significant-digit number just below x (x with 3 significant digits)."""
    e = math.floor(math.log10(x)) - 2
    m = round(x / 10.0 ** e) - 1
    if m == 99:  # 100·10^e − one step of the third digit below it is 99.9·10^e
        return float(f"{999 * 10.0 ** (e - 1):.3g}")
    return float(f"{m * 10.0 ** e:.3g}")


def smallest_k(p: Planner, r: float) -> dict[str, Any]:
    """The smallest admissible k certified at the requested ε whose error is ≤ r."""
    checks = 0
    for k in p.ks:
        f = p.floor(k, p.epsilon)
        if f is None or f > p.epsilon or p.quick(k, p.epsilon) > r * (1 + SLACK) + ABS_SLACK:
            continue
        err = _error(p, k, p.epsilon)
        if err > r:
            continue
        if checks == MAX_CHECKS:
            return {"k": None, "epsilon": p.epsilon, "why": f"search stopped after "
                    f"{MAX_CHECKS} certificate checks, at k = {k}"}
        checks += 1
        holds, cert = p.certify(k, p.epsilon)
        if holds:
            return {"k": k, "epsilon": p.epsilon, "mean_relative_error": err,
                    "certified_epsilon": cert}
    if len(p.ks) == 1:
        why = "k is fixed at 1 (no microaggregation)"
    else:
        why = f"no k in 1..{p.ks[-1]} is certified at ε = {p.epsilon:g} and meets it"
    return {"k": None, "epsilon": p.epsilon, "why": why}


def smallest_epsilon(p: Planner, r: float) -> dict[str, Any]:
    """The smallest ε (3 significant digits, rounded up) at the requested k that is
    certified and whose error is ≤ r."""
    k = p.k
    holds0, cert0 = p.certify(k, p.epsilon)
    if cert0 is None:
        return {"k": k, "epsilon": None, "why": "no ε can be certified for this configuration"}
    if not p.scale_depends_on_epsilon:
        err0 = _error(p, k, p.epsilon)
        if err0 > r:
            return {"k": k, "epsilon": None, "why": "with a numerical --noise-scale the noise "
                    "does not depend on ε; lower --noise-scale or raise --k"}
        return {"k": k, "epsilon": cert0, "mean_relative_error": err0,
                "certified_epsilon": cert0}

    if not holds0:
        return {"k": k, "epsilon": None, "why": f"not certified at ε = {p.epsilon:g} (certified "
                f"ε {cert0:.6g}); the scale rule is ∝ 1/ε, so the certified ε is "
                f"{cert0 / p.epsilon:.6g}× the requested one at every ε"}

    def ok(e: float) -> bool:  # both are monotone in ε: error falls, ε_written/ε falls
        return _error(p, k, e) <= r and p.certify(k, e)[0]

    lo = hi = p.epsilon
    if ok(hi):
        for _ in range(64):
            lo /= 2
            e_lo = _error(p, k, lo)
            if math.isinf(e_lo):
                return {"k": k, "epsilon": None, "why": f"met at every ε down to {2 * lo:g} "
                        "(below, the noise cannot be planned on a grid)"}
            if e_lo > r or not p.certify(k, lo)[0]:
                break
        else:
            return {"k": k, "epsilon": None, "why": f"met at every ε down to {lo:g} (clamped "
                    "values cannot be off by more than the range)"}
    else:
        for _ in range(64):
            lo, hi = hi, hi * 2
            if ok(hi):
                break
        else:
            return {"k": k, "epsilon": None, "why": f"not met for any ε up to {hi:g} (the "
                    "grid's rounding bounds the error from below)"}
    for _ in range(60):
        mid = math.sqrt(lo * hi)
        if ok(mid):
            hi = mid
        else:
            lo = mid
    best = _up3(hi)
    if not ok(best):
        best = hi
    holds, cert = p.certify(k, best)
    if not holds:
        return {"k": k, "epsilon": None, "why": f"the configuration is not certified at "
                f"ε = {best:g} (certified ε {cert})"}
    return {"k": k, "epsilon": best, "mean_relative_error": _error(p, k, best),
            "certified_epsilon": cert}


def calibrated_scale(p: Planner) -> dict[str, Any]:
    """The smallest scale per unit of range (3 significant digits, rounded up) certified at
    the requested k and ε.  The certified ε is A/s + C (C: parts that do not depend on the
    noise scale, e.g. categorical attributes): A and C from the certificates at s and 2s, the
    first guess A/(ε − C), raised by 2^−16 steps until the certificate holds, then rounded up
    to 3 digits and lowered by steps of the third digit while the certificate holds."""
    _, cert = p.certify(p.k, p.epsilon)
    if cert is None:
        return {"scale_per_unit": None, "why": "no ε can be certified for this configuration "
                "(structural leak): no noise scale helps"}
    s0 = p.scale
    e1 = _at_scale(p, s0)[2]
    e2 = _at_scale(p, 2 * s0)[2]
    if e1 is None or e2 is None:
        return {"scale_per_unit": None, "why": "the scale cannot be planned near "
                f"{s0:g} per unit of range"}
    a, c = 2 * s0 * (e1 - e2), 2 * e2 - e1
    if a <= 0 or c >= p.epsilon:
        return {"scale_per_unit": None, "why": f"the part of ε that does not depend on the "
                f"noise scale ({c:.6g}) is not below ε = {p.epsilon:g}: no scale helps"}
    s = a / (p.epsilon - c)
    for _ in range(64):
        err, holds, ce = _at_scale(p, s)
        if holds:
            break
        s *= 1 + 2.0**-16
    else:  # pragma: no cover - ε = A/s + C up to the grid's rounding: a few steps suffice
        return {"scale_per_unit": None, "why": "not found in 64 steps"}
    s3 = _up3(s)
    e3, h3, c3 = _at_scale(p, s3)
    if h3:
        s, err, ce = s3, e3, c3
        for _ in range(16):  # the guess may overshoot by a digit: step down while it holds
            lower = _down3(s)
            e3, h3, c3 = _at_scale(p, lower)
            if not h3:
                break
            s, err, ce = lower, e3, c3
    return {"scale_per_unit": s, "epsilon": p.epsilon, "certified_epsilon": ce,
            "mean_relative_error": err, "requested_scale_per_unit": p.scale,
            "certified_epsilon_requested": cert, "noise_ratio": p.scale / s,
            "formula": "smallest s (3 significant digits) with the certificate holding at ε; "
                       "certified ε = A/s + C"}


def meet_target(p: Planner, r: float, cal: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``target`` entry of the utility: the current error, whether it meets ``r``, the
    smallest k at the requested ε, the smallest ε at the requested k, and whether the
    calibrated scale (``cal``, :func:`calibrated_scale`) meets it."""
    err = _error(p, p.k, p.epsilon)
    sk, se = smallest_k(p, r), smallest_epsilon(p, r)
    cal = calibrated_scale(p) if cal is None else cal
    parts = []
    if cal["scale_per_unit"] is not None and cal["mean_relative_error"] <= r:
        parts.append(f"--noise-scale {cal['scale_per_unit']:g} meets it at k = {p.k}, "
                     f"ε = {p.epsilon:g}")
    if sk["k"] is not None:
        parts.append(f"--k {sk['k']} meets it at ε = {sk['epsilon']:g} (certified ε "
                     f"{sk['certified_epsilon']:.3g})")
    if se["epsilon"] is not None:
        parts.append(f"--epsilon {se['epsilon']:g} meets it at k = {se['k']} (certified ε "
                     f"{se['certified_epsilon']:.3g})")
    advice = "; ".join(parts) if parts else (f"no k at ε = {p.epsilon:g} ({sk['why']}) and no "
                                            f"ε at k = {p.k} ({se['why']}) meets it")
    return {"max_relative_error": r, "metric": "mean_relative_error: root mean square error "
            "of the released mean over the range, max over the numerical attributes",
            "value": err, "met": err <= r, "smallest_k": sk, "smallest_epsilon": se,
            "calibrated_scale_meets_it": (cal["scale_per_unit"] is not None
                                          and cal["mean_relative_error"] <= r),
            "advice": advice,
            "method": "k scanned in increasing order (continuous-law screen, then the "
                      "release's own law and certificate); ε by bisection at fixed k, "
                      "re-checked with the certificate (privlab.verify.releases."
                      "utility_target)"}
