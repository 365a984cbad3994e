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

A saved file is data: :func:`counterexample_of` checks every key by type before anything is
used — the whole document (an ``AuditResult.to_dict()``, the result of ``privlab audit
--sampler``, ``{"counterexample": …}`` or the counterexample itself) may hold only the keys
privlab writes, the event must be one :func:`privlab.audit.events.describe` writes, numbers must
be numbers.  Whether the spec names the user's code (:func:`names_code`) is decided from the
data alone; ``privlab audit --replay`` runs such code only with ``--allow-code``.
"""

from __future__ import annotations

import math
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
CEX_KEYS = frozenset({
    "a", "b", "bound_method", "claimed_epsilon", "confidence", "cp_level_each", "delta",
    "delta_lower_bound", "direction", "epsilon_lower_bound", "event", "event_class", "feature",
    "float_bits", "neighbours", "objective", "original", "replayed", "selection_score", "spec",
    "structural_leak", "support"})
"""The keys of a counterexample (:func:`privlab.audit.auditor.audit_pair` and replay)."""
RESULT_KEYS = frozenset({
    "mechanism", "epsilon_claimed", "claimed_epsilon", "certified_epsilon",
    "confirm_confidence", "confirmation", "event_class", "seedable", "epsilon_lower_bound",
    "confidence", "samples", "verdict", "delta", "delta_lower_bound", "objective",
    "structural_leak", "false_alarm_rate", "selection_samples", "estimation_samples",
    "candidates", "features", "seconds", "method", "pairs", "counterexample"})
"""The keys of ``AuditResult.to_dict()``."""
USER_RESULT_KEYS = frozenset({
    "name", "reference", "kind", "tags", "claimed_epsilon", "delta", "objective", "samples",
    "confidence", "pairs_audited", "epsilon_lower_bound", "delta_lower_bound",
    "structural_leak", "event_class", "seedable", "first_stage", "confirmation", "verdict",
    "expect", "as_expected", "pair", "counterexample", "seconds", "error", "error_type",
    "search"})
"""The keys of one audit of user code (``privlab audit --sampler --save``, a suite result;
``search``: the candidates of a search and their pilot bounds)."""
EVENT_KEYS = {"threshold": {"kind", "op", "t"}, "atom": {"kind", "value"},
              "cell": {"kind", "lo", "hi", "closed"},
              "level_set": {"kind", "cells", "closed", "intervals"}}
SPEC_KEYS = frozenset({"mechanism", "params"})
"""The keys of a built-in mechanism's spec."""


def _known(where: str, d: Mapping[str, Any], known: frozenset[str] | set[str]) -> None:
    unknown = sorted(str(k) for k in set(d) - set(known))
    if unknown:
        raise InvalidParameter(f"{where}: unknown key(s) {', '.join(map(repr, unknown))}")


def _is_num(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _bound(where: str, x: Any) -> None:
    """An interval end as events write it: a finite number, or "inf" / "-inf"."""
    if x in ("inf", "-inf") or (_is_num(x) and math.isfinite(x)):
        return
    raise InvalidParameter(f"{where}={x!r} must be a finite number, \"inf\" or \"-inf\"")


def _check_event(event: Any) -> None:
    if not isinstance(event, Mapping) or event.get("kind") not in EVENT_KEYS:
        raise InvalidParameter(f"event={_brief(event)} is not an event description (kind "
                               f"threshold, atom, cell or level_set)")
    kind = event["kind"]
    _known(f"event ({kind})", event, EVENT_KEYS[kind])
    missing = sorted(EVENT_KEYS[kind] - {"closed", "cells"} - set(event))
    if missing:
        raise InvalidParameter(f"event ({kind}) lacks {', '.join(missing)}")
    if kind == "threshold":
        if event["op"] not in (">", "<="):
            raise InvalidParameter(f"event.op={event['op']!r} must be '>' or '<='")
        _bound("event.t", event["t"])
    elif kind == "atom":
        if not (_is_num(event["value"]) and math.isfinite(event["value"])):
            raise InvalidParameter(f"event.value={event['value']!r} must be a finite number")
    elif kind == "cell":
        _bound("event.lo", event["lo"])
        _bound("event.hi", event["hi"])
    else:
        ivs = event["intervals"]
        if not isinstance(ivs, list) or not all(isinstance(iv, list) and len(iv) == 2
                                                for iv in ivs):
            raise InvalidParameter(f"event.intervals={_brief(ivs)} must be a list of [lo, hi]")
        for lo, hi in ivs:
            _bound("event.intervals[].lo", lo)
            _bound("event.intervals[].hi", hi)
        if "cells" in event and (not isinstance(event["cells"], int)
                                 or isinstance(event["cells"], bool)):
            raise InvalidParameter(f"event.cells={event['cells']!r} must be an integer")
    if "closed" in event and event["closed"] != "(lo, hi]":
        raise InvalidParameter(f"event.closed={event['closed']!r} must be '(lo, hi]'")


def _brief(x: Any) -> str:
    t = repr(x)
    return t if len(t) <= 80 else t[:79] + "…"


def _numbers(where: str, x: Any) -> None:
    """``x`` is a finite number or a (nested) list of finite numbers."""
    stack = [x]
    while stack:
        y = stack.pop()
        if isinstance(y, list):
            stack.extend(y)
        elif not (_is_num(y) and math.isfinite(y)):
            raise InvalidParameter(f"{where}={_brief(x)} must hold finite numbers only "
                                   f"(found {y!r})")


def _check_spec(spec: Any) -> None:
    """A built-in spec ``{"mechanism": NAME, "params": {...}}`` or a user-code spec (checked
    by :func:`privlab.audit.usercode.spec_parts`)."""
    from privlab.audit.usercode import is_user_spec, spec_parts

    if not isinstance(spec, Mapping):
        raise InvalidParameter(f"spec={_brief(spec)} must be an object or null")
    if is_user_spec(spec):
        spec_parts(spec)
        return
    _known("spec", spec, SPEC_KEYS)
    if not isinstance(spec.get("mechanism"), str):
        raise InvalidParameter(f"spec.mechanism={spec.get('mechanism')!r} must be a mechanism "
                               f"name")
    params = spec.get("params") or {}
    if not isinstance(params, Mapping):
        raise InvalidParameter(f"spec.params={_brief(params)} must be an object")
    for k, x in params.items():
        _numbers(f"spec.params.{k}", x)


def _check_counterexample(cex: Mapping[str, Any]) -> None:
    """Every key of a counterexample known and of its type (module docstring)."""
    _known("counterexample", cex, CEX_KEYS)
    nb = cex["neighbours"]
    if not isinstance(nb, list) or len(nb) != 2:
        raise InvalidParameter(f"neighbours={_brief(nb)} must be the pair [a, b]")
    if not isinstance(cex["feature"], str):
        raise InvalidParameter(f"feature={cex['feature']!r} must be a feature name")
    _check_event(cex["event"])
    if cex["direction"] not in ("a>b", "b>a"):
        raise InvalidParameter(f"direction={cex['direction']!r} must be 'a>b' or 'b>a'")
    v.one_of("objective", cex.get("objective", "epsilon"), ("epsilon", "delta"))
    v.one_of("bound_method", cex.get("bound_method", "bonferroni"), ("bonferroni", "joint"))
    for key in ("confidence", "delta", "claimed_epsilon", "cp_level_each", "selection_score",
                "epsilon_lower_bound", "delta_lower_bound"):
        x = cex.get(key)
        if x is not None and not _is_num(x):
            raise InvalidParameter(f"{key}={x!r} must be a number")
    for key in ("float_bits", "replayed", "structural_leak"):
        if key in cex and not isinstance(cex[key], bool):
            raise InvalidParameter(f"{key}={cex[key]!r} must be true or false")
    for key in ("a", "b", "original"):
        if key in cex and not isinstance(cex[key], Mapping):
            raise InvalidParameter(f"{key}={_brief(cex[key])} must be an object")
    sup = cex.get("support")
    if sup is not None:
        if not isinstance(sup, Mapping) or set(sup) != {"a_only", "b_only", "base"} \
                or not isinstance(sup["base"], str):
            raise InvalidParameter(f"support={_brief(sup)} must hold a_only, b_only and base")
        _numbers("support.a_only", sup["a_only"])
        _numbers("support.b_only", sup["b_only"])
    if cex.get("spec") is not None:
        _check_spec(cex["spec"])
        if not names_code(cex):
            _numbers("neighbours", nb)


def counterexample_of(doc: Any, where: str = "counterexample") -> Mapping[str, Any]:
    """The counterexample of a saved document, every key checked (module docstring): an
    ``AuditResult.to_dict()``, a user-code audit result, ``{"counterexample": …}`` or the
    counterexample itself.  ``where`` prefixes the errors (e.g. ``--replay='f.json'``)."""
    if not isinstance(doc, Mapping):
        raise InvalidParameter(f"{where} must be a JSON object (a saved audit result or "
                               f"counterexample), not {type(doc).__name__}")
    cex: Any = doc
    if "counterexample" in doc:
        try:
            _known(where, doc, RESULT_KEYS | USER_RESULT_KEYS)
        except InvalidParameter as exc:
            raise InvalidParameter(f"{exc} (not a saved audit result or counterexample)") \
                from None
        cex = doc["counterexample"]
    if not isinstance(cex, Mapping) or any(k not in cex for k in REQUIRED):
        raise InvalidParameter(f"counterexample must hold the keys {', '.join(REQUIRED)} "
                               f"(an AuditResult.to_dict() or its 'counterexample')")
    try:
        _check_counterexample(cex)
    except InvalidParameter as exc:
        raise InvalidParameter(f"{where}: {exc}") from None
    return cex


def names_code(cex: Mapping[str, Any]) -> bool:
    """True when replaying ``cex`` would import the user's code (its spec is a reference)."""
    from privlab.audit.usercode import is_user_spec

    return is_user_spec(cex.get("spec"))


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
    """Re-estimate the counterexample's event on ``samples`` fresh outputs per side (every key
    of ``counterexample`` checked first: :func:`counterexample_of`)."""
    t0 = time.perf_counter()
    cex = counterexample_of(counterexample)
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


__all__ = ["counterexample_of", "names_code", "replay"]
