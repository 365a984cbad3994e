"""jax-privacy's Clopper–Pearson threshold audit on samples handed over by the driver.

Runs inside ``/tmp/venv-jaxp`` (see README.md), never in the project's environment: it imports
only numpy and ``jax_privacy.auditing``.  Called by ``run_anchors.py`` as

    python anchor_jaxp.py SPEC_JSON

where SPEC_JSON = {"a": "a.npy", "b": "b.npy", "confidence": 0.95, "split_seed": 0,
"split_frac": 0.5}.  ``a`` / ``b`` are the outputs on the two neighbours (the very arrays privlab
audited).  jax-privacy has no mechanism implementations, so the samples are always passed in.

For each threshold strategy of ``CanaryScoreAuditor.epsilon_clopper_pearson`` it prints one
row with the lower bound and the seconds of the call: ``Bonferroni`` (the default: α divided by
the number of thresholds on the data's Pareto frontier, every threshold tried) and ``Split``
(choose the threshold on a fraction, 0.5 by default, bound on the rest).  ``one_sided=False``,
so both tails ({Y ≥ t} and {Y < t}) are searched, as privlab does.  The last stdout line is the
JSON list of rows.
"""

from __future__ import annotations

import json
import sys
import time
from importlib import metadata

import numpy as np
from jax_privacy import auditing


def main() -> None:
    spec = json.loads(sys.argv[1])
    a = np.load(spec["a"])
    b = np.load(spec["b"])
    alpha = 1.0 - float(spec["confidence"])
    version = metadata.version("jax-privacy")
    rows = []
    t0 = time.perf_counter()
    # "in" canaries score higher: the input whose outputs are larger is b (0 vs 1 neighbours)
    aud = auditing.CanaryScoreAuditor(b, a)
    t_build = time.perf_counter() - t0
    strategies = [
        ("Bonferroni (all thresholds)", auditing.Bonferroni()),
        (f"Split({spec['split_frac']})",
         auditing.Split(threshold_estimation_frac=float(spec["split_frac"]),
                        seed=int(spec["split_seed"]))),
    ]
    for label, strat in strategies:
        t1 = time.perf_counter()
        eps = auditing.CanaryScoreAuditor.epsilon_clopper_pearson(
            aud, significance=alpha, delta=0.0, one_sided=False, threshold_strategy=strat)
        secs = time.perf_counter() - t1 + t_build
        rows.append({"anchor": f"jax-privacy {version}", "method": f"epsilon_clopper_pearson "
                     f"{label}, two-sided", "eps_lb": float(eps),
                     "confidence": float(spec["confidence"]), "seconds": secs,
                     "samples_a": int(a.size), "samples_b": int(b.size)})
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
