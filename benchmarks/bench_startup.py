"""CLI start-up: ``privlab --help`` and ``privlab COMMAND --help`` against ``python -c "import
numpy"`` measured in the same run (issue 19: ≤ 0.25 s on the project machine; the ratio is
what travels between machines).

    python benchmarks/bench_startup.py [--repeats 7]

Each command is run as a fresh process; the median wall time of ``repeats`` runs is printed
with its ratio to the numpy import.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time

COMMANDS = [["--help"], ["verify", "--help"], ["claims", "--help"], ["certify", "--help"],
            ["certify", "staircase", "--help"], ["release", "--help"],
            ["release", "mdav", "--help"], ["audit", "--help"], ["audit-suite", "--help"],
            ["errata", "--help"], ["session", "--help"]]


def wall(argv: list[str], repeats: int) -> float:
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        out.append(time.perf_counter() - t0)
    return statistics.median(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=7)
    a = ap.parse_args()
    exe = shutil.which("privlab") or sys.exit("privlab is not on PATH")
    base = wall([sys.executable, "-c", "import numpy"], a.repeats)
    print(f"python -c 'import numpy': {base:.3f} s (median of {a.repeats})")
    print(f"{'command':32s} {'seconds':>8s} {'ratio':>6s}")
    for c in COMMANDS:
        t = wall([exe, *c], a.repeats)
        print(f"{'privlab ' + ' '.join(c):32s} {t:8.3f} {t / base:6.2f}")


if __name__ == "__main__":
    main()
