"""vldb14 §5 Tables 5, 6 ("Adult-Numerical-Categorical") and 7 (Census statistics): the runs.

Seed: ``001_b1bb29bd0e0b4af8.txt`` (vldb14) §4.4–4.6, §5.1–5.4.

* ``vldb14-5`` — SSE_0, RL_0 of standard MDAV and SSE_f = √SSE_0/√SSE_kε, RL_f = RL_0/RL_kε,
  Score = SSE_f·RL_f of the DP release for k ∈ {2, 174 ≈ √n, 348 ≈ 2√n} and
  ε ∈ {0.01, 0.1, 1, 10} on Adult (30,162 records) with the categorical OCCUPATION and
  NATIVE-COUNTRY and the numerical AGE and HOURS-PER-WEEK (§5.1).
* ``vldb14-6`` — the same against plain ε-DP (no microaggregation, k = 1).
* ``vldb14-7`` — Census (FEDTAX, POTHVAL, INTVAL, FICA): Δ(Θ) = |Θ′ − Θ|/|Θ| (§5.4) of every
  attribute's mean and variance for plain ε-DP (k = 1, "None"), ε-DP after k-anonymous
  microaggregation with k ∈ {2, 33 ≈ √n, 66 ≈ 2√n}, and microaggregation alone (insensitive and
  standard MDAV).

The mixed release (§4.4–4.6, Algorithms 3–4) as the lab runs it:

* record distance eq. (8): d(x, y)² = Σ_i (dist_i(x_i, y_i)/dist_i(a_b^i, a_t^i))², numerical
  dist = |x − y| over the domain [a_b, a_t] = [0, 1.5·max] ("computed as explained for
  Census", §5.1), categorical dist = δ of eq. (7) over δ(a_b, a_t) (boundaries of eq. 3–4);
* insensitive partition: Algorithm 2 / §4.3 with the 2⁴ = 16 domain corners in the Hamming
  order (§5.3: "16 different combinations of domain boundaries"), ties alphabetical (numbers,
  then concept names, attribute order OCCUPATION, NATIVE-COUNTRY, AGE, HOURS-PER-WEEK as
  §5.1 lists them), then by record index;
* numerical centroids: cluster mean + Laplace noise of scale (n/k)·Δ_j/(kε) (§4: n/k clusters
  of sensitivity Δ_j/k each, as ``vldb14-1``/``-2``), clamped to the domain (§5.1);
  k = 1: Laplace Δ_j/ε per record;
* categorical centroids: the exponential mechanism of Algorithm 4 / eq. (6) over every concept
  of τ(A) with quality −m(S, c), factor n/k (k = 1: factor 1), Δ(m) = δ(a_b, a_t), ε per
  attribute, one draw per cluster (as ``vldb14-3``/``-4``:
  :func:`privlab.proofs.thesis.ch6_adult_experiments.em_releases`);
* baseline: standard MDAV (Algorithm 1) with the record distance and the centroid of §4.4
  (mean; marginality centroid of eq. 5 over τ(S)) as the average record and released value.

Taxonomies and categorical data: whatever
:func:`privlab.proofs.thesis.ch6_adult_experiments.adult_categorical` uses for ``vldb14-3``/``-4``
(its rows are checked to be the rows this module reads AGE and HOURS-PER-WEEK from).

Measures (§5.2): SSE = Σ_records Σ_attributes dist(a, a′)², RL (%) = 100·Σ_j Pr(x′_j)/n with
Pr(x′_j) = 1/|G| when x_j is among the originals G at minimum distance from x′_j (distances
within a relative 1e-12 count as equal), else 0.

Readings (issue 31).  The text leaves open, for Tables 5–6, the three choices of
:data:`privlab.proofs.thesis.ch6_experiments.READINGS` (record distance of MDAV and record
linkage: eq. (8) ``range`` or ``standardised`` numerical attributes; reference points
``corners`` or ``single``; Laplace draws ``per-record`` (Algorithm 3 calls S_ε per record) or
``per-cluster``) and the normalisation of SSE (:data:`SSES`): ``units`` (§5.2 literally:
numerical differences in years and hours, δ as is), ``range`` (numerical differences over the
domain range, δ as is) or ``eq8`` (every attribute over its boundary distance, as in eq. 8).
For Table 7: the Census readings and the measure of the variation (:data:`MEASURES`): the
statistic σ is the variance (§5.4's text) or the standard deviation (the symbol σ), and the
three runs are averaged as the mean of Δ over runs or as Δ of the run-averaged statistic.
Each table's rows hold the stated configuration (the thesis reading
:data:`~privlab.proofs.thesis.ch6_experiments.THESIS`, SSE ``units``, variance, mean of Δ);
its notes give, for every reading, how many printed cells it matches under the one
printed-number rule (:mod:`privlab.proofs.printed`) and which cells no reading matches.

Printed values are shown beside the lab's as ``paper_<column>``
(:class:`~privlab.proofs.printed.Printed`); they are never used as expected values.
"""

from __future__ import annotations

import csv
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import numba
import numpy as np

from privlab.proofs.printed import Printed, PrintedRow, printed_rows, reading_notes
from privlab.types import Table

if TYPE_CHECKING:  # annotations only
    from privlab.mechanisms.microaggregation.categorical import SemanticSpace
    from privlab.proofs.thesis.ch6_experiments import CensusRuns, Reading

__all__ = ["EPS", "KS_AN", "KS_V7", "MEASURES", "PAPER_V5", "PAPER_V6", "PAPER_V7",
           "SSES", "AdultMixed", "MixedRuns", "adult_mixed",
           "mixed_insensitive_labels", "mixed_mdav_labels", "mixed_record_linkage",
           "mixed_runs", "table_v5", "table_v6", "table_v7", "v7_repeats"]

V = "001_b1bb29bd0e0b4af8.txt"
EPS = (0.01, 0.1, 1.0, 10.0)
KS_AN = (2, 174, 348)
KS_V7 = (2, 33, 66)
NUMERIC = ("age", "hours-per-week")
CATEGORICAL = ("occupation", "native-country")
SSES = ("units", "range", "eq8")
MEASURES = (("variance", "mean-of-delta"), ("variance", "delta-of-mean"),
            ("std", "mean-of-delta"), ("std", "delta-of-mean"))
"""Table 7: (statistic σ, averaging over runs); the first is the stated one."""
TOL = 1e-12

Row = PrintedRow


# vldb14 Table 5 as printed: k, SSE0, RL0 (MDAV), then (SSE_f, RL_f, Score) at each ε
PAPER_V5 = printed_rows("""
2 58.4 2.09 0.035 210.15 7.45 0.035 630.46 22.36 0.035 630.46 22.35 0.035 630.46 22.35
174 193 1.32 0.064 170.04 10.93 0.065 396.77 25.92 0.071 357.09 25.19 0.108 90.87 9.83
348 631 0.58 0.117 130.85 15.31 0.122 523.38 63.82 0.154 58.15 8.95 0.283 11.84 3.34
""", int, EPS)
# vldb14 Table 6 as printed: ε, SSE, RL (no microaggregation), then (SSE_f, RL_f, Score) at k
PAPER_V6 = printed_rows("""
0.01 4.62E+04 9.95E-05 1.00 0.01 0.01 1.00 0.01 0.01 1.00 0.02 0.02
0.1 4.54E+04 0.0013 0.99 0.41 0.41 1.00 0.41 0.41 1.10 1.23 1.27
1.0 3.78E+04 0.0083 0.90 2.50 2.26 0.99 2.25 2.22 1.19 0.83 0.99
10.0 1.32E+04 0.098 0.53 29.70 15.85 0.90 6.8 6.10 1.30 2.02 2.61
""", float, KS_AN)
# vldb14 Table 7 as printed: statistic, k (1 = "None"), ε = 0.01, 0.1, 1, 10, Insensit. MDAV,
# MDAV
_T7 = """
mX 1 1.0947 1.0356 0.6925 0.0500 0.0 0.0
mX 2 1.1119 1.1058 1.0579 1.1341 0.0 0.0
mX 33 1.0762 1.0432 0.6998 0.0454 0.0 0.0
mX 66 1.1362 0.8782 0.2209 0.0045 0.0 0.0
mP 1 14.5160 13.7959 9.0362 1.2125 0.0 0.0
mP 2 14.3173 13.5792 13.9893 13.9908 0.0 0.0
mP 33 14.6917 12.6272 8.9438 1.2064 0.0 0.0
mP 66 14.0284 11.128 3.2560 0.1802 0.0 0.0
mI 1 25.4754 24.6380 15.9486 2.2799 0.0 0.0
mI 2 25.0788 22.8018 24.7786 24.5869 0.0 0.0
mI 33 25.1908 21.9300 15.8544 2.2675 0.0 0.0
mI 66 24.5861 18.9270 5.9530 0.4013 0.0 0.0
mF 1 1.0126 0.9648 0.6151 0.0270 0.0 0.0
mF 2 0.9991 1.0004 1.0133 1.0035 0.0 0.0
mF 33 1.0145 0.9493 0.5708 0.0362 0.0 0.0
mF 66 1.0249 0.8142 0.1797 0.0014 0.0 0.0
σX 1 9.5299 9.2111 6.4855 0.5122 0.0 0.0
σX 2 9.5698 9.5637 9.5486 9.4422 0.0447 0.0053
σX 33 9.5308 9.2292 6.4280 0.4171 0.0804 0.0156
σX 66 9.4383 8.2329 2.0797 0.1071 0.1015 0.0398
σP 1 69.3473 67.3757 45.9873 2.1168 0.0 0.0
σP 2 69.7030 69.7434 69.5286 68.8324 0.0697 0.0247
σP 33 69.4637 67.2577 45.7902 1.8889 0.1268 0.0991
σP 66 68.7018 59.6482 11.6906 0.3972 0.2429 0.1967
σI 1 96.3225 93.3506 64.2854 3.0044 0.0 0.0
σI 2 96.5684 96.5631 96.4935 95.4336 0.0950 0.0349
σI 33 96.4524 93.1380 63.0454 2.5768 0.1358 0.1327
σI 66 95.2471 82.6625 16.1619 0.4323 0.2362 0.2614
σF 1 16.3302 15.7698 11.3811 0.9712 0.0 0.0
σF 2 16.3545 16.3723 16.3610 16.1667 0.0593 0.0067
σF 33 16.3165 15.7810 11.0145 0.8795 0.1117 0.0224
σF 66 16.1566 14.1721 3.8468 0.1436 0.1634 0.0670
"""
PAPER_V7: dict[str, dict[int, tuple[Printed, ...]]] = {}
for _line in _T7.strip().splitlines():
    _st, _k, *_v = _line.split()
    PAPER_V7.setdefault(_st, {})[int(_k)] = tuple(map(Printed, _v))
V7_COLUMNS = (*(f"eps_{e:g}" for e in EPS), "insensitive_mdav", "mdav")


# -- data -------------------------------------------------------------------------------------
@attrs.frozen(eq=False)
class AdultMixed:
    """Adult-Numerical-Categorical: ``num`` (n, 2) AGE and HOURS-PER-WEEK, ``cat`` (n, 2)
    concept codes of OCCUPATION and NATIVE-COUNTRY in ``space``, ``bounds`` (2, 2) the
    numerical domains [0, 1.5·max]."""

    num: np.ndarray
    cat: np.ndarray
    space: SemanticSpace
    bounds: np.ndarray
    what: str
    real: bool

    @property
    def n(self) -> int:
        return int(self.num.shape[0])

    @property
    def width(self) -> np.ndarray:
        return np.asarray(self.bounds[:, 1] - self.bounds[:, 0])


def _read_adult(path: Path) -> tuple[np.ndarray, list[tuple[str, ...]]]:
    """AGE, HOURS-PER-WEEK (floats) and OCCUPATION, NATIVE-COUNTRY of the Adult rows without a
    missing value (a field that is ``?`` once stripped, §5.1)."""
    with path.open(newline="") as f:
        r = csv.reader(f)
        header = [h.strip() for h in next(r)]
        ni = [header.index(c) for c in NUMERIC]
        ci = [header.index(c) for c in CATEGORICAL]
        num, cat = [], []
        for row in r:
            vals = [v.strip() for v in row]
            if not row or "?" in vals:
                continue
            num.append([float(vals[i]) for i in ni])
            cat.append(tuple(vals[i] for i in ci))
    return np.array(num), cat


def _synthetic_numeric(n: int, seed: int) -> np.ndarray:
    """Seeded AGE (17–90) and HOURS-PER-WEEK (1–99, mostly 40) of Adult's shape."""
    g = np.random.default_rng([seed, 31])
    age = np.clip(np.round(17 + g.gamma(2.2, 10.0, n)), 17, 90)
    hours = np.where(g.random(n) < 0.45, 40.0, np.clip(np.round(g.normal(40, 12, n)), 1, 99))
    return np.stack([age, hours], axis=1)


def adult_mixed(data_dir: Any = None, seed: int = 6) -> AdultMixed:
    """The Adult-Numerical-Categorical data set (§5.1) — categorical part and taxonomies from
    :func:`privlab.proofs.thesis.ch6_adult_experiments.adult_categorical`; AGE and
    HOURS-PER-WEEK of the same rows (checked: the categorical values read here must encode to
    that function's codes); seeded synthetic numerical columns when it runs on synthetic
    data."""
    from privlab._data import data_file
    from privlab.errors import InvalidParameter
    from privlab.proofs.thesis import ch6_adult_experiments as ax

    cat, space, what, real = ax.adult_categorical(data_dir=data_dir, seed=seed)
    path = data_file("adult.csv", data_dir)
    if real and path is not None:
        num, names = _read_adult(path)
        mine = np.stack([t.codes([r[j] for r in names], CATEGORICAL[j])
                         for j, t in enumerate(space.taxonomies)], axis=1)
        if mine.shape != cat.shape or not np.array_equal(mine, cat):
            raise InvalidParameter(
                f"the Adult rows read from {path} ({len(names)}) do not match the rows of "
                f"ch6_adult_experiments.adult_categorical ({cat.shape[0]})")
        what = (f"{what}; numerical AGE and HOURS-PER-WEEK of the same rows, domain "
                "[0, 1.5·max]")
    else:
        num = _synthetic_numeric(cat.shape[0], seed)
        what = f"{what}; seeded synthetic AGE and HOURS-PER-WEEK (seed {seed})"
    bounds = np.stack([np.zeros(2), 1.5 * num.max(axis=0)], axis=1)
    for a in (num, cat, bounds):
        a.setflags(write=False)
    return AdultMixed(num=num, cat=np.asarray(cat), space=space, bounds=bounds, what=what,
                      real=bool(real and path is not None))


# -- distances, partitions ------------------------------------------------------------------------
def _num_scale(d: AdultMixed, distance: str) -> np.ndarray:
    """1/dist(a_b, a_t) of the numerical attributes (eq. 8, ``range``) or 1/σ (``standardised``,
    the data's standard deviation)."""
    if distance == "range":
        return np.asarray(1.0 / d.width)
    if distance == "standardised":
        sd = d.num.std(axis=0)
        return np.asarray(1.0 / np.where(sd > 0, sd, 1.0))
    raise ValueError(f"distance={distance!r} must be 'range' or 'standardised'")


def _cat_scaled(space: SemanticSpace) -> np.ndarray:
    """δ_j/δ_j(a_b, a_t) (eq. 8), padded (m, C, C)."""
    return np.ascontiguousarray(space.dist / space.norm[:, None, None])


def _corner_orders(d: AdultMixed, refs: list[tuple[int, ...]]) -> np.ndarray:
    """One total order per reference corner (bits in attribute order OCCUPATION,
    NATIVE-COUNTRY, AGE, HOURS-PER-WEEK; 0 = a_b / lower bound, 1 = a_t / upper bound): eq. (8)
    distance to the corner (squared, rounded to 12 decimals), ties by the values (attribute 0
    first; concept codes follow the concept names), then by index."""
    bnd = d.space.boundary_codes()
    cs = _cat_scaled(d.space)
    s = 1.0 / d.width
    mc = d.cat.shape[1]
    cols = [d.cat[:, j].astype(float) for j in range(mc)] + [d.num[:, j] for j in range(2)]
    keys_tail = (np.arange(d.n), *cols[::-1])
    perms = []
    for bits in refs:
        key = np.zeros(d.n)
        for j in range(mc):
            t = cs[j][d.cat[:, j], bnd[j, bits[j]]]
            key += t * t
        for j in range(2):
            t = (d.num[:, j] - d.bounds[j, bits[mc + j]]) * s[j]
            key += t * t
        perms.append(np.lexsort((*keys_tail, np.round(key, 12))))
    return np.stack(perms).astype(np.int64)


def mixed_insensitive_labels(d: AdultMixed, k: int, references: str = "corners") -> np.ndarray:
    """Insensitive partition of the mixed records: Algorithm 2 (§4.3) with the 16 corners in
    the Hamming order (``corners``) or insensitive MDAV with the lower corner (``single``:
    clusters taken alternately from the two ends of its order); cluster i = step i, the last
    cluster holds the k … 2k − 1 records left.  Data-independent orders."""
    from privlab.mechanisms.microaggregation import corner_sequence
    from privlab.mechanisms.microaggregation.insensitive import _take_by_orders

    n = d.n
    q = max(n // k, 1)
    steps = max(q - 1, 1)
    m = d.cat.shape[1] + 2
    if references == "corners":
        seq = corner_sequence(m, min(steps, 1 << m))
        perms, reverse = _corner_orders(d, seq), np.zeros(len(seq), np.bool_)
    elif references == "single":
        perms = np.repeat(_corner_orders(d, [(0,) * m]), 2, axis=0)
        reverse = np.array([False, True])
    else:
        raise ValueError(f"references={references!r} must be 'corners' or 'single'")
    step_order = np.arange(steps, dtype=np.int64) % perms.shape[0]
    return _take_by_orders(perms, reverse, step_order, int(k))


@numba.njit(cache=True, nogil=True)
def _dist_to(unum: np.ndarray, ucat: np.ndarray, scale: np.ndarray, cs: np.ndarray,
             cn: np.ndarray, cc: np.ndarray, alive: np.ndarray, na: int, d: np.ndarray
             ) -> None:
    """d[i] = Σ_a ((unum[i, a] − cn[a])·scale[a])² + Σ_j cs[j, ucat[i, j], cc[j]]² for the
    tuples i in alive[:na]."""
    p = unum.shape[1]
    mc = ucat.shape[1]
    for ii in range(na):
        i = alive[ii]
        s = 0.0
        for a in range(p):
            v = (unum[i, a] - cn[a]) * scale[a]
            s += v * v
        for j in range(mc):
            v = cs[j, ucat[i, j], cc[j]]
            s += v * v
        d[i] = s


@numba.njit(cache=True, nogil=True)
def _farthest(alive: np.ndarray, na: int, d: np.ndarray, tol: float) -> int:
    """The first tuple of alive[:na] at the largest distance (within ``tol``)."""
    best = -1.0
    for ii in range(na):
        if d[alive[ii]] > best:
            best = d[alive[ii]]
    for ii in range(na):
        if d[alive[ii]] >= best - tol:
            return alive[ii]
    return -1


@numba.njit(cache=True, nogil=True)
def _centroid(snum: np.ndarray, r: int, cnt: np.ndarray, draw: np.ndarray, anc: np.ndarray,
              tol: float, cen_n: np.ndarray, cen_c: np.ndarray) -> None:
    """The average record: the mean of the numerical attributes and, per categorical
    attribute, the marginality centroid argmin over τ(S) of Σ_s cnt[s]·δ(s, c) (eq. 5; ties
    within ``tol`` → smallest code)."""
    for a in range(snum.shape[0]):
        cen_n[a] = snum[a] / r
    mc, c_max = cnt.shape
    mg = np.empty(c_max)
    for j in range(mc):
        best = np.inf
        for c in range(c_max):
            ok = False
            s = 0.0
            for v in range(c_max):
                if cnt[j, v] > 0:
                    s += cnt[j, v] * draw[j, v, c]
                    if anc[j, v, c]:
                        ok = True
            mg[c] = s if ok else np.inf
            if mg[c] < best:
                best = mg[c]
        lim = best + tol * max(1.0, abs(best))
        for c in range(c_max):
            if mg[c] <= lim:
                cen_c[j] = c
                break


@numba.njit(cache=True, nogil=True)
def _take(a: int, unum: np.ndarray, ucat: np.ndarray, rem: np.ndarray, scale: np.ndarray,
          cs: np.ndarray, k: int, tol: float, snum: np.ndarray, cnt: np.ndarray,
          d: np.ndarray, alive: np.ndarray, na: int, trip: np.ndarray, t: int, label: int
          ) -> tuple[int, int]:
    """Cluster ``label`` ← a record of tuple a (the centre's tuple first) and its k − 1
    nearest remaining records (ties → first tuple); appends (label, tuple, count) triples to
    ``trip`` from row t, updates the sums ``snum`` and counts ``cnt`` of the remaining records
    and compacts alive[:na] (order kept); returns (t, na)."""
    p = unum.shape[1]
    need = k
    q = a
    computed = False
    while need > 0:
        if q < 0:
            if not computed:
                _dist_to(unum, ucat, scale, cs, unum[a].astype(np.float64), ucat[a], alive,
                         na, d)
                computed = True
            best = np.inf
            for ii in range(na):
                i = alive[ii]
                if rem[i] > 0 and d[i] < best:
                    best = d[i]
            for ii in range(na):
                i = alive[ii]
                if rem[i] > 0 and d[i] <= best + tol:
                    q = i
                    break
        got = min(rem[q], need)
        rem[q] -= got
        need -= got
        for aa in range(p):
            snum[aa] -= got * unum[q, aa]
        for j in range(ucat.shape[1]):
            cnt[j, ucat[q, j]] -= got
        trip[t, 0] = label
        trip[t, 1] = q
        trip[t, 2] = got
        t += 1
        q = -1
    m = 0
    for ii in range(na):
        if rem[alive[ii]] > 0:
            alive[m] = alive[ii]
            m += 1
    return t, m


@numba.njit(cache=True, nogil=True)
def _mdav_core(unum: np.ndarray, ucat: np.ndarray, rem: np.ndarray, scale: np.ndarray,
               cs: np.ndarray, draw: np.ndarray, anc: np.ndarray, k: int, mtol: float,
               rtol: float) -> np.ndarray:
    """MDAV (Algorithm 1) on P distinct tuples (raw numerical ``unum``, categorical codes
    ``ucat``) with multiplicities ``rem`` (consumed), distances of :func:`_dist_to`; returns
    (T, 3) triples (label, tuple, count).  The numerical values are integers, so the running
    sums are exact."""
    p_n, p = unum.shape
    mc = ucat.shape[1]
    c_max = draw.shape[1]
    cnt = np.zeros((mc, c_max))
    snum = np.zeros(p)
    r = 0
    for i in range(p_n):
        r += rem[i]
        for a in range(p):
            snum[a] += rem[i] * unum[i, a]
        for j in range(mc):
            cnt[j, ucat[i, j]] += rem[i]
    trip = np.empty((r + p_n, 3), dtype=np.int64)
    d = np.empty(p_n)
    alive = np.arange(p_n)
    na = p_n
    cen_n = np.empty(p)
    cen_c = np.zeros(mc, dtype=np.int64)
    t = 0
    label = 0
    while r >= 3 * k:
        _centroid(snum, r, cnt, draw, anc, mtol, cen_n, cen_c)
        _dist_to(unum, ucat, scale, cs, cen_n, cen_c, alive, na, d)
        a = _farthest(alive, na, d, rtol)
        t, na = _take(a, unum, ucat, rem, scale, cs, k, rtol, snum, cnt, d, alive, na, trip,
                      t, label)
        label += 1
        _dist_to(unum, ucat, scale, cs, unum[a].astype(np.float64), ucat[a], alive, na, d)
        b = _farthest(alive, na, d, rtol)
        t, na = _take(b, unum, ucat, rem, scale, cs, k, rtol, snum, cnt, d, alive, na, trip,
                      t, label)
        label += 1
        r -= 2 * k
    if r >= 2 * k:
        _centroid(snum, r, cnt, draw, anc, mtol, cen_n, cen_c)
        _dist_to(unum, ucat, scale, cs, cen_n, cen_c, alive, na, d)
        a = _farthest(alive, na, d, rtol)
        t, na = _take(a, unum, ucat, rem, scale, cs, k, rtol, snum, cnt, d, alive, na, trip,
                      t, label)
        label += 1
    for ii in range(na):
        i = alive[ii]
        trip[t, 0] = label
        trip[t, 1] = i
        trip[t, 2] = rem[i]
        t += 1
    return trip[:t]


def mixed_mdav_labels(d: AdultMixed, k: int, distance: str = "range") -> np.ndarray:
    """Standard MDAV on the mixed records (record distance: eq. 8 with the numerical attributes
    over their domain range, or over their standard deviation for ``standardised``); ties go
    to the lexicographically first tuple (attribute order OCCUPATION, NATIVE-COUNTRY, AGE,
    HOURS-PER-WEEK); the records of one tuple are handed out in index order."""
    from privlab.mechanisms.microaggregation.categorical import MARGINALITY_TOL, RECORD_TOL

    mc = d.cat.shape[1]
    rows = np.concatenate([d.cat.astype(float), d.num], axis=1)
    u, inv, w = np.unique(rows, axis=0, return_inverse=True, return_counts=True)
    inv = inv.ravel()
    trip = _mdav_core(np.ascontiguousarray(u[:, mc:]), np.ascontiguousarray(
        u[:, :mc].astype(np.int64)), w.astype(np.int64), _num_scale(d, distance),
        _cat_scaled(d.space), np.ascontiguousarray(d.space.dist),
        np.ascontiguousarray(d.space.anc), int(k), MARGINALITY_TOL, RECORD_TOL)
    order = np.argsort(trip[:, 1], kind="stable")
    lab_sorted = np.repeat(trip[order, 0], trip[order, 2])
    rec = np.lexsort((np.arange(d.n), inv))
    lab = np.empty(d.n, dtype=np.int64)
    lab[rec] = lab_sorted
    return lab


# -- record linkage ------------------------------------------------------------------------------
@numba.njit(cache=True, nogil=True)
def _scan(unum: np.ndarray, lo: int, hi: int, q: np.ndarray, c2: float, band: float,
          stop: float, uw: np.ndarray, count_lim: float) -> tuple[float, float, bool]:
    """Tuples lo … hi − 1 (sorted by numerical coordinate 0) within squared distance ``band``
    of q (categorical part c2): (their minimum distance, the weight of those ≤ count_lim,
    whether one lies below ``stop``), scanning outwards from q's position."""
    p = unum.shape[1]
    a, b = lo, hi
    while a < b:  # first position with unum[pos, 0] >= q[0]
        mid = (a + b) // 2
        if unum[mid, 0] < q[0]:
            a = mid + 1
        else:
            b = mid
    dmin = np.inf
    weight = 0.0
    for direction in (1, -1):
        j = a if direction == 1 else a - 1
        while lo <= j < hi:
            v = unum[j, 0] - q[0]
            s = c2 + v * v
            if s > band:
                break
            for t in range(1, p):
                v = unum[j, t] - q[t]
                s += v * v
            if s < dmin:
                dmin = s
            if s < stop:
                return dmin, weight, True
            if s <= count_lim:
                weight += uw[j]
            j += direction
    return dmin, weight, False


@numba.njit(cache=True, nogil=True)
def _linkage(unum: np.ndarray, uw: np.ndarray, gstart: np.ndarray, gorder: np.ndarray,
             gc2: np.ndarray, qnum: np.ndarray, qpair: np.ndarray, qtrue: np.ndarray,
             c2true: np.ndarray, tol: float) -> np.ndarray:
    """Pr(x′_i) of every released record i (module doc): 0 when some original tuple is closer
    than the true one by more than the tolerance, else 1/|G|."""
    n, p = qnum.shape
    prob = np.zeros(n)
    for i in range(n):
        t = qtrue[i]
        dt = c2true[i]
        for a in range(p):
            v = qnum[i, a] - unum[t, a]
            dt += v * v
        stop = dt / (1.0 + tol)
        r = qpair[i]
        closer = False
        dmin = dt
        for gi in range(gorder.shape[1]):  # pass 1: the minimum, or a closer tuple
            c2 = gc2[r, gi]
            if c2 > dt:
                break
            g = gorder[r, gi]
            m, _, c = _scan(unum, gstart[g], gstart[g + 1], qnum[i], c2, dt, stop, uw, -1.0)
            dmin = min(dmin, m)
            if c:
                closer = True
                break
        if closer:
            continue
        lim = dmin * (1.0 + tol) + 1e-300
        size = 0.0
        for gi in range(gorder.shape[1]):  # pass 2: |G|
            c2 = gc2[r, gi]
            if c2 > lim:
                break
            g = gorder[r, gi]
            _, w, _ = _scan(unum, gstart[g], gstart[g + 1], qnum[i], c2, lim, -1.0, uw, lim)
            size += w
        prob[i] = 1.0 / size
    return prob


class _Linker:
    """The original records as distinct tuples grouped by their categorical values (numerical
    coordinates scaled by ``scale``, sorted within a group), for :func:`_linkage`."""

    def __init__(self, d: AdultMixed, scale: np.ndarray) -> None:
        mc = d.cat.shape[1]
        rows = np.concatenate([d.cat.astype(float), d.num], axis=1)
        u, inv, w = np.unique(rows, axis=0, return_inverse=True, return_counts=True)
        self.inv = inv.ravel().astype(np.int64)
        self.ucat = u[:, :mc].astype(np.int64)
        self.unum = np.ascontiguousarray(u[:, mc:] * scale)
        self.uw = w.astype(np.float64)
        new = np.r_[True, (np.diff(self.ucat, axis=0) != 0).any(axis=1)]
        starts = np.flatnonzero(new)
        self.gstart = np.r_[starts, len(u)].astype(np.int64)
        self.gcat = self.ucat[starts]
        self.cs2 = _cat_scaled(d.space) ** 2
        self.scale = scale
        self.sizes = d.space.sizes

    def pr(self, num_out: np.ndarray, cat_out: np.ndarray) -> np.ndarray:
        """Pr(x′_i) for one release (num (n, 2), cat (n, mc))."""
        mc = cat_out.shape[1]
        stride = np.cumprod(np.r_[1, self.sizes[::-1][:-1]])[::-1]
        key = (cat_out * stride).sum(axis=1)
        ukey, qpair = np.unique(key, return_inverse=True)
        pairs = (ukey[:, None] // stride[None, :]) % self.sizes[None, :]
        c2 = np.zeros((len(ukey), len(self.gcat)))
        for j in range(mc):
            c2 += self.cs2[j][pairs[:, j][:, None], self.gcat[:, j][None, :]]
        order = np.argsort(c2, axis=1, kind="stable")
        c2true = np.zeros(len(cat_out))
        for j in range(mc):
            c2true += self.cs2[j][cat_out[:, j], self.ucat[self.inv, j]]
        return np.asarray(_linkage(
            self.unum, self.uw, self.gstart, order.astype(np.int64),
            np.ascontiguousarray(np.take_along_axis(c2, order, axis=1)),
            np.ascontiguousarray(num_out * self.scale), qpair.ravel().astype(np.int64),
            self.inv, c2true, TOL))


def mixed_record_linkage(d: AdultMixed, num_out: np.ndarray, cat_out: np.ndarray,
                         distance: str = "range") -> float:
    """RL (%) of one record-aligned release (module doc) with the eq. (8) record distance
    (numerical attributes over their range, or over their standard deviation)."""
    return 100.0 * float(_Linker(d, _num_scale(d, distance)).pr(num_out, cat_out).mean())


def _sse(d: AdultMixed, num_out: np.ndarray, cat_out: np.ndarray) -> dict[str, float]:
    """SSE of one release under every :data:`SSES` normalisation."""
    sp = d.space
    c = sp.dist.shape[1]
    cat2 = cat2n = 0.0
    for j in range(d.cat.shape[1]):
        t = sp.dist[j].ravel()[d.cat[:, j] * c + cat_out[:, j]]
        cat2 += float((t * t).sum())
        cat2n += float(((t / sp.norm[j]) ** 2).sum())
    diff = num_out - d.num
    units = float((diff * diff).sum())
    rng = float(((diff / d.width) ** 2).sum())
    return {"units": units + cat2, "range": rng + cat2, "eq8": rng + cat2n}


# -- the experiments ---------------------------------------------------------------------------
@attrs.frozen(eq=False)
class MixedCell:
    """Averages over the runs of one cell: SSE per :data:`SSES`, RL (%) per record distance."""

    sse: dict[str, float]
    rl: dict[str, float]


class MixedRuns:
    """The Adult-Numerical-Categorical experiments of one data set, memoised per process
    (:func:`mixed_runs`): partitions and MDAV baselines per k, cells per (k, ε, references,
    noise, runs, seed) with their draws seeded by the cell alone."""

    DISTANCES = ("range", "standardised")

    def __init__(self, data_dir: Any = None) -> None:
        self.d = adult_mixed(data_dir)
        self._linkers = {dist: _Linker(self.d, _num_scale(self.d, dist))
                         for dist in self.DISTANCES}
        self._labels: dict[tuple[int, str], tuple[np.ndarray, Any, Any]] = {}
        self._mdav: dict[tuple[int, str], tuple[dict[str, float], float]] = {}
        self._cells: dict[tuple[Any, ...], MixedCell] = {}

    def measures(self, num_out: np.ndarray, cat_out: np.ndarray, distances: Any = None
                 ) -> tuple[dict[str, float], dict[str, float]]:
        """(SSE per normalisation, RL per record distance) of one release."""
        dists = self.DISTANCES if distances is None else distances
        return (_sse(self.d, num_out, cat_out),
                {dist: 100.0 * float(self._linkers[dist].pr(num_out, cat_out).mean())
                 for dist in dists})

    def mdav(self, k: int, distance: str) -> tuple[dict[str, float], float]:
        """(SSE per normalisation, RL with ``distance``) of standard MDAV with ``distance``."""
        from privlab.mechanisms.microaggregation import centroids_of
        from privlab.mechanisms.microaggregation.categorical import marginality_centroids

        key = (k, distance)
        if key not in self._mdav:
            lab = mixed_mdav_labels(self.d, k, distance)
            num_out = centroids_of(self.d.num, lab)[lab]
            cat_out = marginality_centroids(self.d.cat, lab, self.d.space)[lab]
            s, r = self.measures(num_out, cat_out, (distance,))
            self._mdav[key] = (s, r[distance])
        return self._mdav[key]

    def partition(self, k: int, references: str) -> tuple[np.ndarray, Any, Any]:
        """(labels, marginality matrices, their distinct rows) of the DP partition (k = 1:
        singletons)."""
        from privlab.proofs.thesis import ch6_adult_experiments as ax

        key = (k, "none" if k == 1 else references)
        if key not in self._labels:
            lab = (np.arange(self.d.n) if k == 1
                   else mixed_insensitive_labels(self.d, k, references))
            margs = ax.marginality_matrices(self.d.cat, lab, self.d.space)
            self._labels[key] = (lab, margs, tuple(ax.distinct_rows(mg) for mg in margs))
        return self._labels[key]

    def releases(self, k: int, epsilon: float, references: str, noise: str, runs: int,
                 rng: Any) -> tuple[np.ndarray, np.ndarray]:
        """``runs`` record-aligned releases: numerical (runs, n, 2) and categorical codes
        (runs, n, 2) (module doc; k = 1: plain Laplace and exponential mechanism per
        record)."""
        from privlab.proofs.thesis import ch6_adult_experiments as ax

        d = self.d
        g = np.random.default_rng(rng)
        lab, margs, distinct = self.partition(k, references)
        factor = d.n / k if k > 1 else 1.0
        cat = ax.em_releases(margs, lab, d.space, epsilon, runs, factor=factor, rng=g,
                             distinct=distinct)
        scale = (d.n / k) / (k * epsilon) if k > 1 else 1.0 / epsilon
        from privlab.mechanisms.microaggregation import centroids_of

        cen = centroids_of(d.num, lab)[lab] if k > 1 else d.num
        if k == 1 or noise == "per-record":
            z = g.laplace(size=(runs, d.n, 2))
        else:
            z = g.laplace(size=(runs, int(lab.max()) + 1, 2))[:, lab, :]
        num = np.clip(cen[None] + z * (scale * d.width), d.bounds[:, 0], d.bounds[:, 1])
        return num, cat

    def cell(self, k: int, epsilon: float, references: str, noise: str, *, runs: int,
             seed: int) -> MixedCell:
        """Averages over ``runs`` releases (memoised; k = 1 is the same cell in every
        reading)."""
        from privlab.proofs.thesis.ch6_experiments import NOISES, REFERENCES

        if k == 1:
            references, noise = "corners", "per-record"
        key = (k, float(epsilon), references, noise, runs, seed)
        if key not in self._cells:
            g = np.random.default_rng([seed, k, round(epsilon * 1e6),
                                       REFERENCES.index(references), NOISES.index(noise), 31])
            nums, cats = self.releases(k, epsilon, references, noise, runs, g)
            per = [self.measures(nums[i], cats[i]) for i in range(runs)]
            self._cells[key] = MixedCell(
                sse={s: float(np.mean([p[0][s] for p in per])) for s in SSES},
                rl={dist: float(np.mean([p[1][dist] for p in per]))
                    for dist in self.DISTANCES})
        return self._cells[key]


_RUNS: dict[Any, MixedRuns] = {}


def mixed_runs(data_dir: Any = None) -> MixedRuns:
    """The :class:`MixedRuns` of the data ``data_dir`` resolves to, one per process (keyed by
    adult.csv's path, resolved path, size and modification time and by the description of the
    categorical data, which names the taxonomies; at most two data sets are kept)."""
    from privlab._data import data_file
    from privlab.proofs.thesis import ch6_adult_experiments as ax

    p = data_file("adult.csv", data_dir)
    key: Any = None
    if p is not None:
        st = os.stat(p)
        key = (str(p), str(p.resolve()), st.st_size, st.st_mtime_ns)
    key = (key, ax.adult_categorical(data_dir=data_dir)[2])
    if key not in _RUNS:
        if len(_RUNS) >= 2:
            _RUNS.clear()
        _RUNS[key] = MixedRuns(data_dir)
    return _RUNS[key]


# -- notes -------------------------------------------------------------------------------------
def _provenance(name: str, rows: int, synthetic: bool) -> str:
    from privlab.proofs.provenance import provenance

    prov = provenance(name, rows, synthetic=synthetic)
    return (f"Provenance: name={prov['name']}, path={prov['path']}, rows={prov['rows']}, "
            f"sha256={prov['sha256']}.")


def _mixed_notes(r: MixedRuns, runs: int) -> tuple[str, ...]:
    from privlab.proofs.thesis.ch6_experiments import THESIS

    d = r.d
    tax = "; ".join(f"{CATEGORICAL[j]}: {len(t.concepts)} concepts, a_b = {t.boundaries[0]!r}, "
                    f"a_t = {t.boundaries[1]!r}, δ(a_b, a_t) = {t.boundary_distance:.4f}"
                    for j, t in enumerate(d.space.taxonomies))
    data = (f"Data: {d.what}; {runs} runs averaged (vldb14 §5.2 averaged 3).  Taxonomies as "
            f"ch6_adult_experiments.adult_categorical chooses for vldb14-3/-4 ({tax}); the "
            "papers used WordNet 2.1 taxonomies (122 and 127 concepts), so every number "
            "depends on that choice.")
    if not d.real:
        data = "SYNTHETIC DATA (the real Adult files were not found). " + data
    return (
        data,
        _provenance("adult.csv", d.n, not d.real),
        f"Rows: the stated configuration — {THESIS.label}, SSE units: {THESIS.describe()} "
        "(for the mixed records: eq. (8) with AGE and HOURS-PER-WEEK over [0, 1.5·max] and "
        "OCCUPATION, NATIVE-COUNTRY by δ/δ(a_b, a_t); 16 corners of the 4 attributes in the "
        "order OCCUPATION, NATIVE-COUNTRY, AGE, HOURS-PER-WEEK).  Numerical noise: Laplace "
        "(n/k)·Δ_j/(kε) (k > 1; Δ_j = 1.5·max_j), Δ_j/ε (k = 1), clamped to the domain; "
        "categorical: exponential mechanism, factor n/k (k = 1: 1), Δ(m) = δ(a_b, a_t), ε per "
        "attribute, one draw per cluster.  Rows aligned with the input (needed to measure RL; "
        "not a certified configuration, see privlab.mechanisms.releases.mixed).",
        "SSE normalisations (the SSE reading): 'units' — §5.2 literally, Σ (a − a′)² in years "
        "and hours plus Σ δ²; 'range' — numerical differences over the domain range "
        "(a_t − a_b), δ as is; 'eq8' — every attribute over dist(a_b, a_t) as in eq. (8).  RL "
        "uses the reading's record distance ('range' = eq. 8; 'standardised' = numerical "
        "attributes over their standard deviation, categorical as in eq. 8).  Score = "
        "SSE_f·RL_f.",
    )


def _mixed_readings() -> list[tuple[str, Reading, str]]:
    from privlab.proofs.thesis.ch6_experiments import READINGS

    return [(f"{rd.label} / SSE {s}", rd, s) for rd in READINGS for s in SSES]


def _stated_label() -> str:
    from privlab.proofs.thesis.ch6_experiments import THESIS

    return f"{THESIS.label} / SSE {SSES[0]}"


def _consistency_note() -> str:
    """Printed Tables 5 and 6 against each other: SSE_0/SSE_f² (Table 5) and SSE/SSE_f²
    (Table 6) both give the SSE of the release at (k, ε)."""
    ratios = [float(PAPER_V5[k][0] / PAPER_V5[k][2][e][0] ** 2
                    / (PAPER_V6[e][0] / PAPER_V6[e][2][k][0] ** 2))
              for k in KS_AN for e in EPS]
    rl = [float(PAPER_V5[k][1] / PAPER_V5[k][2][e][1] / (PAPER_V6[e][1] / PAPER_V6[e][2][k][1]))
          for k in KS_AN for e in EPS]
    return (f"Printed Tables 5 and 6 against each other (the same releases): the release's SSE "
            f"implied by Table 5 over that implied by Table 6 is {min(ratios):.2f}–"
            f"{max(ratios):.2f} over the {len(ratios)} cells; the implied RL ratio is "
            f"{min(rl):.2f}–{max(rl):.2f} (rounded printed factors).")


def table_v5(data_dir: Any = None, runs: int = 3, seed: int = 0,
             readings: str = "all") -> Table:
    """vldb14 Table 5 (Adult-Numerical-Categorical against standard MDAV); ``readings``:
    ``all`` (every reading in the notes) or ``stated`` (the rows' reading only)."""
    from privlab.proofs.thesis import ch6_experiments as ex
    from privlab.proofs.thesis.ch6_tables import COLS_VS_MDAV

    r = mixed_runs(data_dir)
    todo = _select(readings)

    def build(rd: Reading, s: str) -> list[dict[str, Any]]:
        rows = []
        for k in KS_AN:
            sse0d, rl0 = r.mdav(k, rd.distance)
            sse0 = sse0d[s]
            p0 = PAPER_V5[k]
            for e in EPS:
                c = r.cell(k, e, rd.references, rd.noise, runs=runs, seed=seed)
                se, rle = c.sse[s], c.rl[rd.distance]
                p = p0[2][e]
                rows.append({"k": k, "epsilon": e, "sse0": sse0, "paper_sse0": p0[0],
                             "rl0": rl0, "paper_rl0": p0[1], **ex.score_row(sse0, rl0, se, rle),
                             "paper_sse_f": p[0], "paper_rl_f": p[1], "paper_score": p[2],
                             "sse_ke": se, "rl_ke": rle})
        return rows

    allr = {label: build(rd, s) for label, rd, s in todo}
    src = f"{V} §5 Table 5" + ("" if r.d.real else " — on SYNTHETIC data (real Adult absent)")
    return Table(id="vldb14-5", source=src, columns=COLS_VS_MDAV,
                 rows=tuple(allr[_stated_label()]),
                 notes=(*_mixed_notes(r, runs),
                        "Baseline: standard MDAV (Algorithm 1) on the mixed records with the "
                        "reading's record distance, mean / marginality centroid (eq. 5) as "
                        "average record and released value; SSE0 and RL0 of its release "
                        "(deterministic).",
                        *reading_notes(COLS_VS_MDAV, allr, _stated_label()),
                        _consistency_note()))


def table_v6(data_dir: Any = None, runs: int = 3, seed: int = 0,
             readings: str = "all") -> Table:
    """vldb14 Table 6 (Adult-Numerical-Categorical against plain ε-DP, k = 1)."""
    from privlab.proofs.thesis import ch6_experiments as ex
    from privlab.proofs.thesis.ch6_tables import COLS_VS_PLAIN

    r = mixed_runs(data_dir)
    todo = _select(readings)

    def build(rd: Reading, s: str) -> list[dict[str, Any]]:
        rows = []
        for e in EPS:
            c0 = r.cell(1, e, rd.references, rd.noise, runs=runs, seed=seed)
            sse0, rl0 = c0.sse[s], c0.rl[rd.distance]
            p0 = PAPER_V6[e]
            for k in KS_AN:
                c = r.cell(k, e, rd.references, rd.noise, runs=runs, seed=seed)
                se, rle = c.sse[s], c.rl[rd.distance]
                p = p0[2][k]
                rows.append({"epsilon": e, "k": k, "sse0": sse0, "paper_sse0": p0[0],
                             "rl0": rl0, "paper_rl0": p0[1], **ex.score_row(sse0, rl0, se, rle),
                             "paper_sse_f": p[0], "paper_rl_f": p[1], "paper_score": p[2],
                             "sse_ke": se, "rl_ke": rle})
        return rows

    allr = {label: build(rd, s) for label, rd, s in todo}
    src = f"{V} §5 Table 6" + ("" if r.d.real else " — on SYNTHETIC data (real Adult absent)")
    return Table(id="vldb14-6", source=src, columns=COLS_VS_PLAIN,
                 rows=tuple(allr[_stated_label()]),
                 notes=(*_mixed_notes(r, runs),
                        "Baseline: plain ε-DP without microaggregation (k = 1): Laplace Δ_j/ε "
                        "on every numerical value, the exponential mechanism (factor 1) on "
                        "every categorical value; sse0/rl0 are its SSE and RL.",
                        *reading_notes(COLS_VS_PLAIN, allr, _stated_label()),
                        _consistency_note()))


def _select(readings: str) -> list[tuple[str, Reading, str]]:
    allr = _mixed_readings()
    if readings == "all":
        return allr
    if readings == "stated":
        return [t for t in allr if t[0] == _stated_label()]
    raise ValueError(f"readings={readings!r} must be 'all' or 'stated'")


# -- Table 7 -----------------------------------------------------------------------------------
def _census_stats(r: CensusRuns, k: int, epsilon: float, reading: Reading, runs: int,
                  seed: int) -> dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]:
    """(Δ of the means, Δ of σ) per attribute of one DP cell under every :data:`MEASURES`."""
    from privlab.proofs.thesis import ch6_experiments as ex

    refs, noise = reading.references, reading.noise
    if k == 1:
        refs, noise = "corners", "per-record"
    g = np.random.default_rng([seed, k, round(epsilon * 1e6), ex.REFERENCES.index(refs),
                               ex.NOISES.index(noise), 7])
    outs = r.releases(k, epsilon, refs, noise, "vldb14-per-attribute", runs, g)
    x = r.x
    out = {}
    for stat, avg in MEASURES:
        def f(a: np.ndarray, axis: int, stat: str = stat) -> np.ndarray:
            v = a.var(axis=axis)
            return np.asarray(v if stat == "variance" else np.sqrt(v))

        mu, sg = x.mean(axis=0), f(x, 0)
        if avg == "mean-of-delta":
            dm = np.mean([ex.variation(mu, o.mean(axis=0)) for o in outs], axis=0)
            ds = np.mean([ex.variation(sg, f(o, 0)) for o in outs], axis=0)
        else:
            dm = ex.variation(mu, np.mean([o.mean(axis=0) for o in outs], axis=0))
            ds = ex.variation(sg, np.mean([f(o, 0) for o in outs], axis=0))
        out[(stat, avg)] = (dm, ds)
    return out


def _v7_readings() -> list[tuple[str, Reading, tuple[str, str]]]:
    from privlab.proofs.thesis.ch6_experiments import READINGS

    return [(f"{rd.label} / σ = {st} / {avg}", rd, (st, avg))
            for rd in READINGS for st, avg in MEASURES]


def v7_repeats() -> dict[int, dict[str, tuple[int, ...]]]:
    """Printed vldb14 Table 7 against printed thesis Table 6.5 (as printed, column by column):
    for each vldb14 k (1 = "None") and column, the thesis k whose 8 printed statistics in that
    column are identical."""
    from privlab.proofs.thesis.ch6_tables import PAPER_6_5

    thesis_ks = sorted(next(iter(PAPER_6_5.values())))
    out: dict[int, dict[str, tuple[int, ...]]] = {}
    for k in (1, *KS_V7):
        for ci, col in enumerate(V7_COLUMNS):
            same = tuple(tk for tk in thesis_ks
                         if all(PAPER_V7[st][k][ci].text == PAPER_6_5[st][tk][ci].text
                                for st in PAPER_V7))
            if same:
                out.setdefault(k, {})[col] = same
    return out


def _v7_consistency(lab_at: Any) -> str:
    """:func:`v7_repeats` as a note, with the lab's check of every repeated column of a
    different k: how many of its printed cells the lab's value at the thesis k matches, and
    how many the lab's value at the stated k matches (``lab_at(k, column, statistic)``)."""
    from privlab.proofs.printed import matches_printed

    parts, checks = [], []
    for k, cols in v7_repeats().items():
        groups: dict[tuple[int, ...], list[str]] = {}
        for col, tks in cols.items():
            groups.setdefault(tks, []).append(col)
        for tks, names in groups.items():
            kk = "None" if k == 1 else f"k = {k}"
            parts.append(f"{kk}: {', '.join(names)} = thesis k = {', '.join(map(str, tks))}")
            if k in tks:
                continue
            for col in names:
                ci = V7_COLUMNS.index(col)
                for tk in tks:
                    at_t = sum(matches_printed(lab_at(tk, col, st), PAPER_V7[st][k][ci].text)
                               for st in PAPER_V7)
                    at_k = sum(matches_printed(lab_at(k, col, st), PAPER_V7[st][k][ci].text)
                               for st in PAPER_V7)
                    checks.append(f"k = {k} {col}: the lab's value at k = {tk} matches {at_t} "
                                  f"of the 8 printed cells, at k = {k} {at_k}")
    text = ("Printed vldb14 Table 7 against printed thesis Table 6.5 (all 8 statistics of a "
            "column identical): " + ("; ".join(parts) if parts else "no column repeats") + ".")
    if checks:
        text += ("  Repeated columns of a different k (stated reading, microaggregation "
                 "alone, deterministic): " + "; ".join(checks) + ".")
    return text


def table_v7(data_dir: Any = None, runs: int = 3, seed: int = 0) -> Table:
    """vldb14 Table 7 (Census: variation of means and variances, k = 2, 33, 66, noise
    (n/k)·Δ_j/(kε); "None" = plain Laplace Δ_j/ε)."""
    from privlab.proofs.thesis import ch6_experiments as ex
    from privlab.proofs.thesis.ch6_tables import COLS_65

    r = ex.census_runs(data_dir)
    x = r.x
    labels = ("X", "P", "I", "F")
    order = [f"m{a}" for a in labels] + [f"σ{a}" for a in labels]
    ks = (1, *KS_V7)
    cache: dict[tuple[Any, ...], Any] = {}

    def build(rd: Reading, measure: tuple[str, str]) -> list[dict[str, Any]]:
        st = measure[0]

        def f(a: np.ndarray) -> np.ndarray:
            v = a.var(axis=0)
            return np.asarray(v if st == "variance" else np.sqrt(v))

        vals: dict[tuple[str, int], dict[str, float]] = {}
        for k in ks:
            cols: dict[str, tuple[np.ndarray, np.ndarray]] = {}
            for e in EPS:
                key = (k, e, "corners" if k == 1 else rd.references,
                       "per-record" if k == 1 else rd.noise)
                if key not in cache:
                    cache[key] = _census_stats(r, k, e, rd, runs, seed)
                cols[f"eps_{e:g}"] = cache[key][measure]
            for name, o in (("insensitive_mdav", r.insensitive(k, rd.references)),
                            ("mdav", r.mdav(k, rd.distance))):
                cols[name] = (ex.variation(x.mean(axis=0), o.mean(axis=0)),
                              ex.variation(f(x), f(o)))
            for j, lab in enumerate(labels):
                for s, idx in (("m", 0), ("σ", 1)):
                    vals[(f"{s}{lab}", k)] = {c: float(v[idx][j]) for c, v in cols.items()}
        rows = []
        for stat in order:
            for k in ks:
                paper = dict(zip(V7_COLUMNS, PAPER_V7[stat][k], strict=True))
                rows.append({"statistic": f"Δ({stat})", "k": k, **vals[(stat, k)],
                             **{f"paper_{c}": v for c, v in paper.items()}})
        return rows

    allr = {label: build(rd, ms) for label, rd, ms in _v7_readings()}
    stated = _v7_readings()[0][0]

    def lab_at(k: int, col: str, stat: str) -> float:
        """The stated reading's microaggregation-only value at any k (variance, Δ)."""
        o = (r.insensitive(k, ex.THESIS.references) if col == "insensitive_mdav"
             else r.mdav(k, ex.THESIS.distance))
        j = labels.index(stat[1:])
        if stat.startswith("m"):
            return float(ex.variation(x.mean(axis=0), o.mean(axis=0))[j])
        return float(ex.variation(x.var(axis=0), o.var(axis=0))[j])

    prov = _provenance("census_casc.csv", int(x.shape[0]), r.synthetic)
    return Table(
        id="vldb14-7", source=f"{V} §5.4 Table 7 (cf. thesis-6.5)"
        + (" — on SYNTHETIC data (census_casc.csv absent)" if r.synthetic else ""),
        columns=COLS_65, rows=tuple(allr[stated]),
        notes=(f"Data: {r.what}; domain [0, 1.5·max]; {runs} runs averaged (vldb14 §5.2: 3).",
               prov,
               f"Rows: the stated configuration ({stated}): {ex.THESIS.describe()}; DP cells "
               "with Laplace (n/k)·Δ_j/(kε) for k > 1 (vldb14 §4, as vldb14-1/-2) and Δ_j/ε "
               "for k = 1 ('None'), clamped to the domain, rows aligned with the input; "
               "Insensit. MDAV / MDAV columns: microaggregation alone (deterministic; the "
               "reading's insensitive partition and MDAV with the reading's distance); k = 1 "
               "there is the data itself.",
               "Measures (the measure reading): Δ(Θ) = |Θ′ − Θ|/|Θ| (§5.4) per attribute; σ "
               "is the population variance (§5.4's text: 'variances'; the sample variance "
               "gives the same ratios) or the standard deviation (the symbol σ); the runs are "
               "averaged as the mean of Δ over runs or as Δ of the run-averaged statistic.",
               *reading_notes(COLS_65, allr, stated),
               _v7_consistency(lab_at)))


