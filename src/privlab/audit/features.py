"""Scalar features of mechanism outputs: how the auditor searches vector, categorical, integer,
floating-point and data-set-valued outputs with one-dimensional events.

An output batch is an array of shape ``(n,)`` (scalar outputs) or ``(n, d)`` (vector outputs:
noisy histograms, the ⊤/⊥ answers of the sparse vector technique, …).  A *feature* is a named
function φ mapping the batch to ``(n,)`` reals; an event of the auditor is {o : φ(o) ∈ S} with S
a union of cells of φ's partition (:mod:`privlab.audit.events`).  Because φ is a fixed function
of the output, such an event is an event of the mechanism's output and the DP inequality
P(M(D) ∈ E) ≤ e^ε P(M(D') ∈ E) + δ applies to it: trying many features during *selection*
costs nothing in soundness (only the chosen event is estimated, on fresh samples).

Built-in features (names are part of the counterexample JSON, so replay recomputes them):

* ``value`` — the output itself (scalar outputs);
* ``x[i]`` — coordinate i; ``sum``, ``max``, ``min``, ``argmax`` (first index of the max) and
  ``count_nonzero`` of a vector output;
* ``proj[w_0,…,w_{d−1}]`` — the linear score o·w of a vector output, with w the difference of
  the two sides' pilot means rounded to one decimal of its largest entry (a linear
  classifier's level sets; it finds shifts spread over several coordinates, e.g. a histogram
  under substitution, where two cells move in opposite directions);
* ``pattern`` — the whole row of a discrete vector output as one category (a deterministic
  64-bit polynomial hash of the integer row, so equality/tie patterns such as SVT's ⊤/⊥ strings
  become atoms);
* ``prec(F)`` — the number of significant mantissa bits of F (:func:`precision`): float32
  noise added to a float64 input leaves float32 values under one input only.  With
  ``float_bits=True`` (float64 outputs).
* ``joint[c_1;…;c_L]`` — Σ_k 2^(L−1−k)·[c_k] for conditions ``x[i]>t``, ``x[i]<=t``,
  ``x[i]~(lo,hi]``: the cell of a vector output in a product of coordinate events;
  ``lrsum[i:cuts:values;…]`` — a learned per-coordinate score Σ_i v_i(x_i) with v_i piecewise
  constant.  Both are fitted on the first selection half (:mod:`privlab.audit.multidim`) and
  carry everything in their names.
* ``lowbits(F)`` — the floating-point structure of feature F: sign, binary exponent and the two
  least significant mantissa bits as one category.  Mironov (CCS 2012) showed that the low bits
  of a naive float release ``x + Y`` depend on x; this feature finds such leaks black-box.  It is
  opt-in (``float_bits=True``) because it audits the *implementation*, not the mechanism's law.

* ``support[h](F)`` — support events of a discrete, coarse or sparse output: with A (B) the
  exact values of feature F seen under side a (b) and never under the other, the feature is +1
  on A, −1 on B, 0 elsewhere, so the event {F ∈ A} ("a value seen under one neighbour only")
  and the complements are among the candidates; it is estimated on fresh samples like every
  other event, and a zero count on one side gives ``structural_leak``.  The sets come from the
  whole first selection half (:mod:`privlab.audit.supportscan`, the default) or, with
  ``support_scan=False``, from the pilot when it repeats values (at most a quarter of them
  distinct: integer and fixed-point outputs, lattices); they are kept in a registry keyed by
  their hash ``h`` and written into the counterexample (``support``) so replay can recompute
  the feature.  Not used with a Dask scheduler (remote workers do not share the registry).

A user feature map ``f(outputs) -> (n,) or (n, k)`` (e.g. for data-set-valued outputs) gives
features ``user[0]``, ``user[1]``, …; replay then needs the same map.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from privlab.errors import InvalidParameter

FeatureMap = Callable[[NDArray[Any]], Any]
MAX_COORDS = 16
LOW_BITS = 2
_COORD = re.compile(r"^x\[(\d+)\]$")
_USER = re.compile(r"^user\[(\d+)\]$")
_LOW = re.compile(r"^lowbits\((.+)\)$")
_PROJ = re.compile(r"^proj\[([-0-9.,e]+)\]$")
_RES = re.compile(r"^resid\[([-0-9.e+]+)\]\((.+)\)$")
_SUP = re.compile(r"^support\[([0-9a-f]+)\]\((.+)\)$")
_PREC = re.compile(r"^prec\((.+)\)$")
_JOINT = re.compile(r"^joint\[(.+)\]$")
_COND = re.compile(r"^x\[(\d+)\](>|<=|~)(.+)$")
_LRSUM = re.compile(r"^lrsum\[(.+)\]$")
IMPLEMENTATION = ("lowbits(", "resid[", "support[", "prec(")
_SUPPORT: dict[str, tuple[NDArray[np.float64], NDArray[np.float64]]] = {}
"""hash -> (values seen under a only, under b only) of the ``support`` features."""
"""Prefixes of the features whose events belong to the implementation (bit patterns, lattice
residues), not to the law of the output values."""


def coordinate(name: str) -> int | None:
    """i for the coordinate feature ``x[i]``, else None."""
    m = _COORD.match(name)
    return int(m.group(1)) if m else None


def event_class(name: str) -> str:
    """"implementation" for bit-pattern / lattice-residue features, else "law"."""
    return "implementation" if name.startswith(IMPLEMENTATION) else "law"


def check_batch(out: Any, name: str, n: int) -> NDArray[Any]:
    """Validate one sampler batch: shape (n,) or (n, d), real or boolean, no NaN."""
    arr = np.asarray(out)
    if arr.ndim not in (1, 2) or arr.shape[0] != n or (arr.ndim == 2 and arr.shape[1] < 1):
        raise InvalidParameter(f"{name} returned an array of shape {arr.shape} for n={n}; "
                               f"expected shape ({n},) of scalar outputs or ({n}, d) of vectors")
    if arr.dtype.kind not in "biuf":
        raise InvalidParameter(f"{name} returned dtype {arr.dtype}; expected real numbers")
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise InvalidParameter(f"{name} returned NaN outputs")
    return arr


def _projection(batch: NDArray[Any], other: NDArray[Any] | None) -> list[str]:
    if other is None or batch.ndim != 2 or batch.shape[1] < 2:
        return []
    w = batch.mean(axis=0) - other.mean(axis=0)
    top = float(np.max(np.abs(w)))
    if not np.isfinite(top) or top == 0:
        return []
    r = np.round(w / top, 1)
    if np.count_nonzero(r) < 2:
        return []
    return ["proj[" + ",".join(f"{x:g}" for x in r + 0.0) + "]"]


def _support_feature(base: str, x: NDArray[Any], y: NDArray[Any]) -> str | None:
    """``support[h](base)`` for pilot feature values x (side a) and y (side b), registering
    the one-sided value sets; None when values do not repeat or both supports agree."""
    ux, uy = np.unique(x), np.unique(y)
    if np.union1d(ux, uy).size > (x.size + y.size) // 4:
        return None
    a_only, b_only = np.setdiff1d(ux, uy), np.setdiff1d(uy, ux)
    if a_only.size == 0 and b_only.size == 0:
        return None
    return register_support({"a_only": a_only.tolist(), "b_only": b_only.tolist(),
                             "base": base})


def register_support(sets: Mapping[str, Any]) -> str:
    """Register one-sided value sets (as written in a counterexample's ``support``) and return
    the feature name ``support[h](base)``."""
    try:
        a = np.unique(np.asarray(sets["a_only"], dtype=np.float64))
        b = np.unique(np.asarray(sets["b_only"], dtype=np.float64))
        base = str(sets["base"])
    except (KeyError, TypeError, ValueError):
        raise InvalidParameter(f"support={sets!r} must hold a_only, b_only (numbers) and "
                               f"base") from None
    h = hashlib.blake2b(a.tobytes() + b"|" + b.tobytes(), digest_size=8).hexdigest()
    _SUPPORT[h] = (a, b)
    return f"support[{h}]({base})"


def support_sets(name: str) -> dict[str, Any] | None:
    """The registered sets of a ``support`` feature (for the counterexample), else None."""
    m = _SUP.match(name)
    if not m or m.group(1) not in _SUPPORT:
        return None
    a, b = _SUPPORT[m.group(1)]
    return {"a_only": a.tolist(), "b_only": b.tolist(), "base": m.group(2)}


def default_features(batch: NDArray[Any], *, float_bits: bool = False,
                     user: FeatureMap | None = None,
                     other: NDArray[Any] | None = None,
                     support: bool = True) -> tuple[str, ...]:
    """The features searched for outputs like ``batch`` (a pilot batch of one side;
    ``other`` is the other side's pilot, used by the ``proj`` feature)."""
    if user is not None:
        k = _user_matrix(user, batch).shape[1]
        names = [f"user[{i}]" for i in range(k)]
        return tuple(names + ([f"lowbits({x})" for x in names] if float_bits else []))
    if batch.ndim == 1:
        names = ["value"]
    else:
        d = batch.shape[1]
        names = [f"x[{i}]" for i in range(min(d, MAX_COORDS))]
        if d > 1:
            names += ["sum", "max", "min", "argmax", "count_nonzero"]
            names += _projection(batch, other)
            if batch.dtype.kind in "biu" or np.array_equal(batch, np.round(batch)):
                names.append("pattern")
    base = [x for x in names if x in ("value", "x[0]", "sum", "max")]
    own = [x for x in base if x in ("value", "x[0]")]
    coarse = batch.dtype.kind in "biu" or (batch.dtype.kind == "f" and batch.dtype.itemsize < 8)
    if float_bits and batch.dtype.kind == "f" and batch.dtype.itemsize == 8:
        names += [f"lowbits({x})" for x in base] + [f"prec({x})" for x in own]
    elif coarse:  # support events of a coarse grid: part of the default search
        names += [f"lowbits({x})" for x in own]
    if other is not None:
        for x in own:
            g = lattice_spacing(compute(x, batch), compute(x, other))
            if g is not None:
                names.append(f"resid[{g!r}]({x})")
        if support:
            for x in own + [x for x in names if x == "pattern"]:
                sup = _support_feature(x, compute(x, batch), compute(x, other))
                if sup is not None:
                    names.append(sup)
    return tuple(names)


def _user_matrix(user: FeatureMap, batch: NDArray[Any]) -> NDArray[np.float64]:
    m = np.asarray(user(batch))
    n = batch.shape[0]
    if m.ndim == 1:
        m = m[:, None]
    if m.ndim != 2 or m.shape[0] != n or m.dtype.kind not in "biuf":
        raise InvalidParameter(f"features returned an array of shape {m.shape}, dtype {m.dtype} "
                               f"for {n} outputs; expected real ({n},) or ({n}, k)")
    m = m.astype(np.float64)
    if np.isnan(m).any():
        raise InvalidParameter("features returned NaN")
    return m


def _pattern(batch: NDArray[Any]) -> NDArray[np.float64]:
    rows = np.asarray(batch).reshape(batch.shape[0], -1).astype(np.int64)
    h = np.zeros(rows.shape[0], dtype=np.uint64)
    mult = np.uint64(1_000_003)
    with np.errstate(over="ignore"):
        for j in range(rows.shape[1]):
            h = h * mult + rows[:, j].astype(np.uint64) + np.uint64(j + 1)
    return (h >> np.uint64(11)).astype(np.float64)  # < 2^53: exact as a float


_FLOAT_LAYOUT = {2: (np.uint16, 10, 0x1F, 15), 4: (np.uint32, 23, 0xFF, 127),
                 8: (np.uint64, 52, 0x7FF, 1023)}
"""bytes -> (unsigned view, mantissa bits, exponent mask, bias) of IEEE float16/32/64."""


def lowbits(x: NDArray[Any]) -> NDArray[np.float64]:
    """Category (sign, binary exponent, low ``LOW_BITS`` bits) of each output in ``x``, read in
    the output's *own* dtype: float16/32/64 bit layouts, and for integers (any width, beyond
    2^53 without loss) the sign, bit length and low bits of the exact value."""
    arr = np.asarray(x)
    low_mask = (1 << LOW_BITS) - 1
    if arr.dtype.kind in "biu":
        if arr.dtype.kind == "u":
            sign, mag = np.zeros(arr.shape, np.int64), arr.astype(np.uint64)
        else:
            ints = arr.astype(np.int64)
            sign = (ints < 0).astype(np.int64)
            # |x| as uint64, exact also for the most negative int64
            mag = np.where(ints < 0, (~ints.view(np.uint64)) + np.uint64(1), ints.view(np.uint64))
        e = np.minimum(np.frexp(mag.astype(np.float64))[1], 64).astype(np.int64)  # ± 1 off
        top = np.left_shift(np.uint64(1), np.maximum(e - 1, 0).astype(np.uint64))
        blen = np.where(mag == 0, 0, np.where(top > mag, e - 1, e))  # exact bit length
        low = (mag & np.uint64(low_mask)).astype(np.int64)
        return ((blen * 2 + sign) * (1 << LOW_BITS) + low).astype(np.float64)
    if arr.dtype.kind != "f" or arr.dtype.itemsize not in _FLOAT_LAYOUT:
        arr = arr.astype(np.float64)
    ui, mant, emask, bias = _FLOAT_LAYOUT[arr.dtype.itemsize]
    bits = np.ascontiguousarray(arr).view(ui).astype(np.uint64)
    width = 8 * arr.dtype.itemsize
    sign = (bits >> np.uint64(width - 1)).astype(np.int64)
    expo = ((bits >> np.uint64(mant)) & np.uint64(emask)).astype(np.int64)
    low = (bits & np.uint64(low_mask)).astype(np.int64)
    code = ((expo - bias) * 2 + sign) * (1 << LOW_BITS) + low
    return code.astype(np.float64)


def _raw(name: str, batch: NDArray[Any]) -> NDArray[Any] | None:
    """The output column of feature ``name`` in its own dtype (None: a derived feature)."""
    if name == "value" and batch.ndim == 1:
        return batch
    m = _COORD.match(name)
    if m and batch.ndim == 2 and int(m.group(1)) < batch.shape[1]:
        return batch[:, int(m.group(1))]
    return None


def lattice_spacing(x: NDArray[Any], y: NDArray[Any]) -> float | None:
    """A spacing g > 0 such that every pilot output of each side lies on its own lattice
    r + gℤ (None when the outputs are not on a common-spacing lattice, or both sides share the
    lattice's offset so residues carry no information beyond the law)."""
    gs = []
    for z in (x, y):
        u = np.unique(np.asarray(z, dtype=np.float64))
        if u.size < 3 or u.size > z.size // 4:
            return None
        d = np.diff(u)
        g = float(d.min())
        if g <= 0 or not np.allclose(d / g, np.round(d / g), rtol=0, atol=1e-6):
            return None
        gs.append(g)
    g = min(gs)
    if not np.isclose(max(gs) / g, round(max(gs) / g), atol=1e-6):
        return None
    return g


def residue(x: NDArray[Any], g: float) -> NDArray[np.float64]:
    """(x / g) mod 1, rounded to 6 decimals: the offset of x on the lattice gℤ."""
    r = np.mod(np.asarray(x, dtype=np.float64) / g, 1.0)
    r = np.round(r, 6)
    return np.where(r >= 1.0, 0.0, r)


def precision(x: NDArray[Any]) -> NDArray[np.float64]:
    """Significant bits of each float in ``x``, read in its own dtype (float16/32/64): the
    mantissa with its implicit leading bit, less its trailing zeros — 53 for a float64 that
    uses every bit, at most 24 for a float32 value written as a float64, 0 for zero.  A float
    released at a precision that depends on the input (float32 noise added to a float64 input:
    under x = 0 every output is a float32 value, under x = 1 almost none is) differs in this
    feature although its values look continuous; integers count as exact (the bit length of
    |x| less its trailing zeros)."""
    arr = np.asarray(x)
    if arr.dtype.kind in "biu":
        mag = np.abs(arr.astype(np.int64)).astype(np.uint64)
        tz = _trailing_zeros(mag)
        blen = np.where(mag == 0, 0, np.floor(np.log2(np.maximum(mag, 1).astype(np.float64)))
                        + 1)
        return np.where(mag == 0, 0.0, blen - tz).astype(np.float64)
    if arr.dtype.kind != "f" or arr.dtype.itemsize not in _FLOAT_LAYOUT:
        arr = arr.astype(np.float64)
    ui, mant, emask, _bias = _FLOAT_LAYOUT[arr.dtype.itemsize]
    bits = np.ascontiguousarray(arr).view(ui).astype(np.uint64)
    frac = bits & np.uint64((1 << mant) - 1)
    expo = (bits >> np.uint64(mant)) & np.uint64(emask)
    full = np.where(expo == 0, frac, frac | np.uint64(1 << mant))  # subnormals: no hidden bit
    width = np.where(expo == 0, float(mant), float(mant + 1))
    out = width - _trailing_zeros(full)
    return np.where(full == 0, 0.0, out).astype(np.float64)


def _trailing_zeros(v: NDArray[np.uint64]) -> NDArray[np.float64]:
    """Trailing zero bits of each (non-zero) unsigned 64-bit integer (0 for zero)."""
    low = v & (~v + np.uint64(1))  # the lowest set bit (two's complement)
    with np.errstate(divide="ignore"):
        tz = np.log2(low.astype(np.float64))  # exact: a power of two
    return np.where(v == 0, 0.0, tz)


def short_float(x: float, lo: float, hi: float) -> float:
    """The shortest decimal in the open interval (lo, hi) around ``x`` (``x`` itself when
    none is shorter): thresholds of derived features are written in their names, and a
    threshold anywhere strictly between the neighbouring edges cuts the sample the same way
    up to the few values in between."""
    if not (math.isfinite(x) and lo < x < hi):
        return float(x)
    for d in range(1, 18):
        y = float(f"{x:.{d}g}")
        if lo < y < hi:
            return y
    return float(x)


def cond_text(i: int, op: str, a: float, b: float | None = None) -> str:
    """A condition of a ``joint`` feature: ``x[i]>t``, ``x[i]<=t`` or ``x[i]~(lo,hi]``."""
    if op == "~":
        return f"x[{i}]~({a!r},{b!r}]"
    return f"x[{i}]{op}{a!r}"


def _condition(text: str, batch: NDArray[Any], name: str) -> NDArray[np.bool_]:
    m = _COND.match(text)
    if not m:
        raise InvalidParameter(f"feature {name!r}: {text!r} is not a condition x[i]>t, x[i]<=t "
                               f"or x[i]~(lo,hi]")
    i, op, rest = int(m.group(1)), m.group(2), m.group(3)
    if i >= batch.shape[1]:
        raise InvalidParameter(f"feature {name!r}: outputs have {batch.shape[1]} coordinates")
    col = batch[:, i].astype(np.float64)
    try:
        if op == "~":
            if not (rest.startswith("(") and rest.endswith("]")):
                raise ValueError(rest)
            lo, hi = (float(z) for z in rest[1:-1].split(","))
            return (col > lo) & (col <= hi)
        t = float(rest)
    except ValueError:
        raise InvalidParameter(f"feature {name!r}: {text!r} has a bad number") from None
    return col > t if op == ">" else col <= t


def _joint(name: str, conds: str, batch: NDArray[Any]) -> NDArray[np.float64]:
    """Σ_k 2^(L−1−k)·[condition k]: the cell of the output in the product of L coordinate
    events (its thresholds and cells are the intersections, unions and mixed events)."""
    parts = conds.split(";")
    out = np.zeros(batch.shape[0], dtype=np.float64)
    for c in parts:
        out *= 2.0
        out += _condition(c, batch, name)
    return out


def _lrsum(name: str, body: str, batch: NDArray[Any]) -> NDArray[np.float64]:
    """Σ_i v_i(x_i): a learned per-coordinate score, each term piecewise constant —
    ``i:c_1/…/c_{k−1}:v_1/…/v_k`` per coordinate, separated by ``;``, with cells
    (−∞, c_1], (c_1, c_2], …, (c_{k−1}, ∞) (:mod:`privlab.audit.multidim`)."""
    out = np.zeros(batch.shape[0], dtype=np.float64)
    for term in body.split(";"):
        try:
            i_txt, cuts_txt, vals_txt = term.split(":")
            i = int(i_txt)
            cuts = np.array([float(z) for z in cuts_txt.split("/")] if cuts_txt else [])
            vals = np.array([float(z) for z in vals_txt.split("/")])
        except ValueError:
            raise InvalidParameter(f"feature {name!r}: bad term {term!r}") from None
        if vals.size != cuts.size + 1 or i >= batch.shape[1] or \
                not bool(np.all(np.diff(cuts) > 0)):
            raise InvalidParameter(f"feature {name!r}: bad term {term!r}")
        out += vals[np.searchsorted(cuts, batch[:, i].astype(np.float64), side="left")]
    return out


def compute(name: str, batch: NDArray[Any], user: FeatureMap | None = None) -> NDArray[np.float64]:
    """Feature ``name`` of every output in ``batch`` (shape (n,))."""
    m = _LOW.match(name)
    if m:
        raw = _raw(m.group(1), batch)
        return lowbits(raw if raw is not None else compute(m.group(1), batch, user))
    m = _PREC.match(name)
    if m:
        raw = _raw(m.group(1), batch)
        return precision(raw if raw is not None else compute(m.group(1), batch, user))
    m = _RES.match(name)
    if m:
        return residue(compute(m.group(2), batch, user), float(m.group(1)))
    m = _SUP.match(name)
    if m:
        if m.group(1) not in _SUPPORT:
            raise InvalidParameter(f"feature {name!r}: its value sets are unknown (replay needs "
                                   f"the counterexample's 'support')")
        a, b = _SUPPORT[m.group(1)]
        y = compute(m.group(2), batch, user)
        return np.isin(y, a).astype(np.float64) - np.isin(y, b).astype(np.float64)
    m = _USER.match(name)
    if m:
        if user is None:
            raise InvalidParameter(f"feature {name!r} needs the user feature map (features=...)")
        mat = _user_matrix(user, batch)
        i = int(m.group(1))
        if i >= mat.shape[1]:
            raise InvalidParameter(f"feature {name!r}: the feature map has {mat.shape[1]} columns")
        return mat[:, i]
    if name == "value":
        if batch.ndim != 1:
            raise InvalidParameter(f"feature 'value' needs scalar outputs, got shape {batch.shape}")
        return batch.astype(np.float64)
    if batch.ndim != 2:
        raise InvalidParameter(f"feature {name!r} needs vector outputs, got shape {batch.shape}")
    m = _JOINT.match(name)
    if m:
        return _joint(name, m.group(1), batch)
    m = _LRSUM.match(name)
    if m:
        return _lrsum(name, m.group(1), batch)
    m = _PROJ.match(name)
    if m:
        w = np.array([float(x) for x in m.group(1).split(",")])
        if w.size != batch.shape[1]:
            raise InvalidParameter(f"feature {name!r}: outputs have {batch.shape[1]} coordinates")
        return np.asarray(batch, dtype=np.float64) @ w
    m = _COORD.match(name)
    if m:
        i = int(m.group(1))
        if i >= batch.shape[1]:
            raise InvalidParameter(f"feature {name!r}: outputs have {batch.shape[1]} coordinates")
        return batch[:, i].astype(np.float64)
    simple: dict[str, Callable[[NDArray[Any]], Any]] = {
        "sum": lambda b: b.sum(axis=1), "max": lambda b: b.max(axis=1),
        "min": lambda b: b.min(axis=1), "argmax": lambda b: b.argmax(axis=1),
        "count_nonzero": lambda b: np.count_nonzero(b, axis=1), "pattern": _pattern}
    if name not in simple:
        raise InvalidParameter(f"feature={name!r} is not a known feature")
    return np.asarray(simple[name](batch), dtype=np.float64)


def compute_all(names: Sequence[str], batch: NDArray[Any],
                user: FeatureMap | None = None) -> list[NDArray[np.float64]]:
    return [compute(nm, batch, user) for nm in names]
