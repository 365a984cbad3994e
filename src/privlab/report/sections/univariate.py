"""Report section: optimal univariate noise (staircase) against Laplace — thesis §4.1–4.4.

Certifies the optimal staircase for each objective and Laplace (exact DP, normalisation,
symmetry, safe-mode DP), tabulates what the staircase saves over ε, audits the correct
mechanisms (fast and safe release) and three deliberately broken controls, and draws the
densities (cf. Fig. 4.1), variance and CI against d (cf. Fig. 4.2–4.3), accuracy ratios over ε
and the audit bounds.
"""

from __future__ import annotations

from typing import Any

import attrs
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from privlab._io import save_figure
from privlab.audit import audit_mechanism
from privlab.mechanisms.noise._base import OBJECTIVES
from privlab.mechanisms.noise.controls import CONTROLS, make_control
from privlab.mechanisms.noise.laplace import Laplace
from privlab.mechanisms.noise.staircase import Staircase
from privlab.report.section import (
    Context,
    Figure,
    Section,
    audit_entry,
    certificate_guarantee,
)
from privlab.types import Table
from privlab.verify.noise.certify import certify_noise

EPS = 1.0
GRID = (0.1, 0.5, 1.0, 2.0, 5.0, 10.0)


@attrs.frozen
class SafeMode:
    """A noise law released in the floating-point-safe mode (what the auditor samples)."""

    law: Any

    @property
    def epsilon(self) -> float:
        return float(self.law.epsilon)

    @property
    def sensitivity(self) -> float:
        return float(self.law.sensitivity)

    @property
    def name(self) -> str:
        return f"{self.law.name}[safe]"

    def release(self, values: Any, *, rng: Any = None) -> Any:
        return self.law.release(values, rng=rng, mode="safe")


def _savings() -> Table:
    rows = []
    for e in GRID:
        lap = Laplace(epsilon=e)
        row: dict[str, Any] = {"epsilon": e}
        for obj, fn in (("variance", lambda m: m.variance()),
                        ("ci95", lambda m: m.ci_halfwidth(0.95)),
                        ("abs", lambda m: m.mean_abs())):
            s = Staircase.optimal(e, 1.0, obj)
            row[f"d*({obj})"] = s.d
            row[f"{obj}: staircase/laplace"] = float(fn(s) / fn(lap))
        rows.append(row)
    cols = ("epsilon", *(c for c in rows[0] if c != "epsilon"))
    return Table(id="univariate-savings", source="thesis §4.4, Fig. 4.2–4.3 (computed)",
                 columns=cols, rows=tuple(rows),
                 notes=("Δ = 1. d*(obj) is the member minimising the objective; the ratio is "
                        "staircase / Laplace(Δ/ε) for that objective (variance, 95 % CI "
                        "half-width, E|Y|), closed forms.  Below 1 the staircase is better; the "
                        "gain grows with ε.",))


def _fig_densities(path: Any) -> None:
    fig, axes = plt.subplots(1, 2, figsize=(8.47, 3.62))
    fig.subplots_adjust(left=0.073, right=0.988, bottom=0.148, top=0.914, wspace=0.2)
    for ax, e in zip(axes, (EPS, 5.0), strict=True):
        x = np.linspace(-4 / e, 4 / e, 2001) if e > 1 else np.linspace(-4, 4, 2001)
        lap = Laplace(epsilon=e)
        ax.plot(x, lap.pdf(x), label="Laplace(Δ/ε)", color="k")
        ax.plot(x, Staircase.from_laplace(lap).pdf(x), label="§4.3 redistribution (d = m)",
                ls="--")
        ax.plot(x, Staircase.optimal(e).pdf(x), label="optimal staircase (variance)", lw=1)
        ax.set(xlabel="noise y", ylabel="density", title=f"ε = {e:g}, Δ = 1 (cf. Fig. 4.1)")
        ax.legend(fontsize=7)
    save_figure(fig, path)


def _fig_vs_d(path: Any, what: str) -> None:
    fig, ax = plt.subplots(figsize=(6.14, 3.62))
    fig.subplots_adjust(left=0.1, right=0.984, bottom=0.148, top=0.914)
    d = np.linspace(0, 1, 201)
    for e in (0.5, 1.0, 2.0, 5.0):
        lap = Laplace(epsilon=e)
        if what == "variance":
            r = [Staircase(epsilon=e, d=x).variance() / lap.variance() for x in d]
        else:
            r = [Staircase(epsilon=e, d=x).ci_halfwidth(0.95) / lap.ci_halfwidth(0.95)
                 for x in d]
        ax.plot(d, r, label=f"ε = {e:g}")
    ax.axhline(1, color="k", lw=0.6)
    label = "variance" if what == "variance" else "95 % CI half-width"
    fig_no = "4.2" if what == "variance" else "4.3"
    ax.set(xlabel="d (Δ = 1)", ylabel=f"{label}: staircase / Laplace",
           title=f"Staircase {label} against d (cf. thesis Fig. {fig_no})")
    ax.legend(fontsize=8)
    save_figure(fig, path)


def _fig_ratio_eps(path: Any) -> None:
    eps = np.geomspace(0.05, 20, 60)
    fig, ax = plt.subplots(figsize=(6.25, 3.64))
    fig.subplots_adjust(left=0.116, right=0.984, bottom=0.152, top=0.914)
    for obj, fn in (("variance", lambda m: m.variance()),
                    ("ci95", lambda m: m.ci_halfwidth(0.95)),
                    ("abs", lambda m: m.mean_abs())):
        r = [fn(Staircase.optimal(float(e), 1.0, obj)) / fn(Laplace(epsilon=float(e)))
             for e in eps]
        ax.plot(eps, r, label=obj)
    ax.set(xscale="log", yscale="log", xlabel="ε", ylabel="optimal staircase / Laplace",
           title="What the optimal staircase saves over Laplace")
    ax.legend(fontsize=8)
    save_figure(fig, path)


def _fig_audits(path: Any, audits: list[dict[str, Any]]) -> None:
    fig, ax = plt.subplots(figsize=(7.41, 3.62))
    fig.subplots_adjust(left=0.254, right=0.986, bottom=0.148, top=0.914)
    names = [a["mechanism"].split("(")[0] for a in audits]
    lbs = [a["epsilon_lower_bound"] for a in audits]
    colors = ["#b00020" if a["control"] else "#176b2c" for a in audits]
    ax.barh(names, lbs, color=colors)
    ax.axvline(EPS, color="k", ls="--", label="claimed ε")
    ax.set(xlabel="empirical ε lower bound (95 %)", title="Audits: green correct, red broken")
    ax.legend(fontsize=8)
    save_figure(fig, path)


def build(ctx: Context) -> Section:
    certs, guarantees = [], []
    mechs = {f"staircase optimal for {o}": Staircase.optimal(EPS, 1.0, o) for o in OBJECTIVES}
    mechs["laplace"] = Laplace(epsilon=EPS)
    for label, m in mechs.items():
        ctx.progress(f"  certify {label}")
        c, g = certificate_guarantee(certify_noise(m), f"certificate: {label} (ε = {EPS:g}) is "
                                                      f"ε-DP, fast and safe mode")
        certs.append(c)
        guarantees.append(g)
    for ctl in CONTROLS:
        bad = certify_noise(make_control(ctl, EPS), safe=False)
        guarantees.append(certificate_guarantee(
            bad, f"exact checker refutes the broken control {ctl.name}")[1])
        guarantees[-1] = attrs.evolve(guarantees[-1], holds=not bad.holds)
    n = ctx.samples(1_000_000, 200_000)
    audited: list[tuple[Any, bool]] = [
        (Laplace(epsilon=EPS), False), (Staircase.optimal(EPS), False),
        (Staircase.from_laplace(Laplace(epsilon=EPS)), False),
        (SafeMode(Staircase.optimal(EPS)), False), (SafeMode(Laplace(epsilon=EPS)), False),
        *((make_control(ctl, EPS), True)
          for ctl in CONTROLS)]
    audits = []
    for i, (m, control) in enumerate(audited):
        ctx.progress(f"  audit {m.name} ({n} samples per side)")
        res = audit_mechanism(m, samples=n, rng=ctx.rng(f"univariate/audit/{i}"),
                              confirm_confidence=ctx.audit_budget.confirm_confidence)
        entry, g = audit_entry(res, control=control)
        audits.append(entry)
        guarantees.append(g)
    figs = []
    for file, fn, cap in (
            ("univariate_densities", _fig_densities, "Laplace, the §4.3 redistribution and the "
                                                     "variance-optimal staircase (ε = 1 and 5)"),
            ("univariate_variance_vs_d", lambda p: _fig_vs_d(p, "variance"),
             "Staircase variance over Laplace's as d varies"),
            ("univariate_ci_vs_d", lambda p: _fig_vs_d(p, "ci"),
             "Staircase 95 % CI half-width over Laplace's as d varies"),
            ("univariate_ratio_vs_eps", _fig_ratio_eps,
             "Optimal staircase over Laplace for each objective, against ε"),
            ("univariate_audits", lambda p: _fig_audits(p, audits),
             "Empirical ε lower bounds of correct mechanisms and broken controls")):
        fn(ctx.figure_path(file))
        figs.append(Figure(file=f"{file}.png", caption=cap))
    summary = (
        "The thesis's optimal univariate noise (§4.4 Theorem 1–2, the staircase) against the "
        f"Laplace mechanism at ε = {EPS:g}, Δ = 1.  Each parameter choice is **certified** "
        "exactly: inequality (4.2) decided on the density's pieces at 50 digits, ∫f = 1, "
        "symmetry, and the DP of the discrete noise the floating-point-safe mode really "
        "samples (docs/threat-model.md).  The exact checker also refutes each broken control.\n\n"
        f"The **auditor** then samples every mechanism as a black box ({n:,} outputs per "
        "neighbour, inputs 0 and Δ) and reports a 95 %-confidence lower bound on ε: correct "
        "mechanisms must stay at or below the claim, broken controls must be caught.\n\n"
        "The savings table shows that the staircase gains little at small ε and a lot at large "
        "ε (the variance ratio falls like ε^{-2/3}·const for large ε, Geng–Viswanath).")
    return Section(id="univariate", title="Optimal univariate noise: staircase vs Laplace",
                   summary=summary, results=(_savings(),), figures=tuple(figs),
                   audits=tuple(audits), certificates=tuple(certs),
                   guarantees=tuple(guarantees))
