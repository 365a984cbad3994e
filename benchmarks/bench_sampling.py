"""Sampling throughput of privlab's noise laws against numpy and diffprivlib, in one run.

    python benchmarks/bench_sampling.py                    # 10^7 samples, best of 5
    python benchmarks/bench_sampling.py --n 1000000 --repeats 3 --json
    python benchmarks/bench_sampling.py --profile          # where the staircase sampler's time goes

The reference is numpy's ``Generator.laplace``: every ratio is ``time per sample of the case /
time per sample of numpy``, both measured in this run on this machine.  diffprivlib draws one
value per Python call (``randomise(0.0)``), so it is timed on ``--calls`` calls and its per-sample
time is extrapolated (time / calls); the table says so.  Memory (peak RSS and tracemalloc peak)
is measured for each vectorized sampler in a fresh child process.

Targets (issue): privlab staircase ≤ 2× numpy Laplace time; ≥ 100× faster than diffprivlib's
Staircase.  Nothing here asserts; the script prints what it saw.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import math
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (
    Row,
    best_of,
    dump_json,
    format_table,
    log,
    machine_info,
    measure_memory,
    print_machine,
    rows_to_json,
)

from privlab.mechanisms.noise.laplace import Laplace
from privlab.mechanisms.noise.staircase import Staircase

EPS = 1.0
SENS = 1.0
_BELOW_ONE = float(np.nextafter(1.0, 0.0))


@dataclass
class Case:
    name: str
    fn: Callable[[], Any]
    count: int  # samples produced by one call of fn
    per_call: bool = False  # one Python call per sample (diffprivlib): extrapolated
    memory: bool = True  # measure memory in a child process
    note: str = ""


def _safe_available() -> tuple[bool, str]:
    if importlib.util.find_spec("privlab.mechanisms.noise.safe") is None:
        return False, "privlab.mechanisms.noise.safe does not exist yet"
    try:
        mod = importlib.import_module("privlab.mechanisms.noise.safe")
    except Exception as exc:  # a half-written module must not stop the benchmark
        return False, f"privlab.mechanisms.noise.safe failed to import: {exc!r}"
    if not hasattr(mod, "safe_release"):
        return False, "privlab.mechanisms.noise.safe has no safe_release"
    return True, ""


def build_cases(args: argparse.Namespace, *, for_memory: bool = False) -> list[Case]:
    n, seed = args.n, args.seed
    stair = Staircase.optimal(EPS, SENS)
    lap = Laplace(epsilon=EPS, sensitivity=SENS)
    g = np.random.default_rng(seed)
    cases = [
        Case("numpy Generator.laplace (reference)", lambda: g.laplace(0.0, SENS / EPS, n), n),
        Case("numpy Generator.random (1 uniform/draw floor)", lambda: g.random(n), n),
        Case("privlab Laplace(epsilon=1).sample", lambda: lap.sample(n, rng=g), n),
        Case("privlab Staircase.optimal(1).sample", lambda: stair.sample(n, rng=g), n,
             note=f"d={stair.d:.6f}"),
        Case("privlab Staircase release(zeros, fast)",
             lambda: stair.release(np.zeros(n), rng=g), n),
    ]
    ok, why = _safe_available()
    if ok:
        ns = args.safe_n or n
        cases.append(Case("privlab Staircase release(zeros, safe)",
                          lambda: stair.release(np.zeros(ns), rng=g, mode="safe"), ns,
                          note="privlab.mechanisms.noise.safe"))
        cases.append(Case("privlab Laplace release(zeros, safe)",
                          lambda: lap.release(np.zeros(ns), rng=g, mode="safe"), ns,
                          note="privlab.mechanisms.noise.safe"))
        for eps in args.safe_epsilons:  # the same two releases at other ε (the laws change)
            for mech in (Staircase.optimal(eps, SENS), Laplace(epsilon=eps, sensitivity=SENS)):
                cases.append(Case(f"privlab {type(mech).__name__} release(zeros, safe) eps={eps:g}",
                                  lambda m=mech: m.release(np.zeros(ns), rng=g, mode="safe"), ns,
                                  memory=False, note="privlab.mechanisms.noise.safe"))
    elif not for_memory:
        log(f"skipping safe mode: {why}")
    if for_memory and args.profile:
        cases += [Case("candidate A (in-place inverse CDF)", lambda: _cand_inplace(stair, g, n), n),
                  Case("candidate B (exponential + uniform)", lambda: _cand_exp(stair, g, n), n)]
    if args.no_diffprivlib or for_memory:
        return cases
    try:
        import diffprivlib.mechanisms as dpm
    except Exception as exc:
        log(f"skipping diffprivlib: {exc!r} (pip install -e '.[bench]')")
        return cases
    calls = args.calls
    gamma = stair.d / stair.sensitivity  # same law as privlab's optimal member
    d_stair = dpm.Staircase(epsilon=EPS, sensitivity=SENS, gamma=gamma, random_state=seed)
    d_lap = dpm.Laplace(epsilon=EPS, sensitivity=SENS, random_state=seed)
    d_lap_sec = dpm.Laplace(epsilon=EPS, sensitivity=SENS)  # library default: secrets RNG

    def loop(mech: Any) -> Callable[[], None]:
        def run() -> None:
            f = mech.randomise
            for _ in range(calls):
                f(0.0)
        return run

    extrap = f"{calls:,} calls, extrapolated"
    cases += [
        Case("diffprivlib Staircase.randomise", loop(d_stair), calls, per_call=True,
             memory=False, note=f"gamma={gamma:.6f}; {extrap}"),
        Case("diffprivlib Laplace.randomise", loop(d_lap), calls, per_call=True,
             memory=False, note=f"seeded RandomState; {extrap}"),
        Case("diffprivlib Laplace.randomise (default RNG)", loop(d_lap_sec), calls,
             per_call=True, memory=False, note=f"secrets.SystemRandom; {extrap}"),
    ]
    return cases


def run_timings(args: argparse.Namespace) -> tuple[list[Row], dict[str, float]]:
    rows, per_sample = [], {}
    for c in build_cases(args):
        log(f"timing {c.name} ({c.count:,} samples/call, {args.repeats} repeats)")
        t = best_of(c.fn, repeats=args.repeats, warmup=0 if c.per_call else 1)
        ps = t.best / c.count
        per_sample[c.name] = ps
        rows.append(Row(c.name, {"samples": c.count, "best_s": t.best, "median_s": t.median,
                                 "ns_per_sample": ps * 1e9, "samples_per_s": 1.0 / ps,
                                 "page_faults_per_call": t.minor_faults},
                        c.note))
    ref = per_sample[rows[0].name]
    dpl = per_sample.get("diffprivlib Staircase.randomise")
    for r in rows:
        r.values["ratio_vs_numpy"] = per_sample[r.name] / ref
        r.values["dpl_stair_speedup"] = dpl / per_sample[r.name] if dpl else None
    return rows, per_sample


def run_memory(args: argparse.Namespace) -> list[Row]:
    rows = []
    for c in build_cases(args, for_memory=True):
        if not c.memory:
            continue
        log(f"memory {c.name} (child process, n={c.count:,})")
        cmd = [sys.executable, __file__, "--_mem-child", c.name, "--n", str(args.n),
               "--seed", str(args.seed)]
        if args.safe_n:
            cmd += ["--safe-n", str(args.safe_n)]
        if args.profile:
            cmd.append("--profile")
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            log(f"  child failed: {proc.stderr.strip()[-500:]}")
            continue
        m = json.loads(proc.stdout)
        mib = 2.0**20
        rows.append(Row(c.name, {
            "samples": c.count,
            "result_MiB": m["result_nbytes"] / mib,
            "rss_peak_delta_MiB": (m["rss_peak_delta"] / mib) if m["rss_peak_delta"] else None,
            "tracemalloc_peak_MiB": m["tracemalloc_peak"] / mib,
            "peak_over_result": m["tracemalloc_peak"] / m["result_nbytes"]
            if m["result_nbytes"] else None,
        }, "" if m["rss_reset"] else "RSS peak is lifetime ru_maxrss (VmHWM reset refused)"))
    return rows


def _mem_child(args: argparse.Namespace) -> None:
    case = {c.name: c for c in build_cases(args, for_memory=True)}[args._mem_child]
    print(json.dumps(measure_memory(case.fn)))


# ---- profile of the staircase sampler ------------------------------------------------------
def run_profile(args: argparse.Namespace) -> tuple[list[Row], list[Row]]:
    """Time each numpy pass of ``Staircase.sample`` separately (the steps below mirror
    ``staircase.py``'s ``sample``/``_abs_icdf`` as written when this benchmark was made), then
    time candidate formulations and check them against the exact CDF."""
    n, reps = args.n, args.repeats
    st = Staircase.optimal(EPS, SENS)
    g = np.random.default_rng(args.seed)
    prof = _profile_steps(st, g, n, reps)
    d = st.d

    cands: list[tuple[str, Callable[[np.random.Generator], Any], str]] = [
        ("numpy Generator.laplace (reference)", lambda gg: gg.laplace(0.0, 1.0, n), ""),
        ("privlab Staircase.sample (current)", lambda gg: st.sample(n, rng=gg), ""),
        ("A: same math, in-place, no where", lambda gg: _cand_inplace(st, gg, n),
         "1 uniform/draw, same stream, u=0 clamped"),
        ("B: exponential + uniform (2 draws)", lambda gg: _cand_exp(st, gg, n),
         "2 draws/sample"),
    ]
    rows = []
    ref = None
    grid = np.array([-3.0, -1.5, -0.7, -d, -0.2, 0.0, 0.2, d, 0.7, 1.0, 1.5, 3.0, 6.0])
    for name, fn, note in cands:
        tm = best_of(lambda fn=fn: fn(g), repeats=reps)
        t = tm.best
        ref = ref if ref is not None else t
        x = fn(np.random.default_rng(args.seed + 1))
        # empirical CDF vs the exact one (sd of an empirical CDF value ≤ 0.5/sqrt(n))
        dev = None
        if "laplace" not in name:
            emp = np.searchsorted(np.sort(x), grid, side="right") / x.size
            dev = float(np.max(np.abs(emp - st.cdf(grid))))
        same = None
        if name.startswith("A"):
            same = bool(np.array_equal(x, st.sample(n, rng=np.random.default_rng(args.seed + 1))))
        rows.append(Row(name, {"best_s": t, "ratio_vs_numpy": t / ref,
                               "max_cdf_dev": dev, "bitwise_equal_current": same,
                               "page_faults_per_call": tm.minor_faults}, note))
    return prof, rows


def _profile_steps(st: Staircase, g: np.random.Generator, n: int, reps: int) -> list[Row]:
    p0, d, w, rate = st.p0, st.d, st.width, st.rate
    u = g.random(n)
    ww = 2.0 * u - 1.0
    p = np.abs(ww)
    e = math.log1p(-p0) - np.log1p(-p)
    i = np.floor(e / rate)
    frac = -np.expm1(-(e - i * rate)) / -math.expm1(-rate)
    tail = d + w * (i + frac)
    core = p * (d / p0)
    a = np.where(p <= p0, core, tail)
    one_m_r = -math.expm1(-rate)
    steps: list[tuple[str, Callable[[], Any]]] = [
        ("gen.random(n)", lambda: g.random(n)),
        ("w = 2u - 1", lambda: 2.0 * u - 1.0),
        ("np.abs(w)", lambda: np.abs(ww)),
        ("e = c - np.log1p(-p)", lambda: math.log1p(-p0) - np.log1p(-p)),
        ("i = np.floor(e / rate)", lambda: np.floor(e / rate)),
        ("frac = -expm1(-(e - i*rate)) / c", lambda: -np.expm1(-(e - i * rate)) / -one_m_r),
        ("tail = d + w*(i + frac)", lambda: d + w * (i + frac)),
        ("core = p * (d/p0)", lambda: p * (d / p0)),
        ("np.where(p <= p0, core, tail)", lambda: np.where(p <= p0, core, tail)),
        ("np.copysign(a, w)", lambda: np.copysign(a, ww)),
    ]
    prof = []
    for name, fn in steps:
        tm = best_of(fn, repeats=reps)
        prof.append(Row(name, {"best_s": tm.best, "ns_per_sample": tm.best / n * 1e9,
                               "page_faults_per_call": tm.minor_faults}))
    total_steps = sum(r.values["best_s"] for r in prof)
    for r in prof:
        r.values["share"] = r.values["best_s"] / total_steps
    return prof


def _cand_inplace(st: Staircase, g: np.random.Generator, n: int) -> Any:
    """Candidate A: the current inverse-CDF, one buffer reused in place, mask instead of where;
    transcendental functions only on the tail draws (p > p0); p = 1 (u = 0) clamped to the
    largest double below 1 (as ``SymmetricNoise.icdf`` does) instead of giving NaN."""
    p0, d, w, rate = st.p0, st.d, st.width, st.rate
    u = g.random(n)
    x = np.multiply(u, 2.0, out=u)
    x -= 1.0                      # x = 2u - 1 (keeps the sign)
    p = np.abs(x)                 # second buffer
    tailm = p > p0
    pt = p[tailm]
    np.minimum(pt, _BELOW_ONE, out=pt)  # u == 0 gives p == 1: NaN in the current sampler
    np.negative(pt, out=pt)
    np.log1p(pt, out=pt)
    np.subtract(math.log1p(-p0), pt, out=pt)        # e
    i = np.floor(pt / rate)
    pt -= i * rate
    np.negative(pt, out=pt)
    np.expm1(pt, out=pt)
    pt /= math.expm1(-rate)                          # frac = -expm1(-(e - i rate)) / (1 - r)
    pt += i
    pt *= w
    pt += d
    p *= d / p0
    p[tailm] = pt
    return np.copysign(p, x, out=p)


def _cand_exp(st: Staircase, g: np.random.Generator, n: int) -> Any:
    """Candidate B: |Y| = core uniform w.p. p0, else d + w·(⌊E/ε⌋ + U) with E ~ Exp(1)
    (ziggurat) — the position within a constant-density step is uniform, independent of the
    step; one uniform gives sign, core/tail and the position."""
    p0, d, w, rate = st.p0, st.d, st.width, st.rate
    e = g.standard_exponential(n)
    u = g.random(n)
    x = np.multiply(u, 2.0, out=u)
    x -= 1.0
    p = np.abs(x)
    core = p <= p0
    core_val = p[core] * (d / p0)
    e *= 1.0 / rate
    np.floor(e, out=e)                     # step index i (geometric)
    # tail position t = (p - p0)/(1 - p0) ∈ [0, 1): uniform given p > p0
    t = np.subtract(p, p0, out=p)
    t *= 1.0 / (1.0 - p0)
    e += t
    e *= w
    e += d
    e[core] = core_val
    return np.copysign(e, x, out=e)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=10**7, help="samples per vectorized call")
    ap.add_argument("--repeats", type=int, default=5, help="best-of-k timing")
    ap.add_argument("--calls", type=int, default=10**5,
                    help="randomise() calls timed for diffprivlib (per-call API)")
    ap.add_argument("--safe-n", type=int, default=None, help="n for the safe mode (default --n)")
    ap.add_argument("--safe-epsilons", type=float, nargs="*", default=[],
                    help="also time the safe releases at these ε (e.g. 0.1 0.5 2 5)")
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--json", action="store_true", help="JSON on stdout, progress on stderr")
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--no-diffprivlib", action="store_true")
    ap.add_argument("--profile", action="store_true",
                    help="also time each numpy pass of the staircase sampler and candidates")
    ap.add_argument("--_mem-child", dest="_mem_child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args._mem_child:
        _mem_child(args)
        return 0

    info = machine_info()
    rows, per_sample = run_timings(args)
    mem = [] if args.no_memory else run_memory(args)
    prof, cands = run_profile(args) if args.profile else ([], [])

    stair = per_sample["privlab Staircase.optimal(1).sample"]
    ref = per_sample["numpy Generator.laplace (reference)"]
    dpl = per_sample.get("diffprivlib Staircase.randomise")
    targets = {"staircase_over_numpy": stair / ref, "target_staircase_over_numpy_max": 2.0,
               "met_2x": stair / ref <= 2.0}
    if dpl:
        targets |= {"diffprivlib_staircase_over_privlab": dpl / stair,
                    "target_speedup_min": 100.0, "met_100x": dpl / stair >= 100.0}
    if args.json:
        print(dump_json({"machine": info, "args": {k: v for k, v in vars(args).items()
                                                    if k != "_mem_child"},
                         "timings": rows_to_json(rows), "memory": rows_to_json(mem),
                         "profile": rows_to_json(prof), "candidates": rows_to_json(cands),
                         "targets": targets}))
        return 0
    print_machine(info)
    print(f"\n## Throughput (n={args.n:,}, best of {args.repeats}; ratios = time per sample / "
          "numpy Generator.laplace, same run)\n")
    print(format_table(rows, ["samples", "best_s", "median_s", "ns_per_sample",
                              "samples_per_s", "ratio_vs_numpy", "dpl_stair_speedup",
                              "page_faults_per_call"]))
    met2 = "met" if targets["met_2x"] else "MISSED"
    print(f"\nTargets: staircase/numpy = {targets['staircase_over_numpy']:.3f} (≤ 2: {met2})",
          end="")
    if dpl:
        print(f"; diffprivlib Staircase / privlab staircase = "
              f"{targets['diffprivlib_staircase_over_privlab']:,.1f} "
              f"(≥ 100: {'met' if targets['met_100x'] else 'MISSED'})")
    else:
        print()
    if mem:
        print(f"\n## Memory for one call (fresh child process each; n={args.n:,})\n")
        print(format_table(mem, ["samples", "result_MiB", "rss_peak_delta_MiB",
                                 "tracemalloc_peak_MiB", "peak_over_result"]))
    if prof:
        print(f"\n## Staircase sampler, per numpy pass (n={args.n:,}, best of {args.repeats})\n")
        print(format_table(prof, ["best_s", "ns_per_sample", "share", "page_faults_per_call"]))
        print(f"\n## Candidate formulations (n={args.n:,}; max_cdf_dev: largest |empirical − "
              f"exact CDF| on 13 points, sd ≤ {0.5 / math.sqrt(args.n):.1e})\n")
        print(format_table(cands, ["best_s", "ratio_vs_numpy", "max_cdf_dev",
                                   "bitwise_equal_current", "page_faults_per_call"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
