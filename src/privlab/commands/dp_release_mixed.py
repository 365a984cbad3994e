"""CLI for the mixed numerical / categorical DP release (thesis §6.3.4–6.3.6, vldb14 §4.4–4.6).

``privlab release insensitive-mdav-dp --input CSV --output CSV --epsilon E --k K
[--columns a,b --bounds lo:hi,lo:hi] --taxonomy job=job.json [--taxonomy country=h.csv]``
releases the numerical ``--columns`` and the ``--taxonomy`` columns together with
:class:`~privlab.mechanisms.releases.mixed.MixedDPRelease` (eq. 6.7 order, Laplace numerical
centroids, exponential-mechanism categorical centroids with vldb14's n/k factor, rows shuffled)
and writes ``OUTPUT`` (numerical columns, then categorical ones, in the order given) and
``OUTPUT.cert.json`` (:func:`privlab.verify.releases.mixed.certify_mixed`, with the
expected error of the numerical columns under ``utility``; never the seed), both atomically;
exit 0 when the certificate establishes ε, 1 when it does not.  ``laplace-dp --taxonomy`` is
the per-record baseline (k = 1, exponential mechanism with factor 1).  ``ir-dp --taxonomy`` is
refused: individual ranking clusters each attribute separately, and with one shared draw per
cluster and ≥ 2 released attributes the rows' combinations of per-attribute clusters are
published through ties (ε = ∞, ledger claim irm:lemma-3); with a single categorical attribute
it coincides with ``insensitive-mdav-dp`` (same a_b-distance order).

Every bad input (malformed ``COLUMN=FILE``, a column named twice, a column missing from the
CSV, an unreadable or malformed taxonomy, a value outside its taxonomy's domain or its numerical
bounds, ``--noise per-record`` with k ≥ 2)
raises :class:`~privlab.errors.InvalidParameter` before anything is written (exit 2).  A
configuration the certificate does not establish at ε (e.g. ``--rows aligned`` where it publishes
the partition) is refused with exit 1 and nothing written, unless ``--allow-uncertified``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from privlab import _validate as v
from privlab.errors import InvalidParameter, PrivlabError
from privlab.mechanisms.microaggregation.semantic import NumericDomain
from privlab.mechanisms.microaggregation.taxonomy import Taxonomy, load_taxonomy, named_taxonomy
from privlab.mechanisms.releases.mixed import MixedDPRelease
from privlab.types import jsonable

__all__ = ["certify_mixed_config", "load_column_taxonomy", "parse_taxonomy_specs",
           "run_mixed_release"]

ARX_NOTE = ("ARX-format hierarchy (leaf;level1;…;*): a hand-made generalisation hierarchy, not "
            "the WordNet-derived taxonomies used in vldb14 / irm (those were not found); "
            "results deviate from the papers' setting")
OWN_NOTE = ("taxonomy supplied by the user / the project, not the WordNet-derived taxonomies "
            "of vldb14 / irm (those were not found)")
WORDNET_NOTE = ("rebuilt from WordNet 3.0 with privlab's own label-to-synset mapping (`privlab "
                "taxonomy show NAME`): a reconstruction of the WordNet 2.1 taxonomies of vldb14 / "
                "irm, whose mappings were not found")
IR_REFUSAL = (
    "taxonomy: individual ranking (ir-dp) is not available for categorical attributes: it "
    "clusters each attribute separately, and with one shared draw per cluster and >= 2 "
    "released attributes the rows' combinations of per-attribute clusters are published "
    "through ties (ε = ∞, see "
    "`privlab claims` irm:lemma-3); with a single categorical attribute individual ranking "
    "uses the same a_b-distance order as `privlab release insensitive-mdav-dp --taxonomy`, "
    "use that")


def parse_taxonomy_specs(specs: tuple[str, ...] | list[str]) -> list[tuple[str, str]]:
    """``COLUMN=FILE`` pairs; a malformed spec or a column given twice raises."""
    out: list[tuple[str, str]] = []
    for spec in specs:
        col, sep, path = str(spec).partition("=")
        col, path = col.strip(), path.strip()
        if not sep or not col or not path:
            raise InvalidParameter(f"taxonomy={spec!r} must be COLUMN=FILE "
                                   "(FILE .json, .yaml/.yml or ARX .csv)")
        if any(c == col for c, _ in out):
            raise InvalidParameter(f"taxonomy={spec!r}: column {col!r} is given twice")
        out.append((col, path))
    return out


def load_column_taxonomy(col: str, path: str) -> tuple[Taxonomy, dict[str, Any]]:
    """Load FILE (or ``project:NAME``, a name of ``privlab taxonomy list``) for column ``col``."""
    if path.startswith("project:"):
        tax, prov = named_taxonomy(path.split(":", 1)[1])
        fmt = "project"
        note = {"wordnet": WORDNET_NOTE, "arx": ARX_NOTE}.get(prov["kind"], OWN_NOTE)
    else:
        try:
            tax = load_taxonomy(path, name=col)
        except PrivlabError as e:
            raise InvalidParameter(f"taxonomy {col}={path!r}: {e}") from None
        except (OSError, UnicodeDecodeError, ValueError, TypeError, AttributeError) as e:
            raise InvalidParameter(f"taxonomy {col}={path!r} cannot be read: "
                                   f"{type(e).__name__}: {e}") from None
        except Exception as e:  # yaml.YAMLError and other parser errors
            raise InvalidParameter(f"taxonomy {col}={path!r} is malformed: "
                                   f"{type(e).__name__}: {e}") from None
        arx = Path(path).suffix.lower() == ".csv"
        fmt, note = ("arx-csv", ARX_NOTE) if arx else (Path(path).suffix.lower()[1:], OWN_NOTE)
    return tax, {"column": col, "file": path, "format": fmt, "taxonomy": tax.name,
                 "concepts": len(tax.concepts), "domain_size": len(tax.domain),
                 "boundaries": list(tax.boundaries), "note": note}


def _scale(noise_scale: str, n: int, k: int, m: int, epsilon: float) -> float:
    """Laplace scale per unit of range named after a source (as ``certify dp-release``)."""
    if noise_scale in ("thesis", "irm"):
        return m / (k * epsilon)
    if noise_scale == "vldb14":
        return (n / k) * m / (k * epsilon)
    try:
        s = float(noise_scale)
    except ValueError:
        s = float("nan")
    if not s > 0 or s == float("inf"):
        raise InvalidParameter(f"noise_scale={noise_scale!r} must be thesis, vldb14, irm or a "
                               "positive number")
    return s


def _bounds(spec: str | None, cols: list[str]) -> list[NumericDomain]:
    if not cols:
        if spec:
            raise InvalidParameter(f"bounds={spec!r} given without numerical --columns")
        return []
    if not spec:
        raise InvalidParameter(f"bounds=None: --bounds lo:hi is required for columns {cols}")
    try:
        b = [tuple(float(t) for t in s.split(":")) for s in spec.split(",")]
    except ValueError:
        raise InvalidParameter(f"bounds={spec!r} must be lo:hi,lo:hi,...") from None
    if len(b) == 1:
        b = b * len(cols)
    if len(b) != len(cols) or any(len(t) != 2 for t in b):
        raise InvalidParameter(f"bounds={spec!r} must give lo:hi for each of {cols}")
    return [NumericDomain(lo, hi) for lo, hi in b]


def _config(method: str, k: int, noise: str, rows: str) -> str:
    if method == "ir-dp":
        raise InvalidParameter(IR_REFUSAL)
    if method == "laplace-dp":
        if k != 1:
            raise InvalidParameter(f"k={k}: laplace-dp releases every record on its own "
                                   "(k = 1); use insensitive-mdav-dp for clusters")
        return "none"
    if noise == "per-record" and k >= 2:
        raise InvalidParameter(
            "noise='per-record' is not available with --taxonomy: the mixed release draws one "
            "Laplace value and one exponential-mechanism centroid per cluster; independent "
            "draws per record would multiply the privacy loss by the cluster size and are not "
            "implemented for categorical attributes")
    return "insensitive"


def _scale_rule(noise_scale: str | None, rel: MixedDPRelease, n: int
                ) -> tuple[Any, bool]:
    """(scale(k, ε) per unit of range, whether it depends on ε) for the utility search."""
    m = len(rel.attributes)
    if noise_scale is None:
        import attrs

        return (lambda k, e: attrs.evolve(rel, k=k, epsilon=e, scale_per_unit=None).scale(n),
                True)
    return (lambda k, e: _scale(noise_scale, n, k, m, e)), noise_scale in ("thesis", "vldb14",
                                                                           "irm")


def _utility(rel: MixedDPRelease, n: int, noise_scale: str | None, names: list[str] | None,
             target: float | None, neighbour: str = "substitute") -> dict[str, Any] | None:
    from privlab.verify.releases.utility_plans import mixed_utility

    rule, depends = _scale_rule(noise_scale, rel, n)
    u = mixed_utility(rel, n, rule, depends, names, neighbour, target)
    return None if u is None else u.to_dict()


def _on_data(rel: MixedDPRelease, records: list[list[Any]], out: list[list[Any]],
             names: list[str]) -> dict[str, Any] | None:
    """The utility figures on the data of the numerical columns (for stdout only)."""
    import numpy as np

    from privlab.verify.releases.utility import continuous_laws, grid_laws, on_data

    num = [j for j, a in enumerate(rel.attributes) if isinstance(a, NumericDomain)]
    if not num:
        return None
    n = len(records)
    enc = rel.encode(records)
    lab = rel.labels(enc)
    cen = np.empty((n, len(num)))
    for t, j in enumerate(num):
        cen[:, t] = (np.bincount(lab, weights=enc[:, j]) / np.bincount(lab))[lab]
    doms = [rel.attributes[j] for j in num]
    laws = (grid_laws(rel.grid(n)) if rel.noise_mode == "safe" else
            continuous_laws([(d.lo, d.hi) for d in doms], rel.scale(n)))
    released = np.array([[float(r[t]) for t in range(len(num))] for r in out])
    return jsonable(on_data(laws, enc[:, num], cen, clamp=rel.clamp, names=names,
                            released=released))


def _refusal(rel: MixedDPRelease, n: int, noise_scale: str | None, cert: dict[str, Any]
             ) -> tuple[str, str]:
    """(why the mixed release is not certified, a certified configuration + "; " or "")."""
    import attrs

    from privlab.verify.releases.mixed import certify_mixed

    if cert["certified_epsilon"] is None:
        ok = certify_mixed(attrs.evolve(rel, rows="shuffled"), n)["holds"]
        return ("record-aligned rows with one draw per cluster publish which records share a "
                "cluster (an event of probability 0 on one data set and > 0 on a neighbour: "
                "ε = ∞ at any --epsilon and --noise-scale)"
                + ("; --rows shuffled is certified" if ok else ""), "")
    num = sum(p["epsilon"] for p in cert["parts"] if p["kind"] == "numerical")
    cat = cert["certified_epsilon"] - num
    why = (f"the Laplace noise of the numerical columns loses ε = {num:.6g} and the "
           f"exponential mechanism of the categorical ones {cat:.6g} (sequential composition)")
    u = _utility(rel, n, noise_scale, None, None) if num else None
    cal = (u or {}).get("calibrated_scale") or {}
    fix = (f"--noise-scale {cal['scale_per_unit']:g} is certified at ε = {rel.epsilon:g}; "
           if cal.get("scale_per_unit") else "")
    return why, fix


def run_mixed_release(method: str, input_: str, output: str, epsilon: float, k: int,
                      columns: str | None, bounds: str | None, taxonomy: tuple[str, ...],
                      noise_scale: str | None, noise: str, rows: str, clamp: bool,
                      seed: int | None, *, drop_other: bool = False,
                      allow_uncertified: bool = False, target: float | None = None,
                      roles: Any = None) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Validate everything, release, write OUTPUT and OUTPUT.cert.json; return the certificate
    (with ``utility``, the expected error of the numerical columns from public parameters) and
    the utility figures on the data (never written: they are not covered by ε).

    A configuration whose certificate does not establish ``epsilon`` is refused (exit 1,
    nothing written) unless ``allow_uncertified``; input columns not released are refused
    unless ``drop_other``.  The certificate does not name the seed (``--seed``): with it and
    the input's size anyone could replay the noise."""
    from privlab.commands._csvio import (
        check_output,
        csv_bytes,
        fix_hint,
        loss_text,
        plain,
        refuse_uncertified,
        released_roles,
        row_order,
        write_release,
    )
    from privlab.commands.release import _read
    from privlab.verify.releases.mixed import certify_mixed

    epsilon, k = v.positive("epsilon", epsilon), v.positive_int("k", k)
    micro = _config(method, k, noise, rows)
    specs = parse_taxonomy_specs(taxonomy)
    check_output(output, {"input": input_, **{f"taxonomy {c}": p for c, p in specs
                                              if not p.startswith("project:")}})
    header, data = _read(Path(input_))
    num_cols = [c.strip() for c in (columns or "").split(",") if c.strip()]
    cat_cols = [c for c, _ in specs]
    for c in num_cols + cat_cols:
        if c not in header:
            what = "taxonomy" if c in cat_cols else "columns"
            raise InvalidParameter(f"{what}: column {c!r} is not in the input header {header}")
    if len(set(num_cols)) != len(num_cols):
        raise InvalidParameter(f"columns={columns!r} names a column twice")
    both = sorted(set(num_cols) & set(cat_cols))
    if both:
        raise InvalidParameter(f"column {both[0]!r} is listed in both --columns and --taxonomy")
    from privlab.commands._roles import AttributeRoles

    resolved = released_roles(roles if roles is not None else AttributeRoles(
        drop_other=drop_other), header, num_cols + cat_cols)
    dropped = list(resolved.dropped)
    doms = _bounds(bounds, num_cols)
    taxes, infos = [], []
    for c, path in specs:
        t, info = load_column_taxonomy(c, path)
        taxes.append(t)
        infos.append(info)
    records: list[list[Any]] = [[] for _ in data]
    for c, d in zip(num_cols, doms, strict=True):
        j = header.index(c)
        for i, r in enumerate(data):
            try:
                x = float(r[j])
            except ValueError:
                raise InvalidParameter(f"row {i + 1}, column {c!r}: {r[j]!r} is not a "
                                       "number") from None
            if not d.lo <= x <= d.hi:
                raise InvalidParameter(f"row {i + 1}, column {c!r}: value {x:g} lies outside "
                                       f"the declared bounds [{d.lo:g}, {d.hi:g}]")
            records[i].append(x)
    for (c, path), t in zip(specs, taxes, strict=True):
        j, dom = header.index(c), set(t.domain)
        for i, r in enumerate(data):
            x = r[j]
            if x not in dom:
                kind = ("a generalisation, not a value of its domain" if x in t.parents
                        else "not a concept of it")
                raise InvalidParameter(f"row {i + 1}, column {c!r}: value {x!r} is not in the "
                                       f"domain of taxonomy {t.name!r} ({path}): {kind}")
            records[i].append(x)
    attrs_: tuple[Any, ...] = (*doms, *taxes)
    n, m = len(records), len(attrs_)
    kk = 1 if micro == "none" else k
    scale = None if noise_scale is None else _scale(noise_scale, n, kk, m, epsilon)
    rel = MixedDPRelease(attributes=attrs_, k=kk, epsilon=epsilon, scale_per_unit=scale,
                         microaggregation=micro, rows=rows, clamp=clamp)
    cert = certify_mixed(rel, n)
    if not cert["holds"]:
        why, fix = _refusal(rel, n, noise_scale, cert)
        refuse_uncertified(f"{method} --taxonomy at epsilon={plain(epsilon)}",
                           f"{loss_text(cert)}: {why}", f"{fix}{fix_hint(rows, noise, cert)}",
                           allow_uncertified)
    cert["utility"] = _utility(rel, n, noise_scale, num_cols, target)
    out = rel.release(records, rng=seed)
    data_bytes = csv_bytes(num_cols + cat_cols,
                           [[repr(float(v)) for v in r[:len(num_cols)]] + list(r[len(num_cols):])
                            for r in out])
    notes = sorted({i["note"] for i in infos})
    full = jsonable({"method": method, "input": str(input_), "output": str(output),
                     "numerical_columns": num_cols,
                     "bounds": [[d.lo, d.hi] for d in doms], "clamp": clamp,
                     "categorical_columns": cat_cols, "taxonomy_files": infos,
                     "notes": notes, **cert, "dropped_columns": dropped,
                     "roles": resolved.to_dict(),
                     "row_order": row_order(rows)})
    if num_cols and rel.noise_mode == "safe":  # every numerical value is a grid point
        from privlab.verify.releases.certificate import recheck_written

        full["recheck"] = recheck_written(data_bytes, num_cols, rel.grid(len(records)), clamp)
    write_release(output, data_bytes, full, kind="dp-release-mixed")
    return full, _on_data(rel, records, out, num_cols)


def certify_mixed_config(microaggregation: str, noise_scale: str, n: int, k: int,
                         epsilon: float, attributes: int | None, noise: str, rows: str,
                         neighbour: str, taxonomy: tuple[str, ...], budget: str | None,
                         em_sensitivity: str | None, em_factor: str | None, *,
                         target: float | None = None, clamp: bool = True
                         ) -> dict[str, Any]:
    """``privlab certify dp-release --taxonomy NAME=FILE …``: the mixed configuration with
    ``attributes`` attributes in all (default: the taxonomies; the rest numerical, of range
    [0, 1] — the ``utility`` figures are in units of range)."""
    from privlab.verify.releases.mixed import certify_mixed

    epsilon, k, n = (v.positive("epsilon", epsilon), v.positive_int("k", k),
                     v.positive_int("n", n))
    micro = {"insensitive-mdav": "insensitive", "none": "none"}.get(microaggregation)
    if micro is None:
        raise InvalidParameter(IR_REFUSAL)
    if micro == "insensitive" and noise == "per-record" and k >= 2:
        _config("insensitive-mdav-dp", k, noise, rows)
    taxes = [load_column_taxonomy(c, p)[0] for c, p in parse_taxonomy_specs(taxonomy)]
    m = len(taxes) if attributes is None else attributes
    if isinstance(m, bool) or m < len(taxes):
        raise InvalidParameter(f"attributes={attributes!r} must be >= the number of taxonomies "
                               f"({len(taxes)}): it counts numerical and categorical attributes")
    doms = [NumericDomain(0.0, 1.0)] * (m - len(taxes))
    if micro == "none" and k != 1:
        raise InvalidParameter(f"k={k} must be 1 without microaggregation")
    kw: dict[str, Any] = {"budget": budget or "split",
                          "em_sensitivity": em_sensitivity or "exact"}
    if em_factor is not None:
        kw["em_factor"] = em_factor
    rel = MixedDPRelease(attributes=(*doms, *taxes), k=k, epsilon=epsilon, rows=rows,
                         microaggregation=micro, clamp=clamp,
                         scale_per_unit=_scale(noise_scale, n, k, m, epsilon), **kw)
    cert = certify_mixed(rel, n, neighbour)
    names = [f"attribute {j} (range [0, 1])" for j in range(len(doms))]
    cert["utility"] = _utility(rel, n, noise_scale, names, target, neighbour)
    return cert

