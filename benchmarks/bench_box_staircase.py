"""Sampling throughput of the box staircase (thesis §4.5) against numpy Laplace, in one run.

    python benchmarks/bench_box_staircase.py                 # 10^6 points per call, best of 5
    python benchmarks/bench_box_staircase.py --n 200000 --repeats 3 --json

For each dimension d ∈ {1, 2, 5, 10}: ``BoxStaircase.thesis_core(1.0, s).sample(n)`` (s_j = j,
core s/10) against ``Generator.laplace(0, Σs/ε, (n, d))`` — d independent numpy Laplace draws per
point, the baseline the thesis compares with.  ``ratio_vs_numpy`` = time of the staircase /
time of numpy for the same (n, d) output, both measured here.  ``points_per_s`` counts
d-dimensional points.  Memory: the tracemalloc peak of one call divided by the 8·n·d-byte
result (the sampler works in chunks of 2^16 points, so the ratio should stay flat in n).
Nothing here asserts; the script prints what it saw.
"""

from __future__ import annotations

import argparse
import sys
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (
    Row,
    best_of,
    dump_json,
    format_table,
    log,
    machine_info,
    print_machine,
    rows_to_json,
)

from privlab.mechanisms.noise.box_staircase import BoxStaircase
from privlab.mechanisms.noise.multi_laplace import IndependentLaplace


def _peak_ratio(fn, nbytes: int) -> float:
    tracemalloc.start()
    out = fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del out
    return peak / nbytes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=1_000_000, help="points per call")
    ap.add_argument("--dims", type=int, nargs="+", default=[1, 2, 5, 10])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    g = np.random.default_rng(args.seed)
    rows: list[Row] = []
    for d in args.dims:
        s = tuple(float(j) for j in range(1, d + 1))
        mech = BoxStaircase.thesis_core(1.0, s)
        lap = IndependentLaplace.for_box(1.0, s)
        n = args.n
        log(f"d={d}: timing numpy Laplace and box staircase, n={n}")
        t_np = best_of(lambda n=n, d=d, b=lap.scale: g.laplace(0.0, b, (n, d)),
                       repeats=args.repeats)
        t_bs = best_of(lambda n=n, m=mech: m.sample(n, rng=g), repeats=args.repeats)
        nbytes = 8 * n * d
        mem_small = _peak_ratio(lambda m=mech, n=n: m.sample(n // 4, rng=g), nbytes // 4)
        mem = _peak_ratio(lambda m=mech, n=n: m.sample(n, rng=g), nbytes)
        rows.append(Row(name=f"d={d}", values={
            "numpy_laplace_points_per_s": n / t_np.best,
            "box_staircase_points_per_s": n / t_bs.best,
            "ratio_vs_numpy": t_bs.best / t_np.best,
            "box_median_s": t_bs.median, "numpy_median_s": t_np.median,
            "peak_over_result_n/4": mem_small, "peak_over_result_n": mem}))
    cols = ["numpy_laplace_points_per_s", "box_staircase_points_per_s", "ratio_vs_numpy",
            "box_median_s", "numpy_median_s", "peak_over_result_n/4", "peak_over_result_n"]
    info = machine_info()
    if args.json:
        print(dump_json({"machine": info, "n": args.n, "rows": rows_to_json(rows)}))
    else:
        print_machine(info)
        print(f"# n = {args.n} points per call, best of {args.repeats}")
        print(format_table(rows, cols))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
