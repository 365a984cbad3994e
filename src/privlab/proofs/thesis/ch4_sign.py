"""The exact sign engine of the ch.4 symbolic proofs (:mod:`privlab.proofs.thesis.ch4_proofs`):
q = e^ε − 1 as a positive symbol, a factor-sign certificate for rational expressions on the
nonnegative orthant, and the grids' float ε as exact sympy numbers.

A rational expression E is certified ≥ 0 (> 0) when, factored over ℚ (``factor_list``), every
numerator factor has one sign on the nonnegative orthant of its symbols (all coefficients of one
sign, or an even power) and every denominator factor is strictly positive — a sufficient
condition; otherwise the certificate is ``None`` (undecided), never a guess.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

Q = sp.Symbol("q", positive=True)
"""q = e^ε − 1: ranges over (0, ∞) as ε does."""


def _poly_sign(f: sp.Expr) -> int | None:
    """Sign of a polynomial on the nonnegative orthant of its symbols: 2 (> 0), 1 (≥ 0), −1, −2,
    or None when its coefficients have both signs.  Strict when a monomial of the sign's
    coefficients involves only positive symbols (e.g. the constant term)."""
    syms = sorted(f.free_symbols, key=str)
    if not syms:
        v = sp.nsimplify(f)
        return 2 if v > 0 else (-2 if v < 0 else 0)
    if not all(s.is_nonnegative for s in syms):
        return None
    try:
        p = sp.Poly(f, *syms)
    except sp.PolynomialError:  # not a polynomial in its symbols (e.g. exp(x))
        return None
    terms = p.terms()
    for sign in (1, -1):
        if all(sign * c >= 0 for _, c in terms):
            strict = any(sign * c > 0 and all(e == 0 or syms[i].is_positive
                                              for i, e in enumerate(m)) for m, c in terms)
            return 2 * sign if strict else sign
    return None


def certify_sign(expr: sp.Expr) -> tuple[int | None, str]:
    """(sign, factored form): 2 if expr > 0, 1 if ≥ 0, 0 if identically 0, −1 / −2 for ≤ / <,
    on the nonnegative orthant of its symbols; None when the factor test does not decide."""
    e = sp.factor(sp.cancel(sp.together(expr)))
    if e == 0:
        return 0, "0"
    num, den = sp.fraction(e)
    sign, strict = 1, True
    for part, is_den in ((num, False), (den, True)):
        coeff, factors = sp.factor_list(part)
        if coeff < 0:
            sign = -sign
        for f, k in factors:
            s = _poly_sign(f)
            if s is None:
                if k % 2 == 0 and not is_den:
                    strict = False
                    continue
                return None, str(e)
            if is_den and abs(s) != 2:
                return None, str(e)  # a denominator that may vanish
            if s < 0 and k % 2:
                sign = -sign
            strict = strict and abs(s) == 2
    return (2 if strict else 1) * sign, str(e)


def exact_eps(eps: Any) -> sp.Expr:
    """A float ε of the grids as an exact sympy number: ln 2 as log(2), others from their
    decimal text (0.01 → 1/100)."""
    if isinstance(eps, sp.Basic):
        return eps
    if abs(float(eps) - float(sp.log(2))) < 1e-15:
        return sp.log(2)
    return sp.Rational(str(eps))
