"""Every file privlab reads from a user, read at the edge with the same rules.

* **Regular files only.**  A FIFO, a device node (``/dev/zero``), a socket or a folder is
  refused before a byte is read; the file is opened with ``O_NONBLOCK`` so that even a FIFO
  that appears between the check and the open cannot block the process.
* **A size cap on every read**, stated in the error: tables (CSV, Parquet) up to
  :data:`TABLE_CAP`, every other input (JSON, TOML, YAML, taxonomies, replay files, session
  lines, reports) up to :data:`DOCUMENT_CAP`.  At most ``cap + 1`` bytes are ever read, so a
  sparse or endless file costs no more memory than the cap.
* **Bounded parsing.**  JSON nesting deeper than :data:`MAX_DEPTH` is refused before the parser
  sees it (no ``RecursionError``); ``NaN``/``Infinity`` literals are refused; decimal numbers
  given as exact fractions (``1e-3``, ``3/7``) have at most :data:`MAX_DECIMAL_CHARS`
  characters and an exponent of at most :data:`MAX_EXPONENT` in magnitude, so that
  ``Fraction('1e999999999')`` is never built.

Every failure is an :class:`~privlab.errors.InvalidParameter` naming the parameter and value.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from fractions import Fraction
from pathlib import Path
from typing import Any

from privlab.errors import InvalidParameter

TABLE_CAP = 4 * 1024 ** 3
"""Largest table file (CSV, Parquet) privlab reads: 4 GiB."""
DOCUMENT_CAP = 64 * 1024 ** 2
"""Largest JSON/TOML/YAML/text input privlab reads: 64 MiB."""
MAX_DEPTH = 64
"""Deepest nesting of arrays and objects accepted in a JSON input."""
MAX_DECIMAL_CHARS = 200
MAX_EXPONENT = 400
"""An exact decimal input has at most 200 characters and |exponent| ≤ 400 (past the range
of a double either way, so no finite float input is refused)."""

_KINDS_OF_FILE = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
                  (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                  (stat.S_ISSOCK, "a socket"))


def kind_of(mode: int) -> str | None:
    """None for a regular file, else what it is (``"a FIFO"``, ``"a folder"``, …)."""
    if stat.S_ISREG(mode):
        return None
    return next((w for test, w in _KINDS_OF_FILE if test(mode)), "a special file")


def _size(n: int) -> str:
    for unit, f in (("GiB", 1024 ** 3), ("MiB", 1024 ** 2), ("KiB", 1024)):
        if n >= f:
            return f"{n / f:.3g} {unit}"
    return f"{n} bytes"


def read_bytes(path: str | os.PathLike[str], param: str, *, cap: int = DOCUMENT_CAP) -> bytes:
    """The bytes of the regular file ``path`` (at most ``cap``), or an error naming ``param``."""
    shown = f"{param}={str(path)!r}"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InvalidParameter(f"{shown} does not exist") from None
    except IsADirectoryError:
        raise InvalidParameter(f"{shown} is a folder, not a regular file") from None
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO without a writer, opened non-blocking
            raise InvalidParameter(f"{shown} is a FIFO, not a regular file") from None
        raise InvalidParameter(f"{shown} cannot be read: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        what = kind_of(st.st_mode)
        if what is not None:
            raise InvalidParameter(f"{shown} is {what}, not a regular file")
        if st.st_size > cap:
            raise InvalidParameter(f"{shown} is {_size(st.st_size)}, over the {_size(cap)} "
                                   f"limit for {param}")
        os.set_blocking(fd, True)
        chunks, total = [], 0
        while total <= cap:
            b = os.read(fd, min(1 << 20, cap + 1 - total))
            if not b:
                break
            chunks.append(b)
            total += len(b)
        if total > cap:  # grew while being read
            raise InvalidParameter(f"{shown} is over the {_size(cap)} limit for {param}")
        return b"".join(chunks)
    except OSError as exc:
        raise InvalidParameter(f"{shown} cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def read_text(path: str | os.PathLike[str], param: str, *, cap: int = DOCUMENT_CAP) -> str:
    """:func:`read_bytes` decoded as UTF-8 (a byte-order mark accepted); a binary file or
    another encoding is refused with the line of the first bad byte."""
    raw = read_bytes(path, param, cap=cap)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise InvalidParameter(f"{param}={str(path)!r} is not utf-8 text (byte "
                               f"0x{raw[exc.start]:02x} on line {line})") from None
    if "\x00" in text:
        raise InvalidParameter(f"{param}={str(path)!r} is a binary file, not text")
    return text


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)


def json_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in the JSON ``text`` (brackets inside strings are not
    counted); linear time, no recursion."""
    depth = top = 0
    for ch in _STRING.sub('""', text):
        if ch in "[{":
            depth += 1
            top = max(top, depth)
        elif ch in "]}":
            depth -= 1
    return top


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def loads_json(text: str, param: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads(text)`` with nesting at most ``max_depth`` and no ``NaN``/``Infinity``;
    errors name ``param``."""
    depth = json_depth(text)
    if depth > max_depth:
        raise InvalidParameter(f"{param}: JSON nested {depth} levels deep, over the limit of "
                               f"{max_depth}")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise InvalidParameter(f"{param} is not valid JSON: {exc}") from None


def load_json(path: str | os.PathLike[str], param: str, *, cap: int = DOCUMENT_CAP,
              max_depth: int = MAX_DEPTH) -> Any:
    """The JSON document in the regular file ``path`` (:func:`read_text`, :func:`loads_json`)."""
    return loads_json(read_text(path, param, cap=cap), f"{param}={str(path)!r}",
                      max_depth=max_depth)


_DECIMAL = re.compile(r"\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE]([+-]?\d+))?\s*")


def exact_number(text: str, param: str) -> Fraction:
    """``text`` (``0.25``, ``1e-3``, ``3/7``) as an exact Fraction, bounded: at most
    :data:`MAX_DECIMAL_CHARS` characters and a decimal exponent of at most
    :data:`MAX_EXPONENT` in magnitude."""
    s = str(text)
    if len(s) > MAX_DECIMAL_CHARS:
        raise InvalidParameter(f"{param}={s[:20]!r}… has {len(s)} characters, over the limit "
                               f"of {MAX_DECIMAL_CHARS}")
    parts = s.split("/")
    if len(parts) > 2:
        raise InvalidParameter(f"{param}={s!r} is not a number")
    for part in parts:
        m = _DECIMAL.fullmatch(part)
        if m is None:
            raise InvalidParameter(f"{param}={s!r} is not a number")
        if m.group(4) is not None and abs(int(m.group(4))) > MAX_EXPONENT:
            raise InvalidParameter(f"{param}={s!r}: exponent {m.group(4)} is outside "
                                   f"±{MAX_EXPONENT}")
    try:
        return Fraction(s.strip())
    except (ValueError, ZeroDivisionError):
        raise InvalidParameter(f"{param}={s!r} is not a number") from None


def not_regular(path: Path) -> str | None:
    """What an existing ``path`` (symlinks followed) is when it is not a regular file."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        return f"cannot be examined ({exc.strerror or exc})"
    what = kind_of(mode)
    return None if what is None else f"is {what}, not a regular file"
