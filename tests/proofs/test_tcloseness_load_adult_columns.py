"""``load_adult`` converts column by column (``map(float, …)``) instead of row by row; the
former row-by-row conversion is kept here as the oracle: the same bits (signed zeros,
exponents, blanks around numbers), the same dtype, shape and row-major layout."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from privlab.proofs.tcloseness.tables import ADULT_QI, load_adult


def old_rows_load(data_dir):
    with (Path(data_dir) / "adult.csv").open() as fh:
        r = csv.reader(fh)
        header = next(r, [])
        raw = [row for row in r if row]
    col = {h: i for i, h in enumerate(header)}
    ic, iq = col["hours-per-week"], [col[k] for k in ADULT_QI]
    kept = [row for row in raw
            if "?" not in "".join(row) or "?" not in {v.strip() for v in row}]
    c = np.array([float(row[ic]) for row in kept])
    q = np.array([[float(row[i]) for i in iq] for row in kept])
    return c, q, ADULT_QI


def _same_bits(a, b):
    assert a[2] == b[2]
    for x, y in zip(a[:2], b[:2], strict=True):
        assert x.dtype == y.dtype and x.shape == y.shape
        assert x.flags["C_CONTIGUOUS"] == y.flags["C_CONTIGUOUS"]
        assert x.tobytes() == y.tobytes()


def test_columns_equal_the_row_conversion(tmp_path):
    head = "age,education-num,capital-gain,capital-loss,occupation,hours-per-week\n"
    body = ("39,13,2174,0, Adm-clerical,40\n"
            "-0,13,0,1e3, ?,13\n"
            "\n"
            " 38 ,9,0.5,-0.0, Tech?support,40.25\n"
            "53,7,1E-3,0,Sales , 40\n"
            "28,13,0,0,?x,45\n")
    (tmp_path / "adult.csv").write_text(head + body)
    _same_bits(load_adult(tmp_path), old_rows_load(tmp_path))
    (tmp_path / "adult.csv").write_text(head)  # no rows
    _same_bits(load_adult(tmp_path), old_rows_load(tmp_path))


def test_columns_on_the_real_file_when_present():
    from privlab._data import data_file

    p = data_file("adult.csv")
    if p is None:
        pytest.skip("adult.csv not in the data directory")
    _same_bits(load_adult(p.parent), old_rows_load(p.parent))
