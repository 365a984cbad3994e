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
* ``_tgeom``: the geometric law P(Y = y) ∝ e^{−y·γ} as Y = U + m·V (the split of CKS
  Algorithm 2) with the two acceptance/inversion steps made by comparing w uniform bits with
  exact thresholds ⌊e^{−k·γ}·2^w⌋ (no Bernoulli chain, no float).
* ``run_laplace`` (sign and ``_tgeom``) and ``run_staircase`` (an exact core/steps decision
  on w bits, then a uniform cell and a ``_tgeom`` level): see
  :mod:`privlab.mechanisms.noise._exact`; ``run`` keeps the CKS geometric and Bernoulli(exp)
  (not on the release path).

Resumption: a kernel fills ``out[i:]`` sample by sample and stops when the word buffer runs
out *inside* a sample; it then returns that sample's index and the stream position where that
sample began.  The caller keeps the unread words from that position, appends fresh words and
calls again, so every sample reads exactly the next bits of the one stream: the law of each
sample is the stated one and a seed fixes every output byte.  (Dropping a partly drawn sample
instead would bias the law towards samples that need few bits.)  A sample one of whose w-bit
comparisons ties with its threshold (probability 2^−w per comparison) stops the same way with
``st[3] = NEED_FLAG``: the caller draws that whole sample from the same bits, exactly, in
Python (reading more bits where the kernel tied), and calls again from the next sample.

Integer ranges: denominators stay below 2^56 and k < 128 (``_MAX_K``), so den·k < 2^63 and
2r < 2^64 in unsigned arithmetic.
"""

from __future__ import annotations

import numba
import numpy as np

from privlab.mechanisms.noise._thresholds import DIGIT

OUT = -1
"""Returned by the bit-level helpers when the word buffer is exhausted."""
_MAX_K = 128
ERR_K = -2
"""Returned when a Bernoulli(exp) chain reaches k = 128 (probability < 1/127!)."""
NEED = -3
"""Returned when a w-bit comparison with an exact threshold tied (probability 2^−w)."""
NEED_FLAG = 2
"""``st[3]`` after :func:`run_laplace` / :func:`run_staircase` stopped at a sample whose
comparison tied."""


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
def _tgeom(buf: np.ndarray, pos: int, cur: int, left: int, tu: np.ndarray, tv: np.ndarray,
           m: int, w: int, bm: int, lm: int, mm: np.uint64) -> tuple[int, int, int, int]:
    """Y ≥ 0 with P(Y = y) ∝ e^{−y·γ} (OUT or NEED): Y = U + m·V with U on {0..m−1},
    P(U = u) ∝ e^{−u·γ}, and V with P(V ≥ j) = e^{−j·m·γ} (the CKS split X = U + t·V with
    exact thresholds in place of Bernoulli chains).  The tables are computed exactly by the
    caller (:func:`._thresholds.geometric_tables`).

    U: u uniform, kept iff uniforms W_k < e^{−d_k·2^{16k}·γ} for each nonzero base-2^16 digit
    d_k of u (their product is e^{−u·γ}; for m ≤ 2^16 that is the one test W < e^{−u·γ}):
    w bits x of W_k pass if x < tu[2^16·k + d_k] = ⌊e^{−d_k·2^{16k}·γ}·2^w⌋ and reject u if
    x > it (u = 0 is always kept and reads no bits).  V: w bits x of a uniform W': V = the
    number of leading tv[j] = ⌊e^{−(j+1)·m·γ}·2^w⌋ above x (tv ends with its first 0).  Any
    comparison returns NEED when x equals the threshold (probability 2^−w each): the caller
    then draws the whole sample again with more bits (:mod:`._exact_slow`)."""
    u = 0
    while m > 1:
        u, pos, cur, left = _uniform(buf, pos, cur, left, m, bm, lm, mm)
        if u < 0:
            return OUT, pos, cur, left
        if u == 0:
            break
        if m <= DIGIT:
            x, pos, cur, left = _bits(buf, pos, cur, left, w)
            if x < 0:
                return OUT, pos, cur, left
            if x < tu[u]:
                break
            if x == tu[u]:
                return NEED, pos, cur, left
            continue
        kept = True
        d, base = u, 0
        while d > 0:
            digit = d & (DIGIT - 1)
            d >>= 16
            if digit > 0:
                x, pos, cur, left = _bits(buf, pos, cur, left, w)
                if x < 0:
                    return OUT, pos, cur, left
                if x == tu[base + digit]:
                    return NEED, pos, cur, left
                if x > tu[base + digit]:
                    kept = False
                    break
            base += DIGIT
        if kept:
            break
    x, pos, cur, left = _bits(buf, pos, cur, left, w)
    if x < 0:
        return OUT, pos, cur, left
    j = 0
    while x < tv[j]:  # tv ends with 0, so j stays in range
        j += 1
    if x == tv[j]:
        return NEED, pos, cur, left
    return u + m * j, pos, cur, left


@numba.njit(cache=True, nogil=True)
def run_laplace(params: np.ndarray, out: np.ndarray, start: int, buf: np.ndarray,
                st: np.ndarray, tu: np.ndarray, tv: np.ndarray) -> int:
    """Fill out[start:] with discrete Laplace samples, P(y) ∝ e^{−|y|·γ} (params m, w; tables
    tu, tv of :func:`_tgeom` for γ).  CKS Algorithm 2's sign step:
    Y from :func:`_tgeom`, a fair sign, and (−, 0) rejected so that 0 is not counted
    twice.  ``st`` = [word position, unread bits of the current word, their number, flag].
    Returns the index of the first sample not drawn (``out.size`` when all are) with ``st``
    at the point where that sample began and st[3] = ``NEED_FLAG`` when one of its
    comparisons tied (else 0: the words ran out).
    The loop is written out here, not in a per-sample function: returning a sample
    and its stream state as a tuple from a callee made the compiled loop about 1.5× slower."""
    pos, cur, left = st[0], st[1], st[2]
    m, w = params[0], params[1]
    bm = _bit_length(m - 1)
    lm = _limit(m)
    mm = _magic(m) if lm > 0 else np.uint64(0)
    for i in range(start, out.size):
        p0, c0, l0 = pos, cur, left
        while True:
            y, pos, cur, left = _tgeom(buf, pos, cur, left, tu, tv, m, w, bm, lm, mm)
            neg = OUT
            if y >= 0:
                neg, pos, cur, left = _bits(buf, pos, cur, left, 1)
            if neg < 0:
                st[0], st[1], st[2] = p0, c0, l0
                st[3] = NEED_FLAG if y == NEED else 0
                return i
            if neg == 1 and y == 0:
                continue
            out[i] = -y if neg == 1 else y
            break
    st[0], st[1], st[2], st[3] = pos, cur, left, 0
    return out.size


@numba.njit(cache=True, nogil=True)
def run_staircase(params: np.ndarray, out: np.ndarray, start: int, buf: np.ndarray,
                  st: np.ndarray, tu: np.ndarray, tv: np.ndarray) -> int:
    """Fill out[start:] with discrete staircase samples (params core, width, lo, w, m; tables
    tu, tv of :func:`_tgeom` for its rate γ = ε'); ``st`` and the return value as in
    :func:`run_laplace`.

    The core/steps decision reads w bits u: core if u < lo, steps if u > lo, where
    lo = ⌊x·2^w⌋ for the exact core probability x (module :mod:`._exact`); u = lo is the one
    value that cannot decide (probability 2^−w): the sample stops with NEED.  Then a core
    cell is uniform on the a = 2·core + 1 cells; a step sample is a cell c uniform on the
    b = 2·width signed cells of a level and the level 1 + Y with Y from :func:`_tgeom`."""
    pos, cur, left = st[0], st[1], st[2]
    core, width, lo, w, m = params[0], params[1], params[2], params[3], params[4]
    a, b = 2 * core + 1, 2 * width
    ba, bb, bm = _bit_length(a - 1), _bit_length(b - 1), _bit_length(m - 1)
    la, lb, lm = _limit(a), _limit(b), _limit(m)
    ma = _magic(a) if la > 0 else np.uint64(0)
    mb = _magic(b) if lb > 0 else np.uint64(0)
    mm = _magic(m) if lm > 0 else np.uint64(0)
    for i in range(start, out.size):
        p0, c0, l0 = pos, cur, left
        e = 0
        u, pos, cur, left = _bits(buf, pos, cur, left, w)
        if u < 0 or u == lo:
            e = OUT if u < 0 else NEED
        elif u < lo:
            c, pos, cur, left = _uniform(buf, pos, cur, left, a, ba, la, ma)
            if c < 0:
                e = OUT
            else:
                out[i] = c - core
        else:
            c, pos, cur, left = _uniform(buf, pos, cur, left, b, bb, lb, mb)
            y = OUT
            if c >= 0:
                y, pos, cur, left = _tgeom(buf, pos, cur, left, tu, tv, m, w, bm, lm, mm)
            if y < 0:
                e = y
            else:
                mag = core + y * width + c % width + 1
                out[i] = mag if c < width else -mag
        if e < 0:
            st[0], st[1], st[2] = p0, c0, l0
            st[3] = NEED_FLAG if e == NEED else 0
            return i
    st[0], st[1], st[2], st[3] = pos, cur, left, 0
    return out.size


@numba.njit(cache=True, nogil=True)
def run(kind: int, params: np.ndarray, out: np.ndarray, start: int, buf: np.ndarray,
        st: np.ndarray) -> int:
    """Fill out[start:] with samples of the CKS law ``kind``: 2 geometric (params t),
    3 Bernoulli(exp(−out[i]/params[i])) (out[i] holds the numerator on entry); ``st`` as in
    :func:`run_laplace`; −1 − index when a chain hit ERR_K.  (Not on the release path.)"""
    pos, cur, left = st[0], st[1], st[2]
    t = params[0]
    bt = _bit_length(t - 1) if kind == 2 else 0
    lt = _limit(t) if kind == 2 else 0
    mt = _magic(t) if lt > 0 else np.uint64(0)
    for i in range(start, out.size):
        if kind == 2:
            y, p2, c2, l2 = _geometric(buf, pos, cur, left, t, bt, lt, mt)
        else:
            y, p2, c2, l2 = _bern_exp(buf, pos, cur, left, out[i], params[i])
        if y == OUT:
            st[0], st[1], st[2], st[3] = pos, cur, left, 0
            return i
        if y < 0:
            return -1 - i
        pos, cur, left = p2, c2, l2
        out[i] = y
    st[0], st[1], st[2], st[3] = pos, cur, left, 0
    return out.size
