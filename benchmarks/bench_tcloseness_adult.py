"""privlab's exact t-closeness check against pycanon's on Adult, in the same run (issue 19
item 6).

    python benchmarks/bench_tcloseness_adult.py
    python benchmarks/bench_tcloseness_adult.py --ts 2 --ls 1 10 --repeats 5

The release is the one the ledger table ``tcloseness-utility`` builds on Adult
(:func:`privlab.proofs.tcloseness.tables.utility_rows`): the cleaned Adult (rows with '?'
dropped, 30,162 rows, read by :func:`privlab.proofs.tcloseness.tables.load_adult` from the data
directory — ``--data-dir``, ``$PRIVLAB_DATA_DIR`` or ../shared/data; never copied), confidential
attribute hours-per-week, quasi-identifiers age, education-num, capital-gain, capital-loss, and
``release_t_close(hours, t, l, qi=QIs)`` for t ∈ {1.5, 2, 3, 5, 10}, l = 1 (the report's
t-closeness section runs the same construction on Census FEDTAX instead; ``--ls`` adds releases
with more classes).  For each release, in one process:

* privlab ``check_release`` — exact Definition 15 t on the buckets (max over classes and
  buckets of max(Q_E/P, P/Q_E), Fractions) + k-anonymity + partition; ``t_def15`` is its t;
* privlab ``emd_ordered(hours, group)`` — the EMD t-closeness level of Li et al. 2007 with the
  *ordered distance* over the m distinct hours values: max over classes E of
  (1/(m−1)) Σ_i |Σ_{j≤i} (p_j − q_Ej)|, one exact Fraction (``emd_privlab``);
* pycanon 1.3.6 ``anonymity.t_closeness(df, QIs, ["hours-per-week"])`` on the published table:
  every QI replaced by its class's interval "lo-hi" (so pycanon's equivalence classes, the
  distinct QI tuples, are the release's classes unless two classes get the same intervals:
  ``pycanon_classes`` shows what pycanon saw, and the note says when classes merged) and the
  hours column numeric, for which pycanon computes the same ordered-distance EMD in floats
  (its equal-distance EMD, ½ Σ |p_j − q_Ej|, is only used for string attributes).  It runs in
  a separate virtualenv (``--pycanon-python``, default /tmp/pycanon-venv/bin/python: ``python3
  -m venv /tmp/pycanon-venv && /tmp/pycanon-venv/bin/pip install pycanon==1.3.6``) because it
  pins numpy 2.0.2 / scipy 1.15.3; its time is measured inside that process (CSV load
  excluded), once.

``pycanon/privlab_emd`` = pycanon seconds / privlab ``emd_ordered`` seconds (the like-for-like
ratio); ``pycanon/privlab_check`` = pycanon seconds / ``check_release`` seconds.  privlab times
are the best of ``--repeats`` after one warm-up.  Nothing here asserts on time.  Without the
Adult file the script says so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import Row, best_of, format_table, log, machine_info, print_machine

from privlab._data import data_dir
from privlab.mechanisms.tcloseness.bucketization import release_t_close
from privlab.proofs.tcloseness.tables import ADULT_QI, UTILITY_TS, load_adult
from privlab.verify.tcloseness import check_release, emd_ordered

SENSITIVE = "hours-per-week"

PYCANON_SNIPPET = r"""
import json, sys, time
import pandas as pd
from pycanon import anonymity
qi = json.loads(sys.argv[2])
df = pd.read_csv(sys.argv[1], dtype={q: str for q in qi})
t0 = time.perf_counter()
t = anonymity.t_closeness(df, qi, [sys.argv[3]])
sec = time.perf_counter() - t0
print(json.dumps({"seconds": sec, "t": float(t), "classes": int(len(df.groupby(qi))),
                  "version": __import__("pycanon").__version__}))
"""


def generalized_qi(qi: np.ndarray, group: np.ndarray) -> list[list[str]]:
    """Each record's QI columns replaced by its class's interval "lo-hi" (the published table)."""
    cols = []
    for m in range(qi.shape[1]):
        x = qi[:, m]
        lo = np.full(group.max() + 1, np.inf)
        hi = np.full(group.max() + 1, -np.inf)
        np.minimum.at(lo, group, x)
        np.maximum.at(hi, group, x)
        cols.append([f"{lo[g]:g}-{hi[g]:g}" for g in group.tolist()])
    return cols


def run_pycanon(python: str, qi: np.ndarray, group: np.ndarray, values: np.ndarray,
                timeout: float) -> dict[str, object]:
    gen = generalized_qi(qi, group)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "release.csv"
        with path.open("w") as fh:
            fh.write(",".join([*ADULT_QI, SENSITIVE]) + "\n")
            for i, v in enumerate(values.tolist()):
                fh.write(",".join([*(c[i] for c in gen), f"{v:g}"]) + "\n")
        try:
            out = subprocess.run([python, "-c", PYCANON_SNIPPET, str(path), json.dumps(ADULT_QI),
                                  SENSITIVE], capture_output=True, text=True, timeout=timeout,
                                 check=True)
        except FileNotFoundError:
            return {"error": f"{python} not found"}
        except subprocess.TimeoutExpired:
            return {"error": f"timeout after {timeout:g} s"}
        except subprocess.CalledProcessError as exc:
            return {"error": (exc.stderr.strip().splitlines() or ["failed"])[-1]}
        return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", default=None, help="folder holding adult.csv")
    ap.add_argument("--ts", type=Fraction, nargs="+", default=None,
                    help=f"t values (default {list(UTILITY_TS)}, those of tcloseness-utility)")
    ap.add_argument("--ls", type=int, nargs="+", default=[1], help="l values (classes = b·l)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--pycanon-python", default="/tmp/pycanon-venv/bin/python")
    ap.add_argument("--pycanon-timeout", type=float, default=900.0)
    args = ap.parse_args()
    real = load_adult(data_dir(args.data_dir))
    if real is None:
        print("adult.csv not found (--data-dir, $PRIVLAB_DATA_DIR or ../shared/data): "
              "nothing measured.")
        return
    ts = UTILITY_TS if args.ts is None else tuple(
        int(t) if t.denominator == 1 else float(t) for t in args.ts)
    print_machine(machine_info())
    hours, qi, names = real
    print(f"# data: adult.csv, {len(hours):,} rows, sensitive {SENSITIVE} "
          f"({len(np.unique(hours))} distinct values), QIs {names}\n")
    rows = []
    for n_l in args.ls:
        for t in ts:
            log(f"t={t} l={n_l}")
            rel = release_t_close(hours, t, n_l, qi=qi)
            res = check_release(rel)
            emd, _ = emd_ordered(rel.values, rel.group)
            tc = best_of(lambda rel=rel: check_release(rel), repeats=args.repeats)
            te = best_of(lambda rel=rel: emd_ordered(rel.values, rel.group),
                         repeats=args.repeats)
            vals: dict[str, object] = {
                "rows": len(hours), "classes": rel.n_groups, "k": rel.k,
                "t_def15": str(res[0].value), "checks_hold": all(r.holds for r in res),
                "emd_privlab": float(emd), "check_s": tc.best, "emd_s": te.best}
            log("  pycanon …")
            pc = run_pycanon(args.pycanon_python, qi, rel.group, rel.values,
                             args.pycanon_timeout)
            if "seconds" in pc:
                sec = float(pc["seconds"])  # type: ignore[arg-type]
                vals.update({"emd_pycanon": pc["t"], "pycanon_classes": pc["classes"],
                             "abs_diff": abs(float(pc["t"]) - float(emd)),  # type: ignore
                             "pycanon_s": sec, "pycanon/privlab_emd": sec / te.best,
                             "pycanon/privlab_check": sec / tc.best})
                note = f"pycanon {pc['version']}"
                if pc["classes"] != rel.n_groups:
                    note += (f"; {rel.n_groups - int(pc['classes'])} class pair(s) share all QI "
                             "intervals, merged by pycanon")  # type: ignore[call-overload]
            else:
                note = str(pc.get("error"))
            rows.append(Row(name=f"t={t} l={n_l}", values=vals, note=note))
    cols = ["rows", "classes", "k", "t_def15", "checks_hold", "emd_privlab", "emd_pycanon",
            "abs_diff", "pycanon_classes", "check_s", "emd_s", "pycanon_s",
            "pycanon/privlab_emd", "pycanon/privlab_check"]
    print(format_table(rows, cols))


if __name__ == "__main__":
    main()
