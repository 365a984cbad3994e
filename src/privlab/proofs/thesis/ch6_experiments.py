"""Experiment helpers for thesis §6.4 (vldb14 §5) and irm §4: data, releases, measures.

Data: the CASC "Census" table (``census_casc.csv``, see ``../shared/data/SOURCES.md``) with the
domain of every attribute taken as [0, 1.5·max] (thesis §6.4.1, irm §4.1).  The data directory
is ``data_dir`` when given, else :func:`privlab._data.data_dir` (``PRIVLAB_DATA_DIR`` or
``../shared/data`` relative to the working directory); when no file
is found a seeded synthetic table of the same shape is used (1080 records, log-normal money
amounts with a shared factor, integer valued) and :func:`census` says so.

Releases are record-aligned so that SSE and record linkage can be measured against the input
records, and clamped to the domain (irm §4.1 says so; the thesis's k = 1, ε = 0.01 figures are
only reproducible with clamping): :func:`dp_releases`
(:class:`privlab.mechanisms.releases.numerical.DPRelease`, insensitive MDAV with one reference
point; irm Table 1 and the report's dp_release section) and :class:`CensusRuns` (every
:class:`Reading`; thesis Tables 6.1, 6.2, 6.5 and vldb14 Tables 1, 2).  Both simulate the
papers' continuous Laplace law with float noise (nothing is released).  The noise
scale of thesis Tables 6.1–6.5 is Δ_j/(kε) on each attribute j — the reading of §6.3.1's
Δ(I_r) as the range of one attribute: with it the lab's k = 1 SSE is about 8.8e12 (ε = 1)
and 3.7e11 (ε = 10) on the real Census, against the printed 8.86e12 and 3.69e11, whereas
Δ(I_r) = Σ_j Δ_j gives 1.4e13 and 3.8e12.  That reading is *not* certified for m = 4 attributes (see
``privlab certify dp-release``); the tables measure utility only.

Configurations (:class:`Reading`, issue 31).  Three choices the tables depend on, each with
the values the text allows; :data:`THESIS` is the one the thesis states:

* ``distance`` — the record distance of MDAV and of record linkage: ``range`` (eq. 6.7 /
  vldb14 eq. 8: each attribute divided by its domain range a_t − a_b, §6.3.6) or
  ``standardised`` (divided by the data's standard deviation, sdcMicro's MDAV).  The insensitive
  orders always use the range (a data-dependent scale would break insensitivity, §6.3.6);
* ``references`` — the insensitive partition: ``corners`` (Algorithm 6.1 with the 2^m domain
  corners in the Hamming order of §6.3.3 — §6.4.2 "several reference points (Algorithm 6.1)",
  §6.4.3 "16 different combinations of domain boundaries" for Census) or ``single``
  (insensitive MDAV of §6.3.2, one reference point, the lower corner);
* ``noise`` — ``per-record`` (Algorithm 6.2 calls S_ε once for each record of X̄) or
  ``per-cluster`` (one draw per cluster copied to its k records).

:class:`CensusRuns` computes every cell once per process and data file (memoised): the draws
of a cell (k, ε, references, noise, noise scale) come from a generator seeded by the cell alone,
so the tables that print the same cell (6.1, 6.2 and 6.5) use the same runs.
"""

from __future__ import annotations

import csv
import itertools
import os
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from privlab._data import data_file
from privlab._rng import as_generator
from privlab.mechanisms.microaggregation import mdav
from privlab.mechanisms.releases.numerical import DPRelease
from privlab.metrics.risk import record_linkage
from privlab.metrics.utility import sse

__all__ = ["CENSUS_TABLE_6", "READINGS", "THESIS", "CensusRuns", "Reading", "census",
           "census_runs", "dp_releases", "mdav_release", "rl", "score_row", "variation"]

CENSUS_TABLE_6 = ("FEDTAX", "POTHVAL", "INTVAL", "FICA")
"""The thesis §6.4.1 / vldb14 §5.1 attributes, in the order of Table 6.5 (X, P, I, F)."""
N_CENSUS = 1080


def _read_csv(path: Path) -> tuple[list[str], np.ndarray]:
    with path.open(newline="") as f:
        r = csv.reader(f)
        header = next(r)
        rows = np.array([[float(v) for v in row] for row in r if row])
    return header, rows


def _synthetic(m: int, seed: int) -> np.ndarray:
    g = as_generator(seed)
    common = g.normal(size=(N_CENSUS, 1))
    z = 0.7 * common + 0.7 * g.normal(size=(N_CENSUS, m))
    scale = np.exp(g.uniform(7.0, 9.5, size=m))
    return np.maximum(np.round(scale * np.exp(1.1 * z)), 1.0)


def census(columns: Any = CENSUS_TABLE_6, data_dir: Any = None, seed: int = 6,
           synthetic: bool = False) -> tuple[np.ndarray, np.ndarray, str]:
    """(x (n, m), bounds (m, 2) = [0, 1.5·max], a description of the data used).

    ``columns``: names of Census columns, or an int m for the first m columns in file order;
    ``synthetic``: use the synthetic table even when the real one exists.
    """
    path = None if synthetic else data_file("census_casc.csv", data_dir)
    if path is not None:
        header, rows = _read_csv(path)
        names = header[:columns] if isinstance(columns, int) else list(columns)
        x = rows[:, [header.index(c) for c in names]]
        what = f"Census (CASC, {path}), columns {', '.join(names)}"
    else:
        m = columns if isinstance(columns, int) else len(columns)
        x = _synthetic(m, seed)
        what = (f"seeded synthetic Census-shaped data ({N_CENSUS} × {m}, seed {seed})"
                + ("" if synthetic else ": census_casc.csv not found"))
    bounds = np.stack([np.zeros(x.shape[1]), 1.5 * x.max(axis=0)], axis=1)
    return x, bounds, what


def dp_releases(x: np.ndarray, bounds: np.ndarray, k: int, epsilon: float, runs: int, *,
                rng: Any = None, microaggregation: str = "insensitive-mdav",
                scale: str = "per-attribute", noise: str = "shared") -> np.ndarray:
    """``runs`` aligned, clamped releases (runs, n, m).

    ``scale``: ``per-attribute`` Δ_j/(kε) (thesis experiments), ``irm`` m·Δ_j/(kε),
    ``vldb14-per-attribute`` (n/k)·Δ_j/(kε) (irm's reading of vldb14: independent of m).
    """
    n, m = x.shape
    per_unit = {"per-attribute": 1.0 / (k * epsilon), "irm": m / (k * epsilon),
                "vldb14-per-attribute": (n / k) / (k * epsilon)}[scale]
    micro = "none" if k == 1 else microaggregation
    rel = DPRelease(microaggregation=micro, k=k, epsilon=epsilon, noise_scale=per_unit,
                    noise="per-record" if k == 1 else noise, rows="aligned", clamp=True,
                    noise_mode="fast")  # the papers' continuous law, simulated; nothing released
    return rel.sample(x, bounds, runs, rng=rng)


def mdav_release(x: np.ndarray, k: int) -> np.ndarray:
    """Standard MDAV (standardised distances), released table aligned with the input."""
    return np.asarray(mdav(x, k).released)


def rl(x: np.ndarray, out: np.ndarray, bounds: np.ndarray | None = None,
       distance: str = "standardised") -> float:
    """Record linkage (%) — thesis §6.4.2 — with the ``distance`` of a :class:`Reading`:
    ``standardised`` Euclidean, or ``range`` (eq. 6.7: each attribute over its domain range,
    needs ``bounds``)."""
    if distance == "standardised":
        return float(record_linkage(x, out))
    if distance != "range" or bounds is None:
        raise ValueError(f"distance={distance!r} must be 'standardised' or 'range' (with bounds)")
    lo, w = bounds[:, 0], bounds[:, 1] - bounds[:, 0]
    return float(record_linkage((x - lo) / w, (out - lo) / w, scale="raw"))


def mean_sse_rl(x: np.ndarray, outs: np.ndarray, with_rl: bool = True) -> tuple[float, float]:
    """Averages over runs of SSE and RL (RL nan when ``with_rl`` is False)."""
    s = float(np.mean([sse(x, o) for o in outs]))
    r = float(np.mean([rl(x, o) for o in outs])) if with_rl else float("nan")
    return s, r


def score_row(sse0: float, rl0: float, sse_ke: float, rl_ke: float) -> dict[str, float]:
    """SSE_f = √SSE0/√SSE_kε, RL_f = RL0/RL_kε, Score = SSE_f·RL_f (thesis §6.4.2; the
    printed Scores are the products, e.g. 0.014 × 386.92 = 5.37)."""
    sf = float(np.sqrt(sse0) / np.sqrt(sse_ke))
    rf = float(rl0 / rl_ke) if rl_ke > 0 else float("inf")
    return {"sse_f": sf, "rl_f": rf, "score": sf * rf}


def variation(theta: np.ndarray, theta_masked: np.ndarray) -> np.ndarray:
    """Δ(Θ) = |Θ′ − Θ| / |Θ| (thesis §6.4.4)."""
    return np.abs(theta_masked - theta) / np.abs(theta)


DISTANCES = ("range", "standardised")
REFERENCES = ("corners", "single")
NOISES = ("per-record", "per-cluster")
SCALES = ("per-attribute", "vldb14-per-attribute")


@attrs.frozen
class Reading:
    """One configuration of the §6.4 experiments (module doc): record distance of MDAV and
    record linkage, reference points of the insensitive partition, noise draws."""

    distance: str = attrs.field(default="range", validator=attrs.validators.in_(DISTANCES))
    references: str = attrs.field(default="corners",
                                  validator=attrs.validators.in_(REFERENCES))
    noise: str = attrs.field(default="per-record", validator=attrs.validators.in_(NOISES))

    @property
    def label(self) -> str:
        return f"{self.distance} / {self.references} / {self.noise}"

    def describe(self) -> str:
        dist = ("distances over the domain range (eq. 6.7)" if self.distance == "range"
                else "standardised distances")
        refs = ("Algorithm 6.1 with the 16 domain corners in the Hamming order of §6.3.3"
                if self.references == "corners" else
                "insensitive MDAV with one reference point (the lower corner)")
        noise = ("one Laplace draw per record (Algorithm 6.2)" if self.noise == "per-record"
                 else "one Laplace draw per cluster")
        return f"MDAV and record linkage with {dist}; {refs}; {noise}"


THESIS = Reading()
"""The configuration the thesis states (§6.3.6, §6.4.2–6.4.3, Algorithm 6.2)."""
READINGS: tuple[Reading, ...] = tuple(
    Reading(distance=d, references=r, noise=n)
    for d, r, n in itertools.product(DISTANCES, REFERENCES, NOISES))
"""Every reading the text allows, :data:`THESIS` first."""


def _labels(x: np.ndarray, bounds: np.ndarray, k: int, references: str) -> np.ndarray:
    from privlab.mechanisms.microaggregation import (
        Domain,
        corners_labels,
        insensitive_mdav_labels,
    )

    dom = Domain(lower=bounds[:, 0], upper=bounds[:, 1])
    if references == "corners":
        return corners_labels(x, k, dom)
    return insensitive_mdav_labels(x, k, dom)


def _centroid_table(x: np.ndarray, lab: np.ndarray) -> np.ndarray:
    from privlab.mechanisms.microaggregation import centroids_of

    return centroids_of(x, lab)[lab]


@attrs.frozen(eq=False)
class Cell:
    """Averages over the runs of one DP cell: SSE, RL per distance, Δ(mean) and Δ(variance)
    per attribute (population variances)."""

    sse: float
    rl: dict[str, float]
    d_mean: np.ndarray
    d_var: np.ndarray


class CensusRuns:
    """The Census experiments of one data file, memoised (see :func:`census_runs`)."""

    def __init__(self, data_dir: Any = None) -> None:
        self.x, self.bounds, self.what = census(data_dir=data_dir)
        self.x.setflags(write=False)
        self.synthetic = self.what.startswith("seeded synthetic")
        self._labels: dict[tuple[int, str], np.ndarray] = {}
        self._mdav: dict[tuple[int, str], np.ndarray] = {}
        self._cells: dict[tuple[Any, ...], Cell] = {}

    def labels(self, k: int, references: str) -> np.ndarray:
        """The insensitive partition (k ≥ 2) for ``references``."""
        key = (k, references)
        if key not in self._labels:
            self._labels[key] = _labels(self.x, self.bounds, k, references)
        return self._labels[key]

    def insensitive(self, k: int, references: str) -> np.ndarray:
        """Insensitive microaggregation alone (k = 1: the data)."""
        return self.x if k == 1 else _centroid_table(self.x, self.labels(k, references))

    def mdav(self, k: int, distance: str) -> np.ndarray:
        """The released table of standard MDAV with the reading's distance (k = 1: the data)."""
        if k == 1:
            return self.x
        key = (k, distance)
        if key not in self._mdav:
            from privlab.mechanisms.microaggregation import Domain, mdav_labels

            dom = Domain(lower=self.bounds[:, 0], upper=self.bounds[:, 1])
            lab = mdav_labels(self.x, k, "domain" if distance == "range" else "standardised",
                              dom)
            self._mdav[key] = _centroid_table(self.x, lab)
        return self._mdav[key]

    def mdav_sse_rl(self, k: int, distance: str) -> tuple[float, float]:
        out = self.mdav(k, distance)
        return sse(self.x, out), rl(self.x, out, self.bounds, distance)

    def cell(self, k: int, epsilon: float, reading: Reading, *, runs: int, seed: int,
             scale: str = "per-attribute") -> Cell:
        """``runs`` clamped, record-aligned releases with noise scale s·Δ_j (``scale``:
        ``per-attribute`` s = 1/(kε), ``vldb14-per-attribute`` s = (n/k)/(kε) for k > 1, 1/ε
        for k = 1), averaged; memoised.  k = 1 is plain Laplace per record for every
        reading."""
        refs, noise = reading.references, reading.noise
        if k == 1:  # no microaggregation: the same release in every reading and scale
            refs, noise, scale = "corners", "per-record", "per-attribute"
        key = (k, float(epsilon), refs, noise, scale, runs, seed)
        if key not in self._cells:
            self._cells[key] = self._compute(k, float(epsilon), refs, noise, scale, runs, seed)
        return self._cells[key]

    def releases(self, k: int, epsilon: float, references: str, noise: str, scale: str,
                 runs: int, rng: Any) -> np.ndarray:
        """``runs`` clamped, record-aligned releases (runs, n, m) of one cell (see
        :meth:`cell`; k = 1: plain Laplace per record)."""
        x, b = self.x, self.bounds
        n, m = x.shape
        g = as_generator(rng)
        per_unit = 1.0 / (k * epsilon)
        if scale == "vldb14-per-attribute" and k > 1:
            per_unit *= n / k
        width = b[:, 1] - b[:, 0]
        if k == 1:
            cen, z = x, g.laplace(size=(runs, n, m))
        else:
            lab = self.labels(k, references)
            cen = _centroid_table(x, lab)
            if noise == "per-record":
                z = g.laplace(size=(runs, n, m))
            else:
                z = g.laplace(size=(runs, int(lab.max()) + 1, m))[:, lab, :]
        return np.clip(cen[None] + z * (per_unit * width), b[:, 0], b[:, 1])

    def _compute(self, k: int, e: float, refs: str, noise: str, scale: str, runs: int,
                 seed: int) -> Cell:
        x, b = self.x, self.bounds
        g = np.random.default_rng([seed, k, round(e * 1e6), REFERENCES.index(refs),
                                   NOISES.index(noise), SCALES.index(scale)])
        outs = self.releases(k, e, refs, noise, scale, runs, g)
        mu, var = x.mean(axis=0), x.var(axis=0)
        return Cell(sse=float(np.mean([sse(x, o) for o in outs])),
                    rl={d: float(np.mean([rl(x, o, b, d) for o in outs])) for d in DISTANCES},
                    d_mean=np.mean([variation(mu, o.mean(axis=0)) for o in outs], axis=0),
                    d_var=np.mean([variation(var, o.var(axis=0)) for o in outs], axis=0))


_RUNS: dict[Any, CensusRuns] = {}


def census_runs(data_dir: Any = None) -> CensusRuns:
    """The :class:`CensusRuns` of the Census file ``data_dir`` resolves to, one per process
    (keyed by the file's path, resolved path, size and modification time; at most two data
    sets are kept)."""
    p = data_file("census_casc.csv", data_dir)
    key = None
    if p is not None:
        st = os.stat(p)
        key = (str(p), str(p.resolve()), st.st_size, st.st_mtime_ns)
    if key not in _RUNS:
        if len(_RUNS) >= 2:
            _RUNS.clear()
        _RUNS[key] = CensusRuns(data_dir)
    return _RUNS[key]
