"""Wall time and peak memory of privlab's microaggregation (issue 5), with privlib 0.0.4's
Python MDAV on the same inputs in the same run, and sdcMicro's C++ MDAV as a measured anchor.

    python benchmarks/bench_microaggregation.py
    python benchmarks/bench_microaggregation.py --quick          # smaller sizes, no privlib

* scaling: MDAV and insensitive MDAV on n = 10^3, 10^4, 3·10^4, 10^5 uniform records with
  m = 2 attributes, k = 5; insensitive MDAV, Algorithm 6.1 with the corner sequence and
  individual ranking on n = 10^6; the growth exponent is the least-squares slope of log t
  against log n over n ≥ 10^4;
* anchors: Census (census_casc.csv, 1080 × 13, k = 5) and Adult AGE + HOURS-PER-WEEK (30,162 ×
  2 after dropping rows with '?', k = 5).  sdcMicro's C++ MDAV was measured on this machine type
  at 0.020 s (Census) and 1.8 s (Adult) — quoted, not rerun (R is not installed here).  privlib
  0.0.4 (``pip install privlib==0.0.4``) runs in a child process with a time limit
  (``--privlib-timeout``); its partition is compared with privlab's (standardised MDAV).

Every privlab measurement runs in a fresh child process (so peak RSS is per measurement); the
numba kernels are loaded from their on-disk cache by a small warm-up call first.  Times are
best of ``--repeats`` after one warm-up (one timed call for the n ≥ 10^5 MDAV rows).  Nothing
here asserts on time.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (
    Row,
    best_of,
    format_table,
    log,
    machine_info,
    measure_memory,
    print_machine,
)

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
SDCMICRO = {"census": 0.020, "adult": 1.8}
PRIVLIB_MEASURED = {"census": "8.7 s", "adult": "not finished in 180 s"}


def load(source: str, n: int, m: int) -> np.ndarray:
    if source == "uniform":
        return np.random.default_rng(12345).uniform(0, 1, size=(n, m))
    if source == "census":
        return np.loadtxt(DATA / "census_casc.csv", delimiter=",", skiprows=1)
    if source == "adult":
        import csv

        with (DATA / "adult.csv").open(newline="") as fh:
            rows = [r for r in csv.DictReader(fh) if "?" not in r.values()]
        return np.array([[float(r["age"]), float(r["hours-per-week"])] for r in rows])
    raise ValueError(source)


def _fn(method: str, x: np.ndarray, k: int):
    from privlab.mechanisms import microaggregation as ma

    b = np.stack([x.min(axis=0), x.max(axis=0) + 1.0], axis=1)
    if method == "mdav":
        return lambda: ma.mdav(x, k).released
    if method == "insensitive-mdav":
        return lambda: ma.insensitive_mdav(x, k, bounds=b).released
    if method == "insensitive-corners":
        return lambda: ma.insensitive_microaggregation(x, k, bounds=b).released
    if method == "individual-ranking":
        return lambda: ma.individual_ranking(x, k).released
    raise ValueError(method)


def child(spec: str) -> None:
    method, source, n, m, k, repeats = spec.split(",")
    x = load(source, int(n), int(m))
    for meth in ("mdav", "insensitive-mdav", "insensitive-corners", "individual-ranking"):
        _fn(meth, np.random.default_rng(0).uniform(size=(40, x.shape[1])), 3)()  # jit cache
    fn = _fn(method, x, int(k))
    reps = int(repeats)
    t = best_of(fn, repeats=reps, warmup=1 if reps > 1 else 0)
    mem = measure_memory(fn)
    print(json.dumps({"best": t.best, "median": t.median, "n": int(x.shape[0]),
                      "m": int(x.shape[1]), "rss_peak_delta": mem["rss_peak_delta"],
                      "tracemalloc_peak": mem["tracemalloc_peak"]}))


def run_child(method: str, source: str, n: int, m: int, k: int, repeats: int) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child",
                          f"{method},{source},{n},{m},{k},{repeats}"], capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


PRIVLIB_SNIPPET = r"""
import contextlib, io, json, sys, time
import numpy as np, pandas as pd
x = np.load(sys.argv[1]); k = int(sys.argv[2]); xml = sys.argv[3]
from privlib.anonymization.src.entities.dataset_DataFrame import Dataset_DataFrame
from privlib.anonymization.src.algorithms.k_anonymity import K_anonymity
from privlib.anonymization.src.algorithms.mdav import Mdav
cols = [f"a{j}" for j in range(x.shape[1])]
df = pd.DataFrame(x, columns=cols); df.name = "bench"
with open(xml, "w") as fh:
    fh.write("<?xml version='1.0'?><schema>" + "".join(
        f"<attribute name='{c}' sensitivity_type='quasi_identifier' "
        f"attribute_type='numerical_continuous'/>" for c in cols) + "</schema>")
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    ds = Dataset_DataFrame(df, xml)  # the constructor loads the records
    t = time.perf_counter()
    ka = K_anonymity(ds, k)
    ka.calculate_anonymization(Mdav())
    el = time.perf_counter() - t
    rel = np.array([[float(v.value) for v in r.values] for r in ka.anonymized_dataset.records])
np.save(sys.argv[1] + ".out.npy", rel)
print(json.dumps({"seconds": el}))
"""


def run_privlib(x: np.ndarray, k: int, timeout: float) -> dict:
    import tempfile

    try:
        from importlib.metadata import version

        import privlib  # noqa: F401

        ver = version("privlib")
    except Exception as exc:  # pragma: no cover - depends on the environment
        return {"error": f"privlib not importable: {exc}"}
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "x.npy"
        np.save(p, x)
        try:
            out = subprocess.run([sys.executable, "-c", PRIVLIB_SNIPPET, str(p), str(k),
                                  str(Path(d) / "s.xml")], capture_output=True, text=True,
                                 timeout=timeout, check=True)
        except subprocess.TimeoutExpired:
            return {"error": f"not finished in {timeout:g} s", "version": ver}
        except subprocess.CalledProcessError as exc:
            return {"error": exc.stderr.strip().splitlines()[-1:], "version": ver}
        res = json.loads(out.stdout.strip().splitlines()[-1])
        res["released"] = np.load(str(p) + ".out.npy")
        res["version"] = ver
        return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--privlib-timeout", type=float, default=120.0)
    ap.add_argument("--no-privlib", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if a.child:
        child(a.child)
        return
    info = machine_info()
    print_machine(info)
    from importlib.metadata import version

    print(f"# numba: {version('numba')}")
    rows: list[Row] = []
    sizes = (1000, 10_000, 30_000) if a.quick else (1000, 10_000, 30_000, 100_000)
    big = 100_000 if a.quick else 1_000_000
    fits = {}
    for method in ("mdav", "insensitive-mdav"):
        ts = []
        for n in sizes:
            log(f"{method} n={n}")
            reps = 1 if (method == "mdav" and n >= 100_000) else a.repeats
            r = run_child(method, "uniform", n, 2, 5, reps)
            ts.append(r["best"])
            rows.append(Row(f"{method} n={n:,}", {"best_s": r["best"], "median_s": r["median"],
                                                  "peak_rss_MiB": _mib(r["rss_peak_delta"]),
                                                  "tracemalloc_MiB": _mib(r["tracemalloc_peak"])},
                            "uniform, m = 2, k = 5"))
        sel = [(n, t) for n, t in zip(sizes, ts, strict=True) if n >= 10_000]
        fits[method] = float(np.polyfit(np.log([s for s, _ in sel]),
                                        np.log([t for _, t in sel]), 1)[0])
    for method in ("insensitive-mdav", "insensitive-corners", "individual-ranking"):
        log(f"{method} n={big}")
        r = run_child(method, "uniform", big, 2, 5, a.repeats)
        rows.append(Row(f"{method} n={big:,}", {"best_s": r["best"], "median_s": r["median"],
                                                "peak_rss_MiB": _mib(r["rss_peak_delta"]),
                                                "tracemalloc_MiB": _mib(r["tracemalloc_peak"])},
                        "uniform, m = 2, k = 5; target < 10 s"))
    cols = ["best_s", "median_s", "peak_rss_MiB", "tracemalloc_MiB"]
    print("\n## scaling\n")
    print(format_table(rows, cols))
    print("\ngrowth exponent (slope of log t vs log n, n >= 10^4): "
          + ", ".join(f"{m} {e:.2f}" for m, e in fits.items()))
    anchors: list[Row] = []
    if DATA.is_dir():
        for src, label in (("census", "Census 1080 × 13"), ("adult", "Adult AGE+HOURS 30,162 × 2")):
            log(f"anchor {src}")
            x = load(src, 0, 0)
            r = run_child("mdav", src, 0, 0, 5, a.repeats)
            vals = {"privlab_s": r["best"], "sdcMicro_s": SDCMICRO[src],
                    "sdcMicro/privlab": SDCMICRO[src] / r["best"]}
            note = f"privlib measured earlier: {PRIVLIB_MEASURED[src]}"
            if not a.no_privlib and not a.quick:
                log(f"privlib {src} (timeout {a.privlib_timeout:g} s)")
                pl = run_privlib(x, 5, a.privlib_timeout)
                if "seconds" in pl:
                    from privlab.mechanisms.microaggregation import mdav

                    ours = mdav(x, 5).released
                    same = float(np.mean(np.all(np.isclose(ours, pl["released"], rtol=1e-9,
                                                           atol=1e-6), axis=1)))
                    vals.update({"privlib_s": pl["seconds"],
                                 "privlib/privlab": pl["seconds"] / r["best"],
                                 "same_rows": same})
                    note = f"privlib {pl['version']} in this run"
                else:
                    note = f"privlib {pl.get('version', '')}: {pl['error']}"
            anchors.append(Row(f"MDAV k=5 {label}", vals, note))
        print("\n## anchors (MDAV, k = 5)\n")
        print(format_table(anchors, ["privlab_s", "sdcMicro_s", "sdcMicro/privlab",
                                     "privlib_s", "privlib/privlab", "same_rows"]))
    if a.json:
        print(json.dumps({"machine": info, "fits": fits,
                          "rows": [r.__dict__ for r in rows + anchors]}, default=float))


def _mib(b: float | None) -> float | None:
    return None if b is None else b / 2**20


if __name__ == "__main__":
    t0 = time.perf_counter()
    main()
    log(f"done in {time.perf_counter() - t0:.1f} s")
