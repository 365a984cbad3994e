"""Candidate events for the black-box auditor: a partition of ℝ and unions of its cells.

Partition.  Sorted distinct edges e_0 < … < e_{m−1} cut ℝ into m + 1 cells
c_0 = (−∞, e_0], c_i = (e_{i−1}, e_i], c_m = (e_{m−1}, ∞); ``np.searchsorted(edges, y, "left")``
is the index of the cell holding y.  Edges are pooled pilot quantiles plus, for every *atom*
v (a value seen at least twice in the pilot — impossible for continuous float outputs, the rule
for integer outputs), the pair {prev(v), v} so that {v} = (prev(v), v] is a cell of its own
(prev = the next float below).  With ``tails`` the partition also reaches the extreme order
statistics of every stretch between atoms and a little beyond the pilot's range
(:func:`tail_edges`).

Every candidate event S is a union of cells, so its count is a dot product of a boolean mask with
the cell histogram; all candidates are scored from two histograms in O(cells · log cells):

* thresholds  {Y > e_j} and {Y ≤ e_j}       (suffix / prefix sums),
* single cells c_i                          (atoms and intervals — structural zeros live here),
* stretch runs {atom < Y ≤ e_j}, {e_j < Y < atom}  (:func:`stretch_runs`: a value released
  beside categorical codes),
* likelihood-ratio level sets: cells sorted by the smoothed empirical ratio
  (h_a + ½)/(h_b + ½), and every prefix (and suffix) of that order, i.e. the sets
  {y : r̂(y) ≥ level}.  By Neyman–Pearson these are the most powerful events for a fixed mass,
  which matters when the likelihood ratio is not monotone in y.  The order is taken from one
  half of the selection sample and the prefixes are counted on the other (cross-fitting), else
  the set would be chosen and scored on the same noise.

Each event is scored in both directions (a over b, b over a).  The score is a *conservative
prediction* of the estimation-phase bound: the one-sided Clopper–Pearson bounds at the selection
sample size (p_big ≥ lo, p_small ≤ hi) are taken as the true probabilities and the bound a
fresh estimation sample of size n_est would give with those expected counts is returned,
log((CP_lo(lo·n_est) − δ) / CP_hi(hi·n_est)).  Using CP bounds rather than raw frequencies
penalises tiny cells whose empirical ratio is large by chance (the winner's curse of choosing
the best of thousands of noisy ratios).
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np
from numpy.typing import NDArray
from scipy import special

from privlab.audit.bounds import cp_lower, cp_upper
from privlab.audit.cellcount import cell_counts

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

KINDS = ("threshold>", "threshold<=", "cell", "level>=", "level<=", "run", "zeros")
ZERO_MIN = 20
"""A cell enters a one-sided zero set when one side counted at least this many outputs in it
and the other none (:func:`zero_sets`)."""


@attrs.frozen
class Partition:
    """Cells (−∞, e_0], (e_0, e_1], …, (e_{m−1}, ∞) of ℝ."""

    edges: FloatArray = attrs.field(eq=False)

    @property
    def ncells(self) -> int:
        return int(self.edges.size) + 1

    def cell_index(self, y: FloatArray) -> IntArray:
        return np.searchsorted(self.edges, y, side="left").astype(np.int64)

    def histogram(self, y: FloatArray) -> IntArray:
        """Counts per cell: ``np.bincount(self.cell_index(y), minlength=self.ncells)``."""
        return cell_counts(self.edges, y)

    def bounds(self, i: int) -> tuple[float, float]:
        lo = -np.inf if i == 0 else float(self.edges[i - 1])
        hi = np.inf if i == self.ncells - 1 else float(self.edges[i])
        return lo, hi


def build_partition(pooled: FloatArray, bins: int, *, tails: bool = False) -> Partition:
    """Edges from a pooled pilot: ``bins``-quantiles plus isolated atoms (see module doc); with
    ``tails`` also the edges of :func:`tail_edges` (the partition reaches the extreme order
    statistics of every stretch between atoms, and a little beyond the pilot's range)."""
    base = _base_partition(pooled, bins)
    if not tails:
        return base
    y = np.sort(np.asarray(pooled, dtype=float).ravel())
    finite = y[np.isfinite(y)]
    extra = tail_edges(finite, bins, base.edges)
    if extra.size == 0:
        return base
    return Partition(edges=np.unique(np.concatenate([base.edges, extra])))


TAIL_EXTRA = (1.0, 2.0, 4.0)
"""Edges beyond the pilot's extremes, in multiples of the spread of its :data:`TAIL_RANK`
outermost points (cells that only larger samples reach)."""
TAIL_RANK = 4
STRETCH_CELL = 8
"""Pilot points per cell of a stretch's own quantiles (:func:`tail_edges`)."""


def tail_edges(finite: FloatArray, bins: int, edges: FloatArray) -> FloatArray:
    """Extra edges where the quantile partition is coarse: in every *stretch* of the sorted
    pilot between two atoms of the partition (the whole line when there are none), the order
    statistics of ranks 1, 2, 4, 8, … from both ends — up to half of one quantile cell — and,
    when fewer edges than ``m/STRETCH_CELL`` fall inside the stretch, its own
    ``m/STRETCH_CELL``-quantiles (m its size, at most ``bins`` of them); beyond
    the pilot's minimum and maximum, edges at :data:`TAIL_EXTRA` times the spread of the
    :data:`TAIL_RANK` outermost points.

    Why: the pooled quantiles stop at the 1/bins quantile, and a stretch of continuous values
    that carries little pooled mass (the released value beside the ⊤/⊥ codes of a sparse vector,
    the far tail of a Gaussian where (ε, δ) is decided) gets no edge at all; an event there can
    only be found when the partition reaches it.  ``finite`` is sorted."""
    if finite.size < 2:
        return np.zeros(0)
    atoms = atom_values(edges)
    out: list[FloatArray] = []
    cuts = np.searchsorted(finite, atoms, side="left")
    cuts_hi = np.searchsorted(finite, atoms, side="right")
    bounds = [(0, int(cuts[0]) if atoms.size else finite.size)]
    for k in range(atoms.size):
        nxt = int(cuts[k + 1]) if k + 1 < atoms.size else finite.size
        bounds.append((int(cuts_hi[k]), nxt))
    per_cell = max(1.0, finite.size / max(1, bins))
    for s, t in bounds:
        seg = finite[s:t]
        m = seg.size
        if m < 2:
            continue
        own = min(int(bins), m // STRETCH_CELL)
        if own > 1:
            inside = np.searchsorted(edges, seg[[0, -1]])
            if int(inside[1] - inside[0]) < own:
                out.append(sorted_quantile(seg, np.linspace(0.0, 1.0, own + 1)[1:-1]))
        reach = max(2, int(min(m, per_cell if own <= 1 else m / own)) // 2)
        ranks = 2 ** np.arange(int(math.log2(reach)) + 1)
        ranks = ranks[ranks < m]
        out.append(seg[ranks - 1])
        out.append(seg[m - ranks])
        if s == 0 or t == finite.size:
            r = min(TAIL_RANK, m) - 1
            spread = float(seg[r] - seg[0]), float(seg[-1] - seg[m - 1 - r])
            if s == 0 and spread[0] > 0:
                out.append(seg[0] - spread[0] * np.asarray(TAIL_EXTRA))
            if t == finite.size and spread[1] > 0:
                out.append(seg[-1] + spread[1] * np.asarray(TAIL_EXTRA))
    if not out:
        return np.zeros(0)
    extra = np.concatenate(out)
    return extra[np.isfinite(extra)]


def atom_values(edges: FloatArray) -> FloatArray:
    """The atoms v of a partition (cells (prev(v), v] of a single float)."""
    if edges.size < 2:
        return np.zeros(0)
    is_atom = np.nextafter(edges[:-1], np.inf) == edges[1:]
    return edges[1:][is_atom]


def _base_partition(pooled: FloatArray, bins: int) -> Partition:
    y = np.sort(np.asarray(pooled, dtype=float).ravel())
    finite = y[np.isfinite(y)]
    nb = max(1, min(int(bins), finite.size // 20))
    parts = []
    fast = _one_zero_sign(finite)  # else the values' order among equals could matter
    if finite.size and nb > 1:
        q = np.linspace(0.0, 1.0, nb + 1)[1:-1]
        parts.append(sorted_quantile(finite, q) if fast else np.quantile(finite, q))
    vals, counts = sorted_unique_counts(finite) if fast else np.unique(finite,
                                                                       return_counts=True)
    heavy = vals[counts >= 2]
    if heavy.size > bins:  # keep the `bins` heaviest atoms
        order = np.argsort(-counts[counts >= 2], kind="stable")[:bins]
        heavy = heavy[order]
    if heavy.size:
        parts.extend([heavy, np.nextafter(heavy, -np.inf)])
    if not parts:  # degenerate pilot (e.g. one finite value): a single edge at its median
        parts.append(np.array([float(np.median(finite))]) if finite.size else np.zeros(1))
    edges = np.unique(np.concatenate(parts))
    return Partition(edges=edges)


def _one_zero_sign(y: FloatArray) -> bool:
    """Whether the sorted array ``y`` has no zeros of both signs: then equal entries are equal
    bytes and any rearrangement of equals (a partition, a second sort) gives the same values."""
    lo, hi = np.searchsorted(y, 0.0, "left"), np.searchsorted(y, 0.0, "right")
    signs = np.signbit(y[lo:hi])
    return bool(signs.all() or not signs.any())


def sorted_quantile(y: FloatArray, q: FloatArray) -> FloatArray:
    """``np.quantile(y, q)`` (method "linear": y_(⌊v⌋) + (v − ⌊v⌋)(y_(⌊v⌋+1) − y_(⌊v⌋)) at
    v = (n − 1)q, numpy's two-sided lerp) for a sorted, NaN-free, non-empty ``y``, read off the
    sorted array instead of partitioning a copy (numpy's own steps, same floats:
    ``tests/audit/test_partition_fastpath.py``)."""
    n = y.size
    virtual = (n - 1) * np.asarray(q, dtype=float)
    prev = np.floor(virtual)
    nxt = prev + 1
    above = virtual >= n - 1  # numpy: take the largest value
    prev[above], nxt[above] = -1, -1
    below = virtual < 0
    prev[below], nxt[below] = 0, 0
    prev_i, next_i = prev.astype(np.intp), nxt.astype(np.intp)
    gamma = virtual - prev_i
    a, b = y[prev_i], y[next_i]
    diff = b - a
    out = a + diff * gamma
    np.subtract(b, diff * (1 - gamma), out=out, where=gamma >= 0.5)
    return out


def sorted_unique_counts(y: FloatArray) -> tuple[FloatArray, IntArray]:
    """``np.unique(y, return_counts=True)`` for a sorted ``y`` without NaN (numpy's steps after
    its own sort)."""
    mask = np.empty(y.size, dtype=bool)
    mask[:1] = True
    np.not_equal(y[1:], y[:-1], out=mask[1:])
    return y[mask], np.diff(np.concatenate((np.flatnonzero(mask), [mask.size])))


@attrs.frozen
class Candidates:
    """All candidate events with their selection counts (``n`` = sample size of the counts)."""

    kind: IntArray = attrs.field(eq=False)  # index into KINDS
    param: IntArray = attrs.field(eq=False)  # edge / cell index, or prefix length
    group: IntArray = attrs.field(eq=False)  # level sets: which entry of ``orders``
    count_a: IntArray = attrs.field(eq=False)
    count_b: IntArray = attrs.field(eq=False)
    n: IntArray = attrs.field(eq=False)
    orders: tuple[IntArray, ...] = attrs.field(eq=False)  # cells by decreasing ratio a/b
    stop: IntArray | None = attrs.field(default=None, eq=False)
    """Runs: the last cell of candidate j's run of cells param[j] … stop[j] (None: no runs)."""
    sets: tuple[IntArray, ...] = attrs.field(default=(), eq=False)
    """Zero sets: the cells of candidate j are ``sets[group[j]]``."""

    def __len__(self) -> int:
        return int(self.kind.size)

    def mask(self, j: int, ncells: int) -> NDArray[np.bool_]:
        """Boolean mask over cells of candidate ``j``."""
        kind, p = KINDS[int(self.kind[j])], int(self.param[j])
        m = np.zeros(ncells, dtype=bool)
        if kind == "threshold>":
            m[p + 1:] = True
        elif kind == "threshold<=":
            m[: p + 1] = True
        elif kind == "cell":
            m[p] = True
        elif kind == "run":
            assert self.stop is not None
            m[p: int(self.stop[j]) + 1] = True
        elif kind == "zeros":
            m[self.sets[int(self.group[j])]] = True
        elif kind == "level>=":
            m[self.orders[int(self.group[j])][:p]] = True
        else:  # "level<=": the complementary suffixes of the same order
            m[self.orders[int(self.group[j])][ncells - p:]] = True
        return m


def ratio_order(hist_a: IntArray, hist_b: IntArray) -> IntArray:
    """Cells by decreasing smoothed ratio (h_a + ½)/(h_b + ½), ties by decreasing h_a."""
    ha, hb = np.asarray(hist_a, np.int64), np.asarray(hist_b, np.int64)
    ratio = (ha + 0.5) / (hb + 0.5)
    return np.lexsort((-ha, -ratio)).astype(np.int64)


def stretch_runs(edges: FloatArray) -> tuple[IntArray, IntArray]:
    """(first, last) cells of the *stretch runs* of a partition: in every maximal stretch of
    non-atom cells that borders an atom (an atom cell is (prev(v), v]), the runs that start at
    its first cell or end at its last — {atom < Y ≤ e} and {e < Y < next atom}.  A stretch that
    reaches −∞ or +∞ on that side gives thresholds, which are candidates already, so those are
    left out; so are single cells.  O(cells) events: what mixed outputs need (a released value
    beside categorical codes, e.g. {⊥ < x[5] ≤ 0} of a sparse vector that prints the answer of
    the query above the threshold)."""
    c = edges.size + 1
    atom = np.zeros(c, dtype=bool)
    if edges.size >= 2:
        atom[1:-1] = np.nextafter(edges[:-1], np.inf) == edges[1:]
    firsts: list[IntArray] = []
    lasts: list[IntArray] = []
    i = 0
    while i < c:
        if atom[i]:
            i += 1
            continue
        j = i
        while j + 1 < c and not atom[j + 1]:
            j += 1
        if j > i:  # stretch i … j of at least two cells
            if i > 0:  # starts after an atom: runs i … k
                k = np.arange(i + 1, j + (0 if j == c - 1 else 1))
                firsts.append(np.full(k.size, i))
                lasts.append(k)
            if j < c - 1:  # ends before an atom: runs k … j (k = i is a prefix or a threshold)
                k = np.arange(i + 1, j)
                firsts.append(k)
                lasts.append(np.full(k.size, j))
        i = j + 1
    if not firsts:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.concatenate(firsts).astype(np.int64), np.concatenate(lasts).astype(np.int64)


def zero_sets(ha: IntArray, hb: IntArray) -> list[IntArray]:
    """The one-sided zero sets of two histograms: the cells where a counted at least
    :data:`ZERO_MIN` outputs and b none, and the other way round (each when it has at least two
    cells; a single cell is a candidate already).  Their union is the largest event the sample
    shows as impossible under one side — the natural candidate for a structural leak spread
    over many cells (bit patterns in many binades), without the cells of a few chance hits that
    a likelihood-ratio level set would also gather."""
    out = []
    for big, small in ((ha, hb), (hb, ha)):
        z = np.flatnonzero((small == 0) & (big >= ZERO_MIN))
        out.append(z.astype(np.int64) if z.size >= 2 else np.zeros(0, np.int64))
    return out


def _add_zero_sets(ha: IntArray, hb: IntArray, ntot: int, kinds: list[Any], params: list[Any],
                   groups: list[Any], stops: list[Any], cnt_a: list[Any], cnt_b: list[Any],
                   ns: list[Any] | None) -> tuple[IntArray, ...]:
    sets = tuple(z for z in zero_sets(ha, hb) if z.size)
    for g, z in enumerate(sets):
        kinds.append(np.full(1, KINDS.index("zeros")))
        params.append(np.full(1, z.size))
        groups.append(np.full(1, g))
        stops.append(np.zeros(1, np.int64))
        cnt_a.append(np.array([int(ha[z].sum())]))
        cnt_b.append(np.array([int(hb[z].sum())]))
        if ns is not None:
            ns.append(np.full(1, ntot))
    return sets


def candidates(halves_a: tuple[IntArray, IntArray],
               halves_b: tuple[IntArray, IntArray],
               runs: tuple[IntArray, IntArray] | None = None) -> Candidates:
    """Thresholds, cells and stretch runs (``runs``: :func:`stretch_runs`) from the pooled
    selection histograms; level sets cross-fitted.

    The selection sample comes in two independent halves.  Thresholds, cells and runs are
    counted on both halves together.  A level set built *and* counted on the same histogram
    would be biased upwards (its cells were picked because their ratio looked large), so the
    order is taken from one half and the prefixes are counted on the other, both ways round.
    """
    (a1, a2), (b1, b2) = halves_a, halves_b
    ha, hb = np.asarray(a1 + a2, np.int64), np.asarray(b1 + b2, np.int64)
    c = ha.size
    ntot = int(ha.sum())
    ca, cb = np.cumsum(ha), np.cumsum(hb)
    j = np.arange(c - 1)
    k = np.arange(1, c + 1)
    kinds = [np.full(c - 1, 0), np.full(c - 1, 1), np.full(c, 2)]
    params = [j, j, np.arange(c)]
    groups = [np.zeros(c - 1), np.zeros(c - 1), np.zeros(c)]
    cnt_a = [ca[-1] - ca[:-1], ca[:-1], ha]
    cnt_b = [cb[-1] - cb[:-1], cb[:-1], hb]
    ns = [np.full(c - 1, ntot), np.full(c - 1, ntot), np.full(c, ntot)]
    orders = []
    for g, (oa, ob, ea, eb) in enumerate(((a1, b1, a2, b2), (a2, b2, a1, b1))):
        order = ratio_order(oa, ob)
        orders.append(order)
        xa, xb = np.asarray(ea, np.int64)[order], np.asarray(eb, np.int64)[order]
        kinds += [np.full(c, 3), np.full(c, 4)]
        params += [k, k]
        groups += [np.full(c, g), np.full(c, g)]
        cnt_a += [np.cumsum(xa), np.cumsum(xa[::-1])]
        cnt_b += [np.cumsum(xb), np.cumsum(xb[::-1])]
        ns += [np.full(c, int(xa.sum())), np.full(c, int(xa.sum()))]
    stops = [np.zeros(x.size, np.int64) for x in kinds]
    if runs is not None and runs[0].size:
        first, last = runs
        ca0, cb0 = np.concatenate([[0], ca]), np.concatenate([[0], cb])
        kinds.append(np.full(first.size, 5))
        params.append(first)
        stops.append(last)
        groups.append(np.zeros(first.size))
        cnt_a.append(ca0[last + 1] - ca0[first])
        cnt_b.append(cb0[last + 1] - cb0[first])
        ns.append(np.full(first.size, ntot))
    sets = _add_zero_sets(ha, hb, ntot, kinds, params, groups, stops, cnt_a, cnt_b, ns)
    cat = lambda xs: np.concatenate(xs).astype(np.int64)  # noqa: E731
    return Candidates(kind=cat(kinds), param=cat(params), group=cat(groups), count_a=cat(cnt_a),
                      count_b=cat(cnt_b), n=cat(ns), orders=tuple(orders), stop=cat(stops),
                      sets=sets)


def plain_candidates(hist_a: IntArray, hist_b: IntArray,
                     runs: tuple[IntArray, IntArray] | None = None) -> Candidates:
    """Thresholds, cells and stretch runs of one pair of histograms, without level sets — for
    features built from the first selection half (a support set, a product of coordinate
    events, a learned score) and counted on the second only: the feature is already the
    cross-fitted part, and a level set would be ordered and counted on the same sample."""
    ha, hb = np.asarray(hist_a, np.int64), np.asarray(hist_b, np.int64)
    c = ha.size
    ntot = int(ha.sum())
    ca, cb = np.cumsum(ha), np.cumsum(hb)
    j = np.arange(c - 1)
    kinds = [np.full(c - 1, 0), np.full(c - 1, 1), np.full(c, 2)]
    params = [j, j, np.arange(c)]
    stops: list[IntArray] = [np.zeros(c - 1, np.int64), np.zeros(c - 1, np.int64),
                             np.zeros(c, np.int64)]
    cnt_a = [ca[-1] - ca[:-1], ca[:-1], ha]
    cnt_b = [cb[-1] - cb[:-1], cb[:-1], hb]
    if runs is not None and runs[0].size:
        first, last = runs
        ca0, cb0 = np.concatenate([[0], ca]), np.concatenate([[0], cb])
        kinds.append(np.full(first.size, 5))
        params.append(first)
        stops.append(last)
        cnt_a.append(ca0[last + 1] - ca0[first])
        cnt_b.append(cb0[last + 1] - cb0[first])
    groups: list[Any] = [np.zeros(x.size, np.int64) for x in kinds]
    sets = _add_zero_sets(ha, hb, ntot, kinds, params, groups, stops, cnt_a, cnt_b, None)
    cat = lambda xs: np.concatenate(xs).astype(np.int64)  # noqa: E731
    kind = cat(kinds)
    return Candidates(kind=kind, param=cat(params), group=cat(groups),
                      count_a=cat(cnt_a), count_b=cat(cnt_b), n=np.full(kind.size, ntot),
                      orders=(), stop=cat(stops), sets=sets)


def penalised_probabilities(big: IntArray, small: IntArray, n_sel: IntArray | int,
                            alpha: float, sel_alpha: float | None
                            ) -> tuple[FloatArray, FloatArray]:
    """The selection counts' CP-penalised probabilities (lower for big, upper for small)."""
    s2 = alpha / 2.0 if sel_alpha is None else sel_alpha / 2.0
    return cp_lower(big, n_sel, s2), cp_upper(small, n_sel, s2)


def score(big: IntArray, small: IntArray, n_sel: IntArray | int, n_est: int, alpha: float,
          delta: float = 0.0, sel_alpha: float | None = None, *,
          penalised: tuple[FloatArray, FloatArray] | None = None) -> FloatArray:
    """Conservative prediction of the estimation-phase bound (module doc); −inf when none.
    ``sel_alpha`` (default α) is the level of the selection-count CP penalty; ``penalised``:
    those probabilities when already computed (:func:`penalised_probabilities`)."""
    a2 = alpha / 2.0
    p_big, p_small = penalised or penalised_probabilities(big, small, n_sel, alpha, sel_alpha)
    lo = cp_lower(p_big * n_est, n_est, a2) - delta
    hi = cp_upper(p_small * n_est, n_est, a2)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(lo > 0, np.log(np.maximum(lo, 1e-300)) - np.log(hi), -np.inf)
    return np.asarray(s, dtype=float)


SELECT_LEVEL = 0.05
"""One-sided CP level of the selection counts in :func:`score_delta`."""


def score_delta(big: Any, small: Any, n_sel: Any, n_est: int, alpha: float,
                c: float) -> FloatArray:
    """Predicted δ bound at e^ε = c: one-sided CP bounds of the selection counts at level
    ``SELECT_LEVEL`` (about 1.6 standard errors: enough to damp the winner's curse of noisy
    candidates, less than the α/2 used for ε, which would favour low-variance events) minus the
    normal width of the estimation step."""
    pb = cp_lower(big, n_sel, SELECT_LEVEL)
    ps = cp_upper(small, n_sel, SELECT_LEVEL)
    sd = np.sqrt((pb * (1 - pb) + c * c * ps * (1 - ps)) / n_est)
    return np.asarray(pb - c * ps - 1.645 * sd, dtype=float)


JOINT_MIN_COUNT = 50
"""Expected small-side estimation count below which the joint prediction is not trusted."""


def score_joint(big: IntArray, small: IntArray, n_sel: IntArray | int, n_est: int,
                alpha: float, delta: float = 0.0, sel_alpha: float | None = None, *,
                penalised: tuple[FloatArray, FloatArray] | None = None) -> FloatArray:
    """Conservative prediction of the joint ratio bound (:mod:`privlab.audit.ratiobound`):
    the same CP-penalised probabilities as :func:`score`, minus one normal width
    z_{α − α/20}·√(Var log p̂_big-part + Var log p̂_small) at n_est; −inf where the small side
    would have fewer than ``JOINT_MIN_COUNT`` expected hits (the normal width is then
    optimistic and the Bonferroni bound is the safer choice)."""
    p_big, p_small = penalised or penalised_probabilities(big, small, n_sel, alpha, sel_alpha)
    z = float(-special.ndtri(alpha - alpha / 20.0))  # = scipy.stats.norm.isf
    with np.errstate(divide="ignore", invalid="ignore"):
        net = np.maximum(p_big - delta, 1e-300)
        var = (p_big * (1 - p_big) / net**2 + (1 - p_small) / np.maximum(p_small, 1e-300)) / n_est
        s = np.log(net) - np.log(np.maximum(p_small, 1e-300)) - z * np.sqrt(var)
        s = np.where((p_big > delta) & (p_small * n_est >= JOINT_MIN_COUNT), s, -np.inf)
    return np.asarray(s, dtype=float)


PRUNE_TOP = 8
"""Candidates scored exactly first by :func:`best_score` (the best by a normal-approximation
proxy of the score: they only set the pruning bar)."""


def _log_ratio(p_big: FloatArray, p_small: FloatArray, delta: float) -> FloatArray:
    """log(p_big − δ) − log(p_small), −inf where p_big ≤ δ (both logs floored at 1e-300)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(p_big > delta, np.log(np.maximum(p_big - delta, 1e-300))
                        - np.log(np.maximum(p_small, 1e-300)), -np.inf)


def best_score(big: IntArray, small: IntArray, n_sel: IntArray, n_est: int, alpha: float,
               delta: float, sel_alpha: float) -> tuple[int, float, bool]:
    """(index, score, joint?) of the candidate that maximises max(:func:`score`,
    :func:`score_joint`) — the first index among equal maxima, exactly as ``np.argmax`` over
    every candidate — scoring exactly only the candidates that can win.

    Both scores are at most u = log(p_big − δ) − log(p_small) of the CP-penalised selection
    probabilities (the estimation-phase CP bounds move p_big down and p_small up; the joint
    score subtracts a width), and u ≤ r = log(k_big/n − δ) − log(k_small/n) of the raw
    frequencies: the median of Binomial(n, k/n) is k, so P_{k/n}(K ≥ k) ≥ ½ > a and
    P_{k/n}(K ≤ k) ≥ ½ > a, i.e. CP_lo(k) ≤ k/n ≤ CP_hi(k) at any level a < ½.  The bar is the
    best exact score of :data:`PRUNE_TOP` candidates ranked by a normal-approximation proxy
    (any subset gives a bar ≤ the maximum); a candidate with r below the bar cannot be the
    maximum and costs no Clopper–Pearson bound (the expensive part: ``betaincinv``), one with
    u below it is not scored.  Every score is computed elementwise, so the maximum and its
    index are the floats the full argmax gives (``tests/audit/test_best_score.py``)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        n = np.asarray(n_sel, dtype=float)
        fb, fs = big / n, small / n
        raw = _log_ratio(fb, fs, delta)
        z = float(-special.ndtri(sel_alpha / 2.0))
        proxy = _log_ratio(fb - z * np.sqrt(fb * (1 - fb) / n),
                           fs + z * np.sqrt(fs * (1 - fs) / n) + 1 / n, delta)

    def exact(idx: IntArray, pen: tuple[FloatArray, FloatArray]
              ) -> tuple[FloatArray, NDArray[np.bool_]]:
        args = (big[idx], small[idx], n_sel[idx], n_est, alpha, delta, sel_alpha)
        s_cp = score(*args, penalised=pen)
        s_jt = score_joint(*args, penalised=pen)
        return np.where(s_jt > s_cp, s_jt, s_cp), s_jt > s_cp

    def penalised(idx: IntArray) -> tuple[FloatArray, FloatArray]:
        return penalised_probabilities(big[idx], small[idx], n_sel[idx], alpha, sel_alpha)

    top = np.sort(np.argsort(-proxy, kind="stable")[:PRUNE_TOP])
    first, first_joint = exact(top, penalised(top))
    bar = float(first.max()) - 1e-9 * max(1.0, abs(float(first.max())))
    if not np.isfinite(bar):
        every = np.arange(raw.size)
        s, joint = exact(every, penalised(every))
        j = int(np.argmax(s))
        return j, float(s[j]), bool(joint[j])
    maybe = raw >= bar
    maybe[top] = False
    rest = np.flatnonzero(maybe)
    p_big, p_small = penalised(rest)
    win = _log_ratio(p_big, p_small, delta) >= bar
    s_rest, joint_rest = exact(rest[win], (p_big[win], p_small[win]))
    idx = np.concatenate([top, rest[win]])
    order = np.argsort(idx, kind="stable")
    s = np.concatenate([first, s_rest])[order]
    joint = np.concatenate([first_joint, joint_rest])[order]
    j = int(np.argmax(s))
    return int(idx[order][j]), float(s[j]), bool(joint[j])


def _intervals(mask: NDArray[np.bool_], part: Partition) -> list[list[float]]:
    """Maximal runs of selected cells as (lo, hi] intervals."""
    m = np.concatenate([[False], mask, [False]]).astype(np.int8)
    starts = np.flatnonzero(np.diff(m) == 1)
    stops = np.flatnonzero(np.diff(m) == -1) - 1
    return [[part.bounds(int(s))[0], part.bounds(int(t))[1]] for s, t in zip(starts, stops,
                                                                              strict=True)]


def describe(cands: Candidates, j: int, part: Partition) -> dict[str, Any]:
    """JSON-ready description of candidate ``j`` (intervals are half-open (lo, hi])."""
    kind, p = KINDS[int(cands.kind[j])], int(cands.param[j])
    if kind.startswith("threshold"):
        return {"kind": "threshold", "op": ">" if kind == "threshold>" else "<=",
                "t": float(part.edges[p])}
    if kind == "cell":
        lo, hi = part.bounds(p)
        if np.isfinite(lo) and np.isfinite(hi) and np.nextafter(lo, np.inf) == hi:
            return {"kind": "atom", "value": hi}
        return {"kind": "cell", "lo": lo, "hi": hi, "closed": "(lo, hi]"}
    if kind == "run":  # cells p … stop: one interval, written as a cell (lo, hi]
        assert cands.stop is not None
        lo, hi = part.bounds(p)[0], part.bounds(int(cands.stop[j]))[1]
        return {"kind": "cell", "lo": lo, "hi": hi, "closed": "(lo, hi]"}
    mask = cands.mask(j, part.ncells)
    return {"kind": "level_set", "cells": int(mask.sum()), "closed": "(lo, hi]",
            "intervals": _intervals(mask, part)}


def _num(x: Any) -> float:
    """A bound from JSON (``jsonable`` writes ±inf as the strings "inf" / "-inf")."""
    return float(x)


def _in(y: FloatArray, lo: Any, hi: Any) -> NDArray[np.bool_]:
    """y ∈ (lo, hi], with the first cell (−∞, e_0] holding −∞ and the last holding +∞."""
    a, b = _num(lo), _num(hi)
    return ((y > a) | (a == -np.inf)) & ((y <= b) | (b == np.inf))


def contains(event: dict[str, Any], y: FloatArray) -> NDArray[np.bool_]:
    """Membership of each value of ``y`` in a described event (inverse of :func:`describe`)."""
    from privlab.errors import InvalidParameter

    y = np.asarray(y, dtype=float)
    kind = event.get("kind") if isinstance(event, dict) else None
    if kind == "threshold":
        t = _num(event["t"])
        return y > t if event["op"] == ">" else y <= t
    if kind == "atom":
        return y == _num(event["value"])
    if kind == "cell":
        return _in(y, event["lo"], event["hi"])
    if kind == "level_set":
        out = np.zeros(y.shape, dtype=bool)
        for lo, hi in event["intervals"]:
            out |= _in(y, lo, hi)
        return out
    raise InvalidParameter(f"event={event!r} is not an event description (kind threshold, "
                           f"atom, cell or level_set)")
