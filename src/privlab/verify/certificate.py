"""One certificate shape for every command (releases, ``certify``, ``certify --from-json``).

:class:`Certificate` is the envelope every certificate carries, under a fixed set of top-level
keys (:data:`ENVELOPE_KEYS`): ``version`` (:data:`VERSION`), ``kind``, ``guarantee``,
``holds``, ``neighbour`` (the canonical spelling of :class:`privlab.types.Neighbour`, or null
when the guarantee is not differential privacy), ``release_format``, ``roles``, ``noise``,
``parameters``, ``data`` (the fingerprint of the published file: sha256, bytes, rows,
columns; null for ``certify`` commands, which publish no file), ``properties`` (computed
values) and ``refusal`` (why the certificate does not hold; null when it holds).  The
command's own keys (``details``) stay at the top level beside the envelope, so earlier readers
keep working; where a command's key has an envelope name its value is the envelope's.

The layout is published as a JSON Schema (draft 2020-12) in
``privlab/data/certificate.schema.json`` (:func:`schema`); :func:`validate` checks a
certificate dictionary against it, and the commands validate before anything is written or
printed (an invalid certificate is a bug: :class:`AssertionError`, nothing written).
"""

from __future__ import annotations

import csv
import functools
import hashlib
import io
import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

import attrs

from privlab.types import Neighbour

VERSION = "1"
KINDS = ("microaggregation", "dp-release", "dp-release-mixed", "t-closeness",
         "stochastic-t", "noise", "refinement", "insensitivity")
ENVELOPE_KEYS = ("version", "kind", "guarantee", "holds", "neighbour", "release_format",
                 "roles", "noise", "parameters", "data", "properties", "refusal")
SCHEMA_RESOURCE = "certificate.schema.json"
# values a command computes (copied into ``properties`` when it has none of its own)
_PROPERTY_KEYS = ("certified_epsilon", "requested_epsilon", "achieved_k",
                  "achieved_min_group_size", "achieved_t", "distinct_l", "emd", "classes",
                  "exact_t", "bound_derived", "paper_prop1", "paper_formula_holds", "value")
# configuration keys (copied into ``parameters`` when the command has none of its own)
_PARAMETER_KEYS = ("method", "mechanism", "k", "n", "N", "class_size", "epsilon",
                   "t_required", "columns", "numerical_columns", "categorical_columns")


def canonical_neighbour(text: Any) -> str | None:
    """The :class:`Neighbour` value of any spelling it parses (``add-remove``, ``add_remove``,
    ``add/remove``, …); None for None."""
    return None if text is None else Neighbour.parse(str(text)).value


def fingerprint(data: bytes, name: str | None = None) -> dict[str, Any]:
    """sha256, size, data rows and header of the CSV bytes about to be published."""
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    rows = [r for r in rows if r]
    out: dict[str, Any] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data),
                           "rows": max(len(rows) - 1, 0), "columns": rows[0] if rows else []}
    if name is not None:
        out["file"] = name
    return out


def _neighbour_of(d: Mapping[str, Any]) -> str | None:
    for src in (d, d.get("parameters"), d.get("guarantee")):
        if isinstance(src, Mapping) and src.get("neighbour") is not None:
            return canonical_neighbour(src["neighbour"])
    return None


def _refusal_of(d: Mapping[str, Any]) -> str:
    if isinstance(d.get("reason"), str):
        return d["reason"]
    for c in d.get("checks") or ():
        if isinstance(c, Mapping) and c.get("holds") is False:
            return f"check failed: {c.get('claim')}"
    if isinstance(d.get("claim"), str):
        return f"not established: {d['claim']}"
    return "the certificate does not establish its guarantee"


@attrs.frozen(kw_only=True)
class Certificate:
    """The envelope of a certificate plus the command's own keys (``details``)."""

    kind: str = attrs.field(validator=attrs.validators.in_(KINDS))
    holds: bool = attrs.field(validator=attrs.validators.instance_of(bool))
    guarantee: str | dict[str, Any]
    neighbour: str | None = attrs.field(default=None, converter=canonical_neighbour)
    release_format: dict[str, Any] | None = None
    roles: dict[str, Any] | None = None
    noise: dict[str, Any] | None = None
    parameters: dict[str, Any] = attrs.field(factory=dict)
    data: dict[str, Any] | None = None
    properties: dict[str, Any] = attrs.field(factory=dict)
    refusal: str | None = None
    details: dict[str, Any] = attrs.field(factory=dict)
    version: str = VERSION

    @classmethod
    def envelope(cls, kind: str, legacy: Mapping[str, Any], *, data: bytes | None = None,
                 name: str | None = None, holds: bool | None = None,
                 guarantee: str | dict[str, Any] | None = None) -> Certificate:
        """The certificate of a command's dictionary ``legacy`` (already JSON-safe): the
        envelope filled from its keys; ``data`` the bytes of the published file."""
        d = dict(legacy)
        ok = d.get("holds") if holds is None else holds
        if guarantee is None:
            guarantee = d.get("guarantee")
        if guarantee is None:
            if "certified_epsilon" in d:
                guarantee = {"kind": "pure", "epsilon": d.get("requested_epsilon"),
                             "delta": 0.0, "neighbour": _neighbour_of(d)}
            else:
                guarantee = str(d.get("claim", kind))
        roles = d.get("roles")
        if roles is None and ("columns" in d or "numerical_columns" in d):
            released = list(d.get("columns") or [*d.get("numerical_columns", []),
                                                   *d.get("categorical_columns", [])])
            roles = {"released": released, "dropped": list(d.get("dropped_columns", []))}
        fmt = None
        if data is not None or "row_order" in d:
            fmt = {"row_order": d.get("row_order"), "encoding": "utf-8", "format": "csv"}
        prm = d.get("parameters")
        if not isinstance(prm, Mapping):
            prm = {k: d[k] for k in _PARAMETER_KEYS if k in d}
        props = d.get("properties")
        if not isinstance(props, Mapping):
            props = {k: d[k] for k in _PROPERTY_KEYS if k in d}
        noise = d.get("noise") if isinstance(d.get("noise"), Mapping) else None
        return cls(kind=kind, holds=bool(ok), guarantee=guarantee,
                   neighbour=_neighbour_of(d), release_format=fmt, roles=roles, noise=noise,
                   parameters=dict(prm), data=None if data is None else fingerprint(data, name),
                   properties=dict(props), refusal=None if ok else _refusal_of(d), details=d)

    def to_dict(self) -> dict[str, Any]:
        env = {k: getattr(self, k) for k in ENVELOPE_KEYS}
        return {**env, **{k: v for k, v in self.details.items() if k not in env}}


@functools.cache
def _schema_text() -> str:
    return resources.files("privlab.data").joinpath(SCHEMA_RESOURCE).read_text("utf-8")


def schema() -> dict[str, Any]:
    """The JSON Schema of a certificate (a fresh copy)."""
    return json.loads(_schema_text())


def errors(cert: Mapping[str, Any]) -> list[str]:
    """Every way ``cert`` breaks the schema (empty: valid)."""
    import jsonschema

    v = jsonschema.Draft202012Validator(schema())
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
            for e in sorted(v.iter_errors(cert), key=lambda e: list(map(str, e.path)))]


def validate(cert: Mapping[str, Any]) -> dict[str, Any]:
    """``cert`` unchanged when it matches the schema; else :class:`AssertionError` (a bug in
    the command that built it)."""
    bad = errors(cert)
    if bad:
        raise AssertionError("certificate does not match certificate.schema.json: "
                             + "; ".join(bad[:5]))
    return dict(cert)


def certificate(kind: str, legacy: Mapping[str, Any], **kw: Any) -> dict[str, Any]:
    """The validated dictionary of :meth:`Certificate.envelope` (the commands' one call)."""
    return validate(Certificate.envelope(kind, legacy, **kw).to_dict())


__all__ = ["ENVELOPE_KEYS", "KINDS", "VERSION", "Certificate", "canonical_neighbour",
           "certificate", "errors", "fingerprint", "schema", "validate"]

