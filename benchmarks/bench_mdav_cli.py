"""MDAV on Adult (issue 19 item 4): privlab's compiled MDAV and the whole `privlab release mdav`
CLI run against a plain vectorised numpy MDAV (the sdcMicro algorithm, same tie rules) timed
in-process in the same run; optionally the 200 000 × 4 synthetic release.

    python benchmarks/bench_mdav_cli.py            # Adult AGE + HOURS-PER-WEEK, k = 5
    python benchmarks/bench_mdav_cli.py --big      # also 200,000 × 4 N(0, 1) records, k = 5

Adult is ../shared/data/adult.csv (rows with '?' dropped: 30,162 × 2), loaded as in
bench_microaggregation.py.  The CLI time is the wall time of a child process (start-up, CSV
read/write, certificate included); "algorithm" is `mdav(x, 5)` in-process after a warm-up.
Times are best of --repeats.  Nothing here asserts on time; the partitions are compared.
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_info, print_machine
from bench_microaggregation import load


def numpy_mdav(x: np.ndarray, k: int) -> np.ndarray:
    """Plain vectorised MDAV (standardised distances, canonical order, first among equals; the
    k nearest by ``np.argpartition``, O(n) per cluster)."""
    perm = np.lexsort(tuple(x[:, j] for j in range(x.shape[1] - 1, -1, -1)))
    xc = x[perm]
    sd = xc.std(axis=0, ddof=1)
    z = (xc - xc.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
    rem = np.arange(len(z))  # original positions of the remaining records
    zr = z.copy()  # their standardised values, kept in step with rem
    lab = np.full(len(z), -1)
    label = 0

    def take(c: int) -> None:
        nonlocal rem, zr, label
        d = ((zr - zr[c]) ** 2).sum(axis=1)
        d[c] = -1.0
        # the k smallest, first among equals: argpartition finds the k-th value in O(n); ties
        # at that value are taken in index order (what a stable argsort[:k] would take)
        kth = d[np.argpartition(d, k - 1)[k - 1]]
        below = np.flatnonzero(d < kth)
        sel = np.concatenate([below, np.flatnonzero(d == kth)[: k - below.size]])
        lab[rem[sel]] = label
        label += 1
        keep = np.ones(len(rem), bool)
        keep[sel] = False
        rem, zr = rem[keep], zr[keep]

    while len(rem) >= 3 * k:
        a = int(np.argmax(((zr - zr.mean(axis=0)) ** 2).sum(axis=1)))
        xa = zr[a].copy()
        take(a)
        take(int(np.argmax(((zr - xa) ** 2).sum(axis=1))))
    if len(rem) >= 2 * k:
        take(int(np.argmax(((zr - zr.mean(axis=0)) ** 2).sum(axis=1))))
    lab[rem] = label
    out = np.empty_like(lab)
    out[perm] = lab
    return out


def best(fn, repeats: int) -> float:
    ts = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return min(ts)


def cli_seconds(path: Path, cols: str, repeats: int) -> float:
    out = path.with_suffix(".out.csv")
    cmd = [str(Path(sys.executable).with_name("privlab")), "release", "mdav", "--input", str(path),
           "--output", str(out), "--k", "5", "--columns", cols]
    return best(lambda: subprocess.run(cmd, check=True, capture_output=True), repeats)


def write_csv(path: Path, x: np.ndarray, names: list[str]) -> None:
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(names)
        w.writerows(x.tolist())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--big", action="store_true")
    a = ap.parse_args()
    print_machine(machine_info())
    from privlab.mechanisms.microaggregation import mdav

    x = load("adult", 0, 0)
    mdav(x[:50], 3)  # numba cache
    t_np = best(lambda: numpy_mdav(x, 5), a.repeats)
    t_alg = best(lambda: mdav(x, 5), a.repeats)
    same = bool(np.array_equal(numpy_mdav(x, 5), mdav(x, 5).labels))
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "adult2.csv"
        write_csv(p, x, ["age", "hours"])
        t_cli = cli_seconds(p, "age,hours", a.repeats)
        print(f"Adult {x.shape[0]} x {x.shape[1]}, k = 5 (best of {a.repeats})")
        print(f"  numpy MDAV in-process     {t_np:8.3f} s")
        print(f"  privlab mdav() algorithm  {t_alg:8.3f} s   ratio to numpy {t_alg / t_np:.3f}")
        print(f"  privlab release mdav CLI  {t_cli:8.3f} s   ratio to numpy {t_cli / t_np:.3f}")
        print(f"  CLI minus algorithm       {t_cli - t_alg:8.3f} s (start-up, I/O, certificate)")
        print(f"  same partition as numpy MDAV: {same}")
        if a.big:
            g = np.random.default_rng(2026)
            xb = g.normal(size=(200_000, 4))
            pb = Path(d) / "big.csv"
            write_csv(pb, xb, ["a", "b", "c", "d"])
            t_big_alg = best(lambda: mdav(xb, 5), 1)
            t_big = cli_seconds(pb, "a,b,c,d", 1)
            print(f"200,000 x 4 N(0,1), k = 5: algorithm {t_big_alg:.2f} s, "
                  f"CLI {t_big:.2f} s (one run each)")


if __name__ == "__main__":
    main()
