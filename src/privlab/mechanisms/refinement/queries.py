"""Data sets and queries for the refinement and interactive mechanisms (thesis §5.1, §5.3–5.4).

* :class:`Dataset` — records keyed by individual id (the thesis's "identifier ID"); a record is
  a value or a mapping of attributes.  Neighbours: :meth:`Dataset.neighbours` under add/remove
  one record or substitute one record's value (over a finite value ``domain``).
* :class:`IndividualQuery` — the value of one attribute of one individual (ABSENT when the
  individual is not in the data set); it depends on the single individual ``{id}``.
* :class:`StatisticalQuery` — any function of the whole data set; it depends on everyone
  (``individuals`` is ``None`` = all, including people who could be added).

The set of individuals a query depends on is derived from the query object, never declared by
the user, so the disjointness condition of Proposition 4 can be *checked*.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from privlab.errors import InvalidParameter
from privlab.mechanisms.refinement.algorithm import ABSENT


def _records(x: Any) -> tuple[tuple[Hashable, Any], ...]:
    items = list(x.items()) if isinstance(x, Mapping) else list(x)
    out = []
    for k, item in enumerate(items):
        try:
            ident, value = item
        except (TypeError, ValueError):
            raise InvalidParameter(f"records[{k}]={item!r} must be an (id, value) pair") from None
        out.append((ident, value))
    ids = [i for i, _ in out]
    if len(set(ids)) != len(ids):
        raise InvalidParameter("records must have distinct individual ids")
    return tuple(out)


@attrs.frozen(kw_only=True)
class Dataset:
    """Records ``(id, value)``; ``value`` is a scalar or a mapping of attributes."""

    records: tuple[tuple[Hashable, Any], ...] = attrs.field(converter=_records)

    def __len__(self) -> int:
        return len(self.records)

    def get(self, ident: Hashable) -> Any:
        for i, val in self.records:
            if i == ident:
                return val
        return ABSENT

    @property
    def ids(self) -> tuple[Hashable, ...]:
        return tuple(i for i, _ in self.records)

    def values(self, attribute: str | None = None) -> list[Any]:
        return [val if attribute is None else val[attribute] for _, val in self.records]

    def without(self, ident: Hashable) -> Dataset:
        return Dataset(records=tuple(r for r in self.records if r[0] != ident))

    def with_record(self, ident: Hashable, value: Any) -> Dataset:
        return Dataset(records=(*(r for r in self.records if r[0] != ident), (ident, value)))

    def neighbours(self, relation: Any, domain: Sequence[Any],
                   new_id: Hashable = "new") -> Iterator[tuple[str, Dataset]]:
        """(label, D') for every neighbour: remove each record / add ``new_id`` with each value
        of ``domain`` (add/remove), or change one record's value within ``domain``."""
        from privlab.types import Neighbour

        rel = Neighbour.parse(relation)
        if rel is Neighbour.ADD_REMOVE:
            for i in self.ids:
                yield f"remove {i!r}", self.without(i)
            for val in domain:
                yield f"add {new_id!r}={val!r}", self.with_record(new_id, val)
        else:
            for i, cur in self.records:
                for val in domain:
                    if val != cur:
                        yield f"set {i!r}: {cur!r}->{val!r}", self.with_record(i, val)


@attrs.frozen(kw_only=True)
class IndividualQuery:
    """f(D) = value (or ``attribute``) of individual ``individual``; ABSENT if missing."""

    individual: Hashable
    attribute: str | None = None
    sensitivity: float | None = None
    """L1 sensitivity when answered by Laplace (Protocol 1), e.g. the length of the range."""

    kind = "individual"

    @property
    def name(self) -> str:
        return f"value of {self.individual!r}" + (f".{self.attribute}" if self.attribute else "")

    def __call__(self, data: Dataset) -> Any:
        val = data.get(self.individual)
        if val is ABSENT or self.attribute is None:
            return val
        try:
            return val[self.attribute]
        except (KeyError, TypeError):
            raise InvalidParameter(f"individual {self.individual!r} has no attribute "
                                   f"{self.attribute!r}") from None

    @property
    def individuals(self) -> frozenset[Hashable]:
        return frozenset({self.individual})


@attrs.frozen(kw_only=True)
class StatisticalQuery:
    """f(D) = ``fn(D)`` for a function of the whole data set (depends on everyone)."""

    fn: Callable[[Dataset], Any] = attrs.field(eq=False, repr=False)
    name: str = "statistic"
    sensitivity: float | None = None
    kind = "statistical"

    def __attrs_post_init__(self) -> None:
        if not callable(self.fn):
            raise InvalidParameter(f"fn={self.fn!r} must be callable (Dataset) -> value")

    def __call__(self, data: Dataset) -> Any:
        return self.fn(data)

    @property
    def individuals(self) -> None:
        return None


Query = IndividualQuery | StatisticalQuery


def count_query(value: Any = 1, attribute: str | None = None) -> StatisticalQuery:
    """Number of records whose value (or ``attribute``) equals ``value`` (sensitivity 1)."""
    return StatisticalQuery(fn=lambda d: sum(1 for x in d.values(attribute) if x == value),
                            name=f"count({value!r})", sensitivity=1.0)
