"""Reproduced tables of thesis ch.3 (probabilistic k-anonymity): Table 3.10 on "Census".

Table 3.10 (§3.4.1): "the mean and the standard deviation of the absolute value of the
difference between the correlations to the confidential attributes in the anonymized data set
and the original data set", for MDAV-ID, MDAV-SWAP and IR-SWAP
(:mod:`privlab.mechanisms.microaggregation.prob_kanon`) over 100 runs, k ∈ {5, 7, 9, 11, 25,
50, 100, 200, 300}.  The first 6 Census attributes are non-confidential quasi-identifiers, the
last 7 confidential (§3.4.1).

The rows (:data:`LAB`, :func:`corr_experiment`): Pearson |Δcorr| pooled over the runs and over
the 63 attribute pairs with at least one confidential attribute (the off-diagonal cells of
Tables 3.6–3.9), sd with ddof = 0; MDAV on the *raw* attributes — the single-run Table 3.7
(MDAV-ID, k = 12) is reproduced that way and not with sdcMicro-style standardised distances;
MDAV-ID on all 13 attributes and MDAV-SWAP on the 12 attributes other than the swapped one
(informed intruders, §3.3.2); IR-SWAP's group of k … 2k − 1 records at the largest values.

Readings (issue 31).  The text does not say how the |Δcorr| values are pooled.
:data:`READINGS` are the combinations it allows of six choices (:class:`Reading`): the cells
pooled (the 63 pairs, the 70 printed cells of Tables 3.6–3.9 with their diagonal, the 42
quasi-identifier × confidential pairs, all 78 pairs), Pearson or Spearman correlation, raw or
standardised MDAV distances, MDAV on all attributes or on the 6 quasi-identifiers (the wording
of the §3.4 method list: MDAV-ID replaces the quasi-identifiers by centroids, MDAV-SWAP permutes
each confidential attribute within the quasi-identifier groups), IR-SWAP's larger group at the
largest or at the smallest values, and the statistic (runs and pairs pooled, the runs' means,
one run, the runs' maxima over the pairs).  :func:`reading_summary` counts each reading's
matches against the 54 printed cells under the one printed-number rule
(:mod:`privlab.proofs.printed`); the table's notes give the counts.  The printed numbers are
shown beside the computed ones and never used as expected values.

Table 3.7 against Table 3.10 (:func:`table_3_7_consistency`): MDAV-ID is deterministic, so the
printed single run of Table 3.7 (k = 12) fixes its |Δcorr| at k = 12 under each pooling; the
notes compute it from the printed cells (against the printed Table 3.6 and the computed Census
correlations) beside the lab's MDAV-ID at k = 11 and 12 and Table 3.10's printed k = 11 cell.

Data: ``census_casc.csv`` from the data directory (:func:`privlab._data.data_file`) when it
exists; otherwise a seeded synthetic table of the same shape (1080 × 13, log-normal attributes
with a shared factor, so the attributes are correlated like incomes), fewer runs and no printed
values.  The "EIA" data set of Table 3.11 is not used here.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import attrs
import numpy as np

from privlab._data import data_file
from privlab.errors import InvalidParameter
from privlab.mechanisms.microaggregation.core import as_table
from privlab.mechanisms.microaggregation.prob_kanon import (
    group_order,
    ir_swap_partitions,
    mdav_id,
    mdav_swap_partitions,
    swap_released,
)
from privlab.metrics.utility import correlation_differences
from privlab.proofs.printed import Printed, compare_table, matches_printed
from privlab.types import Table

F = "000_65177858bc9aa63c.txt"
KS = (5, 7, 9, 11, 25, 50, 100, 200, 300)
METHODS = ("MDAV-ID", "MDAV-SWAP", "IR-SWAP")
CONFIDENTIAL = tuple(range(6, 13))
QUASI_IDENTIFIERS = tuple(range(6))

_P = Printed
PAPER_3_10: dict[int, tuple[tuple[float, float], tuple[float, float], tuple[float, float]]] = {
    5: ((_P(".055"), _P(".064")), (_P(".037"), _P(".045")), (_P(".0021"), _P(".0041"))),
    7: ((_P(".062"), _P(".071")), (_P(".048"), _P(".056")), (_P(".0022"), _P(".0039"))),
    9: ((_P(".069"), _P(".078")), (_P(".055"), _P(".064")), (_P(".0028"), _P(".0049"))),
    11: ((_P(".078"), _P(".085")), (_P(".061"), _P(".070")), (_P(".0038"), _P(".0068"))),
    25: ((_P(".11"), _P(".11")), (_P(".091"), _P(".093")), (_P(".0061"), _P(".012"))),
    50: ((_P(".14"), _P(".13")), (_P(".13"), _P(".12")), (_P(".010"), _P(".020"))),
    100: ((_P(".17"), _P(".15")), (_P(".19"), _P(".17")), (_P(".020"), _P(".030"))),
    200: ((_P(".29"), _P(".27")), (_P(".31"), _P(".28")), (_P(".044"), _P(".047"))),
    300: ((_P(".38"), _P(".39")), (_P(".37"), _P(".34")), (_P(".087"), _P(".071"))),
}
"""Table 3.10 as printed (seed lines 1440–1449): k → ((mean, sd) of MDAV-ID, MDAV-SWAP,
IR-SWAP), each a :class:`~privlab.proofs.printed.Printed` keeping its printed digits."""

PAPER_3_6 = """
.0038 -.027 -.024 .031 .032 .039 .036
.98 .14 .2 .73 .71 .72 .7
.44 -.12 -.058 .56 .55 .56 .55
.98 .2 .28 .73 .69 .71 .69
.78 .27 .27 .9 .85 .88 .86
.79 .13 .22 .59 .57 .57 .56
1 .17 .23 .72 .7 .71 .69
1 .45 -.17 -.19 -.17 -.17
1 .072 .061 .70 .075
1 .96 .98 .96
1 .91 .89
1 .97
1
"""
"""Table 3.6 as printed (seed lines 1286–1298; original Census): rows A1 … A13, columns
A7 … A13 (rows A1–A6) or A_i … A13 (rows A7–A13, diagonal first)."""

PAPER_3_7 = """
-.0035 -.035 -.055 .034 .035 .042 .04
1 .18 .39 .8 .81 .8 .78
.79 -.17 .084 .89 .9 .89 .89
.99 .23 .45 .82 .8 .81 .8
.86 .18 .4 .94 .92 .94 .93
.95 .2 .43 .77 .76 .76 .75
1 .2 .41 .8 .8 .79 .78
1 .68 -.15 -.18 -.15 -.16
1 .18 .14 .17 .16
1 .98 1 .99
1 .97 .97
1 1
1
"""
"""Table 3.7 as printed (seed lines 1307–1319; MDAV-ID, k = 12), same layout as Table 3.6."""


def printed_cells(text: str) -> dict[tuple[int, int], str]:
    """The 70 printed cells of a Table 3.6–3.9 layout: (i, j) 0-based, i ≤ j, j confidential →
    printed text (the 7 diagonal cells included)."""
    out: dict[tuple[int, int], str] = {}
    first = CONFIDENTIAL[0]
    for i, line in enumerate(text.strip().splitlines()):
        vals = line.split()
        cols = range(first, 13) if i < first else range(i, 13)
        if len(vals) != len(cols):
            raise ValueError(f"row A{i + 1}: {len(vals)} values for {len(cols)} columns")
        out.update({(i, j): v for j, v in zip(cols, vals, strict=True)})
    return out


def synthetic_census(seed: int = 0, n: int = 1080, m: int = 13) -> np.ndarray:
    """Seeded stand-in of the Census shape: log-normal attributes sharing a latent factor."""
    g = np.random.default_rng(np.random.SeedSequence([seed, 310]))
    f = g.standard_normal((n, 1))
    load = g.uniform(0.2, 0.95, size=(1, m))
    z = f * load + g.standard_normal((n, m)) * np.sqrt(1 - load ** 2)
    return np.round(np.exp(8 + 1.2 * z))


def load_census(data_dir: Any = None) -> np.ndarray | None:
    """The 1080 × 13 Census table, or None when census_casc.csv is not available."""
    p = data_file("census_casc.csv", data_dir)
    if p is None:
        return None
    return np.loadtxt(p, delimiter=",", skiprows=1)


def corr_experiment(x: np.ndarray, ks: tuple[int, ...] = KS, runs: int = 100, seed: int = 0,
                    confidential: tuple[int, ...] = CONFIDENTIAL, distance: str = "raw"
                    ) -> list[dict[str, Any]]:
    """Rows (k, method, mean, sd, runs) of the Table 3.10 experiment on ``x`` (MDAV distances
    on ``distance`` attributes: raw by default, see the module doc)."""
    rows = []
    conf = list(confidential)
    xf, _ = as_table(x)
    m = xf.shape[1]
    if not conf or len(set(conf)) != len(conf) or not all(
            isinstance(c, int | np.integer) and 0 <= c < m for c in conf):
        # what mdav_swap / ir_swap reject (the runs below call their swap step directly)
        raise InvalidParameter(f"confidential={confidential!r} must list distinct column "
                               f"indices < {m}")
    for k in ks:
        rid = mdav_id(x, k, distance=distance)
        d_id = correlation_differences(x, rid.released, conf)["values"]
        vals = {"MDAV-ID": [d_id] * runs, "MDAV-SWAP": [], "IR-SWAP": []}
        p_md = mdav_swap_partitions(x, k, conf, distance)
        p_ir = ir_swap_partitions(x, k, conf)
        # the partitions are fixed per k: their group orders once, then per run the draws of
        # mdav_swap(x, k, confidential=conf, rng=g, partitions=p_md).released and of
        # ir_swap(..., partitions=p_ir).released, in that order (swap_released)
        o_md = {c: group_order(p_md[c]) for c in conf}
        o_ir = {c: group_order(p_ir[c]) for c in conf}
        streams = np.random.SeedSequence([seed, 3, 10, k]).spawn(runs)
        for s in streams:
            g = np.random.default_rng(s)
            a = swap_released(xf, o_md, g)
            b = swap_released(xf, o_ir, g)
            vals["MDAV-SWAP"].append(correlation_differences(x, a, conf)["values"])
            vals["IR-SWAP"].append(correlation_differences(x, b, conf)["values"])
        for meth in METHODS:
            v = np.concatenate(vals[meth])
            rows.append({"k": k, "method": meth, "mean": float(v.mean()),
                         "sd": float(v.std()), "runs": runs})
    return rows


# ---- readings of Table 3.10 (issue 31) ------------------------------------------------------
PAIRS = ("confidential-pairs", "printed-cells", "qi-confidential", "all-pairs")
CORRELATIONS = ("pearson", "spearman")
DISTANCES = ("raw", "standardised")
MDAV_ON = ("all-attributes", "quasi-identifiers")
IR_LARGE_GROUP = ("largest", "smallest")
STATISTICS = ("runs-and-pairs", "run-means", "one-run", "run-maxima")


@attrs.frozen
class Reading:
    """One way of computing Table 3.10 that the text allows (module doc).

    * ``pairs`` — the |Δcorr| cells pooled: the 63 pairs with a confidential attribute
      (``confidential-pairs``), the 70 cells printed in Tables 3.6–3.9 (those 63 and the 7
      diagonal cells, whose |Δ| is 0: ``printed-cells``), the 42 quasi-identifier ×
      confidential pairs, or all 78 attribute pairs;
    * ``correlation`` — Pearson or Spearman (average ranks for ties);
    * ``distance`` — MDAV's record distance on raw or standardised attributes;
    * ``mdav_on`` — ``all-attributes``: MDAV-ID on all 13 attributes, MDAV-SWAP on the 12 other
      than the swapped one (informed intruders, §3.3.2); ``quasi-identifiers``: MDAV on A1–A6,
      MDAV-ID replaces A1–A6 by centroids, MDAV-SWAP permutes each confidential attribute within
      those groups (the §3.4 method list, §3.3.1);
    * ``ir_large_group`` — where IR-SWAP's group of k … 2k − 1 records sits: at the largest
      values (ranks cut from the smallest) or at the smallest (cut from the largest);
    * ``statistic`` — mean and sd of every |Δ| of every run (``runs-and-pairs``), of the runs'
      means over the pairs (``run-means``), of the pairs of the first run (``one-run``), or of
      the runs' maxima over the pairs (``run-maxima``).
    """

    pairs: str = attrs.field(default="confidential-pairs", validator=attrs.validators.in_(PAIRS))
    correlation: str = attrs.field(default="pearson",
                                   validator=attrs.validators.in_(CORRELATIONS))
    distance: str = attrs.field(default="raw", validator=attrs.validators.in_(DISTANCES))
    mdav_on: str = attrs.field(default="all-attributes", validator=attrs.validators.in_(MDAV_ON))
    ir_large_group: str = attrs.field(default="largest",
                                      validator=attrs.validators.in_(IR_LARGE_GROUP))
    statistic: str = attrs.field(default="runs-and-pairs",
                                 validator=attrs.validators.in_(STATISTICS))

    @property
    def label(self) -> str:
        return (f"{self.pairs} / {self.correlation} / {self.distance} / MDAV on "
                f"{self.mdav_on} / IR large group at the {self.ir_large_group} / "
                f"{self.statistic}")

    def label_for(self, method: str) -> str:
        """The choices ``method``'s cells depend on (IR-SWAP: not the MDAV ones)."""
        mid = (f"IR large group at the {self.ir_large_group}" if method == "IR-SWAP"
               else f"{self.distance} / MDAV on {self.mdav_on}")
        return f"{self.pairs} / {self.correlation} / {mid} / {self.statistic}"


LAB = Reading()
"""The reading of the rows (:func:`corr_experiment`)."""
READINGS: tuple[Reading, ...] = tuple(
    Reading(pairs=p, correlation=c, distance=d, mdav_on=o, ir_large_group=g, statistic=s)
    for p, c, d, o, g, s in itertools.product(PAIRS, CORRELATIONS, DISTANCES, MDAV_ON,
                                              IR_LARGE_GROUP, STATISTICS))
"""Every reading the text allows, :data:`LAB` first."""


def _pearson(a: np.ndarray) -> np.ndarray:
    """Pearson correlation matrix of the columns (a constant column correlates 0 with all)."""
    sd = a.std(axis=0)
    z = (a - a.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
    c = (z.T @ z) / a.shape[0]
    c[:, sd == 0] = 0.0
    c[sd == 0, :] = 0.0
    return c


def _correlations(a: np.ndarray) -> dict[str, np.ndarray]:
    from scipy.stats import rankdata

    return {"pearson": _pearson(a), "spearman": _pearson(rankdata(a, axis=0))}


def _masks(m: int, conf: tuple[int, ...]) -> dict[str, np.ndarray]:
    """Boolean (m, m) masks of the cells of each ``pairs`` reading (row-major order)."""
    isc = np.zeros(m, dtype=bool)
    isc[list(conf)] = True
    upper = np.triu(np.ones((m, m), dtype=bool), 1)
    with_conf = isc[:, None] | isc[None, :]
    return {"confidential-pairs": upper & with_conf,
            "printed-cells": (upper & with_conf) | np.diag(isc),
            "qi-confidential": upper & ~isc[:, None] & isc[None, :],
            "all-pairs": upper}


def _ir_partitions(x: np.ndarray, k: int, conf: tuple[int, ...], large: str
                   ) -> dict[int, np.ndarray]:
    """IR-SWAP groups per confidential column: ``largest`` — :func:`ir_swap_partitions`
    (ranks cut into groups of k from the smallest value, the last group at the largest
    values); ``smallest`` — the same ranks cut from the largest value down."""
    from privlab.mechanisms.microaggregation.ranking import consecutive_labels

    if large == "largest":
        return ir_swap_partitions(x, k, list(conf))
    m = x.shape[1]
    rest = tuple(x[:, j] for j in range(m - 1, -1, -1))
    return {c: consecutive_labels(np.lexsort((*rest, x[:, c]))[::-1], k) for c in conf}


def _mdav_config(x: np.ndarray, k: int, conf: tuple[int, ...], distance: str, on: str
                 ) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """MDAV-ID's release and MDAV-SWAP's partitions for one (distance, mdav_on)."""
    from privlab.mechanisms.microaggregation.core import centroids_of
    from privlab.mechanisms.microaggregation.mdav_algorithm import mdav_labels

    if on == "all-attributes":
        return (mdav_id(x, k, distance=distance).released,
                mdav_swap_partitions(x, k, list(conf), distance))
    qi = [j for j in range(x.shape[1]) if j not in conf]
    lab = mdav_labels(np.ascontiguousarray(x[:, qi]), k, distance)
    rid = x.copy()
    rid[:, qi] = centroids_of(np.ascontiguousarray(x[:, qi]), lab)[lab]
    return rid, {c: lab for c in conf}


@functools.cache
def _reading_deltas(data: bytes, shape: tuple[int, ...], ks: tuple[int, ...], runs: int,
                    seed: int, conf: tuple[int, ...]) -> dict[Any, np.ndarray]:
    """|Δcorr| matrices ``(runs, m, m)`` per (k, method, configuration, correlation), where the
    configuration is (distance, mdav_on) for the MDAV methods and ir_large_group for IR-SWAP.

    Run s draws from child s of ``SeedSequence([seed, 3, 10, k])`` as :func:`corr_experiment`
    does: first the :data:`LAB` MDAV-SWAP, then the LAB IR-SWAP (so the LAB reading's runs are
    the rows'), then the other configurations in a fixed order.  Memoised per process."""
    x = np.frombuffer(data, dtype=float).reshape(shape).copy()
    c0 = _correlations(x)
    mdav_cfgs = [(LAB.distance, LAB.mdav_on)] + [
        (d, o) for d in DISTANCES for o in MDAV_ON if (d, o) != (LAB.distance, LAB.mdav_on)]
    ir_cfgs = [LAB.ir_large_group] + [g for g in IR_LARGE_GROUP if g != LAB.ir_large_group]
    out: dict[Any, np.ndarray] = {}
    for k in ks:
        md = {cfg: _mdav_config(x, k, conf, *cfg) for cfg in mdav_cfgs}
        orders: dict[tuple[str, Any], dict[int, tuple[np.ndarray, np.ndarray]]] = {
            ("MDAV-SWAP", cfg): {c: group_order(p[c]) for c in conf}
            for cfg, (_, p) in md.items()}
        for large in ir_cfgs:
            p_ir = _ir_partitions(x, k, conf, large)
            orders["IR-SWAP", large] = {c: group_order(p_ir[c]) for c in conf}
        for cfg, (rid, _) in md.items():
            cr = _correlations(rid)
            for kind in CORRELATIONS:
                d = np.abs(cr[kind] - c0[kind])
                out[k, "MDAV-ID", cfg, kind] = np.broadcast_to(d, (runs, *d.shape))
        acc: dict[Any, list[np.ndarray]] = {}
        sequence = [("MDAV-SWAP", mdav_cfgs[0]), ("IR-SWAP", ir_cfgs[0])] + [
            ("MDAV-SWAP", cfg) for cfg in mdav_cfgs[1:]] + [
            ("IR-SWAP", large) for large in ir_cfgs[1:]]
        for s in np.random.SeedSequence([seed, 3, 10, k]).spawn(runs):
            g = np.random.default_rng(s)
            for key in sequence:
                cr = _correlations(swap_released(x, orders[key], g))
                for kind in CORRELATIONS:
                    acc.setdefault((k, *key, kind), []).append(np.abs(cr[kind] - c0[kind]))
        out.update({key: np.array(v) for key, v in acc.items()})
    return out


def reading_cells(x: np.ndarray, ks: tuple[int, ...] = KS, runs: int = 100, seed: int = 0,
                  readings: tuple[Reading, ...] = READINGS,
                  confidential: tuple[int, ...] = CONFIDENTIAL
                  ) -> dict[Reading, list[dict[str, Any]]]:
    """Rows (k, method, mean, sd) of Table 3.10 under each reading (module doc)."""
    xf, _ = as_table(x)
    conf = tuple(int(c) for c in confidential)
    deltas = _reading_deltas(xf.tobytes(), xf.shape, tuple(ks), runs, seed, conf)
    masks = _masks(xf.shape[1], conf)
    out: dict[Reading, list[dict[str, Any]]] = {}
    for rd in readings:
        rows = []
        for k in ks:
            for meth in METHODS:
                cfg = rd.ir_large_group if meth == "IR-SWAP" else (rd.distance, rd.mdav_on)
                d = deltas[k, meth, cfg, rd.correlation][:, masks[rd.pairs]]
                if rd.statistic == "runs-and-pairs":
                    v = d.ravel()
                elif rd.statistic == "run-means":
                    v = d.mean(axis=1)
                elif rd.statistic == "one-run":
                    v = d[0]
                else:
                    v = d.max(axis=1)
                rows.append({"k": k, "method": meth, "mean": float(v.mean()),
                             "sd": float(v.std())})
        out[rd] = rows
    return out


def reading_summary(by_reading: dict[Reading, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Each reading's cells against the printed Table 3.10 under the printed-number rule
    (:func:`privlab.proofs.printed.compare_table`): matches in all, per column and per method,
    the median |relative error| of the means, and the matching cells' labels."""
    out = []
    for rd, rows in by_reading.items():
        pairs, labels = [], []
        for r in rows:
            if r["k"] not in PAPER_3_10:
                continue
            pm, ps = PAPER_3_10[r["k"]][METHODS.index(r["method"])]
            for col, p in (("mean", pm), ("sd", ps)):
                pairs.append((r[col], p.text if isinstance(p, Printed) else repr(float(p))))
                labels.append(f"k={r['k']} {r['method']} {col}")
        res = compare_table(pairs, labels)
        ok = [c["cell"] for c in res["cells"] if c["matches"]]
        rel = [abs(c["relative_error"]) for c in res["cells"]
               if c["cell"].endswith("mean") and c["relative_error"] is not None]
        rel_by = {m: [c["relative_error"] for c in res["cells"] if c["cell"].endswith("mean")
                      and f" {m} " in c["cell"] and c["relative_error"] is not None]
                  for m in METHODS}
        out.append({"reading": rd, "label": rd.label, "rule": res["rule"],
                    "cells": len(res["cells"]), "matches": len(ok),
                    "by_column": {col: sum(c.endswith(col) for c in ok) for col in ("mean", "sd")},
                    "by_method": {m: sum(f" {m} " in c for c in ok) for m in METHODS},
                    "median_relative_error_mean": float(np.median(rel)) if rel else None,
                    "relative_errors_mean_by_method": rel_by,
                    "matching": ok})
    return out


def _reading_notes(summary: list[dict[str, Any]], listed: int = 5) -> tuple[str, ...]:
    """The notes of the readings: the LAB reading, the best ones, the best per method, the
    nearest by relative error, and the cells no reading matches."""
    if not summary:
        return ()
    total = summary[0]["cells"]
    lab = next(s for s in summary if s["reading"] == LAB)

    def line(s: dict[str, Any]) -> str:
        return (f"{s['label']}: {s['matches']} of {s['cells']} cells (mean "
                f"{s['by_column']['mean']}, sd {s['by_column']['sd']}; "
                + ", ".join(f"{m} {n}" for m, n in s["by_method"].items())
                + f"; median |relative error| of the means "
                  f"{100 * s['median_relative_error_mean']:.0f} %)")

    notes = [f"Readings (issue 31): the text does not say how Table 3.10 pools |Δcorr|; "
             f"{len(summary)} readings computed (pairs × correlation × MDAV distance × MDAV "
             "attributes × IR-SWAP large group × statistic, ch3_tables.READINGS), each counted "
             f"against the {total} printed cells under the printed-number rule.",
             "Reading of the rows: " + line(lab) + "."]
    best = sorted(summary, key=lambda s: (-s["matches"], s["median_relative_error_mean"]))
    notes.append(f"Most matches ({listed} best): " + "; ".join(
        f"[{i + 1}] " + line(s) for i, s in enumerate(best[:listed])) + ".")
    for meth in METHODS:
        b = max(summary, key=lambda s: (s["by_method"][meth], -s["median_relative_error_mean"]))

        def worst(s: dict[str, Any], meth: str = meth) -> float:
            return float(np.max(np.abs(s["relative_errors_mean_by_method"][meth])))

        nb = min(summary, key=worst)
        errs = nb["relative_errors_mean_by_method"][meth]
        notes.append(f"{meth}: at most {b['by_method'][meth]} of {total // len(METHODS)} of its "
                     f"cells match under one reading ({b['reading'].label_for(meth)}); its "
                     f"nearest reading (smallest largest |relative error| of the means: "
                     f"{nb['reading'].label_for(meth)}) has means {100 * min(errs):+.0f} % … "
                     f"{100 * max(errs):+.0f} % from the printed ones.")
    near = min(summary, key=lambda s: max(abs(e) for v in s["relative_errors_mean_by_method"]
                                          .values() for e in v))
    errs = [e for v in near["relative_errors_mean_by_method"].values() for e in v]
    notes.append("Nearest reading overall (smallest largest |relative error| of the means, "
                 f"{100 * min(errs):+.0f} % … {100 * max(errs):+.0f} %): " + line(near) + ".")
    matched = {c for s in summary for c in s["matching"]}
    never = [f"k={k} {m} {col}" for k in PAPER_3_10 for m in METHODS for col in ("mean", "sd")
             if f"k={k} {m} {col}" not in matched]
    notes.append(f"Any reading: {total - len(never)} of {total} cells match under at least one "
                 f"reading; {len(never)} match under none"
                 + (": " + ", ".join(never[:12]) + (", …" if len(never) > 12 else "")
                    if never else "") + ".")
    return tuple(notes)


def table_3_7_consistency(x: np.ndarray) -> dict[str, Any]:
    """What the printed single run of Table 3.7 (MDAV-ID, k = 12; MDAV-ID is deterministic)
    implies for Table 3.10's MDAV-ID cell at k = 12, beside the lab's MDAV-ID (raw distances)
    at k = 11 and 12 and the printed Table 3.10 cell at k = 11.

    Pooling over the 63 off-diagonal cells and over the 70 printed cells (diagonal |Δ| = 0);
    the printed Table 3.7 is compared with the printed Table 3.6 and with the computed Census
    correlations.  Also: how many of the 70 printed cells of Tables 3.6 and 3.7 the computed
    correlations match under the printed-number rule."""
    c0 = _pearson(np.asarray(x, dtype=float))
    t6, t7 = printed_cells(PAPER_3_6), printed_cells(PAPER_3_7)
    off = [c for c in t7 if c[0] != c[1]]

    def stat(vals: list[float]) -> dict[str, float]:
        return {"mean": float(np.mean(vals)), "sd": float(np.std(vals))}

    implied = {}
    for name, orig in (("printed Table 3.6", {c: float(t6[c]) for c in t6}),
                       ("computed Census", {c: float(c0[c]) for c in t7})):
        for pool, cells in (("63 pairs", off), ("70 printed cells", list(t7))):
            implied[f"{pool}, against the {name}"] = stat(
                [abs(float(t7[c]) - orig[c]) for c in cells])
    lab = {}
    match_7 = None
    for k in (11, 12):
        ck = _pearson(mdav_id(x, k, distance="raw").released)
        for pool, cells in (("63 pairs", off), ("70 printed cells", list(t7))):
            lab[f"k={k}, {pool}"] = stat([abs(float(ck[c] - c0[c])) for c in cells])
        if k == 12:
            match_7 = sum(matches_printed(float(ck[c]), t7[c]) for c in t7)
    match_6 = sum(matches_printed(float(c0[c]), t6[c]) for c in t6)
    pm, ps = PAPER_3_10[11][0]
    return {"implied_k12": implied, "lab_mdav_id": lab,
            "printed_3_10_k11": {"mean": pm, "sd": ps},
            "table_3_6_cells_matched": match_6, "table_3_7_cells_matched_by_lab_k12": match_7,
            "cells": len(t7)}


def _consistency_note(c: dict[str, Any]) -> str:
    imp = "; ".join(f"{k}: {v['mean']:.3f} (sd {v['sd']:.3f})"
                    for k, v in c["implied_k12"].items())
    lab = "; ".join(f"{k}: {v['mean']:.3f} (sd {v['sd']:.3f})"
                    for k, v in c["lab_mdav_id"].items())
    p = c["printed_3_10_k11"]
    pm = float(p["mean"])
    steps = []
    for pool in ("70 printed cells", "63 pairs"):
        implied = c["implied_k12"][f"{pool}, against the computed Census"]["mean"]
        step = (c["lab_mdav_id"][f"k=12, {pool}"]["mean"]
                - c["lab_mdav_id"][f"k=11, {pool}"]["mean"])
        gap = implied - pm
        steps.append(f"{pool}: the printed k = 11 mean is {abs(gap):.3f} "
                     f"{'below' if gap > 0 else 'above'} the k = 12 value Table 3.7 implies, "
                     f"while the lab's MDAV-ID changes by {step:+.3f} from k = 11 to 12")
    text = p["mean"].text if isinstance(p["mean"], Printed) else str(p["mean"])
    sd = p["sd"].text if isinstance(p["sd"], Printed) else str(p["sd"])
    return (f"Table 3.7 vs Table 3.10 (MDAV-ID is deterministic): the printed Table 3.7 "
            f"(k = 12) implies mean |Δcorr| {imp}.  The lab's MDAV-ID (raw distances), which "
            f"matches {c['table_3_7_cells_matched_by_lab_k12']} of the {c['cells']} printed "
            f"cells of Table 3.7 (the computed Census correlations match "
            f"{c['table_3_6_cells_matched']} of the {c['cells']} of Table 3.6), gives {lab}.  "
            f"Table 3.10 prints {text} (sd {sd}) at k = 11; against the computed Census "
            f"correlations, {'; '.join(steps)}.")


def table_thesis_3_10(data_dir: Any = None, runs: int | None = None, seed: int = 0) -> Table:
    """Table 3.10 (module doc).  Without arguments: Census with 100 runs when the file is
    there, else synthetic data with 10 runs."""
    x = load_census(data_dir)
    real = x is not None
    if x is None:
        x = synthetic_census(seed)
    runs = runs if runs is not None else (100 if real else 10)
    rows = corr_experiment(x, KS, runs, seed)
    out = []
    for r in rows:
        pm, ps = PAPER_3_10[r["k"]][METHODS.index(r["method"])]
        out.append({**r, "paper_mean": pm if real else None, "paper_sd": ps if real else None})
    from privlab.proofs.provenance import provenance

    src = ("census_casc.csv (1080 × 13)" if real else
           "synthetic stand-in of the Census shape (1080 × 13, seeded; census_casc.csv absent)")
    prov = provenance("census_casc.csv", int(x.shape[0]), synthetic=not real)
    notes = [
        f"Data: {src}; {runs} runs per k (MDAV-ID is deterministic).",
        f"Provenance: name={prov['name']}, path={prov['path']}, rows={prov['rows']}, "
        f"sha256={prov['sha256']}.",
        "Attributes 1–6 non-confidential quasi-identifiers, 7–13 confidential (§3.4.1). "
        "MDAV-ID: MDAV on all 13 raw attributes (raw distances reproduce Table 3.7), "
        "centroids.  MDAV-SWAP: per confidential attribute, MDAV on the other 12, values "
        "permuted within groups.  IR-SWAP: per confidential attribute, individual-ranking "
        "groups on it (the group of k … 2k − 1 at the largest values), values permuted within "
        "groups.",
        "|Δcorr| pooled over runs and the 63 attribute pairs with a confidential attribute "
        "(diagonal excluded); sd with ddof = 0.",
        "paper_mean / paper_sd: Table 3.10 as printed (only shown next to the Census run).",
    ]
    if real:
        notes += list(_reading_notes(reading_summary(reading_cells(x, KS, runs, seed))))
        notes.append(_consistency_note(table_3_7_consistency(x)))
    return Table(id="thesis-3.10", source=f"{F} §3.4.1 Table 3.10",
                 columns=("k", "method", "mean", "sd", "paper_mean", "paper_sd", "runs"),
                 rows=tuple(out), notes=tuple(notes))


TABLES: dict[str, Any] = {"thesis-3.10": table_thesis_3_10}
