"""The equilibria of one rotation group where best responses do not settle: ladders of best
responses, candidates, indifference conditions.

Notation of :mod:`pigtheory.sequential.multiplayer.equilibrium`: a group has ``d`` distinct rotations
(movers) ``r = 0 .. d-1``; mover r's whole turn depends on the group only through its own value
``y_r`` after a bust (or a pass), the value at offset ``n - 1`` of rotation ``r + 1``.

Notes
-----
**Ladders.** At turn total k the roll value :math:`R_k(y)` is nondecreasing in ``y`` (for
``k >= 1``; at ``k = 0`` passing is worth ``y`` and :math:`R_0(y) - y` is nonincreasing,
the whole turn busts with probability at most 1), and the hold value does not depend on ``y``.
So every turn total changes its best action at most once as ``y`` runs over [0, 1], and the
best responses form a *ladder* :math:`\\pi^0, \\pi^1, \\dots, \\pi^L` with breakpoints
:math:`y^1 \\le \\dots \\le y^L`, consecutive policies differing at one turn total (ties at the
same breakpoint are split into steps). :math:`\\pi^j` is a best response exactly for
:math:`y \\in [y^j, y^{j+1}]`, and at :math:`y^{j+1}` so is every mixture of :math:`\\pi^j` and
:math:`\\pi^{j+1}`, which is one roll probability ``q`` at the turn total where they differ.
The turn's outcome (the values ``H`` of the holds and the chance ``beta`` of a bust) is affine
in ``q``: that turn total is reached with the same probability under both policies.

**Candidates.** A candidate gives every mover either a ladder step ``j`` (pure) or a
breakpoint ``j -> j + 1`` (mixing). With :math:`W_r = H_r + \\beta_r S W_{r+1}` around the
rotations (``S`` shifts the offsets), the group's values are
:math:`W = N(q) / D(q)` with ``D = 1 - prod(beta)``; the indifference conditions
:math:`y_r(q) = y^{j+1}_r` of the mixing movers are the polynomial equations
:math:`N_r(q) - y^{j+1}_r D(q) = 0`, of degree ``n / d`` in each ``q_r``. One mixing mover with
``d = n``: one linear equation, solved in closed form. Two with ``d = n``: two bilinear
equations, whose resultant is a quadratic (closed form). Otherwise (a symmetric group, or
three or more mixing movers): a univariate polynomial's roots (companion matrix) or Newton's
method from a grid of starts. Before solving, a candidate is discarded when its conditions
fail at every corner of its box of mixing probabilities (with ``d = n`` every ``y_r`` is a
ratio of multi-affine functions, monotone in each ``q``, so its range over the box is spanned
by the corners, which are pure profiles). Every solution is then checked: ``q`` in [0, 1], every pure
mover's ``y`` inside its step's interval, every mixing mover's ``y`` at its breakpoint.

**Window.** The candidates enumerated are those whose steps lie within one step of the
ladder positions that best-response iteration visited (from the three first guesses of
:func:`~pigtheory.sequential.multiplayer.group_solver.solve_level`); if none is an equilibrium the
window is widened, up to the whole ladders.

**Selection.** Among the equilibria found: a pure one if any (the one with the fewest rolling
states; then the first in ladder order), else the one with the fewest mixing movers, then the
smallest sum of ladder coordinates ``j + q`` (the least rolling).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from ...jit import compiled

__all__ = ["GroupProblem", "GroupEquilibrium", "ladder", "solve_group"]

_YTOL = 1e-11
"""Slack of the interval checks of a candidate (values are sums of ~100 rounded terms)."""


@dataclass
class GroupProblem:
    """One group as the mixed solver sees it (built by ``group_problem``)."""

    n: int
    d: int
    rid: np.ndarray  # flat index of each rotation
    K: np.ndarray  # live turn totals of each rotation's mover
    HV: np.ndarray  # (d, g + m + 1, n) hold values
    pvec: np.ndarray
    p_bust: float
    allow_pass: bool
    y0: np.ndarray  # first guesses of the movers' values after a bust (extrapolated)


@dataclass
class GroupEquilibrium:
    """The equilibrium picked for one group, and what the enumeration found."""

    W: np.ndarray  # (d, n) start-of-turn values
    rolls: list  # per rotation: bool array (K_r,), the lower policy where it mixes
    mixes: list  # (r, k, roll probability)
    n_equilibria: int
    n_candidates: int
    how: str
    others: list = field(default_factory=list)  # the W of the equilibria not picked
    steps: list = field(default_factory=list)  # per rotation: (roll_lo, roll_hi or None, k or None)
    q: np.ndarray = field(default_factory=lambda: np.zeros(0))  # weights of the upper steps


def group_problem(idx, n, g, pvec, p_bust, allow_pass, W):
    """The rotations, live turn totals and hold values of the group of tuple ``idx``."""
    from . import group_kernels as gk

    m = pvec.size
    rid = np.zeros(n, dtype=np.int64)
    first = np.zeros(n, dtype=np.int64)
    d = int(compiled(gk.group_info)(idx, n, g, rid, first))
    HV = np.zeros((d, g + m + 1, n))
    K = np.zeros(d, dtype=np.int64)
    y0 = np.zeros(d)
    for r in range(d):
        K[r] = g - first[r]
        compiled(gk.hold_values)(rid[r], first[r], n, g, W, HV[r])
        y0[r] = compiled(gk.start_guess)(rid[r], first[r], n, g, W, 0)
    return GroupProblem(n, d, rid[:d].copy(), K, HV, pvec, p_bust, allow_pass, y0)


def _evaluate(prob, r, roll, mixk=-1, mixp=0.0, y=0.0):
    """(H, beta, A, b, gain) of mover r's turn under ``roll`` (mixing at ``mixk``)."""
    from . import group_kernels as gk

    g = prob.HV.shape[1]
    A = np.zeros((g, prob.n))
    b = np.zeros(g)
    full = np.zeros(g, dtype=np.bool_)
    full[: roll.size] = roll
    turn = gk.Turn(prob.pvec, prob.p_bust, prob.allow_pass, 0.0)
    _, gain = compiled(gk.turn_pass)(
        int(prob.K[r]), y, prob.HV[r], turn, 1, full, full, gk.Mix(mixk, mixp), A, b
    )
    return A[0].copy(), float(b[0]), A, b, float(gain)


def best_response(prob, r, y, prev=None, tie=1e-13):
    """Mover r's best response at ``y`` (bool array over its live turn totals)."""
    from . import group_kernels as gk

    g = prob.HV.shape[1]
    A = np.zeros((g, prob.n))
    b = np.zeros(g)
    roll = np.zeros(g, dtype=np.bool_)
    pv = np.zeros(g, dtype=np.bool_) if prev is None else prev.copy()
    turn = gk.Turn(prob.pvec, prob.p_bust, prob.allow_pass, tie)
    compiled(gk.turn_pass)(int(prob.K[r]), y, prob.HV[r], turn, 0, roll, pv, gk.Mix(-1, 0.0), A, b)
    return roll[: prob.K[r]].copy()


@dataclass
class Ladder:
    """Mover r's best responses as ``y`` runs over [0, 1]: ``rolls[j]`` is a best response on
    ``[breaks[j - 1], breaks[j]]`` (``breaks[-1] = 0``, ``breaks[L] = 1``); ``flips[j]`` the
    turn total where ``rolls[j]`` and ``rolls[j + 1]`` differ."""

    breaks: np.ndarray
    flips: np.ndarray
    rolls: list

    def interval(self, j):
        lo = self.breaks[j - 1] if j > 0 else 0.0
        hi = self.breaks[j] if j < self.breaks.size else 1.0
        return lo, hi

    def position(self, y):
        return int(np.searchsorted(self.breaks, y, side="left"))


def ladder(prob, r):
    """The :class:`Ladder` of mover r (module Notes)."""
    K = int(prob.K[r])
    p = prob.pvec
    m = p.size
    hv = prob.HV[r, :K, 0]
    roll = best_response(prob, r, 0.0, tie=0.0)
    y = 0.0
    breaks, flips, rolls = [], [], [roll.copy()]
    for _ in range(K + 2):
        _, _, A, b, _ = _evaluate(prob, r, roll)
        Ra = np.correlate(A[1 : K + m, 0], p, mode="valid")[:K]
        Rb = prob.p_bust + np.correlate(b[1 : K + m], p, mode="valid")[:K]
        cross = np.full(K, np.inf)
        ks = np.arange(1, K)
        hold = ks[~roll[1:] & (Rb[1:] > 0)]
        cross[hold] = (hv[hold] - Ra[hold]) / Rb[hold]
        if prob.allow_pass and roll[0] and Rb[0] < 1.0:
            cross[0] = Ra[0] / (1.0 - Rb[0])
        cross = np.maximum(cross, y)
        k = int(np.argmin(cross))
        if not cross[k] <= 1.0:
            break
        y = float(cross[k])
        roll = roll.copy()
        roll[k] = not roll[k]
        breaks.append(y)
        flips.append(k)
        rolls.append(roll.copy())
    return Ladder(np.array(breaks), np.array(flips, dtype=np.int64), rolls)


def _values(H, beta, d, n):
    from . import mix_kernels as mk

    N = np.zeros((d, n))
    D = compiled(mk.num_den)(
        np.ascontiguousarray(H, dtype=float), np.ascontiguousarray(beta, dtype=float), d, n, N
    )
    return N / D if D > 0 else np.zeros_like(N)


class _Candidates:
    """Turn outcomes of ladder steps, cached: (H, beta) of mover r at step j."""

    def __init__(self, prob, ladders):
        self.prob, self.ladders, self.cache, self.arrays = prob, ladders, {}, {}

    def outcome(self, r, j):
        if (r, j) not in self.cache:
            H, beta, *_ = _evaluate(self.prob, r, self.ladders[r].rolls[j])
            self.cache[r, j] = (H, beta)
        return self.cache[r, j]


def _choice_arrays(cands, choice):
    """The compiled kernels' view of a candidate, a
    :class:`~pigtheory.sequential.multiplayer.group_kernels.Candidate`: the lower and upper steps' outcomes
    ``H0, H1`` (d, n) and ``b0, b1`` (d) (equal for the pure movers), the mixing rotations and
    their breakpoints."""
    from .group_kernels import Candidate

    key = tuple(choice)
    hit = cands.arrays.get(key)
    if hit is not None:
        return hit
    prob = cands.prob
    H0 = np.zeros((prob.d, prob.n))
    H1 = np.zeros((prob.d, prob.n))
    b0 = np.zeros(prob.d)
    b1 = np.zeros(prob.d)
    mixr, ystar = [], []
    for r, (kind, j) in enumerate(choice):
        H0[r], b0[r] = cands.outcome(r, j)
        if kind == "mix":
            H1[r], b1[r] = cands.outcome(r, j + 1)
            mixr.append(r)
            ystar.append(cands.ladders[r].breaks[j])
        else:
            H1[r], b1[r] = H0[r], b0[r]
    out = Candidate(H0, H1, b0, b1, np.array(mixr, dtype=np.int64), np.array(ystar, dtype=float))
    cands.arrays[key] = out
    return out


def _residuals(cands, choice, q):
    """Indifference residuals ``N_r - y* D`` of the mixing movers at mixing probabilities q."""
    from . import mix_kernels as mk

    prob = cands.prob
    cand = _choice_arrays(cands, choice)
    H = np.zeros((prob.d, prob.n))
    beta = np.zeros(prob.d)
    N = np.zeros((prob.d, prob.n))
    res = np.zeros(cand.mixr.size)
    compiled(mk.mix_residuals)(cand, np.asarray(q, dtype=float), prob.n, H, beta, N, res)
    return res, H, beta


def _solve_indifference(cands, choice, mu):
    """Solutions q in [0, 1]^mu of the indifference equations; and how they were found."""
    prob = cands.prob
    e = prob.n // prob.d  # degree in each q
    if mu == 1:
        nodes = np.linspace(0.0, 1.0, e + 1)
        vals = np.array([_residuals(cands, choice, [x])[0][0] for x in nodes])
        if e == 1:
            c1 = vals[1] - vals[0]
            if c1 == 0:
                return [], "degenerate (constant)"
            return [np.array([-vals[0] / c1])], "closed form (linear)"
        coef = np.polyfit(nodes, vals, e)
        roots = np.roots(coef)
        sols = [np.array([z.real]) for z in roots if abs(z.imag) < 1e-8]
        return [_newton(cands, choice, s) for s in sols], f"polynomial roots (degree {e})"
    if mu == 2 and e == 1:
        # multi-affine: res_i = a_i + b_i q1 + c_i q2 + d_i q1 q2, from the four corners
        corner = {(u, v): _residuals(cands, choice, [u, v])[0] for u in (0, 1) for v in (0, 1)}
        a = corner[0, 0]
        bq = corner[1, 0] - a
        cq = corner[0, 1] - a
        dq = corner[1, 1] - a - bq - cq
        # eliminate q2: (a1 + b1 q1)(c2 + d2 q1) - (a2 + b2 q1)(c1 + d1 q1) = 0
        p2 = bq[0] * dq[1] - bq[1] * dq[0]
        p1 = a[0] * dq[1] + bq[0] * cq[1] - a[1] * dq[0] - bq[1] * cq[0]
        p0 = a[0] * cq[1] - a[1] * cq[0]
        roots = np.roots([p2, p1, p0]) if (p2 or p1) else []
        sols = []
        for z in roots:
            if abs(z.imag) > 1e-8:
                continue
            q1 = z.real
            den = [cq[i] + dq[i] * q1 for i in range(2)]
            i = int(np.argmax(np.abs(den)))
            if den[i] == 0:
                continue
            q2 = -(a[i] + bq[i] * q1) / den[i]
            sols.append(_newton(cands, choice, np.array([q1, q2])))
        return sols, "closed form (quadratic)"
    starts = itertools.product(np.linspace(0.05, 0.95, 4), repeat=mu)
    sols = [_newton(cands, choice, np.array(s)) for s in starts]
    return [s for s in sols if s is not None], "Newton from a grid of starts"


def _newton(cands, choice, q, iters=30):
    """Polish a root of the indifference equations (finite-difference Jacobian, compiled:
    :func:`~pigtheory.sequential.multiplayer.mix_kernels.mix_newton`)."""
    from . import mix_kernels as mk

    q = np.asarray(q, dtype=float).copy()
    if np.any(q < -0.5) or np.any(q > 1.5):
        return q  # far outside [0, 1]: rejected by the checks, no need to polish
    if compiled(mk.mix_newton)(_choice_arrays(cands, choice), cands.prob.n, q, iters):
        return None
    return q


def _check(cands, choice, q):
    """The candidate's values if it is an equilibrium, else None."""
    prob = cands.prob
    if q is not None and (np.any(q < -1e-12) or np.any(q > 1 + 1e-12)):
        return None
    qq = [] if q is None else np.clip(q, 0.0, 1.0)
    res, H, beta = _residuals(cands, choice, qq)
    W = _values(H, beta, prob.d, prob.n)
    for r, (kind, j) in enumerate(choice):
        y = W[(r + 1) % prob.d, prob.n - 1]
        lad = cands.ladders[r]
        if kind == "mix":
            if abs(y - lad.breaks[j]) > _YTOL:
                return None
        else:
            lo, hi = lad.interval(j)
            if not lo - _YTOL <= y <= hi + _YTOL:
                return None
    return W


def _visited(prob, max_passes=60):
    """The ``y`` every mover sees in the limit of best-response iteration from the kernel's three
    first guesses: the cycle's (or the settled) values, not the transient before them."""
    seen = [[] for _ in range(prob.d)]
    for y0 in (None, 0.0, 1.0):
        y = prob.y0.copy() if y0 is None else np.full(prob.d, y0)
        rolls = [np.zeros(int(K), dtype=bool) for K in prob.K]
        profiles, history = [], []
        for _ in range(max_passes):
            H = np.zeros((prob.d, prob.n))
            beta = np.zeros(prob.d)
            for r in range(prob.d):
                rolls[r] = best_response(prob, r, y[r], prev=_pad(rolls[r], prob))
                H[r], beta[r], *_ = _evaluate(prob, r, rolls[r])
            key = b"".join(x.tobytes() for x in rolls)
            history.append(y.copy())
            if key in profiles:
                tail = history[profiles.index(key) + 1 :]
                break
            profiles.append(key)
            W = _values(H, beta, prob.d, prob.n)
            y = np.array([W[(r + 1) % prob.d, prob.n - 1] for r in range(prob.d)])
        else:
            tail = history[-4:]
        for r in range(prob.d):
            seen[r].extend(float(h[r]) for h in tail)
    return seen


def _pad(roll, prob):
    out = np.zeros(prob.HV.shape[1], dtype=np.bool_)
    out[: roll.size] = roll
    return out


def solve_group(prob, *, window=1, max_candidates=200_000):
    """All equilibria the method enumerates in one group, and the one it picks (module Notes).

    Returns
    -------
    GroupEquilibrium
    """
    ladders = [ladder(prob, r) for r in range(prob.d)]
    cands = _Candidates(prob, ladders)
    seen = _visited(prob)
    found = []
    tried = 0
    w = window
    corner_y: dict = {}

    def y_at(js):
        """The movers' after-bust values of the pure profile of ladder steps ``js``."""
        if js not in corner_y:
            H = np.zeros((prob.d, prob.n))
            beta = np.zeros(prob.d)
            for r, j in enumerate(js):
                H[r], beta[r] = cands.outcome(r, j)
            W = _values(H, beta, prob.d, prob.n)
            corner_y[js] = np.array([W[(r + 1) % prob.d, prob.n - 1] for r in range(prob.d)])
        return corner_y[js]

    def plausible(choice):
        """With d = n every y_r is a ratio of multi-affine functions of q, monotone in each q_r,
        so its range over the box of mixing probabilities is spanned by the box's corners (pure
        profiles): a candidate whose conditions fail there for every corner is no equilibrium."""
        if prob.d != prob.n:
            return True
        steps = [(j,) if kind == "pure" else (j, j + 1) for kind, j in choice]
        ys = np.array([y_at(js) for js in itertools.product(*steps)])
        lo, hi = ys.min(axis=0), ys.max(axis=0)
        for r, (kind, j) in enumerate(choice):
            lad = ladders[r]
            if kind == "mix":
                if not lo[r] - _YTOL <= lad.breaks[j] <= hi[r] + _YTOL:
                    return False
            else:
                a, b = lad.interval(j)
                if hi[r] < a - _YTOL or lo[r] > b + _YTOL:
                    return False
        return True

    w = window
    while True:
        options = []
        for r in range(prob.d):
            lad = ladders[r]
            pos = [lad.position(y) for y in seen[r]]
            lo, hi = max(min(pos) - w, 0), min(max(pos) + w, len(lad.rolls) - 1)
            opts = [("pure", j) for j in range(lo, hi + 1)]
            opts += [("mix", j) for j in range(lo, hi)]
            options.append(opts)
        for choice in itertools.product(*options):
            tried += 1
            if not plausible(choice):
                continue
            mu = sum(kind == "mix" for kind, _ in choice)
            if mu == 0:
                W = _check(cands, choice, None)
                if W is not None:
                    found.append((choice, np.zeros(0), W, "pure"))
                continue
            sols, how = _solve_indifference(cands, choice, mu)
            for q in sols:
                if q is None:
                    continue
                W = _check(cands, choice, q)
                if W is not None and np.all((q > 1e-12) & (q < 1 - 1e-12)):
                    found.append((choice, np.clip(q, 0, 1), W, how))
        full = all(len(o) == 2 * len(lad.rolls) - 1 for o, lad in zip(options, ladders, strict=True))
        if found or full or tried > max_candidates:
            break
        w *= 2
    if not found:
        raise RuntimeError(f"no equilibrium found in group {prob.rid.tolist()} after {tried} candidates")
    # distinct equilibria: by their values
    distinct = []
    for f in found:
        if not any(np.max(np.abs(f[2] - e[2])) < 1e-10 for e in distinct):
            distinct.append(f)

    def key(f):
        choice, q = f[0], f[1]
        mu = sum(kind == "mix" for kind, _ in choice)
        rolls = sum(int(ladders[r].rolls[j].sum()) for r, (kind, j) in enumerate(choice))
        coord = sum(j for _, j in choice) + float(np.sum(q))
        return (mu, rolls, coord)

    distinct.sort(key=key)
    choice, q, W, how = distinct[0]
    rolls, mixes, steps = [], [], []
    mixing = [r for r, (kind, _) in enumerate(choice) if kind == "mix"]
    for r, (kind, j) in enumerate(choice):
        rolls.append(ladders[r].rolls[j].copy())
        if kind == "mix":
            steps.append((ladders[r].rolls[j], ladders[r].rolls[j + 1], int(ladders[r].flips[j])))
        else:
            steps.append((ladders[r].rolls[j], None, None))
        if kind == "mix":
            k = int(ladders[r].flips[j])
            qr = float(q[mixing.index(r)])
            p_roll = qr if not rolls[r][k] else 1.0 - qr
            mixes.append((r, k, p_roll))
    return GroupEquilibrium(
        W=W,
        rolls=rolls,
        mixes=mixes,
        n_equilibria=len(distinct),
        n_candidates=tried,
        how=how,
        others=[e[2] for e in distinct[1:]],
        steps=steps,
        q=np.asarray(q, dtype=float),
    )
