"""Construction and checking time of privlab's t-closeness (thesis ch.7 / ins15 §6), with
pycanon's EMD t-closeness check on the same input in the same run.

    python benchmarks/bench_tcloseness.py
    python benchmarks/bench_tcloseness.py --sizes 10000 100000 1000000 --pycanon-max 100000

* ``release_t_close`` (t = 2, l = 1 and many classes with k ≈ 100) on N records with two QI
  columns (N chosen not divisible by the class count so that the exact fallback runs);
* ``check_release`` (exact Definition 15 t, k-anonymity, partition) and ``emd_ordered`` (exact
  EMD, Fractions) on that release;
* pycanon ``t_closeness`` (EMD, ordered distance for numbers) with the group id as the only QI,
  run in a separate virtualenv (``--pycanon-python``, default /tmp/pycanon-venv/bin/python)
  because pycanon pins numpy 2.0.2 / scipy 1.15.3; its own wall time is measured inside that
  process (data load excluded).  The EMD value it returns is printed beside privlab's.
Nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import Row, best_of, format_table, log, machine_info, print_machine

from privlab.mechanisms.tcloseness.bucketization import release_t_close
from privlab.verify.tcloseness import check_release, emd_ordered

PYCANON_SNIPPET = r"""
import json, sys, time
import pandas as pd
from pycanon import anonymity
df = pd.read_csv(sys.argv[1])
t0 = time.perf_counter()
t = anonymity.t_closeness(df, ["group"], ["value"])
print(json.dumps({"seconds": time.perf_counter() - t0, "t": float(t),
                  "version": __import__("pycanon").__version__}))
"""


def run_pycanon(python: str, group: np.ndarray, value: np.ndarray,
                timeout: float) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "rel.csv"
        np.savetxt(path, np.column_stack([group, value]), fmt="%d", delimiter=",",
                   header="group,value", comments="")
        try:
            out = subprocess.run([python, "-c", PYCANON_SNIPPET, str(path)], capture_output=True,
                                 text=True, timeout=timeout, check=True)
        except FileNotFoundError:
            return {"error": f"{python} not found"}
        except subprocess.TimeoutExpired:
            return {"error": f"timeout after {timeout:g} s"}
        except subprocess.CalledProcessError as exc:
            return {"error": exc.stderr.strip().splitlines()[-1]}
        return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--pycanon-python", default="/tmp/pycanon-venv/bin/python")
    ap.add_argument("--pycanon-max", type=int, default=100_000)
    ap.add_argument("--pycanon-timeout", type=float, default=900.0)
    args = ap.parse_args()
    print_machine(machine_info())
    rows = []
    for n0 in args.sizes:
        n = n0 + 7  # not divisible by b or by the class count: the exact fallback runs
        rng = np.random.default_rng(n0)
        qi = rng.normal(size=(n, 2))
        c = rng.integers(0, 1000, n)
        for n_l in (1, max(1, n // (3 * 100))):
            log(f"N={n} l={n_l}")
            rel = release_t_close(c, 2, n_l, qi=qi)
            tb = best_of(lambda n_l=n_l, c=c, qi=qi: release_t_close(c, 2, n_l, qi=qi),
                         repeats=args.repeats)
            tc = best_of(lambda rel=rel: check_release(rel), repeats=args.repeats)
            te = best_of(lambda rel=rel: emd_ordered(rel.values, rel.group),
                         repeats=args.repeats)
            res = check_release(rel)
            emd, _ = emd_ordered(rel.values, rel.group)
            vals = {"N": n, "l": n_l, "classes": rel.n_groups, "k": rel.k,
                    "counts": rel.plan.method, "build_s": tb.best, "check_s": tc.best,
                    "achieved_t": str(res[0].value), "emd_s": te.best,
                    "emd_privlab": float(emd)}
            if n0 <= args.pycanon_max:
                log("  pycanon …")
                pc = run_pycanon(args.pycanon_python, rel.group, rel.values,
                                 args.pycanon_timeout)
                vals["pycanon_s"] = pc.get("seconds")
                vals["emd_pycanon"] = pc.get("t")
                if "seconds" in pc:
                    vals["pycanon/privlab_emd"] = float(pc["seconds"]) / te.best
                note = pc.get("error", f"pycanon {pc.get('version')}")
            else:
                note = "pycanon skipped (size)"
            rows.append(Row(name=f"N={n:,} l={n_l}", values=vals, note=str(note)))
    cols = ["classes", "k", "counts", "build_s", "check_s", "achieved_t", "emd_s",
            "emd_privlab", "pycanon_s", "emd_pycanon", "pycanon/privlab_emd"]
    print(format_table(rows, cols))


if __name__ == "__main__":
    main()
