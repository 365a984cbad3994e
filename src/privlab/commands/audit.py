"""``privlab audit``: black-box ε / δ lower bounds for a mechanism, the control suite, replay.

    privlab audit MECHANISM [--epsilon E] [--sensitivity S] [--d D] --samples N
                  [--confidence C] [--delta D] [--objective epsilon|delta] [--seed S]
                  [--workers W] [--scheduler ADDRESS] [--bins N] [--save FILE]
                  [--format json]
    privlab audit --suite [--quick] [--samples N] [--bins N]
    privlab audit --replay FILE [--samples N] [--allow-code] [--timeout SECONDS]
    privlab audit --sampler MODULE:FACTORY | --mechanism MODULE:OBJ
                  (--pair A B ... | --input-a FILE --input-b FILE | --search LO,HI)
                  --claimed-epsilon E [--sensitivity S] [--delta D] [--samples N]
                  [--bins N] [--timeout SECONDS] ...

Options of the auditor (``--bins``; the table :data:`PAIR_OPTIONS`, shared with suite files)
apply to every mode but ``--replay``.  Workers: all cores unless ``--workers W`` (every command;
the Python API draws in one process unless asked).  ``--search`` prints every candidate pair
and its pilot bound (``search`` in JSON).  A sampler that ignores ``rng`` gets one ``warning:``
line on stderr unless ``--unseedable`` (:func:`privlab.audit.usercode.seed_probe`).

The user's own code (``--sampler``: ``factory(input) -> (n, rng) -> array``; ``--mechanism``:
an object with ``release(values, *, rng)``; ``MODULE:NAME`` or ``path/to/file.py:NAME``) is
audited by the same runner as one entry of a suite file
(:func:`privlab.audit.usersuite.run_audit`): union bound over the pairs, pilot search over a
domain, confirmation replay on fresh samples, error 1 − confidence in all.  It runs contained
(:func:`privlab.audit.usercode.contained`): in a child process, under ``--timeout`` (default
3600 s); code that raises, calls ``sys.exit()``/``os._exit()``, crashes, is killed, runs out of
time or returns non-finite outputs gets no verdict — one ``error: …`` line naming it, exit 2.

``--replay FILE`` reads the file as data (:func:`privlab.audit.replay.counterexample_of`: every
key checked); a counterexample of the user's code (its ``spec`` names a reference) is replayed
only with ``--allow-code`` — replaying imports and runs that code — and, when the file records
the code file's SHA-256 (files privlab writes do), only if the file is unchanged.  Replays run
contained as well.

Exit status: 0 when the claim is consistent with the audit (suite: every mechanism has its
expected verdict), 1 when a claim is violated (suite: a verdict differs from the expected one),
2 for bad usage or an audit without a verdict.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import click

from privlab import _input
from privlab._audit_options import MAX_SAMPLES, PAIR_OPTIONS
from privlab._io import atomic_write_json
from privlab.commands._common import (
    EXIT_FAILED,
    EXIT_OK,
    emit,
    exit_with,
    format_option,
    progress,
    sample_bar,
    seed_option,
    text_table,
)
from privlab.errors import InvalidParameter


def pair_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """A click decorator: one ``--KEY`` option per :data:`PAIR_OPTIONS` entry (default None:
    the auditor's own default)."""
    for o in reversed(PAIR_OPTIONS):
        f = click.option(o.flag, o.key, type=click.BOOL if o.type is bool else o.type,
                         default=None, metavar=o.metavar,
                         help=o.help)(f)
    return f


def given_pair_options(values: Mapping[str, Any]) -> dict[str, Any]:
    """The :data:`PAIR_OPTIONS` set on the command line, validated (``--KEY=VALUE …``)."""
    return {o.key: o.check(o.flag, values[o.key]) for o in PAIR_OPTIONS
            if values.get(o.key) is not None}


def _summary(d: dict[str, Any]) -> str:
    cex = d.get("counterexample") or {}
    lines = [f"mechanism            {d['mechanism']}",
             f"claimed              epsilon={d['epsilon_claimed']} delta={d['delta']}",
             f"epsilon lower bound  {d['epsilon_lower_bound']:.6g}  "
             f"(confidence {d['confidence']})",
             f"delta lower bound    {d['delta_lower_bound']:.6g}",
             f"verdict              {d['verdict']}",
             f"samples per side     {d['samples']}  ({d['seconds']:.2f} s)"]
    if cex:
        lines += [f"neighbours           {json.dumps(cex.get('neighbours'))}",
                  f"event                {cex.get('feature')} in "
                  f"{json.dumps(cex.get('event'))}",
                  f"counts               a: {cex['a']['count']}/{cex['a']['n']}  "
                  f"b: {cex['b']['count']}/{cex['b']['n']}"]
    return "\n".join(lines)


def _user_summary(d: dict[str, Any]) -> str:
    cex = d.get("counterexample") or {}
    conf = d.get("confirmation") or {}
    lines = [f"{d['kind']:<21}{d['reference']}",
             f"claimed              epsilon={d['claimed_epsilon']} delta={d['delta']}",
             f"epsilon lower bound  {d['epsilon_lower_bound']:.6g}  "
             f"(confidence {d['confidence']:.6g} per pair, {d['pairs_audited']} pair(s))",
             f"delta lower bound    {d['delta_lower_bound']:.6g}",
             f"structural leak      {d['structural_leak']}  (event class {d['event_class']})",
             f"verdict              {d['verdict']}"
             + (f"  (confirmation: {conf.get('verdict')})" if conf else ""),
             f"samples per side     {d['samples']}"]
    if not d.get("seedable", True):
        lines.append("seedable             False (same seed does not reproduce this audit)")
    if cex:
        lines += [f"neighbours           {json.dumps(d.get('pair'))}",
                  f"event                {cex.get('feature')} in "
                  f"{json.dumps(cex.get('event'))}",
                  f"counts               a: {cex['a']['count']}/{cex['a']['n']}  "
                  f"b: {cex['b']['count']}/{cex['b']['n']}"]
    if d.get("search"):
        lines += ["", _search_table(d["search"])]
    return "\n".join(lines)


def _search_table(s: Mapping[str, Any]) -> str:
    """The candidates of a search and their pilot bounds (the chosen one marked)."""
    obj = "epsilon" if s["objective"] == "epsilon" else "delta"
    rows = [{"candidate": c.get("label") or json.dumps(c["pair"]),
             f"pilot {obj} bound": c["pilot_bound"],
             "audited": "<- audited" if i == s["chosen"] else ""}
            for i, c in enumerate(s["candidates"])]
    head = (f"search: {len(rows)} candidate pair(s) scored by pilot audits of "
            f"{s['pilot_samples']} outputs per side (a score, not a guarantee); the worst was "
            f"audited on fresh samples")
    return head + "\n" + text_table(rows)


def _input_token(tok: str) -> Any:
    """A neighbour from the command line: a number, numbers ``1,2,3`` / ``[1, 2, 3]`` (a
    vector), or a CSV/JSON file name (a data set; read relative to the current directory)."""
    try:
        return float(tok)
    except ValueError:
        pass
    if tok.lstrip().startswith("["):
        try:
            return _input.loads_json(tok, "--pair value")
        except InvalidParameter:
            raise InvalidParameter(f"--pair value {tok!r} is not a JSON list of numbers") \
                from None
    if "," in tok:
        try:
            return [float(x) for x in tok.split(",")]
        except ValueError:
            raise InvalidParameter(f"--pair value {tok!r} must be numbers a,b,… or a file "
                                   f"name") from None
    return tok


def _user_audit(kind: str, ref: str, pairs: tuple[tuple[str, str], ...], input_a: str | None,
                input_b: str | None, search: str | None, sensitivity: str | None,
                claimed: float | None, delta: float, objective: str, n: int,
                confidence: float, float_bits: bool, unseedable: bool, workers: int | None,
                scheduler: str | None, seed: int, timeout: float,
                pair_kw: Mapping[str, Any]) -> dict[str, Any]:
    """``--sampler`` / ``--mechanism``: one audit of the user's code, contained (module
    docstring)."""
    from privlab import _validate as v
    from privlab.audit.usercode import contained
    from privlab.audit.usersuite import parse_audit

    if claimed is None:
        raise click.UsageError(f"--claimed-epsilon is required with --{kind}")
    if (input_a is None) != (input_b is None):
        raise click.UsageError("--input-a and --input-b go together (the two neighbouring "
                               "data sets)")
    given = [[_input_token(a), _input_token(b)] for a, b in pairs]
    if input_a is not None:
        given.append([input_a, input_b])
    if bool(given) == (search is not None):
        raise click.UsageError(f"--{kind} needs exactly one of --pair A B (repeatable), "
                               f"--input-a/--input-b or --search LO,HI")
    raw: dict[str, Any] = {"name": ref, kind: ref, "claimed_epsilon": claimed, "delta": delta,
                           "samples": n, "float_bits": float_bits, "objective": objective,
                           "seedable": not unseedable, **pair_kw}
    if given:
        raw["pairs"] = given
    else:
        dom = _floats("--search", search)
        if len(dom) != 2:
            raise click.BadParameter(f"--search={search!r} must be LO,HI")
        raw["search"] = {"domain": list(dom),
                         "sensitivity": _floats("--sensitivity", sensitivity, scalar=True)
                         if sensitivity is not None else 1.0}
    spec = parse_audit(raw, 0, Path.cwd(), n)
    level = 1.0 - v.in_open("confidence", confidence, 0.0, 1.0)
    run = _UserRun(spec, level, seed, workers, scheduler)
    out: dict[str, Any] = contained(run, label=f"{kind} {ref}", timeout=timeout,
                                    progress=progress, mention=f"audit {ref!r}")
    return out


class _UserRun:
    """The contained part of ``--sampler`` / ``--mechanism`` (runs in the child process)."""

    def __init__(self, spec: Any, level: float, seed: int, workers: int | None,
                 scheduler: str | None) -> None:
        self.spec, self.level, self.seed = spec, level, seed
        self.workers, self.scheduler = workers, scheduler

    def __call__(self, say: Any) -> dict[str, Any]:
        import numpy as np

        from privlab.audit.usersuite import run_audit

        for x in self.spec.candidate_pairs()[0]:  # fail fast: import, signature, output shape
            self.spec.sampler(x)(16, np.random.default_rng(0))
        out: dict[str, Any] = run_audit(self.spec, self.level, self.seed, self.workers,
                                        self.scheduler, say)
        return out


def _replay_file(path: str, *, n: int, seed: int, confidence: float, allow_code: bool,
                 timeout: float) -> Any:
    """``--replay FILE``: the file read and checked as data, user code only with
    ``allow_code``, the replay itself contained (module docstring)."""
    from privlab.audit.replay import counterexample_of, names_code, replay
    from privlab.audit.usercode import check_code_identity, contained

    shown = f"--replay={path!r}"
    saved = _input.load_json(path, "--replay")
    cex = counterexample_of(saved, shown)
    spec = cex.get("spec") or {}
    if names_code(cex):
        kind = "sampler" if "sampler" in spec else "mechanism"
        ref = spec[kind]
        if not allow_code:
            raise InvalidParameter(
                f"{shown} names code to run ({kind} {ref!r}, folder {spec.get('base')!r}); "
                f"replaying imports and runs it: pass --allow-code if you trust this file")
        check_code_identity(spec)  # before the child imports anything: one line naming it
        label = f"replay of {kind} {ref}"
    else:
        label = f"replay of {spec.get('mechanism', 'the counterexample')}"

    def run(_say: Any) -> Any:
        return replay(saved, samples=n, rng=seed, confidence=confidence)

    return contained(run, label=label, timeout=timeout)


def _floats(name: str, text: str | None, *, scalar: bool = False) -> Any:
    if text is None:
        return None
    try:
        vals = tuple(float(x) for x in text.split(","))
    except ValueError:
        raise click.BadParameter(f"{name}={text!r} must be comma-separated numbers") from None
    if scalar:
        if len(vals) != 1:
            raise click.BadParameter(f"{name}={text!r} must be one number for this mechanism")
        return vals[0]
    return vals


BOX_MECHANISMS = ("box-staircase", "broken-box-staircase-ratio", "broken-box-staircase-step")


def _audit_box(name: str, epsilon: float | None, sensitivity: str | None, core: str | None,
               claimed: float | None, n: int, confidence: float, seed: int,
               kw: Mapping[str, Any]) -> Any:
    """Box staircase (thesis §4.5) on x0 = 0 vs x1 = the vertex s of S_f, LR feature; ``kw``
    (workers, scheduler, :data:`PAIR_OPTIONS`) go to the auditor."""
    from privlab.audit.multivariate import audit_shift
    from privlab.mechanisms.noise import box_staircase as bs

    eps = 1.0 if epsilon is None else epsilon
    s = _floats("--sensitivity", sensitivity) or (1.0, 10.0)
    z = _floats("--core", core)
    cls = {"box-staircase": bs.BoxStaircase, "broken-box-staircase-ratio":
           bs.WrongRatioBoxStaircase, "broken-box-staircase-step": bs.HalfStepBoxStaircase}[name]
    if z is None:
        z = bs.BoxStaircase.optimal(eps, s, "variance").core
    mech = cls(epsilon=eps, sensitivity=s, core=z)
    return audit_shift(mech, [0.0] * len(s), list(s), samples=n, claimed_epsilon=claimed,
                       confidence=confidence, rng=seed, progress=progress, **kw)


@click.command("audit")
@click.argument("mechanism", required=False)
@click.option("--samples", type=click.IntRange(min=1, max=MAX_SAMPLES), default=None,
              help="Outputs per side (default 10^6; suite: 10^5 with --quick, else 10^6; at "
                   "most 10^9).")
@click.option("--confidence", type=float, default=0.95, show_default=True)
@click.option("--delta", type=float, default=0.0, show_default=True,
              help="Claimed delta (the epsilon bound is at this delta).")
@click.option("--objective", type=click.Choice(["epsilon", "delta"]), default="epsilon",
              show_default=True, help="delta: lower-bound delta at the claimed epsilon.")
@click.option("--epsilon", type=float, default=None, help="Mechanism parameter epsilon.")
@click.option("--claimed-epsilon", type=float, default=None,
              help="Claim to test (default: the mechanism's epsilon).")
@click.option("--sensitivity", default=None,
              help="Mechanism sensitivity (box-staircase: half-widths s1,s2,…).")
@click.option("--core", default=None,
              help="box-staircase: core half-widths z1,z2,… (default: variance-optimal).")
@click.option("--d", "d", type=float, default=None, help="Staircase parameter d.")
@click.option("--float-bits", is_flag=True, help="Also search floating-point low-bit events.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Local worker processes (default: all cores).")
@click.option("--scheduler", default=None, help="Dask scheduler ADDRESS (needs distributed).")
@click.option("--suite", "run_suite", is_flag=True, help="Audit the whole control suite.")
@click.option("--quick", is_flag=True, help="Suite: 10^5 samples per side.")
@click.option("--replay", "replay_file", type=click.Path(dir_okay=False), default=None,
              help="Re-estimate the event of a saved result / counterexample JSON.")
@click.option("--save", type=click.Path(dir_okay=False), default=None,
              help="Write the result (with its counterexample) to this JSON file.")
@click.option("--sampler", "sampler_ref", default=None, metavar="MODULE:FACTORY",
              help="Audit your own code: factory(input) returns a sampler (n, rng) -> array "
                   "(MODULE:NAME or path/to/file.py:NAME).")
@click.option("--mechanism", "mechanism_ref", default=None, metavar="MODULE:OBJ",
              help="Audit your own object with release(values, *, rng).")
@click.option("--pair", "pairs", nargs=2, multiple=True, metavar="A B",
              help="Neighbouring inputs for --sampler/--mechanism (repeatable; a number, "
                   "a vector 1,2,3 or a CSV/JSON data set).")
@click.option("--input-a", default=None, type=click.Path(dir_okay=False),
              help="Data set (CSV/JSON) of one neighbour, with --input-b.")
@click.option("--input-b", default=None, type=click.Path(dir_okay=False),
              help="Data set (CSV/JSON) of the other neighbour.")
@click.option("--search", default=None, metavar="LO,HI",
              help="Search neighbouring scalar inputs x, x±S in [LO, HI] (S = --sensitivity).")
@click.option("--unseedable", is_flag=True,
              help="Your sampler ignores rng: audit anyway (no same-seed reproducibility).")
@click.option("--timeout", type=float, default=None, metavar="SECONDS",
              help="--sampler/--mechanism/--replay: the longest the run of the code may take "
                   "(default 3600); past it the run is stopped with an error (exit 2).")
@click.option("--allow-code", is_flag=True,
              help="--replay: run the code the file names (a counterexample of your own "
                   "sampler or mechanism); without it such a file is refused.")
@pair_options
@format_option
@seed_option
def audit(mechanism: str | None, samples: int | None, confidence: float, delta: float,
          objective: str, epsilon: float | None, claimed_epsilon: float | None,
          sensitivity: str | None, core: str | None, d: float | None, float_bits: bool,
          workers: int | None,
          scheduler: str | None, run_suite: bool, quick: bool, replay_file: str | None,
          save: str | None, sampler_ref: str | None, mechanism_ref: str | None,
          pairs: tuple[tuple[str, str], ...], input_a: str | None, input_b: str | None,
          search: str | None, unseedable: bool, timeout: float | None, allow_code: bool,
          fmt: str, seed: int, **options: Any) -> None:
    """Audit MECHANISM black-box: a lower bound on its epsilon (or delta) that holds with the
    given confidence, and a replayable counterexample.  MECHANISM is one of: laplace,
    staircase, geometric, randomized-response, exponential-mechanism, histogram, svt1..svt6,
    noisy-max-*, float-laplace-naive, float-laplace-safe, box-staircase (ℝ^d, thesis §4.5;
    --sensitivity s1,s2,… --core z1,z2,…) and its broken-box-staircase-ratio|-step controls.

    Your own code: --sampler MODULE:FACTORY or --mechanism MODULE:OBJ with --pair A B,
    --input-a/--input-b or --search LO,HI, and --claimed-epsilon (default 10^5 samples per
    side); see docs/auditing-your-mechanism.md.

    Local worker processes: all cores unless --workers (the Python API: 1 unless asked)."""
    from privlab.audit import audit_mechanism
    from privlab.audit import suite as suite_mod
    from privlab.audit.controls import make, names

    if save is not None:  # a regular file, never the file the audit reads, before any work
        from privlab.commands._csvio import check_output

        check_output(save, {"replay": replay_file, "input-a": input_a, "input-b": input_b},
                     suffixes=(), param="save")
    user = [(k, r) for k, r in (("sampler", sampler_ref), ("mechanism", mechanism_ref))
            if r is not None]
    modes = sum([mechanism is not None, run_suite, replay_file is not None]) + len(user)
    if modes != 1:
        raise click.UsageError("give exactly one of MECHANISM, --suite, --replay FILE, "
                               "--sampler MODULE:FACTORY or --mechanism MODULE:OBJ "
                               f"(mechanisms: {', '.join(names())})")
    if not user and (pairs or input_a or input_b or search or unseedable):
        raise click.UsageError("--pair, --input-a/--input-b, --search and --unseedable apply "
                               "to --sampler/--mechanism only")
    if timeout is not None and not user and replay_file is None:
        raise click.UsageError("--timeout applies to --sampler, --mechanism and --replay "
                               "(the runs of code that may not finish)")
    if allow_code and replay_file is None:
        raise click.UsageError("--allow-code applies to --replay only")
    pair_kw = given_pair_options(options)
    if pair_kw and replay_file is not None:
        flags = ", ".join(o.flag for o in PAIR_OPTIONS if o.key in pair_kw)
        raise click.UsageError(f"{flags} set(s) how an audit searches; --replay re-counts the "
                               f"saved event and takes none")
    from privlab import _validate as v
    from privlab.audit.usercode import DEFAULT_TIMEOUT, check_timeout

    limit = DEFAULT_TIMEOUT if timeout is None else check_timeout("--timeout", timeout)
    if claimed_epsilon is not None and not user and v.finite("--claimed-epsilon",
                                                             claimed_epsilon) <= 0:
        raise InvalidParameter(f"--claimed-epsilon={claimed_epsilon!r} must be > 0 (a claim "
                               f"of epsilon = 0 is violated by every mechanism whose output "
                               f"depends on its input)")
    if user:
        for opt, val in (("--epsilon", epsilon), ("--d", d), ("--core", core)):
            if val is not None:
                raise click.UsageError(f"{opt} is a parameter of the built-in mechanisms; "
                                       f"with --{user[0][0]} your code holds its parameters")
        if quick:
            raise click.UsageError("--quick applies to --suite only")
        res_d = _user_audit(user[0][0], user[0][1], pairs, input_a, input_b, search,
                            sensitivity, claimed_epsilon, delta, objective,
                            samples if samples is not None else 10**5, confidence, float_bits,
                            unseedable, workers, scheduler, seed, limit, pair_kw)
        if save:
            atomic_write_json(Path(save), res_d)
        emit(res_d, fmt, lambda: _user_summary(res_d))
        exit_with(EXIT_FAILED if res_d["verdict"] == "violation" else EXIT_OK)
        return
    if run_suite:
        rows = suite_mod.run(samples=samples, rng=seed, quick=quick, workers=workers,
                             confidence=confidence, progress=progress, options=pair_kw)
        table = [r for r, _ in rows]
        out = {"id": "audit-suite", "rows": table}
        if save:
            atomic_write_json(Path(save), {"rows": table,
                                           "results": [r.to_dict() for _, r in rows]})
        emit(out, fmt, lambda: text_table(table, ["mechanism", "epsilon_claimed",
                                                  "epsilon_true", "epsilon_lower_bound",
                                                  "verdict", "ok", "samples", "seconds"]))
        exit_with(EXIT_OK if all(r["ok"] for r in table) else EXIT_FAILED)
        return
    n = samples if samples is not None else 10**6
    if replay_file is not None:
        res = _replay_file(replay_file, n=n, seed=seed, confidence=confidence,
                           allow_code=allow_code, timeout=limit)
    elif mechanism in BOX_MECHANISMS:
        res = _audit_box(str(mechanism), epsilon, sensitivity, core, claimed_epsilon, n,
                         confidence, seed, {"workers": workers, "scheduler": scheduler,
                                            **pair_kw})
    else:
        if core is not None:
            raise click.UsageError(f"--core applies to {', '.join(BOX_MECHANISMS)} only")
        params = {k: x for k, x in (("epsilon", epsilon),
                                    ("sensitivity", _floats("--sensitivity", sensitivity,
                                                            scalar=True)),
                                    ("d", d)) if x is not None}
        mech = make(str(mechanism), **params)
        k = len(getattr(mech, "pairs", None) or ())
        if k > 1:  # say why the audit runs k times (each pilot line names its pair)
            progress(f"{mechanism}: {k} neighbour pairs, audited in turn at confidence "
                     f"{1 - (1 - confidence) / k:.6g} each (union bound); the largest bound is "
                     f"reported")
        with sample_bar() as bar:
            res = audit_mechanism(mech, samples=n, confidence=confidence, delta=delta,
                                  objective=objective, claimed_epsilon=claimed_epsilon,
                                  rng=seed, float_bits=True if float_bits else None,
                                  workers=workers, scheduler=scheduler, progress=progress,
                                  bar=bar, **pair_kw)
    d_out = res.to_dict()
    if save:
        atomic_write_json(Path(save), d_out)
    emit(d_out, fmt, lambda: _summary(d_out))
    exit_with(EXIT_FAILED if res.verdict == "violation" else EXIT_OK)
