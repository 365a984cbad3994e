"""Auditing a mechanism object: neighbour pairs (fixed, generated, or searched) and the audit.

Mechanisms.  Either an additive-noise mechanism of the lab (``.release(values, *, rng)``,
``.epsilon``, ``.sensitivity``, ``.name``) run on query values, or a suite control
(:class:`privlab.audit.controls.Control`: ``.sample_on(x, n, rng)``, ``.epsilon``, ``.pairs``).

Neighbour pairs (``neighbours=``, alias of the older ``inputs=``):

* a sequence of pairs (a, b): each is audited at level 1 − α/K (union bound over the K pairs)
  and the largest bound is reported — the guarantee is unchanged;
* a callable ``gen(rng) -> sequence of pairs``: a pair generator, drawn once from its own stream
  (independent of the audit's samples), then as above;
* ``"search"``: the candidates (the mechanism's own ``pairs``, or shifts s ∈ {Δ/4, Δ/2, 3Δ/4, Δ}
  of 0 for additive noise) are each scored by a small pilot audit on an independent stream (5 %
  of ``samples``, at least 1000 per side), and only the best pair is audited, with the full
  confidence: the choice depends on data independent of the final estimation, so no split is
  needed.

Data-set inputs (``domain=`` given: the box the records live in, ``(lo, hi)`` or one pair per
column).  ``neighbours="search"`` generates small neighbouring data sets of ``dataset_size``
records under ``relation`` ("substitute", "add_remove" or "both") — extreme values, ties,
duplicates, records at cluster boundaries (:mod:`privlab.audit.datasets`) — and scores them by
pilot audits exactly as above; explicit pairs of data sets are audited with the union bound.
The mechanism needs ``sample_on(x, n, rng)``, ``sample(x, bounds, n, *, rng)`` (the lab's
releases) or ``release(x, *, rng)``, and ``epsilon`` unless ``claimed_epsilon`` is given.  Without
``domain=`` a ``release`` gets scalar query values; one that raises on them (a mechanism of data
sets) is an ``InvalidParameter`` saying so.

Samplers that ignore ``rng``.  Unless ``seedable=False`` is passed, the samplers of the first
pair are probed first (:func:`privlab.audit.usercode.seed_probe`, 3 × 64 outputs each, on streams
of their own, so the audit draws what it would have drawn without the probe); one that ignores
``rng`` gets one :class:`~privlab.audit.result.SeedWarning` and the result says
``seedable=False``.

Workers.  The rule of the whole auditor: a Python call starts no processes unless asked —
``workers=1`` is the default of :func:`audit_mechanism`, :func:`~privlab.audit.audit_pair`, the
control suite (:func:`privlab.audit.suite.run_suite`) and suite files
(:func:`privlab.audit.usersuite.run_suite_file`); ``workers=None`` means all cores.  The
commands (``privlab audit``, ``privlab audit --suite``, ``privlab audit-suite run``) own the
machine and use all cores unless ``--workers W``.  The result does not depend on the number.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from privlab import _validate as v
from privlab._rng import RngLike
from privlab.audit.auditor import MIN_SAMPLES, AuditResult, Sampler, _check_common, _children
from privlab.audit.auditor import audit_pair as _audit_pair
from privlab.errors import InvalidParameter

__all__ = ["audit_mechanism", "mechanism_spec"]

SEARCH_SHIFTS = (0.25, 0.5, 0.75, 1.0)


def mechanism_spec(mechanism: Any) -> dict[str, Any] | None:
    """{"mechanism": registry name, "params": {...}} when the mechanism can be rebuilt by
    :func:`privlab.audit.controls.make` (suite controls, Laplace, staircase, broken controls)."""
    spec = getattr(mechanism, "spec", None)
    if isinstance(spec, Mapping):
        return dict(spec)
    from privlab.audit.controls import spec_of_noise

    return spec_of_noise(mechanism)


def _is_control(mech: Any) -> bool:
    return hasattr(mech, "sample_on")


def _check_inputs(inputs: Any, sensitivity: float | None) -> list[tuple[Any, Any]]:
    try:
        pairs = [tuple(p) for p in inputs]
    except TypeError:
        raise InvalidParameter(f"inputs={inputs!r} must be a sequence of (a, b) pairs") from None
    if not pairs:
        raise InvalidParameter(f"inputs={inputs!r} must hold at least one (a, b) pair")
    out = []
    for i, p in enumerate(pairs):
        if len(p) != 2:
            raise InvalidParameter(f"inputs[{i}]={p!r} must be a pair (a, b)")
        if sensitivity is None:  # a control's own inputs (vectors, data sets): taken as given
            out.append((p[0], p[1]))
            continue
        a, b = v.finite(f"inputs[{i}][0]", p[0]), v.finite(f"inputs[{i}][1]", p[1])
        if abs(a - b) > sensitivity * (1 + 1e-12):
            raise InvalidParameter(f"inputs[{i}]={p!r} differ by {abs(a - b):g} > "
                                   f"sensitivity={sensitivity:g}: not neighbouring inputs")
        out.append((a, b))
    return out


def _sampler(mech: Any, x: Any) -> Sampler:
    if _is_control(mech):
        return lambda n, g: mech.sample_on(x, n, g)

    def sample(n: int, g: np.random.Generator) -> Any:
        try:
            return mech.release(np.full(n, x), rng=g)
        except InvalidParameter:
            raise
        except Exception as exc:  # e.g. a mechanism of data sets given query values
            raise InvalidParameter(
                f"mechanism={_label(mech)}: release(values, *, rng) raised "
                f"{type(exc).__name__}: {' '.join(str(exc).split())} on the query values "
                f"[{x!r}] * {n}; without domain= the auditor gives release scalar query "
                f"values: a mechanism of data sets needs domain=(lo, hi) (and "
                f"neighbours='search' or pairs of data sets)") from exc

    return sample


def _label(mech: Any) -> str:
    label = str(getattr(mech, "name", type(mech).__name__))
    params = getattr(mech, "parameters", None)
    if isinstance(params, Mapping) and not _is_control(mech):
        label += "(" + ", ".join(f"{k}={float(x):.6g}" for k, x in params.items()) + ")"
    return label


def audit_mechanism(mechanism: Any, *, samples: int, confidence: float = 0.95,
                    claimed_epsilon: float | None = None, rng: RngLike = None,
                    inputs: Sequence[tuple[Any, Any]] | None = None,
                    neighbours: Any = None, chunk: int = 2**18, bins: int = 200,
                    selection_fraction: float | None = None, delta: float = 0.0,
                    objective: str = "epsilon", float_bits: bool | None = None,
                    workers: int | None = 1, scheduler: Any = None,
                    progress: Callable[[str], Any] | None = None,
                    bar: Callable[[int], Any] | None = None, confirm: bool = True,
                    confirm_confidence: float | None = None,
                    confirm_samples: int | None = None, domain: Any = None,
                    dataset_size: int | None = None, relation: str = "substitute",
                    seedable: bool = True) -> AuditResult:
    """Audit ``mechanism`` on neighbouring inputs (module docstring).

    Default pair: the mechanism's ``pairs`` (controls) or f(D) = 0 vs f(D') = Δ (additive
    noise: the worst case for log-concave and staircase laws).  ``claimed_epsilon=None`` means
    the mechanism's own claim, ``mechanism.epsilon``; other keywords as :func:`audit_pair`.
    ``workers=1`` (default) draws in this process, ``None`` on all cores (module docstring,
    "Workers").  Samplers that ignore ``rng`` are detected and warned about unless
    ``seedable=False`` (module docstring).
    """
    t0 = time.perf_counter()
    if domain is not None:
        return _audit_datasets(
            mechanism, samples=samples, confidence=confidence, claimed_epsilon=claimed_epsilon,
            rng=rng, given=neighbours if neighbours is not None else inputs, domain=domain,
            size=dataset_size, relation=relation, progress=progress, confirm=confirm,
            confirm_confidence=confirm_confidence, confirm_samples=confirm_samples,
            kw={"chunk": chunk, "bins": bins, "selection_fraction": selection_fraction,
                "delta": delta, "objective": objective, "workers": workers,
                "scheduler": scheduler, "float_bits": bool(float_bits), "bar": bar,
                "seedable": seedable})
    control = _is_control(mechanism)
    need = ("sample_on", "epsilon") if control else ("release", "epsilon", "sensitivity")
    for attr in need:
        if not hasattr(mechanism, attr):
            raise InvalidParameter(f"mechanism={mechanism!r} has no attribute {attr!r}")
    _, conf, *_ = _check_common(samples, confidence, chunk, bins, selection_fraction,
                                claimed_epsilon)
    sens = None if control else v.positive("mechanism.sensitivity", mechanism.sensitivity)
    claim = v.non_negative("mechanism.epsilon", mechanism.epsilon) if claimed_epsilon is None \
        else float(claimed_epsilon)
    if inputs is not None and neighbours is not None:
        raise InvalidParameter("give either inputs= or neighbours=, not both")
    given = neighbours if neighbours is not None else inputs
    root = _children(rng, 3)  # pair generator / pair search / audits
    search = isinstance(given, str)
    if search and given != "search":
        raise InvalidParameter(f"neighbours={given!r} must be pairs, a generator or 'search'")
    if callable(given):
        given = given(np.random.default_rng(root[0]))
    if given is None or search:
        default = getattr(mechanism, "pairs", None) if control else None
        if default is None:
            shifts = SEARCH_SHIFTS if search else (1.0,)
            default = [(0.0, s * sens) for s in shifts]  # type: ignore[operator]
        given = default
    pairs = _check_inputs(given, sens)
    kw = {"chunk": chunk, "bins": bins, "selection_fraction": selection_fraction,
          "delta": delta, "objective": objective, "workers": workers, "scheduler": scheduler,
          "float_bits": bool(getattr(mechanism, "float_bits", False)) if float_bits is None
          else float_bits, "features": getattr(mechanism, "features", None), "bar": bar,
          "seedable": seedable}
    label, spec = _label(mechanism), mechanism_spec(mechanism)
    from privlab.audit.usercode import check_seedable  # lazy: privlab.audit stays light

    unseedable = seedable is True and not check_seedable(
        [_sampler(mechanism, pairs[0][0]), _sampler(mechanism, pairs[0][1])], label,
        stacklevel=2)
    pilot: list[dict[str, Any]] = []
    if search and len(pairs) > 1:
        n_pilot = max(MIN_SAMPLES, samples // 20)
        for (a, b), g in zip(pairs, _children(root[1], len(pairs)), strict=True):
            r = _audit_pair(_sampler(mechanism, a), _sampler(mechanism, b), samples=n_pilot,
                            confidence=conf, claimed_epsilon=claim, rng=g, name=label,
                            confirm=False, **kw)
            pilot.append({"inputs": [a, b], "pilot_bound": r.epsilon_lower_bound
                          if objective == "epsilon" else r.delta_lower_bound})
        best = max(range(len(pairs)), key=lambda i: pilot[i]["pilot_bound"])
        pairs = [pairs[best]]
    return _audit_pairs(pairs, lambda x: _sampler(mechanism, x), conf=conf, claim=claim,
                        root=root[2], label=label, spec=spec, progress=progress,
                        confirm=confirm, confirm_confidence=confirm_confidence,
                        confirm_samples=confirm_samples, samples=samples, kw=kw,
                        objective=objective, pilot=pilot, t0=t0, unseedable=unseedable)


def _audit_pairs(pairs: list[tuple[Any, Any]], make: Callable[[Any], Sampler], *, conf: float,
                 claim: float | None, root: Any, label: str, spec: Any,
                 progress: Callable[[str], Any] | None, confirm: bool,
                 confirm_confidence: float | None, confirm_samples: int | None, samples: int,
                 kw: dict[str, Any], objective: str, pilot: list[dict[str, Any]],
                 t0: float, unseedable: bool = False) -> AuditResult:
    """Audit each pair at 1 − α/K (union bound) and report the worst (module docstring);
    ``unseedable``: the seed probe found that the samplers ignore ``rng``."""
    conf_each = 1.0 - (1.0 - conf) / len(pairs)
    if confirm and confirm_confidence is not None:  # the union bound covers confirmation too
        v.in_open("confirm_confidence", confirm_confidence, 0.0, 1.0)
        confirm_confidence = 1.0 - (1.0 - float(confirm_confidence)) / len(pairs)
    results = []
    for (a, b), g in zip(pairs, _children(root, len(pairs)), strict=True):
        results.append(_audit_pair(make(a), make(b),
                                   samples=samples, confidence=conf_each, claimed_epsilon=claim,
                                   rng=g, name=label, neighbours=[a, b], spec=spec,
                                   progress=progress, confirm=confirm,
                                   confirm_confidence=confirm_confidence,
                                   confirm_samples=confirm_samples, **kw))
    key = (lambda r: r.delta_lower_bound) if objective == "delta" else \
        (lambda r: r.epsilon_lower_bound)
    confirmed = [r for r in results if r.verdict == "violation"]
    best_r = max(confirmed or results, key=key)  # a confirmed violation is the witness
    verdicts = [r.verdict for r in results]
    verdict = None if claim is None else ("violation" if "violation" in verdicts
                                          else "consistent")
    rows = tuple({"inputs": [a, b], "epsilon_lower_bound": r.epsilon_lower_bound,
                  "delta_lower_bound": r.delta_lower_bound, "confidence": r.confidence,
                  "structural_leak": r.structural_leak}
                 for (a, b), r in zip(pairs, results, strict=True))
    c_conf = None if best_r.confirm_confidence is None else \
        1.0 - (1.0 - best_r.confirm_confidence) * len(pairs)
    return attrs.evolve(
        best_r, confidence=conf, confirm_confidence=c_conf,
        seconds=time.perf_counter() - t0, verdict=verdict,
        structural_leak=any(r.structural_leak for r in results),
        delta_lower_bound=max(r.delta_lower_bound for r in results),
        pairs=rows + tuple({"searched": p} for p in pilot),
        seedable=best_r.seedable and not unseedable)



def _audit_datasets(mechanism: Any, *, samples: int, confidence: float,
                    claimed_epsilon: float | None, rng: RngLike, given: Any, domain: Any,
                    size: int | None, relation: str, progress: Callable[[str], Any] | None,
                    confirm: bool, confirm_confidence: float | None,
                    confirm_samples: int | None, kw: dict[str, Any]) -> AuditResult:
    """``audit_mechanism`` for data-set inputs (module docstring)."""
    from privlab.audit import datasets as ds

    t0 = time.perf_counter()
    _, conf, *_ = _check_common(samples, confidence, kw["chunk"], kw["bins"],
                                kw["selection_fraction"], claimed_epsilon)
    bounds = ds.parse_domain(domain)
    if claimed_epsilon is None and not hasattr(mechanism, "epsilon"):
        raise InvalidParameter(f"mechanism={mechanism!r} has no attribute 'epsilon': pass "
                               f"claimed_epsilon")
    claim = v.non_negative("mechanism.epsilon", mechanism.epsilon) if claimed_epsilon is None \
        else float(claimed_epsilon)
    k = getattr(mechanism, "k", None)
    k = int(k) if isinstance(k, int | np.integer) and k > 0 else None
    n = v.positive_int("dataset_size", size) if size is not None else \
        max(ds.DEFAULT_SIZE, 2 * k + 2 if k else 0)
    root = _children(rng, 3)
    search = isinstance(given, str)
    if search and given != "search":
        raise InvalidParameter(f"neighbours={given!r} must be pairs of data sets or 'search'")
    if given is None or search:
        cands = ds.dataset_candidates(bounds, size=n, k=k, relation=relation,
                                      rng=np.random.default_rng(root[0]))
        pairs = [(x, xp) for x, xp, _ in cands]
        labels = [lab for _, _, lab in cands]
    else:
        pairs = [(np.asarray(a, float).reshape(len(a), -1), np.asarray(b, float).reshape(
            len(b), -1)) for a, b in _check_inputs(given, None)]
        labels = ["given"] * len(pairs)
    n_pad = max(max(len(a), len(b)) for a, b in pairs)
    make = lambda x: ds.dataset_sampler(mechanism, x, bounds, n_pad)  # noqa: E731
    label = str(getattr(mechanism, "name", type(mechanism).__name__))
    from privlab.audit.usercode import check_seedable

    unseedable = kw["seedable"] is True and not check_seedable(
        [make(pairs[0][0]), make(pairs[0][1])], label, stacklevel=3)
    pilot: list[dict[str, Any]] = []
    if len(pairs) > 1 and (search or given is None):
        n_pilot = max(MIN_SAMPLES, samples // 20)
        for (a, b), lab, g in zip(pairs, labels, _children(root[1], len(pairs)), strict=True):
            r = _audit_pair(make(a), make(b), samples=n_pilot, confidence=conf,
                            claimed_epsilon=claim, rng=g, name=label, confirm=False,
                            **{**kw, "bar": None})
            pilot.append({"inputs": [a.tolist(), b.tolist()], "label": lab,
                          "pilot_bound": r.epsilon_lower_bound
                          if kw["objective"] == "epsilon" else r.delta_lower_bound})
        best = max(range(len(pairs)), key=lambda i: pilot[i]["pilot_bound"])
        if progress is not None:
            progress(f"{label}: searched {len(pairs)} neighbouring data sets; worst: "
                     f"{labels[best]}")
        pairs = [pairs[best]]
    res = _audit_pairs([(a.tolist(), b.tolist()) for a, b in pairs],
                       lambda x: make(np.asarray(x, float)), conf=conf, claim=claim,
                       root=root[2], label=label, spec=None, progress=progress,
                       confirm=confirm, confirm_confidence=confirm_confidence,
                       confirm_samples=confirm_samples, samples=samples, kw=kw,
                       objective=str(kw["objective"]), pilot=pilot, t0=t0,
                       unseedable=unseedable)
    return res
