"""Referee for claim "vldb14:sec-4.6-mixed-release-wordnet".

Written from the seed text alone (/work/shared/seeds/001_b1bb29bd0e0b4af8.txt, vldb14, §3-§5),
without reading privlab's code and without importing privlab.  The only file under src/ that is
read is the DATA file src/privlab/data/wordnet_adult_mapping.json (Adult OCCUPATION and
NATIVE-COUNTRY categories -> WordNet 3.0 noun synsets).  The WordNet taxonomies are built here
from /work/shared/data/wordnet-3.0/data.noun (code adapted from the earlier referees
ref_mixed_wordnet.py / ref_sec634_equations.py, copied, not imported): union of the hypernym (@)
and instance-hypernym (@i) closures of the mapped synsets up to entity.n.01; a category mapped
to one synset is that synset, a category mapped to several synsets is a new leaf whose parents
are those synsets.  NATIVE-COUNTRY is built exactly like OCCUPATION.

What the seed says (and how it is read here)
  * §3 Algorithm 2: while |X| >= 2k, C_i <- the k smallest records w.r.t. <=_i; the remaining
    k..2k-1 records form the last cluster; every record is replaced by its cluster's centroid.
  * §4.3: reference points R = {(a^1_{v1}, .., a^m_{vm}) : v_i in {b, t}}; R_1 arbitrary, "for
    instance R_1 = (a^1_b, .., a^m_b)" -- used here; R_{i+1} maximises the Hamming distance to
    R_i, ties -> greatest distance to R_{i-1}, ...  With m = 2: R_2 = (t, t); R_3, R_4 are tied on
    every criterion (Hamming 1 to both R_2 and R_1, eq.-(8) distance 1 to both), reading:
    R_3 = (t, b), R_4 = (b, t), then the cycle repeats.  For n <= 3k-1 (all the data sets used
    in the search) only R_1 is ever used: C_1 = the k smallest w.r.t. d(R_1, .), the rest is the
    last cluster.  The search is also re-run with R_1 = each of the four corners.
  * §4.4 eq. (2) m(Dom(A), a) = sum_{b in Dom(A)-{a}} delta(b, a); eq. (3) a_b = argmax m;
    eq. (4) a_t = argmax_a delta(a, a_b) (both unique on these taxonomies, checked exactly);
    total order by the record distance to the reference point, ties by "the alphabetical
    criterion" (read: lexicographic order of the (OCCUPATION, NATIVE-COUNTRY) category names;
    distances are compared after rounding to 12 significant digits so that equal distances
    computed along different float paths tie).
  * §4.4 Algorithm 4 / eq. (6): for each attribute A_i, Pr(c) ∝ exp(eps * (-m(S(A_i), c)) /
    (2 (n/k) Delta(m(A_i)))), c over the whole tau(A_i), m(S, c) = sum over the cluster's values
    (with multiplicity) of delta(s, c); Proposition 4's proof: Delta(m(A_i)) = delta(a_b, a_t);
    n/k read literally as the real number n/k (n = number of records, k the parameter).  The
    claim's "eps on each attribute" = the same eps in eq. (6) for OCCUPATION and for
    NATIVE-COUNTRY, independent draws.
  * §4.5 eq. (7): delta(a1, a2) = log2(1 + (|phi1 ∪ phi2| - |phi1 ∩ phi2|) / |phi1 ∪ phi2|),
    phi = ancestors including the concept itself.
  * §4.6 eq. (8): d(x1, x2) = sqrt(sum_i delta_i(x1_i, x2_i)^2 / delta_i(a_b^i, a_t^i)^2).
  * §5: eps in {0.01, 0.1, 1.0, 10.0} (text: "eps = 0.01, 0.1, 1.0, 10.0"); k "between 2 and 500
    for the two Adult data sets", Tables 3-4 use k = 2, 174 (~sqrt(30162)), 348; Census uses
    k = 2, 33, 66.  Grid used: k in {1, 2, 5, 33, 66, 100, 174, 348, 500} (the brief's list and
    k = 1).

Setting (brief): substitution neighbours (one record's values replaced, both attributes may
change), release = the multiset of the n released records (rows shuffled).

Structure used (verified numerically on the witnesses, see below)
  * n = 2k+1, k >= 2: Algorithm 2 makes exactly two clusters, of sizes k and k+1.  In the
    multiset the two centroid records are told apart by their multiplicities (k vs k+1), so the
    map (centroid draws) -> multiset is injective and P(out|D) = prod over 2 clusters x 2
    attributes of the Algorithm-4 probabilities; the exact loss of a pair is
    max(sum of the 4 per-term maxima, sum of the 4 per-term maxima of the negated log-ratio).
    A term with cluster S = rest + s in D and S' = rest + s' in D' has
    l(c) = beta (delta(s', c) - delta(s, c)) + log Z_{S'} - log Z_S, so
    max_c l = beta G(s, s') + log Z_{S'} - log Z_S with G(s, s') = max_c (delta(s',c)-delta(s,c)).
    Substitution x -> x' with x in C_1 and x' landing in C_2' (the case in which both clusters
    change; the reverse case is the same pair read backwards): with y = the (k+1)-th record,
    C_1 = rest1 + x -> rest1 + y, C_2 = y + rest2 -> rest2 + x'.
  * n = k (a single cluster of size k; n/k = 1): Algorithm 4 alone with eps per attribute.
  * k = 1: every cluster is a singleton; n = 1 is the n = k case; for n >= 2 the multiset is a
    post-processing of the n independent draws, of which one changes, so the loss is at most the
    single-draw loss with factor n/k = n (computed as an upper bound).

Search (own): for each (eps, k) and each y among the 574 records (14 x 41 values), all
rest1 = (k-1) copies of one record a, x, with a, x <= y in the order, and all rest2 = k copies of
one record b, x' with b, x' >= y ("homogeneous rests": 574^2 choices on each side, the two sides
separable given y) -- an exact maximisation inside that family, done with 2-D prefix maxima
(search_two; checked equal to the plain brute force search_two_bruteforce at two settings); for
n = k all records s -> s' and all homogeneous rests (the attributes decouple).  These are lower
bounds on the sup over all pairs.  Cross-checks: (i) exhaustive n = 5, k = 2 over ALL data sets
and all substitutions on a 9-record sub-domain (3 occupations x 3 countries) with the general
Algorithm 2 implementation (no case analysis); (ii) every witness of the grid is rebuilt as
explicit data sets D, D', clustered by the general Algorithm 2 with the reference-point sequence,
and its loss re-computed with mpmath at 50 digits; four n = 2k+1 witnesses also by brute force
over ALL (47*66)^2 ordered centroid outputs in float64 without the separability shortcut;
(iii) the n = 2k+1 search re-run with R_1 = each corner and with reverse-alphabetical ties.
Upper bounds: each term is at most 2 beta Delta_true with Delta_true = max_{c in tau, s, s'}
|delta(s,c) - delta(s',c)|, checked exactly equal to delta(a_b, a_t) for both attributes, so
loss <= 2 eps (n = k) and <= 4k/(2k+1) eps (n = 2k+1).
"""
from __future__ import annotations

import itertools
import json
import math
import os
import time
from fractions import Fraction as F
from pathlib import Path

import mpmath
import numpy as np

CID = "vldb14:sec-4.6-mixed-release-wordnet"
HERE = Path(__file__).resolve()
REPO = HERE.parents[2]
MAPPING = REPO / "src" / "privlab" / "data" / "wordnet_adult_mapping.json"
EPS_LIST = [0.01, 0.1, 1.0, 10.0]
K_LIST = [1, 2, 5, 33, 66, 100, 174, 348, 500]
ATTRS = [("OCCUPATION", "wordnet-occupation"), ("NATIVE-COUNTRY", "wordnet-native-country")]


def _data_dir():
    cands = []
    if os.environ.get("PRIVLAB_DATA_DIR"):
        cands.append(Path(os.environ["PRIVLAB_DATA_DIR"]))
    cands += [Path("/work/shared/data"), REPO.parent / "shared" / "data"]
    for c in cands:
        if (c / "wordnet-3.0" / "data.noun").is_file():
            return c
    return None


# ------------------------------------------------------------------ WordNet taxonomies
def _read_synsets(path):
    """offset -> (first lemma, [hypernym offsets via @ / @i])."""
    out = {}
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if line.startswith(" "):
                continue
            tok = line.split("|", 1)[0].split()
            off, nw = tok[0], int(tok[3], 16)
            lemma = tok[4]
            p = 4 + 2 * nw
            npt = int(tok[p])
            p += 1
            hyp = []
            for _ in range(npt):
                sym, tgt, pos = tok[p], tok[p + 1], tok[p + 2]
                p += 4
                if sym in ("@", "@i") and pos == "n":
                    hyp.append(tgt)
            out[off] = (lemma, hyp)
    return out


class Attr:
    """One categorical attribute: Dom (category list, sorted by name), tau (all concepts),
    exact ratios r, delta matrix D (dom x tau), boundaries, Delta, true sensitivity, G."""

    def __init__(self, label, syn, cats):
        self.label = label
        parents = {}

        def close(off):
            if off in parents:
                return
            parents[off] = list(syn[off][1])
            for h in parents[off]:
                close(h)

        dom, name = [], {}
        for cat in sorted(cats):
            offs = [s["offset"] for s in cats[cat]["synsets"]]
            for o in offs:
                close(o)
            node = offs[0] if len(offs) == 1 else "leaf:" + cat
            if len(offs) > 1:
                parents[node] = offs
            dom.append(node)
            name[node] = cat
        phi = {}

        def anc(x):
            if x not in phi:
                s = {x}
                for p in parents[x]:
                    s |= anc(p)
                phi[x] = frozenset(s)
            return phi[x]

        for x in parents:
            anc(x)
        self.nodes = list(parents)
        self.names = [name.get(x, syn[x][0] if x in syn else x) for x in self.nodes]
        self.dom_names = [name[x] for x in dom]
        self.nd, self.nt = len(dom), len(self.nodes)

        def ratio(a, b):
            u = len(phi[a] | phi[b])
            return F(u - len(phi[a] & phi[b]), u)

        self.R = [[ratio(a, c) for c in self.nodes] for a in dom]
        self.D = np.array([[math.log2(1 + float(r)) for r in row] for row in self.R])
        ti = {x: j for j, x in enumerate(self.nodes)}
        Rdd = [[self.R[i][ti[b]] for b in dom] for i in range(self.nd)]
        self.Ddd = np.array([[math.log2(1 + float(r)) for r in row] for row in Rdd])
        # eq. (2)/(3) exactly: compare prod(1 + r)
        prods = [math.prod([1 + Rdd[i][j] for j in range(self.nd) if j != i]) for i in range(self.nd)]
        pm = max(prods)
        self.ab_all = [i for i in range(self.nd) if prods[i] == pm]
        self.ab = self.ab_all[0]
        rmax = max(Rdd[self.ab])
        self.at_all = [j for j in range(self.nd) if Rdd[self.ab][j] == rmax]
        self.at = self.at_all[0]
        self.Delta_q = 1 + rmax                       # Delta = log2(Delta_q)
        self.Delta = math.log2(float(self.Delta_q))
        # true sensitivity of m over tau: max_c max_s (1+r(s,c)) / min_s (1+r(s,c)), exact
        best = F(1)
        for ci in range(self.nt):
            col = [1 + self.R[s][ci] for s in range(self.nd)]
            best = max(best, max(col) / min(col))
        self.sens_q = best
        diam = max(max(row) for row in Rdd)
        self.diam_q = 1 + diam
        # G[s, s'] = max_c (delta(s', c) - delta(s, c))
        self.G = (self.D[None, :, :] - self.D[:, None, :]).max(axis=2)

    def Lh(self, beta, j):
        """Lh[a, s] = log sum_c exp(-beta (j delta(a, c) + delta(s, c))) (float64)."""
        E = -beta * (j * self.D[:, None, :] + self.D[None, :, :])
        mx = E.max(axis=2, keepdims=True)
        return (mx + np.log(np.exp(E - mx).sum(axis=2, keepdims=True)))[:, :, 0]

    def logp_np(self, counts, beta):
        """log Pr[c] over tau for a cluster given by a count vector over Dom (float64)."""
        E = -beta * (np.asarray(counts, float) @ self.D)
        mx = E.max()
        return E - (mx + np.log(np.exp(E - mx).sum()))

    def logp_mp(self, counts, eps, nk):
        """same at the caller's mpmath precision; eps, nk = n/k given exactly (mpf/Fraction)."""
        lg2 = mpmath.log(2)
        Delta = mpmath.log(mpmath.mpf(self.Delta_q.numerator) / self.Delta_q.denominator) / lg2
        beta = eps / (2 * mpmath.mpf(nk.numerator) / nk.denominator * Delta)
        es = []
        for ci in range(self.nt):
            m = mpmath.mpf(0)
            for s, w in enumerate(counts):
                if w:
                    r = self.R[s][ci]
                    m += w * mpmath.log(mpmath.mpf(r.numerator + r.denominator) / r.denominator) / lg2
            es.append(-beta * m)
        lz = mpmath.log(mpmath.fsum(mpmath.exp(x) for x in es))
        return [x - lz for x in es]


class Setup:
    def __init__(self, dd):
        syn = _read_synsets(dd / "wordnet-3.0" / "data.noun")
        tx = json.loads(MAPPING.read_text())["taxonomies"]
        self.A = [Attr(lab, syn, tx[key]["categories"]) for lab, key in ATTRS]
        n1, n2 = self.A[0].nd, self.A[1].nd
        self.recs = [(i, j) for i in range(n1) for j in range(n2)]   # record r = i*n2 + j
        self.n1, self.n2 = n1, n2
        corners = {}
        for v1 in "bt":
            for v2 in "bt":
                corners[v1 + v2] = (getattr(self.A[0], "a" + v1), getattr(self.A[1], "a" + v2))
        self.corners = corners
        # §4.3 sequence: R1=(b,b), R2=(t,t) (Hamming 2), R3/R4 tied on every criterion -> (t,b),(b,t)
        self.ref_seq = ["bb", "tt", "tb", "bt"]
        self._rank = {}
        self.tie = "alpha"

    def rname(self, r):
        i, j = self.recs[r] if isinstance(r, (int, np.integer)) else r
        return f"({self.A[0].dom_names[i]}, {self.A[1].dom_names[j]})"

    def rank(self, corner):
        """rank array over the 574 records for the total order <= defined by the reference
        point `corner`: eq. (8) distance, ties by the category names in alphabetical order
        (self.tie == "alpha", the reading used) or in reverse alphabetical order ("reverse",
        a robustness variant)."""
        key_ = (corner, self.tie)
        if key_ not in self._rank:
            R = self.corners[corner]
            sgn = 1 if self.tie == "alpha" else -1
            keys = []
            for r, (i, j) in enumerate(self.recs):
                d2 = ((self.A[0].Ddd[R[0], i] / self.A[0].Delta) ** 2
                      + (self.A[1].Ddd[R[1], j] / self.A[1].Delta) ** 2)
                d = float(f"{math.sqrt(d2):.12g}")
                # Dom lists are sorted by name, so the value index is the alphabetical rank
                keys.append((d, sgn * i, sgn * j, r))
            order = [kk[3] for kk in sorted(keys)]
            rk = np.empty(len(order), dtype=np.int64)
            rk[order] = np.arange(len(order))
            self._rank[key_] = rk
        return self._rank[key_]

    # ---------------------------------------------------------- general Algorithm 2
    def clusters(self, data, k, first="bb"):
        """Algorithm 2 on a list of record indices; the reference-point sequence starts at
        `first` and continues as in §4.3 (cyclic)."""
        seq = self.ref_seq[self.ref_seq.index(first):] + self.ref_seq[:self.ref_seq.index(first)]
        if first != "bb":
            # recompute the §4.3 sequence from R1 = first: R2 = opposite corner, then the other two
            opp = {"b": "t", "t": "b"}
            r2 = opp[first[0]] + opp[first[1]]
            rest = [c for c in ("tb", "bt", "bb", "tt") if c not in (first, r2)]
            seq = [first, r2] + rest
        X = list(data)
        out, i = [], 0
        while len(X) >= 2 * k:
            rk = self.rank(seq[i % len(seq)])
            X.sort(key=lambda r: rk[r])
            out.append(X[:k])
            X = X[k:]
            i += 1
        out.append(X)
        return out

    def counts(self, cluster):
        c1 = np.zeros(self.n1, dtype=np.int64)
        c2 = np.zeros(self.n2, dtype=np.int64)
        for r in cluster:
            i, j = self.recs[r]
            c1[i] += 1
            c2[j] += 1
        return c1, c2


def _betas(st, eps, nk):
    return [eps / (2 * nk * a.Delta) for a in st.A]


# ------------------------------------------------------------------ loss of explicit pairs
def pair_loss_float(st, D, Dp, k, eps, first="bb"):
    """exact loss (float64) of the release for an explicit pair, for the cases where the
    clusters have pairwise different sizes (separable law).  Returns (loss, clusters)."""
    n = len(D)
    CD, CDp = st.clusters(D, k, first), st.clusters(Dp, k, first)
    sizes = [len(c) for c in CD]
    assert sizes == [len(c) for c in CDp] and len(set(sizes)) == len(sizes)
    betas = _betas(st, eps, n / k)
    up = dn = 0.0
    for S, Sp in zip(CD, CDp):
        for a, cs, csp, b in zip(st.A, st.counts(S), st.counts(Sp), betas):
            l = a.logp_np(cs, b) - a.logp_np(csp, b)
            up += l.max()
            dn += (-l).max()
    return max(up, dn), CD, CDp


def pair_loss_mp(st, D, Dp, k, eps_mp, first="bb"):
    """same with mpmath (caller's precision); n/k exact as a Fraction."""
    n = len(D)
    CD, CDp = st.clusters(D, k, first), st.clusters(Dp, k, first)
    nk = F(n, k)
    up = dn = mpmath.mpf(0)
    for S, Sp in zip(CD, CDp):
        for a, cs, csp in zip(st.A, st.counts(S), st.counts(Sp)):
            p, q = a.logp_mp(cs, eps_mp, nk), a.logp_mp(csp, eps_mp, nk)
            l = [x - y for x, y in zip(p, q)]
            up += max(l)
            dn += max(-x for x in l)
    return max(up, dn)


def pair_loss_bruteforce(st, D, Dp, k, eps, first="bb"):
    """n = 2k+1: the log-ratio over ALL ordered outputs (c1_occ, c1_cty, c2_occ, c2_cty), i.e.
    over all multisets (injective: multiplicities k and k+1), without the separability
    shortcut: the full 4-D table of log P(out|D) - log P(out|D') is formed and its max |.|
    taken."""
    n = len(D)
    CD, CDp = st.clusters(D, k, first), st.clusters(Dp, k, first)
    assert [len(c) for c in CD] == [k, k + 1]
    betas = _betas(st, eps, n / k)

    def table(C):
        (a1, a2), (b1, b2) = st.counts(C[0]), st.counts(C[1])
        A0, A1 = st.A
        T1 = A0.logp_np(a1, betas[0])[:, None] + A1.logp_np(a2, betas[1])[None, :]
        T2 = A0.logp_np(b1, betas[0])[:, None] + A1.logp_np(b2, betas[1])[None, :]
        return T1.ravel(), T2.ravel()

    P1, P2 = table(CD)
    Q1, Q2 = table(CDp)
    d1, d2 = P1 - Q1, P2 - Q2
    full = d1[:, None] + d2[None, :]          # (47*66)^2 outputs
    return float(np.abs(full).max()), int(full.size)


# ------------------------------------------------------------------ searches
def search_single(st, eps, k):
    """n = k: one cluster, n/k = 1.  rest = (k-1) copies of one value per attribute (records
    pair values freely, so the attributes decouple), s -> s' any.  Returns (loss, witness)."""
    betas = _betas(st, eps, 1.0)
    tot, wit = 0.0, []
    for a, b in zip(st.A, betas):
        L = a.Lh(b, k - 1)                                   # [rest a, s]
        # up[a, s, s'] = b G[s, s'] + L[a, s'] - L[a, s]
        U = b * a.G[None, :, :] + L[:, None, :] - L[:, :, None]
        i = np.unravel_index(int(np.argmax(U)), U.shape)
        tot += float(U[i])
        wit.append(tuple(int(v) for v in i))
    return tot, wit


def search_two_bruteforce(st, eps, k, corner="bb"):
    """n = 2k+1, k >= 2: exact maximum over the homogeneous-rest family (see docstring), by
    brute force over all 574^2 (rest, substituted record) choices on each side for every y.
    Returns (loss, witness (a, x, y, b, x') as record indices)."""
    n = 2 * k + 1
    betas = _betas(st, eps, n / k)
    rk = st.rank(corner)
    A0, A1 = st.A
    n1, n2 = st.n1, st.n2
    L1 = [a.Lh(b, k - 1) for a, b in zip(st.A, betas)]     # cluster 1 rest (k-1) x a
    L2 = [a.Lh(b, k) for a, b in zip(st.A, betas)]         # cluster 2 rest k x b
    best, wit = -np.inf, None
    for y in range(len(st.recs)):
        y1, y2 = st.recs[y]
        low = (rk <= rk[y]).reshape(n1, n2)
        high = (rk >= rk[y]).reshape(n1, n2)
        res = {}
        for dirn in ("up", "dn"):
            tot = 0.0
            parts = []
            for side, L, mask in ((1, L1, low), (2, L2, high)):
                P = []
                for ai, (a, b, Li, yi) in enumerate(zip(st.A, betas, L, (y1, y2))):
                    # rows: rest value, cols: the substituted value z (x for side 1, x' for side 2)
                    if side == 1:       # s = x (col), s' = y
                        if dirn == "up":
                            M = b * a.G[:, yi][None, :] + Li[:, yi][:, None] - Li
                        else:
                            M = b * a.G[yi, :][None, :] + Li - Li[:, yi][:, None]
                    else:               # s = y, s' = x' (col)
                        if dirn == "up":
                            M = b * a.G[yi, :][None, :] + Li - Li[:, yi][:, None]
                        else:
                            M = b * a.G[:, yi][None, :] + Li[:, yi][:, None] - Li
                    P.append(M)
                # T[(r1, r2), (z1, z2)] = P0[r1, z1] + P1[r2, z2]
                T = (P[0][:, None, :, None] + P[1][None, :, None, :]).reshape(n1 * n2, n1 * n2)
                mk = mask.ravel()
                T = np.where(mk[:, None] & mk[None, :], T, -np.inf)
                j = int(np.argmax(T))
                tot += float(T.flat[j])
                parts.append(divmod(j, n1 * n2))
            res[dirn] = (tot, parts)
        dirn = max(res, key=lambda d: res[d][0])
        if res[dirn][0] > best:
            (a_, x_), (b_, xp_) = res[dirn][1]
            best, wit = res[dirn][0], (a_, x_, y, b_, xp_, dirn)
    return best, wit


def _side_mats(st, betas, L, yv, side, dirn):
    """per-attribute matrices M_i[rest value, substituted value] of one cluster term (see
    search_two_bruteforce) for the record y = yv."""
    out = []
    for a, b, Li, yi in zip(st.A, betas, L, st.recs[yv]):
        if (side == 1) == (dirn == "up"):
            M = b * a.G[:, yi][None, :] + Li[:, yi][:, None] - Li
        else:
            M = b * a.G[yi, :][None, :] + Li - Li[:, yi][:, None]
        out.append(M)
    return out


def search_two(st, eps, k, corner="bb"):
    """n = 2k+1, k >= 2: the same exact maximum over the homogeneous-rest family as
    search_two_bruteforce, computed with the order's structure: for a fixed OCCUPATION value
    r1 the records (r1, .) are ordered by delta(a_b^2, .) then name, i.e. by one fixed order pi2
    of the countries (asserted), so {r2 : (r1, r2) <= y} is a prefix of pi2 and the inner
    maximum over (rest2, z2) is a 2-D prefix maximum.  Returns (loss, witness)."""
    n = 2 * k + 1
    betas = _betas(st, eps, n / k)
    rk = st.rank(corner)
    n1, n2 = st.n1, st.n2
    Rk = rk.reshape(n1, n2)
    pi2 = np.argsort(Rk[0], kind="stable")
    for r1 in range(n1):
        assert np.array_equal(np.argsort(Rk[r1], kind="stable"), pi2)
    L1 = [a.Lh(b, k - 1) for a, b in zip(st.A, betas)]
    L2 = [a.Lh(b, k) for a, b in zip(st.A, betas)]
    Rs = Rk[:, pi2]                                   # increasing along axis 1
    best, wit = -np.inf, None
    ninf = -np.inf
    for y in range(n1 * n2):
        t = rk[y]
        res = {}
        for dirn in ("up", "dn"):
            tot, parts = 0.0, []
            for side, L in ((1, L1), (2, L2)):
                P0, P1 = _side_mats(st, betas, L, y, side, dirn)
                Q = P1[pi2][:, pi2]
                if side == 1:
                    ell = (Rs <= t).sum(axis=1)       # prefix lengths per r1
                    PM = np.full((n2 + 1, n2 + 1), ninf)
                    PM[1:, 1:] = np.maximum.accumulate(np.maximum.accumulate(Q, axis=0), axis=1)
                    V = P0 + PM[ell[:, None], ell[None, :]]
                else:
                    ell = (Rs >= t).sum(axis=1)       # suffix lengths per r1
                    Qr = Q[::-1, ::-1]
                    PM = np.full((n2 + 1, n2 + 1), ninf)
                    PM[1:, 1:] = np.maximum.accumulate(np.maximum.accumulate(Qr, axis=0), axis=1)
                    V = P0 + PM[ell[:, None], ell[None, :]]
                r1, z1 = np.unravel_index(int(np.argmax(V)), V.shape)
                la, lb = ell[r1], ell[z1]
                sub = Q[:la, :lb] if side == 1 else Q[n2 - la:, n2 - lb:]
                i2, j2 = np.unravel_index(int(np.argmax(sub)), sub.shape)
                if side == 2:
                    i2, j2 = i2 + n2 - la, j2 + n2 - lb
                r2, z2 = int(pi2[i2]), int(pi2[j2])
                tot += float(V[r1, z1])
                parts.append((int(r1) * n2 + r2, int(z1) * n2 + z2))
            res[dirn] = (tot, parts)
        dirn = max(res, key=lambda d: res[d][0])
        if res[dirn][0] > best:
            (a_, x_), (b_, xp_) = res[dirn][1]
            best, wit = res[dirn][0], (a_, x_, y, b_, xp_, dirn)
    return best, wit


def witness_data(k, wit):
    a, x, y, b, xp, _ = wit
    D = [a] * (k - 1) + [x] + [y] + [b] * k
    Dp = [a] * (k - 1) + [y] + [b] * k + [xp]
    return D, Dp


def exhaustive_small(st, eps_list, k=2, n=5):
    """ALL data sets of n records over a 9-record sub-domain and all substitutions inside it,
    general Algorithm 2, separable exact loss (clusters of sizes 2 and 3)."""
    A0, A1 = st.A
    occ = [A0.ab, A0.at, A0.dom_names.index("Prof-specialty")]
    cty = [A1.ab, A1.at, A1.dom_names.index("United-States")]
    vals = [i * st.n2 + j for i in occ for j in cty]
    pairs = set()
    for data in itertools.combinations_with_replacement(vals, n):
        CD = tuple(tuple(sorted(c)) for c in st.clusters(list(data), k))
        for p, xv in enumerate(data):
            for yv in vals:
                if yv != xv:
                    dp = list(data[:p]) + [yv] + list(data[p + 1:])
                    CDp = tuple(tuple(sorted(c)) for c in st.clusters(dp, k))
                    pairs.add((CD, CDp, data, tuple(sorted(dp))))
    out = {}
    for eps in eps_list:
        betas = _betas(st, eps, n / k)
        cache = {}

        def lp(C):
            if C not in cache:
                c1, c2 = st.counts(C)
                cache[C] = (A0.logp_np(c1, betas[0]), A1.logp_np(c2, betas[1]))
            return cache[C]

        best, bw = -1.0, None
        for CD, CDp, d, dp in pairs:
            up = dn = 0.0
            for S, Sp in zip(CD, CDp):
                for u, v in zip(lp(S), lp(Sp)):
                    l = u - v
                    up += l.max()
                    dn += (-l).max()
            if max(up, dn) > best:
                best, bw = max(up, dn), (d, dp)
        out[eps] = (best, bw)
    return out, len(pairs), [st.rname(v) for v in vals]


# ------------------------------------------------------------------ main check
def check():
    t0 = time.time()
    dd = _data_dir()
    if dd is None or not MAPPING.is_file():
        return {"holds": None, "method": "", "domain": "", "numbers": {},
                "note": "wordnet-3.0 data or the mapping file absent"}
    st = Setup(dd)
    A0, A1 = st.A
    numbers = {"attributes": {}}
    for a in st.A:
        numbers["attributes"][a.label] = {
            "tau_concepts": a.nt, "Dom": a.nd,
            "a_b": [a.dom_names[i] for i in a.ab_all], "a_t": [a.dom_names[i] for i in a.at_all],
            "Delta=delta(a_b,a_t)": a.Delta,
            "true_sensitivity_over_tau": math.log2(float(a.sens_q)),
            "Delta_equals_true_sensitivity_exactly": a.sens_q == a.Delta_q,
            "diameter_of_Dom": math.log2(float(a.diam_q)),
        }
    numbers["eps_grid"] = EPS_LIST
    numbers["k_grid"] = K_LIST
    numbers["reference_points"] = {c: st.rname(st.corners[c]) for c in st.ref_seq}

    # ---- searches over the grid
    F2 = "n=2k+1 (two clusters)"
    F1 = "n=k (one cluster)"
    grid = {}
    for eps in EPS_LIST:
        for k in K_LIST:
            key = f"eps={eps:g},k={k}"
            row = {}
            ls, ws = search_single(st, eps, k)
            rest = ws[0][0] * st.n2 + ws[1][0]
            x = ws[0][1] * st.n2 + ws[1][1]
            xp = ws[0][2] * st.n2 + ws[1][2]
            row[F1] = {"loss": ls, "loss/eps": ls / eps,
                       "D": (f"{k - 1}x{st.rname(rest)} + " if k > 1 else "") + st.rname(x),
                       "D'": f"{st.rname(x)} replaced by {st.rname(xp)}",
                       "_data": ([rest] * (k - 1) + [x], [rest] * (k - 1) + [xp])}
            if k == 1:
                # n >= 2, k = 1: singleton clusters; bound by the single-draw loss at n/k = 2
                u = 0.0
                for a, b in zip(st.A, _betas(st, eps, 2.0)):
                    L = a.Lh(b, 0)
                    u += float((b * a.G + L[0][None, :] - L[0][:, None]).max())
                row["k=1,n>=2 (upper bound)"] = {"loss": u, "loss/eps": u / eps}
            else:
                l2, w2 = search_two(st, eps, k)
                D, Dp = witness_data(k, w2)
                row[F2] = {"loss": l2, "loss/eps": l2 / eps,
                           "D": (f"{k - 1}x{st.rname(w2[0])} + {st.rname(w2[1])} + "
                                 f"{st.rname(w2[2])} + {k}x{st.rname(w2[3])}"),
                           "D'": f"{st.rname(w2[1])} replaced by {st.rname(w2[4])}",
                           "_data": (D, Dp)}
            row["bound/eps n=k"] = 2.0
            row["bound/eps n=2k+1"] = 4 * k / (2 * k + 1)
            grid[key] = row
    # ---- verify every witness: explicit data sets, general Algorithm 2, mpmath at 50 digits
    for key, row in grid.items():
        eps = float(key.split(",")[0][4:])
        k = int(key.split("k=")[1])
        for fam in (F1, F2):
            if fam not in row:
                continue
            D, Dp = row[fam].pop("_data")
            with mpmath.workdps(50):
                lm = float(pair_loss_mp(st, D, Dp, k, mpmath.mpf(repr(eps))))
            assert abs(lm - row[fam]["loss"]) < 1e-8 * max(1.0, lm), (key, fam, lm, row[fam])
            row[fam]["loss_mpmath50"] = lm
            row[fam]["cluster_sizes"] = [len(c) for c in st.clusters(D, k)]
            if fam == F2 and key in ("eps=1,k=2", "eps=10,k=2", "eps=10,k=5", "eps=0.01,k=33"):
                bf, nout = pair_loss_bruteforce(st, D, Dp, k, eps)
                assert abs(bf - lm) < 1e-8 * max(1.0, lm)
                row[fam]["loss_bruteforce_all_outputs"] = bf
                row[fam]["outputs_enumerated"] = nout
    # ---- robustness of the n=2k+1 search to the reading choices
    rob = {}
    for eps, k in ((0.01, 33), (1.0, 5), (10.0, 2)):
        ent = {f"R1={c}": search_two(st, eps, k, c)[0] / eps for c in ("bb", "tt", "tb", "bt")}
        st.tie = "reverse"
        ent["R1=bb, reverse-alphabetical ties"] = search_two(st, eps, k, "bb")[0] / eps
        st.tie = "alpha"
        rob[f"eps={eps:g},k={k}"] = ent
    numbers["n=2k+1 loss/eps under other readings (R1 corner, tie rule)"] = rob
    # ---- the fast family search against the plain brute force over the same family
    xs = {}
    for eps, k in ((10.0, 2), (0.1, 5)):
        fast, bf = search_two(st, eps, k)[0], search_two_bruteforce(st, eps, k)[0]
        assert abs(fast - bf) < 1e-9 * max(1.0, abs(bf))
        xs[f"eps={eps:g},k={k}"] = {"prefix_max_search": fast, "bruteforce_search": bf}
    numbers["family search cross-check"] = xs
    # ---- exhaustive small case
    ex, npairs, vals = exhaustive_small(st, EPS_LIST)
    numbers["exhaustive n=5,k=2 on a 9-record sub-domain"] = {
        "records": vals, "distinct_cluster_pairs": npairs,
        "loss/eps": {f"{e:g}": v[0] / e for e, v in ex.items()},
        "witness_at_eps_10": [[st.rname(r) for r in ex[10.0][1][0]], [st.rname(r) for r in ex[10.0][1][1]]]}
    # ---- verdict
    fails = {F1: [], F2: []}
    for key, row in grid.items():
        for fam in (F1, F2):
            if fam in row and row[fam]["loss_mpmath50"] > float(key.split(",")[0][4:]) * (1 + 1e-9):
                fails[fam].append(key)
    numbers["grid"] = grid
    numbers["loss/eps table"] = {key: {fam: round(row[fam]["loss/eps"], 6) for fam in (F1, F2) if fam in row}
                                 for key, row in grid.items()}
    numbers["failing (eps,k)"] = fails
    allf = sorted({kk for v in fails.values() for kk in v},
                  key=lambda kk: (float(kk.split(",")[0][4:]), int(kk.split("k=")[1])))
    numbers["failing (eps,k), any family"] = allf
    best = max(((row[fam]["loss/eps"], key, fam) for key, row in grid.items() for fam in (F1, F2)
                if fam in row))
    numbers["largest loss/eps"] = {"value": best[0], "at": best[1], "family": best[2]}
    weakest = {}
    for fam in (F1, F2):
        if fails[fam]:
            kk = min(fails[fam], key=lambda t: (float(t.split(",")[0][4:]), int(t.split("k=")[1])))
            weakest[fam] = {"at": kk, **grid[kk][fam]}
    numbers["weakest failing (eps,k) (smallest eps, then smallest k)"] = weakest
    numbers["seconds"] = round(time.time() - t0, 1)

    holds = not allf
    tab = "; ".join(f"{key}: " + ", ".join(f"{'n=k' if fam == F1 else 'n=2k+1'} {row[fam]['loss/eps']:.4f}"
                                             for fam in (F1, F2) if fam in row)
                    for key, row in grid.items())
    if holds:
        note = f"TRUE at every (eps, k) of the grid; loss/eps: {tab}"
    else:
        parts = []
        for fam, w in weakest.items():
            wdp = w["D'"]
            parts.append(f"{fam}: weakest failure {w['at']}, loss/eps {w['loss/eps']:.4f}, "
                         f"D = {{{w['D']}}}, D' = {wdp} (clusters {w['cluster_sizes']}, exact loss "
                         f"{w['loss_mpmath50']:.6g})")
        note = (f"FALSE: loss > eps at {len(allf)} of {len(grid)} grid settings. "
                f"n=2k+1 family fails at {fails[F2]}; n=k family fails at all {len(fails[F1])}. "
                + " | ".join(parts)
                + f". Largest loss/eps {best[0]:.6f} ({best[1]}, {best[2]}); bounds 2 (n=k) and "
                "4k/(2k+1) (n=2k+1). Delta = delta(a_b,a_t) equals the true sensitivity of m over "
                "tau on both taxonomies, so each attribute's draw is eps*k/n-DP per cluster and the "
                "n/k factor pays for the clusters, but eps is spent on EACH of the two attributes "
                "(sequential composition) and one substitution changes both attributes; splitting "
                f"eps over the attributes would be needed. loss/eps: {tab}")
    return {"holds": holds,
            "method": ("exact privacy loss of explicit neighbouring pairs: product law over clusters "
                       "x attributes (n=2k+1: sizes k, k+1 identify the draws in the multiset), "
                       "sup = max(sum of per-term maxima, sum of per-term minima negated); checked "
                       "by brute force over all (47*66)^2 outputs and at mpmath 50 digits; pairs "
                       "maximised exactly over homogeneous-rest families (all 574 records) for n=k "
                       "and n=2k+1, plus an exhaustive n=5, k=2 scan on a 9-record sub-domain"),
            "domain": ("Adult-Categorical: OCCUPATION (14) x NATIVE-COUNTRY (41), WordNet 3.0 "
                       f"taxonomies built from the mapping ({A0.nt} and {A1.nt} concepts), eps in "
                       f"{EPS_LIST}, k in {K_LIST}, n in {{k, 2k+1}}, substitution neighbours, "
                       "multiset release, R1 = (a_b, a_b), alphabetical ties, n/k real"),
            "numbers": numbers, "note": note}


def _check_at_50_digits():
    with mpmath.workdps(50):
        return check()


CLAIMS = {CID: _check_at_50_digits}
SLOW: frozenset[str] = frozenset({CID})

if __name__ == "__main__":
    r = check()
    print(json.dumps(r, indent=1, default=str))
