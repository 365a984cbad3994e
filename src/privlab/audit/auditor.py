"""Black-box Monte-Carlo auditor: a sound lower bound on the privacy loss ε of a mechanism.

Setting.  A mechanism M is (ε, δ)-DP when for all neighbouring inputs D ~ D' and every event S,
P(M(D) ∈ S) ≤ e^ε · P(M(D') ∈ S) + δ.  Hence for any *fixed* S and any one pair,

    ε ≥ log((P(M(D) ∈ S) − δ) / P(M(D') ∈ S)),

and replacing the two probabilities by a lower confidence bound of the first and an upper
confidence bound of the second gives a lower bound on ε that holds with the joint confidence.

Method (``samples`` = n outputs per side; everything streamed in chunks, memory
O(chunk + cells), never O(n)):

1. *Pilot* (n_p = min(n_sel, 10⁴) per side, first part of the selection budget): pooled
   quantiles (``bins``, default 200) plus isolated atoms fix a partition of ℝ
   (:mod:`privlab.audit.events`).
2. *Selection* (n_sel = ⌈selection_fraction · n⌉ per side, default 0.3, pilot included, drawn
   as two independent halves): histograms of both sides over the partition; every threshold
   {Y > t}, {Y ≤ t}, single cell and likelihood-ratio level set (ordered on one half, counted
   on the other), in both directions, is scored by a conservative prediction of step 3's bound
   and the best event S* is kept.
3. *Estimation* (n_est = n − n_sel fresh samples per side, independent streams): counts k_a, k_b
   of S* (the side where S* was more likely at selection is called "a" below); one-sided
   Clopper–Pearson bounds (:mod:`privlab.audit.bounds`) p_a ≥ L_a and p_b ≤ U_b, each at level
   1 − α/2 with α = 1 − confidence (Bonferroni), and

       ε_lb = max(0, log((L_a − δ) / U_b)).

Soundness.  S* depends only on pilot and selection samples, which are independent of the
estimation samples, so conditionally on S* the two CP bounds hold jointly with probability
≥ 1 − α; ε_lb ≤ ε_true with probability ≥ ``confidence`` whatever the mechanism, the number of
candidates, or the selection rule.  The verdict is "violation" iff ε_lb > claimed ε, so a
mechanism that does satisfy its claim is flagged with probability ≤ 1 − confidence per audit
(``false_alarm_rate`` in :meth:`AuditResult.to_dict`).  With K explicit input pairs each pair is
audited at level 1 − α/K (union bound) and the maximum is reported, with the same guarantee.

Structural leaks.  When k_b = 0 the CP upper bound is 1 − (α/2)^{1/n_est} > 0, so ε_lb stays
finite and sound (≈ log(L_a · n_est / log(2/α))); ``structural_leak`` is set when the chosen
event has zero hits under one side and at least ``LEAK_MIN_COUNT`` under the other — an event
(nearly) impossible under one neighbour, the signature of a pure-DP failure by support.

``delta_lower_bound``: when ε is claimed, max(0, L_a − e^ε·U_b) — a lower bound (same
confidence) on the δ the mechanism needs at the claimed ε, for the chosen event.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import numpy as np
from numpy.typing import NDArray

from privlab import _validate as v
from privlab._rng import RngLike, as_generator
from privlab.audit import events as ev
from privlab.audit.bounds import cp_lower, cp_upper
from privlab.errors import InvalidParameter
from privlab.types import CheckResult, Method, jsonable

Sampler = Callable[[int, np.random.Generator], Any]

MIN_SAMPLES = 1000
PILOT_MAX = 10_000
LEAK_MIN_COUNT = 50
VERDICTS = ("consistent", "violation")

__all__ = ["AuditResult", "audit_mechanism", "audit_pair"]


def _in_unit(name: str, x: Any) -> float:
    return v.in_open(name, x, 0.0, 1.0)


def _opt_verdict(_i: Any, attribute: Any, value: Any) -> None:
    if value is not None:
        v.one_of(attribute.name, value, VERDICTS)


@attrs.frozen(kw_only=True)
class AuditResult:
    """Outcome of one audit (see the module docstring for the method and its guarantee)."""

    mechanism: str
    epsilon_lower_bound: float = attrs.field(validator=v.attrs_validator(v.non_negative))
    delta_lower_bound: float = attrs.field(default=0.0,
                                           validator=v.attrs_validator(v.non_negative))
    confidence: float = attrs.field(validator=v.attrs_validator(_in_unit))
    samples: int = attrs.field(validator=v.attrs_validator(v.positive_int))
    """Outputs drawn per side (per input pair), selection and estimation together."""
    seconds: float = attrs.field(validator=v.attrs_validator(v.non_negative))
    claimed_epsilon: float | None = None
    delta: float = 0.0
    verdict: str | None = attrs.field(default=None, validator=_opt_verdict)
    structural_leak: bool = False
    counterexample: Mapping[str, Any] | None = None
    """The event achieving ε_lb: neighbour pair, event, counts, probabilities and CP bounds
    (a counterexample to the claim when ``verdict == "violation"``)."""
    selection_samples: int = 0
    estimation_samples: int = 0
    candidates: int = 0
    pairs: tuple[Mapping[str, Any], ...] = ()
    """Per input pair: {"inputs": [a, b], "epsilon_lower_bound": …} (audit_mechanism)."""

    @property
    def false_alarm_rate(self) -> float:
        """Upper bound on P(verdict == "violation") for a mechanism meeting its claim."""
        return 1.0 - self.confidence

    def to_dict(self) -> dict[str, Any]:
        """The ``audits`` entry of report.json (DESIGN.md §4) plus the evidence."""
        return jsonable({
            "mechanism": self.mechanism, "epsilon_claimed": self.claimed_epsilon,
            "epsilon_lower_bound": self.epsilon_lower_bound, "confidence": self.confidence,
            "samples": self.samples, "verdict": self.verdict, "delta": self.delta,
            "delta_lower_bound": self.delta_lower_bound,
            "structural_leak": self.structural_leak,
            "false_alarm_rate": self.false_alarm_rate if self.verdict else None,
            "selection_samples": self.selection_samples,
            "estimation_samples": self.estimation_samples, "candidates": self.candidates,
            "seconds": self.seconds, "method": "audit", "pairs": list(self.pairs),
            "counterexample": self.counterexample})

    def as_check(self) -> CheckResult:
        """As a :class:`CheckResult` (method "audit"; undecided when nothing was claimed)."""
        holds = self.verdict != "violation"
        return CheckResult(
            holds=holds, claim=f"{self.mechanism} is {self.claimed_epsilon}-DP",
            value=self.epsilon_lower_bound, evidence=self.to_dict(),
            counterexample=None if holds else dict(self.counterexample or {}),
            method=Method.AUDIT, decided=self.verdict is not None)


# --------------------------------------------------------------------------------------------
def _draw(sampler: Sampler, name: str, n: int, gen: np.random.Generator) -> NDArray[np.float64]:
    out = sampler(n, gen)
    arr = np.asarray(out)
    if arr.shape != (n,):
        raise InvalidParameter(f"{name} returned an array of shape {arr.shape} for n={n}; "
                               f"expected shape ({n},) of scalar outputs")
    if arr.dtype.kind not in "biuf":
        raise InvalidParameter(f"{name} returned dtype {arr.dtype}; expected real numbers")
    y = arr.astype(np.float64, copy=False)
    if np.isnan(y).any():
        raise InvalidParameter(f"{name} returned NaN outputs")
    return y


def _stream(sampler: Sampler, name: str, n: int, gen: np.random.Generator, chunk: int,
            part: ev.Partition) -> NDArray[np.int64]:
    """Histogram of n outputs over ``part``, drawn ``chunk`` at a time."""
    hist = np.zeros(part.ncells, dtype=np.int64)
    done = 0
    while done < n:
        m = min(chunk, n - done)
        hist += part.histogram(_draw(sampler, name, m, gen))
        done += m
    return hist


def _children(gen: np.random.Generator, k: int) -> list[np.random.Generator]:
    try:
        return list(gen.spawn(k))
    except (TypeError, ValueError):  # bit generator without a SeedSequence
        seeds = gen.integers(0, 2**63, size=(k, 4), dtype=np.uint64)
        return [np.random.default_rng(np.random.SeedSequence(s.tolist())) for s in seeds]


def _check_common(samples: Any, confidence: Any, chunk: Any, bins: Any,
                  selection_fraction: Any, claimed_epsilon: Any) -> tuple[int, float, int, int,
                                                                          float, float | None]:
    n = v.positive_int("samples", samples)
    if n < MIN_SAMPLES:
        raise InvalidParameter(f"samples={samples!r} must be >= {MIN_SAMPLES} (per side)")
    conf = v.in_open("confidence", confidence, 0.0, 1.0)
    ch = v.positive_int("chunk", chunk)
    nb = v.positive_int("bins", bins)
    if nb < 2:
        raise InvalidParameter(f"bins={bins!r} must be >= 2")
    frac = v.in_open("selection_fraction", selection_fraction, 0.0, 1.0)
    eps = None if claimed_epsilon is None else v.non_negative("claimed_epsilon", claimed_epsilon)
    return n, conf, ch, nb, frac, eps


def audit_pair(sample_a: Sampler, sample_b: Sampler, *, samples: int, confidence: float = 0.95,
               delta: float = 0.0, claimed_epsilon: float | None = None, rng: RngLike = None,
               chunk: int = 2**18, name: str = "pair", bins: int = 200,
               selection_fraction: float = 0.3,
               neighbours: Sequence[Any] | None = None) -> AuditResult:
    """Lower-bound the privacy loss between two output distributions (module docstring).

    ``sample_a(n, rng)`` / ``sample_b(n, rng)`` return n real outputs (shape ``(n,)``) of the
    mechanism on the two neighbouring inputs.  ``samples`` per side are split into selection
    (``selection_fraction``, pilot included) and estimation.  ``neighbours`` only labels the
    pair in the counterexample.  Same ``rng`` seed and ``chunk`` → identical result.
    """
    t0 = time.perf_counter()
    n, conf, ch, nb, frac, eps = _check_common(samples, confidence, chunk, bins,
                                               selection_fraction, claimed_epsilon)
    dl = v.in_closed("delta", delta, 0.0, 1.0)
    if dl >= 1.0:
        raise InvalidParameter(f"delta={delta!r} must be < 1")
    for nm, s in (("sample_a", sample_a), ("sample_b", sample_b)):
        if not callable(s):
            raise InvalidParameter(f"{nm}={s!r} must be a callable (n, rng) -> array")
    alpha = 1.0 - conf
    # streams: pilot a/b, selection half 1 a/b, selection half 2 a/b, estimation a/b
    gens = _children(as_generator(rng), 8)
    n_sel = min(n - 2, max(2, math.ceil(frac * n)))
    n_est = n - n_sel
    n_h1 = (n_sel + 1) // 2
    n_pil = min(n_h1, PILOT_MAX)

    # 1. pilot -> partition
    pil_a = _draw(sample_a, "sample_a", n_pil, gens[0])
    pil_b = _draw(sample_b, "sample_b", n_pil, gens[1])
    part = ev.build_partition(np.concatenate([pil_a, pil_b]), nb)
    # 2. selection, in two independent halves (the pilot belongs to the first)
    a1 = part.histogram(pil_a) + _stream(sample_a, "sample_a", n_h1 - n_pil, gens[2], ch, part)
    b1 = part.histogram(pil_b) + _stream(sample_b, "sample_b", n_h1 - n_pil, gens[3], ch, part)
    del pil_a, pil_b
    a2 = _stream(sample_a, "sample_a", n_sel - n_h1, gens[4], ch, part)
    b2 = _stream(sample_b, "sample_b", n_sel - n_h1, gens[5], ch, part)
    cands = ev.candidates((a1, a2), (b1, b2))
    s_ab = ev.score(cands.count_a, cands.count_b, cands.n, n_est, alpha, dl)
    s_ba = ev.score(cands.count_b, cands.count_a, cands.n, n_est, alpha, dl)
    j_ab, j_ba = int(np.argmax(s_ab)), int(np.argmax(s_ba))
    forward = s_ab[j_ab] >= s_ba[j_ba]
    j = j_ab if forward else j_ba
    mask = cands.mask(j, part.ncells)
    # 3. estimation on fresh, independent streams
    ka = int(_stream(sample_a, "sample_a", n_est, gens[6], ch, part)[mask].sum())
    kb = int(_stream(sample_b, "sample_b", n_est, gens[7], ch, part)[mask].sum())
    k_big, k_small = (ka, kb) if forward else (kb, ka)
    lo = float(cp_lower(k_big, n_est, alpha / 2))
    hi = float(cp_upper(k_small, n_est, alpha / 2))
    eps_lb = math.log((lo - dl) / hi) if lo - dl > hi else 0.0
    leak = k_small == 0 and k_big >= LEAK_MIN_COUNT
    verdict = None if eps is None else ("violation" if eps_lb > eps else "consistent")
    dlb = 0.0 if eps is None else max(0.0, lo - math.exp(eps) * hi)

    lo_a, hi_a = (cp_lower(ka, n_est, alpha / 2), cp_upper(ka, n_est, alpha / 2))
    lo_b, hi_b = (cp_lower(kb, n_est, alpha / 2), cp_upper(kb, n_est, alpha / 2))
    cex = {
        "neighbours": list(neighbours) if neighbours is not None else ["a", "b"],
        "direction": "a>b" if forward else "b>a",
        "event": ev.describe(cands, j, part),
        "a": {"count": ka, "n": n_est, "p_hat": ka / n_est,
              "cp_lower": float(lo_a), "cp_upper": float(hi_a)},
        "b": {"count": kb, "n": n_est, "p_hat": kb / n_est,
              "cp_lower": float(lo_b), "cp_upper": float(hi_b)},
        "cp_level_each": 1.0 - alpha / 2, "selection_score": float(max(s_ab[j_ab], s_ba[j_ba])),
        "structural_leak": bool(leak),
    }
    return AuditResult(mechanism=str(name), epsilon_lower_bound=eps_lb, delta_lower_bound=dlb,
                       confidence=conf, samples=n, seconds=time.perf_counter() - t0,
                       claimed_epsilon=eps, delta=dl, verdict=verdict, structural_leak=leak,
                       counterexample=jsonable(cex), selection_samples=n_sel,
                       estimation_samples=n_est, candidates=2 * len(cands))


def _check_inputs(inputs: Any, sensitivity: float) -> list[tuple[float, float]]:
    if inputs is None:
        return [(0.0, sensitivity)]
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
        a, b = v.finite(f"inputs[{i}][0]", p[0]), v.finite(f"inputs[{i}][1]", p[1])
        if abs(a - b) > sensitivity * (1 + 1e-12):
            raise InvalidParameter(f"inputs[{i}]={p!r} differ by {abs(a - b):g} > "
                                   f"sensitivity={sensitivity:g}: not neighbouring inputs")
        out.append((a, b))
    return out


def audit_mechanism(mechanism: Any, *, samples: int, confidence: float = 0.95,
                    claimed_epsilon: float | None = None, rng: RngLike = None,
                    inputs: Sequence[tuple[float, float]] | None = None, chunk: int = 2**18,
                    bins: int = 200, selection_fraction: float = 0.3) -> AuditResult:
    """Audit an additive-noise mechanism (``.release(values, *, rng)``, ``.epsilon``,
    ``.sensitivity``, ``.name``) on neighbouring query values.

    Default pair: f(D) = 0 vs f(D') = Δ (the worst case for additive noise: a larger shift is
    not a neighbour and a smaller one only lowers the loss of a log-concave or staircase law).
    ``inputs`` gives explicit pairs; each is audited at level 1 − α/K and the max is reported.
    ``claimed_epsilon=None`` means the mechanism's own claim, ``mechanism.epsilon``.
    """
    t0 = time.perf_counter()
    for attr in ("release", "epsilon", "sensitivity"):
        if not hasattr(mechanism, attr):
            raise InvalidParameter(f"mechanism={mechanism!r} has no attribute {attr!r}")
    _, conf, *_ = _check_common(samples, confidence, chunk, bins, selection_fraction,
                                claimed_epsilon)
    sens = v.positive("mechanism.sensitivity", mechanism.sensitivity)
    claim = v.positive("mechanism.epsilon", mechanism.epsilon) if claimed_epsilon is None \
        else float(claimed_epsilon)
    pairs = _check_inputs(inputs, sens)
    conf_each = 1.0 - (1.0 - conf) / len(pairs)
    label = str(getattr(mechanism, "name", type(mechanism).__name__))
    params = getattr(mechanism, "parameters", None)
    if isinstance(params, Mapping):
        label += "(" + ", ".join(f"{k}={float(x):.6g}" for k, x in params.items()) + ")"

    def sampler(x: float) -> Sampler:
        return lambda n, g: mechanism.release(np.full(n, x), rng=g)

    results = []
    for (a, b), g in zip(pairs, _children(as_generator(rng), len(pairs)), strict=True):
        results.append(audit_pair(sampler(a), sampler(b), samples=samples, confidence=conf_each,
                                  claimed_epsilon=claim, rng=g, chunk=chunk, name=label,
                                  bins=bins, selection_fraction=selection_fraction,
                                  neighbours=[a, b]))
    best = max(results, key=lambda r: r.epsilon_lower_bound)
    return attrs.evolve(
        best, confidence=conf, seconds=time.perf_counter() - t0,
        structural_leak=any(r.structural_leak for r in results),
        delta_lower_bound=max(r.delta_lower_bound for r in results),
        pairs=tuple({"inputs": [a, b], "epsilon_lower_bound": r.epsilon_lower_bound,
                     "confidence": r.confidence, "structural_leak": r.structural_leak}
                    for (a, b), r in zip(pairs, results, strict=True)))
