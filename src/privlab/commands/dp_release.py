"""CLI for DP releases through microaggregation (thesis ch.6, vldb14, irm).

``privlab certify dp-release --microaggregation insensitive-mdav --noise-scale vldb14 --n 1080
--k 33 --epsilon 1 --attributes 4 --noise shared --rows shuffled --format json`` prints the
certificate (``certified_epsilon`` null when no ε can be established; exit 1 when the requested
ε is not established).  ``audit_dp_release`` (mounted as ``privlab audit dp-release``) audits the
same configuration on adversarial neighbours.  ``privlab release insensitive-mdav-dp|ir-dp|
laplace-dp --input CSV --output CSV --epsilon E --k K --columns a,b --bounds lo:hi,lo:hi``
writes the release and ``OUTPUT.cert.json``.  ``--taxonomy COL=FILE`` (release) and
``--taxonomy NAME=FILE`` (certify) handle categorical attributes: see
:mod:`privlab.commands.dp_release_mixed`.

Every certificate carries ``utility`` (:mod:`privlab.verify.releases.utility`): the expected
error of each numerical attribute from public parameters only (noise sd against the range,
error of the released mean, formulas), warnings (noise above the range, a scale more than
twice what ε needs) and, with ``--max-relative-error R``, the smallest k, ε and scale that
meet R; the warnings go to stderr.  The release commands also print the figures on the data
(SSE/SST, the true and expected released means) on stdout only: they are not covered by ε
and never enter ``OUTPUT.cert.json``.  A refusal says why the configuration cannot be
certified and names configurations that are (each checked with its certificate).
"""

from __future__ import annotations

from typing import Any

import click

from privlab.commands._common import (
    EXIT_FAILED,
    EXIT_OK,
    emit,
    format_option,
    release_seed_option,
    seed_option,
)
from privlab.commands._csvio import (
    OutputFile,
    allow_uncertified_option,
    certified_text,
    check_in_bounds,
    check_output,
    csv_bytes,
    fix_hint,
    loss_text,
    number,
    parse_columns,
    plain,
    read_table,
    refuse_uncertified,
    released_roles,
    role_options,
    row_order,
    write_release,
)
from privlab.commands._roles import AttributeRoles
from privlab.errors import InvalidParameter
from privlab.types import jsonable


def _config_options(f: Any) -> Any:
    opts = [
        click.option("--microaggregation", type=click.Choice(
            ["insensitive-mdav", "individual-ranking", "none"]), default="insensitive-mdav",
            show_default=True),
        click.option("--noise-scale", default="thesis", show_default=True,
                     help="thesis|vldb14|irm|VALUE (Laplace scale per unit of range)."),
        click.option("--n", "n", type=int, required=True),
        click.option("--k", "k", type=int, required=True),
        click.option("--epsilon", type=float, required=True),
        click.option("--attributes", type=int, default=None,
                     help="Attributes released (default 1; with --taxonomy: all attributes, "
                          "numerical and categorical, default the taxonomies)."),
        click.option("--noise", type=click.Choice(["shared", "per-record"]), default="shared",
                     show_default=True),
        click.option("--rows", type=click.Choice(["aligned", "shuffled"]), default="shuffled",
                     show_default=True),
        click.option("--neighbour", type=click.Choice(["substitute", "add-remove"]),
                     default="substitute", show_default=True),
    ]
    for o in reversed(opts):
        f = o(f)
    return f


def _text(d: dict[str, Any]) -> str:
    eps = d["certified_epsilon"]
    lines = [f"dp-release {d['parameters']}",
             f"certified epsilon: {'none (ε = ∞)' if eps is None else f'{eps:.6g}'}",
             f"requested epsilon {d['requested_epsilon']:g}: "
             f"{'ESTABLISHED' if d['holds'] else 'NOT ESTABLISHED'}",
             f"reason: {d['reason']}", f"argument: {d['argument']}"]
    if d.get("counterexample"):
        lines.append(f"counterexample: {d['counterexample']}")
    return "\n".join(lines + utility_lines(d.get("utility"), warnings=True))


target_option = click.option(
    "--max-relative-error", type=float, default=None, metavar="R",
    help="Requested error: root mean square error of the released mean as a fraction of the "
         "attribute's range (e.g. 0.05).  The certificate's utility.target says whether it is "
         "met and which --k, --epsilon or --noise-scale would meet it.")


def _target(r: float | None) -> float | None:
    import math

    if r is not None and not (math.isfinite(r) and r > 0):
        raise InvalidParameter(f"max_relative_error={r!r} must be a finite number > 0")
    return r


def _warn(utility: dict[str, Any] | None) -> None:
    """The utility's warnings on stderr (one line each)."""
    for w in (utility or {}).get("warnings", ()):
        click.echo(f"warning: {w}", err=True)


def utility_lines(u: dict[str, Any] | None, data: dict[str, Any] | None = None,
                  warnings: bool = False) -> list[str]:
    """Human lines of a certificate's ``utility`` (and of the figures on the data; with its
    warnings when they are not printed on stderr)."""
    if not u:
        return []
    out = []
    on = {a["attribute"]: a for a in (data or {}).get("attributes", ())}
    for a in u["attributes"]:
        line = (f"expected error {a['attribute']}: noise sd {a['noise_sd']:.4g} "
                f"({a['noise_sd_over_range']:.3g}× the range {a['range']:g}); released mean "
                f"within {a['mean_relative_error']:.2g} of the range (root mean square bound)")
        o = on.get(a["attribute"])
        if o is not None:
            il = o["information_loss_aggregation"]
            line += (f"; on the data: SSE/SST of the aggregation "
                     f"{'n/a' if il is None else f'{il:.3g}'}, mean {o['true_mean']:.4g}, "
                     f"expected released mean {o['expected_released_mean']:.4g}")
            if "released_mean" in o:
                line += f", released mean {o['released_mean']:.4g}"
        out.append(line)
    t = u.get("target")
    if t:
        out.append(f"target {t['max_relative_error']:g}: {'met' if t['met'] else 'NOT met'} "
                   f"({t['value']:.3g}); {t['advice']}")
    if warnings:
        out += [f"warning: {w}" for w in u.get("warnings", ())]
    return out


@click.command("dp-release")
@_config_options
@click.option("--taxonomy", multiple=True, metavar="NAME=FILE",
              help="A categorical attribute with its taxonomy (.json/.yaml/ARX .csv, or "
                   "project:job, project:wordnet-occupation, … as in `privlab taxonomy list`); "
                   "repeatable.  Certifies the mixed release.")
@click.option("--budget", type=click.Choice(["split", "per-attribute"]), default=None,
              help="With --taxonomy: ε/m per attribute (default) or ε per categorical one.")
@click.option("--em-sensitivity", type=click.Choice(["exact", "boundary"]), default=None,
              help="With --taxonomy: Δ(m) exhaustive (default) or δ(a_b, a_t).")
@click.option("--em-factor", type=click.Choice(["n/k", "1"]), default=None,
              help="With --taxonomy: n/k (vldb14, default) or 1 (thesis Alg. 6.3).")
@target_option
@click.option("--clamp/--no-clamp", default=True, show_default=True,
              help="Utility figures with clamping to the domain (the releases' default); "
                   "does not change ε.")
@format_option
def certify_dp_release(microaggregation: str, noise_scale: str, n: int, k: int, epsilon: float,
                       attributes: int | None, noise: str, rows: str, neighbour: str,
                       taxonomy: tuple[str, ...], budget: str | None, em_sensitivity: str | None,
                       em_factor: str | None, max_relative_error: float | None, clamp: bool,
                       fmt: str) -> None:
    """Certificate for a microaggregation + Laplace (+ exponential mechanism) configuration,
    with the expected error of the release on attributes of unit range (``utility``)."""
    from privlab.verify.certificate import certificate
    from privlab.verify.releases.certificate import certify_dp_release as cert

    target = _target(max_relative_error)
    if taxonomy:
        from privlab.commands.dp_release_mixed import certify_mixed_config

        d = certificate("dp-release-mixed", jsonable(certify_mixed_config(
            microaggregation, noise_scale, n, k, epsilon, attributes, noise, rows, neighbour,
            taxonomy, budget, em_sensitivity, em_factor, target=target, clamp=clamp)))
        emit(d, fmt, lambda: _text(d))
        raise SystemExit(EXIT_OK if d["holds"] else EXIT_FAILED)
    if budget or em_sensitivity or em_factor:
        raise InvalidParameter("--budget, --em-sensitivity and --em-factor apply only with "
                               "--taxonomy")
    from privlab.verify.releases.utility_plans import law_utility

    c = cert(microaggregation, noise_scale, n, k, epsilon, attributes or 1, noise, rows,
             neighbour)
    d = certificate("dp-release", jsonable({**c.to_dict(), "utility": law_utility(
        c.config, clamp, target).to_dict()}))
    emit(d, fmt, lambda: _text(d))
    raise SystemExit(EXIT_OK if c.holds else EXIT_FAILED)


@click.command("dp-release")
@_config_options
@click.option("--samples", type=click.IntRange(min=100), default=20000, show_default=True)
@seed_option
@format_option
def audit_dp_release(microaggregation: str, noise_scale: str, n: int, k: int, epsilon: float,
                     attributes: int | None, noise: str, rows: str, neighbour: str,
                     samples: int, seed: int, fmt: str) -> None:
    """Audit a release configuration on adversarial neighbouring data sets."""
    from privlab.audit.release_audit import audit_dp_release as run
    from privlab.verify.releases.certificate import ReleaseConfig

    cfg = ReleaseConfig(microaggregation=microaggregation, noise_scale=noise_scale, n=n, k=k,
                        epsilon=epsilon, attributes=attributes or 1, noise=noise, rows=rows,
                        neighbour=neighbour)
    r = run(cfg, samples=samples, rng=seed)  # the claim judged is --epsilon, the user's
    d = jsonable(r.to_dict())
    cert = "none (ε = ∞)" if r.certified_epsilon is None else f"{r.certified_epsilon:g}"
    emit(d, fmt, lambda: (f"epsilon lower bound {r.epsilon_lower_bound:.4g} "
                          f"(claimed {r.claimed_epsilon:g}, certified {cert}); verdict "
                          f"{r.verdict}; structural leak {r.structural_leak}"))
    raise SystemExit(EXIT_FAILED if r.verdict == "violation" else EXIT_OK)


_METHODS = {"insensitive-mdav-dp": ("insensitive-mdav", "vldb14"),
            "ir-dp": ("individual-ranking", "irm"), "laplace-dp": ("none", "thesis")}
_HELP = {
    "insensitive-mdav-dp": "Insensitive MDAV (one fixed order, clusters of k) + Laplace noise "
                           "per cluster (vldb14 scale by default).",
    "ir-dp": "Individual ranking (each column clustered on its own) + Laplace noise per "
             "cluster (irm scale).  Certified for one column (--rows shuffled, --noise shared): "
             "with two or more columns and one shared draw per cluster the rows publish the "
             "per-column partitions (ε = ∞), so the release is refused and the refusal lists "
             "the configurations that are certified.",
    "laplace-dp": "Laplace noise on every record (k = 1, thesis scale m/ε per unit of range).",
}


def _fast_laws(rel: Any, b: Any, n: int) -> Any:
    from privlab.verify.releases.utility import continuous_laws

    return continuous_laws(b, rel.config(n, len(b)).scale_per_unit)


def _holds(rel: Any, n: int, b: Any) -> tuple[bool, float | None]:
    from privlab.verify.releases.certificate import certify_release

    c = certify_release(rel, n, len(b), bounds=b)
    return c.holds, c.certified_epsilon


def refusal_text(rel: Any, cert: dict[str, Any], n: int, cols: list[str],
                 b: Any) -> tuple[str, str]:
    """(why the release is not certified, which configurations are) for the refusal line;
    every configuration named is certified at ε (checked here with its certificate)."""
    import attrs

    from privlab.verify.releases.utility_plans import numerical_utility

    eps, m = rel.epsilon, len(cols)
    fixes: list[str] = []
    if cert["certified_epsilon"] is None:
        if rel.rows == "aligned":
            why = ("with --rows aligned and one shared draw per cluster, equal rows publish "
                   "which records share a cluster (an event of probability 1 on one data set "
                   "and 0 on a neighbour: ε = ∞ at any --epsilon and --noise-scale)")
            if _holds(attrs.evolve(rel, rows="shuffled"), n, b)[0]:
                fixes.append("--rows shuffled is certified")
        else:
            why = (f"individual ranking clusters each of the {m} columns on its own; with one "
                   "shared draw per cluster a released row repeats another exactly when the "
                   "two records share their cluster in every column, so the rows publish the "
                   "per-column partitions (an event of probability 1 on one data set and 0 on "
                   "a neighbour: ε = ∞ at any --epsilon and --noise-scale)")
        if rel.microaggregation == "individual-ranking" and m >= 2:
            one = attrs.evolve(rel, epsilon=eps / m, rows="shuffled")
            if all(_holds(one, n, [t])[0] for t in b):
                fixes.append(f"ir-dp on one column per release at --epsilon {eps / m:.6g} "
                             f"each is certified (the {m} files compose to ε = {eps:g}; their "
                             "rows are not linked)")
            mdav = attrs.evolve(rel, microaggregation="insensitive-mdav", noise_scale="vldb14",
                                rows="shuffled")
            ok, ce = _holds(mdav, n, b)
            if ok:
                fixes.append(f"insensitive-mdav-dp on the same columns is certified "
                             f"(ε = {ce:.6g})")
        pr = attrs.evolve(rel, noise="per-record", rows="shuffled")
        cal = numerical_utility(pr, n, b).calibration
        if cal and cal.get("scale_per_unit"):
            opt = "--rows shuffled " if rel.rows == "aligned" else ""
            fixes.append(f"{opt}--noise per-record --noise-scale {cal['scale_per_unit']:g} "
                         f"is certified at ε = {eps:g} (noise sd "
                         f"{2 ** 0.5 * cal['scale_per_unit']:.3g}× each column's range)")
        return why, "; ".join(fixes) or "no configuration of this method is certified"
    why = (f"L1 sensitivity {cert['sensitivity_units']:g} units of range at the noise scale "
           f"{cert['parameters']['scale_per_unit']:.6g} per unit gives ε = "
           f"{cert['certified_epsilon']:.6g}")
    cal = numerical_utility(rel, n, b).calibration
    if cal and cal.get("scale_per_unit"):
        fixes.append(f"--noise-scale {cal['scale_per_unit']:g} is certified at ε = {eps:g}")
    fixes.append(fix_hint(rel.rows, rel.noise, cert))
    return why, "; ".join(fixes)


@click.group("release")
def release_dp() -> None:
    """Anonymise a CSV file; writes OUTPUT and OUTPUT.cert.json."""


def _release_cmd(method: str) -> Any:
    micro, default_scale = _METHODS[method]

    @release_dp.command(method, help=_HELP[method])
    @click.option("--input", "input_", type=click.Path(dir_okay=False), required=True)
    @click.option("--output", type=OutputFile(), required=True)
    @click.option("--epsilon", type=float, required=True)
    @click.option("--k", "k", type=int, default=1, show_default=True)
    @click.option("--columns", default=None, help="Comma-separated numerical columns "
                  "(required unless --taxonomy is given).")
    @click.option("--bounds", default=None, help="lo:hi per column, comma-separated.")
    @click.option("--taxonomy", multiple=True, metavar="COL=FILE",
                  help="Release categorical column COL with its taxonomy FILE (.json, .yaml, "
                       "ARX .csv); repeatable.  See privlab.commands.dp_release_mixed.")
    @click.option("--noise-scale", default=default_scale, show_default=True)
    @click.option("--noise", type=click.Choice(["shared", "per-record"]), default="shared")
    @click.option("--rows", type=click.Choice(["aligned", "shuffled"]), default="shuffled")
    @click.option("--clamp/--no-clamp", default=True, show_default=True)
    @click.option("--noise-mode", type=click.Choice(["safe", "fast"]), default="safe",
                  show_default=True,
                  help="safe: exact integer noise on a power-of-two grid, the certificate's ε "
                       "is that of the written values; fast: float Laplace noise, whose low-"
                       "order bits leak (certificate: float_safe false, a warning).")
    @role_options("the released columns; roles are declarative here: a DP release passes "
                  "no column through, so --keep is refused")
    @target_option
    @allow_uncertified_option
    @release_seed_option
    @format_option
    def cmd(input_: str, output: str, epsilon: float, k: int, columns: str | None,
            bounds: str | None, taxonomy: tuple[str, ...], noise_scale: str, noise: str,
            rows: str, clamp: bool, noise_mode: str, qi: str | None, sensitive: str | None,
            keep: str | None, drop_other: bool, max_relative_error: float | None,
            allow_uncertified: bool, seed: int | None, fmt: str) -> None:
        import numpy as np

        from privlab.mechanisms.releases.numerical import DPRelease
        from privlab.verify.releases.certificate import certify_release, recheck_written
        from privlab.verify.releases.utility import grid_laws, on_data
        from privlab.verify.releases.utility_plans import numerical_utility

        check_output(output, {"input": input_})
        roles = AttributeRoles(qi=qi, sensitive=sensitive, keep=keep, drop_other=drop_other)
        target = _target(max_relative_error)
        if noise_mode == "fast":
            click.echo("warning: --noise-mode fast writes float Laplace noise, whose low-order "
                       "bits leak the centroids: the file is not ε-DP as written "
                       "(docs/threat-model.md)", err=True)
        if taxonomy:
            if noise_mode != "safe":
                raise InvalidParameter("noise_mode='fast' is not offered with --taxonomy")
            from privlab.commands.dp_release_mixed import run_mixed_release

            c, data_fig = run_mixed_release(
                method, input_, output, epsilon, k, columns, bounds, taxonomy, noise_scale,
                noise, rows, clamp, seed, drop_other=drop_other, roles=roles,
                allow_uncertified=allow_uncertified, target=target)
            _warn(c.get("utility"))
            n_rows = c["parameters"]["n"]
            emit({"output": output, "certificate": f"{output}.cert.json", "rows": n_rows,
                  **c, "utility_on_data": data_fig}, fmt,
                 lambda: "\n".join([f"wrote {output} ({n_rows} rows) and {output}.cert.json; "
                                    f"{certified_text(c)}",
                                    *utility_lines(c.get("utility"), data_fig)]))
            raise SystemExit(EXIT_OK if c["holds"] else EXIT_FAILED)
        if columns is None or bounds is None:
            raise InvalidParameter(f"{'columns' if columns is None else 'bounds'}=None: "
                                   "--columns and --bounds are required without --taxonomy")
        header, data = read_table(input_, "input")
        cols = parse_columns(columns, header)
        resolved = released_roles(roles, header, cols)
        dropped = list(resolved.dropped)
        try:
            b = [tuple(float(t) for t in s.split(":")) for s in bounds.split(",")]
        except ValueError:
            raise InvalidParameter(f"bounds={bounds!r} must be lo:hi,lo:hi,...") from None
        if len(b) == 1:
            b = b * len(cols)
        if len(b) != len(cols) or any(len(t) != 2 for t in b):
            raise InvalidParameter(f"bounds={bounds!r} must give lo:hi for each of the "
                                   f"{len(cols)} columns {', '.join(cols)}")
        idx = [header.index(c) for c in cols]
        x = np.array([[number(r[j], c, i + 1) for j, c in zip(idx, cols, strict=True)]
                      for i, r in enumerate(data)], dtype=float)
        check_in_bounds(x, [t[0] for t in b], [t[1] for t in b], cols)
        rel = DPRelease(microaggregation=micro, k=k if micro != "none" else 1, epsilon=epsilon,
                        noise_scale=noise_scale, noise=noise, rows=rows, clamp=clamp,
                        noise_mode=noise_mode)
        cert = certify_release(rel, len(x), len(cols), bounds=b).to_dict()
        if not cert["holds"]:
            why, fix = refusal_text(rel, cert, len(x), cols, b)
            refuse_uncertified(f"{method} at epsilon={plain(epsilon)}",
                               f"{loss_text(cert)}: {why}", fix, allow_uncertified)
        util = numerical_utility(rel, len(x), b, cols, target)
        cert["utility"] = util.to_dict()
        out = rel.release(x, b, rng=seed)
        data_bytes = csv_bytes(cols, out.tolist())
        if noise_mode == "safe":
            cert["recheck"] = recheck_written(data_bytes, cols, rel.grid(b, len(x)), clamp)
        full = jsonable({"method": method, **cert, "columns": cols,
                         "dropped_columns": dropped, "roles": resolved.to_dict(),
                         "row_order": row_order(rows)})
        write_release(output, data_bytes, full, kind="dp-release")
        _warn(full["utility"])
        laws = (grid_laws(rel.grid(b, len(x))) if noise_mode == "safe"
                else _fast_laws(rel, b, len(x)))
        data_fig = jsonable(on_data(laws, x, rel.aggregate(x, b)[0], clamp=clamp, names=cols,
                                    released=out))
        d = jsonable({"output": output, "certificate": f"{output}.cert.json",
                      "rows": len(out), **full, "utility_on_data": data_fig})
        emit(d, fmt, lambda: "\n".join([f"wrote {output} ({len(out)} rows) and "
                                        f"{output}.cert.json; {certified_text(cert)}",
                                        *utility_lines(full["utility"], data_fig)]))
        raise SystemExit(EXIT_OK if cert["holds"] else EXIT_FAILED)

    return cmd


for _m in _METHODS:
    _release_cmd(_m)
