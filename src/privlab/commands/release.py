"""CLI for the microaggregation family (issue 5).

``privlab release METHOD --input CSV --output CSV --k K --columns A,B,C [--bounds A=LO:HI,…]
[--qi COLS] [--sensitive COLS] [--keep COLS] [--drop-other]`` with METHOD one of ``mdav``,
``insensitive-mdav``, ``individual-ranking``, ``mdav-swap``, ``ir-swap``.  The listed columns
are replaced by the method's values (centroids, or swapped values — swapped cells keep their
original text).  Every other column needs a role (:mod:`privlab.commands._roles`):
``--qi`` (a quasi-identifier published unchanged), ``--sensitive`` (published unchanged, its
l-diversity reported), ``--keep`` (non-identifying, published unchanged: the user's
statement) — or is dropped with ``--drop-other``; a column without a role is refused, listing
it.  The anonymised columns are quasi-identifiers unless declared ``--sensitive``; without
``--qi`` they are the only ones.

The certificate is computed on the CSV text about to be written, parsed back
(:mod:`privlab.verify.microaggregation.published`): k-anonymity over the quasi-identifiers as
written, the smallest class and the columns that split it, distinct l-diversity of each
sensitive column, SSE/SST and record linkage of the anonymised columns, and — when columns
are declared ``--keep`` — what k would be were they quasi-identifiers.  ``mdav`` and
``insensitive-mdav`` claim k-anonymity: a release whose published quasi-identifiers are not
k-anonymous is refused (exit 1, nothing written, one line naming the smallest class and the
splitting columns) unless ``--allow-uncertified``.  ``individual-ranking`` (univariate
groups) and the swap methods (probabilistic k-anonymity) report it without claiming it.
The row order is the input order (row i of OUTPUT is the anonymised row i of INPUT), stated
in the certificate.  Both files are written as one unit (certificate first, data last;
:func:`privlab.commands._csvio.write_release`), and not at all when a check fails unless
``--allow-uncertified``.  ``--bounds`` is required by ``insensitive-mdav`` and checked against
the data whenever given.

``privlab certify insensitivity --algorithm NAME --k K`` runs the Definition 12 checker
(:func:`privlab.verify.microaggregation.insensitivity.check_insensitive`): exit 0 when no
counterexample is
found, 1 with the smallest counterexample otherwise.

:data:`RELEASE_COMMANDS` are the ``release`` subcommands (to be added to the ``release``
group); :data:`certify_insensitivity` is the ``certify`` subcommand.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from privlab.commands._common import (
    EXIT_FAILED,
    EXIT_OK,
    emit,
    exit_with,
    format_option,
    release_seed_option,
    seed_statement,
    text_table,
)
from privlab.commands._csvio import (
    OutputFile,
    allow_uncertified_option,
    check_in_bounds,
    check_output,
    csv_bytes,
    number,
    parse_columns,
    read_table,
    refuse_uncertified,
    role_options,
    write_release,
)
from privlab.commands._release_text import GUARANTEES, K_ANONYMOUS, release_text, split_text
from privlab.commands._roles import AttributeRoles
from privlab.errors import InvalidParameter
from privlab.types import CheckResult, Method, jsonable

if TYPE_CHECKING:  # numpy is imported where it is used, so that --help imports no engine
    import numpy as np

__all__ = ["RELEASE_COMMANDS", "certify_insensitivity", "release_group", "run_release"]

METHODS = ("mdav", "insensitive-mdav", "individual-ranking", "mdav-swap", "ir-swap")


ROW_ORDER = "input order: row i of the output is the anonymised row i of the input"


def _read(path: Path) -> tuple[list[str], list[list[str]]]:
    return read_table(path, "input")


def _columns(spec: str, header: list[str], what: str = "columns") -> list[str]:
    return parse_columns(spec, header, what)


def _numbers(rows: list[list[str]], idx: list[int], names: list[str]) -> np.ndarray:
    import numpy as np

    x = np.empty((len(rows), len(idx)))
    for i, r in enumerate(rows):
        for j, c in enumerate(idx):
            x[i, j] = number(r[c], names[j], i + 1)
    return x


def _fmt(v: float) -> str:
    return repr(float(v))


def _group_checks(k: int, labels: np.ndarray, names: list[str]) -> list[CheckResult]:
    import numpy as np

    out = []
    lab2 = labels[:, None] if labels.ndim == 1 else labels
    n = lab2.shape[0]
    for j in range(lab2.shape[1]):
        sizes = np.bincount(lab2[:, j])
        lo, hi = int(sizes.min()), int(sizes.max())
        ok = lo >= k and (hi <= 2 * k - 1 or n < 2 * k)
        what = "" if labels.ndim == 1 else f" ({names[j]})"
        out.append(CheckResult(holds=ok, claim=f"every group{what} has k … 2k − 1 records",
                               value=lo, method=Method.EXACT,
                               evidence={"min": lo, "max": hi, "groups": len(sizes)}))
    return out


def _roles_of(roles: AttributeRoles | None, qi: Any, sensitive: Any, keep: Any,
              drop_other: bool) -> AttributeRoles:
    if roles is None:
        return AttributeRoles(qi=qi, sensitive=sensitive, keep=keep, drop_other=drop_other)
    if qi is not None or sensitive is not None or keep is not None or drop_other:
        raise InvalidParameter("roles= is given: pass qi, sensitive, keep and drop_other "
                               "inside it, not beside it")
    return roles


def run_release(method: str, input_: Path, output: Path, k: int, columns: str,
                bounds: str | None, confidential: str | None, seed: int | None,
                distance: str = "standardised", *, keep: Any = None,
                drop_other: bool = False, allow_uncertified: bool = False, qi: Any = None,
                sensitive: Any = None, roles: AttributeRoles | None = None) -> dict[str, Any]:
    """Do the release and write both files; return the certificate dictionary.

    Every input column has a role (:class:`~privlab.commands._roles.AttributeRoles`: give
    ``roles=`` or the ``qi`` / ``sensitive`` / ``keep`` / ``drop_other`` keywords, names as
    ``"A,B"`` or sequences).  The certificate is computed on the CSV text about to be written
    (:mod:`privlab.verify.microaggregation.published`).  Refused (``SystemExit(1)``, nothing
    written) when a check fails — for mdav and insensitive-mdav, when the published
    quasi-identifiers are not k-anonymous — unless ``allow_uncertified``."""
    from privlab.mechanisms import microaggregation as ma
    from privlab.mechanisms.microaggregation import prob_kanon as pk
    from privlab.verify.microaggregation.published import (
        WrittenTable,
        check_published_k_anonymity,
        check_published_l_diversity,
        microaggregation_measures,
    )

    if method not in METHODS:
        raise InvalidParameter(f"method={method!r} must be one of {', '.join(METHODS)}")
    declared = _roles_of(roles, qi, sensitive, keep, drop_other)
    check_output(output, {"input": input_})
    header, rows = _read(Path(input_))
    cols = _columns(columns, header)
    res_roles = declared.resolve(header, cols, what=method)
    idx = [header.index(c) for c in cols]
    x = _numbers(rows, idx, cols)
    k = ma.check_k(k, len(rows))
    dom = None
    if bounds is not None:
        dom = ma.Domain.parse(ma.parse_bounds(bounds), cols)
        check_in_bounds(x, list(dom.lower), list(dom.upper), cols)
        dom.check(x)
    elif method == "insensitive-mdav":
        raise InvalidParameter("--bounds is required by insensitive-mdav (the declared "
                               "domain, e.g. A=0:100,B=0:1)")
    checks: list[CheckResult] = []
    if dom is not None:
        checks.append(CheckResult(holds=True, claim="every value lies in the declared domain",
                                  method=Method.EXACT, evidence={"bounds": dom.to_dict()}))
    out_rows = [list(r) for r in rows]
    props: dict[str, Any] = {}
    if method in ("mdav", "insensitive-mdav", "individual-ranking"):
        if method == "mdav":
            res = ma.mdav(x, k, distance=distance)
            props["distance"] = distance
        elif method == "insensitive-mdav":
            res = ma.insensitive_mdav(x, k, bounds=dom)
            props["reference"] = res.parameters["reference"]
        else:
            res = ma.individual_ranking(x, k)
        for i, r in enumerate(out_rows):
            for j, c in enumerate(idx):
                r[c] = _fmt(res.released[i, j])
        checks += _group_checks(k, res.labels, cols)
        if method == "insensitive-mdav":
            checks.append(_insensitivity_on_input(x, k, dom, seed))
        min_size = res.min_group_size
        props["groups"] = res.n_groups
    else:
        sens_anon = [c for c in cols if c in res_roles.sensitive]
        conf = (_columns(confidential, cols, "confidential") if confidential
                else sens_anon or list(cols))
        ci = [cols.index(c) for c in conf]
        if method == "mdav-swap":
            sres = pk.mdav_swap(x, k, confidential=ci, rng=seed, distance=distance)
            props["distance"] = distance
        else:
            sres = pk.ir_swap(x, k, confidential=ci, rng=seed)
        for c in ci:
            perm = sres.permutation[c]
            src = [rows[p][idx[c]] for p in perm]
            for i, r in enumerate(out_rows):
                r[idx[c]] = src[i]
            lab = sres.partitions[c]
            checks += _group_checks(k, lab, [cols[c]])
            checks[-1] = CheckResult(holds=checks[-1].holds,
                                     claim=f"swap groups of {cols[c]} have k … 2k − 1 records",
                                     value=checks[-1].value, method=Method.EXACT,
                                     evidence=checks[-1].evidence)
            moved = bool((lab[perm] == lab).all())
            checks.append(CheckResult(holds=moved, claim=f"{cols[c]}: every value moved only "
                                      f"within its group (a permutation)", method=Method.EXACT))
        min_size = sres.min_group_size
        props["confidential"] = conf
        props["reidentification_bound"] = f"1/{min_size} (thesis §3.3.1: uniform swap in " \
                                          f"groups of ≥ {min_size})"
    out_cols = [j for j, h in enumerate(header) if h not in res_roles.dropped]
    data = csv_bytes([header[j] for j in out_cols], [[r[j] for j in out_cols] for r in out_rows])
    # the certificate is computed on the text about to be written, read back as a reader would
    written = WrittenTable.parse(data)
    qis = list(res_roles.quasi_identifiers)
    kan = check_published_k_anonymity(written, qis, k, anonymised=cols)
    claimed = method in K_ANONYMOUS
    if claimed:
        checks.append(kan)
    published: dict[str, Any] = {
        "quasi_identifiers": qis, "k_anonymity_claimed": claimed,
        "k_anonymity": kan.to_dict(),
        "l_diversity": [check_published_l_diversity(written, qis, c).to_dict()
                        for c in res_roles.sensitive]}
    if res_roles.non_identifying:
        wider = [c for c in res_roles.header
                 if c in res_roles.quasi_identifiers or c in res_roles.non_identifying]
        alt = check_published_k_anonymity(written, wider, k, anonymised=cols)
        published["if_non_identifying_were_quasi_identifiers"] = {
            "quasi_identifiers": wider, "achieved_k": alt.value,
            "classes_below_k": alt.evidence["classes_below_k"],
            "records_below_k": alt.evidence["records_below_k"],
            "split_by": [d["column"] for d in alt.evidence["split_by"]]}
    props["information_loss_and_linkage"] = microaggregation_measures(
        x, written.numbers(cols), cols)
    cert = {"method": method, "k": k, "n": len(rows), "columns": cols,
            "guarantee": GUARANTEES[method],
            "achieved_min_group_size": int(min_size), "achieved_k": kan.value,
            "holds": all(c.holds for c in checks),
            "checks": [c.to_dict() for c in checks], "roles": res_roles.to_dict(),
            "published": published, "properties": props, "randomness": seed_statement(seed),
            "kept_columns": list(res_roles.pass_through),
            "dropped_columns": list(res_roles.dropped), "row_order": ROW_ORDER,
            "input": str(input_), "output": str(output)}
    if not cert["holds"]:
        failed = next(c for c in checks if not c.holds)
        if failed is kan:
            refuse_uncertified(f"{method} k={k}", split_text(kan),
                               "generalise the splitting columns, or drop them (leave them out "
                               "of --qi and use --drop-other); declare a column --keep only if "
                               "it does not identify",
                               allow_uncertified)
        else:
            refuse_uncertified(f"{method} k={k}", f"check failed: {failed.claim}",
                               "check --k and --bounds", allow_uncertified)
    write_release(output, data, jsonable(cert), kind="microaggregation")
    return cert


def _insensitivity_on_input(x: np.ndarray, k: int, dom: Any, seed: int | None) -> CheckResult:
    """Definition 12 on neighbours of the input: each of a few records moved to a corner."""
    import numpy as np

    from privlab.mechanisms.microaggregation.insensitive import insensitive_mdav_labels
    from privlab.verify.microaggregation.insensitivity import clusters_correspond

    g = np.random.default_rng(seed)
    n = x.shape[0]
    if n > 50_000:
        return CheckResult(holds=True, decided=False, claim="insensitivity on neighbours of "
                           "the input (skipped: n > 50000)", method=Method.EXACT)
    la = insensitive_mdav_labels(x, k, dom)
    tried = []
    ok = True
    for t in range(3):
        xp = x.copy()
        r = int(g.integers(n))
        xp[r] = dom.upper if t % 2 == 0 else dom.lower
        res = clusters_correspond(x, la, xp, insensitive_mdav_labels(xp, k, dom))
        tried.append({"row": r, "holds": res["holds"]})
        ok = ok and res["holds"]
    return CheckResult(holds=ok, claim="Definition 12 holds on 3 neighbours of the input "
                       "(a record moved to a domain corner)", method=Method.EXACT,
                       evidence={"neighbours": tried})


@click.group("release")
def release_group() -> None:
    """Anonymise a CSV file; writes OUTPUT and OUTPUT.cert.json."""


def _make(method: str) -> click.Command:
    @click.command(method, help=f"{method}: microaggregation family release (thesis ch.3/6, "
                   "irm); the listed columns are replaced; every other column needs a role "
                   "(--qi, --sensitive, --keep) or --drop-other; k-anonymity is certified over "
                   "the quasi-identifiers as written; rows keep the input order.")
    @click.option("--input", "input_", type=click.Path(dir_okay=False, path_type=Path),
                  required=True)
    @click.option("--output", type=OutputFile(path_type=Path), required=True)
    @click.option("--k", "k", type=int, required=True, help="Minimum group size.")
    @click.option("--columns", required=True,
                  help="Comma-separated numerical columns to anonymise (quasi-identifiers "
                       "unless declared --sensitive).")
    @click.option("--bounds", default=None,
                  help="Declared domain NAME=LO:HI,… (required by insensitive-mdav).")
    @click.option("--confidential", default=None,
                  help="Swap methods: the columns to swap (default: the --columns declared "
                       "--sensitive, else every listed column).")
    @click.option("--distance", type=click.Choice(["standardised", "raw"]),
                  default="standardised", show_default=True, help="MDAV distance space.")
    @role_options("the --columns not declared --sensitive")
    @allow_uncertified_option
    @release_seed_option
    @format_option
    def cmd(input_: Path, output: Path, k: int, columns: str, bounds: str | None,
            confidential: str | None, distance: str, qi: str | None, sensitive: str | None,
            keep: str | None, drop_other: bool, allow_uncertified: bool, seed: int | None,
            fmt: str) -> None:
        if confidential is not None and method not in ("mdav-swap", "ir-swap"):
            raise click.UsageError("--confidential applies to mdav-swap and ir-swap only")
        cert = run_release(method, input_, output, k, columns, bounds, confidential, seed,
                           distance, roles=AttributeRoles(qi=qi, sensitive=sensitive,
                                                          keep=keep, drop_other=drop_other),
                           allow_uncertified=allow_uncertified)
        emit(cert, fmt, lambda: release_text(cert, output))
        exit_with(EXIT_OK if cert["holds"] else EXIT_FAILED)

    return cmd


RELEASE_COMMANDS: tuple[click.Command, ...] = tuple(_make(m) for m in METHODS)
for _c in RELEASE_COMMANDS:
    release_group.add_command(_c)


@click.command("insensitivity")
@click.option("--algorithm", required=True,
              help="mdav, insensitive-mdav, insensitive-corners, individual-ranking, "
                   "insensitive-mdav-literal, mdav-raw, preorder-control.")
@click.option("--k", "k", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--attributes", default="1,2", show_default=True,
              help="Numbers of attributes m to search, comma-separated.")
@click.option("--n-max", type=click.IntRange(min=1), default=None,
              help="Largest data-set size of the exhaustive search (default 2k + 2).")
@click.option("--grids", default="2,3,4", show_default=True,
              help="Grid sizes (values per attribute) of the exhaustive search.")
@click.option("--examples", type=click.IntRange(min=0), default=300, show_default=True,
              help="Hypothesis examples after the exhaustive search (0: none).")
@format_option
def certify_insensitivity(algorithm: str, k: int, attributes: str, n_max: int | None,
                          grids: str, examples: int, fmt: str) -> None:
    """Search for a counterexample to Definition 12 (thesis §6.2); exit 1 if one is found."""
    from privlab.verify.microaggregation.insensitivity import check_insensitive

    try:
        ms = tuple(int(t) for t in attributes.split(",") if t.strip())
        gs = tuple(int(t) for t in grids.split(",") if t.strip())
    except ValueError:
        raise InvalidParameter(f"attributes={attributes!r} / grids={grids!r} must be "
                               f"comma-separated integers") from None
    if not ms or min(ms) < 1 or not gs or min(gs) < 2:
        raise InvalidParameter("attributes must be >= 1 and grids >= 2")
    r = check_insensitive(algorithm, k=k, ms=ms, n_max=n_max, grids=gs,
                          hypothesis_examples=examples)
    from privlab.verify.certificate import certificate

    d = certificate("insensitivity", jsonable(r.to_dict()))

    def text() -> str:
        verdict = "no counterexample found" if r.holds else "NOT insensitive"
        lines = [f"{algorithm}, k = {k}: {verdict} ({r.value} neighbouring pairs checked "
                 f"exhaustively, {examples} hypothesis examples)"]
        if r.counterexample:
            c = r.counterexample
            lines += [f"smallest counterexample ({c['found_by']}): n = {c['n']}, m = {c['m']}",
                      f"  x       = {c['x']}", f"  x_prime = {c['x_prime']}"]
            if c.get("witness"):
                lines.append("  " + text_table([{kk: str(v) for kk, v in c["witness"].items()}]
                                               ).replace("\n", "\n  "))
        return "\n".join(lines)

    emit(d, fmt, text)
    exit_with(EXIT_OK if r.holds else EXIT_FAILED)
