"""Reproduced tables of thesis ch.7 and ins15 (computed values beside the printed ones)."""

from __future__ import annotations

from fractions import Fraction
from operator import itemgetter
from pathlib import Path
from typing import Any

import numpy as np

from privlab._data import data_dir
from privlab.mechanisms.tcloseness.bucketization import release_t_close, utility
from privlab.proofs.tcloseness import checks as ck
from privlab.types import Table
from privlab.verify.tcloseness import crosstab, distance, emd_ordered

TH = "000_65177858bc9aa63c.txt"
INS = "002_06f1c381d8beeaa3.txt"
UTILITY_TS = (1.5, 2, 3, 5, 10)


def _paper_mass(t: int, row: str, j: int) -> str:
    """The printed cell, as extracted ("1/t+1", "t/t+1", "1/t(t+1)"), read with brackets."""
    if row == "original":
        return f"1/(t+1) = {Fraction(1, t + 1)}"
    i = int(row[1:]) - 1
    return f"t/(t+1) = {Fraction(t, t + 1)}" if i == j else \
        f"1/(t(t+1)) = {Fraction(1, t * (t + 1))}"


def _masses_table(tid: str, source: str, cls: str) -> Table:
    rows: list[dict[str, Any]] = []
    for t in (2, 3):
        n = 2 * t * (t + 1) ** 2
        rel = release_t_close(np.arange(n), t, 1)
        _, _, cnt = crosstab(rel.bucket, rel.group)
        glob, theory = ck.table_masses(t)
        for j in range(t + 1):
            rows.append({"t": t, "row": "original", "bucket": f"B{j + 1}",
                         "achieved_mass": Fraction(int(cnt[:, j].sum()), n),
                         "derived_mass": glob[j], "paper_mass": _paper_mass(t, "original", j),
                         "ratio_to_original": Fraction(1)})
        for i in range(t + 1):
            e = int(cnt[i].sum())
            for j in range(t + 1):
                q = Fraction(int(cnt[i, j]), e)
                rows.append({"t": t, "row": f"{cls}{i + 1}", "bucket": f"B{j + 1}",
                             "achieved_mass": q, "derived_mass": theory[i][j],
                             "paper_mass": _paper_mass(t, f"{cls}{i + 1}", j),
                             "ratio_to_original": q / glob[j]})
    return Table(id=tid, source=source, columns=("t", "row", "bucket", "achieved_mass",
                                                 "derived_mass", "paper_mass",
                                                 "ratio_to_original"),
                 rows=tuple(rows),
                 notes=("achieved_mass: privlab's construction on N = 2t(t+1)² records "
                        "(l = 1, printed count rule); derived_mass: solving the emphasis "
                        "equations; paper_mass: the printed cell, read with brackets "
                        "('t/t+1' as t/(t+1)).",))


def table_thesis_7_6() -> Table:
    return _masses_table("thesis-7.6", f"{TH} §7.2.2 Table 7.6", "P")


def table_ins15_1() -> Table:
    return _masses_table("ins15-1", f"{INS} §6.3 Table 1", "E")


def table_thesis_7_5() -> Table:
    """Table 7.5 as printed (group ids and buckets of the 12 records) and its distances."""
    groups = ["P1"] * 4 + ["P2"] * 4 + ["P3"] * 4
    buckets = ["B1", "B1", "B2", "B3", "B1", "B2", "B2", "B3", "B1", "B2", "B3", "B3"]
    glob = {b: Fraction(buckets.count(b), 12) for b in ("B1", "B2", "B3")}
    rows = []
    for p in ("P1", "P2", "P3"):
        mem = [b for b, g in zip(buckets, groups, strict=True) if g == p]
        q = {b: Fraction(mem.count(b), len(mem)) for b in glob}
        rows.append({"class": p, "size": len(mem), **{f"Q({b})": q[b] for b in glob},
                     "distance": distance(q, glob), "paper_t": "1.5"})
    return Table(id="thesis-7.5", source=f"{TH} §7.2 Table 7.5 / Fig. 7.5",
                 columns=("class", "size", "Q(B1)", "Q(B2)", "Q(B3)", "distance", "paper_t"),
                 rows=tuple(rows), notes=("Computed from the printed lower table of 7.5.",))


def table_rounding() -> Table:
    rows = []
    for r in ck.rounding_sweep():
        rows.append({k: (str(v) if isinstance(v, dict) else v) for k, v in r.items()})
    return Table(id="thesis-7.2.2-rounding", source=f"{TH} §7.2.2; {INS} §6.2",
                 columns=("t", "b", "cases", "printed_ok", "exact_needed", "infeasible_at_b",
                          "solved_with_fewer_buckets", "first_printed_failure",
                          "first_infeasible"), rows=tuple(rows),
                 notes=(f"All N ≤ {ck.SWEEP_N} and l = 1 … ⌊N/b²⌋, b = ⌈t⌉ + 1.  "
                        "printed_ok: the printed rule's counts respect every bound and add up "
                        "to the bucket sizes; exact_needed: they do not, but the exact integer "
                        "problem has a solution; infeasible_at_b: no t-close partition with "
                        "these class and bucket sizes exists (decided by max-flow).",))


def table_prop1() -> Table:
    return Table(id="ins15-prop1", source=f"{INS} §4 Proposition 1",
                 columns=("mechanism", "N", "E", "epsilon", "exact_t", "derived_bound",
                          "paper_formula", "exact_exceeds_paper"),
                 rows=tuple(ck.prop1_rows()),
                 notes=("Worst-case instance: the class at value 0, every other record at the "
                        "value Δ (1).  derived_bound = (|E| + (N−|E|)e^ε)/N (the proof's "
                        "second term); paper_formula = the printed (|E|/N)(1 + (N−|E|−1)e^ε/|E|)."
                        "  rr exact in Fractions (e^ε = Fraction(exp ε)), laplace mpmath 50 "
                        "digits, staircase float.",))


def load_census(data_dir: Path | str | None) -> tuple[np.ndarray, np.ndarray, list[str]] | None:
    """(confidential FEDTAX, QI matrix, QI names) from census_casc.csv, or None if absent."""
    if data_dir is None:
        return None
    path = Path(data_dir) / "census_casc.csv"
    if not path.exists():
        return None
    import csv

    with path.open() as fh:
        rows = list(csv.DictReader(fh))
    qi_names = ["AFNLWGT", "AGI", "EMCONTRB", "PTOTVAL"]
    c = np.array([float(r["FEDTAX"]) for r in rows])
    q = np.array([[float(r[k]) for k in qi_names] for r in rows])
    return c, q, qi_names


ADULT_QI = ["age", "education-num", "capital-gain", "capital-loss"]


def load_adult(data_dir: Path | str | None) -> tuple[np.ndarray, np.ndarray, list[str]] | None:
    """(confidential hours-per-week, numerical QIs) of adult.csv, rows with '?' removed (the
    standard cleaned Adult, 30 162 rows), or None if absent."""
    if data_dir is None or not (Path(data_dir) / "adult.csv").exists():
        return None
    import csv

    with (Path(data_dir) / "adult.csv").open() as fh:
        r = csv.reader(fh)
        header = next(r, [])
        raw = [row for row in r if row]  # csv.DictReader skips empty rows too
    if not all(len(row) == len(header) for row in raw):  # ragged: csv.DictReader's reading
        with (Path(data_dir) / "adult.csv").open() as fh:
            rows = [r for r in csv.DictReader(fh)
                    if "?" not in {v.strip() for v in r.values()}]
        c = np.array([float(r["hours-per-week"]) for r in rows])
        q = np.array([[float(r[k]) for k in ADULT_QI] for r in rows])
        return c, q, ADULT_QI
    # csv.DictReader's dict keeps the last column of a repeated name
    col = {h: i for i, h in enumerate(header)}
    ic, iq = col["hours-per-week"], [col[k] for k in ADULT_QI]
    # a row is dropped when a stripped field is "?"; rows without any "?" are kept as is
    kept = [row for row in raw
            if "?" not in "".join(row) or "?" not in {v.strip() for v in row}]
    # column by column (float of the same strings; q laid out row-major as np.array(rows))
    cols = [np.array(list(map(float, map(itemgetter(i), kept)))) for i in (ic, *iq)]
    q = np.empty((len(kept), len(iq)) if kept else (0,))  # np.array([]) has shape (0,)
    for j, v in enumerate(cols[1:] if kept else ()):
        q[:, j] = v
    return cols[0], q, ADULT_QI


def synthetic(n: int = 1080, seed: int = 0) -> tuple[np.ndarray, np.ndarray, list[str]]:
    rng = np.random.default_rng(seed)
    q = rng.lognormal(10, 0.6, size=(n, 3))
    c = 0.15 * q[:, 0] + rng.normal(0, 3000, n)
    return c, q, ["Q1", "Q2", "Q3"]


def utility_rows(c: np.ndarray, q: np.ndarray, *, seed: int = 0,
                 ts: tuple[Any, ...] = UTILITY_TS) -> list[dict[str, Any]]:
    rows = []
    for t in ts:
        rel = release_t_close(c, t, 1, qi=q)
        u = utility(rel, qi=q, rng=seed)
        emd, _ = emd_ordered(c, rel.group)
        rows.append({"t": t, "b": rel.plan.b, "k": rel.k, "method": rel.plan.method,
                     "sse_midpoint_rel": u["sse_midpoint_rel"],
                     "sse_permuted_rel": u["sse_permuted_rel"],
                     "corr_max_abs_change": u["corr_max_abs_change"],
                     "emd_t_of_release": float(emd)})
    return rows


def table_utility() -> Table:
    d = data_dir()
    sets = [("census_casc.csv (FEDTAX confidential)", load_census(d)),
            ("adult.csv (hours-per-week confidential)", load_adult(d))]
    found: list[tuple[str, tuple[np.ndarray, np.ndarray, list[str]]]] = [
        (name, x) for name, x in sets if x is not None] or [
        ("synthetic (seed 0, N = 1080)", synthetic())]
    rows = [{"data": name.split(" ")[0], **r} for name, (c, q, _) in found
            for r in utility_rows(c, q)]
    return Table(id="tcloseness-utility", source=f"{TH} §7.2; issue 7 experiments",
                 columns=("data", "t", "b", "k", "method", "sse_midpoint_rel",
                          "sse_permuted_rel", "corr_max_abs_change", "emd_t_of_release"),
                 rows=tuple(rows),
                 notes=("Data: " + "; ".join(f"{n}, QIs {x[2]}" for n, x in found) + ".  SSE "
                        "relative to the total sum of squares; corr: largest change of "
                        "corr(QI, C) after within-class permutation; emd_t_of_release: the "
                        "ordered-distance EMD t-closeness level the same release reaches (Li et "
                        "al. 2007).  Real data is read from the data directory (privlab._data: "
                        "--data-dir, $PRIVLAB_DATA_DIR or ../shared/data); Adult is the cleaned "
                        "30 162-row version (rows with '?' dropped).",))


TABLES = {"thesis-7.5": table_thesis_7_5, "thesis-7.6": table_thesis_7_6,
          "thesis-7.2.2-rounding": table_rounding, "ins15-1": table_ins15_1,
          "ins15-prop1": table_prop1, "tcloseness-utility": table_utility}
