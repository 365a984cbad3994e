"""Issue 19: the microaggregation kernels allocate their work arrays in numpy and call
every compiled helper with one signature (less numba compile work on a cold cache).  The
kernels must stay bit-for-bit the kernels before that change: the old kernels are kept here
verbatim as oracles and compared on grids of random inputs (n, k, dimensions, ties).

Mutants of the change these tests catch (each tried): ``label = r - r`` → ``label = 0`` in
MDAV or ``t = r - r`` → ``t = 0`` in categorical (literal specialisation, two signatures:
the signature test); labels starting at 1 (identity tests); ``used`` not cleared in ``_take``
(the kernel reads out of bounds: the run crashes); ``min(rem[q], need)`` rewritten with the
wrong comparison; the centroid tolerance scale ``max(1, |best|)`` rewritten as ``min``
(synthetic spaces); ``ptr`` of :func:`_take_by_orders` started at ones; the MDAV copy of the
input replaced by ``np.ascontiguousarray(z0.T)`` (a view when m = 1: the input is changed).
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from privlab.mechanisms.microaggregation import categorical as cat
from privlab.mechanisms.microaggregation import insensitive as ins
from privlab.mechanisms.microaggregation import mdav_algorithm as mda
from privlab.mechanisms.microaggregation.core import canonical_order
from privlab.mechanisms.microaggregation.taxonomy import project_taxonomy


# ---- the kernels before the change (verbatim; oracles) -------------------------------------
@numba.njit(nogil=True)  # not cached: the module name depends on how pytest imports it
def _old_sq_dist(zt, r, p, d):
    m = zt.shape[0]
    p0 = p[0]
    for t in range(r):
        diff = zt[0, t] - p0
        d[t] = diff * diff
    for j in range(1, m):
        pj = p[j]
        for t in range(r):
            diff = zt[j, t] - pj
            d[t] += diff * diff


@numba.njit(nogil=True)  # not cached: the module name depends on how pytest imports it
def _old_farthest(d, r, flag):
    best = -1.0
    arg = 0
    for t in range(r):
        if d[t] > best and not flag[t]:
            best = d[t]
            arg = t
    return arg


@numba.njit(nogil=True)  # not cached: the module name depends on how pytest imports it
def _old_take_nearest(d, r, centre, k, flag, bd, bt):
    d[centre] = -1.0
    cnt = 0
    lim = np.inf
    for t in range(r):
        dt = d[t]
        if dt >= lim or flag[t]:
            continue
        pos = cnt if cnt < k else k - 1
        while pos > 0 and bd[pos - 1] > dt:
            if pos < k:
                bd[pos] = bd[pos - 1]
                bt[pos] = bt[pos - 1]
            pos -= 1
        bd[pos] = dt
        bt[pos] = t
        if cnt < k:
            cnt += 1
        if cnt == k:
            lim = bd[k - 1]
    for s in range(k):
        flag[bt[s]] = True


@numba.njit(nogil=True)  # not cached: the module name depends on how pytest imports it
def _old_compact(zt, idx, r, flag, mean):
    m = zt.shape[0]
    s0 = 0.0
    s1 = 0.0
    s2 = 0.0
    s3 = 0.0
    for j in range(m):
        mean[j] = 0.0
    w = 0
    for t in range(r):
        if flag[t]:
            flag[t] = False
            continue
        if w != t:
            for j in range(m):
                zt[j, w] = zt[j, t]
            idx[w] = idx[t]
        s0 += zt[0, w]
        if m > 1:
            s1 += zt[1, w]
            if m > 2:
                s2 += zt[2, w]
                if m > 3:
                    s3 += zt[3, w]
                    for j in range(4, m):
                        mean[j] += zt[j, w]
        w += 1
    mean[0] = s0
    if m > 1:
        mean[1] = s1
    if m > 2:
        mean[2] = s2
    if m > 3:
        mean[3] = s3
    if w > 0:
        for j in range(m):
            mean[j] /= w
    return w


@numba.njit(nogil=True)  # not cached: the module name depends on how pytest imports it
def _old_cluster_around(zt, idx, r, centre, k, d, flag, p, bd, bt, lab, label):
    for j in range(zt.shape[0]):
        p[j] = zt[j, centre]
    _old_sq_dist(zt, r, p, d)
    _old_take_nearest(d, r, centre, k, flag, bd, bt)
    for s in range(k):
        lab[idx[bt[s]]] = label


@numba.njit(nogil=True)  # not cached: the module name depends on how pytest imports it
def _old_mdav_kernel(z0, k):
    n, m = z0.shape
    zt = np.ascontiguousarray(z0.T)
    idx = np.arange(n)
    lab = np.full(n, -1, dtype=np.int64)
    d = np.empty(n)
    bd = np.empty(k)
    bt = np.empty(k, dtype=np.int64)
    flag = np.zeros(n, dtype=np.bool_)
    p = np.empty(m)
    mean = np.zeros(m)
    r = _old_compact(zt, idx, n, flag, mean)
    label = 0
    while r >= 3 * k:
        _old_sq_dist(zt, r, mean, d)
        a = _old_farthest(d, r, flag)
        _old_cluster_around(zt, idx, r, a, k, d, flag, p, bd, bt, lab, label)
        b = _old_farthest(d, r, flag)
        _old_cluster_around(zt, idx, r, b, k, d, flag, p, bd, bt, lab, label + 1)
        label += 2
        r = _old_compact(zt, idx, r, flag, mean)
    if r >= 2 * k:
        _old_sq_dist(zt, r, mean, d)
        a = _old_farthest(d, r, flag)
        _old_cluster_around(zt, idx, r, a, k, d, flag, p, bd, bt, lab, label)
        label += 1
        r = _old_compact(zt, idx, r, flag, mean)
    for t in range(r):
        lab[idx[t]] = label
    return lab


@numba.njit(nogil=True)  # not cached: the module name depends on how pytest imports it
def _old_centroid(cnt, dist, anc, tol, out):
    m, c_max = cnt.shape
    mg = np.empty(c_max)
    cand = np.zeros(c_max, dtype=np.bool_)
    for j in range(m):
        for c in range(c_max):
            cand[c] = False
            mg[c] = 0.0
        for s in range(c_max):
            if cnt[j, s] > 0:
                for c in range(c_max):
                    if anc[j, s, c]:
                        cand[c] = True
                    mg[c] += cnt[j, s] * dist[j, s, c]
        best = np.inf
        for c in range(c_max):
            if cand[c] and mg[c] < best:
                best = mg[c]
        lim = best + tol * max(1.0, abs(best))
        for c in range(c_max):
            if cand[c] and mg[c] <= lim:
                out[j] = c
                break


@numba.njit(nogil=True)  # not cached: the module name depends on how pytest imports it
def _old_distances(u, centre, dist, norm, d):
    p_n, m = u.shape
    for p in range(p_n):
        s = 0.0
        for j in range(m):
            t = dist[j, u[p, j], centre[j]] / norm[j]
            s += t * t
        d[p] = s


@numba.njit(nogil=True)  # not cached: the module name depends on how pytest imports it
def _old_cat_farthest(rem, d, tol):
    best = -1.0
    for p in range(rem.shape[0]):
        if rem[p] > 0 and d[p] > best:
            best = d[p]
    for p in range(rem.shape[0]):
        if rem[p] > 0 and d[p] >= best - tol:
            return p
    return -1


@numba.njit(nogil=True)  # not cached: the module name depends on how pytest imports it
def _old_take(u, rem, cnt, a, k, dist, norm, d, tol, label, trip, t):
    _old_distances(u, u[a], dist, norm, d)
    d[a] = -1.0
    used = np.zeros(rem.shape[0], dtype=np.bool_)
    need = k
    m = u.shape[1]
    while need > 0:
        best = np.inf
        for p in range(rem.shape[0]):
            if rem[p] > 0 and not used[p] and d[p] < best:
                best = d[p]
        q = -1
        for p in range(rem.shape[0]):
            if rem[p] > 0 and not used[p] and d[p] <= best + tol:
                q = p
                break
        used[q] = True
        got = min(rem[q], need)
        rem[q] -= got
        need -= got
        for j in range(m):
            cnt[j, u[q, j]] -= got
        trip[t, 0] = label
        trip[t, 1] = q
        trip[t, 2] = got
        t += 1
    return t


@numba.njit(nogil=True)  # not cached: the module name depends on how pytest imports it
def _old_mdav_tuples(u, w, dist, anc, norm, k, mtol, rtol):
    p_n, m = u.shape
    rem = w.copy()
    n = 0
    for p in range(p_n):
        n += w[p]
    cnt = np.zeros((m, dist.shape[1]), dtype=np.int64)
    for p in range(p_n):
        for j in range(m):
            cnt[j, u[p, j]] += w[p]
    trip = np.empty((n + p_n, 3), dtype=np.int64)
    d = np.empty(p_n)
    cen = np.zeros(m, dtype=np.int64)
    t = 0
    r = n
    label = 0
    while r >= 3 * k:
        _old_centroid(cnt, dist, anc, mtol, cen)
        _old_distances(u, cen, dist, norm, d)
        a = _old_cat_farthest(rem, d, rtol)
        t = _old_take(u, rem, cnt, a, k, dist, norm, d, rtol, label, trip, t)
        label += 1
        _old_distances(u, u[a], dist, norm, d)
        b = _old_cat_farthest(rem, d, rtol)
        t = _old_take(u, rem, cnt, b, k, dist, norm, d, rtol, label, trip, t)
        label += 1
        r -= 2 * k
    if r >= 2 * k:
        _old_centroid(cnt, dist, anc, mtol, cen)
        _old_distances(u, cen, dist, norm, d)
        a = _old_cat_farthest(rem, d, rtol)
        t = _old_take(u, rem, cnt, a, k, dist, norm, d, rtol, label, trip, t)
        label += 1
    for p in range(p_n):
        if rem[p] > 0:
            trip[t, 0] = label
            trip[t, 1] = p
            trip[t, 2] = rem[p]
            t += 1
    return trip[:t]


@numba.njit(nogil=True)  # not cached: the module name depends on how pytest imports it
def _old_take_by_orders(perms, reverse, step_order, k):
    p, n = perms.shape
    lab = np.full(n, -1, dtype=np.int64)
    ptr = np.zeros(p, dtype=np.int64)
    r = n
    i = 0
    while r >= 2 * k:
        o = step_order[i]
        got = 0
        while got < k:
            pos = ptr[o]
            rec = perms[o, n - 1 - pos] if reverse[o] else perms[o, pos]
            ptr[o] = pos + 1
            if lab[rec] < 0:
                lab[rec] = i
                got += 1
        r -= k
        i += 1
    for t in range(n):
        if lab[t] < 0:
            lab[t] = i
    return lab


# ---- numeric MDAV ---------------------------------------------------------------------------
def _numeric_case(seed: int) -> tuple[np.ndarray, int]:
    g = np.random.default_rng(seed)
    m = int(g.integers(1, 7))  # > 4 columns exercises the generic mean accumulators
    k = int(g.choice([1, 2, 3, 4, 5, 7, 10]))
    n = int(g.integers(k, 260))
    kind = seed % 4
    if kind == 0:
        x = g.normal(size=(n, m))
    elif kind == 1:  # many ties: few distinct values
        x = g.integers(0, 3, size=(n, m)).astype(float)
    elif kind == 2:  # duplicated rows
        base = np.round(g.normal(size=(max(1, n // 4), m)), 1)
        x = base[g.integers(0, base.shape[0], n)]
    else:  # a constant column and a wide range
        x = g.normal(size=(n, m)) * np.logspace(0, 4, m)
        x[:, 0] = 2.5
    return x, k


@pytest.mark.parametrize("seed", range(120))
def test_mdav_kernel_equals_the_old_kernel(seed: int) -> None:
    x, k = _numeric_case(seed)
    perm = canonical_order(x)
    for distance in ("standardised", "raw"):
        z = mda.distance_space(np.ascontiguousarray(x[perm]), distance, None)
        z0 = z.copy()
        new = mda._mdav_kernel(z, k)
        assert np.array_equal(z, z0)  # the input is not changed (the kernel works on a copy)
        old = _old_mdav_kernel(z, k)
        assert new.dtype == old.dtype == np.int64
        assert np.array_equal(new, old)
        assert (new >= 0).all()


def test_mdav_kernel_equals_the_old_kernel_on_larger_inputs() -> None:
    g = np.random.default_rng(2024)
    for n, m, k in ((3000, 2, 5), (2000, 5, 3), (1500, 13, 5), (4000, 1, 7)):
        z = mda.distance_space(np.round(g.normal(size=(n, m)), 2), "standardised", None)
        z0 = z.copy()
        assert np.array_equal(mda._mdav_kernel(z, k), _old_mdav_kernel(z, k))
        assert np.array_equal(z, z0)  # the input is not changed (the kernel works on a copy)


# ---- categorical MDAV ------------------------------------------------------------------------
def _synthetic_space(g: np.random.Generator, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random padded (dist, anc, norm) arrays with small integer distances (many ties)."""
    c = int(g.integers(2, 9))
    dist = np.zeros((m, c, c))
    anc = np.zeros((m, c, c), dtype=np.bool_)
    for j in range(m):
        a = g.integers(0, 4, size=(c, c)).astype(float)
        dist[j] = a + a.T
        np.fill_diagonal(dist[j], 0.0)
        anc[j] = g.random((c, c)) < 0.3
        np.fill_diagonal(anc[j], True)
    norm = g.integers(1, 5, size=m).astype(float)
    return dist, anc, norm


@pytest.mark.parametrize("seed", range(80))
def test_categorical_kernel_equals_the_old_kernel(seed: int) -> None:
    g = np.random.default_rng(seed)
    k = int(g.integers(1, 8))
    n = int(g.integers(k, 300))
    if seed % 2:
        names = (("sport",), ("sport", "job"), ("job", "sport", "job"))[seed % 3]
        space = cat.SemanticSpace([project_taxonomy(t) for t in names])
        dist, anc, norm, sizes = space.dist, space.anc, space.norm, space.sizes
    else:
        dist, anc, norm = _synthetic_space(g, int(g.integers(1, 4)))
        sizes = np.full(dist.shape[0], dist.shape[1])
    # skewed codes: repeated tuples with multiplicities
    codes = np.stack([np.minimum(g.geometric(0.3, n) - 1, s - 1) for s in sizes], axis=1)
    u, w, _ = cat.distinct(codes.astype(np.int64))
    for mtol, rtol in ((cat.MARGINALITY_TOL, cat.RECORD_TOL), (0.0, 0.0), (0.5, 0.3)):
        old = _old_mdav_tuples(u, w, dist, anc, norm, k, mtol, rtol)
        new = cat._mdav_tuples(u, w, dist, anc, norm, k, mtol, rtol)
        assert new.dtype == old.dtype == np.int64
        assert np.array_equal(new, old)
        assert new[:, 2].sum() == n


def test_categorical_labels_are_unchanged_by_repeated_calls() -> None:
    """The work arrays are fresh per call: a second call gives the same labels."""
    space = cat.SemanticSpace([project_taxonomy("sport"), project_taxonomy("job")])
    g = np.random.default_rng(3)
    codes = np.stack([g.integers(0, s, 200) for s in space.sizes], axis=1)
    first = cat.categorical_mdav_labels(codes, space, 4)
    assert np.array_equal(cat.categorical_mdav_labels(codes, space, 4), first)


# ---- Algorithm 6.1 pass ----------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(60))
def test_take_by_orders_equals_the_old_kernel(seed: int) -> None:
    g = np.random.default_rng(seed)
    n = int(g.integers(1, 300))
    k = int(g.integers(1, n + 1))
    p = int(g.integers(1, 5))
    perms = np.stack([g.permutation(n) for _ in range(p)]).astype(np.int64)
    reverse = g.random(p) < 0.5
    steps = max(n // k - 1, 1)
    step_order = g.integers(0, p, steps).astype(np.int64)
    old = _old_take_by_orders(perms, reverse, step_order, k)
    new = ins._take_by_orders(perms, reverse, step_order, k)
    assert new.dtype == old.dtype == np.int64
    assert np.array_equal(new, old)


# ---- one compilation per helper --------------------------------------------------------------
_HELPERS = {
    mda: ("_sq_dist", "_farthest", "_take_nearest", "_compact", "_mdav_core"),
    cat: ("_centroid", "_distances", "_farthest", "_take", "_mdav_core"),
    ins: ("_take_by_orders_core",),
}


def test_every_helper_is_compiled_with_one_signature(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each compiled helper is entered with one argument-type signature (no literal-int
    specialisation, no second array layout): fresh uncached copies of the dispatchers replace
    the module's (so the on-disk cache cannot hide a compilation), the kernels run, and every
    copy must hold exactly one compiled signature with no ``Literal`` type.  (Catches the
    literal ``label = 0`` of the old kernels: two signatures of ``_cluster_around``/``_take``.)
    """
    fresh = {}
    for mod, names in _HELPERS.items():
        for name in names:
            disp = numba.njit(nogil=True)(getattr(mod, name).py_func)
            monkeypatch.setattr(mod, name, disp)
            fresh[f"{mod.__name__}.{name}"] = disp
    x = np.random.default_rng(0).normal(size=(60, 3))
    mda.mdav_labels(x, 4)
    space = cat.SemanticSpace([project_taxonomy("sport"), project_taxonomy("job")])
    codes = np.stack([np.arange(60) % s for s in space.sizes], axis=1)
    cat.categorical_mdav_labels(codes, space, 4)
    cat.insensitive_categorical_labels(codes, space, 4)
    sigs = {q: [str(s) for s in d.overloads] for q, d in fresh.items()}
    assert all(len(s) == 1 for s in sigs.values()), sigs
    assert not any("Literal" in s[0] for s in sigs.values()), sigs
