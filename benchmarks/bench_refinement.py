"""Knowledge refinement sampling vs numpy / privlab Laplace, in one run (thesis ch.5).

Rows (per sample, best of K):
* ``refinement uniform`` — Refinement.individual(uniform prior, ε=1).output(0.5).sample(n):
  one uniform, a searchsorted over 3 cells, the prior's ppf (exact, piecewise);
* ``refinement beta(2,5)`` — the same with a scipy prior (ppf dominates);
* ``refinement pmf k=10`` — DiscreteLaw.sample_index(n) vs ``Generator.choice(k, p=…)``;
* ``numpy laplace`` / ``privlab Laplace`` — the noise-addition baseline at the same n;
* ``output()`` — building the exact law (Algorithm 5.1 / root finding), per call.

Prints a table and the ratios; ``--json`` prints the rows as JSON on stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction

import numpy as np
from _common import best_of
from scipy import stats

from privlab.mechanisms.noise.laplace import Laplace
from privlab.mechanisms.refinement.algorithm import Refinement
from privlab.mechanisms.refinement.priors import ContinuousPrior, DiscretePrior, PiecewisePrior


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10**7)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    n, k = a.n, a.repeats
    gen = np.random.default_rng(0)
    uni = Refinement.individual(PiecewisePrior.uniform(), 1.0).output(0.5)
    beta = Refinement.individual(ContinuousPrior(dist=stats.beta(2, 5)), 1.0).output(0.3)
    pmf = DiscretePrior(values=tuple(range(10)), probs=tuple(Fraction(i + 1, 55)
                                                             for i in range(10)))
    disc = Refinement.statistical(pmf, 1.0, distance="absolute").output(4)
    p = np.array([float(x) for x in disc.probs])
    lap = Laplace(epsilon=1.0)
    rows = []

    def row(name: str, fn, per: int) -> None:
        t = best_of(fn, repeats=k)
        rows.append({"case": name, "n": per, "best_s": t.best, "median_s": t.median,
                     "ns_per_sample": t.best / per * 1e9})
        print(f"{name:28s} {t.best:9.4f} s  {t.best / per * 1e9:8.2f} ns/sample", file=sys.stderr)

    row("numpy laplace", lambda: gen.laplace(0.0, 1.0, n), n)
    row("privlab Laplace.sample", lambda: lap.sample(n, rng=gen), n)
    row("refinement uniform", lambda: uni.sample(n, rng=gen), n)
    row("refinement beta(2,5)", lambda: beta.sample(n // 10, rng=gen), n // 10)
    row("numpy choice k=10", lambda: gen.choice(10, size=n, p=p), n)
    row("refinement pmf k=10 (index)", lambda: disc.sample_index(n, rng=gen), n)
    mech_u = Refinement.individual(PiecewisePrior.uniform(), 1.0)
    row("output() uniform", lambda: mech_u.output(0.37), 1)
    mech_d = Refinement.statistical(pmf, 1.0, distance="absolute")
    row("output() pmf k=10 (exact)", lambda: mech_d.output(7), 1)
    base = {r["case"]: r["ns_per_sample"] for r in rows}
    ratios = {
        "refinement uniform / numpy laplace":
            base["refinement uniform"] / base["numpy laplace"],
        "refinement uniform / privlab Laplace":
            base["refinement uniform"] / base["privlab Laplace.sample"],
        "refinement beta / numpy laplace":
            base["refinement beta(2,5)"] / base["numpy laplace"],
        "refinement pmf index / numpy choice":
            base["refinement pmf k=10 (index)"] / base["numpy choice k=10"]}
    if a.json:
        print(json.dumps({"rows": rows, "ratios": ratios}, indent=2))
    else:
        print("| case | n | best (s) | median (s) | ns/sample |\n|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['case']} | {r['n']} | {r['best_s']:.4f} | {r['median_s']:.4f} | "
                  f"{r['ns_per_sample']:.2f} |")
        print()
        for name, x in ratios.items():
            print(f"* {name}: {x:.3f}")


if __name__ == "__main__":
    main()
