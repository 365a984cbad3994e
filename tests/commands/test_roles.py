"""privlab.commands._roles: every input column gets exactly one role, or the input is refused.

The invariants are checked on random headers and declarations (nothing hard-coded): the
resolved roles partition the input columns, the anonymised columns are quasi-identifiers or
sensitive as the command states, and a declared role is kept.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.commands._roles import AttributeRoles
from privlab.errors import InvalidParameter

COLS = ["c0", "c1", "c2", "c3", "c4", "c5"]


@st.composite
def declarations(draw: st.DrawFn):
    roles = ["anon", "anon+qi", "anon+sensitive", "qi", "sensitive", "keep", "none"]
    role = {c: draw(st.sampled_from(roles)) for c in COLS}
    anon = [c for c in COLS if role[c].startswith("anon")]
    qi = [c for c in COLS if role[c] in ("qi", "anon+qi")]
    sens = [c for c in COLS if role[c] in ("sensitive", "anon+sensitive")]
    keep = [c for c in COLS if role[c] == "keep"]
    declared_qi = qi if (qi or draw(st.booleans())) else None
    return (anon, declared_qi, sens, keep, draw(st.booleans()),
            draw(st.sampled_from(["qi", "sensitive"])),
            draw(st.sampled_from(["anonymised", "all-other"])))


@settings(max_examples=200, deadline=None)
@given(case=declarations())
def test_resolved_roles_partition_the_input(case) -> None:
    """Mutants caught: a column both QI and kept; an anonymised column with no role; a
    declared --sensitive column counted as a quasi-identifier."""
    anon, qi, sens, keep, drop, anon_role, default = case
    roles = AttributeRoles(qi=qi, sensitive=sens, keep=keep, drop_other=drop)
    try:
        r = roles.resolve(COLS, anon, anonymised_role=anon_role, default_qi=default)
    except InvalidParameter as exc:
        msg = str(exc)
        assert ("not anonymised" in msg and not drop) or "sensitive column" in msg, msg
        return
    groups = [set(r.quasi_identifiers), set(r.sensitive), set(r.non_identifying),
              set(r.dropped)]
    assert set().union(*groups) == set(COLS)
    assert sum(len(g) for g in groups) == len(COLS)  # disjoint
    assert set(r.anonymised) == set(anon)
    assert set(r.sensitive) >= set(sens) and set(r.non_identifying) == set(keep)
    assert set(r.quasi_identifiers) >= set(qi or ())
    for c in anon:
        assert c in (r.sensitive if anon_role == "sensitive" or c in sens
                     else r.quasi_identifiers)
    assert r.published == tuple(c for c in COLS if c not in r.dropped)
    if r.dropped:
        assert drop


def test_defaults_and_spellings() -> None:
    assert AttributeRoles() == AttributeRoles(qi=None, sensitive=(), keep=(),
                                              drop_other=False)
    assert AttributeRoles(qi=" a , b ").qi == ("a", "b") == AttributeRoles(qi=["a", "b"]).qi
    with pytest.raises(InvalidParameter, match="'a' is given two roles: --qi and --sensitive"):
        AttributeRoles(qi="a", sensitive="a")
    with pytest.raises(InvalidParameter, match="must be column names"):
        AttributeRoles(keep=[1])
