"""The event of an audit in words: what the output does, how often under each neighbour.

An audit's counterexample names its event by a feature and a union of cells of that feature
(``{"feature": "lowbits(value)", "event": {"kind": "atom", "value": -3.0}}``), which a reader has
to decode: here the same event reads "the output lies in [−1, −0.5) and its last two float64
mantissa bits are 01".  :func:`describe` turns a counterexample into one sentence — the event,
its frequency under each input of the pair on the estimation sample, and, for a structural leak,
that the event never occurred under one of them — for the result's ``description``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from privlab.audit import features as ft

__all__ = ["describe", "event_words", "feature_words", "pair_labels"]

MAX_ITEMS = 4
"""Intervals, values or bit patterns listed before "…"."""
_FLOAT_BITS = {"float16": 10, "float32": 23, "float64": 52}


def _num(x: Any) -> str:
    """A number as printed in a sentence (six significant digits, a real minus sign, ±∞)."""
    v = float(x)
    if math.isinf(v):
        return "∞" if v > 0 else "−∞"
    return f"{v:.6g}".replace("-", "−")


def _pct(p: float) -> str:
    """A frequency as a percentage: whole percents from 10 %, else two significant digits."""
    if p == 0:
        return "0 %"
    return f"{100 * p:.0f} %" if p >= 0.1 else f"{100 * p:.2g} %"


def _brief(x: Any) -> str:
    """An input of the pair: a number, a short vector, or the start of its text."""
    try:
        a = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        return str(x)[:40]
    if a.ndim == 0:
        return f"{float(a):g}"
    text = "(" + ",".join(f"{v:g}" for v in a.ravel()[:8]) + (",…" if a.size > 8 else "") + ")"
    return text


def pair_labels(neighbours: Sequence[Any] | None) -> tuple[str, str]:
    """How the two inputs are named in a sentence: "x = 0" / "x = 1", or "sample_a" /
    "sample_b" when the pair has no values."""
    if not neighbours or list(neighbours) == ["a", "b"] or len(neighbours) != 2:
        return "sample_a", "sample_b"
    return f"x = {_brief(neighbours[0])}", f"x = {_brief(neighbours[1])}"


def feature_words(name: str, dtype: str = "float64") -> str:
    """The feature as a noun phrase ("the output", "coordinate 3 of the output", …)."""
    simple = {"value": "the output", "sum": "the sum of the output's coordinates",
              "max": "the largest coordinate of the output",
              "min": "the smallest coordinate of the output",
              "argmax": "the index of the largest coordinate",
              "count_nonzero": "the number of non-zero coordinates",
              "pattern": "the whole output vector"}
    if name in simple:
        return simple[name]
    m = re.match(r"^x\[(\d+)\]$", name)
    if m:
        return f"coordinate {m.group(1)} of the output"
    m = re.match(r"^user\[(\d+)\]$", name)
    if m:
        return f"column {m.group(1)} of the user's feature map"
    m = re.match(r"^proj\[(.+)\]$", name)
    if m:
        return f"the linear score Σ w_i·x_i with w = ({m.group(1)})"
    m = re.match(r"^lowbits\((.+)\)$", name)
    if m:
        return f"the sign, binade and last two {dtype} mantissa bits of " \
               f"{feature_words(m.group(1), dtype)}"
    m = re.match(r"^prec\((.+)\)$", name)
    if m:
        return f"the number of significant bits of {feature_words(m.group(1), dtype)}"
    m = re.match(r"^resid\[(.+)\]\((.+)\)$", name)
    if m:
        return f"the offset of {feature_words(m.group(2), dtype)} on the lattice " \
               f"{_num(m.group(1))}·ℤ"
    if name.startswith("joint["):
        return "which of the conditions " + _conditions(name) + " hold"
    if name.startswith("lrsum["):
        return "a learned per-coordinate likelihood-ratio score"
    m = re.match(r"^support\[[0-9a-f]+\]\((.+)\)$", name)
    if m:
        return feature_words(m.group(1), dtype)
    return f"feature {name}"


def _conditions(name: str) -> str:
    """The conditions of a ``joint`` feature, "; "-separated, as inequalities."""
    body = name[len("joint["):-1]
    out = []
    for c in body.split(";"):
        m = re.match(r"^x\[(\d+)\](>|<=|~)(.+)$", c)
        if not m:
            out.append(c)
        elif m.group(2) == "~":
            lo, hi = m.group(3)[1:-1].split(",")
            out.append(f"{_num(lo)} < x[{m.group(1)}] ≤ {_num(hi)}")
        else:
            op = ">" if m.group(2) == ">" else "≤"
            out.append(f"x[{m.group(1)}] {op} {_num(m.group(3))}")
    return "; ".join(out)


def _lowbits_code(code: float, dtype: str) -> str:
    """A ``lowbits`` category in words (:func:`privlab.audit.features.lowbits`)."""
    c = int(code)
    low = c % (1 << ft.LOW_BITS)
    rest = c // (1 << ft.LOW_BITS)
    sign, expo = rest % 2, rest // 2
    bits = format(low, f"0{ft.LOW_BITS}b")
    if dtype.startswith(("int", "uint")):
        return f"a {expo}-bit {'negative' if sign else 'non-negative'} integer ending in " \
               f"binary {bits}"
    lo, hi = 2.0 ** expo, 2.0 ** (expo + 1)
    where = f"({_num(-hi)}, {_num(-lo)}]" if sign else f"[{_num(lo)}, {_num(hi)})"
    return f"in {where} with last two {dtype} mantissa bits {bits}"


def _codes_in(event: Mapping[str, Any]) -> list[float] | None:
    """The integer codes an event over a categorical feature holds, as far as they can be
    listed (intervals of at most 64 codes; None when there is no such interval)."""
    kind = event.get("kind")
    if kind == "atom":
        return [float(event["value"])]
    ivs = [(event["lo"], event["hi"])] if kind == "cell" else event.get("intervals") \
        if kind == "level_set" else None
    if ivs is None:
        return None
    codes: list[float] = []
    for lo, hi in ivs:
        a, b = float(lo), float(hi)
        if math.isfinite(a) and math.isfinite(b) and b - a <= 64:
            codes.extend(float(k) for k in range(math.floor(a) + 1, math.floor(b) + 1))
    return codes or None


def event_words(feature: str, event: Mapping[str, Any], support: Mapping[str, Any] | None,
                labels: tuple[str, str], dtype: str = "float64") -> str:
    """The event as a clause: "<feature> <lies in / equals / is …>"."""
    kind = event.get("kind")
    if feature.startswith("support[") and support is not None:
        return _support_words(feature, event, support, labels, dtype)
    if feature.startswith("lowbits("):
        codes = _codes_in(event)
        base = feature_words(feature[len("lowbits("):-1], dtype)
        if codes is not None:
            items = [_lowbits_code(c, dtype) for c in codes[:MAX_ITEMS]]
            more = " or …" if len(codes) > MAX_ITEMS else ""
            return f"{base} lies " + " or ".join(items) + more
    if feature.startswith("prec("):
        base = feature_words(feature[len("prec("):-1], dtype)
        return f"{base} has " + _range_words(event, "significant bits", integer=True)
    if feature.startswith("joint["):
        return _joint_words(feature, event)
    subject = feature_words(feature, dtype)
    if kind == "threshold":
        op = ">" if event["op"] == ">" else "≤"
        return f"{subject} is {op} {_num(event['t'])}"
    if kind == "atom":
        return f"{subject} equals {_num(event['value'])}"
    if kind == "cell":
        return f"{subject} lies in ({_num(event['lo'])}, {_num(event['hi'])}]"
    ivs = event.get("intervals", [])
    items = [f"({_num(lo)}, {_num(hi)}]" for lo, hi in ivs[:MAX_ITEMS]]
    more = f" or one of {len(ivs) - MAX_ITEMS} more intervals" if len(ivs) > MAX_ITEMS else ""
    return f"{subject} lies in " + " or ".join(items) + more


def _range_words(event: Mapping[str, Any], unit: str, integer: bool = False) -> str:
    kind = event.get("kind")
    if kind == "threshold":
        t = float(event["t"])
        if integer and math.isfinite(t):
            return f"more than {math.floor(t)} {unit}" if event["op"] == ">" else \
                f"at most {math.floor(t)} {unit}"
        return f"{'more than' if event['op'] == '>' else 'at most'} {_num(t)} {unit}"
    codes = _codes_in(event)
    if codes is not None and codes:
        vals = ", ".join(str(int(c)) for c in codes[:MAX_ITEMS])
        return f"{vals}{', …' if len(codes) > MAX_ITEMS else ''} {unit}"
    return f"{unit} in the event {dict(event)}"


def _code_set(event: Mapping[str, Any], top: int) -> set[int]:
    """The codes 0 … ``top`` an event over an integer-coded feature holds."""
    kind = event.get("kind")
    codes = range(top + 1)
    if kind == "threshold":
        t = float(event["t"])
        return {k for k in codes if (k > t) == (event["op"] == ">")}
    if kind == "atom":
        return {int(float(event["value"]))}
    ivs = [(event["lo"], event["hi"])] if kind == "cell" else event.get("intervals", [])
    return {k for k in codes for lo, hi in ivs if float(lo) < k <= float(hi)}


def _joint_words(feature: str, event: Mapping[str, Any]) -> str:
    """Conditions c_1 … c_L are the bits of the code, c_1 the highest: the event as "all of",
    "at least one of", "none of", one pattern, or a list of patterns."""
    conds = _conditions(feature).split("; ")
    n = len(conds)
    top = (1 << n) - 1
    got = _code_set(event, top)
    if not got:
        return f"the conditions {'; '.join(conds)} hold in the pattern of {dict(event)}"
    for mask in range(1, top + 1):
        sub = [conds[k] for k in range(n) if (mask >> (n - 1 - k)) & 1]
        forms = {"all of " + " and ".join(sub) + (" hold" if len(sub) > 1 else " holds"):
                 {c for c in range(top + 1) if c & mask == mask},
                 "at least one of " + " or ".join(sub) + " holds":
                 {c for c in range(top + 1) if c & mask},
                 "none of " + ", ".join(sub) + " holds": {c for c in range(top + 1)
                                                          if not c & mask},
                 "not all of " + " and ".join(sub) + " hold": {c for c in range(top + 1)
                                                               if c & mask != mask}}
        for text, codes in forms.items():
            if codes == got:
                return text if len(sub) > 1 else sub[0] if text.startswith("all") else \
                    f"not ({sub[0]})" if text.startswith(("none", "not")) else sub[0]
    pats = []
    for c in sorted(got)[:MAX_ITEMS]:
        pats.append(" and ".join(cond if (c >> (n - 1 - k)) & 1 else f"not ({cond})"
                                 for k, cond in enumerate(conds)))
    more = f" (or one of {len(got) - MAX_ITEMS} more patterns)" if len(got) > MAX_ITEMS else ""
    return pats[0] if len(pats) == 1 else "either " + "; or ".join(pats) + more


def _support_words(feature: str, event: Mapping[str, Any], support: Mapping[str, Any],
                   labels: tuple[str, str], dtype: str) -> str:
    """Support features are +1 on values seen only under a, −1 on values seen only under b."""
    base = feature_words(str(support.get("base", "value")), dtype)
    a_only, b_only = list(support.get("a_only", [])), list(support.get("b_only", []))
    kind = event.get("kind")

    def listed(vals: list[Any], side: str) -> str:
        if support.get("base") == "pattern":  # hashes of whole rows: no value to show
            return f"one of the {len(vals)} patterns seen in the selection sample under " \
                   f"{side} only"
        if len(vals) == 1:
            return f"{_num(vals[0])}, a value seen in the selection sample under {side} only"
        ex = ", ".join(_num(v) for v in vals[:3]) + (", …" if len(vals) > 3 else "")
        return f"one of the {len(vals)} values seen in the selection sample under {side} " \
               f"only ({ex})"

    grid = f" ({dtype} values)" if dtype != "float64" else ""
    if kind == "threshold":
        t = float(event["t"])
        if event["op"] == ">" and t >= 0:
            return f"{base} is {listed(a_only, labels[0])}{grid}"
        if event["op"] == "<=" and t < 0:
            return f"{base} is {listed(b_only, labels[1])}{grid}"
        if event["op"] == ">" and t < 0:
            return f"{base} is not {listed(b_only, labels[1])}"
        return f"{base} is not {listed(a_only, labels[0])}"
    if kind == "cell":
        hi = float(event["hi"])
        if hi <= -1:
            return f"{base} is {listed(b_only, labels[1])}{grid}"
        if float(event["lo"]) >= 0:
            return f"{base} is {listed(a_only, labels[0])}{grid}"
        return f"{base} was seen under both inputs or neither in the selection sample"
    return f"{base} lies in the support event {dict(event)}"


def describe(cex: Mapping[str, Any], *, structural: bool, dtype: str = "float64") -> str:
    """One sentence for a counterexample: the event, how often it occurred under each input on
    the estimation sample, and for a structural leak that it never occurred under one of
    them."""
    labels = pair_labels(cex.get("neighbours"))
    what = event_words(str(cex.get("feature", "value")), cex.get("event", {}),
                       cex.get("support"), labels, dtype)
    a, b = cex.get("a", {}), cex.get("b", {})
    forward = cex.get("direction", "a>b") == "a>b"
    (big, lb_big), (small, lb_small) = ((a, labels[0]), (b, labels[1])) if forward else \
        ((b, labels[1]), (a, labels[0]))
    try:
        kb, nb = int(big["count"]), int(big["n"])
        ks, ns = int(small["count"]), int(small["n"])
    except (KeyError, TypeError, ValueError):
        return f"The event: {what}."
    often = f"in {_pct(kb / nb)} of draws under {lb_big} ({kb:,} of {nb:,})"
    rare = f"never under {lb_small} (0 of {ns:,})" if ks == 0 else \
        f"in {_pct(ks / ns)} under {lb_small} ({ks:,} of {ns:,})"
    text = f"Event: {what} — it occurred {often} and {rare}."
    if structural:
        text += (f" An output set that {lb_small} never produced and {lb_big} produces "
                 f"often: a structural leak (no finite ε covers it).")
    return text
