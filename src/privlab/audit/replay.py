"""Replay a saved counterexample: re-estimate its fixed event on fresh samples.

A counterexample (``AuditResult.counterexample``, or the whole ``to_dict()``) names the
mechanism (``spec``, rebuilt with :func:`privlab.audit.controls.from_spec`; for the user's own
code — ``{"sampler" | "mechanism": REF, "pair": [a, b]}``, saved by ``privlab audit-suite run
--out`` and ``privlab audit --sampler --save`` — re-imported from REF with
:func:`privlab.audit.usercode.samplers_from_spec`) or needs the two
samplers, the neighbour pair, the feature and the event.  Because the event is fixed before the
new samples are drawn, all ``samples`` per side go to estimation and the bounds are exactly
those of the auditor's step 3 (:func:`privlab.audit.auditor._bounds`) with the bound method
the counterexample names (``bound_method``: the joint ratio bound of
:mod:`privlab.audit.ratiobound`, or log((L_a − δ)/U_b) with one-sided Clopper–Pearson bounds at
1 − α/2 each — the default for files saved before the joint bound existed), and for
``objective == "delta"`` the exact δ bound of :mod:`privlab.audit.diffbound`.  The verdict
reproduces iff it is again "violation"; a sound auditor's violations reproduce (up to the
stated error rates).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from privlab import _validate as v
from privlab._rng import RngLike
from privlab.audit import events as ev
from privlab.audit import features as ft
from privlab.audit import sampling as sp
from privlab.audit.auditor import MIN_SAMPLES, AuditResult, Sampler, _bounds
from privlab.errors import InvalidParameter
from privlab.types import jsonable

REQUIRED = ("neighbours", "feature", "event", "direction")


def _count(sampler: Sampler, name: str, n: int, seq: np.random.SeedSequence, chunk: int,
           feature: str, event: dict[str, Any], user: ft.FeatureMap | None) -> int:
    k, done, i = 0, 0, 0
    while done < n:
        m = min(chunk, n - done)
        batch = sp.draw(sampler, name, m, sp.child(seq, i))
        k += int(ev.contains(event, ft.compute(feature, batch, user)).sum())
        done, i = done + m, i + 1
    return k


def replay(counterexample: Mapping[str, Any], *, samples: int, rng: RngLike = None,
           sample_a: Sampler | None = None, sample_b: Sampler | None = None,
           features: ft.FeatureMap | None = None, confidence: float | None = None,
           chunk: int = 2**18) -> AuditResult:
    """Re-estimate the counterexample's event on ``samples`` fresh outputs per side."""
    t0 = time.perf_counter()
    cex = counterexample.get("counterexample", counterexample) \
        if isinstance(counterexample, Mapping) else None
    if not isinstance(cex, Mapping) or any(k not in cex for k in REQUIRED):
        raise InvalidParameter(f"counterexample must hold the keys {', '.join(REQUIRED)} "
                               f"(an AuditResult.to_dict() or its 'counterexample')")
    n = v.positive_int("samples", samples)
    if n < MIN_SAMPLES:
        raise InvalidParameter(f"samples={samples!r} must be >= {MIN_SAMPLES} (per side)")
    conf = v.in_open("confidence", cex.get("confidence", 0.95) if confidence is None
                     else confidence, 0.0, 1.0)
    ch = v.positive_int("chunk", chunk)
    name = "replay"
    if sample_a is None or sample_b is None:
        spec = cex.get("spec")
        if not spec:
            raise InvalidParameter("the counterexample names no mechanism (spec is null): "
                                   "pass sample_a and sample_b")
        from privlab.audit.usercode import is_user_spec, samplers_from_spec

        if is_user_spec(spec):  # the user's own code: rebuilt from its reference
            sample_a, sample_b, label = samplers_from_spec(dict(spec))
            name = f"replay of {label}"
        else:
            from privlab.audit.controls import from_spec
            from privlab.audit.mechanism import _label, _sampler

            mech = from_spec(spec)
            a, b = cex["neighbours"]
            sample_a, sample_b = _sampler(mech, a), _sampler(mech, b)
            features = features if features is not None else getattr(mech, "features", None)
            name = f"replay of {_label(mech)}"
    eps = cex.get("claimed_epsilon")
    eps = None if eps is None else v.non_negative("claimed_epsilon", eps)
    dl = v.in_closed("delta", cex.get("delta", 0.0), 0.0, 1.0)
    objective = str(cex.get("objective", "epsilon"))
    if objective == "delta" and eps is None:
        raise InvalidParameter("a delta-objective counterexample needs claimed_epsilon")
    seqs = [sp.child(sp.root_seed(rng), i) for i in range(2)]
    feat, event = str(cex["feature"]), dict(cex["event"])
    if cex.get("support") is not None:  # a support event: its value sets travel with it
        feat = ft.register_support(cex["support"])
    ka = _count(sample_a, "sample_a", n, seqs[0], ch, feat, event, features)
    kb = _count(sample_b, "sample_b", n, seqs[1], ch, feat, event, features)
    out, res = _bounds(ka, kb, n, 1.0 - conf, dl, eps, cex["direction"] == "a>b", objective,
                       str(cex.get("bound_method", "bonferroni")))
    new = {**dict(cex), **out, "replayed": True, "confidence": conf,
           "original": {k: cex.get(k) for k in ("a", "b", "epsilon_lower_bound",
                                                "delta_lower_bound")}}
    return AuditResult(mechanism=name, epsilon_lower_bound=res["eps_lb"],
                       delta_lower_bound=res["dlb"], confidence=conf, samples=n,
                       seconds=time.perf_counter() - t0, claimed_epsilon=eps, delta=dl,
                       verdict=res["verdict"], structural_leak=res["leak"],
                       counterexample=jsonable(new), selection_samples=0, estimation_samples=n,
                       candidates=1, objective=objective, features=(feat,),
                       event_class=ft.event_class(feat))


__all__ = ["replay"]
