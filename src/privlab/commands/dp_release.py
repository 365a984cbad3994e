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
"""

from __future__ import annotations

from typing import Any

import click

from privlab.commands._common import EXIT_FAILED, EXIT_OK, emit, format_option, seed_option
from privlab.commands._csvio import (
    allow_uncertified_option,
    certified_text,
    check_in_bounds,
    check_output,
    csv_bytes,
    fix_hint,
    loss_text,
    number,
    other_columns,
    parse_columns,
    plain,
    read_table,
    refuse_uncertified,
    row_order,
    write_release,
)
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
    return "\n".join(lines)


@click.command("dp-release")
@_config_options
@click.option("--taxonomy", multiple=True, metavar="NAME=FILE",
              help="A categorical attribute with its taxonomy (.json/.yaml/ARX .csv, or "
                   "project:sport|job); repeatable.  Certifies the mixed release.")
@click.option("--budget", type=click.Choice(["split", "per-attribute"]), default=None,
              help="With --taxonomy: ε/m per attribute (default) or ε per categorical one.")
@click.option("--em-sensitivity", type=click.Choice(["exact", "boundary"]), default=None,
              help="With --taxonomy: Δ(m) exhaustive (default) or δ(a_b, a_t).")
@click.option("--em-factor", type=click.Choice(["n/k", "1"]), default=None,
              help="With --taxonomy: n/k (vldb14, default) or 1 (thesis Alg. 6.3).")
@format_option
def certify_dp_release(microaggregation: str, noise_scale: str, n: int, k: int, epsilon: float,
                       attributes: int | None, noise: str, rows: str, neighbour: str,
                       taxonomy: tuple[str, ...], budget: str | None, em_sensitivity: str | None,
                       em_factor: str | None, fmt: str) -> None:
    """Certificate for a microaggregation + Laplace (+ exponential mechanism) configuration."""
    from privlab.verify.releases.certificate import certify_dp_release as cert

    if taxonomy:
        from privlab.commands.dp_release_mixed import certify_mixed_config

        d = jsonable(certify_mixed_config(microaggregation, noise_scale, n, k, epsilon,
                                          attributes, noise, rows, neighbour, taxonomy,
                                          budget, em_sensitivity, em_factor))
        emit(d, fmt, lambda: _text(d))
        raise SystemExit(EXIT_OK if d["holds"] else EXIT_FAILED)
    if budget or em_sensitivity or em_factor:
        raise InvalidParameter("--budget, --em-sensitivity and --em-factor apply only with "
                               "--taxonomy")
    c = cert(microaggregation, noise_scale, n, k, epsilon, attributes or 1, noise, rows,
             neighbour)
    d = jsonable(c.to_dict())
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


@click.group("release")
def release_dp() -> None:
    """Anonymise a CSV file; writes OUTPUT and OUTPUT.cert.json."""


def _release_cmd(method: str) -> Any:
    micro, default_scale = _METHODS[method]

    @release_dp.command(method)
    @click.option("--input", "input_", type=click.Path(dir_okay=False), required=True)
    @click.option("--output", type=click.Path(dir_okay=False), required=True)
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
    @click.option("--drop-other", is_flag=True,
                  help="Drop the input columns that are not released (default: refuse them; "
                       "a DP release cannot pass a column through unchanged).")
    @allow_uncertified_option
    @seed_option
    @format_option
    def cmd(input_: str, output: str, epsilon: float, k: int, columns: str | None,
            bounds: str | None, taxonomy: tuple[str, ...], noise_scale: str, noise: str,
            rows: str, clamp: bool, noise_mode: str, drop_other: bool,
            allow_uncertified: bool, seed: int, fmt: str) -> None:
        import numpy as np

        from privlab.mechanisms.releases.numerical import DPRelease
        from privlab.verify.releases.certificate import certify_release, recheck_written

        check_output(output, {"input": input_})
        if noise_mode == "fast":
            click.echo("warning: --noise-mode fast writes float Laplace noise, whose low-order "
                       "bits leak the centroids: the file is not ε-DP as written "
                       "(docs/threat-model.md)", err=True)
        if taxonomy:
            if noise_mode != "safe":
                raise InvalidParameter("noise_mode='fast' is not offered with --taxonomy")
            from privlab.commands.dp_release_mixed import run_mixed_release

            c = run_mixed_release(method, input_, output, epsilon, k, columns, bounds,
                                  taxonomy, noise_scale, noise, rows, clamp, seed,
                                  drop_other=drop_other, allow_uncertified=allow_uncertified)
            n_rows = c["parameters"]["n"]
            emit({"output": output, "certificate": f"{output}.cert.json", "rows": n_rows,
                  **c}, fmt, lambda: f"wrote {output} ({n_rows} rows) and {output}.cert.json; "
                                     f"{certified_text(c)}")
            raise SystemExit(EXIT_OK if c["holds"] else EXIT_FAILED)
        if columns is None or bounds is None:
            raise InvalidParameter(f"{'columns' if columns is None else 'bounds'}=None: "
                                   "--columns and --bounds are required without --taxonomy")
        header, data = read_table(input_, "input")
        cols = parse_columns(columns, header)
        dropped = other_columns(header, cols, drop_other)
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
            refuse_uncertified(f"{method} at epsilon={plain(epsilon)}",
                               loss_text(cert), fix_hint(rows, noise, cert),
                               allow_uncertified)
        out = rel.release(x, b, rng=seed)
        data_bytes = csv_bytes(cols, out.tolist())
        if noise_mode == "safe":
            cert["recheck"] = recheck_written(data_bytes, cols, rel.grid(b, len(x)), clamp)
        full = jsonable({"method": method, **cert, "columns": cols,
                         "dropped_columns": dropped, "row_order": row_order(rows)})
        write_release(output, data_bytes, full)
        d = jsonable({"output": output, "certificate": f"{output}.cert.json",
                      "rows": len(out), **full})
        emit(d, fmt, lambda: f"wrote {output} ({len(out)} rows) and {output}.cert.json; "
                             f"{certified_text(cert)}")
        raise SystemExit(EXIT_OK if cert["holds"] else EXIT_FAILED)

    return cmd


for _m in _METHODS:
    _release_cmd(_m)
