"""The one printed-number rule is applied to every reproduced table (issue 14 item 6)."""

from __future__ import annotations

from privlab.proofs.ledger import default_ledger
from privlab.proofs.printed import NOTE_PREFIX, Printed, compare_rows, table_note


def test_note_counts_and_lists_mismatches() -> None:
    rows = [{"x": 1.234, "paper_x": 1.23}, {"x": 2.0, "paper_x": 2.5}, {"x": "n/a", "paper_x": 1}]
    note = table_note(("x", "paper_x"), rows)
    assert note is not None and note.startswith(NOTE_PREFIX)
    assert "1 of 2 printed cells match" in note and "row 2 x" in note and "row 1 x" not in note


def test_truncating_table_and_tables_without_printed_numbers() -> None:
    rows = [{"x": 1.239, "paper_x": 1.23}, {"x": 5.678, "paper_x": 5.67}]
    assert "(truncate;" in table_note(("x", "paper_x"), rows)
    assert table_note(("x", "y"), [{"x": 1, "y": 2}]) is None


def test_every_ledger_table_with_printed_numbers_carries_the_rule() -> None:
    ledger = default_ledger()
    for tid in ("thesis-4.1", "thesis-4.2", "thesis-4.3"):
        t = ledger.table(tid)
        assert sum(n.startswith(NOTE_PREFIX) for n in t.notes) == 1, tid


def test_printed_keeps_the_digits_a_float_forgets() -> None:
    """"3.07E+09" is printed to 1e7 (a float would say 0.1); "0.40" to 0.01 (a float: 0.1)."""
    import json
    import pickle

    p = Printed("3.07E+09")
    assert p == 3.07e9 and json.dumps(p) == "3070000000.0" and pickle.loads(pickle.dumps(p)).text \
        == "3.07E+09"
    rows = [{"x": 3.0707e9, "paper_x": p}, {"x": 3.0707e9, "paper_x": 3.07e9},
            {"x": 0.44, "paper_x": Printed("0.40")}, {"x": 0.44, "paper_x": 0.40}]
    res = compare_rows(("x", "paper_x"), rows)
    assert [c["matches"] for c in res["cells"]] == [True, False, False, True]
    assert compare_rows(("x", "y"), rows) is None
