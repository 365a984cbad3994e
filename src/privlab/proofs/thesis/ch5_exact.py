"""Exact arithmetic at the thesis's ε values for the ch.5 checks (issue 30).

The thesis's experiments use ε ∈ {0.01, 0.1, 0.5, ln 2, 1, 2, 10}
(:data:`privlab.proofs.parameters.PAPER_PARAMETERS`).  At ε = ln 2 the refinement factors can be
rational (e^ε = 2).  At a rational ε ≠ 0, e^ε is transcendental (Lindemann–Weierstrass), so the
factors α_u = e^ε, α_d = e^{−ε}, e^{ε/2}, … live in the field ℚ(y) of rational functions of one
transcendental y = e^g (g a rational with ε/g an integer): :class:`QE` is an element of that
field, kept as a quotient of two integer polynomials in y.  Because y is transcendental,

* ``a == b`` is decided exactly by a polynomial identity (a·den_b − b·den_a ≡ 0), and
* the sign of a non-zero element is decided exactly by evaluating numerator and denominator at
  y: first in floating point with a rigorous error bound, otherwise with exact rational bounds
  on y (Taylor series with remainder) at increasing precision — this terminates because a
  non-zero polynomial with rational coefficients never vanishes at y.

So every comparison the refinement code makes (``cum < p_u``, ratio ≤ e^ε, …) is exact.
:class:`QE` passes for an exact number where privlab expects one (``limit_denominator`` gives a
nearby Fraction), and mixes with ``int`` and ``Fraction`` operands.

:data:`EPSILONS` are the registry values as exact objects: ``Fraction`` for the rational ones
and :data:`LN2` for ln 2; :func:`exp_of` gives e^{c·ε} in the right number system.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any

Poly = tuple[int, ...]
"""Integer coefficients, lowest degree first; ``()`` is the zero polynomial."""

LN2 = "ln 2"
"""ε = ln 2: e^ε = 2 is rational, so the checks use Fractions there."""
EPSILONS: tuple[Any, ...] = (Fraction(1, 100), Fraction(1, 10), Fraction(1, 2), LN2,
                             Fraction(1), Fraction(2), Fraction(10))
"""The thesis's registry ε values (``parameters.PAPER_PARAMETERS["thesis"]["epsilon"]``), exact."""


def eps_float(eps: Any) -> float:
    """The float of an exact ε (the registry's spelling)."""
    return math.log(2) if eps == LN2 else float(eps)


def eps_text(eps: Any) -> str:
    return LN2 if eps == LN2 else str(eps)


# ---- integer polynomials ------------------------------------------------------------------------
def _trim(p: Poly) -> Poly:
    n = len(p)
    while n and p[n - 1] == 0:
        n -= 1
    return p[:n]


def _add(a: Poly, b: Poly) -> Poly:
    if len(a) < len(b):
        a, b = b, a
    return _trim(tuple(x + (b[i] if i < len(b) else 0) for i, x in enumerate(a)))


def _scale(a: Poly, c: int) -> Poly:
    return _trim(tuple(c * x for x in a))


def _mul(a: Poly, b: Poly) -> Poly:
    if not a or not b:
        return ()
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, z in enumerate(b):
                out[i + j] += x * z
    return _trim(tuple(out))


def _low_zeros(p: Poly) -> int:
    k = 0
    while k < len(p) and p[k] == 0:
        k += 1
    return k


# ---- rigorous evaluation at y = e^g --------------------------------------------------------------
@functools.cache
def _exp_bounds(g: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    """Rational lo ≤ e^g ≤ hi (g > 0) with hi − lo ≲ 2^−bits·e^g: the Taylor series of e^{g/m}
    (g/m ≤ 1, remainder ≤ 3·(g/m)^{n+1}/(n+1)!) raised to the m-th power."""
    m = max(1, math.ceil(g))
    h = g / m
    term, s, n = Fraction(1), Fraction(1), 0
    tol = Fraction(1, 2 ** (bits + 8 + m.bit_length() * 2))
    while True:
        n += 1
        term = term * h / n
        s += term
        rem = 3 * term * h / (n + 1)
        if rem < tol:
            break
    return s ** m, (s + rem) ** m


def _bounds(p: Poly, lo: Fraction, hi: Fraction) -> tuple[Fraction, Fraction]:
    """Exact bounds on p(y) for y ∈ [lo, hi], 0 < lo: positive and negative parts are monotone."""
    pos_lo = pos_hi = neg_lo = neg_hi = Fraction(0)
    plo = phi = Fraction(1)
    for c in p:
        if c > 0:
            pos_lo += c * plo
            pos_hi += c * phi
        elif c < 0:
            neg_lo += -c * plo
            neg_hi += -c * phi
        plo *= lo
        phi *= hi
    return pos_lo - neg_hi, pos_hi - neg_lo


def _sign_poly(p: Poly, g: Fraction, y: float) -> int:
    """The sign of p(e^g), exactly (p ≢ 0 never vanishes at a transcendental point)."""
    if not p:
        return 0
    if len(p) == 1:
        return 1 if p[0] > 0 else -1
    try:
        v, big, yk = 0.0, 0.0, 1.0
        for c in p:
            fc = float(c)
            v += fc * yk
            big += abs(fc) * yk
            yk *= y
        err = (4 * len(p) + 16) * 2.0**-52 * big
        if math.isfinite(big) and abs(v) > err:
            return 1 if v > 0 else -1
    except OverflowError:
        pass
    for bits in (96, 256, 1024, 4096, 16384):
        lo, hi = _bounds(p, *_exp_bounds(g, bits))
        if lo > 0:
            return 1
        if hi < 0:
            return -1
    raise ArithmeticError(f"sign of a polynomial of degree {len(p) - 1} at e^{g} not decided "
                          f"at 16384 bits")  # pragma: no cover - cannot happen for p ≢ 0


# ---- the field element ---------------------------------------------------------------------------
class QE:
    """An exact element num(y)/den(y) of ℚ(y), y = e^g (g rational > 0)."""

    __slots__ = ("den", "g", "num", "yf")

    def __init__(self, num: Poly, den: Poly, g: Fraction, yf: float) -> None:
        num, den = _trim(num), _trim(den)
        if not den:
            raise ZeroDivisionError("QE with a zero denominator")
        if not num:
            num, den = (), (1,)
        else:
            k = min(_low_zeros(num), _low_zeros(den))
            num, den = num[k:], den[k:]
            c = math.gcd(*num, *den)
            if den[-1] < 0:
                c = -c
            if c != 1:
                num = tuple(x // c for x in num)
                den = tuple(x // c for x in den)
        self.num, self.den, self.g, self.yf = num, den, g, yf

    # -- conversion ---------------------------------------------------------------------------
    def _coerce(self, other: Any) -> QE | None:
        if isinstance(other, QE):
            if other.g != self.g:
                raise ValueError(f"QE over e^{self.g} mixed with QE over e^{other.g}")
            return other
        if isinstance(other, int | Fraction) and not isinstance(other, bool):
            fr = Fraction(other)
            return QE((fr.numerator,), (fr.denominator,), self.g, self.yf)
        if isinstance(other, float) and math.isfinite(other):
            fr = Fraction(other)
            return QE((fr.numerator,), (fr.denominator,), self.g, self.yf)
        return None

    def _new(self, num: Poly, den: Poly) -> QE:
        return QE(num, den, self.g, self.yf)

    @property
    def is_rational(self) -> bool:
        return len(self.num) <= 1 and len(self.den) == 1

    def __float__(self) -> float:
        import mpmath

        with mpmath.workprec(120):
            y = mpmath.exp(mpmath.mpf(self.g.numerator) / self.g.denominator)
            n = mpmath.polyval([mpmath.mpf(c) for c in reversed(self.num)], y) if self.num \
                else mpmath.mpf(0)
            d = mpmath.polyval([mpmath.mpf(c) for c in reversed(self.den)], y)
            return float(n / d)

    def approx(self) -> float:
        """A quick double-precision value (Horner in floats; no error bound): for inputs that
        any number serves, such as an adversary's rounded posterior."""
        def ev(p: Poly) -> float:
            v = 0.0
            for c in reversed(p):
                v = v * self.yf + float(c)
            return v
        try:
            return ev(self.num) / ev(self.den)
        except (OverflowError, ZeroDivisionError):
            return float(self)

    def limit_denominator(self, max_denominator: int = 10**6) -> Fraction:
        """A nearby Fraction (privlab reads the attribute as 'an exact number')."""
        return Fraction(float(self)).limit_denominator(max_denominator)

    # -- arithmetic -----------------------------------------------------------------------------
    def __add__(self, other: Any) -> Any:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        if self.den == o.den:
            return self._new(_add(self.num, o.num), self.den)
        return self._new(_add(_mul(self.num, o.den), _mul(o.num, self.den)),
                         _mul(self.den, o.den))

    __radd__ = __add__

    def __neg__(self) -> QE:
        return self._new(_scale(self.num, -1), self.den)

    def __sub__(self, other: Any) -> Any:
        o = self._coerce(other)
        return NotImplemented if o is None else self + (-o)

    def __rsub__(self, other: Any) -> Any:
        o = self._coerce(other)
        return NotImplemented if o is None else o + (-self)

    def __mul__(self, other: Any) -> Any:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        return self._new(_mul(self.num, o.num), _mul(self.den, o.den))

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Any:
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        if not o.num:
            raise ZeroDivisionError("division of a QE by zero")
        return self._new(_mul(self.num, o.den), _mul(self.den, o.num))

    def __rtruediv__(self, other: Any) -> Any:
        o = self._coerce(other)
        return NotImplemented if o is None else o / self

    def __pow__(self, k: int) -> QE:
        if not isinstance(k, int):
            return NotImplemented
        if k < 0:
            return (1 / self) ** (-k)
        out = self._new((1,), (1,))
        for _ in range(k):
            out = out * self
        return out

    def __abs__(self) -> QE:
        return -self if self.sign() < 0 else self

    # -- exact comparisons ---------------------------------------------------------------------
    def sign(self) -> int:
        return _sign_poly(self.num, self.g, self.yf) * _sign_poly(self.den, self.g, self.yf)

    def _cmp(self, other: Any) -> int | None:
        if isinstance(other, float) and not math.isfinite(other):
            return -1 if other > 0 else 1
        o = self._coerce(other)
        if o is None:
            return None
        return (self - o).sign()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, float) and not math.isfinite(other):
            return False
        o = self._coerce(other)
        if o is None:
            return NotImplemented
        return _mul(self.num, o.den) == _mul(o.num, self.den)

    def __hash__(self) -> int:
        """Equal to the hash of the Fraction a rational element equals (when its quotient is
        a constant); one hash per generator otherwise — the quotient is not reduced by a
        polynomial gcd, so equal elements may be spelled differently."""
        if self.is_rational:
            return hash(Fraction(self.num[0] if self.num else 0, self.den[0]))
        return hash(("QE", self.g))

    def __lt__(self, other: Any) -> bool:
        c = self._cmp(other)
        return NotImplemented if c is None else c < 0

    def __le__(self, other: Any) -> bool:
        c = self._cmp(other)
        return NotImplemented if c is None else c <= 0

    def __gt__(self, other: Any) -> bool:
        c = self._cmp(other)
        return NotImplemented if c is None else c > 0

    def __ge__(self, other: Any) -> bool:
        c = self._cmp(other)
        return NotImplemented if c is None else c >= 0

    def __bool__(self) -> bool:
        return bool(self.num)

    def text(self) -> str:
        """num(y)/den(y) in lowest terms (sympy), y = e^g, and its value."""
        return _text(self.num, self.den, self.g) + f" ≈ {float(self):.12g}"

    def __repr__(self) -> str:
        return f"QE({self.text()})"

    __str__ = text


@functools.lru_cache(maxsize=4096)
def _text(num: Poly, den: Poly, g: Fraction) -> str:
    import sympy as sp

    y = sp.Symbol("y")
    expr = sp.cancel(sum(c * y**k for k, c in enumerate(num)) /
                     sum(c * y**k for k, c in enumerate(den)))
    return f"{expr} [y = e^({g})]"


def field(g: Fraction, k: int = 1) -> QE:
    """y^k, y = e^g, as a :class:`QE` (g rational > 0, k an integer)."""
    g = Fraction(g)
    if g <= 0:
        raise ValueError(f"the generator exponent g={g} must be > 0")
    mono = (0,) * abs(k) + (1,)
    return QE(mono, (1,), g, math.exp(g)) if k >= 0 else QE((1,), mono, g, math.exp(g))


@functools.cache
def exp_of(eps: Any, c: Fraction, g: Fraction | None = None) -> Any:
    """e^{c·ε} exactly: a Fraction at ε = ln 2 (c·ε = ln 2^c needs 2^c rational, i.e. c an
    integer), else a :class:`QE` over y = e^g with g = ε/``steps`` (``g`` defaults to ε/2)."""
    c = Fraction(c)
    if eps == LN2:
        if c.denominator != 1:
            raise ValueError(f"e^({c}·ln 2) is irrational; use rational factors at ε = ln 2")
        return Fraction(2) ** int(c)
    g = Fraction(eps) / 2 if g is None else Fraction(g)
    k = c * Fraction(eps) / g
    if k.denominator != 1:
        raise ValueError(f"e^({c}·{eps}) is not a power of e^{g}")
    return field(g, int(k))


def exp_bound_ok(x: Any, eps: Any, c: Fraction = Fraction(1)) -> bool:
    """x ≤ e^{c·ε} exactly, for x a Fraction, an int or a :class:`QE` (any generator)."""
    if eps == LN2:
        if isinstance(x, QE):
            raise ValueError("a QE at ε = ln 2")
        two_c = Fraction(2) ** c.numerator  # x ≤ 2^c  ⟺  x^den ≤ 2^num (x ≥ 0)
        return bool(x <= 0 or Fraction(x) ** c.denominator <= two_c)
    g = x.g if isinstance(x, QE) else Fraction(eps) / 2
    return bool(x <= exp_of(eps, c, g))
