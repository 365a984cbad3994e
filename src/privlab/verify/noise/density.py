"""Exact structure of univariate noise densities, and two checks on it (thesis §4.2–4.4).

A noise law exposes its density exactly (see :mod:`privlab.mechanisms.noise._base`):

* ``log_pieces(lo, hi)`` — log f(x) = c + s·x on open intervals (lo, hi), mpmath numbers at the
  caller's precision; f = 0 where no piece lies;
* ``tail()`` — ``Tail(start, period)``: f(x + P)/f(x) = ρ₊ for x ≥ start and
  f(x − P)/f(x) = ρ₋ for x ≤ −start (constants).

The helpers below read that structure at a stated precision (``dps`` decimal digits), merge
adjacent pieces carrying the same log-linear function, and *check* the tail contract on three
consecutive periods on each side (ρ is read off, not assumed).  The contract itself — that the
pattern repeats for ever — is the distribution's promise; every checker states that it relies
on it.  Two quantities are considered equal when they differ by less than 10^(−dps+10) (times
the magnitude of the numbers involved): the breakpoints themselves are only known to that
precision (e.g. d + iΔ is rounded at dps digits).

Checks:

* :func:`check_normalisation` — ∫ f = 1, exactly: the pieces on [−s, s] plus the two tails,
  each a geometric series ∫_s^∞ f = M/(1 − ρ) with M the mass of one period [s, s + P].
* :func:`check_symmetry` — f(x) = f(−x): the piece lists of f and of x ↦ f(−x) coincide on
  [−(s + P), s + P] and ρ₊ = ρ₋ (then the tails coincide too, by the tail contract).
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable
from typing import Any

import attrs
import mpmath

from privlab._validate import positive_int
from privlab.errors import InvalidParameter
from privlab.mechanisms.noise._base import LogPiece
from privlab.types import CheckResult, Method

TAIL_PERIODS_CHECKED = 3
MIN_DPS = 15


class TailMismatch(Exception):
    """The distribution's ``tail()`` promise does not match its pieces (checkers: undecided)."""


def require_structure(dist: Any, name: str = "dist") -> None:
    """Raise InvalidParameter unless ``dist`` exposes ``log_pieces`` and ``tail``."""
    missing = [m for m in ("log_pieces", "tail") if not callable(getattr(dist, m, None))]
    if missing:
        text = repr(dist)
        text = text if len(text) <= 80 else text[:77] + "..."
        raise InvalidParameter(
            f"{name}={text} has no exact density structure: it lacks {', '.join(missing)}() "
            "(the exact checkers need log_pieces(lo, hi) and tail())")


def check_dps(dps: Any) -> int:
    """Working precision in decimal digits: an integer ≥ 15 (tolerances are 10^(−dps+10))."""
    n = positive_int("dps", dps)
    if n < MIN_DPS:
        raise InvalidParameter(f"dps={dps!r} must be >= {MIN_DPS}")
    return n


def tolerance() -> Any:
    """10^(−dps+10) at the current mpmath precision."""
    return mpmath.mpf(10) ** (-mpmath.mp.dps + 10)


def mirror(pieces: list[LogPiece]) -> list[LogPiece]:
    """Pieces of x ↦ f(−x): (lo, hi, c, s) ↦ (−hi, −lo, c, −s)."""
    return [LogPiece(-p.hi, -p.lo, p.intercept, -p.slope) for p in reversed(pieces)]


def same_function(p: LogPiece, q: LogPiece, tol: Any) -> bool:
    """Do two pieces carry the same log-linear function (to tolerance)?"""
    if abs(p.slope - q.slope) > tol * max(1, abs(p.slope)):
        return False
    x = (max(p.lo, q.lo) + min(p.hi, q.hi)) / 2
    return abs(p.at(x) - q.at(x)) <= tol * max(1, abs(p.at(x)))


def pieces(dist: Any, lo: Any, hi: Any) -> list[LogPiece]:
    """``dist.log_pieces(lo, hi)`` sorted, validated (no overlaps) and merged where adjacent
    pieces carry the same log-linear function (f continuous there)."""
    lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
    tol = tolerance()
    tol_x = tol * max(1, abs(lo), abs(hi))
    # drop rounding slivers: pieces narrower than the precision *at their location* (a genuine
    # tiny piece near 0, e.g. a staircase core of width 1e-300, is kept)
    raw = sorted((p for p in dist.log_pieces(lo, hi)
                  if p.hi - p.lo > tol * max(abs(p.lo), abs(p.hi))), key=lambda p: p.lo)
    out: list[LogPiece] = []
    for p in raw:
        p = LogPiece(mpmath.mpf(p.lo), mpmath.mpf(p.hi), mpmath.mpf(p.intercept),
                     mpmath.mpf(p.slope))
        if out and p.lo < out[-1].hi - tol_x:
            raise InvalidParameter(
                f"dist={type(dist).__name__}: log_pieces overlap at x={mpmath.nstr(p.lo, 15)}")
        if out and p.lo - out[-1].hi <= tol_x and same_function(out[-1], p, tol):
            q = out.pop()
            p = LogPiece(q.lo, p.hi, q.intercept, q.slope)
        out.append(p)
    return out


def side_pieces(dist: Any, side: str, lo: Any, hi: Any) -> list[LogPiece]:
    """Pieces of t ↦ f(t) ("right") or t ↦ f(−t) ("left") on (lo, hi)."""
    if side == "right":
        return pieces(dist, lo, hi)
    return mirror(pieces(dist, -mpmath.mpf(hi), -mpmath.mpf(lo)))


def piece_mass(p: LogPiece, a: Any = None, b: Any = None) -> Any:
    """∫ exp(c + s·x) dx over (lo, hi) ∩ (a, b), in closed form."""
    lo = p.lo if a is None else max(p.lo, a)
    hi = p.hi if b is None else min(p.hi, b)
    w = hi - lo
    if w <= 0:
        return mpmath.mpf(0)
    base = mpmath.exp(p.at(lo))
    return base * (w if p.slope == 0 else mpmath.expm1(p.slope * w) / p.slope)


def mass(ps: list[LogPiece], a: Any, b: Any) -> Any:
    return mpmath.fsum(piece_mass(p, a, b) for p in ps if p.hi > a and p.lo < b)


def find_piece(ps: list[LogPiece], x: Any, los: list[Any] | None = None) -> LogPiece | None:
    """The piece whose open interval contains x (None where f = 0); ``los`` = [p.lo for p in
    ps] when the caller looks up many points."""
    i = bisect.bisect_right([p.lo for p in ps] if los is None else los, x) - 1
    if i >= 0 and ps[i].lo < x < ps[i].hi:
        return ps[i]
    return None


@attrs.frozen
class TailInfo:
    """The tail contract read at the current precision: f(x + P) = ρ₊ f(x) for x ≥ s,
    f(x − P) = ρ₋ f(x) for x ≤ −s (log ρ stored)."""

    start: Any
    period: Any
    log_rho_right: Any
    log_rho_left: Any

    def log_rho(self, side: str) -> Any:
        return self.log_rho_right if side == "right" else self.log_rho_left

    def to_dict(self) -> dict[str, Any]:
        return {"start": mpmath.nstr(self.start, 20), "period": mpmath.nstr(self.period, 20),
                "rho_right": mpmath.nstr(mpmath.exp(self.log_rho_right), 20),
                "rho_left": mpmath.nstr(mpmath.exp(self.log_rho_left), 20),
                "periods_checked_per_side": TAIL_PERIODS_CHECKED}


def _side_log_rho(dist: Any, side: str, s: Any, period: Any) -> Any:
    tol = tolerance()
    tol_x = tol * max(1, s + (TAIL_PERIODS_CHECKED + 1) * period)
    base = side_pieces(dist, side, s, s + period)
    if not base:
        raise TailMismatch(f"{side} tail: no mass in the period [{mpmath.nstr(s, 8)}, "
                           f"{mpmath.nstr(s + period, 8)}]")
    log_rho = None
    for k in range(1, TAIL_PERIODS_CHECKED):
        nxt = side_pieces(dist, side, s + k * period, s + (k + 1) * period)
        shift = k * period
        if len(nxt) != len(base):
            raise TailMismatch(f"{side} tail: period {k} has {len(nxt)} pieces, the first "
                               f"period {len(base)}")
        for p, q in zip(base, nxt, strict=True):
            if (abs(q.lo - shift - p.lo) > tol_x or abs(q.hi - shift - p.hi) > tol_x
                    or abs(q.slope - p.slope) > tol * max(1, abs(p.slope))):
                raise TailMismatch(f"{side} tail: period {k} is not a shifted copy of the "
                                   f"first (piece at {mpmath.nstr(p.lo, 10)})")
            lr = (q.at((p.lo + p.hi) / 2 + shift) - p.at((p.lo + p.hi) / 2)) / k
            if log_rho is None:
                log_rho = lr
            elif abs(lr - log_rho) > tol * max(1, abs(q.intercept), abs(p.intercept)):
                raise TailMismatch(f"{side} tail: ratio f(x+P)/f(x) is not constant "
                                   f"(piece at {mpmath.nstr(p.lo, 10)})")
    return log_rho


def tail_info(dist: Any) -> TailInfo:
    """Read and check ``dist.tail()`` at the current precision (raises :class:`TailMismatch`)."""
    t = dist.tail()
    try:
        s, period = mpmath.mpf(t.start), mpmath.mpf(t.period)
    except (AttributeError, TypeError, ValueError):
        raise InvalidParameter(f"dist.tail()={t!r} must have numeric start and period") from None
    if not (mpmath.isfinite(s) and s >= 0 and mpmath.isfinite(period) and period > 0):
        raise InvalidParameter(f"dist.tail()={t!r} needs start >= 0 and period > 0, finite")
    return TailInfo(s, period, _side_log_rho(dist, "right", s, period),
                    _side_log_rho(dist, "left", s, period))


def confirm_ties(run: Callable[[int], tuple[CheckResult, bool]], dps: int,
                 key: Callable[[CheckResult], Any]) -> CheckResult:
    """Run a check at ``dps``; if its verdict rests on a tie (two quantities equal to within
    10^(−dps+10)), re-run at p = max(2·dps, dps + 50) digits: a true equality stays a tie, a
    tiny genuine difference emerges (float parameters are rounded at ~1e-17, so second-order
    effects sit near 1e-34: above the tolerance at p ≥ 45).  If the verdicts at dps and p
    differ, a run at 2·p must agree with the one at p, else the result is undecided."""
    res, tie = run(dps)
    if not tie:
        return res
    runs = [(dps, key(res))]
    first = max(2 * dps, dps + 50)
    for p in (first, 2 * first):
        res, _ = run(p)
        runs.append((p, key(res)))
        if runs[-1][1] == runs[-2][1]:
            break
    else:
        res = attrs.evolve(res, holds=False, decided=False, counterexample=None)
    note = {"dps_runs": [r[0] for r in runs], "verdicts": [r[1] for r in runs],
            "why": "the verdict at the requested dps rested on a tie within 10^(-dps+10); "
                   "re-run at higher precision"}
    if len({r[1] for r in runs}) > 1:
        note["precision_sensitive"] = True
    return attrs.evolve(res, evidence={**res.evidence, "tie_confirmation": note})


def _undecided(claim: str, dps: int, reason: str) -> CheckResult:
    return CheckResult(holds=False, claim=claim, decided=False, method=Method.EXACT,
                       evidence={"dps": dps, "undecided_because": reason})


def check_normalisation(dist: Any, *, dps: int = 50) -> CheckResult:
    """∫_ℝ f = 1, exactly (thesis §4.4, the normalisation behind Theorem 2's M0–d relation).

    With the tail contract, ∫_s^∞ f = Σ_k ρ₊^k M₊ = M₊/(1 − ρ₊) where M₊ = ∫_s^{s+P} f (and the
    mirror on the left); the head ∫_{−s}^{s} f is summed piece by piece, each piece in closed
    form ∫ e^{c+sx} = e^{c+s·lo}·expm1(s·w)/s.  Holds iff |∫f − 1| ≤ 10^(−dps+10), confirmed
    at 2·dps (:func:`confirm_ties`).
    """
    require_structure(dist)
    dps = check_dps(dps)
    return confirm_ties(lambda p: _normalisation_at(dist, p), dps, lambda r: r.holds)


def _normalisation_at(dist: Any, dps: int) -> tuple[CheckResult, bool]:
    claim = "the density integrates to 1"
    with mpmath.workdps(dps):
        tol = tolerance()
        try:
            tail = tail_info(dist)
        except TailMismatch as exc:
            return _undecided(claim, dps, str(exc)), False
        s, period = tail.start, tail.period
        head = mass(pieces(dist, -s, s), -s, s) if s > 0 else mpmath.mpf(0)
        parts: dict[str, Any] = {}
        for side in ("right", "left"):
            m = mass(side_pieces(dist, side, s, s + period), s, s + period)
            rho = mpmath.exp(tail.log_rho(side))
            parts[side] = mpmath.inf if rho >= 1 else m / (1 - rho)
        total = head + parts["right"] + parts["left"]
        holds = mpmath.isfinite(total) and abs(total - 1) <= tol
        evidence = {"dps": dps, "tolerance": mpmath.nstr(tol, 3), "tail": tail.to_dict(),
                    "head_mass": mpmath.nstr(head, 25),
                    "right_tail_mass (geometric series)": mpmath.nstr(parts["right"], 25),
                    "left_tail_mass (geometric series)": mpmath.nstr(parts["left"], 25),
                    "integral": mpmath.nstr(total, 30),
                    "relies_on": "the tail contract of dist.tail() beyond the checked periods"}
        cex = None if holds else {"integral": mpmath.nstr(total, 30),
                                  "integral_minus_1": mpmath.nstr(total - 1, 10)}
        return CheckResult(holds=holds, claim=claim, value=float(total), evidence=evidence,
                           counterexample=cex, method=Method.EXACT), holds


def check_symmetry(dist: Any, *, dps: int = 50) -> CheckResult:
    """f(x) = f(−x) for all x (the symmetric class of thesis §4.4).

    Exact comparison of log-linear piece lists: on each cell of the common refinement of the
    breakpoints of f and of x ↦ f(−x) on [−(s + P), s + P] both are log-linear, hence equal on
    the cell iff slopes and values at one point agree.  Beyond, the tail contract gives
    f(x + kP) = ρ₊^k f(x) and f(−x − kP) = ρ₋^k f(−x) for x ≥ s, so symmetry on the window and
    ρ₊ = ρ₋ give symmetry everywhere.  ``value`` = max |log f(x) − log f(−x)| on the window.
    A positive verdict is confirmed at 2·dps (:func:`confirm_ties`).
    """
    require_structure(dist)
    dps = check_dps(dps)
    return confirm_ties(lambda p: _symmetry_at(dist, p), dps, lambda r: r.holds)


def _symmetry_at(dist: Any, dps: int) -> tuple[CheckResult, bool]:
    claim = "the density is symmetric: f(x) = f(-x)"
    with mpmath.workdps(dps):
        tol = tolerance()
        try:
            tail = tail_info(dist)
        except TailMismatch as exc:
            return _undecided(claim, dps, str(exc)), False
        a = tail.start + tail.period
        tol_x = tol * max(1, a)
        f, g = pieces(dist, -a, a), mirror(pieces(dist, -a, a))
        pts = sorted({p.lo for p in f} | {p.hi for p in f} | {p.lo for p in g}
                     | {p.hi for p in g} | {-a, a})
        worst, bad = mpmath.mpf(0), None
        for u, v in itertools.pairwise(pts):
            if v - u <= tol_x:
                continue
            mid = (u + v) / 2
            p, q = find_piece(f, mid), find_piece(g, mid)
            if p is None and q is None:
                continue
            if p is None or q is None:
                diff = mpmath.inf
            else:
                diff = max(abs(p.at(u) - q.at(u)), abs(p.at(v) - q.at(v)))
            if diff > worst:
                worst = diff
            if diff > tol * max(1, abs(p.at(mid)) if p is not None else 1) and bad is None:
                bad = {"x": float(mid), "x_exact": mpmath.nstr(mid, 30),
                       "log_f(x)": "-inf" if p is None else mpmath.nstr(p.at(mid), 20),
                       "log_f(-x)": "-inf" if q is None else mpmath.nstr(q.at(mid), 20)}
        rho_gap = abs(tail.log_rho_right - tail.log_rho_left)
        if rho_gap > tol and bad is None:
            x = a + tail.period / 2  # beyond the window the two tails decay differently
            bad = {"x": float(x), "reason": "rho_right != rho_left",
                   "rho_right": mpmath.nstr(mpmath.exp(tail.log_rho_right), 20),
                   "rho_left": mpmath.nstr(mpmath.exp(tail.log_rho_left), 20)}
        holds = bad is None
        evidence = {"dps": dps, "tolerance": mpmath.nstr(tol, 3), "window": float(a),
                    "n_pieces": len(f), "tail": tail.to_dict(),
                    "max_abs_log_difference_on_window": mpmath.nstr(worst, 10),
                    "relies_on": "the tail contract of dist.tail() beyond the checked periods"}
        return CheckResult(holds=holds, claim=claim, value=float(max(worst, rho_gap)),
                           evidence=evidence, counterexample=bad, method=Method.EXACT), holds
