"""Independent referee verdicts beside the ledger's (issue 30): ``privlab claims --referees DIR``.

A referee directory holds scripts ``ref_*.py`` written from the seed texts alone (in the
repository: ``tests/referee/``).  Each exposes ``CLAIMS`` (claim id → a zero-argument function
returning ``{"holds": True | False | None, "note": …, "numbers": …}``) and optionally ``SLOW``.
:func:`judge` runs the referee of each listed claim and marks the claim *disputed* when the
referee's verdict differs from the ledger's: a verified/confirmed claim judged false, or a
refuted one (or a finding) judged true.  A referee that cannot decide (``holds`` None) or that
raises is reported as such, never as agreement.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from privlab.errors import InvalidParameter

HOLDS = ("verified", "confirmed")
FAILS = ("refuted", "finding (extension)")


def load(directory: Path) -> dict[str, tuple[str, Callable[[], Mapping[str, Any]]]]:
    """claim id → (script name, referee function) over ``directory/ref_*.py``."""
    if not directory.is_dir():
        raise InvalidParameter(f"--referees={str(directory)!r} is not a directory")
    out: dict[str, tuple[str, Callable[[], Mapping[str, Any]]]] = {}
    for path in sorted(directory.glob("ref_*.py")):
        name = f"_privlab_referee_{path.stem}"
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            continue
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        try:
            spec.loader.exec_module(mod)
        except Exception as exc:  # a broken script is reported, the others still run
            raise InvalidParameter(f"--referees: {path.name} cannot be loaded "
                                   f"({type(exc).__name__}: {exc})") from None
        for cid, fn in getattr(mod, "CLAIMS", {}).items():
            out.setdefault(cid, (path.name, fn))
    if not out:
        raise InvalidParameter(f"--referees={str(directory)!r} holds no ref_*.py with CLAIMS")
    return out


def verdict(status: str, referee: Mapping[str, Any] | None, error: str | None = None
            ) -> dict[str, Any]:
    """The referee entry of one claim: ``agreement`` is agrees / disputed / undecided /
    not compared (the ledger itself is inconclusive or skipped) / error / none."""
    if error is not None:
        return {"agreement": "error", "error": error}
    if referee is None:
        return {"agreement": "none"}
    holds = referee.get("holds")
    entry = {"holds": holds, "note": referee.get("note"), "numbers": referee.get("numbers")}
    if holds is None:
        return {**entry, "agreement": "undecided"}
    if status in HOLDS:
        return {**entry, "agreement": "agrees" if holds else "disputed"}
    if status in FAILS:
        return {**entry, "agreement": "disputed" if holds else "agrees"}
    return {**entry, "agreement": "not compared"}


def judge(rows: Iterable[Mapping[str, Any]], directory: Path) -> list[dict[str, Any]]:
    """``rows`` (claim dictionaries of the ledger) with a ``referee`` entry each."""
    refs = load(directory)
    out = []
    for row in rows:
        found = refs.get(row["id"])
        result, error = None, None
        if found is not None:
            script, fn = found
            try:
                res = fn()
                if not isinstance(res, Mapping) or "holds" not in res:
                    raise TypeError(f"returned {type(res).__name__} without 'holds'")
                result = {**res, "script": script}
            except Exception as exc:
                error = f"{script}: {type(exc).__name__}: {exc}"
        entry = verdict(str(row.get("status")), result, error)
        if found is not None:
            entry["script"] = found[0]
        out.append({**row, "referee": entry})
    return out


def disputed(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    return [r["id"] for r in rows if (r.get("referee") or {}).get("agreement") == "disputed"]
