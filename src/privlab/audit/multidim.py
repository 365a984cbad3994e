"""Events in several dimensions for vector outputs: products of coordinate events and a learned
per-coordinate likelihood-ratio score, both fitted on the first selection half.

Why.  A vector output can leak through several coordinates at once: a noisy histogram under
substitution moves two cells in opposite directions, and its loss 2ε is reached only on the
product event {y₀ ≥ 2} ∩ {y₁ ≤ 1}; every one-dimensional event of a single coordinate stays at ε.

What.  From the first selection half's histograms of the coordinates x[i] (which the auditor
has anyway), for every coordinate and direction the best one-coordinate event (threshold,
cell or stretch run, scored as in :mod:`privlab.audit.events`) becomes a *condition*; the
conditions of the strongest coordinates are combined into ``joint[c₁;…;c_L]`` features (the
cell of the output in the product of L events: its thresholds and cells are the intersections,
the unions and the mixed events).  The *learned score* ``lrsum[…]`` is Σ_i v_i(x_i), with v_i a
piecewise-constant fit (at most :data:`PIECES` pieces, weighted least squares) of the first
half's log count ratio of coordinate i — a naive-Bayes estimate of the log-likelihood ratio,
whose level sets are the most powerful events when the coordinates are independent.

Soundness.  Both are fixed functions of the output, fitted on the first selection half only and
written out completely in their names (:func:`privlab.audit.features.compute` evaluates them), so
they are counted on the second half for selection and on fresh samples for the bound like every
other feature; replay needs nothing but the name.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import attrs
import numpy as np
from numpy.typing import NDArray

from privlab.audit import events as ev
from privlab.audit import features as ft

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

TOP = 4
"""Coordinates per direction combined into products."""
PIECES = 6
"""Pieces of each coordinate's term of the learned score."""
SCORE_COORDS = 8
"""Coordinates in the learned score (the strongest)."""

__all__ = ["CoordEvent", "coordinate_events", "joint_features", "learned_score"]


@attrs.frozen
class CoordEvent:
    """The best one-coordinate event of coordinate ``coord`` in one direction, as a condition
    of a ``joint`` feature, with its predicted bound on the first half."""

    coord: int
    forward: bool
    condition: str
    score: float


def _edge(edges: FloatArray, p: int) -> float:
    """Edge p, written as the shortest decimal within a quarter of the gaps to its neighbours
    (exact next to an atom, where a neighbour is the adjacent float)."""
    x = float(edges[p])
    lo = float(edges[p - 1]) if p > 0 else x - 1.0
    hi = float(edges[p + 1]) if p + 1 < edges.size else x + 1.0
    return ft.short_float(x, x - (x - lo) / 4, x + (hi - x) / 4)


def _condition(i: int, cands: ev.Candidates, j: int, part: ev.Partition) -> str | None:
    kind, p = ev.KINDS[int(cands.kind[j])], int(cands.param[j])
    e = part.edges
    if kind == "threshold>":
        return ft.cond_text(i, ">", _edge(e, p))
    if kind == "threshold<=":
        return ft.cond_text(i, "<=", _edge(e, p))
    if kind in ("cell", "run"):
        q = p if kind == "cell" else int(cands.stop[j]) if cands.stop is not None else p
        if p == 0 and q == part.ncells - 1:
            return None
        if p == 0:
            return ft.cond_text(i, "<=", _edge(e, q))
        if q == part.ncells - 1:
            return ft.cond_text(i, ">", _edge(e, p - 1))
        return ft.cond_text(i, "~", _edge(e, p - 1), _edge(e, q))
    return None


def coordinate_events(coords: Sequence[tuple[int, ev.Partition, IntArray, IntArray]],
                      n_est: int, alpha: float, delta: float, *, objective: str = "epsilon",
                      c: float = 1.0) -> list[CoordEvent]:
    """The best event of each coordinate in each direction, from its first-half histograms
    ``(i, partition, hist_a, hist_b)`` (both sides the same size), scored for ``objective``
    (ε at ``delta``, or δ at e^ε = ``c``) as the selection scores events."""
    out = []
    for i, part, ha, hb in coords:
        if int(ha.sum()) == 0:
            continue
        cands = ev.plain_candidates(ha, hb, ev.stretch_runs(part.edges))
        sa = alpha / (2 * len(cands))
        for forward in (True, False):
            big, small = (cands.count_a, cands.count_b) if forward else \
                (cands.count_b, cands.count_a)
            if objective == "delta":
                sd = ev.score_delta(big, small, cands.n, n_est, alpha, c)
                j, s = int(np.argmax(sd)), float(np.max(sd))
            else:
                j, s, _ = ev.best_score(big, small, cands.n, n_est, alpha, delta, sa)
            cond = _condition(i, cands, j, part)
            if cond is not None and math.isfinite(s):
                out.append(CoordEvent(coord=i, forward=forward, condition=cond, score=s))
    return out


def joint_features(events: Sequence[CoordEvent], top: int = TOP) -> list[str]:
    """``joint`` features of the strongest coordinates of each direction: every pair of the
    ``top`` best, and all ``top`` of them together (a unique list, strongest first)."""
    names: list[str] = []
    for forward in (True, False):
        best = sorted((e for e in events if e.forward == forward and e.score > 0),
                      key=lambda e: (-e.score, e.coord))[:top]
        conds = [e.condition for e in best]
        for a in range(len(conds)):
            for b in range(a + 1, len(conds)):
                names.append(f"joint[{conds[a]};{conds[b]}]")
        if len(conds) > 2:
            names.append("joint[" + ";".join(conds) + "]")
    return list(dict.fromkeys(names))


def _segments(r: FloatArray, w: FloatArray, pieces: int) -> list[tuple[int, int, float]]:
    """The weighted least-squares fit of ``r`` by at most ``pieces`` constant pieces over
    consecutive cells (dynamic programming): (first cell, last cell, value) per piece."""
    c = r.size
    cw = np.concatenate([[0.0], np.cumsum(w)])
    cwr = np.concatenate([[0.0], np.cumsum(w * r)])
    cwr2 = np.concatenate([[0.0], np.cumsum(w * r * r)])
    s_idx, t_idx = np.meshgrid(np.arange(c), np.arange(c), indexing="ij")  # cost[s, t]
    with np.errstate(invalid="ignore", divide="ignore"):
        ww = cw[t_idx + 1] - cw[s_idx]
        sr = cwr[t_idx + 1] - cwr[s_idx]
        cost = np.where(ww > 0, cwr2[t_idx + 1] - cwr2[s_idx] - sr * sr / ww, 0.0)
    cost = np.where(t_idx >= s_idx, np.maximum(cost, 0.0), np.inf)
    best = cost[0].copy()  # best[t]: one piece over 0..t
    back = [np.zeros(c, np.int64)]
    for _ in range(1, pieces):
        # new piece s..t after the best split of 0..s−1
        cand = np.concatenate([[np.inf], best[:-1]])[:, None] + cost
        arg = np.argmin(cand, axis=0)
        new = cand[arg, np.arange(c)]
        better = new < best - 1e-12
        back.append(np.where(better, arg, -1))
        best = np.where(better, new, best)
    out = []
    t, k = c - 1, pieces - 1
    while t >= 0:
        while k > 0 and back[k][t] < 0:
            k -= 1
        s = int(back[k][t]) if k > 0 else 0
        ws = cw[t + 1] - cw[s]
        out.append((s, t, float((cwr[t + 1] - cwr[s]) / ws) if ws > 0 else 0.0))
        t, k = s - 1, k - 1
    return out[::-1]


def learned_score(coords: Sequence[tuple[int, ev.Partition, IntArray, IntArray]],
                  pieces: int = PIECES, keep: int = SCORE_COORDS) -> str | None:
    """The ``lrsum`` feature fitted on the first-half histograms ``(i, partition, hist_a,
    hist_b)`` of the coordinates, or None when fewer than two coordinates carry a signal.

    Per coordinate: the cell log count ratio r = log((h_a + 1)/(h_b + 1)), fitted by at most
    ``pieces`` constant pieces weighted by h_a + h_b; its signal is the weighted variance the
    fit explains, Σ w·(v − v̄)², which is about 4·(pieces − 1)·log(cells) for a coordinate
    whose law does not move (w ≈ 4/Var r per cell, and the cuts are chosen); coordinates above
    twice that, the ``keep`` strongest, make up the score."""
    terms = []
    for i, part, ha, hb in coords:
        a, b = np.asarray(ha, dtype=float), np.asarray(hb, dtype=float)
        w = a + b
        if w.sum() <= 0 or w.size < 2:
            continue
        r = np.log((a + 1.0) / (b + 1.0))
        segs = _segments(r, w, pieces)
        if len(segs) < 2:
            continue
        mean = float((w * r).sum() / w.sum())
        fit = np.concatenate([np.full(t - s + 1, v) for s, t, v in segs])
        signal = float((w * (fit - mean) ** 2).sum())
        noise = 4.0 * (pieces - 1) * math.log(max(2, w.size))
        if signal > 2.0 * noise:
            terms.append((signal, i, part, segs))
    if len(terms) < 2:
        return None
    terms.sort(key=lambda x: (-x[0], x[1]))
    texts = []
    for _sig, i, part, segs in sorted(terms[:keep], key=lambda x: x[1]):
        cuts = [_edge(part.edges, t) for _s, t, _v in segs[:-1]]
        vals = [round(v, 2) + 0.0 for _s, _t, v in segs]
        if any(b <= a for a, b in itertools.pairwise(cuts)):
            continue
        texts.append(f"{i}:" + "/".join(repr(c) for c in cuts) + ":"
                     + "/".join(f"{v:g}" for v in vals))
    if len(texts) < 2:
        return None
    return "lrsum[" + ";".join(texts) + "]"
