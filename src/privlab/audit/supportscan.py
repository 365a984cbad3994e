"""Support events from the whole first selection half: the exact values each neighbour
produced, streamed in blocks, and the sets seen under one neighbour only.

Why.  A mechanism whose two output sets differ — an inverse-CDF sampler on a coarse uniform grid
rounded to float32, a value released beside codes that only one input can produce — leaks
without bound (ε = ∞), but when each value has probability 2⁻²⁰ a pilot of 10⁴ draws sees almost
none twice and no interval separates the sets.  The first selection half (n_sel/2 outputs per
side) sees enough of them: {the output is one of the values seen under a and not under b} is an
event of the output, chosen on the first half, counted on the second half for selection and on
fresh samples for the bound — like every other event, it costs no error budget.

What is kept.  Memory stays bounded: per side and feature at most :data:`HEAVY` values seen at
least twice in one block (the most frequent first) and a *hash sample* of the values seen once:
the :data:`SLICE` values with the smallest 64-bit hash h(v) (a fixed mix of the float's bits).
The hash sample is consistent across the two sides — with τ = the smaller of the two sides'
largest kept hash, a value v with h(v) ≤ τ is in a side's sample iff that side produced it — so
"seen under a, not under b" is exact on the sample.  The hash sample is used only when at least
:data:`SPARSE_MIN` of its values were seen twice (a sparse support such as a fine float32 grid;
continuous values never repeat).  Per-block sketches merge by union (counts add), so the result
does not depend on the order in which blocks finish, nor on the number of workers.

:class:`ScanRunner` is :class:`privlab.audit.sampling.Runner` with one more phase, :meth:`scan`:
the per-feature histograms of :meth:`~privlab.audit.sampling.Runner.histograms` plus the sketches
of the scanned features, from the same draws (no output is drawn twice).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np
from numpy.typing import NDArray

from privlab.audit import features as ft
from privlab.audit import sampling as sp
from privlab.audit.cellcount import cell_counts

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
U64 = NDArray[np.uint64]

HEAVY = 1024
"""Values seen at least twice in a block kept per side (the most frequent)."""
SLICE = 1024
"""Values of the consistent hash sample kept per side."""
SPARSE_MIN = 3
"""The hash sample enters a side's value set only when at least this many of its values were
seen twice: the sign of a sparse support (a fine grid), not of continuous values, which never
repeat and would only add values of probability zero."""

__all__ = ["HEAVY", "SLICE", "ScanRunner", "Sketch", "merge", "one_sided", "sketch",
           "value_hash"]


def value_hash(v: FloatArray) -> U64:
    """A 64-bit mix (splitmix64's finaliser) of each float's bits, −0.0 folded into 0.0."""
    x = (np.asarray(v, dtype=np.float64) + 0.0).view(np.uint64).copy()
    with np.errstate(over="ignore"):
        x ^= x >> np.uint64(30)
        x *= np.uint64(0xBF58476D1CE4E5B9)
        x ^= x >> np.uint64(27)
        x *= np.uint64(0x94D049BB133111EB)
        x ^= x >> np.uint64(31)
    return x


@attrs.frozen
class Sketch:
    """What one side's outputs of one feature leave behind (module docstring): ``heavy`` values
    (seen at least twice in one block) with their counts, the hash sample ``sample`` with its
    hashes, and ``repeats``: whether any value was seen twice at all."""

    heavy: FloatArray = attrs.field(eq=False)
    counts: IntArray = attrs.field(eq=False)
    sample: FloatArray = attrs.field(eq=False)
    hashes: U64 = attrs.field(eq=False)
    repeats: bool = False
    sample_counts: IntArray = attrs.field(factory=lambda: np.zeros(0, np.int64), eq=False)
    """How often each value of the hash sample was seen (summed over blocks)."""

    @property
    def full(self) -> bool:
        """Whether the hash sample was cut at :data:`SLICE` (else it holds every value)."""
        return self.sample.size >= SLICE

    @property
    def tau(self) -> int:
        """The largest hash the sample is complete up to (2⁶⁴ − 1 when it holds everything)."""
        return int(self.hashes.max()) if self.full else 2**64 - 1


def _empty() -> Sketch:
    return Sketch(heavy=np.zeros(0), counts=np.zeros(0, np.int64), sample=np.zeros(0),
                  hashes=np.zeros(0, np.uint64), sample_counts=np.zeros(0, np.int64))


def _top_heavy(vals: FloatArray, counts: IntArray) -> tuple[FloatArray, IntArray]:
    if vals.size <= HEAVY:
        return vals, counts
    order = np.lexsort((value_hash(vals), -counts))[:HEAVY]
    return vals[order], counts[order]


def _bottom(vals: FloatArray, hashes: U64, counts: IntArray
            ) -> tuple[FloatArray, U64, IntArray]:
    if vals.size <= SLICE:
        return vals, hashes, counts
    order = np.lexsort((vals, hashes))[:SLICE]
    return vals[order], hashes[order], counts[order]


def sketch(values: FloatArray) -> Sketch:
    """The sketch of one block of feature values."""
    y = np.asarray(values, dtype=np.float64) + 0.0
    y = y[np.isfinite(y)]
    if y.size == 0:
        return _empty()
    u, c = np.unique(y, return_counts=True)
    rep = c >= 2
    hv, hc = _top_heavy(u[rep], c[rep].astype(np.int64))
    sv, sh, sc = _bottom(u, value_hash(u), c.astype(np.int64))
    return Sketch(heavy=hv, counts=hc, sample=sv, hashes=sh, repeats=bool(rep.any()),
                  sample_counts=sc)


def merge(parts: Sequence[Sketch]) -> Sketch:
    """The sketch of the union of the blocks (order-independent: unions, sums, smallest
    hashes)."""
    parts = [p for p in parts if p.sample.size or p.heavy.size]
    if not parts:
        return _empty()
    hv = np.concatenate([p.heavy for p in parts])
    hc = np.concatenate([p.counts for p in parts])
    u, inv = np.unique(hv, return_inverse=True)
    summed = np.bincount(inv, weights=hc, minlength=u.size).astype(np.int64) if u.size else \
        np.zeros(0, np.int64)
    heavy, counts = _top_heavy(u, summed)
    sv = np.concatenate([p.sample for p in parts])
    su, first, inv = np.unique(sv, return_index=True, return_inverse=True)
    sc = np.bincount(inv, weights=np.concatenate([p.sample_counts for p in parts]),
                     minlength=su.size).astype(np.int64)
    sh = np.concatenate([p.hashes for p in parts])[first]
    sample, hashes, scounts = _bottom(su, sh, sc)
    repeats = any(p.repeats for p in parts) or bool((sc >= 2).any())
    return Sketch(heavy=heavy, counts=counts, sample=sample, hashes=hashes, repeats=repeats,
                  sample_counts=scounts)


def one_sided(sa: Sketch, sb: Sketch) -> tuple[FloatArray, FloatArray] | None:
    """(values seen under a and not b, values seen under b and not a) from two sides'
    sketches: heavy values and the hash sample up to the common τ on each side; None when no
    value repeats on either side (continuous outputs: every value is new, no set of seen values
    has probability on fresh draws) or both sets are empty."""
    if not (sa.repeats or sb.repeats):
        return None
    tau = min(sa.tau, sb.tau)
    seen = []
    for s in (sa, sb):
        keep = s.hashes <= np.uint64(tau)
        if int(np.count_nonzero(s.sample_counts[keep] >= 2)) < SPARSE_MIN:
            keep[:] = False  # values seen once are continuous noise, not a sparse support
        seen.append(np.union1d(s.heavy, s.sample[keep]))
    # a heavy value of one side is compared with everything the other side kept
    a_only = np.setdiff1d(seen[0], np.union1d(seen[1], sb.sample))
    b_only = np.setdiff1d(seen[1], np.union1d(seen[0], sa.sample))
    if a_only.size == 0 and b_only.size == 0:
        return None
    return a_only, b_only


def _scan_block(sampler: sp.Sampler, name: str, size: int, seq: np.random.SeedSequence,
                feats: Sequence[str], edges: Sequence[FloatArray], scan: Sequence[str],
                user: ft.FeatureMap | None) -> tuple[list[IntArray], str, list[Sketch]]:
    batch = sp.draw(sampler, name, size, seq)
    hists = [cell_counts(e, ft.compute(f, batch, user)) for f, e in zip(feats, edges,
                                                                          strict=True)]
    return hists, sp.digest(batch), [sketch(ft.compute(f, batch, user)) for f in scan]


def _scan_pool_task(args: tuple[str, int, Any, Any, Any, Any]
                    ) -> tuple[list[IntArray], str, list[Sketch]]:
    sp._worker_setup()
    side, size, seq, feats, edges, scan = args
    return _scan_block(sp._JOB[side], f"sample_{side}", size, seq, feats, edges, scan,
                       sp._JOB["user"])


class ScanRunner(sp.Runner):
    """A :class:`~privlab.audit.sampling.Runner` that can also sketch the exact values of some
    features while it counts (:meth:`scan`)."""

    def __enter__(self) -> ScanRunner:
        super().__enter__()
        return self

    def scan(self, side: str, n: int, seq: np.random.SeedSequence, feats: Sequence[str],
             edges: Sequence[FloatArray], scan: Sequence[str]
             ) -> tuple[list[IntArray], list[Sketch]]:
        """Per-feature histograms of n outputs of side ``side`` from stream ``seq`` — the same
        blocks, streams and counts as :meth:`histograms` — and the merged sketches of the
        features ``scan``."""
        if not scan or self._client is not None:
            return self.histograms(side, n, seq, feats, edges), [_empty() for _ in scan]
        tot = [np.zeros(e.size + 1, dtype=np.int64) for e in edges]
        if n <= 0:
            return tot, [_empty() for _ in scan]
        nb = math.ceil(n / self.chunk)
        sizes = [min(self.chunk, n - i * self.chunk) for i in range(nb)]
        jobs = [(side, sizes[i], sp.child(seq, i), tuple(feats), tuple(edges), tuple(scan))
                for i in range(nb)]
        if self._pool is not None and nb > 1:
            parts: Any = self._watched(self._pool.imap_unordered(_scan_pool_task, jobs), side)
        else:
            parts = (_scan_block(self.samplers[side], f"sample_{side}", j[1], j[2], feats,
                                 edges, scan, self.user) for j in jobs)
        sketches: list[list[Sketch]] = [[] for _ in scan]
        for hists, dig, sks in parts:
            self._check_repeat(side, dig, hists)
            for t, h in zip(tot, hists, strict=True):
                t += h
            for acc, sk in zip(sketches, sks, strict=True):
                acc.append(sk)
            if self.tick is not None:
                self.tick(int(hists[0].sum()))
        return tot, [merge(s) for s in sketches]
