"""Experiment helpers for thesis §6.4 (vldb14 §5) and irm §4: data, releases, measures.

Data: the CASC "Census" table (``census_casc.csv``, see ``../shared/data/SOURCES.md``) with the
domain of every attribute taken as [0, 1.5·max] (thesis §6.4.1, irm §4.1).  The data directory
is ``data_dir`` when given, else :func:`privlab._data.data_dir` (``PRIVLAB_DATA_DIR`` or
``../shared/data`` relative to the working directory); when no file
is found a seeded synthetic table of the same shape is used (1080 records, log-normal money
amounts with a shared factor, integer valued) and :func:`census` says so.

Releases (:class:`privlab.mechanisms.releases.numerical.DPRelease`) are record-aligned so that SSE
and
record linkage can be measured against the input records, and clamped to the domain (irm §4.1
says so; the thesis's k = 1, ε = 0.01 figures are only reproducible with clamping).  The noise
scale of thesis Tables 6.1–6.5 is Δ_j/(kε) on each attribute j — the reading of §6.3.1's
Δ(I_r) as the range of one attribute: with it the lab's k = 1 SSE is 8.7e12 (ε = 1) and 3.7e11
(ε = 10) on the real Census, against the printed 8.86e12 and 3.69e11, whereas Δ(I_r) = Σ_j Δ_j
gives 1.4e13 and 3.8e12.  That reading is *not* certified for m = 4 attributes (see
``privlab certify dp-release``); the tables measure utility only.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import numpy as np

from privlab._data import data_file
from privlab._rng import as_generator
from privlab.mechanisms.microaggregation import mdav
from privlab.mechanisms.releases.numerical import DPRelease
from privlab.metrics.risk import record_linkage
from privlab.metrics.utility import sse

__all__ = ["CENSUS_TABLE_6", "census", "dp_releases", "mdav_release", "rl", "score_row",
           "variation"]

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


def rl(x: np.ndarray, out: np.ndarray) -> float:
    """Record linkage (%) — thesis §6.4.2, standardised Euclidean distance."""
    return float(record_linkage(x, out))


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
