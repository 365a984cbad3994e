"""report.html as a reader gets it (issue 17), parsed with a real HTML parser (html5lib).

Both sides of every check come from the page itself: the findings section must precede all
others, every image must be a data URI, no raw LaTeX/Markdown marker may show, every claim id
must have an anchor and a link.  ``page_problems`` is also run on deliberately broken pages to
show that each check can fail.
"""

from __future__ import annotations

import base64
import json

import html5lib
import pytest

from privlab.report import render
from privlab.report.richtext import RAW_MARKERS

NS = "{http://www.w3.org/1999/xhtml}"
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADh"
                       "gGAWjR9awAAAABJRU5ErkJggg==")


def _claim(cid: str, status: str, source: str, statement: str, **kw: object) -> dict:
    return {"id": cid, "source": source, "statement": statement, "status": status,
            "method": "exact", "evidence": kw.pop("evidence", {}),
            "counterexample": kw.pop("counterexample", None), "value": kw.pop("value", None),
            "notes": [], "seconds": 0.1, **kw}


def report() -> dict:
    claims = [
        _claim("ins15:prop-1", "refuted", "002_06f1c381d8beeaa3.txt §4 Proposition 1",
               r"X' is t-close with t = max_E (\|E\|/N)(1 + ε^{-2/3}) and `code`",
               counterexample={"N": 10, "expr": "Delta**3*r**2", "f": "e^{-x/b}"},
               value="9/5"),
        _claim("thesis:sec-7.3-x", "refuted", "000_65177858bc9aa63c.txt §7.3",
               "Releasing it is ε-DP.", counterexample={"a": 1}, value="inf"),
        _claim("thesis:prop-2", "refuted", "000_65177858bc9aa63c.txt §5.1 Proposition 2",
               "A printed number.", counterexample={"b": 2}, value=2,
               evidence={"corrected_value": "1/3"}),
        _claim("thesis:thm-9", "verified", "000_65177858bc9aa63c.txt §4.4", "True thing."),
    ]
    table = {"id": "thesis-4.2", "source": "000_65177858bc9aa63c.txt §4.4 Table 4.2",
             "columns": ["epsilon", "len", "paper_len"],
             "rows": [{"epsilon": 0.5, "len": 11.9784, "paper_len": 11.97},
                      {"epsilon": 0.1, "len": 59.9146, "paper_len": 59.91}], "notes": []}
    section = {"id": "univariate", "title": "Noise", "ok": True,
               "summary": "ratio like ε^{-2/3} and **bold**", "results": [table],
               "figures": [{"file": "figures/a.png", "caption": "A"}], "audits": [],
               "certificates": [], "guarantees": [{"description": "g", "holds": True,
                                                   "evidence": {}}], "seconds": 1.0}
    guarantees = [{"description": "g", "holds": True, "evidence": {}, "section": "univariate"}]
    return {"privlab_version": "0", "seed": 0, "quick": True, "generated": "now",
            "data_dir": None, "seconds": 1.0, "workers": 1,
            "summary": render.summarise(claims, guarantees), "guarantees": guarantees,
            "claims": claims, "tables": {"thesis-4.2": table}, "audits": [],
            "sections": [section]}


def page_problems(page: str, claim_ids: list[str]) -> list[str]:
    """Everything a reader would trip over, found with html5lib."""
    doc = html5lib.parse(page)
    problems = []
    secs = [s.get("id") for s in doc.iter(f"{NS}section")]
    if not secs or secs[0] != "findings":
        problems.append(f"first section is {secs[:1]}")
    for img in doc.iter(f"{NS}img"):
        if not (img.get("src") or "").startswith("data:image/"):
            problems.append(f"image not embedded: {img.get('src')}")
    for bad in ("link", "script"):
        for el in doc.iter(f"{NS}{bad}"):
            if el.get("src") or el.get("href"):
                problems.append(f"external {bad}")
    body = next(doc.iter(f"{NS}body"))
    text = "".join(t for el in body.iter() if el.tag != f"{NS}script"
                   for t in (el.text or "", el.tail or ""))
    problems += [f"raw marker {m!r}" for m in (*RAW_MARKERS, "`") if m in text]
    ids = {el.get("id") for el in doc.iter() if el.get("id")}
    hrefs = {el.get("href") for el in doc.iter(f"{NS}a")}
    from privlab.report.findings import anchor

    for cid in claim_ids:
        if anchor(cid) not in ids or f"#{anchor(cid)}" not in hrefs:
            problems.append(f"claim {cid} not anchored and linked")
    return problems


@pytest.fixture
def page(tmp_path):
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "a.png").write_bytes(PNG)
    rep = report()
    render.write(rep, tmp_path)
    return rep, (tmp_path / "report.html").read_text(encoding="utf-8"), tmp_path


def test_page_is_clean(page):
    rep, html, _ = page
    assert page_problems(html, [c["id"] for c in rep["claims"]]) == []


@pytest.mark.parametrize("breakage, expected", [
    (lambda h: h.replace('src="data:image/png;base64,', 'src="figures/'), "image not embedded"),
    (lambda h: h.replace("ε<sup>−2/3</sup>", "ε^{-2/3}", 1), "raw marker"),
    (lambda h: h.replace('<section id="findings">', '<section id="x">', 1), "first section"),
    (lambda h: h.replace('id="claim-ins15-prop-1"', 'id="gone"'), "not anchored"),
])
def test_checks_catch_broken_pages(page, breakage, expected):
    rep, html, _ = page
    broken = breakage(html)
    assert broken != html
    assert any(expected in p for p in page_problems(broken, [c["id"] for c in rep["claims"]]))


def test_findings_order_and_banner(page):
    _rep, html, _ = page
    doc = html5lib.parse(html)
    rows = [tr for tr in doc.iter(f"{NS}tr") if tr.get("id") is None]
    text = " ".join("".join(tr.itertext()) for tr in rows)
    # the two DP-type statements (privacy-breaking by the stated fallback rule) come before
    # the numeric one, and the synthetic banner shows since data_dir is None
    assert text.index("ins15:prop-1") < text.index("thesis:prop-2")
    assert text.index("thesis:sec-7.3-x") < text.index("thesis:prop-2")
    assert "SYNTHETIC stand-ins" in html
    assert "∞" in text


def test_mismatch_highlight_follows_rule(page):
    _, html, _ = page
    doc = html5lib.parse(html)
    marked = {"".join(td.itertext()) for td in doc.iter(f"{NS}td")
              if td.get("class") == "mismatch"}
    assert marked == {"11.9784", "11.97"}


def test_differs_rule():
    assert render.differs(11.9784, 11.97)        # rounds to 11.98
    assert not render.differs(59.9146, 59.91)
    assert render.differs(1.97e9, 3.07e9)
    assert not render.differs("a", 1.0)


def test_real_fields_preferred_over_fallback():
    rep = report()
    rep["claims"][2].update(kind="privacy", severity="high")  # the ledger says privacy
    rows = render.findings.findings(rep)
    assert {r["id"]: r["severity"] for r in rows}["thesis:prop-2"] == "high"
    assert not {r["id"]: r["derived"] for r in rows}["thesis:prop-2"]


def test_markdown_from_same_data(page):
    _rep, _, d = page
    md = (d / "report.md").read_text(encoding="utf-8")
    assert md.index("ins15:prop-1") < md.index("## Contents")
    assert "^{" not in md and "ε⁻²ᐟ³" in md
    # a pipe inside a Markdown table cell is escaped once (renders as |E|), never twice
    assert "(\\|E\\|/N)" in md and "\\\\|" not in md
    assert json.loads((d / "report.json").read_text())["claims"][0]["id"] == "ins15:prop-1"
