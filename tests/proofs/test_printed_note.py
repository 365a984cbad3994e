"""The one printed-number rule is applied to every reproduced table (issue 14 item 6)."""

from __future__ import annotations

from privlab.proofs.ledger import default_ledger
from privlab.proofs.printed import NOTE_PREFIX, table_note


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
