"""StatDP's hypothesis-test detector (Ding et al., CCS 2018) on its own mechanism implementations.

Runs inside ``/tmp/venv-statdp`` (see README.md).  Called by ``run_anchors.py`` as

    python anchor_statdp.py SPEC_JSON

with SPEC_JSON = {"mechanism": "laplace" | "noisy-max-value", "samples": n, "grid": [ε, …],
"confidence": 0.95, "cores": 2, "selection_fraction": 0.3}.

Mechanisms (StatDP's own code, ``statdp.algorithms``):

* ``laplace`` → ``histogram(prng, queries, epsilon)`` with one query: q₀ + Lap(1/ε), ε = 1,
  databases [0] and [1] — the Laplace mechanism on neighbours 0 vs 1;
* ``noisy-max-value`` → ``noisy_max_v1b`` (max of q + Lap(2/ε), the value instead of the
  index), ε = 1, databases 0⁵ and 1⁵ (true ε = 5·ε/2 = 2.5).

For every tested ε of ``grid`` StatDP selects an event on ``selection_fraction``·n outputs per
side and tests H₀: "ε-DP holds on that event" on the remaining outputs (fresh samples), so each
tested ε costs n outputs per side.  The reported lower bound is the largest tested ε whose
p-value is below α = 1 − confidence; each p-value is at level α on its own and **not corrected**
for the number of tested ε (StatDP reports one p-value per ε).  StatDP seeds nothing (its
samplers use ``np.random.default_rng()``), so reruns differ.  The last stdout line is the JSON
list of rows (one per mechanism run, with every p-value).
"""

from __future__ import annotations

import json
import logging
import math
import sys
import time

from statdp import algorithms as alg
from statdp import detect_counterexample

MECHS = {
    "laplace": (alg.histogram, [0.0], [1.0]),
    "noisy-max-value": (alg.noisy_max_v1b, [0.0] * 5, [1.0] * 5),
}


def main() -> None:
    spec = json.loads(sys.argv[1])
    fn, d1, d2 = MECHS[spec["mechanism"]]
    n = int(spec["samples"])
    n_sel = math.ceil(float(spec["selection_fraction"]) * n)
    alpha = 1.0 - float(spec["confidence"])
    t0 = time.perf_counter()
    res = detect_counterexample(fn, tuple(spec["grid"]), default_kwargs={"epsilon": 1.0},
                                databases=(d1, d2), event_iterations=n_sel,
                                detect_iterations=n - n_sel, cores=int(spec["cores"]),
                                quiet=True, loglevel=logging.WARNING)
    secs = time.perf_counter() - t0
    pvals = {float(e): float(p) for e, p, *_ in res}
    rejected = [e for e, p in pvals.items() if p < alpha]
    events = {float(e): str(ev) for e, _p, _d1, _d2, _kw, ev in res}
    lb = max(rejected) if rejected else 0.0
    print(json.dumps([{
        "anchor": "StatDP d1f1e8f", "method": f"detect_counterexample ({fn.__name__}), largest "
        f"tested ε with p < {alpha:g}, uncorrected over {len(pvals)} ε",
        "eps_lb": lb, "confidence": float(spec["confidence"]), "seconds": secs,
        "samples_per_eps": n, "p_values": pvals, "events": events,
        "grid_note": "0 = nothing rejected" if not rejected else ""}]))


if __name__ == "__main__":
    main()
