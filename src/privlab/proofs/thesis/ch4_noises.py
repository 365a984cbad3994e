"""Test noises for the ch.4 claims (not mechanisms: never use them to release data).

* :class:`PeriodicNoise` — a symmetric density, piecewise log-linear, given on [0, ∞) by a
  *head* on [0, start) and one *cycle* on [start, start + period) repeated with factor
  e^{−decay}; normalised automatically.  It covers the staircase family (including d > Δ,
  which :class:`~privlab.mechanisms.noise.staircase.Staircase` rejects), perturbed staircases, the
  "sawtooth" noises f(x + Δ) = e^{−ε} f(x) with a gentler slope than Laplace inside [0, Δ),
  and the four-level density built by the proof of Theorem 1.
* :class:`AsymmetricLaplace` — a zero-mean, ε-DP, *asymmetric* noise (counterexample to
  Theorem 1 as printed).

Both expose the structure the exact checkers use (``log_pieces``, ``tail``, ``epsilon``,
``sensitivity``) and pdf/cdf.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import attrs
import mpmath
import numpy as np
from scipy import optimize

from privlab.mechanisms.noise._base import Array, LogPiece, SymmetricNoise, Tail
from privlab.types import Neighbour

Piece = tuple[Any, Any, Any, Any]  # (lo, hi, level, slope): log f = level + slope·(x − lo)


def _piece_mass(lo: Any, hi: Any, level: Any, slope: Any) -> Any:
    w = mpmath.mpf(hi) - mpmath.mpf(lo)
    if w <= 0:
        return mpmath.mpf(0)
    s = mpmath.mpf(slope)
    return mpmath.exp(level) * (w if s == 0 else mpmath.expm1(s * w) / s)


@attrs.frozen(kw_only=True)
class PeriodicNoise(SymmetricNoise):
    """Symmetric piecewise log-linear density with a periodic-geometric tail."""

    epsilon: float  # the guarantee it *claims*; checkers decide whether it holds
    sensitivity: float = 1.0
    start: Any = 0
    period: Any = 1
    decay: Any = 1
    head: tuple[Piece, ...] = ()
    cycle: tuple[Piece, ...] = ()
    label: str = "periodic"
    neighbour: Neighbour = Neighbour.SUBSTITUTE
    name = "periodic-test-noise"

    # ---- exact (mpmath) -----------------------------------------------------------------------
    def _parts(self) -> tuple[Any, Any, Any, Any, Any]:
        """(start, period, ρ = e^{−decay}, head mass, cycle mass) at the current precision."""
        return _exact_parts(self, mpmath.mp.prec)[:5]

    def log_norm(self) -> Any:
        """log Z, Z = 2(h + c/(1 − ρ)) the mass of the unnormalised density."""
        return _exact_parts(self, mpmath.mp.prec)[5]

    def _partial(self, pieces: tuple[Piece, ...], a: Any) -> Any:
        return mpmath.fsum(_piece_mass(lo, min(mpmath.mpf(hi), a), lev, s)
                           for lo, hi, lev, s in pieces if mpmath.mpf(lo) < a)

    def abs_mass(self, a: Any) -> Any:
        """P(|Y| ≤ a), exact at the current mpmath precision."""
        a = mpmath.mpf(a)
        if a <= 0:
            return mpmath.mpf(0)
        start, period, rho, h, c = self._parts()
        if a <= start:
            part = self._partial(self.head, a)
        else:
            k = mpmath.floor((a - start) / period)
            t = a - start - k * period
            part = h + c * (1 - rho**k) / (1 - rho) + rho**k * self._partial(self.cycle, t)
        return 2 * part / mpmath.exp(self.log_norm())

    def log_pieces(self, lo: Any, hi: Any) -> list[LogPiece]:
        """The log-linear pieces of f on [lo, hi] (right copies and their mirror images), sorted
        by left end.  Cycle k (on [start + k·period, start + (k+1)·period)) contributes only if
        it meets [lo, hi] or [−hi, −lo]: cycles before :func:`_first_cycle` are skipped, which
        leaves the output unchanged (they would have produced no piece).

        Cycle k's right piece (a, b, level, slope) is (start + k·period + a, start + k·period + b,
        ((level − log Z) − k·decay) − slope·(start + k·period + a), slope): the same operations
        in the same order as summing it from scratch, with the parts that do not depend on k or
        the window taken from :func:`_log_piece_parts` (memoised per noise and precision)."""
        lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
        start, period, dec, head, cycle, amin, bmax = _log_piece_parts(self, mpmath.mp.prec)
        right: list[tuple[Any, Any, Any, Any]] = list(head)  # (a, b, intercept, slope), x ≥ 0
        amax = max(abs(lo), abs(hi))
        kmax = int(mpmath.ceil((amax - start) / period)) if amax > start else 0
        for k in range(_first_cycle_at(amin, bmax, start, period, lo, hi), kmax + 1):
            base, kdec = start + k * period, k * dec
            for a, b, levz, s in cycle:
                a2 = base + a
                right.append((a2, base + b, levz - kdec - s * a2, s))
        out = []
        for a, b, c, s in right:
            if b > lo and a < hi:  # right copy
                out.append(LogPiece(max(lo, a), min(hi, b), c, s))
            if -a > lo and -b < hi:  # mirrored copy on [−b, −a]
                out.append(LogPiece(max(lo, -b), min(hi, -a), c, -s))
        out.sort(key=lambda p: p.lo)
        return [p for p in out if p.hi > p.lo]

    def tail(self) -> Tail:
        return Tail(start=float(self.start), period=float(self.period))

    # ---- float interface ------------------------------------------------------------------------
    def abs_log_density(self, a: Any) -> Any:
        """log f at |x| = a ≥ 0 (right-continuous in a; −inf outside the support)."""
        a = mpmath.mpf(a)
        start, period, _, _, _ = self._parts()
        lz = self.log_norm()
        if a < start:
            pieces, shift, t = self.head, mpmath.mpf(0), a
        else:
            k = mpmath.floor((a - start) / period)
            pieces, shift, t = self.cycle, k * mpmath.mpf(self.decay), a - start - k * period
        for lo, hi, lev, sl in pieces:
            if mpmath.mpf(lo) <= t < mpmath.mpf(hi):
                return lev - lz - shift + mpmath.mpf(sl) * (t - mpmath.mpf(lo))
        return mpmath.mpf("-inf")

    def _float_parts(self) -> tuple[float, float, float, float, float, float]:
        with mpmath.workdps(30):
            start, period, rho, h, c = self._parts()
            z = float(mpmath.exp(self.log_norm()))
        return float(start), float(period), float(rho), float(h), float(c), z

    @staticmethod
    def _partial_np(pieces: tuple[Piece, ...], t: Array) -> Array:
        out = np.zeros_like(t)
        for lo, hi, lev, sl in pieces:
            lo, hi, lev, sl = float(lo), float(hi), float(lev), float(sl)
            w = np.clip(t - lo, 0.0, hi - lo)
            out += math.exp(lev) * (w if sl == 0 else np.expm1(sl * w) / sl)
        return out

    @staticmethod
    def _level_np(pieces: tuple[Piece, ...], t: Array) -> Array:
        out = np.full_like(t, -np.inf)
        for lo, hi, lev, sl in pieces:
            lo, hi, lev, sl = float(lo), float(hi), float(lev), float(sl)
            inside = (t >= lo) & (t < hi)
            out = np.where(inside, lev + sl * (t - lo), out)
        return out

    def _split(self, a: Array) -> tuple[Any, Array, Array]:
        start, period = float(self.start), float(self.period)
        u = np.maximum(a - start, 0.0)
        k = np.floor(u / period)
        return a < start, k, u - k * period

    def _abs_pdf(self, a: Array) -> Array:
        a = np.abs(np.asarray(a, dtype=float))
        _, _, rho, _, _, z = self._float_parts()
        in_head, k, t = self._split(np.where(np.isfinite(a), a, 0.0))
        with np.errstate(over="ignore", under="ignore"):
            log_head = self._level_np(self.head, a)
            log_tail = self._level_np(self.cycle, t) + k * math.log(rho)
            out = np.exp(np.where(in_head, log_head, log_tail)) / z
        return np.where(np.isfinite(a), out, 0.0)

    def _abs_cdf(self, a: Array) -> Array:
        a = np.asarray(a, dtype=float)
        _, _, rho, h, c, z = self._float_parts()
        fin = np.isfinite(a)
        a0 = np.where(fin, np.maximum(a, 0.0), 0.0)
        in_head, k, t = self._split(a0)
        with np.errstate(over="ignore", under="ignore"):
            rk = rho**k
            tail = h + c * (1 - rk) / (1 - rho) + rk * self._partial_np(self.cycle, t)
            part = np.where(in_head, self._partial_np(self.head, a0), tail)
        return np.where(fin, np.minimum(2.0 * part / z, 1.0), 1.0)

    def _abs_icdf(self, p: Array) -> Array:
        p = np.asarray(p, dtype=float)
        out = np.empty(p.shape)
        for idx, v in np.ndenumerate(p):
            if v <= 0:
                out[idx] = 0.0
                continue
            hi = float(self.start) + float(self.period)
            while float(self._abs_cdf(np.asarray(hi))) < v:
                hi *= 2
            out[idx] = optimize.brentq(lambda x, v=v: float(self._abs_cdf(np.asarray(x))) - v,
                                       0.0, hi, xtol=1e-14)
        return out


@functools.lru_cache(maxsize=1024)
def _exact_parts(noise: PeriodicNoise, prec: int) -> tuple[Any, Any, Any, Any, Any, Any]:
    """(start, period, ρ = e^{−decay}, head mass h, cycle mass c, log Z = log 2(h + c/(1 − ρ)))
    of ``noise`` at precision ``prec`` (bits).  Memoised per process: a frozen attrs value keyed
    by all its fields and the precision; the result is a tuple of immutable mpf."""
    with mpmath.workprec(prec):
        start, period = mpmath.mpf(noise.start), mpmath.mpf(noise.period)
        rho = mpmath.exp(-mpmath.mpf(noise.decay))
        h = mpmath.fsum(_piece_mass(*p) for p in noise.head)
        c = mpmath.fsum(_piece_mass(*p) for p in noise.cycle)
        return start, period, rho, h, c, mpmath.log(2 * (h + c / (1 - rho)))


@functools.lru_cache(maxsize=1024)
def _log_piece_parts(noise: PeriodicNoise, prec: int) -> tuple[Any, ...]:
    """What :meth:`PeriodicNoise.log_pieces` needs that depends only on the noise and the
    precision (bits): (start, period, decay, the head's right pieces (a, b, level − log Z −
    slope·a, slope), the cycle's pieces (a, b, level − log Z, slope), min a and max b over the
    cycle) as mpf at that precision.  Memoised per process like :func:`_exact_parts` (frozen
    attrs key, every field; tuples of immutable mpf)."""
    with mpmath.workprec(prec):
        start, period, _, _, _, lz = _exact_parts(noise, prec)
        head = []
        for a, b, lev, s in noise.head:
            a, b, s = mpmath.mpf(a), mpmath.mpf(b), mpmath.mpf(s)
            head.append((a, b, lev - lz - s * a, s))
        cycle = tuple((mpmath.mpf(a), mpmath.mpf(b), lev - lz, mpmath.mpf(s))
                      for a, b, lev, s in noise.cycle)
        amin = min(a for a, _, _, _ in cycle) if cycle else None
        bmax = max(b for _, b, _, _ in cycle) if cycle else None
        return (start, period, mpmath.mpf(noise.decay), tuple(head), cycle, amin, bmax)


def _first_cycle(cycle: tuple[Piece, ...], start: Any, period: Any, lo: Any, hi: Any) -> int:
    """A k ≥ 0 such that no piece [a', b'] of a cycle k' < k yields a piece on [lo, hi].

    Cycle k' has a' ≥ base = start + a_min and b' ≤ start + k'·period + b_max.  Its right copy
    needs b' > lo and a' < hi, its mirror image [−b', −a'] needs b' > −hi and a' < −lo.  A copy
    is *possible* unless hi ≤ base − period (resp. −lo ≤ base − period), when a' < hi (resp.
    a' < −lo) fails for every k'.  With ``low`` the least of lo (right copies possible) and −hi
    (mirror images possible), every k' < ⌊(low − start − b_max)/period⌋ − 1 has b' < low − period:
    both copies fail.  (The margins of a whole period absorb rounding.)"""
    if not cycle:
        return 0
    amin = min(mpmath.mpf(a) for a, _, _, _ in cycle)
    bmax = max(mpmath.mpf(b) for _, b, _, _ in cycle)
    return _first_cycle_at(amin, bmax, start, period, lo, hi)


def _first_cycle_at(amin: Any, bmax: Any, start: Any, period: Any, lo: Any, hi: Any) -> int:
    """:func:`_first_cycle` from the cycle's least left end ``amin`` and greatest right end
    ``bmax`` (None: no cycle)."""
    if amin is None:
        return 0
    base = start + amin - period
    lows = ([lo] if hi > base else []) + ([-hi] if -lo > base else [])
    if not lows:
        return 0
    k = int(mpmath.floor((min(lows) - start - bmax) / period)) - 1
    return max(k, 0)


# ---- constructors ------------------------------------------------------------------------------
def staircase_like(epsilon: Any, delta: Any, d: Any, *, core_factor: Any = 1,
                   label: str = "staircase") -> PeriodicNoise:
    """Staircase with core [−d, d] (any d ≥ 0) at relative height ``core_factor`` (1 = the
    family), steps of width Δ at e^{−(i+1)ε}; normalised."""
    eps, dl, d = mpmath.mpf(epsilon), mpmath.mpf(delta), mpmath.mpf(d)
    head = ((0, d, mpmath.log(core_factor), 0),) if d > 0 else ()
    return PeriodicNoise(epsilon=float(epsilon), sensitivity=float(delta), start=d, period=dl,
                         decay=eps, head=head, cycle=((0, dl, -eps, 0),), label=label)


SEC43_DIGITS = 400


def sec43_m(epsilon: Any, delta: Any = 1) -> Any:
    """The §4.3 value m = Δ(1 − e^{−ε} − εe^{−ε})/(ε(1 − e^{−ε})) at 400 digits (of the float
    parameters taken exactly)."""
    with mpmath.workdps(SEC43_DIGITS):
        e, dl = mpmath.mpf(epsilon), mpmath.mpf(delta)
        q = -mpmath.expm1(-e)
        return dl * (q - e * mpmath.exp(-e)) / (e * q)


def sec43_member(epsilon: Any, delta: Any = 1) -> PeriodicNoise:
    """The §4.3 redistribution of Laplace(Δ/ε) with m at 400 digits.

    :meth:`Staircase.from_laplace` stores m rounded to a float; that object differs from the
    §4.3 law by O((d − m)²) ≈ 1e-34 in P(|Y| ≤ α) near α = Δ and is then *incomparable* with
    Laplace — a claim about the construction itself must use the exact m."""
    with mpmath.workdps(SEC43_DIGITS):
        return staircase_like(epsilon, delta, sec43_m(epsilon, delta), label="§4.3 member")


def sawtooth(epsilon: Any, delta: Any, slope: Any, *, label: str = "sawtooth") -> PeriodicNoise:
    """f ∝ e^{−slope·x} on [0, Δ), then f(x + Δ) = e^{−ε} f(x): ε-DP for 0 ≤ slope ≤ ε/Δ
    (slope = ε/Δ is Laplace(Δ/ε); slope = 0 the staircase with d = Δ)."""
    dl = mpmath.mpf(delta)
    return PeriodicNoise(epsilon=float(epsilon), sensitivity=float(delta), start=0, period=dl,
                         decay=mpmath.mpf(epsilon), cycle=((0, dl, 0, -mpmath.mpf(slope)),),
                         label=label)


def four_level(epsilon: Any, delta: Any, big: Any, small: Any, d: Any,
               *, label: str = "theorem-1-proof") -> PeriodicNoise:
    """Level ``big`` on [0, d), ``small`` on [d, Δ), repeated with factor e^{−ε} per Δ."""
    dl, d = mpmath.mpf(delta), mpmath.mpf(d)
    return PeriodicNoise(epsilon=float(epsilon), sensitivity=float(delta), start=0, period=dl,
                         decay=mpmath.mpf(epsilon),
                         cycle=((0, d, mpmath.log(big), 0), (d, dl, mpmath.log(small), 0)),
                         label=label)


@attrs.frozen(kw_only=True)
class AsymmetricLaplace:
    """f(x) = h₊e^{−x/b₊} (x ≥ 0), h₋e^{x/b₋} (x < 0), with h₊b₊² = h₋b₋² (zero mean) and
    h₊b₊ + h₋b₋ = 1.  P(Y ≥ 0) = b₋/(b₊ + b₋)."""

    epsilon: float
    sensitivity: float = 1.0
    b_right: Any = mpmath.mpf(3) / 2
    b_left: Any = mpmath.mpf(9) / 5
    neighbour: Neighbour = Neighbour.SUBSTITUTE
    name = "asymmetric-laplace-test-noise"

    def heights(self) -> tuple[Any, Any]:
        b1, b2 = mpmath.mpf(self.b_right), mpmath.mpf(self.b_left)
        return b2 / (b1 * (b1 + b2)), b1 / (b2 * (b1 + b2))

    def log_pieces(self, lo: Any, hi: Any) -> list[LogPiece]:
        lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
        hp, hm = self.heights()
        out = []
        if lo < 0:
            out.append(LogPiece(lo, min(hi, mpmath.mpf(0)), mpmath.log(hm),
                                1 / mpmath.mpf(self.b_left)))
        if hi > 0:
            out.append(LogPiece(max(lo, mpmath.mpf(0)), hi, mpmath.log(hp),
                                -1 / mpmath.mpf(self.b_right)))
        return out

    def tail(self) -> Tail:
        return Tail(start=0.0, period=float(self.sensitivity))

    def pdf(self, x: Any) -> Array:
        x = np.asarray(x, dtype=float)
        hp, hm = (float(h) for h in self.heights())
        b1, b2 = float(self.b_right), float(self.b_left)
        return np.where(x >= 0, hp * np.exp(-np.abs(x) / b1), hm * np.exp(-np.abs(x) / b2))

    def logpdf(self, x: Any) -> Array:
        return np.log(self.pdf(x))

    def cdf(self, x: Any) -> Array:
        x = np.asarray(x, dtype=float)
        hp, hm = (float(h) for h in self.heights())
        b1, b2 = float(self.b_right), float(self.b_left)
        neg = hm * b2 * np.exp(-np.abs(x) / b2)
        pos = hm * b2 + hp * b1 * -np.expm1(-np.abs(x) / b1)
        return np.where(x >= 0, pos, neg)

    def true_epsilon(self) -> Any:
        """sup_{|x−y| ≤ Δ} log f(x) − log f(y) in closed form (log-linear pieces, one jump)."""
        hp, hm = self.heights()
        b1, b2 = mpmath.mpf(self.b_right), mpmath.mpf(self.b_left)
        dl, jump = mpmath.mpf(self.sensitivity), mpmath.log(hp / hm)
        return max(dl / b1, dl / b2, jump + dl / b2, -jump + dl / b1)
