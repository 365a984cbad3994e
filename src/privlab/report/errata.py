"""Errata per paper (issue 17): for each seed, its refuted claims in document order.

Each entry carries the printed statement, the correction where the ledger derives one (the
claim's ``correction`` field, else evidence fields named ``corrected_*``, ``derived_*``,
``exact_rule_*``), the lab's explanation (the claim's notes), the counterexample and the command
that reproduces it (``privlab claims --id …``).  Built from a report dictionary (``report.json``)
or from a list of claim dictionaries (``ClaimOutcome.to_dict()``); rendered as Markdown, JSON or
HTML from the templates in ``templates/``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from privlab.report.findings import (
    REFUTED_STATUSES,
    SEEDS,
    anchor,
    classify,
    section_key,
    section_of,
    seed_of,
    short,
)
from privlab.report.reports import quick_notice

_CORRECTION_KEY = re.compile(r"^(corrected|derived|correction|exact_rule)", re.IGNORECASE)


def correction(claim: Mapping[str, Any]) -> dict[str, Any]:
    """The correction the ledger derives for a refuted claim ({} when it derives none)."""
    if claim.get("correction"):
        c = claim["correction"]
        return dict(c) if isinstance(c, Mapping) else {"correction": c}
    ev = claim.get("evidence") or {}
    return {k: v for k, v in ev.items() if _CORRECTION_KEY.match(k)}


def errata(claims: Sequence[Mapping[str, Any]],
           seeds: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """``[{seed, file, what, entries}]`` for the given seeds (default: all, DESIGN.md §3 order);
    ``entries`` are the seed's refuted claims sorted by section number (document order)."""
    out = []
    for seed in seeds or list(SEEDS):
        mine = [c for c in claims if seed_of(c["id"]) == seed
                and c.get("status") in REFUTED_STATUSES
                and (c.get("scope") or {}).get("setting") != "extension"]  # lab's own question
        mine.sort(key=lambda c: (section_key(c.get("source", "")), c["id"]))
        entries = []
        for c in mine:
            cls = classify(c)
            entries.append({
                "id": c["id"], "anchor": anchor(c["id"]), "section": section_of(c["source"]),
                "source": c["source"], "statement": c["statement"],
                "kind": cls["kind"], "severity": cls["severity"], "label": cls["label"],
                "kind_derived": cls["derived"], "value": c.get("value"),
                "correction": correction(c), "notes": list(c.get("notes") or []),
                "counterexample": c.get("counterexample"),
                "counterexample_text": short(c.get("counterexample"), 600),
                "reproduce": f"privlab claims --id {c['id']}",
            })
        out.append({"seed": seed, "file": SEEDS[seed][0], "what": SEEDS[seed][1],
                    "entries": entries})
    return out


def from_report(report: Mapping[str, Any], seeds: Sequence[str] | None = None
                ) -> list[dict[str, Any]]:
    """:func:`errata` of a ``report.json`` dictionary."""
    return errata(report.get("claims", []), seeds)


def render(sheets: Sequence[Mapping[str, Any]], fmt: str, *,
           origin: str = "", quick: bool = False, skipped: Sequence[str] = ()) -> str:
    """The errata sheets as ``md``, ``json`` or ``html`` (one self-contained page).

    ``quick``: the claims come from a ``--quick`` run, which did not check the claims
    ``skipped`` (errata among them are missing): the first line of Markdown (the title) says
    so, the HTML title and heading too, and the JSON carries ``"run": "quick"`` and the
    ``notice`` (``"run": "full"`` and ``notice`` null otherwise)."""
    notice = quick_notice(origin, list(skipped), what="errata sheet") if quick else None
    if fmt == "json":
        from privlab._io import dumps

        return dumps({"origin": origin, "run": "quick" if quick else "full",
                      "notice": notice, "skipped": list(skipped) if quick else [],
                      "errata": list(sheets)})
    from privlab.report.templating import template

    name = {"md": "errata.md.j2", "html": "errata.html.j2"}[fmt]
    return template(name).render(sheets=sheets, origin=origin, notice=notice,
                                 skipped=list(skipped)).strip() + "\n"
