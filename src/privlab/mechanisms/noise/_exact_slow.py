"""The safe samplers' slow path: one whole sample in Python, from the same bits as the kernel.

The compiled kernels (:mod:`._exact_kernels`) compare w uniform bits x with exact thresholds
⌊v·2^w⌋ (:mod:`._thresholds`) and stop at a sample when x equals the threshold (probability
2^−w per comparison).  That sample is then drawn here, reading the stream from where the sample
began with the kernel's own bit readers, so every comparison the kernel could make is made the
same way; where x ties, the uniform W = (x + V)/2^w, V from the bits that follow (32 at a
time), is compared with v exactly: V is extended until [W's prefix, + 2^−n) lies on one side of
rational bounds of v at 2^−(n+16) (:class:`Uniform`).  So the law of each sample is exact and
the stream position after it is the one the next sample starts from.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from privlab.mechanisms.noise import _exact_kernels as _kernels
from privlab.mechanisms.noise._thresholds import (
    DIGIT,
    Bounds,
    exp_neg_bounds,
    staircase_core_bounds,
)


class OutOfWords(Exception):
    """The word buffer ended inside the sample: fetch more and draw it again."""


class Stream:
    """The kernel's bit stream at (pos, cur, left), read with the kernel's own helpers."""

    def __init__(self, buf: NDArray[np.uint64], pos: int, cur: int, left: int) -> None:
        self.buf, self.pos, self.cur, self.left = buf, pos, cur, left

    def bits(self, b: int) -> int:
        v, self.pos, self.cur, self.left = _kernels._bits(self.buf, self.pos, self.cur,
                                                          self.left, b)
        if v < 0:
            raise OutOfWords
        return int(v)

    def uniform(self, q: int) -> int:
        """``_exact_kernels._uniform``: uniform on {0..q − 1}."""
        lim = _kernels._limit(q)
        mq = np.uint64(_kernels._magic(q)) if lim > 0 else np.uint64(0)
        v, self.pos, self.cur, self.left = _kernels._uniform(
            self.buf, self.pos, self.cur, self.left, q, int(q - 1).bit_length(), lim, mq)
        if v < 0:
            raise OutOfWords
        return int(v)


class Uniform:
    """A uniform W ∈ [0, 1) whose first w bits x are read at once and the rest on demand."""

    def __init__(self, stream: Stream, w: int) -> None:
        self.stream = stream
        self.x = self.m = stream.bits(w)
        self.n = w

    def below(self, threshold: int, bounds: Bounds) -> bool:
        """W < v, where threshold = ⌊v·2^w⌋ and ``bounds`` brackets v: decided by x alone
        unless x = threshold, as in the kernel; then by W's further bits."""
        if self.x != threshold:
            return self.x < threshold
        while True:
            lo, hi = bounds(self.n + 16)
            scale = Fraction(1 << self.n)
            if self.m + 1 <= lo * scale:
                return True
            if self.m >= hi * scale:
                return False
            self.m = (self.m << 32) + self.stream.bits(32)
            self.n += 32


def tgeom(s: Stream, gamma: Fraction, m: int, w: int, tu: NDArray[np.int64],
          tv: NDArray[np.int64]) -> int:
    """``_exact_kernels._tgeom`` step by step (Y = U + m·V, P(Y = y) ∝ e^{−y·γ})."""
    u = 0
    while m > 1:
        u = s.uniform(m)
        if u == 0:
            break
        if m <= DIGIT:
            if Uniform(s, w).below(int(tu[u]), functools.partial(exp_neg_bounds, u * gamma)):
                break
            continue
        kept, d, k = True, u, 0
        while d > 0:
            digit, d = d & (DIGIT - 1), d >> 16
            if digit > 0 and not Uniform(s, w).below(
                    int(tu[k * DIGIT + digit]),
                    functools.partial(exp_neg_bounds, digit * (1 << (16 * k)) * gamma)):
                kept = False
                break
            k += 1
        if kept:
            break
    x = Uniform(s, w)
    j = 0
    while x.below(int(tv[j]) if j < tv.size else 0,
                  functools.partial(exp_neg_bounds, (j + 1) * m * gamma)):
        j += 1
    return u + m * j


def laplace(s: Stream, gamma: Fraction, m: int, w: int, tu: NDArray[np.int64],
            tv: NDArray[np.int64]) -> int:
    """``_exact_kernels.run_laplace``, one sample: Y from :func:`tgeom`, a sign, (−, 0) rejected."""
    while True:
        y = tgeom(s, gamma, m, w, tu, tv)
        neg = s.bits(1)
        if not (neg == 1 and y == 0):
            return -y if neg == 1 else y


def staircase(s: Stream, p: int, q: int, core: int, width: int, lo: int, w: int, m: int,
              tu: NDArray[np.int64], tv: NDArray[np.int64]) -> int:
    """``_exact_kernels.run_staircase``, one sample: core iff W < x (exactly), then a cell
    and a level."""
    if Uniform(s, w).below(lo, functools.partial(staircase_core_bounds, p, q, core, width)):
        return s.uniform(2 * core + 1) - core
    c = s.uniform(2 * width)
    mag = core + tgeom(s, Fraction(p, q), m, w, tu, tv) * width + c % width + 1
    return mag if c < width else -mag
