"""Referee checks for GROUP = micro (MDAV, probabilistic k-anonymity, insensitive microaggregation).

Seeds used (plain text in /work/shared/seeds/):
  * thesis = 000_65177858bc9aa63c.txt: §2.8 (Algorithm 2.1, MDAV), §3.2-3.4 (Definition 5,
    inequality (3.1), MDAV-SWAP / IR-SWAP, Tables 3.6-3.11), §6.2 (Definitions 12-13,
    Proposition 6 and its proof, Algorithm 6.1, the discussion before Proposition 7,
    Proposition 7, Proposition 8), §6.3.1-6.3.3 (reference-point total orders, insensitive
    MDAV, Hamming rule for the corner sequence).
  * vldb14 = 001_b1bb29bd0e0b4af8.txt: §3 (Definition 3 = thesis Def. 12, Definition 4,
    Proposition 1 = thesis Prop. 6, Algorithm 2 = thesis Alg. 6.1, Proposition 2 = thesis
    Prop. 7).
  * irm = 004_e4358174ca440815.txt: §2.1 (individual ranking), §3.1 Lemma 1 (formula symbols
    are lost in the extraction; reconstructed below).

How each claim is decided (all code below is self-contained; no privlab import):
  * thesis:alg-2.1 - exhaustive over integer grids with ties + numeric random continuous data:
    Algorithm 2.1 is implemented verbatim and the cluster sizes are checked (n >= k; for n < k
    the algorithm returns one cluster of n < k records, recorded as a degenerate case).
  * insensitivity claims (thesis:def-12, thesis:prop-6, vldb14:prop-1, vldb14:prop-2,
    thesis:prop-6-fixed-ends, thesis:prop-7, thesis:prop-7-only-if) - exhaustive search over
    every multiset of n records on small grids and every substitution of one record (value
    v -> w, w != v).  Clusters are compared as multisets of values; the substituted record x'
    counts as a different element from x (as in the proof of Prop. 7).  Two readings of
    "each pair of corresponding clusters differs at most in a single record":
      strict  = equal size and |C \\ C'| <= 1 (one substitution),
      liberal = |C \\ C'| <= 1 and |C' \\ C| <= 1 (also allows one addition/removal).
    A claim "X is insensitive" is confirmed with the strict reading and refuted only with the
    liberal one, so the verdicts do not depend on this choice.
    MDAV ties are broken deterministically (first record in sorted order); the
    counterexamples given have no ties.
    thesis:prop-7-only-if is also checked by a constraint search over all selection rules of
    the form of Algorithm 6.1 (every data set may use its own total order).
  * thesis:sec-6.3.3-hamming - exhaustive enumeration of the corner sequences allowed by the
    rule, m = 1..6 (count of rule-consistent sequences for m <= 3).
  * irm:lemma-1-adversarial and thesis:sec-6.3.1-centroid-list-adversarial - exhaustive
    adversarial search with exact Fractions over integer grids (every data set, every
    substitution).
  * thesis:sec-3.3.1-reid-bound(-ties) - exact Bayesian enumeration with Fractions: the
    intruder knows E (all quasi-identifiers / all non-swapped attributes), the mechanism (the
    grouping rule and a uniformly random permutation inside every group) and T'; prior
    uniform over assignments; posterior of every record linkage computed over all 720
    permutations of 6 records; all realisations of the mechanism enumerated.
  * Tables 3.10 / 3.11 (SLOW) - numeric re-run on the CASC data with 100 runs
    (np.random.default_rng(fixed)), plus the printed table cells themselves.

Readings taken where the text is ambiguous:
  * Prop. 6 / vldb14 Prop. 1: "univariate MDAV with the Euclidean distance is an instance" (the
    lab's scope).  MDAV is Algorithm 2.1 as printed (two clusters per loop, then one cluster
    taken at the extreme farthest from the mean when 2k <= |X| < 3k).
  * Prop. 6 fixed ends: a fixed total order; each step takes k records from the low or high
    end according to a fixed L/H pattern; the last cluster is what remains (k..2k-1).
    Orders checked: numeric order (1-D) and distance to the corner R = (0,0) with
    lexicographic tie-break (2-D, thesis §6.3.1).
  * Prop. 7 only-if: "not a fixed sequence of total orders" = the order used at some step is
    chosen from the data.  A counterexample is an algorithm of the form of Algorithm 6.1
    whose order depends on the data and that is still insensitive.
  * Hamming rule: R1 = all-bottom corner; R_{i+1} = unselected corner with maximal Hamming
    distance to R_i, ties broken by maximal distance to R_{i-1}, then R_{i-2}, ...
    (lexicographic comparison of the distance vector); "distance" read as Hamming distance
    (same ranking as Euclidean distance on a unit cube).
  * irm Lemma 1 (symbols lost): reconstructed as "x_1 <= ... <= x_n microaggregated into
    floor(n/k) clusters of k consecutive values, except perhaps one cluster with up to 2k-1
    consecutive values, centroids c_1..c_{floor(n/k)}; if one x_i is replaced by x_i' with
    |x_i - x_i'| <= Delta (Delta = diameter of the domain) and new clusters/centroids are
    computed, then sum_j |c_j - c'_j| <= Delta/k".  Centroid lists compared position by
    position (clusters in increasing order).  Primary reading: the hypothesis only requires
    both clusterings to have that form (the position of the larger cluster may differ between
    X and X'), e.g. the optimal univariate partition the text invokes just before the lemma,
    or univariate MDAV.  Secondary reading (also reported): the larger cluster sits at a fixed
    rank position (plain individual ranking).
  * Centroid list (thesis §6.3.1): the list of all centroids of insensitive MDAV (clusters in
    formation order), L1 norm of the change, Delta = range of each attribute (m*Delta = L1
    diameter of a record).  Also reported: best matching of centroids and per-centroid change.
  * Re-identification (§3.3): the correct linkage for individual t is the record of T' that
    carries t's own confidential value; for IR-SWAP the ranking's tie-break key (the other
    attributes) is known to the intruder (lab's reading).
  * Table 3.10: MDAV run on the raw (unstandardised) attributes: MDAV-ID = MDAV on all 13
    attributes, all replaced by centroids (this reproduces the printed Table 3.7 to 0.011);
    MDAV-SWAP = for each confidential attribute A_i (A7..A13) MDAV on the other 12 attributes
    and a random permutation of A_i in each group; IR-SWAP = for each confidential attribute,
    sort by it (ties by record index), groups of k consecutive records (last group takes the
    remainder), random permutation inside groups.  Statistic: mean and st.dev. over 100 runs of
    |r' - r| for the 63 correlations with at least one confidential attribute (off-diagonal
    cells of Table 3.6).  The z-scored variant is also reported.
  * Table 3.11: EIA quasi-identifiers/confidential attributes are not stated; primary reading:
    the ten energy attributes RESREVENUE..TOTSALES, first five quasi-identifiers, last five
    confidential (alternatives with MONTH / UTILITYID are reported as numbers).

Written from the seed text alone, without reading privlab's checkers.
"""
from __future__ import annotations

import itertools
import json
import os
import time
from fractions import Fraction as F
from pathlib import Path

import numpy as np

# ----------------------------------------------------------------------------------------
# generic helpers: clusters, insensitivity, neighbours
# ----------------------------------------------------------------------------------------


def _msub(a, b):
    """size of the multiset difference a \\ b (a, b sorted tuples)"""
    i = j = d = 0
    la, lb = len(a), len(b)
    while i < la:
        if j >= lb:
            return d + la - i
        x, y = a[i], b[j]
        if x == y:
            i += 1
            j += 1
        elif x < y:
            d += 1
            i += 1
        else:
            j += 1
    return d


def _pair_ok(C, D, strict):
    if strict:
        return len(C) == len(D) and _msub(C, D) <= 1
    return _msub(C, D) <= 1 and _msub(D, C) <= 1


def insensitive_pair(P, Q, strict):
    """is there a bijection between the cluster lists P and Q with each pair differing in <= 1 record"""
    if len(P) != len(Q):
        return False
    if all(_pair_ok(C, D, strict) for C, D in zip(P, Q)):
        return True
    cand = [[j for j in range(len(Q)) if _pair_ok(P[i], Q[j], strict)] for i in range(len(P))]
    if any(not c for c in cand):
        return False
    used = [False] * len(Q)

    def rec(i):
        if i == len(P):
            return True
        for j in cand[i]:
            if not used[j]:
                used[j] = True
                if rec(i + 1):
                    return True
                used[j] = False
        return False

    return rec(0)


def neighbours(X, dom):
    """all data sets obtained from the sorted tuple X by substituting one record"""
    X = list(X)
    for v in sorted(set(X)):
        i = X.index(v)
        rest = X[:i] + X[i + 1:]
        for w in dom:
            if w != v:
                yield tuple(sorted(rest + [w]))


def exhaust(alg, dom, n, strict, distinct=False, stop_first=False, accept=None):
    """exhaustive insensitivity check of alg over all n-multisets of dom and all substitutions;
    data sets with accept(X) false are skipped (used to keep only tie-free MDAV runs)."""
    cache = {}

    def part(X):
        if X not in cache:
            cache[X] = alg(list(X)) if (accept is None or accept(X)) else None
        return cache[X]

    gen = itertools.combinations(dom, n) if distinct else itertools.combinations_with_replacement(dom, n)
    nbad = npairs = 0
    first = None
    for X in gen:
        P = part(X)
        if P is None:
            continue
        for Y in neighbours(X, dom):
            if distinct and len(set(Y)) < n:
                continue
            Q = part(Y)
            if Q is None:
                continue
            npairs += 1
            if not insensitive_pair(P, Q, strict):
                nbad += 1
                if first is None:
                    first = (X, Y, P, part(Y))
                    if stop_first:
                        return nbad, npairs, first
    return nbad, npairs, first


def _vec(v):
    return v if isinstance(v, tuple) else (v,)


def _d2(a, b):
    return sum((x - y) ** 2 for x, y in zip(_vec(a), _vec(b)))


# ----------------------------------------------------------------------------------------
# Algorithm 2.1 (MDAV), exact integer arithmetic, deterministic tie-break
# ----------------------------------------------------------------------------------------


def mdav(X, k, trace=None, ties=None):
    """Algorithm 2.1 on a list of numbers or tuples (Euclidean distance). Returns clusters
    (sorted tuples of values) in formation order.  Ties: first record in sorted order; if a
    list `ties` is given, True is appended whenever a decision had a tie between different values."""
    rem = sorted(X)

    def _argmax(R, key):
        mx = max(key)
        if ties is not None and len({R[i] for i in range(len(R)) if key[i] == mx}) > 1:
            ties.append(True)
        return R[key.index(mx)]

    def far_from_mean(R):
        n = len(R)
        S = [sum(_vec(r)[j] for r in R) for j in range(len(_vec(R[0])))]
        key = [sum((n * x - s) ** 2 for x, s in zip(_vec(r), S)) for r in R]
        return _argmax(R, key)

    def far_from(R, p):
        return _argmax(R, [_d2(r, p) for r in R])

    def grab(R, c):
        order = sorted(range(len(R)), key=lambda i: (_d2(R[i], c), i))
        idx = order[:k]
        if ties is not None and len(R) > k:
            dk = _d2(R[order[k - 1]], c)
            if len({R[i] for i in order if _d2(R[i], c) == dk}) > 1 and _d2(R[order[k]], c) == dk:
                ties.append(True)
        s = set(idx)
        return tuple(sorted(R[i] for i in idx)), [R[i] for i in range(len(R)) if i not in s]

    cl = []
    while len(rem) >= 3 * k:
        x1 = far_from_mean(rem)
        x2 = far_from(rem, x1)
        if trace is not None:
            trace.append(x1)
        C1, rem = grab(rem, x1)
        C2, rem = grab(rem, x2)
        cl += [C1, C2]
    if len(rem) >= 2 * k:
        x1 = far_from_mean(rem)
        if trace is not None:
            trace.append(x1)
        C1, rem = grab(rem, x1)
        cl.append(C1)
    if rem:
        cl.append(tuple(sorted(rem)))
    return cl


def mdav_np(Xa, k):
    """numpy Algorithm 2.1 (index clusters), for the larger data sets."""
    rem = np.arange(len(Xa))
    out = []

    def take(c, rem):
        d = ((Xa[rem] - Xa[c]) ** 2).sum(1)
        o = np.lexsort((rem, d))[:k]
        sel = rem[o]
        return sel, np.setdiff1d(rem, sel, assume_unique=True)

    while len(rem) >= 3 * k:
        xb = Xa[rem].mean(0)
        i1 = rem[np.argmax(((Xa[rem] - xb) ** 2).sum(1))]
        i2 = rem[np.argmax(((Xa[rem] - Xa[i1]) ** 2).sum(1))]
        c1, rem = take(i1, rem)
        c2, rem = take(i2, rem)
        out += [c1, c2]
    if len(rem) >= 2 * k:
        xb = Xa[rem].mean(0)
        i1 = rem[np.argmax(((Xa[rem] - xb) ** 2).sum(1))]
        c1, rem = take(i1, rem)
        out.append(c1)
    if len(rem):
        out.append(rem)
    return out


# ----------------------------------------------------------------------------------------
# Algorithm 6.1 (general form) and fixed-ends insensitive MDAV
# ----------------------------------------------------------------------------------------


def alg61(X, k, choose_key):
    """Algorithm 6.1: while |X| >= 2k take the k smallest by the order of step i.
    choose_key(i, R) returns a sort key (a total order when it is injective on values)."""
    R = sorted(X)
    cl = []
    i = 0
    while len(R) >= 2 * k:
        key = choose_key(i, R)
        S = sorted(R, key=key)
        C = tuple(sorted(S[:k]))
        R = sorted(S[k:])
        cl.append(C)
        i += 1
    if R:
        cl.append(tuple(R))
    return cl


def rank_key(order):
    r = {v: i for i, v in enumerate(order)}
    return lambda v: r[v]


def corner_order_key(R):
    """thesis §6.3.1: distance to reference point R, ties by lexicographic order"""
    return lambda v: (_d2(v, R), v)


def fixed_ends(X, k, key, pattern):
    """take k records from the low ('L') or high ('H') end of a fixed total order, following
    a fixed pattern; the remaining records (k..2k-1) form the last cluster."""
    def ck(i, R):
        if pattern[i % len(pattern)] == "L":
            return key
        return lambda v: _Rev(key(v))
    return alg61(X, k, ck)


class _Rev:
    """reverses the order of a sort key"""
    __slots__ = ("k",)

    def __init__(self, k):
        self.k = k

    def __lt__(self, other):
        return other.k < self.k

    def __eq__(self, other):
        return self.k == other.k


def _n_iter(n, k):
    it = 0
    while n >= 2 * k:
        n -= k
        it += 1
    return it


# ----------------------------------------------------------------------------------------
# claims
# ----------------------------------------------------------------------------------------


def claim_alg_2_1():
    rng = np.random.default_rng(21)
    bad = 0
    cases = 0
    # integer grids with ties (exact python MDAV)
    for k in range(1, 7):
        for n in range(k, 4 * k + 3):
            for _ in range(6):
                d = int(rng.integers(1, 4))
                X = [tuple(int(v) for v in rng.integers(0, 3, size=d)) for _ in range(n)]
                cl = mdav(X, k)
                cases += 1
                sizes = [len(c) for c in cl]
                if sum(sizes) != n or any(s != k for s in sizes[:-1]) or not (k <= sizes[-1] <= 2 * k - 1):
                    bad += 1
    # random continuous data (numpy MDAV)
    for k in range(1, 11):
        for n in list(range(k, 6 * k + 2)) + [97, 150]:
            if n < k:
                continue
            d = int(rng.integers(1, 4))
            Xa = rng.normal(size=(n, d))
            cl = mdav_np(Xa, k)
            cases += 1
            sizes = [len(c) for c in cl]
            if sum(sizes) != n or any(s != k for s in sizes[:-1]) or not (k <= sizes[-1] <= 2 * k - 1):
                bad += 1
    degenerate = [len(c) for c in mdav([0, 1], 3)]
    return {"holds": bad == 0, "method": "exhaustive",
            "domain": "k=1..6 integer grids {0,1,2}^d (ties), n=k..4k+2; k=1..10 N(0,1)^d, d=1..3, n=k..6k+1,97,150",
            "numbers": {"cases": cases, "violations": bad, "degenerate_n<k_sizes(n=2,k=3)": str(degenerate)},
            "note": "Every run of Algorithm 2.1 with n >= k gives clusters of exactly k except the last (k..2k-1); "
                    "for n < k the only cluster has n < k records (outside the microaggregation premise)."}


def _tiefree(k):
    def acc(X):
        t = []
        mdav(list(X), k, ties=t)
        return not t
    return acc


def _mdav_family_violation(k):
    X = list(range(1, 2 * k + 1)) + [10 * k]
    Y = [-10 * k] + list(range(1, 2 * k + 1))
    return not insensitive_pair(mdav(X, k), mdav(Y, k), strict=False)


def claim_def_12():
    t0 = time.time()
    res = {}
    # k = 1: insensitive (strict) exhaustively
    ok1 = True
    for dom, n in [(range(5), 4), (range(6), 3), ([(a, b) for a in range(3) for b in range(3)], 3)]:
        nb, npairs, _ = exhaust(lambda X: mdav(X, 1), list(dom), n, strict=True)
        ok1 &= nb == 0
        res[f"k1_n{n}_viol"] = nb
    # k = 2, 3: counterexamples in 1-D and 2-D (liberal reading)
    ce = {}
    nb, npairs, f = exhaust(lambda X: mdav(X, 2), list(range(12)), 5, strict=False, distinct=True,
                            stop_first=True, accept=_tiefree(2))
    ce["k2_1D"] = f
    nb, npairs, f = exhaust(lambda X: mdav(X, 3), list(range(12)), 7, strict=False, distinct=True,
                            stop_first=True, accept=_tiefree(3))
    ce["k3_1D"] = f
    g2 = [(a, b) for a in range(4) for b in range(4)]
    nb, npairs, f = exhaust(lambda X: mdav(X, 2), g2, 5, strict=False, distinct=True, stop_first=True,
                            accept=_tiefree(2))
    ce["k2_2D_n5"] = f
    nb, npairs, f = exhaust(lambda X: mdav(X, 3), g2, 6, strict=False, distinct=True, stop_first=True,
                            accept=_tiefree(3))
    ce["k3_2D_n6"] = f
    # Fig. 6.1 analogue: 15 random 2-D points, k = 5, random substitutions (tie-free runs only)
    rng = np.random.default_rng(61)
    fig = None
    for trial in range(400):
        X = [tuple(int(v) for v in rng.integers(0, 100, size=2)) for _ in range(15)]
        Y = list(X)
        Y[int(rng.integers(15))] = tuple(int(v) for v in rng.integers(0, 100, size=2))
        t1, t2 = [], []
        P, Q = mdav(X, 5, ties=t1), mdav(Y, 5, ties=t2)
        if not t1 and not t2 and not insensitive_pair(P, Q, strict=False):
            fig = trial + 1
            break
    ce["k5_2D_n15_random"] = (X, Y) if fig else None
    res["k5_2D_n15_trials_until_violation"] = fig
    fam = {k: _mdav_family_violation(k) for k in range(2, 13)}
    found = all(v is not None for v in ce.values()) and all(fam.values())
    for key, f in ce.items():
        if key != "k5_2D_n15_random":
            res[key] = f"{list(f[0])}->{list(f[1])}" if f else "none"
    res["family_{1..2k,10k}->{-10k,1..2k}_violates_k2..12"] = all(fam.values())
    return {"holds": bool(found and ok1), "method": "exhaustive",
            "domain": "k=1: 1-D grids {0..4} n=4, {0..5} n=3, 2-D {0,1,2}^2 n=3; k=2,3: distinct-valued tie-free 1-D {0..11} "
                      "and 2-D {0..3}^2 grids (k=2 n=5, k=3 n=6,7); k=5 n=15 random 2-D; family k=2..12",
            "numbers": res,
            "note": f"MDAV (Alg. 2.1, Euclidean) violates Definition 12 for k=2,3 (1-D and 2-D), k=5 (15 points, as Fig. 6.1) and the "
                    f"family {{1..2k,10k}} for every k in 2..12; with k=1 all clusters are singletons and it is insensitive. "
                    f"({time.time()-t0:.1f}s)"}


def _prop6(label):
    t0 = time.time()
    counts = {}
    for k, n, G in [(2, 4, 6), (2, 5, 6), (2, 6, 4), (2, 7, 4), (3, 6, 3), (3, 7, 3)]:
        nb, npairs, _ = exhaust(lambda X: mdav(X, k), list(range(G + 1)), n, strict=False)
        counts[f"viol(k={k},n={n},grid0..{G})"] = f"{nb}/{npairs}"
    X, Y = [0, 1, 2, 3, 10], [0, 1, 2, 3, 10]
    Y = [-10, 0, 1, 2, 3]
    P, Q = mdav(X, 2), mdav(Y, 2)
    ce_ok = not insensitive_pair(P, Q, strict=False)
    # Definition 13 consistency of |x-y| with <= on the grid used
    cons = all(abs(x - y) <= abs(x - z) for x in range(-10, 11) for y in range(x, 11) for z in range(y, 11))
    counts["counterexample"] = f"k=2 {X}:{P} vs {Y}:{Q}"
    counts["abs_distance_consistent_Def13"] = cons
    return {"holds": not (ce_ok and cons), "method": "exhaustive",
            "domain": "univariate MDAV (Alg. 2.1), |x-y|, integer grids, (k,n) in {(2,4..7),(3,6),(3,7)}, all substitutions",
            "numbers": counts,
            "note": f"{label}: false for univariate MDAV whenever n mod 2k is in 1..k-1 (n=5,k=2; n=7,k=3): the step "
                    "2k<=|X|<3k takes k records from the extreme farther from the mean, so which end gets the larger "
                    "cluster depends on the data; the proof's 'clusters of k from the extremes' form is not what "
                    f"Alg. 2.1 does. ({time.time()-t0:.1f}s)"}


def claim_thesis_prop_6():
    return _prop6("thesis Prop. 6")


def claim_vldb14_prop_1():
    return _prop6("vldb14 Prop. 1")


def _prop7_if():
    t0 = time.time()
    dom = [0, 1, 2, 3]
    orders = list(itertools.permutations(dom))
    checked = 0
    bad = 0
    for k in (2, 3):
        for n in range(2 * k, 2 * k + 3):
            L = _n_iter(n, k)
            if L == 1:
                seqs = [(o,) for o in orders]
            else:  # WLOG the first order is the identity (relabel the abstract 4-point domain)
                seqs = [tuple([tuple(dom)] + list(rest)) for rest in itertools.product(orders, repeat=L - 1)]
            for seq in seqs:
                keys = [rank_key(o) for o in seq]
                nb, npairs, _ = exhaust(lambda X: alg61(X, k, lambda i, R: keys[i]), dom, n, strict=True)
                checked += 1
                bad += nb
    # k = 1 (sample of sequences; all clusters singletons)
    rng = np.random.default_rng(7)
    for _ in range(10):
        seq = [orders[int(rng.integers(24))] for _ in range(3)]
        keys = [rank_key(o) for o in seq]
        nb, npairs, _ = exhaust(lambda X: alg61(X, 1, lambda i, R: keys[i]), dom, 4, strict=True)
        checked += 1
        bad += nb
    # 5-point domain, random fixed sequences of 3 orders, k = 2, n = 4..8
    orders5 = list(itertools.permutations(range(5)))
    for _ in range(6):
        seq = [orders5[int(rng.integers(len(orders5)))] for _ in range(3)]
        keys5 = [rank_key(o) for o in seq]
        for n in range(4, 9):
            nb, npairs, _ = exhaust(lambda X: alg61(X, 2, lambda i, R: keys5[i]), list(range(5)), n, strict=True)
            checked += 1
            bad += nb
    # 2-D 3x3 grid: thesis corner reference points (each order: distance to corner, lex tie-break)
    g = [(a, b) for a in range(3) for b in range(3)]
    corners = [(0, 0), (2, 2), (0, 2), (2, 0)]
    for k, n in [(2, 4), (2, 5), (2, 6)]:
        keys = [corner_order_key(c) for c in corners]
        nb, npairs, _ = exhaust(lambda X: alg61(X, k, lambda i, R: keys[i % 4]), g, n, strict=True)
        checked += 1
        bad += nb
    return {"holds": bad == 0, "method": "exhaustive",
            "domain": "4-point domain (= 1-D {0..3} or 2-D {0,1}^2), k in {2,3}, n = 2k..2k+2, all fixed sequences of total "
                      "orders (first order WLOG identity when 2 steps); k=1 n=4 sampled sequences; 5-point domain, 6 random "
                      "sequences, k=2, n=4..8; 3x3 grid with the §6.3.3 corner orders, k=2, n=4..6; every data set and substitution",
            "numbers": {"sequences_x_sizes_checked": checked, "violations_strict": bad},
            "note": f"A fixed sequence of total orders gave an insensitive partition (strict reading: equal sizes, one "
                    f"substitution per matched pair) in every case. ({time.time()-t0:.1f}s)"}


def claim_vldb14_prop_2():
    return _prop7_if()


def claim_thesis_prop_7():
    return _prop7_if()


def claim_prop_6_fixed_ends():
    t0 = time.time()
    bad = 0
    checked = 0
    for k, n, dom in [(2, 4, range(6)), (2, 5, range(6)), (2, 6, range(5)), (2, 7, range(5)), (2, 8, range(4)),
                      (2, 9, range(4)), (3, 6, range(5)), (3, 7, range(4)), (3, 8, range(4)), (3, 10, range(3)),
                      (3, 12, range(3))]:
        L = _n_iter(n, k)
        for pattern in itertools.product("LH", repeat=L):
            nb, npairs, _ = exhaust(lambda X: fixed_ends(X, k, lambda v: v, pattern), list(dom), n, strict=True)
            bad += nb
            checked += 1
    g = [(a, b) for a in range(2) for b in range(3)]
    for k, n in [(2, 4), (2, 5), (2, 6)]:
        L = _n_iter(n, k)
        for pattern in itertools.product("LH", repeat=L):
            key = corner_order_key((0, 0))
            nb, npairs, _ = exhaust(lambda X: fixed_ends(X, k, key, pattern), g, n, strict=True)
            bad += nb
            checked += 1
    return {"holds": bad == 0, "method": "exhaustive",
            "domain": "1-D grids (3-6 values), k=2 n=4..9; k=3 n=6..8,10,12; 2-D {0,1}x{0,1,2} with order = distance to "
                      "(0,0) then lexicographic, k=2 n=4..6; every L/H pattern, data set and substitution",
            "numbers": {"patterns_x_sizes": checked, "violations_strict": bad},
            "note": f"Clusters of k taken from the ends of one fixed total order in a fixed pattern are insensitive in every "
                    f"case (it is Algorithm 6.1 with a fixed order sequence). ({time.time()-t0:.1f}s)"}


def _csp_rules(dom, n, k, stop_at_first_nonfixed):
    """all selection rules of the form of Alg. 6.1 for one step (n < 3k): every data set X
    picks its own total order; returns (#insensitive rules found, #rules induced by one fixed order,
    first non-fixed insensitive rule or None)."""
    Xs = list(itertools.combinations_with_replacement(dom, n))
    orders = list(itertools.permutations(dom))

    def sel(X, o):
        r = {v: i for i, v in enumerate(o)}
        return tuple(sorted(sorted(X, key=lambda v: r[v])[:k]))

    choices = {X: sorted(set(sel(X, o) for o in orders)) for X in Xs}
    nb = {X: list(neighbours(X, dom)) for X in Xs}

    def part(X, C):
        R = list(X)
        for c in C:
            R.remove(c)
        return [C, tuple(R)]

    varorder = sorted(Xs, key=lambda X: -len(choices[X]))
    induced = set(tuple(sel(X, o) for X in varorder) for o in orders)
    assign = {}
    found = {"n": 0, "nonfixed": None}

    def dfs(i):
        if stop_at_first_nonfixed and found["nonfixed"] is not None:
            return
        if i == len(varorder):
            found["n"] += 1
            sig = tuple(assign[X] for X in varorder)
            if sig not in induced and found["nonfixed"] is None:
                found["nonfixed"] = dict(assign)
            return
        X = varorder[i]
        for c in choices[X]:
            assign[X] = c
            P = part(X, c)
            if all(insensitive_pair(P, part(Y, assign[Y]), True) for Y in nb[X] if Y in assign):
                dfs(i + 1)
            del assign[X]

    dfs(0)
    return found["n"], len(induced), found["nonfixed"]


def claim_prop_7_only_if():
    t0 = time.time()
    nums = {}
    # (a) k = 1: MDAV itself (data-dependent orders) is insensitive (the thesis says so in §6.2)
    nb1, np1, _ = exhaust(lambda X: mdav(X, 1), list(range(5)), 4, strict=True)
    nb1b, np1b, _ = exhaust(lambda X: mdav(X, 1), [(a, b) for a in range(3) for b in range(3)], 3, strict=True)
    nb1 += nb1b
    np1 += np1b
    tr1, tr2 = [], []
    mdav([0, 0, 3], 1, tr1)
    mdav([0, 3, 3], 1, tr2)
    nums["k1_MDAV_viol_strict(1-D 0..4 n=4; 2-D 3x3 n=3)"] = f"{nb1}/{np1}"
    nums["k1_MDAV_first_pivot"] = f"{{0,0,3}}->{tr1[0]}, {{0,3,3}}->{tr2[0]}"

    # (b) k = 2,3: fixed numeric order except at the step where exactly 2k records remain, where
    #     the orientation is MDAV's (farthest from the mean first) -> data-dependent, insensitive.
    def rule(k):
        def ck(i, R):
            if len(R) == 2 * k:
                n = len(R)
                s = sum(R)
                lo, hi = R[0], R[-1]
                if (n * hi - s) ** 2 > (n * lo - s) ** 2:  # high end farther from the mean
                    return lambda v: -v
            return lambda v: v
        return ck

    tot_b = 0
    pairs_b = 0
    for k, n, G in [(2, 4, 5), (2, 5, 5), (2, 6, 4), (2, 8, 3), (3, 6, 4), (3, 7, 3), (3, 9, 2)]:
        r = rule(k)
        nb, npairs, _ = exhaust(lambda X: alg61(X, k, r), list(range(G + 1)), n, strict=True)
        tot_b += nb
        pairs_b += npairs
    nums["k2,3_last-2k-step-data-dependent_viol_strict"] = f"{tot_b}/{pairs_b}"
    orient = [rule(2)(0, [0, 0, 0, 3])(3) < 0, rule(2)(0, [0, 3, 3, 3])(3) < 0]
    nums["orientation_{0,0,0,3}_vs_{0,3,3,3}_high_first"] = str(orient)

    # (c) constraint search over all per-data-set orders (one selection step)
    n_sol5, n_ind5, non5 = _csp_rules((0, 1, 2), 5, 2, False)
    n_sol4, n_ind4, non4 = _csp_rules((0, 1, 2), 4, 2, True)
    nums["CSP_dom3_n5_k2_insensitive_rules/fixed_order_rules"] = f"{n_sol5}/{n_ind5}"
    ex = None
    if non4:
        ex = {str(X): str(C) for X, C in list(non4.items())[:3]}
    nums["CSP_dom3_n4_k2_nonfixed_insensitive_rule_found"] = non4 is not None
    falsified = nb1 == 0 and tr1[0] != tr2[0] and tot_b == 0 and orient[0] != orient[1]
    return {"holds": not falsified, "method": "exhaustive",
            "domain": "k=1 MDAV on {0..4}, n=4 and {0,1,2}^2, n=3; k=2,3 grids, n=2k..3k (and n=8,9); constraint search over all "
                      "per-data-set total orders on {0,1,2}, n=4,5, k=2",
            "numbers": nums,
            "note": f"False: with k=1 (MDAV, whose first pivot depends on the data) and whenever a step sees exactly 2k "
                    f"records, a data-dependent order still gives an insensitive algorithm (strict reading). For n=5,k=2 "
                    f"on 3 values only fixed-order rules are insensitive, so the gap is k=1 / the last 2k split. "
                    f"({time.time()-t0:.1f}s)"}


def _hamming(a, b):
    return sum(x != y for x, y in zip(a, b))


def _rule_candidates(seq, unselected):
    """unselected corners that the §6.3.3 rule allows next (cascade of distances to R_i, R_{i-1}, ...)"""
    def sig(c):
        return tuple(_hamming(c, r) for r in reversed(seq))
    best = max(sig(c) for c in unselected)
    return [c for c in unselected if sig(c) == best]


def claim_hamming():
    nums = {}
    ok = True
    for m in range(1, 7):
        corners = list(itertools.product((0, 1), repeat=m))
        seq = [tuple([0] * m)]
        uns = set(corners) - {seq[0]}
        ties = 0
        while uns:
            cand = _rule_candidates(seq, sorted(uns))
            if len(cand) > 1:
                ties += 1
            nxt = min(cand)
            # check: nxt maximises Hamming distance to seq[-1]
            ok &= _hamming(nxt, seq[-1]) == max(_hamming(c, seq[-1]) for c in uns)
            seq.append(nxt)
            uns.discard(nxt)
        ok &= len(seq) == 2 ** m and len(set(seq)) == 2 ** m
        ok &= seq[1] == tuple([1] * m)
        ok &= all(all(a + b == 1 for a, b in zip(seq[2 * i], seq[2 * i + 1])) for i in range(2 ** (m - 1)))
        nums[f"m{m}_steps_with_unresolved_tie"] = ties
        if m <= 3:
            def count(seq, uns):
                if not uns:
                    return 1
                return sum(count(seq + [c], uns - {c}) for c in _rule_candidates(seq, sorted(uns)))
            nums[f"m{m}_rule_consistent_sequences"] = count([tuple([0] * m)], set(corners) - {tuple([0] * m)})
        if m == 2:
            nums["m2_sequence(lex tie-break)"] = str(seq)
    return {"holds": ok, "method": "exhaustive",
            "domain": "m = 1..6, all 2^m corners, R1 = all-bottom corner",
            "numbers": nums,
            "note": "A sequence following the rule always exists (R2 = opposite corner, then complementary pairs, all corners "
                    "visited once), but for m >= 2 the cascade leaves ties (first at R3), so the rule fixes the sequence only "
                    "up to a tie-break (lexicographic used here)."}


def _consecutive_clusters_fixed(x, k, big):
    n = len(x)
    m = n // k
    sizes = [k] * m
    sizes[0 if big == "first" else m - 1] += n - m * k
    out, i = [], 0
    for s in sizes:
        out.append(x[i:i + s])
        i += s
    return out


def _optimal_univariate(x, k):
    """min-SSE partition of sorted x into consecutive clusters of sizes in [k, 2k-1] (Hansen-Mukherjee);
    tie-break: lexicographically smallest size vector."""
    n = len(x)
    best = None
    nbest = 0
    for m in range(1, n // k + 1):
        for sizes in itertools.product(range(k, 2 * k), repeat=m):
            if sum(sizes) != n:
                continue
            i, sse, cl = 0, F(0), []
            for s in sizes:
                c = x[i:i + s]
                mu = F(sum(c), s)
                sse += sum((v - mu) ** 2 for v in c)
                cl.append(c)
                i += s
            if best is None or (sse, sizes) < (best[0], best[1]):
                if best is not None and sse == best[0]:
                    nbest += 1
                else:
                    nbest = 1
                best = (sse, sizes, cl)
            elif sse == best[0]:
                nbest += 1
    return best[2] if nbest == 1 else []  # [] = optimum not unique (skipped)


def _centroids(cl):
    return [F(sum(c), len(c)) for c in cl]


def claim_irm_lemma_1():
    t0 = time.time()
    nums = {}
    worst = {"fixed_last": F(0), "fixed_first": F(0), "mdav": F(0), "optimal": F(0)}
    worst_ex = {}
    for n, k, G in [(4, 2, 7), (5, 2, 7), (7, 3, 4), (9, 3, 3)]:
        dom = list(range(G + 1))
        Delta = G
        cache = {}

        def clus(X, how):
            key = (X, how)
            if key not in cache:
                x = list(X)
                if how == "fixed_last":
                    cl = _consecutive_clusters_fixed(x, k, "last")
                elif how == "fixed_first":
                    cl = _consecutive_clusters_fixed(x, k, "first")
                elif how == "mdav":
                    t = []
                    cl = sorted((list(c) for c in mdav(x, k, ties=t)), key=lambda c: (c[0], c[-1]))
                    if t:
                        cl = []  # skip runs whose result depends on MDAV's tie-break
                else:
                    cl = _optimal_univariate(x, k)
                cache[key] = _centroids(cl) if len(cl) == n // k else None
            return cache[key]

        for X in itertools.combinations_with_replacement(dom, n):
            for Y in neighbours(X, dom):
                for how in worst:
                    if how == "optimal" and n > 7:
                        continue
                    a, b = clus(X, how), clus(Y, how)
                    if a is None or b is None:
                        continue
                    r = sum(abs(p - q) for p, q in zip(a, b)) / F(Delta, k)
                    if r > worst[how]:
                        worst[how] = r
                        worst_ex[how] = f"n={n},k={k}: {list(X)}->{list(Y)}"
    for how, v in worst.items():
        nums[f"max L1/(Delta/k) [{how}]"] = f"{v} ({float(v):.4f})"
        if how in worst_ex and v > 1:
            nums[f"witness [{how}]"] = worst_ex[how]
    # explicit tie-free witness on the domain [0, 20] (Delta = 20, k = 2, Delta/k = 10)
    X, Y = [10, 11, 12, 13, 20], [0, 10, 11, 12, 13]
    for how in ("mdav", "optimal"):
        if how == "mdav":
            a = _centroids(sorted((list(c) for c in mdav(X, 2)), key=lambda c: (c[0], c[-1])))
            b = _centroids(sorted((list(c) for c in mdav(Y, 2)), key=lambda c: (c[0], c[-1])))
        else:
            a, b = _centroids(_optimal_univariate(X, 2)), _centroids(_optimal_univariate(Y, 2))
        nums[f"witness {X}->{Y} [{how}]: L1 vs Delta/k"] = f"{sum(abs(p - q) for p, q in zip(a, b))} vs 10"
    literal_false = worst["mdav"] > 1 or worst["optimal"] > 1
    nums["literal reading (any clustering of the lemma's form) fails"] = literal_false
    # Judged in the claim's recorded setting: irm's individual ranking (Algorithm 1), where the
    # larger cluster sits at a fixed rank position for X and X'.  The literal reading's failure
    # is reported in the numbers (a separate question for the ledger).
    fixed_ok = worst["fixed_last"] <= 1 and worst["fixed_first"] <= 1
    return {"holds": bool(fixed_ok), "method": "exhaustive",
            "domain": "(n,k) in {(4,2),(5,2),(7,3),(9,3)}, values 0..G (G=7,7,4,3), Delta=G, every data set and substitution "
                      "(runs whose clustering depends on a tie-break skipped); optimal partition for n<=7; witness on [0,20]",
            "numbers": nums,
            "note": f"Reading: both clusterings only need the lemma's form. Then false for n=5,k=2 and n=7,k=3: the optimal "
                    f"univariate partition (and univariate MDAV) moves the larger cluster to the other end and the centroid list "
                    f"moves by more than Delta/k. With the larger cluster at a fixed rank position (plain individual ranking) "
                    f"the bound holds exactly (max ratio 1). ({time.time()-t0:.1f}s)"}


def claim_centroid_list_2d():
    t0 = time.time()
    G = 3
    g = [(a, b) for a in range(G + 1) for b in range(G + 1)]
    k, n, m = 2, 4, 2
    key = corner_order_key((0, 0))
    bound = F(m * G, k)
    ex = None
    cache = {}

    def cents(X):  # n = 2k: both clusters have k records; keep integer sums (centroid = sum / k)
        if X not in cache:
            cl = fixed_ends(list(X), k, key, "L")
            assert all(len(c) == k for c in cl)
            cache[X] = [tuple(sum(p[j] for p in c) for j in range(m)) for c in cl]
        return cache[X]

    def l1(u, v):
        return abs(u[0] - v[0]) + abs(u[1] - v[1])

    def tiefree(X):  # no two different values at the same distance from R = (0,0)
        return len({_d2(v, (0, 0)) for v in set(X)}) == len(set(X))

    wl = wm = wc = wtf = 0  # integer sums (divide by k at the end)
    for X in itertools.combinations_with_replacement(g, n):
        a0, a1 = cents(X)
        tfX = tiefree(X)
        for Y in neighbours(X, g):
            b0, b1 = cents(Y)
            d0, d1 = l1(a0, b0), l1(a1, b1)
            tot = d0 + d1
            if tfX and tiefree(Y):
                wtf = max(wtf, tot)
            match = min(tot, l1(a0, b1) + l1(a1, b0))
            wc = max(wc, d0, d1)
            if tot > wl:
                wl = tot
                ex = f"{list(X)}->{list(Y)}"
            wm = max(wm, match)
    worst_list, worst_match, worst_cent = F(wl, k), F(wm, k), F(wc, k)
    return {"holds": worst_list <= bound, "method": "exhaustive",
            "domain": "insensitive MDAV (order = distance to (0,0), lexicographic ties), n=4, k=2, m=2, grid {0..3}^2 "
                      "(Delta=3), every data set and substitution",
            "numbers": {"bound m*Delta/k": str(bound), "max_list_L1": f"{worst_list} ({float(worst_list):.3f})",
                        "max_list_L1_best_matching": f"{worst_match} ({float(worst_match):.3f})",
                        "max_single_centroid_L1": str(worst_cent), "witness": ex,
                        "max_list_L1_no_distance_ties": str(F(wtf, k))},
            "note": f"False for the whole list: one substitution changes both clusters and the list moves by up to "
                    f"{float(worst_list / bound):.2f} x m*Delta/k (the sum does not telescope in 2-D); each single centroid "
                    f"stays within m*Delta/k (Prop. 8 per centroid holds). ({time.time()-t0:.1f}s)"}


# ---- re-identification (exact Bayesian enumeration) ---------------------------------------


def _ir_gid(a, k, key):
    n = len(a)
    o = sorted(range(n), key=lambda i: (a[i], key[i]))
    m = n // k
    gid = [0] * n
    for j in range(m):
        for i in (o[j * k:(j + 1) * k] if j < m - 1 else o[(m - 1) * k:]):
            gid[i] = j
    return gid


def _within_perms(gid):
    groups = {}
    for i, g in enumerate(gid):
        groups.setdefault(g, []).append(i)
    Gs = list(groups.values())
    for prod in itertools.product(*[list(itertools.permutations(G)) for G in Gs]):
        pi = list(range(len(gid)))
        for G, P in zip(Gs, prod):
            for s, d in zip(G, P):
                pi[s] = d
        yield tuple(pi)


_ALLPERM6 = list(itertools.permutations(range(6)))


def _posterior(b, gid_of):
    """b[j] = value shown on record j of T'.  Hypotheses: pi (record j carries the value of
    individual pi[j]) with a = b o pi^-1; consistent when pi stays inside the groups of a.
    Uniform prior over a and uniform within-group permutation -> uniform over consistent pi.
    Returns P[j][t] = P(pi(j) = t | T', E, M)."""
    n = len(b)
    cnt = [[0] * n for _ in range(n)]
    tot = 0
    for pi in _ALLPERM6 if n == 6 else itertools.permutations(range(n)):
        a = [None] * n
        for j in range(n):
            a[pi[j]] = b[j]
        gid = gid_of(a)
        if all(gid[j] == gid[pi[j]] for j in range(n)):
            tot += 1
            for j in range(n):
                cnt[j][pi[j]] += 1
    return [[F(c, tot) for c in row] for row in cnt]


def _reid_worst(a, k, gid_of):
    """all realisations for the true data a; returns (max posterior of any linkage, max posterior of a correct one)"""
    gid = gid_of(list(a))
    best = bestc = F(0)
    cache = {}
    for pi in _within_perms(gid):
        b = [None] * len(a)
        for j in range(len(a)):
            b[j] = a[pi[j]]
        b = tuple(b)
        if b not in cache:
            cache[b] = _posterior(b, gid_of)
        P = cache[b]
        best = max(best, max(max(r) for r in P))
        bestc = max(bestc, max(P[j][pi[j]] for j in range(len(a))))
    return best, bestc


def claim_reid_bound():
    t0 = time.time()
    rng = np.random.default_rng(33)
    nums = {}
    ok = True
    key = list(range(6))
    for k in (2, 3):
        # MDAV-SWAP (uninformed): groups from MDAV on the known quasi-identifiers
        mx = F(0)
        for trial in range(3):
            q = [int(v) for v in rng.choice(50, size=6, replace=False)]
            cl = mdav(q, k)
            gid_fixed = [next(i for i, c in enumerate(cl) if q[j] in c) for j in range(6)]
            conf = tuple(int(v) for v in rng.permutation(6))
            best, bestc = _reid_worst(conf, k, lambda a: gid_fixed)
            mx = max(mx, best)
        nums[f"MDAV-SWAP_k{k}_max_posterior"] = str(mx)
        ok &= mx <= F(1, k)
        # IR-SWAP, distinct confidential values
        mx = F(0)
        for trial in range(4):
            conf = tuple(int(v) for v in rng.choice(40, size=6, replace=False))
            best, bestc = _reid_worst(conf, k, lambda a: _ir_gid(a, k, key))
            mx = max(mx, best)
        nums[f"IR-SWAP_k{k}_max_posterior"] = str(mx)
        ok &= mx <= F(1, k)
    return {"holds": bool(ok), "method": "exact",
            "domain": "6 records, k in {2,3}; MDAV-SWAP on 3 random distinct 1-D QI sets, IR-SWAP on 4 random distinct "
                      "confidential vectors; all realisations; posterior over all 720 linkages",
            "numbers": nums,
            "note": f"With distinct values every linkage posterior equals 1/|group| <= 1/k. ({time.time()-t0:.1f}s)"}


def claim_reid_ties():
    t0 = time.time()
    k = 3
    key = list(range(6))
    nums = {}
    worst = F(0)
    wex = None
    for a in [(5, 5, 7, 8, 1, 2), (2, 2, 3, 3, 1, 1), (1, 7, 8, 5, 5, 5), (1, 2, 5, 7, 8, 9)]:
        best, bestc = _reid_worst(a, k, lambda aa: _ir_gid(aa, k, key))
        nums[f"a={a}: max correct-link posterior"] = str(bestc)
        if bestc > worst:
            worst, wex = bestc, a
    return {"holds": worst <= F(1, k), "method": "exact",
            "domain": "IR-SWAP, 6 records, k=3, tie-break key = record index (known to the intruder), all realisations",
            "numbers": nums,
            "note": f"False: for a={wex} (individual i has value a[i]) the two tied 5s straddle the group boundary; the known "
                    f"tie-break tells which 5 is in the low group and the intruder links the individual to its record with "
                    f"posterior {worst} > 1/3. ({time.time()-t0:.1f}s)"}


# ---- Tables 3.10 / 3.11 ------------------------------------------------------------------


def _data_dir():
    return Path(os.environ.get("PRIVLAB_DATA_DIR") or Path(__file__).resolve().parents[3] / "shared" / "data")


def _table_run(A, nq, ks, nrep, seed, standardise=False, do_id=True):
    rng = np.random.default_rng(seed)
    n, m = A.shape
    conf = list(range(nq, m))
    C0 = np.corrcoef(A.T)
    iu = [(i, j) for j in conf for i in range(m) if i < j]
    I = np.array([p[0] for p in iu])
    J = np.array([p[1] for p in iu])
    W = (A - A.mean(0)) / A.std(0) if standardise else A

    def metric(B):
        return np.abs(np.corrcoef(B.T)[I, J] - C0[I, J])

    out = {}
    for k in ks:
        if do_id:
            B = A.copy()
            for c in mdav_np(W, k):
                B[c] = A[c].mean(0)
            idm = metric(B)  # deterministic: identical in every run
        else:
            idm = np.array([np.nan])
        parts = {c: mdav_np(W[:, [j for j in range(m) if j != c]], k) for c in conf}
        irg = {}
        for c in conf:
            o = np.lexsort((np.arange(n), A[:, c]))
            g = n // k
            irg[c] = [o[i * k:(i + 1) * k] if i < g - 1 else o[i * k:] for i in range(g)]
        ms, ir = [], []
        for _ in range(nrep):
            B = A.copy()
            for c in conf:
                for grp in parts[c]:
                    B[grp, c] = A[rng.permutation(grp), c]
            ms.append(metric(B))
            B = A.copy()
            for c in conf:
                for grp in irg[c]:
                    B[grp, c] = A[rng.permutation(grp), c]
            ir.append(metric(B))
        out[k] = (float(np.mean(idm)), float(np.mean(ms)), float(np.mean(ir)),
                  float(np.std(idm)), float(np.std(ms)), float(np.std(ir)))
    return out


def claim_table_3_10():
    t0 = time.time()
    p = _data_dir() / "census_casc.csv"
    if not p.exists():
        return {"holds": None, "method": "numeric", "domain": "Census", "numbers": {}, "note": "data unavailable"}
    import pandas as pd
    A = pd.read_csv(p).values.astype(float)
    ks = [5, 7, 9, 11, 25, 50, 100, 200, 300]
    printed = {5: (.055, .037, .0021), 7: (.062, .048, .0022), 9: (.069, .055, .0028), 11: (.078, .061, .0038),
               25: (.11, .091, .0061), 50: (.14, .13, .010), 100: (.17, .19, .020), 200: (.29, .31, .044),
               300: (.38, .37, .087)}
    printed_ok = all(v[2] < min(v[0], v[1]) for v in printed.values()) and all(printed[k][1] < printed[k][0] for k in ks if k <= 50)
    res = _table_run(A, 6, ks, 100, 310)
    nums = {}
    ok_ir = ok_sw = True
    for k in ks:
        idm, sw, ir = res[k][:3]
        nums[f"k{k} ID/SWAP/IR mean"] = f"{idm:.4f}/{sw:.4f}/{ir:.4f} (printed {printed[k][0]}/{printed[k][1]}/{printed[k][2]})"
        ok_ir &= ir < min(idm, sw)
        if k <= 50:
            ok_sw &= sw < idm
    resz = _table_run(A, 6, [5, 12, 50], 20, 311, standardise=True)
    nums["z-scored k5/12/50 ID vs SWAP"] = "; ".join(f"{resz[k][0]:.4f} vs {resz[k][1]:.4f}" for k in (5, 12, 50))
    nums["printed_table_supports_claim"] = printed_ok
    return {"holds": bool(ok_ir and ok_sw), "method": "numeric",
            "domain": "CASC Census 1080x13, A1..A6 QI, A7..A13 confidential, k in Table 3.10, 100 runs, raw-scale MDAV",
            "numbers": nums,
            "note": f"Re-run (raw-scale MDAV, which reproduces Table 3.7): IR-SWAP best at every k and MDAV-SWAP < MDAV-ID for "
                    f"k <= 50. With z-scored attributes MDAV-SWAP is NOT better than MDAV-ID at k=5,12 (see numbers). "
                    f"({time.time()-t0:.0f}s)"}


def claim_table_3_11():
    t0 = time.time()
    printed = {5: (.018, .017, .00064), 7: (.02, .024, .0012), 9: (.034, .028, .0015), 11: (.039, .029, .0019),
               25: (.085, .043, .0063), 50: (.13, .053, .011), 100: (.15, .058, .029), 200: (.19, .09, .093),
               300: (.2, .12, .14)}
    ks = list(printed)
    pr_sw_fail = [k for k in ks if not printed[k][1] < printed[k][0]]
    pr_ir_fail = [k for k in ks if not printed[k][2] < min(printed[k][0], printed[k][1])]
    nums = {"printed: k where MDAV-SWAP >= MDAV-ID": str(pr_sw_fail),
            "printed: k where IR-SWAP not best": str(pr_ir_fail)}
    p = _data_dir() / "eia.csv"
    recomputed_false = None
    if p.exists():
        import pandas as pd
        df = pd.read_csv(p)
        num10 = ["RESREVENUE", "RESSALES", "COMREVENUE", "COMSALES", "INDREVENUE", "INDSALES", "OTHREVENUE",
                 "OTHRSALES", "TOTREVENUE", "TOTSALES"]
        A = df[num10].values.astype(float)
        res = _table_run(A, 5, ks, 30, 320)
        sw_fail = [k for k in ks if not res[k][1] < res[k][0]]
        ir_fail = [k for k in ks if not res[k][2] < min(res[k][0], res[k][1])]
        for k in ks:
            nums[f"k{k} ID/SWAP/IR mean"] = f"{res[k][0]:.4f}/{res[k][1]:.4f}/{res[k][2]:.4f}"
        nums["recomputed: k where MDAV-SWAP >= MDAV-ID"] = str(sw_fail)
        nums["recomputed: k where IR-SWAP not best"] = str(ir_fail)
        A2 = df[["MONTH"] + num10].values.astype(float)
        res2 = _table_run(A2, 6, [200, 300], 10, 321)
        nums["alt reading MONTH+10 (6 QI/5 conf) k200,300 SWAP vs IR"] = "; ".join(
            f"{res2[k][1]:.4f} vs {res2[k][2]:.4f}" for k in (200, 300))
        recomputed_false = bool(sw_fail or ir_fail)
    else:
        nums["eia.csv"] = "unavailable (verdict from the printed table only)"
    printed_false = bool(pr_sw_fail or pr_ir_fail)
    return {"holds": not (printed_false or bool(recomputed_false)), "method": "numeric",
            "domain": "printed Table 3.11 cells; EIA 4092 records, RESREVENUE..TOTSALES (5 QI / 5 confidential), "
                      "k in Table 3.11, 30 runs, raw-scale MDAV",
            "numbers": nums,
            "note": f"The thesis's own Table 3.11 contradicts the sentence: MDAV-SWAP > MDAV-ID at k=7 and IR-SWAP is not best "
                    f"at k=200,300; the re-run also has IR-SWAP worse than MDAV-SWAP at large k. ({time.time()-t0:.0f}s)"}


CLAIMS = {
    "thesis:alg-2.1": claim_alg_2_1,
    "thesis:def-12": claim_def_12,
    "thesis:prop-6": claim_thesis_prop_6,
    "vldb14:prop-1": claim_vldb14_prop_1,
    "vldb14:prop-2": claim_vldb14_prop_2,
    "thesis:prop-6-fixed-ends": claim_prop_6_fixed_ends,
    "thesis:prop-7": claim_thesis_prop_7,
    "thesis:prop-7-only-if": claim_prop_7_only_if,
    "thesis:sec-6.3.3-hamming": claim_hamming,
    "irm:lemma-1-adversarial": claim_irm_lemma_1,
    "thesis:sec-6.3.1-centroid-list-adversarial": claim_centroid_list_2d,
    "thesis:sec-3.3.1-reid-bound": claim_reid_bound,
    "thesis:sec-3.3.1-reid-bound-ties": claim_reid_ties,
    "thesis:sec-3.4.1-table-3.10": claim_table_3_10,
    "thesis:sec-3.4.2-table-3.11": claim_table_3_11,
}

SLOW = frozenset({"thesis:sec-3.4.1-table-3.10", "thesis:sec-3.4.2-table-3.11"})


if __name__ == "__main__":
    out = {}
    for cid, fn in CLAIMS.items():
        t = time.time()
        r = fn()
        r["seconds"] = round(time.time() - t, 1)
        out[cid] = r
        print(json.dumps({cid: r}, default=str), flush=True)
