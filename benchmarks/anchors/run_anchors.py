"""privlab's auditor against the peer auditors that install here, in one run.

    python benchmarks/anchors/run_anchors.py                       # 10^5 and 10^6 per side
    python benchmarks/anchors/run_anchors.py --samples 100000 --anchors privlab jax-privacy

Runs in the project's environment (privlab installed); every peer runs in its own throw-away
venv as a subprocess (README.md beside this file says how to build each one).  A peer whose
venv is absent, or whose run fails or times out, is skipped with the reason printed; nothing
here is needed by the tests or CI.

Mechanisms (same law for every tool, same number of outputs per side):

* ``laplace``: Laplace ε = 1, neighbours 0 vs 1, claimed ε = 1, true ε = 1 (exact);
* ``noisy-max-value``: report-noisy-max returning the max noisy value, Lap(2/ε), ε = 1, m = 5,
  neighbours 0⁵ vs 1⁵, claimed ε = 1, true ε = m·ε/2 = 2.5 (exact; privlab control
  ``noisy-max-value``, StatDP ``noisy_max_v1b``, DP-Sniper ``ReportNoisyMax3``).

Samples.  The driver draws n outputs per side once (privlab's samplers, ``--seed``); privlab's
``audit_pair`` consumes exactly these arrays, in order (its selection and estimation phases
are fed consecutive slices; the driver checks that all n were used), and jax-privacy — which
audits given scores and has no mechanisms — gets the very same arrays.  StatDP and DP-Sniper
draw from their own implementations of the same law with the same n per side (StatDP per tested
ε).  The ``seconds`` column is the tool's own audit call: for privlab and jax-privacy it excludes
drawing the samples (``draw_s`` in the header line of each block), for StatDP and DP-Sniper it
includes drawing them; ``wall_s`` is the whole subprocess (interpreter start, imports).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from _common import Row, format_table, log, machine_info, print_machine  # noqa: E402

from privlab.audit import audit_pair  # noqa: E402
from privlab.audit.controls import make  # noqa: E402
from privlab.mechanisms.noise.laplace import Laplace  # noqa: E402

VENVS = {  # anchor -> (env variable overriding the venv path, default path, script)
    "jax-privacy": ("PRIVLAB_VENV_JAXP", "/tmp/venv-jaxp", "anchor_jaxp.py"),
    "statdp": ("PRIVLAB_VENV_STATDP", "/tmp/venv-statdp", "anchor_statdp.py"),
    "dp-sniper": ("PRIVLAB_VENV_SNIPER", "/tmp/venv-sniper", "anchor_sniper.py"),
}
ANCHORS = ("privlab", *VENVS)
MECHS: dict[str, dict[str, Any]] = {
    "laplace": {"claimed": 1.0, "true": 1.0,
                "grid": [0.9, 0.95, 0.97, 0.98, 0.99, 1.0, 1.01]},
    "noisy-max-value": {"claimed": 1.0, "true": 2.5,
                        "grid": [1.0, 1.5, 2.0, 2.2, 2.3, 2.4, 2.5, 2.6]},
}
COLS = ["anchor", "mechanism", "claimed_eps", "true_eps", "samples/side", "eps_lb",
        "confidence", "seconds", "wall_s"]


def draw_pair(mech: str, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """n outputs per side of ``mech`` on its two neighbours, from privlab's samplers."""
    ga, gb = (np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(2))
    if mech == "laplace":
        lap = Laplace(epsilon=1.0)
        return lap.sample(n, rng=ga), 1.0 + lap.sample(n, rng=gb)
    ctl = make("noisy-max-value", epsilon=1.0)
    x0, x1 = [0.0] * 5, [1.0] * 5
    assert [list(p) for p in ctl.pairs[1]] == [x0, x1]
    return (np.asarray(ctl.draw(x0, n, ga), float), np.asarray(ctl.draw(x1, n, gb), float))


class Feeder:
    """A sampler ``(k, rng) -> array`` handing out consecutive slices of a fixed array."""

    def __init__(self, data: np.ndarray) -> None:
        self.data, self.pos = data, 0

    def __call__(self, k: int, _rng: np.random.Generator) -> np.ndarray:
        if self.pos + k > self.data.size:
            raise RuntimeError(f"auditor asked for more than the {self.data.size} outputs drawn")
        out = self.data[self.pos:self.pos + k]
        self.pos += k
        return out


def run_privlab(a: np.ndarray, b: np.ndarray, n: int, conf: float, claimed: float,
                seed: int) -> dict[str, Any]:
    fa, fb = Feeder(a), Feeder(b)
    t0 = time.perf_counter()
    r = audit_pair(fa, fb, samples=n, confidence=conf, claimed_epsilon=claimed, rng=seed,
                   workers=1, name="anchors")
    secs = time.perf_counter() - t0
    if fa.pos != n or fb.pos != n:
        raise RuntimeError(f"privlab used {fa.pos}/{fb.pos} outputs, not {n} per side")
    cex = r.counterexample or {}
    return {"anchor": "privlab", "method": f"audit_pair ({cex.get('bound_method')}; event "
            f"{cex.get('event')})", "eps_lb": r.epsilon_lower_bound, "confidence": conf,
            "seconds": secs, "wall_s": secs, "verdict": r.verdict}


def run_peer(anchor: str, spec: dict[str, Any], timeout: float) -> list[dict[str, Any]]:
    """Run the anchor's script in its venv; rows, or one row saying why it was skipped."""
    env_var, default, script = VENVS[anchor]
    venv = Path(os.environ.get(env_var, default))
    py = venv / "bin" / "python"
    if not py.exists():
        why = f"venv {venv} absent (see benchmarks/anchors/README.md; or set {env_var})"
        log(f"{anchor}: skipped: {why}")
        return [{"anchor": anchor, "skipped": why}]
    t0 = time.perf_counter()
    try:
        proc = subprocess.run([str(py), str(HERE / script), json.dumps(spec)],
                              capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        log(f"{anchor}: skipped: no result within {timeout:.0f} s")
        return [{"anchor": anchor, "skipped": f"timeout {timeout:.0f} s"}]
    wall = time.perf_counter() - t0
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        log(f"{anchor}: failed (exit {proc.returncode}): {tail}")
        return [{"anchor": anchor, "skipped": f"exit {proc.returncode}: {tail[:160]}"}]
    rows = json.loads(lines[-1])
    for r in rows:
        r["wall_s"] = wall
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--samples", type=int, nargs="+", default=[10**5, 10**6])
    ap.add_argument("--mechanisms", nargs="+", choices=list(MECHS), default=list(MECHS))
    ap.add_argument("--anchors", nargs="+", choices=ANCHORS, default=list(ANCHORS))
    ap.add_argument("--confidence", type=float, default=0.95)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cores", type=int, default=os.cpu_count() or 1,
                    help="processes StatDP and DP-Sniper may use (privlab: 1 worker)")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds per peer run")
    ap.add_argument("--json", action="store_true", help="also print all rows as JSON")
    args = ap.parse_args()
    print_machine(machine_info())
    out: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="privlab-anchors-") as tmp:
        for mech in args.mechanisms:
            m = MECHS[mech]
            for n in args.samples:
                t0 = time.perf_counter()
                a, b = draw_pair(mech, n, args.seed)
                log(f"{mech} n={n}: drew the samples in {time.perf_counter() - t0:.2f} s")
                np.save(pa := Path(tmp) / "a.npy", a)
                np.save(pb := Path(tmp) / "b.npy", b)
                rows: list[dict[str, Any]] = []
                for anchor in args.anchors:
                    log(f"{mech} n={n}: {anchor} ...")
                    if anchor == "privlab":
                        rows.append(run_privlab(a, b, n, args.confidence, m["claimed"],
                                                args.seed))
                    elif anchor == "jax-privacy":
                        rows += run_peer(anchor, {"a": str(pa), "b": str(pb),
                                                  "confidence": args.confidence,
                                                  "split_seed": args.seed, "split_frac": 0.5},
                                         args.timeout)
                    elif anchor == "statdp":
                        rows += run_peer(anchor, {"mechanism": mech, "samples": n,
                                                  "grid": m["grid"], "cores": args.cores,
                                                  "confidence": args.confidence,
                                                  "selection_fraction": 0.3}, args.timeout)
                    else:
                        sn = 1000 * math.ceil(n / 1000)
                        rows += run_peer(anchor, {"mechanism": mech, "samples": sn,
                                                  "confidence": args.confidence,
                                                  "cores": args.cores, "out_dir": tmp},
                                         args.timeout)
                for r in rows:
                    r.update(mechanism=mech, claimed_eps=m["claimed"], true_eps=m["true"],
                             samples=n)
                    log(f"  {r}")
                out += rows
    table = []
    for r in out:
        vals = {"anchor": r["anchor"], "mechanism": r["mechanism"],
                "claimed_eps": r["claimed_eps"], "true_eps": r["true_eps"],
                "samples/side": r["samples"]}
        if "skipped" in r:
            table.append(Row(name=r["anchor"], values=vals, note=f"skipped: {r['skipped']}"))
            continue
        vals.update(eps_lb=round(float(r["eps_lb"]), 4), confidence=r["confidence"],
                    seconds=round(float(r["seconds"]), 4), wall_s=round(float(r["wall_s"]), 2))
        note = r.get("method", "")
        if "p_values" in r:
            note += "; p: " + ", ".join(f"{float(e):g}:{p:.2g}" for e, p in r["p_values"].items())
        if "eps_estimate" in r:
            note += f"; point estimate {r['eps_estimate']:.4f}"
        table.append(Row(name=r["anchor"], values=vals, note=note))
    print("\n#### Anchors: ε lower bounds on the same mechanisms, same outputs per side\n")
    print(format_table(table, COLS[1:]))
    if args.json:
        print(json.dumps(out, default=str))


if __name__ == "__main__":
    main()
