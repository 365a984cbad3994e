"""Known-answer benchmark of privlab's auditor: bound against the exactly known truth, per
mechanism (issue 33, item 1).

    python benchmarks/audit_known_answers.py                      # 10^7 outputs per side
    python benchmarks/audit_known_answers.py --samples 1e6        # moderate
    python benchmarks/audit_known_answers.py --quick              # 10^5 per side (smoke)
    python benchmarks/audit_known_answers.py --only svt3 gauss-s3-delta
    python benchmarks/audit_known_answers.py --family "sparse vector" --json
    python benchmarks/audit_known_answers.py --list               # the catalogue, no audit

The catalogue (``benchmarks/known_answers/``, ≥ 30 mechanisms: randomized response, exponential
mechanism, histograms, partial / prefix sums, report-noisy-max, the six sparse vector variants of
Lyu, Su & Li 2017, Gaussian and discrete Gaussian on both objectives, floating-point and lattice
leaks, privlab's own noise mechanisms) gives for each mechanism two samplers on a fixed pair of
neighbouring inputs, the claim and the *true* value of the audited quantity on that pair — ε at
the claimed δ, or δ at the claimed ε — derived exactly (closed form, exact enumeration of the
output law, or ∞ with a proof; each entry's docstring has the derivation).

Each mechanism is audited once with :func:`privlab.audit.audit_pair` (public API, default
options apart from ``float_bits`` for float64 implementation leaks; seed ``--seed``) and one row
is printed: claim, truth, privlab's bound, bound / truth, verdict, structural-leak flag, the
event's feature and class, samples per side, seconds.  Goal (issue 33): bound ≥ 0.95 × truth on
every finite truth, ``structural_leak`` on every infinite one, no violation reported on a claim
that holds.  A summary line counts each, and the misses are listed.

jax-privacy's auditor is run beside it (same samples, scalar outputs, ε objective) only when
``import jax_privacy`` works in this environment; otherwise the script says so.  Nothing asserts
on time; seconds are wall time on a possibly shared machine (the load average is printed).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import Row, format_table, log, machine_info, print_machine
from known_answers import KnownAnswer, catalogue

from privlab.audit import audit_pair
from privlab.errors import InvalidParameter

GOAL = 0.95
DEFAULT_SAMPLES = 10**7
QUICK_SAMPLES = 10**5
MIN_SAMPLES = 1000
COLUMNS = ["family", "objective", "claim", "true", "bound", "ratio", "goal", "verdict",
           "structural", "event", "samples", "seconds"]


def claim_text(e: KnownAnswer) -> str:
    """The claim as printed: ε, (ε, δ), or "δ≤… at ε=…" for the δ objective."""
    if e.objective == "delta":
        return f"δ≤{e.claimed_delta:g} at ε={e.claimed_epsilon:.4g}"
    if e.claimed_delta:
        return f"ε={e.claimed_epsilon:.4g} at δ={e.claimed_delta:g}"
    return f"ε={e.claimed_epsilon:.4g}"


def samples_for(e: KnownAnswer, samples: int, budget: float | None) -> int:
    """Samples per side for entry ``e``: ``samples``, capped so that ``cost``·samples/10⁶ ≤
    ``budget`` seconds when a budget is given (never below the auditor's minimum)."""
    if budget is None:
        return samples
    cap = int(budget / e.cost * 1e6)
    return max(MIN_SAMPLES, min(samples, cap))


def goal_status(e: KnownAnswer, bound: float | None, structural: bool | None,
                verdict: str | None) -> str:
    """"met" / "miss" against the goal, "FALSE ALARM" for a violation of a claim that holds."""
    if bound is None:
        return "error"
    if e.correct and verdict == "violation":
        return "FALSE ALARM"
    if math.isinf(e.true_value):
        return "met" if structural else "miss"
    if e.true_value == 0:
        return "met"
    return "met" if bound >= GOAL * e.true_value else "miss"


def audit_entry(e: KnownAnswer, n: int, *, seed: int, workers: int,
                confidence: float) -> dict[str, Any]:
    """One audit of ``e`` with privlab; a dict of what the row shows (``error`` on failure)."""
    t0 = time.perf_counter()
    out: dict[str, Any] = {"name": e.name, "family": e.family, "objective": e.objective,
                           "claim": claim_text(e), "true": e.true_value, "samples": n,
                           "target": e.target, "correct": e.correct}
    try:
        r = audit_pair(e.sample_a, e.sample_b, samples=n, rng=seed, confidence=confidence,
                       claimed_epsilon=e.claimed_epsilon, delta=e.claimed_delta,
                       objective=e.objective, float_bits=e.float_bits, name=e.name,
                       workers=workers)
    except Exception as exc:  # a benchmark row, not a crash: the auditor is under development
        out.update(bound=None, error=f"{type(exc).__name__}: {exc}",
                   seconds=time.perf_counter() - t0)
        return out
    bound = r.delta_lower_bound if e.objective == "delta" else r.epsilon_lower_bound
    cex = r.counterexample or {}
    out.update(bound=float(bound), epsilon_lower_bound=r.epsilon_lower_bound,
               delta_lower_bound=r.delta_lower_bound, verdict=r.verdict,
               structural=bool(r.structural_leak), event_class=r.event_class,
               feature=cex.get("feature"), seconds=time.perf_counter() - t0)
    return out


def jax_privacy_module() -> Any | None:
    """``jax_privacy.auditing`` when importable here, else None (never installed by us)."""
    try:
        import jax_privacy  # noqa: F401
        from jax_privacy import auditing
    except Exception:
        return None
    return auditing


def jax_privacy_bound(auditing: Any, e: KnownAnswer, n: int, *, seed: int,
                      confidence: float) -> dict[str, Any]:
    """jax-privacy's ``CanaryScoreAuditor.epsilon_clopper_pearson`` (two-sided thresholds, its
    default threshold strategy) on n fresh outputs per side of a scalar-output entry."""
    g = np.random.default_rng(seed)
    a = np.asarray(e.sample_a(n, g), dtype=float)
    b = np.asarray(e.sample_b(n, g), dtype=float)
    if a.ndim != 1:
        return {"jaxp_bound": None, "jaxp_note": "vector output: not applicable"}
    t0 = time.perf_counter()
    try:
        aud = auditing.CanaryScoreAuditor(b, a)
        eps = aud.epsilon_clopper_pearson(significance=1.0 - confidence,
                                          delta=e.claimed_delta, one_sided=False)
    except Exception as exc:
        return {"jaxp_bound": None, "jaxp_note": f"{type(exc).__name__}: {exc}"}
    return {"jaxp_bound": float(eps), "jaxp_seconds": time.perf_counter() - t0}


def to_row(d: dict[str, Any]) -> Row:
    t = d["true"]
    bound = d.get("bound")
    ratio = None if bound is None or math.isinf(t) or t == 0 else bound / t
    structural = d.get("structural")
    event = "—" if d.get("feature") is None else f"{d['feature']} [{d.get('event_class')}]"
    note = d.get("error", "")
    if "jaxp_bound" in d:
        jb = d["jaxp_bound"]
        note = (note + " " if note else "") + (
            f"jax-privacy {jb:.4g} in {d.get('jaxp_seconds', 0):.1f}s" if jb is not None
            else f"jax-privacy: {d.get('jaxp_note')}")
    return Row(name=d["name"], values={
        "family": d["family"], "objective": d["objective"], "claim": d["claim"],
        "true": "inf" if math.isinf(t) else f"{t:.6g}",
        "bound": None if bound is None else f"{bound:.4g}",
        "ratio": None if ratio is None else f"{ratio:.3f}",
        "goal": d.get("goal"), "verdict": d.get("verdict"),
        "structural": None if structural is None else ("yes" if structural else "no"),
        "event": event, "samples": d["samples"],
        "seconds": f"{float(d.get('seconds', 0.0)):.1f}"}, note=note)


def summary(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The summary lines: goal counts per kind, false alarms, errors, and the misses."""
    def count(pred: Callable[[dict[str, Any]], bool]) -> tuple[int, int]:
        sel = [d for d in rows if pred(d)]
        return sum(d.get("goal") == "met" for d in sel), len(sel)

    fin_eps = count(lambda d: not math.isinf(d["true"]) and d["objective"] == "epsilon")
    fin_del = count(lambda d: not math.isinf(d["true"]) and d["objective"] == "delta")
    inf = count(lambda d: math.isinf(d["true"]))
    correct = [d for d in rows if d["correct"]]
    alarms = sum(d.get("goal") == "FALSE ALARM" for d in rows)
    errors = sum(d.get("goal") == "error" for d in rows)
    lines = [f"summary: finite ε: {fin_eps[0]}/{fin_eps[1]} reach ≥ {GOAL} × true; finite δ: "
             f"{fin_del[0]}/{fin_del[1]} reach ≥ {GOAL} × true; infinite: {inf[0]}/{inf[1]} "
             f"reported structural; false alarms on claims that hold: {alarms}/{len(correct)}; "
             f"errors: {errors}"]
    misses = [d for d in rows if d.get("goal") != "met"]
    for d in misses:
        t = d["true"]
        b = d.get("bound")
        what = ("error: " + d.get("error", "")) if b is None else (
            f"bound {b:.4g} of true {'inf' if math.isinf(t) else f'{t:.4g}'}"
            + ("" if not math.isinf(t) else f", structural={d.get('structural')}")
            + (f" ({b / t:.3f})" if not math.isinf(t) and t else ""))
        lines.append(f"  {d.get('goal')}: {d['name']} — {what}; event {d.get('feature')}")
    return lines


def select(entries: Sequence[KnownAnswer], only: Sequence[str] | None,
           family: Sequence[str] | None) -> list[KnownAnswer]:
    """The entries named by ``--only`` / ``--family`` (all when neither is given)."""
    names = {e.name for e in entries}
    fams = {e.family for e in entries}
    for nm in only or ():
        if nm not in names:
            raise InvalidParameter(f"--only={nm} is not a catalogue entry (see --list)")
    for f in family or ():
        if f not in fams:
            raise InvalidParameter(f"--family={f} is not one of {', '.join(sorted(fams))}")
    return [e for e in entries
            if (not only or e.name in only) and (not family or e.family in family)]


def parse_samples(text: str) -> int:
    try:
        v = float(text)
    except ValueError:
        raise InvalidParameter(f"--samples={text} must be a number, e.g. 1e6") from None
    if not math.isfinite(v) or v < MIN_SAMPLES or v != int(v):
        raise InvalidParameter(f"--samples={text} must be an integer >= {MIN_SAMPLES}")
    return int(v)


def _json_value(v: Any) -> Any:
    """Strict JSON: ±∞ as the strings "inf" / "-inf"."""
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--samples", default=None,
                    help=f"outputs per side (default {DEFAULT_SAMPLES:.0e}; e.g. 1e6)")
    ap.add_argument("--quick", action="store_true",
                    help=f"smoke run: {QUICK_SAMPLES:.0e} per side")
    ap.add_argument("--budget", type=float, default=None,
                    help="cap each entry's samples so that cost × samples / 1e6 ≤ BUDGET "
                         "(seconds; an entry's cost is its measured audit seconds per 1e6)")
    ap.add_argument("--only", nargs="+", default=None, metavar="NAME")
    ap.add_argument("--family", nargs="+", default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--confidence", type=float, default=0.95)
    ap.add_argument("--json", action="store_true", help="also print every row as JSON")
    ap.add_argument("--list", action="store_true", help="print the catalogue and exit")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        n = QUICK_SAMPLES if args.quick else (
            DEFAULT_SAMPLES if args.samples is None else parse_samples(args.samples))
        if args.budget is not None and not args.budget > 0:
            raise InvalidParameter(f"--budget={args.budget} must be > 0")
        if not 0 < args.confidence < 1:
            raise InvalidParameter(f"--confidence={args.confidence} must lie in (0, 1)")
        entries = select(catalogue(), args.only, args.family)
    except InvalidParameter as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print_machine(machine_info())
    if args.list:
        rows = [Row(name=e.name, values={
            "family": e.family, "pair": e.pair, "objective": e.objective, "claim": claim_text(e),
            "true": "inf" if math.isinf(e.true_value) else f"{e.true_value:.6g}",
            "target": e.target, "holds": "yes" if e.correct else "no"}, note=e.reference)
            for e in entries]
        print(f"\n#### Known-answer catalogue ({len(rows)} mechanisms)\n")
        print(format_table(rows, ["family", "pair", "objective", "claim", "true", "target",
                                  "holds"]))
        return 0
    jaxp = jax_privacy_module()
    print("# jax-privacy: " + ("installed (run beside privlab on scalar outputs)" if jaxp
                               else "not installed"))
    results = []
    t_all = time.perf_counter()
    for e in entries:
        m = samples_for(e, n, args.budget)
        log(f"{e.name}: {m} per side ...")
        d = audit_entry(e, m, seed=args.seed, workers=args.workers, confidence=args.confidence)
        d["goal"] = goal_status(e, d.get("bound"), d.get("structural"), d.get("verdict"))
        if jaxp is not None and e.objective == "epsilon":
            d.update(jax_privacy_bound(jaxp, e, m, seed=args.seed, confidence=args.confidence))
        log(f"  bound {d.get('bound')} true {d['true']:.6g} ({d['goal']}, "
            f"{d.get('seconds', 0):.1f} s)")
        results.append(d)
    print(f"\n#### privlab audit_pair against the true value ({args.confidence:.0%} confidence, "
          f"seed {args.seed}, {args.workers} worker(s), {time.perf_counter() - t_all:.0f} s "
          f"in all)\n")
    print(format_table([to_row(d) for d in results], COLUMNS))
    print()
    for line in summary(results):
        print(line)
    if args.json:
        print(json.dumps([{k: _json_value(v) for k, v in d.items()} for d in results],
                         indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
