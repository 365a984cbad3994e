"""Compiled exact samplers on a stream of uniform bits (the engine of :mod:`._exact`).

Randomness model: the samplers read one infinite stream of independent fair bits, the
concatenation of the 64-bit words ``gen.integers(0, 2**64 − 1, endpoint=True, dtype=uint64)``
(least significant bit first).  Every decision is an exact function of those bits, with integer
arithmetic only:

* ``_uniform(q)``: b = bit length of q − 1, draw b bits, accept if < q (else draw again) — the
  accepted value is uniform on {0, …, q − 1}.
* ``_bern(num, den)`` = Bernoulli(num/den), 0 ≤ num ≤ den: the bits u₁u₂… of a uniform
  U ∈ [0, 1) are compared lazily with the binary digits of x = num/den (digit i: r ← 2r,
  digit = [r ≥ den], r ← r − den·digit, starting from r = num).  The first position where they
  differ decides U < x (u = 0 < digit = 1) or U > x; if x's expansion ends (r = 0) with all
  digits equal, U ≥ x.  So P(True) = P(U < x) = x exactly, with 2 bits on average.
* ``_bern_exp(num, den)`` = Bernoulli(exp(−num/den)), 0 ≤ num ≤ den: Canonne, Kamath and
  Steinke, "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020), Algorithm 1:
  k = 1; while Bernoulli(γ/k): k += 1; return [k odd].  P(k > m) = γ^m/m!, so
  P(k odd) = Σ_m (−1)^m γ^m/m! = e^{−γ}.
* ``_geometric(t)``: CKS Algorithm 2, first half: U uniform on {0..t − 1} accepted with
  probability e^{−U/t}; V = number of Bernoulli(e^{−1}) successes before the first failure;
  X = U + t·V has P(X = x) ∝ e^{−x/t}.
* discrete Laplace (CKS Algorithm 2) and the discrete staircase (an exact core/steps
  decision on w bits, then a uniform cell and a geometric level): see
  :mod:`privlab.mechanisms.noise._exact`.

Resumption: a kernel fills ``out[i:]`` sample by sample and stops when the word buffer runs
out *inside* a sample; it then returns that sample's index and the stream position where that
sample began.  The caller keeps the unread words from that position, appends fresh words and
calls again, so every sample reads exactly the next bits of the one stream: the law of each
sample is the stated one and a seed fixes every output byte.  (Dropping a partly drawn sample
instead would bias the law towards samples that need few bits.)  A staircase sample whose
w-bit decision falls on its threshold (probability 2^−w) stops the same way with
``st[3] = NEED_FLAG``: the caller reads the further bits that decide it, exactly, and calls
again with the decision in ``st[3]`` and the stream just after those bits.

Integer ranges: denominators stay below 2^56 and k < 128 (``_MAX_K``), so den·k < 2^63 and
2r < 2^64 in unsigned arithmetic.
"""

from __future__ import annotations

import numba
import numpy as np

OUT = -1
"""Returned by the bit-level helpers when the word buffer is exhausted."""
_MAX_K = 128
ERR_K = -2
"""Returned when a Bernoulli(exp) chain reaches k = 128 (probability < 1/127!)."""
NEED = -3
"""Returned by :func:`_staircase_one` when its w-bit decision fell on the threshold."""
NEED_FLAG = 2
"""``st[3]`` after :func:`run` stopped at a sample whose decision needs more bits."""


@numba.njit(cache=True, nogil=True)
def _bits(buf: np.ndarray, pos: int, cur: int, left: int, b: int) -> tuple[int, int, int, int]:
    """The next b ≤ 62 bits of the stream as an integer (first bit = least significant), or
    OUT; the stream state (word position, unread bits of the current word, their number) is
    passed in and returned, so it stays in registers."""
    if left >= b:
        mask = (np.int64(1) << b) - 1
        return cur & mask, pos, cur >> b, left - b
    if pos >= buf.size:
        return OUT, pos, cur, left
    w = buf[pos]
    need = b - left  # 1 ≤ need ≤ 62
    high = np.int64(w & ((np.uint64(1) << np.uint64(need)) - np.uint64(1)))
    rest = np.int64(w >> np.uint64(need))  # < 2^63: the state stays a non-negative int64
    return cur | (high << left), pos + 1, rest, 64 - need


@numba.njit(cache=True, nogil=True)
def _bit_length(x: int) -> int:
    b = 0
    while x > 0:
        x >>= 1
        b += 1
    return b


@numba.njit(cache=True, nogil=True)
def _limit(q: int) -> int:
    """The acceptance limit of :func:`_uniform` for q < 2^31: 2^32 − (2^32 mod q), the largest
    multiple of q not above 2^32 (0 for larger q, which use b-bit rejection, and for powers of
    two, whose b-bit draws are never rejected)."""
    if q < (np.int64(1) << 31) and q & (q - 1) != 0:
        return (np.int64(1) << 32) - (np.int64(1) << 32) % q
    return 0


@numba.njit(cache=True, nogil=True)
def _magic(q: int) -> np.uint64:
    """⌈2^64/q⌉ mod 2^64 for 1 ≤ q < 2^31: the multiplier of :func:`_mod32`."""
    return np.uint64(0xFFFFFFFFFFFFFFFF) // np.uint64(q) + np.uint64(1)


@numba.njit(cache=True, nogil=True)
def _mod32(x: int, q: int, mq: np.uint64) -> int:
    """x mod q for 0 ≤ x < 2^32 and 1 ≤ q < 2^31 without a division (Lemire, Kaser & Kurz,
    "Faster remainder by direct computation", 2019: with c = ⌈2^64/q⌉, x mod q is the high 64
    bits of ((c·x) mod 2^64)·q; the product's high half is taken from 32-bit pieces)."""
    low = mq * np.uint64(x)  # wraps mod 2^64
    qq = np.uint64(q)
    mid = (low >> np.uint64(32)) * qq + (((low & np.uint64(0xFFFFFFFF)) * qq) >> np.uint64(32))
    return np.int64(mid >> np.uint64(32))


@numba.njit(cache=True, nogil=True)
def _uniform(buf: np.ndarray, pos: int, cur: int, left: int, q: int,
             b: int, lim: int, mq: np.uint64) -> tuple[int, int, int, int]:
    """Uniform on {0, …, q − 1} (b = bit length of q − 1, lim = :func:`_limit` (q),
    mq = :func:`_magic` (q)), or OUT.  For q < 2^31: x of 32 bits accepted when x < lim (a
    multiple of q), then x mod q; otherwise rejection on b-bit draws (for q = 2^b: the b bits
    themselves).  Either way each accepted value is equally likely."""
    if lim > 0:
        while True:
            x, pos, cur, left = _bits(buf, pos, cur, left, 32)
            if x < 0:
                return OUT, pos, cur, left
            if x < lim:
                return _mod32(x, q, mq), pos, cur, left
    while True:
        x, pos, cur, left = _bits(buf, pos, cur, left, b)
        if x < q:  # also returns OUT
            return x, pos, cur, left


@numba.njit(cache=True, nogil=True)
def _bern(buf: np.ndarray, pos: int, cur: int, left: int, num: int,
          den: int) -> tuple[int, int, int, int]:
    """Bernoulli(num/den) for 0 ≤ num ≤ den < 2^63: 1, 0 or OUT.  The bits of U are compared
    with the binary digits of num/den c at a time (c-digit integer chunks D of long division
    in uint64: r·2^c < 2^64), which decides the same first differing bit as a bit-by-bit
    comparison.  A chunk u of U is compared with D = ⌊r·2^c/den⌋ by two products, no
    division: u < D ⇔ (u + 1)·den ≤ r·2^c, u > D ⇔ u·den > r·2^c (u < 2^c and den < 2^(64−c),
    so the products stay below 2^64)."""
    if num >= den:
        return 1, pos, cur, left
    if num <= 0:
        return 0, pos, cur, left
    c = 20 if den < (np.int64(1) << 44) else 64 - _bit_length(den)
    cu = np.uint64(c)
    r = np.uint64(num)
    d = np.uint64(den)
    while True:
        r = r << cu  # the next digit chunk is dig = r // d; compared without dividing:
        u, pos, cur, left = _bits(buf, pos, cur, left, c)
        if u < 0:
            return OUT, pos, cur, left
        uu = np.uint64(u)
        if (uu + np.uint64(1)) * d <= r:  # u + 1 ≤ r/d, i.e. u < dig
            return 1, pos, cur, left
        low = uu * d
        if low > r:  # u > r/d ≥ dig
            return 0, pos, cur, left
        r = r - low  # u = dig: the remainder r − dig·d
        if r == np.uint64(0):
            return 0, pos, cur, left


@numba.njit(cache=True, nogil=True)
def _bern_exp(buf: np.ndarray, pos: int, cur: int, left: int, num: int,
              den: int) -> tuple[int, int, int, int]:
    """Bernoulli(exp(−num/den)) for 0 ≤ num ≤ den (CKS Algorithm 1): 1, 0, OUT or ERR_K."""
    k = 1
    while True:
        a, pos, cur, left = _bern(buf, pos, cur, left, num, den * k)
        if a < 0:
            return OUT, pos, cur, left
        if a == 0:
            return k & 1, pos, cur, left
        k += 1
        if k >= _MAX_K:
            return ERR_K, pos, cur, left


@numba.njit(cache=True, nogil=True)
def _geometric(buf: np.ndarray, pos: int, cur: int, left: int, t: int,
               bt: int, lt: int, mt: np.uint64) -> tuple[int, int, int, int]:
    """X ≥ 0 with P(X = x) ∝ e^{−x/t} (CKS Algorithm 2, first half; bt = bit length of
    t − 1, lt = _limit(t), mt = _magic(t)), OUT or ERR_K.  For t = 1, U = 0 (accepted with
    probability e^0 = 1) takes no bits."""
    u = 0
    while t > 1:
        u, pos, cur, left = _uniform(buf, pos, cur, left, t, bt, lt, mt)
        if u < 0:
            return OUT, pos, cur, left
        ok, pos, cur, left = _bern_exp(buf, pos, cur, left, u, t)
        if ok < 0:
            return ok, pos, cur, left
        if ok == 1:
            break
    v = 0
    while True:
        a, pos, cur, left = _bern_exp(buf, pos, cur, left, 1, 1)
        if a < 0:
            return a, pos, cur, left
        if a == 0:
            return u + t * v, pos, cur, left
        v += 1
        if v >= _MAX_K:
            return ERR_K, pos, cur, left


@numba.njit(cache=True, nogil=True)
def _laplace_one(buf: np.ndarray, pos: int, cur: int, left: int, s: int, t: int,
                 bt: int, lt: int, mt: np.uint64) -> tuple[int, int, int, int, int]:
    """One discrete Laplace sample: (error 0/OUT/ERR_K, y, stream state)."""
    while True:
        x, pos, cur, left = _geometric(buf, pos, cur, left, t, bt, lt, mt)
        if x < 0:
            return x, 0, pos, cur, left
        y = x // s
        neg, pos, cur, left = _bits(buf, pos, cur, left, 1)
        if neg < 0:
            return OUT, 0, pos, cur, left
        if neg == 1 and y == 0:
            continue
        return 0, (-y if neg == 1 else y), pos, cur, left


@numba.njit(cache=True, nogil=True)
def _staircase_one(buf: np.ndarray, pos: int, cur: int, left: int, p: int, q: int,
                   core: int, width: int, lo: int, w: int, forced: int, bq: int, lq: int,
                   mq: np.uint64, la: int, ma: np.uint64, lb: int,
                   mb: np.uint64) -> tuple[int, int, int, int, int]:
    """One discrete staircase sample: (error 0/OUT/ERR_K/NEED, y, stream state).

    The core/steps decision reads w bits u: core if u < lo, steps if u > lo, where
    lo = ⌊x·2^w⌋ for the exact core probability x (module :mod:`._exact`); u = lo is the one
    value that cannot decide (probability 2^−w) and returns NEED.  ``forced`` = 1 (core) or
    0 (steps) skips the decision: the caller has made it with more bits.  Then a core cell is
    uniform on the a = 2·core + 1 cells; a step sample is a cell c uniform on the b = 2·width
    signed cells of a level and the level 1 + ⌊X/p⌋ with X from :func:`_geometric` (t = q).
    la, ma and lb, mb: the :func:`_limit` and :func:`_magic` of a and b; lq, mq: of q."""
    if forced < 0:
        u, pos, cur, left = _bits(buf, pos, cur, left, w)
        if u < 0:
            return OUT, 0, pos, cur, left
        if u == lo:
            return NEED, 0, pos, cur, left
        in_core = u < lo
    else:
        in_core = forced == 1
    if in_core:
        a = 2 * core + 1
        c, pos, cur, left = _uniform(buf, pos, cur, left, a, _bit_length(a - 1), la, ma)
        if c < 0:
            return OUT, 0, pos, cur, left
        return 0, c - core, pos, cur, left
    b = 2 * width
    c, pos, cur, left = _uniform(buf, pos, cur, left, b, _bit_length(b - 1), lb, mb)
    if c < 0:
        return OUT, 0, pos, cur, left
    x, pos, cur, left = _geometric(buf, pos, cur, left, q, bq, lq, mq)
    if x < 0:
        return x, 0, pos, cur, left
    mag = core + (x // p) * width + c % width + 1
    return 0, (mag if c < width else -mag), pos, cur, left


@numba.njit(cache=True, nogil=True)
def run(kind: int, params: np.ndarray, out: np.ndarray, start: int, buf: np.ndarray,
        st: np.ndarray) -> int:
    """Fill out[start:] with samples of law ``kind``: 0 discrete Laplace (params s, t),
    1 discrete staircase (p, q, core, width, lo, w), 2 geometric (t), 3 Bernoulli(exp(−out[i]/
    params[i])) (out[i] holds the numerator on entry).  ``st`` = [word position, unread bits
    of the current word, their number, forced decision of the staircase (−1: none)].  Returns
    the index of the first sample not drawn (``out.size`` when all are) with ``st`` at the
    point where that sample began (and st[3] = ``NEED_FLAG`` when its decision needs more
    bits than the kernel reads), or −1 − index when a chain hit ERR_K."""
    pos, cur, left, forced = st[0], st[1], st[2], st[3]
    if forced == NEED_FLAG:  # the caller could not decide yet: decide again (NEED again)
        forced = -1
    t = params[1] if kind <= 1 else params[0]
    bt = _bit_length(t - 1) if kind <= 2 else 0
    lt = _limit(t) if kind <= 2 else 0
    mt = _magic(t) if lt > 0 else np.uint64(0)
    la, lb = 0, 0
    ma, mb = np.uint64(0), np.uint64(0)
    if kind == 1:
        la, lb = _limit(2 * params[2] + 1), _limit(2 * params[3])
        ma = _magic(2 * params[2] + 1) if la > 0 else np.uint64(0)
        mb = _magic(2 * params[3]) if lb > 0 else np.uint64(0)
    for i in range(start, out.size):
        if kind == 0:
            e, y, p2, c2, l2 = _laplace_one(buf, pos, cur, left, params[0], params[1], bt, lt,
                                            mt)
        elif kind == 1:
            e, y, p2, c2, l2 = _staircase_one(buf, pos, cur, left, params[0], params[1],
                                              params[2], params[3], params[4], params[5],
                                              forced, bt, lt, mt, la, ma, lb, mb)
        elif kind == 2:
            y, p2, c2, l2 = _geometric(buf, pos, cur, left, params[0], bt, lt, mt)
            e = y if y < 0 else 0
        else:
            y, p2, c2, l2 = _bern_exp(buf, pos, cur, left, out[i], params[i])
            e = y if y < 0 else 0
        if e == OUT or e == NEED:
            st[0], st[1], st[2] = pos, cur, left
            st[3] = NEED_FLAG if e == NEED else forced
            return i
        if e < 0:
            return -1 - i
        pos, cur, left = p2, c2, l2
        forced = -1
        out[i] = y
    st[0], st[1], st[2], st[3] = pos, cur, left, -1
    return out.size
