"""Stochastic t-closeness (ins15 §3 Definition 3, §4 Proposition 1), computed exactly.

A confidential value c is released as Z(c) for an ε-DP mechanism Z.  With the equivalence
classes fixed, Definition 3 compares Pr(B) = (1/N) Σ_i P(Z(c_i) ∈ B) with
Pr_E(B) = (1/|E|) Σ_{i∈E} P(Z(c_i) ∈ B) by the distance of Definition 4 (sup over sets B of
both ratios); the exact t is the maximum over classes.  For laws with densities the sup over
sets is the essential sup of the density ratio (the continuous form of Proposition 2).

* randomized response on m categories with e^ε = r (rational r, so everything is a Fraction):
  P(Z(x) = y) = (1 + (r − 1)[x = y])/(r + m − 1), hence
  Q_E(y)/P(y) = N(|E| + (r − 1)n_Ey) / (|E|(N + (r − 1)n_y)).
* Laplace(Δ/ε) added to values of range ≤ Δ: between consecutive centres the ratio of mixtures
  is (A + Bu)/(C + Du) in u = e^{2x/s}, monotone, so the sup is attained at a centre or in a
  limit x → ±∞, where it equals Σ_E e^{±c/s}/|E| over Σ e^{±c/s}/N (mpmath, 50 digits).
* staircase(ε, Δ, d): the mixture densities are constant between the breakpoints
  c_i ± (d + jΔ) and Δ-periodic in ratio beyond every breakpoint, so evaluating the densities
  at the midpoints of the pieces of a window covering one period past the extreme breakpoints
  gives the sup (float, privlab ``Staircase.pdf``).

Proposition 1 as printed: t = max_E (|E|/N)(1 + (N − |E| − 1)e^ε/|E|).  Its proof derives
t = max_E (|E| + (N − |E|)e^ε)/N (the "second term") and then drops a record in the last step;
:func:`worst_case` attains the derived value exactly with randomized response, so the printed
formula is below the exact t there.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from privlab.errors import InvalidParameter
from privlab.mechanisms.noise.laplace import Laplace
from privlab.mechanisms.noise.staircase import Staircase
from privlab.verify.tcloseness import crosstab

MECHANISMS = ("rr", "laplace", "staircase")


def prop1_printed(n: int, e: int, exp_eps: Any) -> Any:
    """ins15 Proposition 1 as printed: (|E|/N)(1 + (N − |E| − 1)e^ε/|E|)."""
    return Fraction(e, n) * (1 + Fraction(n - e - 1, e) * exp_eps) if isinstance(
        exp_eps, Fraction | int) else e / n * (1 + (n - e - 1) / e * exp_eps)


def prop1_derived(n: int, e: int, exp_eps: Any) -> Any:
    """The bound the proof derives before its last line: (|E| + (N − |E|)e^ε)/N."""
    return (e + (n - e) * exp_eps) / (Fraction(n) if isinstance(exp_eps, Fraction | int)
                                      else n)


def prop1_first_term(n: int, e: int, exp_eps: Any) -> Any:
    """The proof's other term: (N/|E|)(1 + (N − |E|)e^{−ε}/|E|)^{−1} = N/(|E| + (N−|E|)e^{−ε})."""
    return n / (e + (n - e) / exp_eps)


def stochastic_t_rr(values: Any, groups: Any, *, m: int, r: Fraction) -> tuple[Fraction, Any]:
    """Exact t of Definition 3 for randomized response (values in 0 … m−1, e^ε = r)."""
    r = Fraction(r)
    v = np.asarray(values)
    if r < 1 or m < 2 or v.min() < 0 or v.max() >= m:
        raise InvalidParameter(f"randomized response needs r=e^ε >= 1, m >= 2 and values in "
                               f"0..m-1 (r={r}, m={m})")
    gu, lu, cnt = crosstab(v, groups)
    full = np.zeros((len(gu), m), dtype=np.int64)
    full[:, lu] = cnt
    n = int(full.sum())
    ny = full.sum(axis=0)
    best, where = Fraction(0), None
    for i, g in enumerate(gu):
        e = int(full[i].sum())
        for y in range(m):
            q = e + (r - 1) * int(full[i, y])  # ∝ |E|·(r+m−1)·Q_E(y)
            p = n + (r - 1) * int(ny[y])  # ∝ N·(r+m−1)·P(y)
            ratio = Fraction(n) * q / (e * p)
            for val, d in ((ratio, "Q/P"), (1 / ratio, "P/Q")):
                if val > best:
                    best, where = val, {"class": g.item(), "output": y, "direction": d}
    return best, where


def _check_range(values: np.ndarray, sensitivity: float) -> None:
    span = float(values.max() - values.min())
    if span > sensitivity * (1 + 1e-12):
        raise InvalidParameter(f"values span {span:g} > sensitivity={sensitivity:g}: the "
                               f"mechanism would not be ε-DP on this domain")


def stochastic_t_laplace(values: Any, groups: Any, *, epsilon: float, sensitivity: float = 1.0,
                         dps: int = 50) -> tuple[Any, Any]:
    """Exact t (mpmath, ``dps`` digits) for Laplace(Δ/ε) noise; see the module docstring."""
    v = np.asarray(values, dtype=float)
    _check_range(v, sensitivity)
    lap = Laplace(epsilon=epsilon, sensitivity=sensitivity)
    with mpmath.workdps(dps):
        s = mpmath.mpf(sensitivity) / mpmath.mpf(epsilon)
        c = [mpmath.mpf(x) for x in v.tolist()]
        g = np.asarray(groups)
        n = len(c)
        pts = sorted(set(c))

        def dens(idx: Any, x: Any) -> Any:
            return mpmath.fsum(mpmath.exp(-abs(x - c[i]) / s) for i in idx) / len(idx)

        def lim(idx: Any, sign: int) -> Any:
            return mpmath.fsum(mpmath.exp(sign * c[i] / s) for i in idx) / len(idx)

        every = range(n)
        best, where = mpmath.mpf(0), None
        for cls in np.unique(g):
            idx = np.flatnonzero(g == cls).tolist()
            cands = [(x, dens(idx, x) / dens(every, x)) for x in pts]
            cands += [("+inf", lim(idx, 1) / lim(every, 1)), ("-inf", lim(idx, -1)
                                                             / lim(every, -1))]
            for x, ratio in cands:
                for val, d in ((ratio, "Q/P"), (1 / ratio, "P/Q")):
                    if val > best:
                        best, where = val, {"class": cls.item(), "x": str(x), "direction": d}
        # cross-check the +∞ limit with privlab's Laplace cdf on a tail set {X > a}
        a = float(v.max()) + 2.0 * float(s)
        tail = 1.0 - lap.cdf(a - v)
        where = dict(where or {}, tail_check_float=_tail_ratio(tail, g))
    return best, where


def _tail_ratio(tail: np.ndarray, g: np.ndarray) -> float:
    tot = tail.mean()
    return float(max(max(tail[g == c].mean() / tot, tot / tail[g == c].mean())
                     for c in np.unique(g)))


def stochastic_t_staircase(values: Any, groups: Any, *, epsilon: float, sensitivity: float = 1.0,
                           d: float | None = None) -> tuple[float, Any]:
    """t for staircase noise by piecewise evaluation (float; see the module docstring)."""
    v = np.asarray(values, dtype=float)
    _check_range(v, sensitivity)
    st = (Staircase.optimal(epsilon, sensitivity) if d is None
          else Staircase(epsilon=epsilon, sensitivity=sensitivity, d=d))
    g = np.asarray(groups)
    span = float(v.max() - v.min())
    kmax = math.ceil(span / sensitivity) + 3
    steps = st.d + sensitivity * np.arange(kmax + 1)
    bps = np.unique(np.concatenate([v[:, None] + steps[None, :], v[:, None] - steps[None, :]]))
    mids = (bps[:-1] + bps[1:]) / 2.0
    mids = np.concatenate([[bps[0] - sensitivity / 2], mids, [bps[-1] + sensitivity / 2]])
    dens = st.pdf(mids[None, :] - v[:, None])  # (N, pieces)
    tot = dens.mean(axis=0)
    best, where = 0.0, None
    for cls in np.unique(g):
        q = dens[g == cls].mean(axis=0)
        for arr, dname in ((q / tot, "Q/P"), (tot / q, "P/Q")):
            j = int(np.argmax(arr))
            if arr[j] > best:
                best, where = float(arr[j]), {"class": cls.item(), "x": float(mids[j]),
                                              "direction": dname}
    return best, where


def stochastic_t(mechanism: str, values: Any, groups: Any, *, epsilon: float,
                 sensitivity: float = 1.0, m: int = 2) -> tuple[Any, Any]:
    """Dispatch on ``mechanism`` ∈ {rr, laplace, staircase}.  For rr, e^ε is taken as the
    Fraction of the float exp(ε) (so that the check is exact for that r)."""
    if mechanism not in MECHANISMS:
        raise InvalidParameter(f"mechanism={mechanism!r} must be one of {', '.join(MECHANISMS)}")
    if mechanism == "rr":
        return stochastic_t_rr(values, groups, m=m, r=Fraction(math.exp(epsilon)))
    if mechanism == "laplace":
        return stochastic_t_laplace(values, groups, epsilon=epsilon, sensitivity=sensitivity)
    return stochastic_t_staircase(values, groups, epsilon=epsilon, sensitivity=sensitivity)


def worst_case(n: int, e: int) -> tuple[np.ndarray, np.ndarray]:
    """The extremal instance: the class E (first |E| records) at value 0, the rest at 1."""
    if not 1 <= e < n:
        raise InvalidParameter(f"class size |E|={e} must lie in 1..N-1 with N={n}")
    values = np.r_[np.zeros(e, dtype=np.int64), np.ones(n - e, dtype=np.int64)]
    groups = np.r_[np.zeros(e, dtype=np.int64), np.ones(n - e, dtype=np.int64)]
    return values, groups
