"""Black-box Monte-Carlo auditor: a sound lower bound on the privacy loss ε of a mechanism.

Setting.  A mechanism M is (ε, δ)-DP when for all neighbouring inputs D ~ D' and every event S,
P(M(D) ∈ S) ≤ e^ε · P(M(D') ∈ S) + δ.  Hence for any *fixed* S and any one pair,

    ε ≥ log((P(M(D) ∈ S) − δ) / P(M(D') ∈ S)),

and replacing the two probabilities by a lower confidence bound of the first and an upper
confidence bound of the second gives a lower bound on ε that holds with the joint confidence.

Method (``samples`` = n outputs per side; everything streamed in blocks of ``chunk`` outputs,
memory O(chunk + cells), never O(n); blocks run on ``workers`` local processes or a Dask
cluster with the same result for the same seed, see :mod:`privlab.audit.sampling`):

1. *Pilot* (n_p = min(n_sel, 10⁴) per side, first part of the selection budget): for every
   feature φ of the output (:mod:`privlab.audit.features`: the value itself; coordinates, sum,
   max, argmax and tie patterns of vectors; float low bits and precision when asked) pooled
   quantiles (``bins``, default 200) plus isolated atoms fix a partition of ℝ
   (:mod:`privlab.audit.events`); with ``tails`` (default) also the extreme order statistics of
   every stretch between atoms and edges beyond the pilot's range, so that events in the far
   tails ((ε, δ) of a Gaussian) and in thin stretches (a value released beside codes) exist.
2. *Selection* (n_sel = ⌈selection_fraction · n⌉ per side, default 0.3, pilot included, drawn
   as two independent halves).  The first half is counted on the partitions and, with
   ``support_scan``, leaves the exact values each side produced
   (:mod:`privlab.audit.supportscan`); from it alone the auditor builds *late* features: the
   value sets seen under one input only, products of the best coordinate events and a learned
   per-coordinate likelihood-ratio score of vector outputs (``multidim``,
   :mod:`privlab.audit.multidim`).  The second half is counted on every feature.  Candidates:
   every threshold {Y > t}, {Y ≤ t}, single cell, run of cells from an atom (``runs``), zero
   set (the cells one side never hit) and likelihood-ratio level set (ordered on one half,
   counted on the other) of every pilot feature, counted on both halves, and the thresholds,
   cells, runs and zero sets of every late feature, counted on the second half — each in
   both directions, scored by a conservative
   prediction of step 3's bound and the best event S* is kept.  The prediction takes the
   selection probabilities at their one-sided Clopper–Pearson bounds at level α/(2m),
   simultaneous over the m candidates of a feature and direction: a penalty that grows with
   the number of candidates, so a small cell whose ratio looks large by chance (the winner's
   curse of picking the best of thousands) loses against a robust threshold.  A *structural*
   candidate (no selection hit on one side, enough on the other) is preferred when its
   prediction is close to the best (``prefer_structural``).  The same step fixes the *bound
   method* of step 3 — "joint" or "bonferroni", whichever predicts the higher bound.
3. *Estimation* (n_est = n − n_sel fresh samples per side, independent streams): counts k_a, k_b
   of S* (the side where S* was more likely at selection is called "a" below), and either

   * "joint": ε_lb = the exact (1 − α) lower confidence bound on log((p_a − δ)/p_b) of
     :mod:`privlab.audit.ratiobound` (one test of the ratio, Berger–Boos nuisance interval),
     about 0.64× as wide as the Bonferroni pair at large counts; or
   * "bonferroni": one-sided Clopper–Pearson bounds (:mod:`privlab.audit.bounds`) p_a ≥ L_a and
     p_b ≤ U_b, each at level 1 − α/2 with α = 1 − confidence, and
     ε_lb = max(0, log((L_a − δ) / U_b)) — better when the small side has few hits.

Soundness.  S* and the bound method depend only on pilot and selection samples (the late
features, too, are functions of the output fixed by the first selection half), which are
independent of the estimation samples, so conditionally on them the step-3 bound holds with
probability ≥ 1 − α; ε_lb ≤ ε_true with probability ≥ ``confidence`` whatever the
mechanism, the number of candidates, or the selection rule.  The verdict is "violation" iff
ε_lb > claimed ε, so a mechanism that does satisfy its claim is flagged with probability
≤ 1 − confidence per audit (``false_alarm_rate`` in :meth:`AuditResult.to_dict`).  With K
explicit input pairs each pair is audited at level 1 − α/K (union bound) and the maximum is
reported, with the same guarantee.

Structural leaks.  When k_b = 0 the CP upper bound is 1 − (α/2)^{1/n_est} > 0, so ε_lb stays
finite and sound (≈ log(L_a · n_est / log(2/α))); ``structural_leak`` is set when the chosen
event has zero hits under one side and at least ``LEAK_MIN_COUNT`` under the other at
estimation, and zero again at every confirmation stage that ran — an event (nearly) impossible
under one neighbour, the signature of a pure-DP failure by support.  ``description`` states the
event and its frequencies in words (:mod:`privlab.audit.words`).

``delta_lower_bound``: when ε is claimed, max(0, L_a − e^ε·U_b) — a lower bound (same
confidence) on the δ the mechanism needs at the claimed ε, for the chosen event.

(ε, δ) form.  ``objective="delta"`` selects the event maximising the predicted lower bound on
δ(ε) = P_a(S) − e^ε P_b(S) at ε = ``claimed_epsilon`` and bounds it with the exact test of
:mod:`privlab.audit.diffbound` (one test at level 1 − α, no Bonferroni split), so
``delta_lower_bound`` is a (1 − α) lower bound on the δ the mechanism needs at that ε and the
verdict is "violation" iff it exceeds the claimed ``delta``.  With the default
``objective="epsilon"`` ``epsilon_lower_bound`` is a lower bound on ε at the given ``delta``.

Error budget (one overall confidence): α = 1 − confidence is spent once, on the estimation of
the single selected event (ε bound: α/2 per side with "bonferroni"; α for the joint test, of
which α/20 goes to the nuisance interval; the δ test likewise).  Pilot and selection spend
none: they only choose the event.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import numpy as np
from numpy.typing import NDArray

from privlab import _validate as v
from privlab._rng import RngLike
from privlab.audit import events as ev
from privlab.audit import features as ft
from privlab.audit import multidim as md
from privlab.audit import sampling as sp
from privlab.audit import supportscan as ss
from privlab.audit import words
from privlab.audit.bounds import cp_lower, cp_upper
from privlab.audit.diffbound import delta_lower
from privlab.audit.ratiobound import ratio_lower
from privlab.audit.result import AuditResult, SeedWarning
from privlab.errors import InvalidParameter
from privlab.types import jsonable

Sampler = Callable[[int, np.random.Generator], Any]
Progress = Callable[[str], Any]
IntArray = NDArray[np.int64]

MIN_SAMPLES = 1000
PILOT_MAX = 10_000
LEAK_MIN_COUNT = 50
OBJECTIVES = ("epsilon", "delta")
BOUND_METHODS = ("bonferroni", "joint")
SELECTION_FRACTION = {"epsilon": 0.3, "delta": 0.1}
SELECT_LEVEL = ev.SELECT_LEVEL
CONFIRM_FACTOR = 10
"""Default confirmation level: α / CONFIRM_FACTOR (α = 1 − confidence)."""
CONFIRM_GROWTH = 4
"""The second confirmation stage draws CONFIRM_GROWTH times the first one's samples."""
SCANNED = ("value", "x[0]", "pattern")
"""Features whose exact values the first selection half records (support events)."""

__all__ = ["AuditResult", "SeedWarning", "audit_pair"]


def _children(gen: Any, k: int) -> list[np.random.SeedSequence]:
    """k independent streams from ``gen`` (a Generator, SeedSequence, int or None)."""
    root = sp.root_seed(gen)
    return [sp.child(root, i) for i in range(k)]


def _check_common(samples: Any, confidence: Any, chunk: Any, bins: Any,
                  selection_fraction: Any, claimed_epsilon: Any) -> tuple[int, float, int, int,
                                                                          float, float | None]:
    n = v.positive_int("samples", samples)
    if n < MIN_SAMPLES:
        raise InvalidParameter(f"samples={samples!r} must be >= {MIN_SAMPLES} (per side)")
    conf = v.in_open("confidence", confidence, 0.0, 1.0)
    ch = v.positive_int("chunk", chunk)
    nb = v.positive_int("bins", bins)
    if nb < 2:
        raise InvalidParameter(f"bins={bins!r} must be >= 2")
    frac = 0.3 if selection_fraction is None else \
        v.in_open("selection_fraction", selection_fraction, 0.0, 1.0)
    eps = None if claimed_epsilon is None else v.non_negative("claimed_epsilon", claimed_epsilon)
    return n, conf, ch, nb, frac, eps


score_delta = ev.score_delta

STRUCT_SLACK = 1.0
"""A structural candidate (zero selection count on its small side) is preferred to the best
scored event when its predicted bound is within this many nats of the best one's: an event one
input never produced says more than a slightly larger finite ratio (issue 33: "structural /
∞"), but a much weaker one often turns out not to be empty on the larger estimation sample."""


STRUCT_TRIED = 8
"""Structural candidates scored exactly per feature and direction (the largest ones)."""
SIMPLE_KINDS = [ev.KINDS.index(k) for k in ("threshold>", "threshold<=", "cell", "run",
                                             "zeros")]
"""Structural candidates are thresholds, cells, runs and zero sets, not level sets: a level set
gathers every cell whose small side happened to be empty, and cells of tiny but positive
probability among them show up on the larger estimation sample; a zero set keeps only cells
with at least :data:`privlab.audit.events.ZERO_MIN` hits on the other side."""


@attrs.frozen
class _Feature:
    """One feature of the search: its name, partition, and whether it was built from the
    first selection half (then only the second half counts it at selection)."""

    name: str
    part: ev.Partition
    late: bool = False


@attrs.frozen
class _Choice:
    """The event selection's outcome: feature, candidate, direction, bound method, score."""

    feature: int
    cands: ev.Candidates
    j: int
    forward: bool
    score: float
    method: str
    total: int
    structural: bool


def _exact(big: IntArray, small: IntArray, n: IntArray, j: int, n_est: int, alpha: float,
           dl: float, sa: float) -> tuple[float, bool]:
    """(score, joint?) of candidate j exactly as :func:`privlab.audit.events.best_score`
    scores it."""
    args = (big[j:j + 1], small[j:j + 1], n[j:j + 1], n_est, alpha, dl, sa)
    s_cp, s_jt = float(ev.score(*args)[0]), float(ev.score_joint(*args)[0])
    return (s_jt, True) if s_jt > s_cp else (s_cp, False)


def _select(hists: dict[str, list[Any]], feats: Sequence[_Feature], n_est: int, alpha: float,
            dl: float, objective: str, c: float, *, runs: bool,
            prefer_structural: bool) -> _Choice:
    """Best (feature, candidate, direction) over all features, and the number of candidates.

    Features of the pilot are counted on both selection halves (thresholds, cells, runs) and
    their level sets cross-fitted; features built from the first half (``late``) are counted
    on the second half only, without level sets.  Each feature's candidates are scored at the
    simultaneous level α/(2m), m = its number of candidates (both directions): every family
    (runs, zero sets, support sets, products, the learned score) is in m like the others.  For the ε
    objective the best-scored *structural* candidate — no hit on its small side in the
    selection sample and enough on the other that :data:`LEAK_MIN_COUNT` hits are expected at
    estimation, among the :data:`STRUCT_TRIED` with the most mass per feature and direction —
    is preferred when ``prefer_structural`` and its score is within :data:`STRUCT_SLACK` of the
    best (when the best is itself structural, it is that one)."""
    best: tuple[float, int, ev.Candidates, int, bool, bool] | None = None
    struct: tuple[float, int, ev.Candidates, int, bool, bool] | None = None
    total = 0
    for i, f in enumerate(feats):
        r = ev.stretch_runs(f.part.edges) if runs else None
        if f.late:
            cands = ev.plain_candidates(hists["a2"][i], hists["b2"][i], r)
        else:
            cands = ev.candidates((hists["a1"][i], hists["a2"][i]),
                                  (hists["b1"][i], hists["b2"][i]), r)
        if len(cands) == 0:
            continue
        total += 2 * len(cands)
        sa = alpha / (2 * len(cands))  # simultaneous over both directions
        for forward in (True, False):
            big, small = (cands.count_a, cands.count_b) if forward else \
                (cands.count_b, cands.count_a)
            if objective == "delta":
                s = ev.score_delta(big, small, cands.n, n_est, alpha, c)
                j, sj, jt = int(np.argmax(s)), float(np.max(s)), False
            else:
                j, sj, jt = ev.best_score(big, small, cands.n, n_est, alpha, dl, sa)
                if prefer_structural:
                    lo = cp_lower(big, cands.n, SELECT_LEVEL) * n_est
                    ok = np.flatnonzero((small == 0) & (lo >= 2 * LEAK_MIN_COUNT)
                                        & np.isin(cands.kind, SIMPLE_KINDS))
                    for k in ok[np.argsort(-lo[ok], kind="stable")[:STRUCT_TRIED]]:
                        sk, jk = _exact(big, small, cands.n, int(k), n_est, alpha, dl, sa)
                        if math.isfinite(sk) and (struct is None or sk > struct[0]):
                            struct = (sk, i, cands, int(k), forward, jk)
            if best is None or sj > best[0]:
                best = (sj, i, cands, j, forward, jt)
    if best is None:
        raise InvalidParameter("no candidate event: the outputs carry no information")
    sc, i, cands, j, forward, jt = best
    big, small = (cands.count_a, cands.count_b) if forward else (cands.count_b, cands.count_a)
    chosen_struct = bool(small[j] == 0 and int(cands.kind[j]) in SIMPLE_KINDS
                         and cp_lower(big[j], cands.n[j], SELECT_LEVEL) * n_est
                         >= 2 * LEAK_MIN_COUNT)
    if not chosen_struct and prefer_structural and objective == "epsilon" and \
            struct is not None and struct[0] >= sc - STRUCT_SLACK:
        sc, i, cands, j, forward, jt = struct
        chosen_struct = True
    return _Choice(feature=i, cands=cands, j=j, forward=forward, score=sc,
                   method="joint" if jt else "bonferroni", total=total,
                   structural=chosen_struct)


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise InvalidParameter(f"{name}={value!r} must be True or False")
    return value


def _late_features(feats: Sequence[str], parts: Sequence[ev.Partition],
                   hists: dict[str, list[Any]], sketches: dict[str, tuple[Any, Any]],
                   pilots: tuple[NDArray[Any], NDArray[Any]], *, multidim: bool, n_est: int,
                   alpha: float, dl: float, bins: int, tails: bool, objective: str, c: float,
                   user: ft.FeatureMap | None) -> list[_Feature]:
    """The features built from the first selection half: support sets of the scanned
    features (:mod:`privlab.audit.supportscan`), products of coordinate events and the learned
    score (:mod:`privlab.audit.multidim`)."""
    out: list[_Feature] = []
    for base, (ska, skb) in sketches.items():
        sets = ss.one_sided(ska, skb)
        if sets is None:
            continue
        atoms = ev.atom_values(parts[feats.index(base)].edges)
        if np.isin(np.concatenate(sets), atoms).all():
            continue  # every such value is a cell of the base feature already
        name = ft.register_support({"a_only": sets[0].tolist(), "b_only": sets[1].tolist(),
                                    "base": base})
        out.append(_Feature(name=name, part=ev.Partition(edges=np.array([-1.0, 0.0])),
                            late=True))
    if multidim:
        coords = []
        for k, f in enumerate(feats):
            i = ft.coordinate(f)
            if i is not None:
                coords.append((i, parts[k], hists["a1"][k], hists["b1"][k]))
        if len(coords) >= 2:
            evs = md.coordinate_events(coords, n_est, alpha, dl, objective=objective, c=c)
            for name in md.joint_features(evs):
                width = name.count(";") + 1
                out.append(_Feature(name=name, part=ev.Partition(
                    edges=np.arange((1 << width) - 1, dtype=np.float64)), late=True))
            lr = md.learned_score(coords)
            if lr is not None:
                pooled = np.concatenate([ft.compute(lr, p, user) for p in pilots])
                out.append(_Feature(name=lr, part=ev.build_partition(pooled, bins, tails=tails),
                                    late=True))
    return out


def audit_pair(sample_a: Sampler, sample_b: Sampler, *, samples: int, confidence: float = 0.95,
               delta: float = 0.0, claimed_epsilon: float | None = None, rng: RngLike = None,
               chunk: int = 2**18, name: str = "pair", bins: int = 200,
               selection_fraction: float | None = None,
               neighbours: Sequence[Any] | None = None, objective: str = "epsilon",
               features: ft.FeatureMap | None = None, float_bits: bool = False,
               workers: int | None = 1, scheduler: Any = None,
               spec: Mapping[str, Any] | None = None,
               progress: Progress | None = None,
               bar: Callable[[int], Any] | None = None, confirm: bool = True,
               confirm_confidence: float | None = None,
               confirm_samples: int | None = None, seedable: bool = True,
               tails: bool = True, runs: bool = True, support_scan: bool = True,
               multidim: bool = True, prefer_structural: bool = True) -> AuditResult:
    """Lower-bound the privacy loss between two output distributions (module docstring).

    ``sample_a(n, rng)`` / ``sample_b(n, rng)`` return n outputs of the mechanism on the two
    neighbouring inputs: shape ``(n,)`` (real, integer or categorical codes) or ``(n, d)``
    (vectors).  ``features`` is an optional user map from a batch of outputs to ``(n,)`` or
    ``(n, k)`` reals (data-set-valued outputs); ``float_bits`` adds the floating-point low-bit
    and precision features (audits the implementation, see :mod:`privlab.audit.features`).
    ``objective="delta"`` bounds δ at ε = ``claimed_epsilon`` instead of ε at ``delta``.
    ``samples`` per side are split into selection (``selection_fraction``, default 0.3 for ε and
    0.1 for δ, pilot included) and estimation.  ``neighbours`` labels the pair and ``spec``
    names the mechanism in the counterexample (for replay).  ``workers`` local processes
    (None: all cores) or a Dask ``scheduler`` address: the same ``rng`` seed and ``chunk`` give
    the identical result for any number of workers.  ``progress`` receives phase messages;
    ``bar`` the number of outputs drawn after each block (e.g. ``tqdm.update``).

    The search (all on by default; each only chooses events, so none changes the error
    budget): ``tails`` — the partition reaches the extreme order statistics of the pilot in
    every stretch between atoms, and beyond its range (:func:`privlab.audit.events.tail_edges`);
    ``bins`` quantile cells besides.  ``runs`` — intervals that start or end at an atom
    (:func:`privlab.audit.events.stretch_runs`).  ``support_scan`` — the exact values of the
    output seen under one input only in the whole first selection half
    (:mod:`privlab.audit.supportscan`; not with a Dask ``scheduler``).  ``multidim`` — for
    vector outputs, products of coordinate events and a learned per-coordinate score
    (:mod:`privlab.audit.multidim`).  ``prefer_structural`` — an event with no selection hit
    on one side is chosen over a slightly higher finite one (:data:`STRUCT_SLACK`).

    Confirmation (``confirm``, default on): when the bound exceeds the claim, the selected
    event is counted again on ``confirm_samples`` fresh outputs per side (default: the
    estimation size) and bounded at error α_c/2, α_c = 1 − ``confirm_confidence`` (default
    α/10, stricter than ``confidence``); when that is not a violation, once more on
    ``CONFIRM_GROWTH`` times as many fresh outputs at α_c/2 (rare events need more).  The
    verdict is "violation" only if a stage is one, so a mechanism meeting its claim is reported
    as violating it with probability ≤ α_c/2 + α_c/2 = 1 − confirm_confidence.  A structural
    leak is reported when the event had no hit on its small side at estimation (and at every
    confirmation stage that ran) and at least ``LEAK_MIN_COUNT`` on the other.

    ``seedable=False`` declares samplers that ignore ``rng`` and draw from a source the auditor
    cannot seed (their own generator, ``secrets``, hardware): they are audited, with a
    :class:`SeedWarning`, and the result says ``seedable=False``.  Soundness needs only that
    the blocks are independent draws (exact repeats are still refused), but the same seed no
    longer gives the same bytes.
    """
    t0 = time.perf_counter()
    v.one_of("objective", objective, OBJECTIVES)
    if selection_fraction is None:
        selection_fraction = SELECTION_FRACTION[objective]
    n, conf, ch, nb, frac, eps = _check_common(samples, confidence, chunk, bins,
                                               selection_fraction, claimed_epsilon)
    dl = v.in_closed("delta", delta, 0.0, 1.0)
    if dl >= 1.0:
        raise InvalidParameter(f"delta={delta!r} must be < 1")
    if objective == "delta" and eps is None:
        raise InvalidParameter("objective='delta' needs claimed_epsilon (the ε at which δ is "
                               "bounded)")
    for nm, s in (("sample_a", sample_a), ("sample_b", sample_b)):
        if not callable(s):
            raise InvalidParameter(f"{nm}={s!r} must be a callable (n, rng) -> array")
    if features is not None and not callable(features):
        raise InvalidParameter(f"features={features!r} must be a callable outputs -> array")
    nw = sp.check_workers(workers)
    if not isinstance(seedable, bool):
        raise InvalidParameter(f"seedable={seedable!r} must be True or False")
    tails, runs = _flag("tails", tails), _flag("runs", runs)
    support_scan, multidim = _flag("support_scan", support_scan), _flag("multidim", multidim)
    prefer_structural = _flag("prefer_structural", prefer_structural)
    if not seedable:
        warnings.warn(f"{name}: seedable=False — the samplers ignore rng, so the same seed does "
                      f"not reproduce this audit (the bound is still sound for independent "
                      f"draws)", SeedWarning, stacklevel=2)
    say = progress or (lambda _m: None)
    alpha = 1.0 - conf
    c = math.exp(eps) if eps is not None else 1.0
    # streams: pilot a/b, selection half 1 a/b, selection half 2 a/b, estimation a/b,
    # confirmation stage 1 a/b, stage 2 a/b
    seqs = _children(rng, 12)
    n_sel = min(n - 2, max(2, math.ceil(frac * n)))
    n_est = n - n_sel
    c_conf = _confirm_level(confirm, confirm_confidence, conf)
    n_conf = n_est if confirm_samples is None else \
        v.positive_int("confirm_samples", confirm_samples)
    n_h1 = (n_sel + 1) // 2
    n_pil = min(n_h1, PILOT_MAX)

    # 1. pilot -> features and partitions
    pil_a = sp.draw(sample_a, "sample_a", n_pil, seqs[0])
    pil_b = sp.draw(sample_b, "sample_b", n_pil, seqs[1])
    if bar is not None:
        bar(2 * n_pil)
    if pil_a.shape[1:] != pil_b.shape[1:]:
        raise InvalidParameter(f"sample_a and sample_b return outputs of different shapes "
                               f"{pil_a.shape[1:]} and {pil_b.shape[1:]}")
    scan_on = support_scan and scheduler is None
    names = ft.default_features(pil_a, float_bits=float_bits, user=features, other=pil_b,
                                support=scheduler is None and not scan_on)
    fa, fb = ft.compute_all(names, pil_a, features), ft.compute_all(names, pil_b, features)
    parts = [ev.build_partition(np.concatenate([x, y]), nb, tails=tails)
             for x, y in zip(fa, fb, strict=True)]
    edges = [p.edges for p in parts]
    scan = [x for x in names if x in SCANNED] if scan_on else []
    sketches = {x: (ss.sketch(fa[names.index(x)]), ss.sketch(fb[names.index(x)]))
                for x in scan}
    dtype = str(pil_a.dtype)
    who = name if neighbours is None else \
        f"{name} on {' vs '.join(_brief(x) for x in neighbours)}"  # which pair (K > 1 pairs)
    say(f"{who}: pilot {n_pil}/side, {len(names)} feature(s), selecting on {n_sel}/side")
    # 2a. selection, first half (the pilot belongs to it): histograms and value sketches
    hists: dict[str, list[Any]] = {
        "a1": [p.histogram(x) for p, x in zip(parts, fa, strict=True)],
        "b1": [p.histogram(x) for p, x in zip(parts, fb, strict=True)]}
    del fa, fb
    with ss.ScanRunner({"a": sample_a, "b": sample_b}, chunk=ch, workers=nw,
                       scheduler=scheduler, user=features, tick=bar) as run:
        for key, side, m, seq in (("a1", "a", n_h1 - n_pil, seqs[2]),
                                  ("b1", "b", n_h1 - n_pil, seqs[3])):
            more, sks = run.scan(side, m, seq, names, edges, scan)
            hists[key] = [h + x for h, x in zip(hists[key], more, strict=True)]
            for x, sk in zip(scan, sks, strict=True):
                pa, pb = sketches[x]
                sketches[x] = (ss.merge([pa, sk]), pb) if side == "a" else \
                    (pa, ss.merge([pb, sk]))
    late = _late_features(names, parts, hists, sketches, (pil_a, pil_b), multidim=multidim,
                          n_est=n_est, alpha=alpha, dl=dl, bins=nb, tails=tails,
                          objective=objective, c=c, user=features)
    del pil_a, pil_b
    feats = [_Feature(name=x, part=p) for x, p in zip(names, parts, strict=True)] + late
    all_edges = [f.part.edges for f in feats]
    all_names = [f.name for f in feats]
    if late:
        say(f"{name}: {len(late)} feature(s) built on the first selection half")
    with sp.Runner({"a": sample_a, "b": sample_b}, chunk=ch, workers=nw, scheduler=scheduler,
                   user=features, tick=bar) as run:
        # 2b. second half: every feature (the late ones are counted here only)
        hists["a2"] = run.histograms("a", n_sel - n_h1, seqs[4], all_names, all_edges)
        hists["b2"] = run.histograms("b", n_sel - n_h1, seqs[5], all_names, all_edges)
        choice = _select(hists, feats, n_est, alpha, dl, objective, c, runs=runs,
                         prefer_structural=prefer_structural)
        fi, cands, j, forward = choice.feature, choice.cands, choice.j, choice.forward
        feat, part = feats[fi].name, feats[fi].part
        mask = cands.mask(j, part.ncells)
        say(f"{name}: event chosen on feature {feat!r}; estimating on {n_est}/side")
        # 3. estimation on fresh, independent streams (chosen feature only)
        ka = int(run.histograms("a", n_est, seqs[6], [feat], [part.edges])[0][mask].sum())
        kb = int(run.histograms("b", n_est, seqs[7], [feat], [part.edges])[0][mask].sum())
        cex, res = _bounds(ka, kb, n_est, alpha, dl, eps, forward, objective, choice.method)
        confirmation: dict[str, Any] | None = None
        if c_conf is not None and res["verdict"] == "violation":
            # 4. confirmation: the same fixed event on fresh streams, at a stricter level, in
            # at most two stages (n_conf, then CONFIRM_GROWTH·n_conf) at half the error each
            stages: list[dict[str, Any]] = []
            for st, m in enumerate((n_conf, CONFIRM_GROWTH * n_conf)):
                say(f"{name}: confirming the violation on {m} fresh outputs/side (stage "
                    f"{st + 1} of at most 2, the event fixed)")
                counts = [int(run.histograms(side, m, seqs[8 + 2 * st + k], [feat],
                                             [part.edges])[0][mask].sum())
                          for k, side in enumerate("ab")]
                c2, r2 = _bounds(counts[0], counts[1], m, (1.0 - c_conf) / 2, dl, eps,
                                 forward, objective, choice.method)
                stages.append({**c2, "samples": m, "verdict": r2["verdict"]})
                if r2["verdict"] == "violation":
                    break
            confirmation = {**stages[-1], "confidence": c_conf, "stages": stages,
                            "samples_total": sum(s["samples"] for s in stages)}
            res["verdict"] = stages[-1]["verdict"]
            small = "b" if forward else "a"
            if any(s[small]["count"] > 0 for s in stages):  # a leak must hold up on fresh data
                res["leak"] = False
    cex["structural_leak"] = bool(res["leak"])
    cex.update({
        "neighbours": list(neighbours) if neighbours is not None else ["a", "b"],
        "feature": feat, "event": ev.describe(cands, j, part),
        "event_class": ft.event_class(feat),
        "selection_score": choice.score, "objective": objective, "confidence": conf,
        "claimed_epsilon": eps, "delta": dl, "float_bits": bool(float_bits),
        "spec": dict(spec) if spec is not None else None})
    if ft.support_sets(feat) is not None:  # replay needs the value sets
        cex["support"] = ft.support_sets(feat)
    cex = jsonable(cex)
    text = words.describe(cex, structural=bool(res["leak"]), dtype=dtype)
    say(f"{who}: eps_lb={res['eps_lb']:.4g} delta_lb={res['dlb']:.4g} "
        f"({time.perf_counter() - t0:.1f} s)")
    return AuditResult(mechanism=str(name), epsilon_lower_bound=res["eps_lb"],
                       delta_lower_bound=res["dlb"], confidence=conf, samples=n,
                       seconds=time.perf_counter() - t0, claimed_epsilon=eps, delta=dl,
                       verdict=res["verdict"], structural_leak=res["leak"],
                       counterexample=cex, selection_samples=n_sel,
                       estimation_samples=n_est, candidates=choice.total, objective=objective,
                       features=tuple(all_names), confirm_confidence=c_conf,
                       event_class=ft.event_class(feat), seedable=seedable,
                       confirmation=jsonable(confirmation) if confirmation else None,
                       description=text)


def _brief(x: Any) -> str:
    """A neighbouring input in a progress line: a number, a vector as runs ``[0×5, 1×5]``, or
    the shape of a data set."""
    try:
        a = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        return str(x)[:40]
    if a.ndim != 1:
        return f"{float(a):g}" if a.ndim == 0 else "data set " + "×".join(map(str, a.shape))
    runs: list[list[Any]] = []
    for y in a.tolist():
        if runs and runs[-1][0] == y:
            runs[-1][1] += 1
        else:
            runs.append([y, 1])
    text = ", ".join(f"{y:g}" + (f"×{k}" if k > 1 else "") for y, k in runs)
    return f"[{text}]" if len(text) <= 40 else f"vector of {a.size}"


def _confirm_level(confirm: Any, confirm_confidence: Any, conf: float) -> float | None:
    """The confirmation step's confidence (None: no confirmation)."""
    if not isinstance(confirm, bool):
        raise InvalidParameter(f"confirm={confirm!r} must be True or False")
    if not confirm:
        return None
    if confirm_confidence is None:
        return 1.0 - (1.0 - conf) / CONFIRM_FACTOR
    c = v.in_open("confirm_confidence", confirm_confidence, 0.0, 1.0)
    if c < conf:
        raise InvalidParameter(f"confirm_confidence={confirm_confidence!r} must be >= "
                               f"confidence={conf!r} (the confirmation is the stricter test)")
    return c


def _bounds(ka: int, kb: int, n_est: int, alpha: float, dl: float, eps: float | None,
            forward: bool, objective: str, method: str = "bonferroni"
            ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Bounds for one fixed event from its estimation counts (also used by replay).

    ``method`` (fixed at selection, before the estimation counts exist): "bonferroni" — two
    Clopper–Pearson bounds at α/2; "joint" — one exact test of the ratio
    (:func:`privlab.audit.ratiobound.ratio_lower`)."""
    v.one_of("method", method, BOUND_METHODS)
    k_big, k_small = (ka, kb) if forward else (kb, ka)
    lo = float(cp_lower(k_big, n_est, alpha / 2))
    hi = float(cp_upper(k_small, n_est, alpha / 2))
    if method == "joint":
        eps_lb = ratio_lower(k_big, n_est, k_small, n_est, alpha, dl)
    else:
        eps_lb = math.log((lo - dl) / hi) if lo - dl > hi else 0.0
    leak = k_small == 0 and k_big >= LEAK_MIN_COUNT
    if eps is None:
        dlb = 0.0
    elif objective == "delta":
        dlb = delta_lower(k_big, n_est, k_small, n_est, math.exp(eps), alpha)
    else:
        dlb = max(0.0, lo - math.exp(eps) * hi)
    if eps is None:
        verdict = None
    elif objective == "delta":
        verdict = "violation" if dlb > dl else "consistent"
    else:
        verdict = "violation" if eps_lb > eps else "consistent"
    lo_a, hi_a = cp_lower(ka, n_est, alpha / 2), cp_upper(ka, n_est, alpha / 2)
    lo_b, hi_b = cp_lower(kb, n_est, alpha / 2), cp_upper(kb, n_est, alpha / 2)
    cex = {
        "direction": "a>b" if forward else "b>a",
        "a": {"count": ka, "n": n_est, "p_hat": ka / n_est,
              "cp_lower": float(lo_a), "cp_upper": float(hi_a)},
        "b": {"count": kb, "n": n_est, "p_hat": kb / n_est,
              "cp_lower": float(lo_b), "cp_upper": float(hi_b)},
        "cp_level_each": 1.0 - alpha / 2, "structural_leak": bool(leak),
        "bound_method": method,
        "epsilon_lower_bound": eps_lb, "delta_lower_bound": dlb}
    return cex, {"eps_lb": eps_lb, "dlb": dlb, "leak": leak, "verdict": verdict}
