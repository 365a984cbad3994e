"""Referee for GROUP = noise_ch4: thesis chapter 4 (optimal data-independent noise).

Source: /work/shared/seeds/000_65177858bc9aa63c.txt (the thesis), chapter 4: section 4.1
(Definitions 6-8), section 4.2 (Inequalities (4.1)/(4.2)), section 4.3 (the Laplace construction, m_i),
section 4.4 (Lemma 1, Lemma 2, Corollary 1, Theorem 1 and proof, Theorem 2, the M0-d relation, V(Z),
Figures 4.2/4.3, Tables 4.1/4.2). Written from the seed text alone, without reading privlab's
checkers.

Reconstructed formulas (the extraction garbled them; the reconstruction is checked against the
derivation around each one):
  * section 4.3: m_i = Delta*(1 - e^-eps - eps*e^-eps) / (eps*(1 - e^-eps)). The printed text reads
    "Delta / eps(1-e^-eps)(1-e^-eps-eps e^-eps)"; solving the printed mass-conservation equation
    gives the fraction above, and the literal product reading would give m > Delta (5.99 at eps=1).
  * Theorem 1 staircase ("consistent reading", also used by the M0-d relation and V(Z)): half-density
    M0 on [0, d], M0*e^{-(i+1)eps} on [d+i*Delta, d+(i+1)*Delta], i = 0, 1, ...; mirrored for x < 0.
    The printed form "M0 e^{-i eps} on [d+i Delta, d+(i+1) Delta], i in N" is checked separately
    under both literal readings (N from 0 or from 1) in thesis:thm-1-indexing.
  * Lemma 2's "for all i in Y" is read as i in N = {0, 1, ...}.
  * Neighbour relation: only d = f(D) - f(D') in [-Delta, Delta] matters (relation-agnostic); the
    DP condition for an a.c. noise is f(x) <= e^eps f(y) whenever |x - y| <= Delta (continuity points).
  * Confidence interval: symmetric interval [-t, t] with P(|Y| <= t) = 0.95, length 2t.
  * Definition 6 and the rational user: a user with a loss L that is non-increasing on (-inf, 0]
    and non-decreasing on [0, inf). Chapter 4 restricts itself to a.c. noise; the reading taken is
    noise without an atom at 0 (which includes every a.c. and every eps-DP noise here).

How each claim was decided:
  * def-6, def-7, def-8: exhaustive enumeration with Fractions over all distributions with
    probabilities in multiples of 1/4 on {-2,-1,1,2} (35 laws, 1225 pairs) and all losses of the
    family (tail indicators = extreme rays of the unimodal-loss cone); Def. 7 sets on {-2..2} and
    on {-1,0,1}^2 enumerated. The atom-at-0 counterexample for general laws is reported.
  * eq-4.2: exact (Fractions) check on random step densities with geometric tails: the pointwise
    criterion versus (4.1) evaluated on batteries of intervals/unions with arbitrary rational shifts.
  * section 4.3 (m formula, i-independence, DP of the construction, domination of Laplace): sympy
    solve + identities; domination on a 2000-point mpmath grid per eps in {0.1,0.5,1,2,5,10} plus
    the sign argument (bang-bang rearrangement within each period).
  * Lemma 1: sympy integrals for the Laplace density (equality iff I is in [0, inf)).
  * Theorem 1 (as printed, zero mean only): explicit zero-mean asymmetric-Laplace counterexample,
    exact with sympy.
  * Theorem 1 for symmetric Y, Lemma 2, Corollary 1, Theorem 2: an independent proof (symmetric
    decreasing rearrangement -> geometric extension of the first period -> two-level step). The
    construction is run in exact rational arithmetic (q = e^-eps rational: eps = ln 2, ln 3,
    ln 22026 ~ 10) on 40 random symmetric DP step densities (monotone and non-monotone) and on mixtures
    of staircases; each time the resulting member is verified exactly to be eps-DP and <= Y.
    Theorem 2 additionally uses the sympy identity showing that distinct interior members are
    incomparable, exact comparisons of members (the d = 0 member, which is the same law as d = Delta,
    turns out to be strictly dominated by every interior member), and an LP (HiGHS) on a grid
    (h = Delta/20, 6 periods + geometric tail) searching for a DP step density that dominates a
    member (gain 0 for d in {.25,.5,.75}; > 0 for d = 0, d = Delta and d = 1.5 Delta).
  * Theorem 2 with d > Delta: explicit exact counterexample (mass moved from [c, d] to [0, a]).
  * Proof construction of Theorem 1: explicit counterexample to the step (a density satisfying
    Corollary 1 whose per-period minimum m0 exceeds M0 e^-eps is left unchanged by the
    redistribution and is not of the Theorem-1 form).
  * V(Z), Figures 4.2/4.3, Tables 4.1/4.2: sympy closed form of the series; mpmath (workdps 30/40)
    minimisation over d (grid + golden section; d in [0, 4] for the CI) for eps in {0.1, 0.5, 1}.
    Table cells are compared at the printed 2-decimal precision (rounding, as Table 4.1 uses).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction as F

import mpmath
import numpy as np
import sympy as sp
from scipy.optimize import linprog
from scipy.sparse import coo_matrix

# ---------------------------------------------------------------------------------------------
# exact engine for symmetric piecewise-constant densities with geometric tails (Fractions)
# ---------------------------------------------------------------------------------------------


class Half:
    """Half-density on [0, inf): pieces (x0, x1, v) covering [0, P*D); for x >= (P-1)*D the tail is
    geometric: g(x + D) = q g(x). The full density is symmetric: f(-x) = g(x)."""

    def __init__(self, pieces, P, q, D=F(1)):
        self.pieces = [(F(a), F(b), F(v)) for a, b, v in pieces if b > a]
        self.P, self.q, self.D = P, F(q), F(D)

    def expand(self, X):
        """pieces up to X (X a multiple of D, >= P*D), adjacent equal values merged."""
        out = list(self.pieces)
        last = [p for p in self.pieces if p[0] >= (self.P - 1) * self.D]
        k = 1
        while self.P * self.D + (k - 1) * self.D < X:
            for a, b, v in last:
                out.append((a + k * self.D, b + k * self.D, v * self.q ** k))
            k += 1
        out = [p for p in out if p[0] < X]
        merged = []
        for p in sorted(out):
            if merged and merged[-1][1] == p[0] and merged[-1][2] == p[2]:
                merged[-1] = (merged[-1][0], p[1], p[2])
            else:
                merged.append(p)
        return merged

    def mass(self):
        tot = sum((b - a) * v for a, b, v in self.pieces if b <= (self.P - 1) * self.D)
        lastm = sum((b - a) * v for a, b, v in self.pieces if a >= (self.P - 1) * self.D)
        return tot + lastm / (1 - self.q)

    def G(self, alpha):
        """P(0 <= Y <= alpha)."""
        alpha = F(alpha)
        X = max(self.P, math.ceil(alpha / self.D) + 1) * self.D
        s = F(0)
        for a, b, v in self.expand(X):
            if a >= alpha:
                break
            s += (min(b, alpha) - a) * v
        return s

    def scaled(self, c):
        return Half([(a, b, v * c) for a, b, v in self.pieces], self.P, self.q, self.D)


def staircase(d, q, D=F(1)):
    """Theorem-1 member (consistent reading): M0 on [0,d], M0 q^(i+1) on [d+iD, d+(i+1)D]."""
    d, q, D = F(d), F(q), F(D)
    M0 = (1 - q) / (2 * (d * (1 - q) + q * D))
    if d <= D:
        return Half([(0, d, M0), (d, D, M0 * q)], 1, q, D)
    P = math.ceil(d / D) + 1  # geometric from (P-1) D >= d on
    pieces, x, k = [(F(0), d, M0)], d, 1
    while x < P * D:
        pieces.append((x, min(x + D, P * D), M0 * q ** k))
        x, k = x + D, k + 1
    return Half(_split(pieces, (P - 1) * D), P, q, D)


def _split(pieces, x):
    out = []
    for a, b, v in pieces:
        if a < x < b:
            out += [(a, x, v), (x, b, v)]
        else:
            out.append((a, b, v))
    return out


def full_line(h, X):
    pos = h.expand(X)
    neg = [(-b, -a, v) for a, b, v in pos]
    merged = []
    for p in sorted(neg + pos):
        if merged and merged[-1][1] == p[0] and merged[-1][2] == p[2]:
            merged[-1] = (merged[-1][0], p[1], p[2])
        else:
            merged.append(p)
    return merged


def dp_check(h, E, extra=2):
    """eps-DP of the symmetric density: v_A <= E v_B for pieces with interior points at distance
    <= D (i.e. gap < D). Returns (ok, worst ratio)."""
    X = (h.P + extra) * h.D
    pcs = full_line(h, X)
    worst = F(0)
    ok = True
    for i, (a0, a1, va) in enumerate(pcs):
        for b0, b1, vb in pcs[i + 1:]:
            if b0 - a1 >= h.D:
                break
            lo, hi = min(va, vb), max(va, vb)
            if lo == 0:
                return False, float("inf")
            r = hi / lo
            worst = max(worst, r)
            if r > E:
                ok = False
    return ok, worst


def dominates(Z, Y):
    """Z <= Y in Definition 6 (symmetric laws): G_Z >= G_Y on [0, inf). Exact, via breakpoints;
    beyond max(P)+1 periods both tails are geometric with the same ratio q."""
    assert Z.q == Y.q
    if Z.mass() != F(1, 2) or Y.mass() != F(1, 2):
        return False, None
    X = (max(Z.P, Y.P) + 1) * Z.D
    bps = sorted({p[0] for p in Z.expand(X)} | {p[1] for p in Z.expand(X)}
                 | {p[0] for p in Y.expand(X)} | {p[1] for p in Y.expand(X)})
    gaps = [Z.G(a) - Y.G(a) for a in bps if a <= X]
    return min(gaps) >= 0, min(gaps)


def chain(Y, K=None):
    """The referee's construction: symmetric decreasing rearrangement -> geometric extension of its
    first period (scaled to mass 1/2) -> two-level step. Returns gamma (the member's d) and a."""
    q, D = Y.q, Y.D
    # enough periods so that every later cell value is below the kept ones
    K = K or 1
    while True:
        X = (Y.P + K) * D
        pcs = Y.expand(X)
        srt = sorted(pcs, key=lambda p: -p[2])
        need, first = D, []
        for a, b, v in srt:
            if need <= 0:
                break
            ln = min(b - a, need)
            first.append((ln, v))
            need -= ln
        vmin = first[-1][1]
        lastmax = max(v for a, b, v in pcs if a >= X - D)
        if lastmax * q < vmin or lastmax == 0:
            break
        K += 1
    p0 = sum(ln * v for ln, v in first)
    c = (1 - q) / (2 * p0)
    a = c * first[0][1]
    gamma = ((1 - q) / 2 - a * q * D) / (a * (1 - q))
    return gamma, a, c


def random_dp_half(rng, n, P, q, monotone, D=F(1)):
    """Random symmetric eps-DP step density (cells of width D/n, P periods, geometric tail)."""
    E = 1 / q
    h = D / n
    v = []
    for j in range(P * n):
        cons = [v[k] for k in range(max(0, j - n), j)]
        cons += [v[k] for k in range(j) if j + k + 1 <= n]
        if not cons:
            v.append(F(1))
            continue
        lo, hi = max(cons) / E, min(cons) * E
        if monotone or j >= (P - 1) * n:
            hi = min(hi, v[j - 1])
        r = F(int(rng.integers(0, 1001)), 1000)
        if not monotone and j < (P - 1) * n:
            r = r * r  # drift downwards, but allow increases
        else:
            r = r ** 3
        v.append(lo + (hi - lo) * r)
    half = Half([(j * h, (j + 1) * h, v[j]) for j in range(P * n)], P, q, D)
    return half.scaled(F(1, 2) / half.mass())


def mixture(hs, ws):
    """mixture of Half densities (same q, D), on the common refinement of their pieces."""
    q, D = hs[0].q, hs[0].D
    P = max(h.P for h in hs)
    X = P * D
    exp = [h.expand(X) for h in hs]
    cuts = sorted({F(0), X, (P - 1) * D} | {c for e in exp for p in e for c in p[:2] if c <= X})
    pieces = []
    for a, b in zip(cuts, cuts[1:]):
        mid = (a + b) / 2
        val = sum(w * next(v for x0, x1, v in e if x0 <= mid < x1) for e, w in zip(exp, ws))
        pieces.append((a, b, val))
    return Half(pieces, P, q, D)


# ---------------------------------------------------------------------------------------------
# mpmath helpers for the staircase family (consistent reading)
# ---------------------------------------------------------------------------------------------


def mp_M0(d, eps, D=1):
    q = mpmath.e ** (-eps)
    return (1 - q) / (2 * (d * (1 - q) + q * D))


def mp_var(d, eps, D=1):
    """closed form of V(Z) (series summed: S0 = 1/(1-q), S1 = q/(1-q)^2, S2 = q(1+q)/(1-q)^3)."""
    q = mpmath.e ** (-eps)
    m = mp_M0(d, eps, D)
    S0, S1, S2 = 1 / (1 - q), q / (1 - q) ** 2, q * (1 + q) / (1 - q) ** 3
    s = (D ** 3 * (3 * S2 + 3 * S1 + S0) + 3 * d * D ** 2 * (2 * S1 + S0) + 3 * d ** 2 * D * S0) / 3
    return 2 * m * (d ** 3 / 3 + q * s)


def mp_var_series(d, eps, D=1):
    q = mpmath.e ** (-eps)
    m = mp_M0(d, eps, D)
    s = mpmath.nsum(lambda i: q ** i * ((d + (i + 1) * D) ** 3 - (d + i * D) ** 3) / 3, [0, mpmath.inf])
    return 2 * m * (d ** 3 / 3 + q * s)


def mp_G(a, d, eps, D=1):
    q = mpmath.e ** (-eps)
    m = mp_M0(d, eps, D)
    if a <= d:
        return m * a
    k = int(mpmath.floor((a - d) / D))
    t = a - d - k * D
    return m * d + m * q * D * (1 - q ** k) / (1 - q) + m * q ** (k + 1) * t


def mp_halfwidth(d, eps, D=1, p=None):
    """t with P(|Y| <= t) = p for the member d (exact inversion of the piecewise-linear G)."""
    p = mpmath.mpf("0.95") if p is None else p
    q = mpmath.e ** (-eps)
    m = mp_M0(d, eps, D)
    target = p / 2
    if m * d >= target:
        return target / m
    base, k = m * d, 0
    while True:
        seg = m * q ** (k + 1) * D
        if base + seg >= target:
            return d + k * D + (target - base) / (m * q ** (k + 1))
        base += seg
        k += 1


def _golden(f, a, b, it=90, maximize=False):
    sgn = -1 if maximize else 1
    for _ in range(it):
        c1 = a + (b - a) * mpmath.mpf("0.381966011250105")
        c2 = a + (b - a) * mpmath.mpf("0.618033988749895")
        if sgn * f(c1) < sgn * f(c2):
            b = c2
        else:
            a = c1
    return (a + b) / 2


def _min_var(eps):
    with mpmath.workdps(30):
        f = lambda d: mp_var(d, eps)  # noqa: E731
        dstar = mpmath.findroot(lambda d: mpmath.diff(f, d), mpmath.mpf("0.4"))
        return dstar, f(dstar)


def _min_ci(eps, dmax=1, N=2000):
    with mpmath.workdps(30):
        vals = [(mp_halfwidth(mpmath.mpf(k) * dmax / N, eps), mpmath.mpf(k) * dmax / N) for k in range(N + 1)]
        _, d = min(vals)
        lo, hi = max(d - mpmath.mpf(dmax) / N, 0), min(d + mpmath.mpf(dmax) / N, dmax)
        d = _golden(lambda x: mp_halfwidth(x, eps), lo, hi)
        return d, 2 * mp_halfwidth(d, eps)


# ---------------------------------------------------------------------------------------------
# Definitions 6-8
# ---------------------------------------------------------------------------------------------

SUPP = [-2, -1, 1, 2]


def _laws():
    out = []
    for a in range(5):
        for b in range(5 - a):
            for c in range(5 - a - b):
                out.append(dict(zip(SUPP, [F(a, 4), F(b, 4), F(c, 4), F(4 - a - b - c, 4)])))
    return out


def _def6_le(p1, p2, pts=(-3, -2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 3)):
    """Y1 <= Y2 per Definition 6, checked at alphas covering all support cases."""
    def P(p, al):
        return sum(w for x, w in p.items() if (0 <= x <= al) or (al <= x <= 0))
    return all(P(p1, al) >= P(p2, al) for al in pts)


def _all_users_prefer(p1, p2):
    """E L(Y1) <= E L(Y2) for the extreme rays of unimodal-at-0 losses: 1{y > t}, 1{y < -t}, t >= 0."""
    for t in (0, 0.5, 1, 1.5, 2):
        if sum(w for x, w in p1.items() if x > t) > sum(w for x, w in p2.items() if x > t):
            return False
        if sum(w for x, w in p1.items() if x < -t) > sum(w for x, w in p2.items() if x < -t):
            return False
    return True


def claim_def6():
    laws = _laws()
    n_le = n_mismatch = 0
    for p1 in laws:
        for p2 in laws:
            le = _def6_le(p1, p2)
            n_le += le
            if le != _all_users_prefer(p1, p2):
                n_mismatch += 1
    # atom at 0: Y1 = 1/2 delta_0 + 1/2 delta_100 vs Y2 = N(0,1)
    with mpmath.workdps(30):
        ok_atom = all((0.5 if al < 100 else 1.0) >= float(mpmath.ncdf(al)) - 0.5 for al in (0.1, 1, 10, 99, 200)) \
            and all(0.5 >= 0.5 - float(mpmath.ncdf(al)) for al in (-0.1, -1, -10))
    return {"holds": n_mismatch == 0, "method": "exhaustive",
            "domain": "all 35 laws on {-2,-1,1,2} with probabilities in 1/4 (1225 pairs); all tail-indicator losses",
            "numbers": {"pairs_ordered": n_le, "mismatches_def6_vs_all_users_prefer": n_mismatch,
                        "general_law_counterexample": "Y1=.5d0+.5d100 <= N(0,1) by Def 6 (checked: %s) but MSE 5000>1" % ok_atom},
            "note": "For laws without an atom at 0 (all a.c. / eps-DP noises of ch.4) Def. 6 is exactly 'every user with a "
                    "loss non-decreasing away from 0 prefers Y1'; for arbitrary laws (Def. 6 says 'random noise distributions') "
                    "an atom at 0 breaks the rational-user justification."}


def claim_def7():
    # 1-D: sets S of grid points {-2..2} closed under <0,x> are exactly the intervals containing 0 (or empty)
    grid = [-2, -1, 0, 1, 2]
    closed = []
    for mask in range(1 << 5):
        S = {g for i, g in enumerate(grid) if mask >> i & 1}
        if all(all(y in S for y in grid if (0 <= y <= x) or (x <= y <= 0)) for x in S):
            closed.append(S)
    ok_int = all((not S) or (0 in S and S == set(range(min(S), max(S) + 1))) for S in closed)
    # Def 7 (d=1) order == Def 6 order on laws without atom at 0
    laws = _laws()
    intervals = [(a, b) for a in (-3, -2, -1.5, -1, -0.5, 0) for b in (0, 0.5, 1, 1.5, 2, 3)]
    mism = 0
    for p1 in laws:
        for p2 in laws:
            le7 = all(sum(w for x, w in p1.items() if a <= x <= b) >= sum(w for x, w in p2.items() if a <= x <= b)
                      for a, b in intervals)
            mism += le7 != _def6_le(p1, p2)
    # 2-D: moving mass towards zero never decreases P(S) for S closed under <0,x>
    pts = [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)]
    Ss = []
    for mask in range(1 << 9):
        S = {p for i, p in enumerate(pts) if mask >> i & 1}

        def box(p):
            return {(x, y) for (x, y) in pts if (0 <= x <= p[0] or p[0] <= x <= 0) and (0 <= y <= p[1] or p[1] <= y <= 0)}
        if all(box(p) <= S for p in S):
            Ss.append(S)
    rng = np.random.default_rng(7)
    bad2 = 0
    for _ in range(200):
        w = rng.integers(0, 5, size=9)
        p2 = {p: int(c) for p, c in zip(pts, w)}
        p1 = dict(p2)
        src = pts[int(rng.integers(0, 9))]
        dst_choices = [p for p in pts if (0 <= p[0] <= src[0] or src[0] <= p[0] <= 0) and (0 <= p[1] <= src[1] or src[1] <= p[1] <= 0)]
        dst = dst_choices[int(rng.integers(0, len(dst_choices)))]
        mv = p1[src]
        p1[src] -= mv
        p1[dst] += mv
        bad2 += any(sum(p1[p] for p in S) < sum(p2[p] for p in S) for S in Ss)
    holds = ok_int and mism == 0 and bad2 == 0
    return {"holds": holds, "method": "exhaustive",
            "domain": "1-D sets on {-2..2}; 1225 law pairs on {-2,-1,1,2}; 2-D sets on {-1,0,1}^2, 200 random moves",
            "numbers": {"closed_sets_1d": len(closed), "def7_vs_def6_mismatch": mism, "closed_sets_2d": len(Ss),
                        "moves_violating": bad2},
            "note": "Definition as printed; in R the admissible S are the intervals containing 0, so Def. 7 reduces to Def. 6 "
                    "for laws without an atom at 0, and mass moved towards zero never lowers P(S)."}


def claim_def8():
    laws = _laws()
    minimal = [p for p in laws if not any(_def6_le(r, p) and not _def6_le(p, r) for r in laws)]
    # the staircase members are pairwise incomparable, so optimal elements are many (checked in thm-2)
    return {"holds": True, "method": "exhaustive",
            "domain": "35 laws on {-2,-1,1,2}",
            "numbers": {"minimal_elements_in_toy_class": len(minimal)},
            "note": "Definition (minimal element for the strict order of Defs. 6/7); restated faithfully. Optimal elements "
                    "are not unique (toy class has several; staircase members are mutually incomparable)."}


# ---------------------------------------------------------------------------------------------
# Section 4.2
# ---------------------------------------------------------------------------------------------


def claim_eq42():
    rng = np.random.default_rng(42)
    E = F(3)  # plays the role of e^eps; the equivalence does not depend on its value
    q = F(1, 3)
    agree = n = n_dp = 0
    for trial in range(30):
        h = random_dp_half(rng, 4, 2, q, monotone=False)
        if trial % 2:  # perturb to create violations
            pcs = list(h.pieces)
            j = int(rng.integers(0, len(pcs)))
            a, b, v = pcs[j]
            pcs[j] = (a, b, v * F(int(rng.integers(2, 6)), 1))
            h = Half(pcs, h.P, h.q, h.D)
            h = h.scaled(F(1, 2) / h.mass())
        pw_ok, _ = dp_check(h, E)
        n_dp += pw_ok
        # (4.1) on sets: unions of intervals with rational endpoints, rational shifts d in [-1, 1]
        pcs = full_line(h, (h.P + 5) * h.D)

        def Pint(a, b):
            s = F(0)
            for x0, x1, v in pcs:
                lo, hi = max(a, x0), min(b, x1)
                if hi > lo:
                    s += (hi - lo) * v
            return s
        set_ok = True
        for _ in range(150):  # (4.2) => (4.1): random unions of intervals, random rational shifts
            S = []
            for _ in range(int(rng.integers(1, 3))):
                a = F(int(rng.integers(-300, 300)), 97)
                S.append((a, a + F(int(rng.integers(1, 40)), 211)))
            dsh = F(int(rng.integers(-100, 101)), 100)
            if sum(Pint(a, b) for a, b in S) > E * sum(Pint(a + dsh, b + dsh) for a, b in S):
                set_ok = False
                break
        if set_ok and not pw_ok:  # not (4.2) => not (4.1): a small interval next to the violating pair
            for ia, (a0, a1, va) in enumerate(pcs):
                for b0, b1, vb in pcs:
                    if not va > E * vb:
                        continue
                    if b0 >= a1 and b0 - a1 < 1:
                        eta = min((1 - (b0 - a1)) / 4, (a1 - a0) / 4, (b1 - b0) / 4)
                        Sa, Sb, dsh = a1 - 2 * eta, a1 - eta, (b0 + eta) - (a1 - 2 * eta)
                    elif a0 >= b1 and a0 - b1 < 1:
                        eta = min((1 - (a0 - b1)) / 4, (a1 - a0) / 4, (b1 - b0) / 4)
                        Sa, Sb, dsh = a0 + eta, a0 + 2 * eta, (b1 - 2 * eta) - (a0 + eta)
                    else:
                        continue
                    assert abs(dsh) <= 1
                    if Pint(Sa, Sb) > E * Pint(Sa + dsh, Sb + dsh):
                        set_ok = False
                        break
                if not set_ok:
                    break
        n += 1
        agree += set_ok == pw_ok
    return {"holds": agree == n, "method": "exact",
            "domain": "30 random step densities (15 DP, 15 perturbed), 150 random sets (unions of 1-2 intervals) and rational shifts each",
            "numbers": {"densities": n, "agreements": agree, "pointwise_dp": n_dp},
            "note": "(4.2) implies (4.1) by integrating over S; a pointwise violation gives a violating small interval. "
                    "The text cites '(5.3)' where (4.1) is meant (cross-reference garbled)."}


# ---------------------------------------------------------------------------------------------
# Section 4.3
# ---------------------------------------------------------------------------------------------

_eps, _D, _m, _d, _M0, _m0, _x = sp.symbols("epsilon Delta m d M0 m0 x", positive=True)
_i = sp.symbols("i", integer=True, nonnegative=True)


def _m_solution():
    eq = sp.Eq(_eps * sp.exp(-_i * _eps) / (2 * _D) * _m + _eps * sp.exp(-(_i + 1) * _eps) / (2 * _D) * (_D - _m),
               sp.exp(-_i * _eps) * (1 - sp.exp(-_eps)) / 2)
    return sp.solve(eq, _m)


def claim_m_indep():
    sol = _m_solution()
    free = [s.free_symbols for s in sol]
    ok = len(sol) == 1 and _i not in sol[0].free_symbols
    return {"holds": ok, "method": "symbolic", "domain": "eps, Delta > 0 symbolic, i in N",
            "numbers": {"m": str(sp.simplify(sol[0]))[:80], "free_symbols": str(sorted(map(str, free[0])))},
            "note": "sympy solves the mass-conservation equation; e^{-i eps} cancels, so m_i does not depend on i."}


def claim_m_formula():
    sol = _m_solution()[0]
    target = _D * (1 - sp.exp(-_eps) - _eps * sp.exp(-_eps)) / (_eps * (1 - sp.exp(-_eps)))
    ok = sp.simplify(sol - target) == 0
    literal = _D / (_eps * (1 - sp.exp(-_eps)) * (1 - sp.exp(-_eps) - _eps * sp.exp(-_eps)))
    with mpmath.workdps(30):
        vals = {f"m(eps={e})": float(target.subs({_eps: e, _D: 1}).evalf(20)) for e in (0.1, 1, 10)}
        in_range = all(0 < float(target.subs({_eps: e, _D: 1}).evalf(20)) < 1 for e in (0.01, 0.1, 0.5, 1, 2, 5, 10, 50))
    vals["literal_product_reading_eps1"] = float(literal.subs({_eps: 1, _D: 1}).evalf(15))
    return {"holds": bool(ok and in_range), "method": "symbolic", "domain": "eps, Delta > 0 symbolic; 0<m<Delta at eps in {0.01..50}",
            "numbers": vals,
            "note": "The printed expression is garbled; the fraction in the claim is exactly the solution of the printed "
                    "mass-conservation equation (the literal product reading would give m > Delta)."}


def claim_43_dp():
    sol = _m_solution()[0]
    # the construction is the member d = m with M0 = eps/(2 Delta); check the M0-d relation and DP
    M0 = _eps / (2 * _D)
    d_rel = (1 - sp.exp(-_eps) - 2 * M0 * sp.exp(-_eps) * _D) / (2 * (1 - sp.exp(-_eps)) * M0)
    same = sp.simplify(d_rel - sol) == 0
    # pieces: [0,m]: eps/(2D); [m+iD, m+(i+1)D]: eps e^{-(i+1)eps}/(2D): consecutive ratio e^eps, width D
    # exact DP check on rational instances (q = 1/2, 1/3, 1/22026): the construction with m from the formula
    ok_all = True
    worst = {}
    for q in (F(1, 2), F(1, 3), F(1, 22026)):
        with mpmath.workdps(40):
            e_ = mpmath.log(mpmath.mpf(q.denominator) / q.numerator)
            qq = mpmath.e ** (-e_)
            m_f = F(mpmath.nstr((1 - qq - e_ * qq) / (e_ * (1 - qq)), 35)).limit_denominator(10 ** 15)
            M0v = F(mpmath.nstr(e_ / 2, 35)).limit_denominator(10 ** 15)
        h = Half([(0, m_f, M0v), (m_f, 1, M0v * q)], 1, q)
        ok, w = dp_check(h, 1 / q)
        ok_all &= ok
        worst[f"max_ratio/e^eps(q={q})"] = float(w * q)
    return {"holds": bool(same and ok_all), "method": "symbolic",
            "domain": "symbolic M0-d relation; exact DP check at eps = ln2, ln3, ln22026 (~10)",
            "numbers": worst,
            "note": "Joining the low part of period i with the high part of period i+1 gives steps of width Delta whose "
                    "heights drop by e^-eps: the member d = m, M0 = eps/(2 Delta); the M0-d relation gives back d = m."}


def claim_43_smaller():
    sol = _m_solution()[0]
    res = {}
    ok = True
    # mass conservation (difference at the period end is 0) symbolically
    lap = _eps / (2 * _D) * sp.exp(-_eps * _x / _D)
    diff_end = sp.simplify(_eps / (2 * _D) * sol + _eps * sp.exp(-_eps) / (2 * _D) * (_D - sol)
                           - sp.integrate(lap, (_x, 0, _D)))
    ok &= diff_end == 0
    with mpmath.workdps(30):
        for e in ("0.1", "0.5", "1", "2", "5", "10"):
            eps = mpmath.mpf(e)
            m = float(sol.subs({_eps: sp.Rational(e), _D: 1}).evalf(30))
            m = mpmath.mpf(m)
            mn = mpmath.inf
            for k in range(1, 2001):
                a = mpmath.mpf(k) / 2000 * 3  # alpha in (0, 3], periods 0..2
                i = int(mpmath.floor(a))
                t = a - i
                base = (1 - mpmath.e ** (-i * eps)) / 2
                Gn = base + mpmath.e ** (-i * eps) * (eps / 2 * min(t, m) + eps * mpmath.e ** (-eps) / 2 * max(t - m, 0))
                Gl = (1 - mpmath.e ** (-eps * a)) / 2
                mn = min(mn, Gn - Gl)
            gap_mid = eps / 2 * m - (1 - mpmath.e ** (-eps * m)) / 2
            ok &= mn >= -mpmath.mpf(10) ** -25 and gap_mid > 0
            res[f"maxgap(eps={e})"] = float(gap_mid)
    return {"holds": bool(ok), "method": "symbolic",
            "domain": "symbolic period mass; alpha grid 2000 pts on (0,3] for eps in {0.1,0.5,1,2,5,10}",
            "numbers": res,
            "note": "Within each period the two-valued density puts max first: G_new - G_Lap rises on [0,m] "
                    "(1-e^-x < x) and falls back to 0 at the period end, so G_new >= G_Lap with strict inequality inside."}


# ---------------------------------------------------------------------------------------------
# Section 4.4
# ---------------------------------------------------------------------------------------------


def claim_lemma1():
    a, b = sp.symbols("a b", real=True)
    c = _eps / (2 * _D)
    # Laplace(Delta/eps); interval I = [a, b]
    fpos = lambda x: c * sp.exp(-_eps * x / _D)  # noqa: E731
    fneg = lambda x: c * sp.exp(_eps * x / _D)  # noqa: E731
    # I in [0, inf): integrand f(x+D) - e^-eps f(x) vanishes identically
    integrand_pos = sp.simplify(fpos(_x + _D) - sp.exp(-_eps) * fpos(_x))
    # I in [-D, 0]: integrand = c e^-eps (e^{-eps x/D} - e^{eps x/D}) > 0 for x < 0
    integrand_mid = sp.simplify(fpos(_x + _D) - sp.exp(-_eps) * fneg(_x))
    val = sp.integrate(integrand_mid, (_x, -_D / 2, 0)).subs({_eps: 1, _D: 1})
    # I in (-inf, -D]: f(x+D) = e^{eps} f(x): integrand = (e^eps - e^-eps) f(x) > 0
    ok = integrand_pos == 0 and float(val) > 0
    return {"holds": bool(ok), "method": "symbolic", "domain": "Laplace(Delta/eps), I subset [0,inf) vs I meeting (-Delta,0)",
            "numbers": {"integrand_on_[0,inf)": str(integrand_pos), "P(I+D)-e^-eps P(I), I=[-1/2,0], eps=D=1": float(val)},
            "note": "DP at d = Delta gives f(x+Delta) - e^-eps f(x) >= 0 a.e.; its integral over I is 0 iff it vanishes a.e. on I "
                    "(at continuity points under the chapter's regularity assumptions)."}


QS = (F(1, 2), F(1, 3), F(1, 22026))  # eps = ln 2, ln 3, ~10


def _chain_battery(n_random=12):
    """Run the construction on random symmetric DP densities and mixtures; return stats."""
    rng = np.random.default_rng(2024)
    stats = {"non_monotone_inputs": 0, "cases": 0, "dominated": 0, "member_dp": 0, "gamma_in_[0,D]": 0, "already_member": 0,
             "non_geometric_inputs": 0, "non_geometric_strictly_dominated": 0}
    worst_gap = None
    for q in QS:
        cases = []
        for k in range(n_random):
            cases.append(random_dp_half(rng, 4 + (k % 3), 3, q, monotone=(k % 2 == 0)))
        cases.append(mixture([staircase(F(1, 10), q), staircase(F(9, 10), q)], [F(1, 2), F(1, 2)]))
        cases.append(mixture([staircase(F(1, 5), q), staircase(F(1, 2), q), staircase(F(1), q)], [F(1, 3)] * 3))
        cases.append(staircase(F(3, 7), q))
        cases.append(Half([(0, F(1, 2), F(1)), (F(1, 2), 1, (1 + q) / 2)], 1, q).scaled(F(1)))
        cases[-1] = cases[-1].scaled(F(1, 2) / cases[-1].mass())
        for Y in cases:
            ok_dp, _ = dp_check(Y, 1 / q)
            pcs_ = Y.expand(Y.P * Y.D)
            stats["non_monotone_inputs"] += any(p2[2] > p1[2] for p1, p2 in zip(pcs_, pcs_[1:]))
            assert ok_dp, "generator produced a non-DP density"
            g, a, c = chain(Y)
            Z = staircase(g, q)
            stats["cases"] += 1
            stats["gamma_in_[0,D]"] += 0 <= g <= 1
            stats["member_dp"] += dp_check(Z, 1 / q)[0]
            dom, gap = dominates(Z, Y)
            stats["dominated"] += dom
            geo = _is_geometric(Y)
            stats["non_geometric_inputs"] += not geo
            if not geo:
                # strictly dominated: some G_Z(alpha) > G_Y(alpha)
                X = (Y.P + 1) * Y.D
                bps = sorted({p[0] for p in Y.expand(X)} | {p[1] for p in Y.expand(X)} | {g, g + 1})
                stats["non_geometric_strictly_dominated"] += any(Z.G(x) > Y.G(x) for x in bps)
            same = all(Z.G(x) == Y.G(x) for x in [F(k, 7) for k in range(0, 22)])
            stats["already_member"] += same
            worst_gap = gap if worst_gap is None else min(worst_gap, gap)
    return stats, worst_gap


def _is_geometric(Y):
    X = (Y.P + 2) * Y.D
    pcs = Y.expand(X)
    for a, b, v in pcs:
        if b + Y.D > X:
            continue
        for mid in ((a + b) / 2,):
            w = [vv for x0, x1, vv in pcs if x0 <= mid + Y.D < x1]
            if w and w[0] != Y.q * v:
                return False
    return True


_BATTERY = {}


def _battery():
    if "r" not in _BATTERY:
        _BATTERY["r"] = _chain_battery()
    return _BATTERY["r"]


def claim_thm1_symmetric():
    stats, worst = _battery()
    ok = stats["dominated"] == stats["cases"] == stats["member_dp"] == stats["gamma_in_[0,D]"]
    return {"holds": ok, "method": "exact",
            "domain": "eps = ln2, ln3, ln22026(~10); 12 random symmetric DP step densities (6 monotone, 6 not) + 2 mixtures "
                      "of members + 1 member + 1 two-level non-member per eps",
            "numbers": {**stats, "min_gap_G_member_minus_G_Y": float(worst)},
            "note": "True, but not by the thesis' proof (which assumes Y optimal). Referee proof: symmetric decreasing "
                    "rearrangement (keeps DP), rescaled geometric extension of the first period (dominates by "
                    "T(x+k Delta) >= e^{-k eps} T(x)), two-level step with levels max, max*e^-eps; verified exactly."}


def claim_thm1_zero_mean():
    # asymmetric Laplace: rate a=eps/Delta on the left, b=eps/(2Delta) on the right, shifted to zero mean
    out = {}
    ok_cex = True
    for e in (sp.Rational(1, 10), sp.Integer(1), sp.Integer(10)):
        Dl = sp.Integer(1)
        a, b = e / Dl, e / (2 * Dl)
        p = a / (a + b)  # mass right of the mode (density continuous at the mode)
        mean = p / b - (1 - p) / a
        # Y = X - mean; P(Y <= 0) = P(X <= mean) = (1-p) + p(1 - e^{-b mean})
        PYle0 = (1 - p) + p * (1 - sp.exp(-b * mean))
        x = sp.symbols("x", real=True)
        dens = sp.Piecewise((p * b * sp.exp(-b * x), x >= 0), ((1 - p) * a * sp.exp(a * x), True))
        tot = sp.integrate(p * b * sp.exp(-b * x), (x, 0, sp.oo)) + sp.integrate((1 - p) * a * sp.exp(a * x), (x, -sp.oo, 0))
        mean_chk = sp.integrate(x * p * b * sp.exp(-b * x), (x, 0, sp.oo)) + sp.integrate(x * (1 - p) * a * sp.exp(a * x), (x, -sp.oo, 0))
        lipschitz = max(a, b)  # |d log f/dx| <= eps/Delta -> eps-DP for |shift| <= Delta
        ok_cex &= bool(sp.simplify(tot - 1) == 0) and bool(sp.simplify(mean_chk - mean) == 0) and bool(lipschitz <= e / Dl) and float(PYle0) > 0.5
        out[f"P(Y<=0) eps={e}"] = float(PYle0)
        del dens
    return {"holds": not ok_cex, "method": "symbolic",
            "domain": "zero-mean asymmetric Laplace (left rate eps/Delta, right eps/(2Delta)), eps in {0.1, 1, 10}",
            "numbers": {**out, "counterexample": "Y=AsymLap(eps,eps/2)-mean; any symmetric Y~ has P(Y~ in [alpha,0]) <= 1/2 "
                                                  "< P(Y in [alpha,0]) for alpha << 0"},
            "note": "As printed (zero mean, not symmetric) Theorem 1 is false: Def. 6 forces P(Y~>=0)=P(Y>=0), impossible for a "
                    "symmetric Y~ when Y's median is not 0. The proof only treats symmetric Y (via Corollary 1)."}


def claim_thm1_proof_construction():
    # Y satisfying Corollary 1 (geometric), two-valued per period: M0 on [0, 1/2], m0 = (1+q)/2 M0 on [1/2, 1]
    res = {}
    ok_cex = True
    for q in QS:
        Y = Half([(0, F(1, 2), F(1)), (F(1, 2), 1, (1 + q) / 2)], 1, q)
        Y = Y.scaled(F(1, 2) / Y.mass())
        ok_dp, _ = dp_check(Y, 1 / q)
        M0 = Y.pieces[0][2]
        m0 = Y.pieces[1][2]
        # redistribution of each period: max on the part nearer 0, min farther; d_i from the printed formula
        di = (1 - q - 2 * m0) / (2 * (M0 - m0))
        redistributed = Half([(0, di, M0), (di, 1, m0)], 1, q)
        unchanged = all(redistributed.G(F(k, 8)) == Y.G(F(k, 8)) for k in range(0, 17))
        is_form = m0 == M0 * q  # the Theorem-1 form needs min(period i) = max(period i+1)
        ok_cex &= ok_dp and unchanged and not is_form
        # it is not optimal: the referee construction dominates it strictly
        g, a, c = chain(Y)
        dom, gap = dominates(staircase(g, q), Y)
        res[f"q={q}: d_i,m0/M0"] = f"{float(di):.4g},{float(m0 / M0):.4g}"
        res[f"q={q}: member d={float(g):.4g} dominates"] = bool(dom)
    return {"holds": not ok_cex, "method": "exact",
            "domain": "eps = ln2, ln3, ln22026; Y = two-level geometric density with m0 = (1+e^-eps)/2 M0",
            "numbers": res,
            "note": "Reading: the step as argued (Cor. 1 identity + two-valued redistribution + constant d_i). It needs "
                    "m0 = M0 e^-eps, never shown; this DP Y satisfies Cor. 1, is left unchanged, and is not of the form. "
                    "(Such Y is not optimal, so the gap is closed only by the unproved fact that optimal Y are staircases.)"}


def claim_thm1_indexing():
    q, M0, d = sp.symbols("q M0 d", positive=True)
    D = _D
    printed_d = (1 - q - 2 * M0 * q * D) / (2 * (1 - q) * M0)
    # reading N = {0,1,...}: mass 2 M0 (d + D/(1-q)) = 1
    d0 = sp.solve(sp.Eq(2 * M0 * (d + D / (1 - q)), 1), d)[0]
    diff0 = sp.simplify(d0 - printed_d)
    # reading N = {1,2,...}: mass 2 M0 (d + q D/(1-q)) = 1 matches the printed relation, but [d, d+D] is uncovered
    d1 = sp.solve(sp.Eq(2 * M0 * (d + q * D / (1 - q)), 1), d)[0]
    diff1 = sp.simplify(d1 - printed_d)
    # DP for reading 1: density M0 at d-, 0 on (d, d+D): ratio infinite -> not DP
    dp1, _ = dp_check(Half([(0, F(1, 3), F(1)), (F(1, 3), F(1), F(0)), (F(1), F(4, 3), F(0)), (F(4, 3), F(2), F(1, 2))],
                           2, F(1, 2)), 2)
    reading0_ok = diff0 == 0
    reading1_ok = diff1 == 0 and dp1
    return {"holds": bool(reading0_ok or reading1_ok), "method": "symbolic",
            "domain": "both literal readings of i in N; symbolic eps, Delta, M0",
            "numbers": {"N_from_0: d(normalised)-d(printed)": str(sp.factor(diff0)), "N_from_1: relation matches": diff1 == 0,
                        "N_from_1: eps-DP": dp1},
            "note": "From 0: normalised and DP but the relation would be d = 1/(2M0) - Delta/(1-e^-eps), not the printed one. "
                    "From 1: mass matches the printed relation but (d, d+Delta) carries no density, so not eps-DP. "
                    "Consistent form: M0 e^{-(i+1)eps} on [d+i Delta, d+(i+1) Delta], i >= 0."}


def claim_thm1_di():
    i = _i
    dd = sp.symbols("d_i", positive=True)
    eq = sp.Eq(sp.exp(-i * _eps) * _M0 * dd + sp.exp(-i * _eps) * _m0 * (_D - dd), sp.exp(-i * _eps) * (1 - sp.exp(-_eps)) / 2)
    sol = sp.solve(eq, dd)[0]
    target = (1 - sp.exp(-_eps) - 2 * _m0 * _D) / (2 * (_M0 - _m0))
    # period mass e^{-i eps}(1-e^-eps)/2 follows from the geometric identity and total mass 1/2
    j = sp.symbols("j", integer=True, nonnegative=True)
    tot = sp.summation(sp.exp(-j * _eps) * (1 - sp.exp(-_eps)) / 2, (j, 0, sp.oo))
    ok = sp.simplify(sol - target) == 0 and i not in sol.free_symbols and sp.simplify(tot - sp.Rational(1, 2)) == 0
    return {"holds": bool(ok), "method": "symbolic", "domain": "symbolic eps, Delta, M0 > m0",
            "numbers": {"d_i": str(sol)},
            "note": "Solving the printed mass equation gives the printed d_i (Delta written as Delta_f); e^{-i eps} cancels. "
                    "Degenerate when M0 = m0 (0/0: the d = 0 / d = Delta member)."}


def _tail_identity():
    d1, dl, q = sp.symbols("d1 delta q", positive=True)
    D = _D
    u = 1 - q
    d2 = d1 + dl
    M = lambda d: u / (2 * (d * u + q * D))  # noqa: E731
    # tails at alpha = d2 + k D: T_d2 = M(d2) q^{k+1} D/u ; T_d1 = M(d1) q^{k+1} (D/u - delta)
    ratio = (M(d1) * (D / u - dl)) / (M(d2) * D / u)
    A = d1 * u + q * D
    claimed = 1 + u ** 2 * dl * (D - d2) / (A * D)
    return sp.simplify(ratio - claimed) == 0


def _lp_dominator(dY, eps, n=20, L=6):
    """max sum_alpha (G_Z - G_Y) over DP step densities Z (cells D/n on [-L, L], geometric tails,
    last period non-increasing) with G_Z >= G_Y (both sides). Y = member dY (dY multiple of 1/n)."""
    q = math.exp(-eps)
    E = math.exp(eps)
    h = 1.0 / n
    N = L * n
    nv = 2 * N  # cells j = -N..N-1 -> index j+N

    def idx(j):
        return j + N
    rows, cols, vals, b_ub = [], [], [], []
    r = 0
    for j in range(-N, N):
        for k in range(j + 1, min(N, j + n + 1)):
            for (s, t) in ((j, k), (k, j)):
                rows += [r, r]
                cols += [idx(s), idx(t)]
                vals += [1.0, -E]
                b_ub.append(0.0)
                r += 1
    for j in range(N - n + 1, N):  # last period non-increasing (right) / non-decreasing towards 0 (left)
        rows += [r, r]
        cols += [idx(j), idx(j - 1)]
        vals += [1.0, -1.0]
        b_ub.append(0.0)
        r += 1
        rows += [r, r]
        cols += [idx(-j - 1), idx(-j)]
        vals += [1.0, -1.0]
        b_ub.append(0.0)
        r += 1
    # Y's G at grid points (right side alpha = k h; left symmetric)
    with mpmath.workdps(20):
        GY = [float(mp_G(mpmath.mpf(k) / n, mpmath.mpf(dY), mpmath.mpf(eps))) for k in range(N + 1)]
    # G_Z(k h) = h sum_{0<=j<k} g_j >= GY[k]  ->  -h sum <= -GY
    c = np.zeros(nv)
    for k in range(1, N + 1):
        for j in range(k):
            rows.append(r)
            cols.append(idx(j))
            vals.append(-h)
        b_ub.append(-GY[k])
        r += 1
        for j in range(k):
            rows.append(r)
            cols.append(idx(-j - 1))
            vals.append(-h)
        b_ub.append(-GY[k])
        r += 1
        for j in range(k):
            c[idx(j)] -= h
            c[idx(-j - 1)] -= h
    A_ub = coo_matrix((vals, (rows, cols)), shape=(r, nv)).tocsr()
    # equalities: each side mass 1/2 (explicit + geometric tail of last period)
    A_eq = np.zeros((2, nv))
    for j in range(0, N):
        A_eq[0, idx(j)] = h + (h * q / (1 - q) if j >= N - n else 0.0)
        A_eq[1, idx(-j - 1)] = h + (h * q / (1 - q) if j >= N - n else 0.0)
    b_eq = [0.5, 0.5]
    res = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=[(0, None)] * nv, method="highs")
    gain = -res.fun - sum(2 * GY[k] for k in range(1, N + 1)) if res.status == 0 else float("nan")
    return gain, res.status


_THM2 = {}


def _thm2_evidence():
    """exact member comparisons, the chain battery and the LP; shared by thm-2 and thm-2-interior."""
    if "r" in _THM2:
        return _THM2["r"]
    ident = _tail_identity()
    inc_interior, endpoint_dominated = True, True
    for q in QS:
        ds = [F(1, 7), F(1, 3), F(1, 2), F(5, 6), F(99, 100)]
        for a in ds:
            for b in ds:
                if a < b:
                    A, B = staircase(a, q), staircase(b, q)
                    inc_interior &= not dominates(A, B)[0] and not dominates(B, A)[0]
        # d = 0 and d = Delta: the same law; every interior member is strictly smaller
        S0, S1 = staircase(F(0), q), staircase(F(1), q)
        endpoint_dominated &= dominates(S0, S1)[0] and dominates(S1, S0)[0]
        for dd in ds:
            dom, _ = dominates(staircase(dd, q), S0)
            strict = staircase(dd, q).G(dd) > S0.G(dd)
            endpoint_dominated &= dom and strict
    stats, _ = _battery()
    chain_ok = stats["dominated"] == stats["cases"]
    lp = {}
    for eps in (0.5, 1.0, 3.0):
        for dY in (0.0, 0.25, 0.5, 0.75, 1.0):
            v, st = _lp_dominator(dY, eps)
            lp[f"LP gain eps={eps} d={dY}"] = float(f"{v:.3g}")
    ex = {"q": "1/2", "G_0(1/2)": "1/8", "G_1/2(1/2)": "1/6", "G_0(3/2)": "5/16", "G_1/2(3/2)": "1/3",
          "G_0(k)=G_1/2(k)": str(all(staircase(F(0), F(1, 2)).G(k) == staircase(F(1, 2), F(1, 2)).G(k) for k in range(6)))}
    _THM2["r"] = dict(ident=ident, inc_interior=inc_interior, endpoint_dominated=endpoint_dominated,
                      chain_ok=chain_ok, lp=lp, ex=ex)
    return _THM2["r"]


def claim_thm2():
    r = _thm2_evidence()
    lp_end = {k: v for k, v in r["lp"].items() if k.endswith("d=0.0") or k.endswith("d=1.0")}
    return {"holds": not r["endpoint_dominated"], "method": "exact",
            "domain": "exact members d in {0, 1/7, 1/3, 1/2, 5/6, 99/100, 1} at eps = ln2, ln3, ln22026(~10); "
                      "LP grid h=1/20, 6 periods, eps in {0.5,1,3}",
            "numbers": {"endpoint_member_strictly_dominated": r["endpoint_dominated"], **r["ex"], **lp_end,
                        "counterexample": "d=0 (= d=Delta, density (1-e^-eps)/(2Delta) e^{-floor(|x|/Delta) eps}) > member d=Delta/2"},
            "note": "False at the endpoints: the d = 0 member (same law as d = Delta) has G_0 = G_d at every k*Delta and "
                    "G_0 < G_d in between for every 0 < d < Delta, so it is strictly dominated and not optimal. "
                    "Interior members are optimal (thesis:thm-2-interior)."}


def claim_thm2_interior():
    r = _thm2_evidence()
    lp_int = {k: v for k, v in r["lp"].items() if not (k.endswith("d=0.0") or k.endswith("d=1.0"))}
    lp_ok = all(abs(v) < 1e-7 for v in lp_int.values())
    ok = r["ident"] and r["inc_interior"] and r["chain_ok"] and lp_ok
    return {"holds": bool(ok), "method": "exact",
            "domain": "symbolic tail identity; exact pairs d in {1/7,1/3,1/2,5/6,99/100} at eps = ln2, ln3, ln22026; "
                      "chain battery; LP grid h=1/20, 6 periods, eps in {0.5,1,3}, d in {.25,.5,.75}",
            "numbers": {"tail_identity": r["ident"], "interior_pairwise_incomparable": r["inc_interior"], **lp_int},
            "note": "Proof: Z <= S_d implies symmetrised Z_s <= S_d; thm-1-symmetric gives a member S_d' <= Z_s; interior members "
                    "are incomparable with each other (G larger near 0 for smaller d; T_d1/T_d2 = 1 + (1-q)^2(d2-d1)(Delta-d2)/(A Delta) "
                    "> 1 at d2 + k Delta) and S_d < S_0, so Z = S_d. The LP finds no dominating DP step density."}


def claim_thm2_above():
    res = {}
    ok_cex = True
    for q, (a, c_len, eta) in ((F(1, 2), (F(1, 4), F(1, 3), F(1, 2))), (F(1, 3), (F(1, 4), F(1, 4), F(1, 2))),
                               (F(1, 22026), (F(1, 4), F(1, 4), F(1, 2)))):
        d = F(2)
        Y = staircase(d, q)
        M0 = Y.pieces[0][2]
        etap = eta * a / c_len
        c = d - c_len
        assert c > a + 1
        pcs = [(0, a, M0 * (1 + eta)), (a, c, M0), (c, d, M0 * (1 - etap))] + [p for p in Y.pieces if p[0] >= d]
        Z = Half(pcs, Y.P, q)
        dp_ok, w = dp_check(Z, 1 / q)
        dom, gap = dominates(Z, Y)
        strict = Z.G(a) > Y.G(a)
        ok_cex &= dp_ok and dom and strict and Z.mass() == F(1, 2)
        res[f"q={q}: Z DP, Z<=Y, G_Z(a)-G_Y(a)"] = f"{dp_ok},{dom},{float(Z.G(a) - Y.G(a)):.4g}"
    lp = {}
    for eps in (0.5, 1.0, 3.0):
        v, st = _lp_dominator(1.5, eps)
        lp[f"LP gain eps={eps} d=1.5"] = float(f"{v:.3g}")
    return {"holds": not ok_cex, "method": "exact",
            "domain": "member d = 2 Delta at eps = ln2, ln3, ln22026; LP for d = 1.5 Delta at eps in {0.5,1,3}",
            "numbers": {**res, **lp, "counterexample": "d=2: raise [0,1/4] by 50%, lower [c,2] (c>5/4) by the same mass"},
            "note": "With d > Delta the plateau has points more than Delta apart, so mass can be moved from its outer part to "
                    "the centre keeping every ratio within e^eps: strictly smaller, DP. Theorem 2's form needs d <= Delta, "
                    "which neither its statement nor its proof imposes."}


def claim_lemma2():
    stats, _ = _battery()
    # members satisfy the identity exactly (period masses ratio q)
    ok_members = True
    for q in QS:
        for d in (F(0), F(1, 3), F(4, 5), F(1)):
            S = staircase(d, q)
            pm = [S.G(k + 1) - S.G(k) for k in range(5)]
            ok_members &= all(pm[k + 1] == q * pm[k] for k in range(4))
    ok = ok_members and stats["non_geometric_strictly_dominated"] == stats["non_geometric_inputs"] and stats["dominated"] == stats["cases"]
    return {"holds": bool(ok), "method": "exact",
            "domain": "members d in {0,1/3,4/5,1}, i = 0..3; battery of random symmetric DP densities (eps = ln2, ln3, ~10)",
            "numbers": {"non_geometric_inputs": stats["non_geometric_inputs"],
                        "strictly_dominated_by_a_member": stats["non_geometric_strictly_dominated"]},
            "note": "Every symmetric DP Y has a member Y~ <= Y (thm-1-symmetric); if Y is optimal then Y = Y~ in law, and "
                    "members satisfy the identity. Read 'i in Y' (garbled) as i in N = {0,1,...}."}


def claim_cor1():
    ok = True
    for q in QS:
        for d in (F(0), F(1, 3), F(4, 5), F(1)):
            S = staircase(d, q)
            pcs = S.expand(F(5))
            for a, b, v in pcs:
                if b + 1 > 5:
                    continue
                mid = (a + b) / 2
                w = [vv for x0, x1, vv in pcs if x0 <= mid + 1 < x1]
                ok &= w[0] == q * v
    r = claim_lemma2()
    return {"holds": bool(ok and r["holds"]), "method": "exact",
            "domain": "members d in {0,1/3,4/5,1} on [0,4], eps = ln2, ln3, ~10; mirror by symmetry",
            "numbers": r["numbers"],
            "note": "Optimal symmetric Y are members (see lemma-2), and members satisfy f(x+Delta) = e^-eps f(x), x >= 0, "
                    "at continuity points (and the mirror for x <= 0)."}


def claim_m0_d_relation():
    q, d, D, M0 = sp.symbols("q d Delta M0", positive=True)
    geo = sp.piecewise_fold(sp.summation(q ** _i, (_i, 0, sp.oo)))
    geo = geo.args[0][0] if isinstance(geo, sp.Piecewise) else geo  # branch |q| < 1
    mass = 2 * M0 * d + 2 * M0 * q * geo * D  # consistent reading: M0 q^(i+1) on [d+iD, d+(i+1)D]
    sol = sp.solve(sp.Eq(mass, 1), d)[0]
    printed = (1 - q - 2 * M0 * q * D) / (2 * (1 - q) * M0)
    ok = sp.simplify(sol - printed) == 0
    return {"holds": bool(ok), "method": "symbolic", "domain": "symbolic q = e^-eps in (0,1), Delta, M0",
            "numbers": {"d(M0)": str(sp.factor(sol))[:90]},
            "note": "Normalisation of the member in the consistent reading (heights M0 e^{-(i+1)eps} beyond d). Needs "
                    "M0 <= (1-e^-eps)/(2 Delta e^-eps) for d >= 0; d <= Delta iff M0 >= (1-e^-eps)/(2 Delta)."}


def claim_variance():
    q, d, D, M0 = sp.symbols("q d Delta M0", positive=True)
    i = _i
    S = sp.piecewise_fold(sp.summation(q ** i * ((d + (i + 1) * D) ** 3 - (d + i * D) ** 3) / 3, (i, 0, sp.oo)))
    if isinstance(S, sp.Piecewise):
        S = S.args[0][0]
    V = 2 * M0 * d ** 3 / 3 + 2 * M0 * q * S
    closed = sp.factor(sp.simplify(V))
    ok = True
    with mpmath.workdps(30):
        for e in ("0.1", "1", "10"):
            for dv in ("0", "0.3", "0.9"):
                ev, dv_ = mpmath.mpf(e), mpmath.mpf(dv)
                m = mp_M0(dv_, ev)
                cv = closed.subs({q: sp.exp(-sp.Rational(e)), d: sp.Rational(dv), D: 1, M0: sp.Float(str(m), 30)}).evalf(30)
                ok &= abs(mpmath.mpf(str(cv)) - mp_var_series(dv_, ev)) < mpmath.mpf(10) ** -20 * (1 + abs(cv))
        v1 = mp_var(mpmath.mpf(1), mpmath.mpf(1))
    return {"holds": bool(ok), "method": "symbolic",
            "domain": "sympy series sum for |q|<1; cross-checked against mpmath nsum at eps in {0.1,1,10}, d in {0,.3,.9}",
            "numbers": {"closed_form": str(closed)[:150], "V(d=0 or 1, eps=1)": float(v1)},
            "note": "Mean is 0 by symmetry, so V(Z) = 2 int_0^inf x^2 f is the variance; with the consistent reading the "
                    "series sums to the rational function of q = e^-eps shown."}


def claim_fig42():
    dstar, vmin = _min_var(mpmath.mpf(1))
    with mpmath.workdps(30):
        glob = min(mp_var(mpmath.mpf(k) / 200, mpmath.mpf(1)) for k in range(0, 1001))
    ok = abs(dstar - mpmath.mpf("0.416737")) < 5e-7 and abs(vmin - mpmath.mpf("1.9181")) < 5e-5 and vmin < 2 and glob >= vmin - 1e-12
    return {"holds": bool(ok), "method": "numeric", "domain": "eps = Delta = 1; root of dV/dd (mpmath, 30 digits); grid d in [0,5]",
            "numbers": {"d_min": float(mpmath.nstr(dstar, 12)), "V_min": float(mpmath.nstr(vmin, 12)), "Laplace": 2.0},
            "note": "Exact minimiser 0.4167374..., V = 1.918104 (matches 0.416737 and 1.9181)."}


def claim_fig43():
    d, L = _min_ci(mpmath.mpf(1), dmax=4, N=4000)
    ok = abs(d - mpmath.mpf("0.993")) < 5e-4
    return {"holds": bool(ok), "method": "numeric", "domain": "eps = Delta = 1; d in [0,4] grid 0.001 + golden section",
            "numbers": {"d_min": float(mpmath.nstr(d, 10)), "CI_min": float(mpmath.nstr(L, 10)),
                        "CI_Laplace": float(2 * math.log(20))},
            "note": "The 95 % CI length 2t (P(|Y|<=t)=0.95) is minimal at d = 0.99326 (near the d=0/d=Delta member)."}


def claim_table41():
    printed = {"0.1": (200.00, 199.92), "0.5": (8.00, 7.92), "1": (2.00, 1.92)}
    nums, ok = {}, True
    for e, (lp, op) in printed.items():
        eps = mpmath.mpf(e)
        _, v = _min_var(eps)
        lap = 2 / eps ** 2
        nums[f"eps={e} Lap/min"] = f"{float(lap):.4f}/{float(v):.4f}"
        ok &= round(float(lap), 2) == lp and round(float(v), 2) == op
    return {"holds": bool(ok), "method": "numeric", "domain": "eps in {0.1, 0.5, 1}, Delta = 1; min over d of V(d)",
            "numbers": nums, "note": "All six cells agree at 2 decimals (rounded)."}


def claim_table42():
    printed = {"0.1": (59.91, 59.91), "0.5": (11.98, 11.97), "1": (5.99, 5.98)}
    nums, ok_round, ok_trunc = {}, True, True
    for e, (lp, op) in printed.items():
        eps = mpmath.mpf(e)
        _, L = _min_ci(eps, dmax=1, N=2000)
        lap = 2 * mpmath.log(20) / eps
        nums[f"eps={e} Lap/min"] = f"{float(lap):.5f}/{float(L):.5f}"
        ok_round &= round(float(lap), 2) == lp and round(float(L), 2) == op
        ok_trunc &= math.floor(float(lap) * 100) / 100 == lp and math.floor(float(L) * 100) / 100 == op
    nums["matches_if_rounded"] = ok_round
    nums["matches_if_truncated"] = ok_trunc
    # Printed-number rule: a table matches when all its cells are roundings, or all are
    # truncations, of the exact values at the printed digits (both readings the text allows).
    return {"holds": bool(ok_round or ok_trunc), "method": "numeric", "domain": "eps in {0.1, 0.5, 1}, Delta = 1; min over d in [0, Delta]",
            "numbers": nums,
            "note": "Optimal CI lengths are 11.9784 and 5.9865, i.e. 11.98 and 5.99 when rounded (Table 4.1 rounds); the "
                    "printed 11.97 / 5.98 are truncations. The Laplace row and eps=0.1 agree; optimal < Laplace holds."}


CLAIMS = {
    "thesis:def-6": claim_def6,
    "thesis:def-7": claim_def7,
    "thesis:def-8": claim_def8,
    "thesis:eq-4.2": claim_eq42,
    "thesis:sec-4.3-m-independent-of-i": claim_m_indep,
    "thesis:sec-4.3-m-formula": claim_m_formula,
    "thesis:sec-4.3-dp": claim_43_dp,
    "thesis:sec-4.3-smaller-than-laplace": claim_43_smaller,
    "thesis:lemma-1": claim_lemma1,
    "thesis:lemma-2": claim_lemma2,
    "thesis:cor-1": claim_cor1,
    "thesis:thm-1": claim_thm1_zero_mean,
    "thesis:thm-1-symmetric": claim_thm1_symmetric,
    "thesis:thm-1-proof-construction": claim_thm1_proof_construction,
    "thesis:thm-1-indexing": claim_thm1_indexing,
    "thesis:thm-1-di-independent": claim_thm1_di,
    "thesis:thm-2": claim_thm2,
    "thesis:thm-2-interior": claim_thm2_interior,
    "thesis:thm-2-d-above-sensitivity": claim_thm2_above,
    "thesis:sec-4.4-m0-d-relation": claim_m0_d_relation,
    "thesis:sec-4.4-variance": claim_variance,
    "thesis:sec-4.4-fig-4.2-minimum": claim_fig42,
    "thesis:sec-4.4-fig-4.3-minimum": claim_fig43,
    "thesis:table-4.1": claim_table41,
    "thesis:table-4.2": claim_table42,
}

SLOW: frozenset[str] = frozenset()


if __name__ == "__main__":
    import sys
    import time
    out = {}
    only = sys.argv[1:]
    for cid, fn in CLAIMS.items():
        if only and cid not in only:
            continue
        t0 = time.time()
        r = fn()
        r["seconds"] = round(time.time() - t0, 2)
        out[cid] = r
    print(json.dumps(out, indent=1, default=str))
