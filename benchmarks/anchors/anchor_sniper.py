"""DP-Sniper (Bichsel et al., S&P 2021) on one fixed neighbour pair, with its own mechanisms.

Runs inside ``/tmp/venv-sniper`` (torch CPU + dpsniper from source; see README.md).  Called by
``run_anchors.py`` as

    python anchor_sniper.py SPEC_JSON

with SPEC_JSON = {"mechanism": "laplace" | "noisy-max-value", "samples": n, "confidence": 0.95,
"cores": 2, "out_dir": DIR}.

Mechanisms (DP-Sniper's own code): ``LaplaceMechanism(eps=1)`` on a1 = [0], a2 = [1];
``ReportNoisyMax3(eps=1)`` (the max noisy *value*, Lap(2/ε) noise) on a1 = 0⁵, a2 = 1⁵.

The pair is fixed (no DD-Search over inputs), so only DP-Sniper's attack construction and its
estimate are run: ``DPSniper.best_attack(a1, a2)`` trains the logistic-regression classifier of
the paper's default experiment (SGD, lr 0.3, momentum 0.3, step 500, weight 0.001, 10 epochs)
on ``n_train`` outputs per side and sets the threshold on ``n`` outputs of a2 (``c`` = 0.01,
its default); ``DDWitness.compute_eps_using_estimator`` then counts the attack's hits on
``n_check`` fresh outputs per side and returns eps and its lower confidence bound (two
Clopper–Pearson bounds, union bound, at ``confidence``).  Budget for ``samples`` = N per side:
n_train = 0.2·N, n = 0.1·N (a2 only), n_check = 0.7·N — a1 gets 0.9·N, a2 exactly N.
The last stdout line is the JSON list of rows.
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np
from dpsniper.attack.dpsniper import DPSniper
from dpsniper.classifiers.classifier_factory import LogisticRegressionFactory
from dpsniper.classifiers.torch_optimizer_factory import SGDOptimizerFactory
from dpsniper.mechanisms.laplace import LaplaceMechanism
from dpsniper.mechanisms.report_noisy_max import ReportNoisyMax3
from dpsniper.probability.estimators import EpsEstimator, PrEstimator
from dpsniper.search.ddconfig import DDConfig
from dpsniper.search.ddwitness import DDWitness
from dpsniper.utils.initialization import initialize_dpsniper


def _mech(name: str):
    if name == "laplace":
        return LaplaceMechanism(eps=1.0), np.array([0.0]), np.array([1.0]), 1
    if name == "noisy-max-value":
        return ReportNoisyMax3(eps=1.0), np.zeros(5), np.ones(5), 1
    raise SystemExit(f"unknown mechanism {name!r}")


def main() -> None:
    spec = json.loads(sys.argv[1])
    n = int(spec["samples"])
    mech, a1, a2, dim = _mech(spec["mechanism"])
    cfg = DDConfig(n_train=n // 5, n=n // 10, n_check=7 * n // 10, n_final=7 * n // 10,
                   n_processes=int(spec["cores"]), confidence=float(spec["confidence"]))
    factory = LogisticRegressionFactory(
        in_dimensions=dim,
        optimizer_factory=SGDOptimizerFactory(learning_rate=0.3, momentum=0.3, step_size=500),
        regularization_weight=0.001, epochs=10, feature_transform=None, label=spec["mechanism"])
    t0 = time.perf_counter()
    with initialize_dpsniper(cfg, out_dir=spec["out_dir"], torch_threads=int(spec["cores"])):
        t1 = time.perf_counter()
        attack = DPSniper(mech, factory, cfg).best_attack(a1, a2)
        w = DDWitness(a1, a2, attack)
        w.compute_eps_using_estimator(
            EpsEstimator(PrEstimator(mech, cfg.n_check, cfg, use_parallel_executor=True)))
        t2 = time.perf_counter()
    print(json.dumps([{
        "anchor": "DP-Sniper ee087b2", "method": "best_attack (logistic regression, c=0.01) + "
        "EpsEstimator (CP pair, union bound)", "eps_lb": float(w.lower_bound),
        "eps_estimate": float(w.eps), "confidence": cfg.confidence, "seconds": t2 - t1,
        "seconds_with_pool_start": t2 - t0, "samples_a": cfg.n_train + cfg.n_check,
        "samples_b": cfg.n_train + cfg.n + cfg.n_check, "attack": str(attack)}]))


if __name__ == "__main__":
    main()
