"""Report section: the microaggregation family, its insensitivity, probabilistic k-anonymity and
risk/utility (thesis §2.8, ch.3, §6.2–6.3.3; irm §2.1, §4.2).

Runs MDAV, insensitive MDAV, Algorithm 6.1 with the Hamming corner sequence and individual
ranking on seeded synthetic data (declared domain), measures SSE, record linkage, relative
error, JSD and variance loss, runs the Definition 12 checker (MDAV and the literal Prop. 6
reading must be broken with a counterexample; the insensitive variants must survive), the
exact Definition 5 checker on MDAV-SWAP / IR-SWAP (and two broken controls), and the swap
methods' correlation preservation.
"""

from __future__ import annotations

from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from privlab._io import save_figure
from privlab.mechanisms.microaggregation import microaggregate
from privlab.mechanisms.microaggregation.prob_kanon import ir_swap, mdav_id, mdav_swap
from privlab.metrics import (
    check_k_anonymity,
    correlation_differences,
    delta_variance,
    js_divergence,
    record_linkage,
    relative_error,
    sse,
)
from privlab.report.section import Context, Figure, Guarantee, Section
from privlab.types import Table
from privlab.verify.microaggregation.insensitivity import check_insensitive
from privlab.verify.microaggregation.prob_kanon import check_probabilistic_k_anonymity

METHODS = ("mdav", "insensitive-mdav", "insensitive-corners", "individual-ranking")
BOUNDS = (0.0, 100.0)


def _data(ctx: Context, n: int, m: int = 3) -> np.ndarray:
    g = ctx.rng("microaggregation-data")
    f = g.standard_normal((n, 1))
    z = 0.7 * f + 0.7 * g.standard_normal((n, m))
    return np.clip(np.round(50 + 15 * z, 1), *BOUNDS)


def _releases(x: np.ndarray, ks: tuple[int, ...]) -> tuple[list[dict[str, Any]],
                                                          list[Guarantee]]:
    rows, gs = [], []
    b = [BOUNDS] * x.shape[1]
    for k in ks:
        for meth in METHODS:
            r = microaggregate(meth, x, k, bounds=b if meth != "mdav" else None)
            ok_sizes = r.min_group_size >= k and r.max_group_size <= 2 * k - 1
            means = all(np.allclose(r.centroids[i], x[rows_].mean(axis=0))
                        for i, rows_ in enumerate(r.groups())) if r.labels.ndim == 1 else True
            kanon = check_k_anonymity(r.released, k).holds if r.labels.ndim == 1 else None
            rows.append({"k": k, "method": meth, "groups": r.n_groups,
                         "min_size": r.min_group_size, "max_size": r.max_group_size,
                         "sse_rel": sse(x, r.released, normalise=True),
                         "rl_percent": record_linkage(x, r.released),
                         "relative_error": relative_error(x, r.released, bounds=b),
                         "jsd": js_divergence(x, r.released, bounds=b),
                         "delta_var": float(np.mean(delta_variance(x, r.released))),
                         "k_anonymous": kanon})
            gs.append(Guarantee(description=f"{meth}, k = {k}: groups of k … 2k − 1 records, "
                                "centroids are means" + (", release k-anonymous"
                                                         if kanon is not None else ""),
                                holds=ok_sizes and means and kanon is not False,
                                evidence={"min": r.min_group_size, "max": r.max_group_size}))
    return rows, gs


def _checker(ctx: Context) -> tuple[list[dict[str, Any]], list[Guarantee], dict[str, Any]]:
    rows, gs, cexs = [], [], {}
    examples = 60 if ctx.quick else 300
    expect = {"mdav": False, "insensitive-mdav-literal": False, "insensitive-mdav": True,
              "insensitive-corners": True, "individual-ranking": True}
    for alg, should_hold in expect.items():
        for k in (2, 3):
            r = check_insensitive(alg, k=k, hypothesis_examples=examples)
            c = r.counterexample
            rows.append({"algorithm": alg, "k": k, "insensitive": r.holds,
                         "pairs_exhaustive": r.value,
                         "hypothesis_examples": r.evidence["hypothesis"].get("examples", 0),
                         "counterexample_n": c["n"] if c else None,
                         "counterexample_m": c["m"] if c else None,
                         "x": c["x"] if c else None, "x_prime": c["x_prime"] if c else None})
            if c and k == 2:
                cexs[alg] = c
            what = ("broken control caught: checker finds a counterexample for"
                    if not should_hold else "checker finds no counterexample for")
            gs.append(Guarantee(description=f"{what} {alg}, k = {k}",
                                holds=r.holds == should_hold,
                                evidence={"pairs": r.value, "counterexample": c}))
    return rows, gs, cexs


def _prob_kanon() -> tuple[list[dict[str, Any]], list[Guarantee]]:
    q = np.array([[1, 5], [2, 3], [3, 9], [4, 1], [5, 2], [6, 7]], dtype=float)
    c = np.array([10, 40, 20, 50, 30, 60], dtype=float)
    cases = [("mdav-swap", "uniform", 3, True), ("ir-swap", "uniform", 3, True),
             ("ir-swap", "uniform", 2, True), ("ir-swap", "reverse", 3, False),
             ("ir-swap-small-groups", "uniform", 3, False)]
    rows, gs = [], []
    for meth, mech, k, ok in cases:
        r = check_probabilistic_k_anonymity(q, c, k, method=meth, mechanism=mech)
        rows.append({"method": meth, "swap": mech, "k": k,
                     "max_posterior": str(r.evidence["max_posterior"]),
                     "max_success": str(r.evidence["max_success"]), "bound": f"1/{k}",
                     "holds": r.holds})
        label = ("exact Definition 5 check passes" if ok else
                 "broken control caught by the exact Definition 5 check:")
        gs.append(Guarantee(description=f"{label} {meth} ({mech} swap), k = {k}",
                            holds=r.holds == ok,
                            evidence={"max_posterior": r.evidence["max_posterior"]}))
    return rows, gs


def _swaps(ctx: Context, runs: int) -> list[dict[str, Any]]:
    g = ctx.rng("microaggregation-swaps")
    n = 1080 if not ctx.quick else 300
    f = g.standard_normal((n, 1))
    x = np.exp(8 + 1.2 * (0.8 * f + 0.6 * g.standard_normal((n, 8))))
    conf = list(range(4, 8))
    out = []
    for k in (5, 25):
        d_id = correlation_differences(x, mdav_id(x, k, distance="raw").released, conf)
        vals: dict[str, list[np.ndarray]] = {"MDAV-SWAP": [], "IR-SWAP": []}
        for _ in range(runs):
            vals["MDAV-SWAP"].append(correlation_differences(
                x, mdav_swap(x, k, confidential=conf, rng=g, distance="raw").released,
                conf)["values"])
            vals["IR-SWAP"].append(correlation_differences(
                x, ir_swap(x, k, confidential=conf, rng=g).released, conf)["values"])
        out.append({"k": k, "method": "MDAV-ID", "mean": d_id["mean"], "sd": d_id["sd"]})
        for meth, v in vals.items():
            a = np.concatenate(v)
            out.append({"k": k, "method": meth, "mean": float(a.mean()), "sd": float(a.std())})
    return out


def _figure(ctx: Context, rows: list[dict[str, Any]], cex: dict[str, Any]) -> Figure:
    g = ctx.rng("microaggregation-figure")
    pts = np.clip(np.round(g.uniform(5, 95, size=(30, 2))), 0, 100)
    pts2 = pts.copy()
    moved = int(np.argmax(pts.sum(axis=1)))
    pts2[moved] = [3.0, 4.0]
    fig, ax = plt.subplots(2, 3, figsize=(11.9, 7.1))
    fig.subplots_adjust(left=0.051, right=0.983, bottom=0.071, top=0.959, wspace=0.239,
                        hspace=0.271)
    for col, meth in enumerate(("mdav", "insensitive-mdav", "insensitive-corners")):
        for row, data in enumerate((pts, pts2)):
            a = ax[row, col]
            r = microaggregate(meth, data, 5, bounds=[BOUNDS] * 2 if meth != "mdav" else None)
            a.scatter(data[:, 0], data[:, 1], c=r.labels, cmap="tab10", vmin=0, vmax=9, s=25)
            a.scatter(r.centroids[:, 0], r.centroids[:, 1], marker="x", c="k", s=60)
            a.scatter(*data[moved], s=160, facecolors="none", edgecolors="red", linewidths=1.5,
                      label="the record that moves")
            if row == 1:
                a.annotate("", xy=data[moved], xytext=pts[moved], arrowprops={
                    "arrowstyle": "->", "color": "red", "lw": 1, "alpha": 0.6})
            a.set(xlim=(0, 100), ylim=(0, 100), xticks=[0, 50, 100], yticks=[0, 50, 100],
                  xlabel="attribute 1", ylabel="attribute 2")
            a.tick_params(labelsize=8)
            if row == 0 and col == 0:
                a.legend(loc="upper left", fontsize=7, frameon=False)
            a.set_title(f"{meth}, {'X' if row == 0 else 'X′ (one record moved)'}", fontsize=9)
    save_figure(fig, ctx.figure_path("microaggregation"))
    return Figure(file="microaggregation.png", caption=(
        "Clusters (colours) and centroids (×) with k = 5 on 30 records (top) and after moving "
        "the top-right record (red circle; arrow: its move) to the lower-left corner (bottom) "
        "— thesis Figs. 6.1–6.3; axes: the two attributes on their domain [0, 100]. "
        "MDAV regroups; insensitive MDAV (one reference point at the lower corner) and "
        "Algorithm 6.1 with the corner sequence shift each cluster by at most one record."))


def build(ctx: Context) -> Section:
    n = 400 if ctx.quick else 2000
    x = _data(ctx, n)
    ks = (3, 5, 10)
    ctx.progress(f"microaggregation: releases on synthetic data (n = {n})")
    rel_rows, guarantees = _releases(x, ks)
    ctx.progress("microaggregation: insensitivity checker")
    chk_rows, chk_g, cexs = _checker(ctx)
    guarantees += chk_g
    ctx.progress("microaggregation: probabilistic k-anonymity (exact)")
    pk_rows, pk_g = _prob_kanon()
    guarantees += pk_g
    swap_rows = _swaps(ctx, 3 if ctx.quick else 20)
    fig = _figure(ctx, rel_rows, cexs)
    m_cex = cexs.get("mdav")
    results = [
        Table(id="microaggregation-utility-risk", source=f"synthetic, n = {n}, m = 3, domain "
              f"[0, 100]^3 (seeded)", columns=tuple(rel_rows[0]), rows=tuple(rel_rows),
              notes=("sse_rel: SSE / total sum of squares; rl_percent: record linkage % "
                     "(nearest record on standardised attributes, ties shared); relative_error "
                     "with sanity bound range/100; jsd: mean Jensen–Shannon divergence of "
                     "100-bin histograms; delta_var: mean relative variance loss.",)),
        Table(id="microaggregation-insensitivity",
              source="privlab.verify.microaggregation.insensitivity",
              columns=tuple(chk_rows[0]), rows=tuple(chk_rows),
              notes=("Exhaustive over multisets of n ∈ [2k, 2k + 2] records on grids of 2–4 "
                     "values per attribute (m = 1, 2), then hypothesis (derandomized).  The "
                     "counterexample shown is the smallest found (fewest records first).",)),
        Table(id="microaggregation-prob-k-anonymity",
              source="privlab.verify.microaggregation.prob_kanon",
              columns=tuple(pk_rows[0]), rows=tuple(pk_rows),
              notes=("Exact rational intruder on 6 records over every realisation of the "
                     "swap; max_posterior must be ≤ 1/k (ineq. 3.1), max_success is the "
                     "intruder's probability of a correct link.",)),
        Table(id="microaggregation-swaps", source="synthetic log-normal 8 attributes (4 "
              "confidential), seeded", columns=("k", "method", "mean", "sd"),
              rows=tuple(swap_rows), notes=("Mean and s.d. of |Δcorr| to the confidential "
                                            "attributes (as thesis Table 3.10).",)),
    ]
    cex_txt = (f"X = {m_cex['x']} → X′ = {m_cex['x_prime']}" if m_cex else "(none found)")
    summary = (
        f"Data: seeded synthetic table, n = {n}, 3 attributes on the declared domain "
        "[0, 100]^3.  MDAV (Algorithm 2.1, standardised distances, deterministic ties), "
        "insensitive MDAV (reference point at the lower corner, ties lexicographic, clusters "
        "from both ends of the order in a fixed pattern), Algorithm 6.1 with the Hamming corner "
        "sequence and individual ranking were run for k ∈ {3, 5, 10}; every group has k … 2k − "
        "1 records and the centroids are the means.  The Definition 12 checker breaks MDAV — "
        f"smallest counterexample for k = 2: {cex_txt} — and the literal reading of "
        "Proposition 6 (extra cluster at the end farther from the average), and finds no "
        "counterexample for the insensitive variants.  The exact Definition 5 checker gives "
        "re-identification probability 1/|G| for MDAV-SWAP and IR-SWAP and catches a "
        "deterministic swap and groups of k − 1.  See the ledger claims thesis:def-12, "
        "thesis:prop-6*, thesis:prop-7*, thesis:sec-3.3.1-* and table thesis-3.10.")
    return Section(id="microaggregation", title="Microaggregation, insensitivity and "
                   "probabilistic k-anonymity (thesis ch.3, §6.2–6.3; irm)", summary=summary,
                   results=results, figures=[fig], guarantees=guarantees)
