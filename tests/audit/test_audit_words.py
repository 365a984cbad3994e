"""Issue 33 item 4: the event of an audit in words (``AuditResult.description``)."""

from __future__ import annotations

import numpy as np

from privlab.audit import features as ft
from privlab.audit import words


def _cex(feature: str, event: dict, ka: int, kb: int, n: int = 1000, **extra) -> dict:
    return {"feature": feature, "event": event, "direction": "a>b" if ka >= kb else "b>a",
            "neighbours": [0, 1], "a": {"count": ka, "n": n}, "b": {"count": kb, "n": n},
            **extra}


def test_lowbits_codes_read_as_binade_and_bits() -> None:
    y = np.array([-0.75 - 2.0**-53])  # in (−1, −0.5], last two mantissa bits 01
    code = float(ft.lowbits(y)[0])
    text = words.describe(_cex("lowbits(value)", {"kind": "atom", "value": code}, 480, 0),
                          structural=True)
    assert "the output lies in (−1, −0.5] with last two float64 mantissa bits 01" in text
    assert "in 48 % of draws under x = 0 (480 of 1,000)" in text
    assert "never under x = 1 (0 of 1,000)" in text and "structural leak" in text
    y32 = np.array([np.nextafter(np.float32(1.5), np.float32(2))], dtype=np.float32)
    code32 = float(ft.lowbits(y32)[0])
    assert "last two float32 mantissa bits 01" in words.event_words(
        "lowbits(value)", {"kind": "atom", "value": code32}, None, ("a", "b"), "float32")


def test_joint_events_read_as_conditions() -> None:
    f = "joint[x[0]>2.0;x[1]<=1.0]"
    both = {"kind": "threshold", "op": ">", "t": 2.0}
    assert words.event_words(f, both, None, ("a", "b")) == "all of x[0] > 2 and x[1] ≤ 1 hold"
    anyof = {"kind": "threshold", "op": ">", "t": 0.0}
    assert words.event_words(f, anyof, None, ("a", "b")) == \
        "at least one of x[0] > 2 or x[1] ≤ 1 holds"
    one = {"kind": "cell", "lo": 1.0, "hi": 2.0}
    assert words.event_words(f, one, None, ("a", "b")) == "x[0] > 2 and not (x[1] ≤ 1)"


def test_support_and_precision_events() -> None:
    sup = {"a_only": [0.5, 1.25], "b_only": [3.0], "base": "value"}
    a_set = {"kind": "threshold", "op": ">", "t": 0.0}
    text = words.event_words("support[00](value)", a_set, sup, ("x = 0", "x = 1"), "float32")
    assert text == ("the output is one of the 2 values seen in the selection sample under "
                    "x = 0 only (0.5, 1.25) (float32 values)")
    b_set = {"kind": "cell", "lo": "-inf", "hi": -1.0}
    assert words.event_words("support[00](value)", b_set, sup, ("x = 0", "x = 1")) == \
        "the output is 3, a value seen in the selection sample under x = 1 only"
    prec = {"kind": "threshold", "op": ">", "t": 24.0}
    assert words.event_words("prec(value)", prec, None, ("a", "b")) == \
        "the output has more than 24 significant bits"


def test_plain_events_and_labels() -> None:
    assert words.pair_labels(["a", "b"]) == ("sample_a", "sample_b")
    assert words.pair_labels([[2, 1], [1, 2]]) == ("x = (2,1)", "x = (1,2)")
    t = {"kind": "threshold", "op": "<=", "t": -8.5}
    text = words.describe(_cex("value", t, 23, 8, n=10_000), structural=False)
    assert text == ("Event: the output is ≤ −8.5 — it occurred in 0.23 % of draws under x = 0 "
                    "(23 of 10,000) and in 0.08 % under x = 1 (8 of 10,000).")
    lv = {"kind": "level_set", "intervals": [[0.0, 1.0], [2.0, "inf"]]}
    assert words.event_words("x[3]", lv, None, ("a", "b")) == \
        "coordinate 3 of the output lies in (0, 1] or (2, ∞]"
