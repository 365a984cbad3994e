"""Seed text to HTML or Markdown without raw markers (issue 17): inline maths written the way
the ledger writes it (``ε^{-2/3}``, ``S_{i+1}``, ``\\|E\\|``, ``\\cup``) becomes Unicode and
``<sup>``/``<sub>`` (no LaTeX engine, no network); Markdown ``code`` and ``**bold**`` become
tags.  Everything is HTML-escaped first, so no text can inject markup.
"""

from __future__ import annotations

import html
import re

from markupsafe import Markup

_LATEX = {r"\cup": "∪", r"\cap": "∩", r"\le": "≤", r"\ge": "≥", r"\leq": "≤", r"\geq": "≥",
          r"\in": "∈", r"\infty": "∞", r"\epsilon": "ε", r"\varepsilon": "ε", r"\delta": "δ",
          r"\Delta": "Δ", r"\alpha": "α", r"\beta": "β", r"\sum": "Σ", r"\cdot": "·",
          r"\times": "×", r"\setminus": "∖", r"\ln": "ln", r"\log": "log", r"\exp": "exp",
          r"\sqrt": "√", r"\neq": "≠", r"\approx": "≈", r"\mathbb{N}": "ℕ", r"\|": "|",
          r"\{": "{", r"\}": "}"}
_CMD = re.compile("|".join(re.escape(k) for k in sorted(_LATEX, key=len, reverse=True))
                  + r"(?![A-Za-z])")
_SUP = str.maketrans("0123456789+-−=()/nik", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᐟⁿⁱᵏ")
_SUB = str.maketrans("0123456789+-−=()ijk", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ᵢⱼₖ")
_SCRIPT = re.compile(r"([\^_])\{([^{}]*)\}")
_POWER = re.compile(r"(?<=[\w)])\*\*(?=[\w(])")
"""Python/sympy power ``x**3`` (never Markdown bold, which follows a space or starts a line)."""
#: markers that must never reach a rendered page (checked by the tests and tools/check_report)
RAW_MARKERS = ("\\|", "^{", "_{", "\\cup", "\\frac", "\\le", "**", "$$")


def _latex_words(text: str) -> str:
    return _CMD.sub(lambda m: _LATEX[m.group(0).rstrip()] if m.group(0) in _LATEX
                    else m.group(0), text).replace("\\-", "-").replace(" \\ ", " ∖ ")


def _scripts_html(text: str) -> str:
    def rep(m: re.Match[str]) -> str:
        tag = "sup" if m.group(1) == "^" else "sub"
        return f"<{tag}>{m.group(2).replace('-', '−')}</{tag}>"
    prev = None
    while prev != text:  # innermost first (nested scripts)
        prev, text = text, _SCRIPT.sub(rep, text)
    return text


def _scripts_text(text: str) -> str:
    def rep(m: re.Match[str]) -> str:
        body = m.group(2)
        table = _SUP if m.group(1) == "^" else _SUB
        conv = body.translate(table)
        if all(ch not in "0123456789+-=()/nikj" or (ch in "ijk" and m.group(1) == "_")
               for ch in conv):
            return conv
        return ("^" if m.group(1) == "^" else "_") + f"({body.replace('-', '−')})"
    prev = None
    while prev != text:
        prev, text = text, _SCRIPT.sub(rep, text)
    return text


def to_html(text: object) -> Markup:
    """One line of ledger text as safe HTML: maths converted, `code` and **bold** tagged."""
    s = html.escape("" if text is None else str(text), quote=False)
    s = _POWER.sub("^", _latex_words(s))
    s = _scripts_html(s)
    s = re.sub(r"\^([−-]?[\w′]+)", lambda m: f"<sup>{m.group(1).replace('-', '−')}</sup>", s)
    s = re.sub(r"`([^`]+)`", r"<code>\1</code>", s)
    s = re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", s)
    s = s.replace("`", "")
    return Markup(s)


def to_text(text: object) -> str:
    """The same line for Markdown/plain text: LaTeX words and scripts as Unicode."""
    s = "" if text is None else str(text)
    return _scripts_text(_POWER.sub("^", _latex_words(s)))


def paragraphs_html(text: str) -> Markup:
    """Markdown prose (section summaries): paragraphs, bullet lists, inline maths and code."""
    parts = []
    for para in (text or "").strip().split("\n\n"):
        lines = para.splitlines()
        if lines and all(ln.lstrip().startswith("- ") for ln in lines):
            parts.append("<ul>" + "".join(f"<li>{to_html(ln.lstrip()[2:])}</li>"
                                          for ln in lines) + "</ul>")
        elif lines:
            parts.append(f"<p>{to_html(' '.join(lines))}</p>")
    return Markup("".join(parts))


def md_cell(text: object) -> str:
    """A Markdown table cell: Unicode maths, pipes escaped, one line."""
    return to_text(text).replace("|", "\\|").replace("\n", " ")
