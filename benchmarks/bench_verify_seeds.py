"""Family-wise false-failure rate of ``privlab verify --quick``'s audits over many seeds.

Two modes (slow; run by hand, numbers go to benchmarks/RESULTS.md):

* ``--mode sections`` (default): builds only the report sections that run audits
  (univariate, multivariate, refinement, dp_release, audit_suite) with ``Context(quick=True,
  seed=S)`` — exactly the audits, confirmation and error budget of ``privlab verify --quick
  --seed S`` — and prints, per seed, the guarantees that fail.  Much faster than the full run
  (no claim ledger, tables or HTML).
* ``--mode verify``: runs ``privlab verify --quick --seed S --out DIR`` as a subprocess per
  seed and records the exit status.

    python benchmarks/bench_verify_seeds.py --seeds 0-29 [--mode verify] [--jobs 1]

Prints one line per seed and a summary: seeds run, seeds with any failed audit guarantee,
correct mechanisms flagged, broken controls missed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

AUDIT_SECTIONS = ("univariate", "multivariate", "refinement", "dp_release", "audit_suite")


def _seeds(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += list(range(int(lo), int(hi or lo) + 1))
    return out


def run_sections(seed: int, tmp: Path) -> dict[str, object]:
    import importlib

    from privlab.report.section import Context

    ctx = Context(quick=True, seed=seed, figures_dir=tmp / f"fig{seed}")
    flagged, missed, n = [], [], 0
    for name in AUDIT_SECTIONS:
        sec = importlib.import_module(f"privlab.report.sections.{name}").build(ctx)
        for a in sec.audits:
            if a.get("expected") not in ("consistent", "violation"):
                continue  # a finding, not a guarantee
            n += 1
            if not a["ok"]:
                (missed if a["control"] else flagged).append(a["mechanism"])
        for g in sec.guarantees:
            if not g.holds and not any(m in g.description for m in flagged + missed):
                flagged.append(g.description)
    return {"seed": seed, "audits": n, "flagged": flagged, "missed": missed,
            "ok": not flagged and not missed, "budget": ctx.audit_budget.to_dict()}


def run_verify(seed: int, tmp: Path) -> dict[str, object]:
    p = subprocess.run([sys.executable, "-m", "privlab", "verify", "--quick", "--seed",
                        str(seed), "--out", str(tmp / f"r{seed}")], capture_output=True,
                       text=True, check=False)
    failed = [ln.strip() for ln in p.stdout.splitlines() + p.stderr.splitlines()
              if "FAILED" in ln]
    return {"seed": seed, "exit": p.returncode, "ok": p.returncode == 0, "failed": failed}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="0-29")
    ap.add_argument("--mode", choices=["sections", "verify"], default="sections")
    args = ap.parse_args()
    seeds = _seeds(args.seeds)
    t0 = time.perf_counter()
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for s in seeds:
            t = time.perf_counter()
            r = run_sections(s, Path(d)) if args.mode == "sections" else run_verify(s, Path(d))
            r["seconds"] = round(time.perf_counter() - t, 1)
            rows.append(r)
            print(r, flush=True)
    bad = [r["seed"] for r in rows if not r["ok"]]
    print(f"mode={args.mode} seeds={len(rows)} failing_seeds={bad} "
          f"total_seconds={time.perf_counter() - t0:.0f}")


if __name__ == "__main__":
    main()
