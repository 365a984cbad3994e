"""Throughput of DP releases through microaggregation and the auditor's time to a verdict
(issue 6; thesis §6.3, vldb14 Alg. 3, irm Alg. 1).

    python benchmarks/bench_dp_release.py            # n = 10^4, 10^5, 10^6
    python benchmarks/bench_dp_release.py --quick    # n = 10^4, 10^5

* release: :class:`privlab.mechanisms.releases.numerical.DPRelease` on n uniform records with m = 2
  attributes in [0, 1], k = 100, ε = 1, shared noise, shuffled rows (the certified
  configuration; rows aligned costs the same minus the shuffle), for insensitive MDAV + vldb14
  scale, individual ranking + irm scale and plain Laplace (k = 1); one release per call, the
  microaggregation included; records / second = n / best time; each in the default float-safe
  mode (exact integer noise on a grid) and in fast mode (float Laplace), ``safe/fast`` the ratio
  of their best times measured in the same run;
* audit: :func:`privlab.audit.release_audit.audit_dp_release` on the adversarial neighbour pair
  of a correct configuration (n = 8, k = 2, m = 2, verdict "consistent") and of a leaking one
  (shared noise, rows aligned: structural leak), 20,000 samples.

Nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import Row, best_of, format_table, log, machine_info, print_machine

from privlab.audit.release_audit import audit_dp_release
from privlab.mechanisms.releases.numerical import DPRelease
from privlab.verify.releases.certificate import ReleaseConfig

CONFIGS = (("insensitive-mdav + vldb14", "insensitive-mdav", "vldb14", 100),
           ("individual-ranking + irm", "individual-ranking", "irm", 100),
           ("plain Laplace (k = 1)", "none", "thesis", 1))


def bench_release(sizes: tuple[int, ...], repeats: int) -> list[Row]:
    rows = []
    for n in sizes:
        x = np.random.default_rng(n).random((n, 2))
        for label, micro, scale, k in CONFIGS:
            best = {}
            for mode in ("safe", "fast"):
                rel = DPRelease(microaggregation=micro, k=k, epsilon=1.0, noise_scale=scale,
                                noise="shared", rows="shuffled", noise_mode=mode)
                log(f"release {label} {mode} n={n:,}")
                t = best_of(lambda rel=rel, x=x: rel.release(x, [0.0, 1.0], rng=0),
                            repeats=repeats if n < 10**6 else 2)
                best[mode] = t.best
                rows.append(Row(f"{label} {mode} n={n:,}", {
                    "best_s": t.best, "median_s": t.median, "records_per_s": n / t.best,
                    "safe/fast": best["safe"] / t.best if mode == "fast" else ""}))
    return rows


def bench_audit(samples: int) -> list[Row]:
    rows = []
    for label, kw in (("correct: insensitive MDAV, shared, shuffled", {}),
                      ("leak: shared noise, rows aligned", {"rows": "aligned"})):
        cfg = ReleaseConfig(microaggregation="insensitive-mdav", noise_scale="vldb14", n=8, k=2,
                            epsilon=1.0, attributes=2, **kw)
        out = {}

        def run(cfg=cfg, out=out):
            out["r"] = audit_dp_release(cfg, samples=samples, rng=1).to_dict()

        log(f"audit {label}")
        t = best_of(run, repeats=3)
        r = out["r"]
        rows.append(Row(label, {"best_s": t.best, "median_s": t.median,
                                "verdict": r["verdict"],
                                "eps_lower": r["epsilon_lower_bound"],
                                "structural_leak": r["structural_leak"]}))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--samples", type=int, default=20000)
    a = ap.parse_args()
    sizes = (10**4, 10**5) if a.quick else (10**4, 10**5, 10**6)
    print_machine(machine_info())
    rel = bench_release(sizes, a.repeats)
    print(format_table(rel, ("best_s", "median_s", "records_per_s", "safe/fast")))
    print()
    aud = bench_audit(a.samples)
    print(format_table(aud, ("best_s", "median_s", "verdict", "eps_lower", "structural_leak")))


if __name__ == "__main__":
    main()
