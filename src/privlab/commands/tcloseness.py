"""CLI for t-closeness (thesis ch.7, ins15): release, certify a release, stochastic t.

``privlab release t-closeness --input CSV --output CSV --confidential COL --t T [--l L]
[--qi A,B,…] [--keep COLS] [--drop-other] [--form anatomy|permuted] [--order V1,V2,…]`` writes
OUTPUT (every input row once, plus ``group``; ``permuted``: the confidential column permuted
within each class and a ``bucket`` column; ``anatomy``: the confidential column dropped and
``OUTPUT.groups.csv`` with ``group,<COL>,bucket``) and ``OUTPUT.cert.json`` (achieved t by the
exact distance, minimal class size, buckets, each recomputed from the bytes written; the
attribute roles of :mod:`privlab.commands._roles`: the confidential column is the sensitive
one, ``--qi`` defaults to every other column not ``--keep``; the classes over the
quasi-identifiers as written are reported — they are published unchanged, so they are not
a claim).  ``privlab certify t-closeness --input CSV --groups COL
(--confidential COL | --buckets COL) [--t T]`` and ``privlab certify stochastic-t --n N
--class-size E --epsilon EPS --mechanism rr|laplace|staircase``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from privlab.commands._common import (
    EXIT_FAILED,
    EXIT_OK,
    emit,
    exit_with,
    format_option,
    progress,
    release_seed_option,
    seed_statement,
    text_table,
)
from privlab.commands._csvio import (
    OutputFile,
    allow_uncertified_option,
    check_output,
    csv_bytes,
    read_table,
    refuse_uncertified,
    role_options,
    write_release,
)
from privlab.commands._roles import AttributeRoles
from privlab.errors import InvalidParameter
from privlab.types import CheckResult, jsonable

if TYPE_CHECKING:  # numpy is imported where it is used, so that --help imports no engine
    import numpy as np

#: the mechanisms of :data:`privlab.verify.stochastic_t.MECHANISMS` (kept literal so that the
#: command's --help imports no engine; a test holds the two equal)
STOCHASTIC_T_MECHANISMS = ("rr", "laplace", "staircase")


def read_csv(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    """UTF-8 CSV as (header, rows as dicts); see :func:`privlab.commands._csvio.read_table`."""
    header, rows = read_table(path, "input")
    return header, [dict(zip(header, r, strict=True)) for r in rows]


def _column(header: list[str], rows: list[dict[str, str]], name: str, what: str) -> np.ndarray:
    import numpy as np

    if name not in header:
        raise InvalidParameter(f"{what}={name!r} is not a column of the input "
                               f"(columns: {', '.join(header)})")
    col = [r[name] for r in rows]
    try:
        return np.array([float(x) for x in col])
    except ValueError:
        return np.array(col, dtype=object)


def _qi_matrix(header: list[str], rows: list[dict[str, str]], qi: list[str]) -> np.ndarray:
    import numpy as np

    cols = []
    for name in qi:
        col = _column(header, rows, name, "qi")
        if col.dtype == object:  # categorical: lexicographic codes
            _, col = np.unique(col.astype(str), return_inverse=True)
        cols.append(col.astype(float))
    return np.column_stack(cols)


def _fmt_value(x: Any) -> str:
    import numpy as np

    if isinstance(x, float | np.floating) and float(x).is_integer():
        return str(int(x))
    return str(x)


def _recheck_written(data: bytes, side: list[tuple[str, bytes]], form: str, confidential: str,
                     qi: list[str], t: Fraction, k: int) -> tuple[dict[str, Any],
                                                                 list[CheckResult]]:
    """The certificate's t, class sizes and l recomputed from the bytes about to be written
    (the groups and buckets of OUTPUT, or of OUTPUT.groups.csv for Anatomy), and the classes
    over the quasi-identifiers as written (reported: they are published unchanged)."""
    import numpy as np

    from privlab.verify.microaggregation.published import (
        WrittenTable,
        check_published_k_anonymity,
    )
    from privlab.verify.tcloseness import check_k_anonymity, check_l_diversity, check_t_closeness

    main = WrittenTable.parse(data)
    sens = main if form == "permuted" else WrittenTable.parse(side[0][1])
    grp = np.array(sens.column("group"))
    t_res = check_t_closeness(np.array(sens.column("bucket")), grp, t,
                              claim="t-closeness recomputed from the written file")
    k_res = check_k_anonymity(grp, k)
    k_res = CheckResult(holds=k_res.holds, claim=f"every class of the written file has ≥ {k} "
                        "records", value=k_res.value, evidence=k_res.evidence,
                        counterexample=k_res.counterexample)
    ldiv = check_l_diversity(np.array(sens.column(confidential)), grp, 1)
    qi_classes = check_published_k_anonymity(main, qi, None)
    published = {"quasi_identifiers": qi, "k_anonymity_claimed": False,
                 "k_anonymity": qi_classes.to_dict(),
                 "l_diversity": {"column": confidential, "within": "the written classes",
                                 "value": ldiv.value}}
    return published, [t_res, k_res]


@click.command("t-closeness")
@click.option("--input", "input_", type=click.Path(path_type=Path), required=True)
@click.option("--output", type=OutputFile(path_type=Path), required=True)
@click.option("--confidential", required=True, help="Numerical or ordinal column to protect.")
@click.option("--t", "t", required=True, help="t ≥ 1 (real, e.g. 1.5 or 3/2).")
@click.option("--l", "l", type=int, default=1, show_default=True,
              help="Classes per bucket, 1 … ⌊N/b²⌋.")
@click.option("--b", "b", type=int, default=None, help="Buckets (default ⌈t⌉ + 1).")
@click.option("--order", default=None, help="Order of an ordinal confidential attribute V1,V2,…")
@click.option("--form", type=click.Choice(["anatomy", "permuted"]), default="permuted",
              show_default=True)
@role_options("every column not confidential and not declared --keep; they also order the "
              "records into classes")
@allow_uncertified_option
@release_seed_option
@format_option
def release_t_closeness(input_: Path, output: Path, confidential: str, t: str, l: int,  # noqa: E741
                        b: int | None, order: str | None, form: str, qi: str | None,
                        sensitive: str | None, keep: str | None, drop_other: bool,
                        allow_uncertified: bool, seed: int | None, fmt: str) -> None:
    """Bucketization construction of thesis §7.2 / ins15 §6 (t-close, k-anonymous).

    Every column has a role: the confidential one is sensitive, --qi the quasi-identifiers
    (default: every other column not --keep), --keep non-identifying (your statement); others
    are refused unless --drop-other.  The quasi-identifiers are published unchanged: the
    guarantee bounds what a class reveals about the confidential value, not re-identification
    (the certificate reports the classes over the quasi-identifiers as written).  t, the class
    sizes and l are recomputed from the text written.  Rows keep the input order."""
    import numpy as np

    from privlab.mechanisms.tcloseness.bucketization import release_t_close
    from privlab.mechanisms.tcloseness.counts import as_fraction_t
    from privlab.verify.tcloseness import check_release

    tf = as_fraction_t(t)
    declared = AttributeRoles(qi=qi, sensitive=sensitive, keep=keep, drop_other=drop_other)
    check_output(output, {"input": input_}, suffixes=(
        (".cert.json", ".groups.csv") if form == "anatomy" else (".cert.json",)))
    header, rows = read_csv(input_)
    vals = _column(header, rows, confidential, "confidential")
    extra = [c for c in declared.sensitive if c != confidential]
    if extra:
        raise InvalidParameter(
            f"sensitive: column {extra[0]!r} would be published unchanged beside "
            "quasi-identifiers published unchanged; t-closeness protects the --confidential "
            "column only: drop it (--drop-other) or release it separately")
    roles = declared.resolve(header, [confidential], anonymised_role="sensitive",
                             default_qi="all-other", what="t-closeness (--confidential)")
    qi_cols = list(roles.quasi_identifiers)
    kept, dropped = list(roles.pass_through), list(roles.dropped)
    order_list = None if order is None else order.split(",")
    if vals.dtype != object and order_list is not None:
        vals = np.array([r[confidential] for r in rows], dtype=object)
    header = [c for c in header if c not in dropped]
    added = ["group", "bucket"] if form == "permuted" else ["group"]
    clash = [c for c in added if c in header]
    if clash:
        raise InvalidParameter(f"input column {clash[0]!r} would collide with the "
                               f"{clash[0]!r} column the release adds; rename or drop it")
    qmat = _qi_matrix(header, rows, qi_cols) if qi_cols else None
    progress(f"t-closeness: N={len(rows)}, t={tf}, l={l}")
    rel = release_t_close(vals, tf, l, qi=qmat, b=b, order=order_list)
    checks = list(check_release(rel))
    others = [c for c in header if c != confidential]
    side: list[tuple[str, bytes]] = []
    if form == "permuted":
        pv, pb = rel.permuted(rng=seed)
        out_header = [*header, "group", "bucket"]
        out_rows = [[_fmt_value(pv[i]) if c == confidential else r[c] for c in header]
                    + [int(rel.group[i]), int(pb[i])] for i, r in enumerate(rows)]
    else:
        out_header = [*others, "group"]
        out_rows = [[r[c] for c in others] + [int(rel.group[i])] for i, r in enumerate(rows)]
        g, v, bk = rel.anatomy()
        side.append((f"{output}.groups.csv", csv_bytes(
            ["group", confidential, "bucket"],
            [[int(a), _fmt_value(x), int(y)] for a, x, y in zip(g, v, bk, strict=True)])))
    data = csv_bytes(out_header, out_rows)
    written, rechecks = _recheck_written(data, side, form, confidential, qi_cols, tf, rel.k)
    checks += rechecks
    cert = {"mechanism": "t-closeness/bucketization",
            "parameters": {"t": tf, "l": l, "b": rel.plan.b, "form": form,
                           "randomness": seed_statement(seed),
                           "confidential": confidential, "qi": qi_cols},
            "guarantee": {"kind": "t-closeness", "t": tf, "distance": "thesis Definition 15 "
                          "on buckets", "k": rel.k,
                          "epsilon_uninformed_add_remove": math.log(tf),
                          "epsilon_substitute": 2 * math.log(tf)},
            "holds": all(c.holds for c in checks),
            "checks": [c.to_dict() for c in checks],
            "roles": roles.to_dict(),
            "published": written,
            "properties": {"achieved_t": checks[0].value, "min_class_size": rel.k,
                           "classes": rel.n_groups, "buckets": rel.plan.b,
                           "bucket_ranges": rel.bucket_ranges(),
                           "count_method": rel.plan.method,
                           "printed_rule_failures": list(rel.plan.printed_failures)},
            "kept_columns": kept, "dropped_columns": dropped,
            "row_order": "input order: row i of the output is row i of the input",
            "notes": ["ε bounds hold only for an uninformed intruder (thesis §7.3, ins15 "
                      "Prop. 3); an intruder knowing k−1 values of a class learns the last.",
                      "The quasi-identifiers are published unchanged (Anatomy / permuted "
                      "release): the guarantee bounds what a class reveals about the "
                      "confidential value, not re-identification; 'published' reports the "
                      "classes over the quasi-identifiers as written."]}
    if not cert["holds"]:
        failed = next(c for c in checks if not c.holds)
        refuse_uncertified(f"t-closeness t={tf}", f"check failed: {failed.claim}",
                           "check --t, --l and --b", allow_uncertified)
    write_release(output, data, jsonable(cert), side=side, kind="t-closeness")
    summary = {"output": str(output), "certificate": f"{output}.cert.json", **cert}
    emit(summary, fmt, lambda: "\n".join([
        f"wrote {output} ({form}) and {output}.cert.json",
        f"t requested {tf}, achieved {checks[0].value} (exact), k = {rel.k}, "
        f"{rel.n_groups} classes, {rel.plan.b} buckets ({rel.plan.method} counts)",
        f"quasi-identifiers (published unchanged): {', '.join(qi_cols) or 'none'}; "
        f"non-identifying (your statement, --keep): "
        f"{', '.join(roles.non_identifying) or 'none'}; dropped: {', '.join(dropped) or 'none'}",
        f"re-checked on the written file: t = {checks[3].value}, smallest class "
        f"{checks[4].value}, distinct l = {written['l_diversity']['value']}",
        f"certificate: {'HOLDS' if cert['holds'] else 'DOES NOT HOLD'}"]))
    exit_with(EXIT_OK if cert["holds"] else EXIT_FAILED)


@click.command("t-closeness")
@click.option("--input", "input_", type=click.Path(path_type=Path), required=True)
@click.option("--groups", required=True, help="Equivalence-class column.")
@click.option("--confidential", default=None, help="Confidential column (bucketized with --b).")
@click.option("--buckets", default=None, help="Bucket column (instead of --confidential).")
@click.option("--b", "b", type=int, default=None, help="Buckets for --confidential.")
@click.option("--t", "t", default=None, help="Required t (exit 1 if not met).")
@format_option
def certify_t_closeness(input_: Path, groups: str, confidential: str | None,
                        buckets: str | None, b: int | None, t: str | None, fmt: str) -> None:
    """Exact t of a release (Definition 15 on buckets), EMD, k-anonymity, l-diversity."""
    import numpy as np

    from privlab.mechanisms.tcloseness.bucketization import bucketize
    from privlab.mechanisms.tcloseness.counts import as_fraction_t
    from privlab.verify.tcloseness import (
        check_emd_t_closeness,
        check_k_anonymity,
        check_l_diversity,
        check_t_closeness,
    )

    if (confidential is None) == (buckets is None):
        raise click.UsageError("give exactly one of --confidential and --buckets")
    header, rows = read_csv(input_)
    grp = np.array([r[groups] for r in rows]) if groups in header else _column(
        header, rows, groups, "groups")
    if buckets is not None:
        lab = np.array([r[buckets] for r in rows]) if buckets in header else _column(
            header, rows, buckets, "buckets")
        vals = lab
    else:
        vals = _column(header, rows, confidential or "", "confidential")
        lab = vals if b is None else bucketize(vals, b)
    tf = as_fraction_t(t) if t is not None else None
    res = check_t_closeness(lab, grp, tf if tf is not None else Fraction(10**18))
    k = check_k_anonymity(grp, 1)
    ldiv = check_l_diversity(vals, grp, 1)
    emd = check_emd_t_closeness(vals, grp, 1) if vals.dtype != object else None
    holds = tf is None or res.holds
    out = {"achieved_t": res.value, "t_required": tf, "holds": holds, "worst": res.evidence,
           "k": k.value, "distinct_l": ldiv.value,
           "emd": None if emd is None else emd.value, "classes": k.evidence["classes"]}
    from privlab.verify.certificate import certificate

    doc = certificate("t-closeness", jsonable(out), guarantee=(
        "t-closeness of the classes in --groups over the buckets in --buckets"
        + ("" if tf is None else f" at t = {tf}")))
    emit(doc, fmt, lambda: text_table([{k2: jsonable(v) for k2, v in out.items()
                                                  if k2 != "worst"}]))
    exit_with(EXIT_OK if holds else EXIT_FAILED)


@click.command("stochastic-t")
@click.option("--n", "n", type=click.IntRange(min=2), required=True, help="Records N.")
@click.option("--class-size", type=click.IntRange(min=1), required=True, help="|E|.")
@click.option("--epsilon", type=float, required=True)
@click.option("--mechanism", type=click.Choice(list(STOCHASTIC_T_MECHANISMS)), required=True)
@format_option
def certify_stochastic_t(n: int, class_size: int, epsilon: float, mechanism: str,
                         fmt: str) -> None:
    """Exact stochastic t (ins15 Def. 3) on the extremal instance vs Proposition 1."""
    from privlab.verify import stochastic_t as stt

    if not epsilon > 0 or not math.isfinite(epsilon):
        raise InvalidParameter(f"epsilon={epsilon!r} must be > 0")
    v, g = stt.worst_case(n, class_size)
    exact, where = stt.stochastic_t(mechanism, v, g, epsilon=epsilon)
    r = math.exp(epsilon)
    out = {"mechanism": mechanism, "N": n, "class_size": class_size, "epsilon": epsilon,
           "exact_t": float(exact), "bound_derived": stt.prop1_derived(n, class_size, r),
           "paper_prop1": stt.prop1_printed(n, class_size, r), "where": where,
           "instance": "class at value 0, all other records at value Δ = 1"}
    out["paper_formula_holds"] = out["exact_t"] <= out["paper_prop1"] * (1 + 1e-12)
    from privlab.verify.certificate import certificate

    doc = certificate("stochastic-t", jsonable(out), holds=True, guarantee=(
        "the exact stochastic t (ins15 Definition 3) of the mechanism on the extremal "
        "instance, beside Proposition 1"))
    emit(doc, fmt, lambda: text_table([{k: v for k, v in out.items()
                                                  if k not in ("where", "instance")}]))
    exit_with(EXIT_OK)
