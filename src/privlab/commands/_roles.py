"""Attribute roles of a published table, one syntax for every ``privlab release`` command.

Every input column gets exactly one role, declared by the user or set by a stated default:

* **quasi-identifier** (``--qi A,B``): a column an intruder may know and link on.  The
  k-anonymity, l-diversity and t-closeness statements of a certificate are computed over the
  quasi-identifiers *as written in the output file* (sdcMicro's ``keyVars``, pycanon's QI,
  ARX's "quasi-identifying").
* **sensitive** (``--sensitive A,B``): what must not be learnt about a person; never a
  quasi-identifier; its l-diversity within the classes is reported.
* **non-identifying** (``--keep A,B``): published unchanged, declared neither identifying nor
  sensitive (ARX's "insensitive").  This is the user's statement, not privlab's: the
  certificate lists these columns as such.
* **dropped**: any other column, only with ``--drop-other`` (refused otherwise, listing them).

Orthogonal to the role is the treatment: the *anonymised* columns are the ones the method
transforms (``--columns`` of a microaggregation, the confidential column of t-closeness); every
other published column is written unchanged.  Each command states how its anonymised columns
count (:meth:`AttributeRoles.resolve`): a microaggregation's anonymised columns are
quasi-identifiers unless declared ``--sensitive``, and its default quasi-identifiers (no
``--qi``) are exactly those; t-closeness's confidential column is sensitive and its default
quasi-identifiers are every other column not declared ``--keep`` or ``--sensitive``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from privlab.errors import InvalidParameter

__all__ = ["NON_IDENTIFYING_STATEMENT", "AttributeRoles", "ResolvedRoles"]

NON_IDENTIFYING_STATEMENT = (
    "declared non-identifying and non-sensitive by the user (--keep): published unchanged; "
    "this is the user's statement, privlab does not check it")


def _names(value: Any, param: str) -> tuple[str, ...] | None:
    """``"A,B"`` or a sequence of names as a tuple (each once; a text names at least one;
    an empty sequence is no column); None stays."""
    if value is None:
        return None
    items = value.split(",") if isinstance(value, str) else list(value)
    if not all(isinstance(c, str) for c in items):
        raise InvalidParameter(f"{param}={value!r} must be column names")
    cols = tuple(c.strip() for c in items if c.strip())
    if not cols and (isinstance(value, str) or items):  # "--qi ''" names nothing: an error
        raise InvalidParameter(f"{param}={value!r} must name at least one column")
    dup = sorted({c for c in cols if cols.count(c) > 1})
    if dup:
        raise InvalidParameter(f"{param}={value!r} names column {dup[0]!r} twice")
    return cols


def _qi(value: Any) -> tuple[str, ...] | None:
    return _names(value, "qi")


def _sensitive(value: Any) -> tuple[str, ...]:
    return _names(value, "sensitive") or ()


def _keep(value: Any) -> tuple[str, ...]:
    return _names(value, "keep") or ()


def _in_header(cols: Sequence[str], header: Sequence[str], param: str) -> None:
    missing = [c for c in cols if c not in header]
    if missing:
        raise InvalidParameter(f"{param}: column {missing[0]!r} is not in the input header "
                               f"({', '.join(header)})")


@attrs.frozen(kw_only=True)
class AttributeRoles:
    """The roles the user declares (module doc); ``qi=None`` means "not declared" (the
    command's stated default).  Names may be given as ``"A,B"`` or as sequences."""

    qi: tuple[str, ...] | None = attrs.field(default=None, converter=_qi)
    sensitive: tuple[str, ...] = attrs.field(default=(), converter=_sensitive)
    keep: tuple[str, ...] = attrs.field(default=(), converter=_keep)
    drop_other: bool = attrs.field(default=False, converter=bool)

    def __attrs_post_init__(self) -> None:
        declared = (("qi", self.qi or ()), ("sensitive", self.sensitive), ("keep", self.keep))
        for i, (a, ca) in enumerate(declared):
            for b, cb in declared[i + 1:]:
                both = [c for c in ca if c in cb]
                if both:
                    raise InvalidParameter(f"column {both[0]!r} is given two roles: --{a} and "
                                           f"--{b} (each column has one role)")

    def resolve(self, header: Sequence[str], anonymised: Sequence[str], *,
                anonymised_role: str = "qi", default_qi: str = "anonymised",
                what: str = "the method") -> ResolvedRoles:
        """Every input column's role for a command that transforms ``anonymised``.

        ``anonymised_role``: ``"qi"`` — the anonymised columns are quasi-identifiers unless
        declared ``--sensitive`` (microaggregation); ``"sensitive"`` — they are sensitive and
        may not be declared ``--qi`` or ``--keep`` (t-closeness's confidential column).
        ``default_qi`` (no ``--qi``): ``"anonymised"`` — no quasi-identifier besides the
        anonymised ones; ``"all-other"`` — every column without another role."""
        if anonymised_role not in ("qi", "sensitive"):
            raise InvalidParameter(f"anonymised_role={anonymised_role!r} must be 'qi' or "
                                   "'sensitive'")
        if default_qi not in ("anonymised", "all-other"):
            raise InvalidParameter(f"default_qi={default_qi!r} must be 'anonymised' or "
                                   "'all-other'")
        header = list(header)
        anon = list(anonymised)
        _in_header(anon, header, "columns")
        for param, cols in (("qi", self.qi or ()), ("sensitive", self.sensitive),
                            ("keep", self.keep)):
            _in_header(cols, header, param)
        both = [c for c in self.keep if c in anon]
        if both:
            raise InvalidParameter(f"keep: column {both[0]!r} is anonymised by {what}; --keep "
                                   "lists columns passed through unchanged")
        if anonymised_role == "sensitive":
            clash = [c for c in (self.qi or ()) if c in anon]
            if clash:
                raise InvalidParameter(f"qi: column {clash[0]!r} is the sensitive column "
                                       f"anonymised by {what}; it cannot be a quasi-identifier")
            sens = set(self.sensitive) | set(anon)
        else:
            sens = set(self.sensitive)
        if self.qi is not None:
            qi = set(self.qi)
        elif default_qi == "all-other":
            qi = {c for c in header if c not in anon and c not in sens and c not in self.keep}
        else:
            qi = set()
        if anonymised_role == "qi":
            qi |= {c for c in anon if c not in sens}
        keep = set(self.keep)
        other = [c for c in header if c not in anon and c not in qi and c not in sens
                 and c not in keep]
        if other and not self.drop_other:
            raise InvalidParameter(
                f"the input has columns that are not anonymised: {', '.join(other)}; give each "
                "a role — --qi (quasi-identifier), --sensitive, or --keep (non-identifying; "
                "all three are published unchanged) — or drop them with --drop-other")
        source = ("declared (--qi)" + (" plus the anonymised columns"
                                       if anonymised_role == "qi" else "")
                  if self.qi is not None else
                  "default: the anonymised columns not declared --sensitive"
                  if default_qi == "anonymised" else
                  "default: every column not anonymised and not declared --sensitive or --keep")
        order = {c: i for i, c in enumerate(header)}

        def ordered(s: set[str] | Sequence[str]) -> tuple[str, ...]:
            return tuple(sorted(s, key=order.__getitem__))

        return ResolvedRoles(header=tuple(header), anonymised=ordered(anon),
                             quasi_identifiers=ordered(qi), sensitive=ordered(sens),
                             non_identifying=ordered(keep), dropped=tuple(other),
                             qi_source=source)


@attrs.frozen(kw_only=True)
class ResolvedRoles:
    """Every input column's role (:meth:`AttributeRoles.resolve`); tuples in input order."""

    header: tuple[str, ...]
    anonymised: tuple[str, ...]
    quasi_identifiers: tuple[str, ...]
    sensitive: tuple[str, ...]
    non_identifying: tuple[str, ...]
    dropped: tuple[str, ...]
    qi_source: str = ""

    @property
    def pass_through(self) -> tuple[str, ...]:
        """Published columns the method writes unchanged (input order)."""
        return tuple(c for c in self.header if c not in self.anonymised
                     and c not in self.dropped)

    @property
    def published(self) -> tuple[str, ...]:
        """Input columns present in the output (input order)."""
        return tuple(c for c in self.header if c not in self.dropped)

    def to_dict(self) -> dict[str, Any]:
        return {"quasi_identifiers": list(self.quasi_identifiers),
                "quasi_identifiers_source": self.qi_source,
                "sensitive": list(self.sensitive),
                "non_identifying": list(self.non_identifying),
                "non_identifying_statement": NON_IDENTIFYING_STATEMENT,
                "anonymised": list(self.anonymised),
                "published_unchanged": list(self.pass_through),
                "dropped": list(self.dropped)}
