"""privlab._input: regular files only, a cap on every read, bounded JSON and decimals."""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path

import pytest

from privlab._input import (
    MAX_DEPTH,
    exact_number,
    json_depth,
    load_json,
    loads_json,
    read_bytes,
    read_text,
)
from privlab.errors import InvalidParameter


def test_fifo_device_folder_and_missing_are_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    for p, what in ((fifo, "a FIFO"), (Path("/dev/zero"), "a character device"),
                    (tmp_path, "a folder"), (tmp_path / "no", "does not exist")):
        with pytest.raises(InvalidParameter, match=what) as e:
            read_bytes(p, "--data")
        assert str(e.value).startswith(f"--data={str(p)!r}")


def test_the_cap_is_stated_and_never_exceeded(tmp_path: Path) -> None:
    p = tmp_path / "big"
    with open(p, "wb") as fh:  # sparse: 2 GiB on paper, nothing on disk
        fh.truncate(2 * 1024 ** 3)
    with pytest.raises(InvalidParameter, match=r"2 GiB, over the 1 KiB limit for --replay"):
        read_bytes(p, "--replay", cap=1024)
    q = tmp_path / "ok"
    q.write_bytes(b"x" * 1024)
    assert read_bytes(q, "--replay", cap=1024) == b"x" * 1024


def test_text_is_utf8_and_binary_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "t"
    p.write_bytes(b"a\n\xe9\n")
    with pytest.raises(InvalidParameter, match="byte 0xe9 on line 2"):
        read_text(p, "--x")
    p.write_bytes(b"a\x00b")
    with pytest.raises(InvalidParameter, match="binary"):
        read_text(p, "--x")
    p.write_bytes("\ufeffé".encode())
    assert read_text(p, "--x") == "é"


def test_json_nesting_and_constants_are_bounded(tmp_path: Path) -> None:
    assert json_depth('{"a": ["[[[", {"b": []}]}') == 4
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(InvalidParameter, match="100000 levels deep"):
        loads_json(deep, "--from-json")
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads_json(ok, "x") is not None
    for bad in ("[NaN]", '{"a": Infinity}', "[-Infinity]", "{"):
        with pytest.raises(InvalidParameter, match="not valid JSON"):
            loads_json(bad, "--from-json")
    p = tmp_path / "j.json"
    p.write_text('{"a": [1, 2]}')
    assert load_json(p, "--from-json") == {"a": [1, 2]}


@pytest.mark.parametrize(("text", "value"), [("0.25", Fraction(1, 4)), ("1e-3", Fraction(1, 1000)),
                                             ("3/7", Fraction(3, 7)), (" 2 ", Fraction(2)),
                                             ("1e308", Fraction(10) ** 308)])
def test_exact_numbers(text: str, value: Fraction) -> None:
    assert exact_number(text, "--prior") == value


@pytest.mark.parametrize("text", ["1e999999999", "1e-401", "x", "1/0", "1/2/3", "nan", "inf",
                                  "9" * 201])
def test_unbounded_or_bad_decimals_are_refused(text: str) -> None:
    with pytest.raises(InvalidParameter, match=r"^--prior="):
        exact_number(text, "--prior")
