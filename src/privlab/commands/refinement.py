"""CLI for knowledge refinement (thesis ch.5): ``certify refinement`` and ``session``.

``privlab certify refinement --prior uniform:0,1 --epsilon 1 --query individual --format json``
prints the certificate (exit 1 if it does not hold).

``privlab session refinement|laplace --budget E [--data FILE]`` is Protocol 2 / Protocol 1 in
JSON-lines mode: one query per stdin line, one answer or refusal per stdout line, e.g.

    {"individual": "7", "prior": "pmf:0=0.99,1=0.01", "epsilon": 0.5, "distance": "nominal"}
    {"statistic": "count", "value": 1, "prior": "pmf:0=0.5,1=0.5", "epsilon": 0.2}
    {"individual": "7", "sensitivity": 1}                    (laplace)

Output: ``{"index": i, "answered": true, "answer": x, "spent": s}`` or
``{"index": i, "answered": false, "reason": "..."}``; a final ``{"summary": {...}}`` line.
``--data`` is a JSON object id → value or a CSV with columns ``id,value``; without it a seeded
synthetic data set (100 people, Boolean attribute with rate 0.01) is used.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from typing import Any

import click

from privlab.commands._common import (
    EXIT_FAILED,
    EXIT_OK,
    cert_text,
    emit,
    format_option,
    release_seed_option,
)
from privlab.errors import BudgetExceeded, InvalidParameter, PrivlabError
from privlab.types import jsonable


def _cert_text(c: dict[str, Any]) -> str:
    return cert_text(c, f"refinement {c['parameters']['factors']}")


def build_mechanism(prior: str, epsilon: float, query: str, alpha_u: float | None,
                    distance: str | None, delta: float, delta_rule: str) -> Any:
    from privlab.mechanisms.refinement.algorithm import Refinement
    from privlab.mechanisms.refinement.distances import get_distance
    from privlab.mechanisms.refinement.factors import Factors
    from privlab.mechanisms.refinement.spec import parse_prior

    p = parse_prior(prior)
    if query == "individual":
        if alpha_u is not None:
            raise InvalidParameter("alpha_u is the holder's choice for statistical queries; "
                                   "individual queries use α_u = e^ε")
        f = Factors.individual(epsilon)
    else:
        f = Factors.statistical(epsilon, alpha_u)
    if p.kind == "product":
        dist: Any = distance  # chebyshev | l1 | l2 (None: chebyshev)
    else:
        dist = None if distance is None else get_distance(
            distance, categories=getattr(p, "values", None))
    return Refinement(prior=p, factors=f, distance=dist, delta=delta, delta_rule=delta_rule)


@click.command("refinement")
@click.option("--prior", required=True, help="uniform:LO,HI | <scipy family>:ARGS | "
                                             "pmf:V=P,V=P,… (masses as fractions) | "
                                             "product(SPEC;SPEC;…) of continuous priors.")
@click.option("--epsilon", type=float, required=True, help="Claimed ε (> 0).")
@click.option("--query", type=click.Choice(["individual", "statistical"]), default="individual",
              show_default=True, help="Table 5.2 row.")
@click.option("--alpha-u", type=float, default=None,
              help="Holder's α_u ∈ [1, e^ε] for statistical queries (default e^{ε/2}).")
@click.option("--distance", type=click.Choice(["absolute", "nominal", "ordinal", "chebyshev",
                                              "l1", "l2"]), default=None,
              help="Default: nominal for a pmf, absolute for a continuous prior, chebyshev "
                   "for a product(…) prior (l1/l2: two components).")
@click.option("--delta", type=float, default=0.0, show_default=True, help="δ ∈ [0, 1).")
@click.option("--delta-rule", type=click.Choice(["exact", "paper"]), default="exact",
              show_default=True, help="exact: δe^−ε / δ/(1+e^ε) moved; paper: δ / δ/2.")
@format_option
def certify_refinement(prior: str, epsilon: float, query: str, alpha_u: float | None,
                       distance: str | None, delta: float, delta_rule: str, fmt: str) -> None:
    """Certificate for knowledge refinement of a prior (thesis ch.5)."""
    from privlab.verify.refinement.certificate import certify_refinement as build

    mech = build_mechanism(prior, epsilon, query, alpha_u, distance, delta, delta_rule)
    from privlab.verify.certificate import certificate

    c = certificate("refinement", jsonable(build(mech).to_dict()))
    emit(c, fmt, lambda: _cert_text(c))
    sys.exit(EXIT_OK if c["holds"] else EXIT_FAILED)


def _load_data(path: Path | None, seed: int) -> Any:
    from privlab.mechanisms.refinement.queries import Dataset

    if path is None:
        import numpy as np

        rng = np.random.default_rng(seed)
        return Dataset(records={str(i): int(b) for i, b in enumerate(rng.random(100) < 0.01)})
    if not path.exists():
        raise InvalidParameter(f"data={str(path)!r} does not exist")
    if path.suffix.lower() == ".json":
        obj = json.loads(path.read_text())
        if not isinstance(obj, dict):
            raise InvalidParameter(f"data={str(path)!r} must hold a JSON object id -> value")
        return Dataset(records={str(k): v for k, v in obj.items()})
    with path.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    if not rows or not {"id", "value"} <= set(rows[0]):
        raise InvalidParameter(f"data={str(path)!r} must be a CSV with columns id,value")

    def num(x: str) -> Any:
        try:
            return float(x) if "." in x else int(x)
        except ValueError:
            return x

    return Dataset(records={r["id"]: num(r["value"]) for r in rows})


def _query(obj: dict[str, Any]) -> Any:
    from privlab.mechanisms.refinement.queries import IndividualQuery, count_query

    if "individual" in obj:
        return IndividualQuery(individual=str(obj["individual"]),
                               sensitivity=obj.get("sensitivity"))
    if obj.get("statistic") == "count":
        return count_query(obj.get("value", 1))
    raise InvalidParameter(f"query {obj!r} needs 'individual' or 'statistic': 'count'")


def _answer(session: Any, kind: str, obj: dict[str, Any]) -> Any:
    from privlab.mechanisms.refinement.spec import parse_prior

    q = _query(obj)
    if kind == "laplace":
        return session.ask(q, scale=obj.get("scale"))
    if "prior" not in obj or "epsilon" not in obj:
        raise InvalidParameter(f"query {obj!r} needs 'prior' and 'epsilon'")
    return session.ask(q, parse_prior(str(obj["prior"])), obj["epsilon"], obj.get("distance"))


@click.command("session")
@click.argument("kind", type=click.Choice(["refinement", "laplace"]))
@click.option("--budget", type=float, required=True, help="Total ε of the session (> 0).")
@click.option("--data", "data_path", type=click.Path(path_type=Path), default=None,
              help="JSON object id -> value, or CSV id,value (default: seeded synthetic).")
@click.option("--accounting", type=click.Choice(["sum", "per-individual"]), default=None,
              help="Default: sum (refinement, Protocol 2), per-individual (laplace, "
                   "Protocol 1's joint sensitivity).")
@click.option("--scale", type=float, default=1.0, show_default=True, help="λ (laplace).")
@release_seed_option
@format_option
def session(kind: str, budget: float, data_path: Path | None, accounting: str | None,
            scale: float, seed: int | None, fmt: str) -> None:
    """Interactive session (Protocol 2 / Protocol 1): JSON-lines queries on stdin."""
    from privlab.mechanisms.refinement.interactive import LaplaceSession, RefinementSession

    data = _load_data(data_path, 0 if seed is None else seed)  # synthetic data: not secret
    if kind == "refinement":
        s: Any = RefinementSession(data=data, budget=budget, accounting=accounting or "sum",
                                   rng=seed)
    else:
        s = LaplaceSession(data=data, budget=budget, scale=scale, rng=seed,
                           accounting=accounting or "per-individual")
    for i, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            if not isinstance(obj, dict):
                raise InvalidParameter(f"line {i}: expected a JSON object")
            ans = _answer(s, kind, obj)
            out = {"index": i, "answered": True, "answer": ans, "spent": float(s.spent)}
        except BudgetExceeded as exc:
            out = {"index": i, "answered": False, "reason": str(exc), "spent": float(s.spent)}
        except (PrivlabError, ValueError, TypeError) as exc:
            out = {"index": i, "answered": False, "error": f"{exc}", "spent": float(s.spent)}
        click.echo(json.dumps(jsonable(out), allow_nan=False) if fmt == "json" else
                   (f"{i}: {out['answer']!r} (spent {out['spent']:.6g})" if out["answered"]
                    else f"{i}: refused — {out.get('reason') or out.get('error')}"))
    summ = s.summary()
    click.echo(json.dumps({"summary": {k: summ[k] for k in (
        "budget", "spent", "spent_exact", "accounting", "closed", "proposition_4_condition")}})
        if fmt == "json" else f"spent {summ['spent']:.6g} of {budget:g}"
                              f"{' (closed: ' + summ['closed'] + ')' if summ['closed'] else ''}")
