"""The black-box auditor: tightness and wall time on mechanisms with known ε, in one run.

    python benchmarks/bench_audit.py            # full (a few minutes on 2 cores)
    python benchmarks/bench_audit.py --quick    # 10^5-10^6 only

Rows (each: the bound, the truth computed from closed forms, wall time):

* Laplace ε = 1 (neighbours 0, 1; 95 %): ε lower bound at 10^5, 10^6, 10^7 per side, with 1
  and 2 worker processes (the bound is identical for any number of workers);
* (ε, δ): δ lower bound at ε′ = 0.9 (true 0.0488) at 10^6;
* floating point: naive float Laplace at claimed ε = 0.1 against 0.25, and the safe mode;
* anchor that installs here: diffprivlib 0.6.6's ``Laplace`` mechanism (its own sampler,
  called through ``randomise`` one value at a time, as its API offers) audited on its law and
  on its floating-point low bits;
* the whole control suite (quick: 10^5, full: 10^6 per side).

Other auditors (jax-privacy, StatDP, DP-Sniper, Delta-Siege, DP-Auditorium) are not installed
here; the numbers the issue quotes for them are not re-measured.  Nothing asserts on time;
timings are noisy when other jobs share the 2 cores (the load average is printed).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import Row, format_table, log, machine_info, print_machine

from privlab.audit import audit_mechanism, audit_pair
from privlab.audit.controls import make
from privlab.audit.suite import run_suite
from privlab.mechanisms.noise.laplace import Laplace

COLS = ["samples/side", "workers", "eps_lb", "delta_lb", "verdict", "truth", "seconds"]


def _row(what: str, r, truth: str, workers: int = 1, seconds: float | None = None) -> Row:
    return Row(name=what, values={
        "samples/side": r.samples, "workers": workers, "eps_lb": round(r.epsilon_lower_bound, 4),
        "delta_lb": round(r.delta_lower_bound, 5), "verdict": r.verdict, "truth": truth,
        "seconds": round(r.seconds if seconds is None else seconds, 2)})


def _diffprivlib_rows(n: int) -> list[Row]:
    try:
        from diffprivlib.mechanisms import Laplace as DplLaplace
    except ImportError:
        log("diffprivlib not installed: skipped (pip install -e '.[bench]')")
        return []
    def side(x: float):
        def s(k: int, g: np.random.Generator):
            # a fresh diffprivlib mechanism per batch, seeded from the auditor's stream
            mech = DplLaplace(epsilon=1.0, sensitivity=1.0,
                              random_state=int(g.integers(2**31)))
            return np.array([mech.randomise(x) for _ in range(k)])
        return s

    out = []
    for bits in (False, True):
        t0 = time.perf_counter()
        r = audit_pair(side(0.0), side(1.0), samples=n, rng=0, claimed_epsilon=1.0,
                       float_bits=bits, name="diffprivlib Laplace")
        out.append(_row(f"diffprivlib.Laplace eps=1{' [float bits]' if bits else ''}", r,
                        "1 (law)", seconds=time.perf_counter() - t0))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    print_machine(machine_info())
    rows = []
    sizes = (10**5, 10**6) if args.quick else (10**5, 10**6, 10**7)
    for n in sizes:
        for w in (1, 2) if n >= 10**6 else (1,):
            log(f"laplace {n} workers={w}")
            r = audit_mechanism(Laplace(epsilon=1.0), samples=n, rng=0, workers=w)
            rows.append(_row("Laplace eps=1 (epsilon bound)", r, "1", w))
    r = audit_mechanism(Laplace(epsilon=1.0), samples=10**6, rng=0, claimed_epsilon=0.9,
                        objective="delta")
    rows.append(_row("Laplace eps=1, delta at eps'=0.9", r, "delta=0.0488"))
    for name in ("float-laplace-naive", "float-laplace-safe"):
        r = audit_mechanism(make(name, epsilon=0.1), samples=10**6, rng=0,
                            claimed_epsilon=0.25)
        rows.append(_row(f"{name} eps=0.1 vs claim 0.25", r,
                         "inf" if "naive" in name else "<= 0.1"))
    rows += _diffprivlib_rows(20_000 if args.quick else 100_000)
    print("\n#### Auditor: bounds and wall time (95 % confidence)\n")
    print(format_table(rows, COLS))
    t0 = time.perf_counter()
    table = run_suite(quick=args.quick, rng=0)
    secs = time.perf_counter() - t0
    print(f"\n#### Control suite ({table.rows[0]['samples']}/side): "
          f"{sum(r['ok'] for r in table.rows)}/{len(table.rows)} as expected in {secs:.1f} s\n")
    cols = ["mechanism", "epsilon_claimed", "epsilon_true", "true_note",
            "epsilon_lower_bound", "verdict", "ok", "feature", "seconds"]
    print(format_table([Row(name=r["mechanism"], values={c: r[c] for c in cols[1:]})
                        for r in table.rows], cols[1:]))


if __name__ == "__main__":
    main()
