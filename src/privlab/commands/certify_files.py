"""Certified configurations kept in version control (issue 18): re-certify from JSON.

``privlab certify --from-json PARAMS.json`` reads a file as ``privlab certify … --format json``
prints it (or only its ``mechanism`` and ``parameters``) and certifies that configuration
again; ``privlab certify --check DIR`` does so for every ``*.json`` in DIR and fails when a
certificate no longer holds or its verdict changed — a team's CI gate on its parameter choices.

Families re-certified (the laws the lab knows exactly): ``laplace``, ``staircase`` (thesis
§4.4), ``box-staircase`` (§4.5) and ``dp-release`` (thesis §6.3 / vldb14 / irm numerical
releases).  What is compared: ``holds``, the guarantee (kind, ε, δ, neighbour), the certified
ε of a release, and each check's verdict (by its claim text).  Numbers inside the evidence may
change with privlab's version without changing the verdict; they are not compared.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from privlab.errors import InvalidParameter
from privlab.types import jsonable

FAMILIES = ("laplace", "staircase", "box-staircase", "dp-release")


def read_params(path: str | Path) -> dict[str, Any]:
    """The ``mechanism`` and ``parameters`` of a certificate file (one-line errors)."""
    p = Path(path)
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InvalidParameter(f"--from-json={str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidParameter(f"--from-json={str(path)!r} is not a JSON file: "
                               f"{' '.join(str(exc).split())}") from None
    if not isinstance(doc, Mapping) or not isinstance(doc.get("parameters"), Mapping) \
            or doc.get("mechanism") not in FAMILIES:
        raise InvalidParameter(f"--from-json={str(path)!r} must hold \"mechanism\" (one of "
                               f"{', '.join(FAMILIES)}) and \"parameters\", as "
                               f"'privlab certify … --format json' prints them")
    return dict(doc)


def _num(params: Mapping[str, Any], key: str, default: Any = None) -> Any:
    if key not in params and default is None:
        raise InvalidParameter(f"parameters.{key} is missing")
    return params.get(key, default)


def recertify(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Certify again the configuration of ``doc`` (a certificate as JSON); the new
    certificate in the one layout (:mod:`privlab.verify.certificate`), validated."""
    from privlab.verify.certificate import certificate

    new = _recertify(doc)
    return certificate("dp-release" if new.get("mechanism") == "dp-release" else "noise", new)


def _recertify(doc: Mapping[str, Any]) -> dict[str, Any]:
    mech, prm = doc["mechanism"], doc["parameters"]
    neighbour = (doc.get("guarantee") or {}).get("neighbour", prm.get("neighbour",
                                                                      "substitute"))
    if mech in ("laplace", "staircase"):
        from privlab.verify.noise.certify import certify_noise, make_noise

        safe = any("safe" in str(c.get("claim", "")) for c in doc.get("checks", ())) \
            or "checks" not in doc
        m = make_noise(mech, epsilon=_num(prm, "epsilon"), sensitivity=_num(prm, "sensitivity"),
                       d=prm.get("d") if mech == "staircase" else None, neighbour=neighbour)
        return jsonable(certify_noise(m, safe=safe).to_dict())
    if mech == "box-staircase":
        from privlab.verify.noise.multivariate_cert import certify_box_staircase

        return jsonable(certify_box_staircase(_num(prm, "epsilon"), _num(prm, "sensitivity"),
                                              _num(prm, "core")).to_dict())
    from privlab.verify.releases.certificate import certify_dp_release

    c = certify_dp_release(_num(prm, "microaggregation"), _num(prm, "noise_scale"),
                           _num(prm, "n"), _num(prm, "k"), _num(prm, "epsilon"),
                           prm.get("attributes", 1), prm.get("noise", "shared"),
                           prm.get("rows", "shuffled"), prm.get("neighbour", "substitute"))
    return jsonable(c.to_dict())


def verdict(cert: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of a certificate that a re-certification must reproduce."""
    out: dict[str, Any] = {"holds": cert.get("holds")}
    if "guarantee" in cert:
        out["guarantee"] = cert["guarantee"]
    if "certified_epsilon" in cert:
        out["certified_epsilon"] = cert["certified_epsilon"]
    if "checks" in cert:
        out["checks"] = {c.get("claim"): c.get("holds") for c in cert["checks"]}
    return out


def changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """Human lines for every part of the verdict that differs (empty: unchanged)."""
    a, b = verdict(old), verdict(new)
    lines = []
    for key in sorted(set(a) | set(b)):
        if key == "checks":
            ca, cb = a.get(key) or {}, b.get(key) or {}
            for claim in sorted(set(ca) | set(cb), key=str):
                if ca.get(claim) != cb.get(claim):
                    lines.append(f"check {claim!r}: {ca.get(claim)} -> {cb.get(claim)}")
        elif a.get(key) != b.get(key):
            lines.append(f"{key}: {a.get(key)} -> {b.get(key)}")
    return lines


def check_dir(directory: str | Path) -> list[dict[str, Any]]:
    """Re-certify every ``*.json`` certificate in ``directory`` (sorted by name)."""
    d = Path(directory)
    if not d.is_dir():
        raise InvalidParameter(f"--check={str(directory)!r} is not a directory")
    files = sorted(d.glob("*.json"))
    if not files:
        raise InvalidParameter(f"--check={str(directory)!r} holds no *.json certificate")
    rows = []
    for f in files:
        doc = read_params(f)
        new = recertify(doc)
        diff = changes(doc, new) if "holds" in doc else []
        rows.append({"file": f.name, "mechanism": doc["mechanism"], "holds": new["holds"],
                     "unchanged": not diff, "changes": diff})
    return rows
