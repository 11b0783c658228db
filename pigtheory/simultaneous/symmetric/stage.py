"""The stage game of a symmetric equilibrium at one state, solved with its certificate.

Shapes
------
A state is a sorted score tuple ``s`` (``s[0] <= ... <= s[n-1] < goal``). Its *roles* are the
distinct scores: role r has score ``t[r]``, ``mult[r]`` players and, in a symmetric
equilibrium, one strategy that all of them use. ``orole[r, q]`` is the role of the q-th
other player seen from a player of role r, ``col[r]`` the column of its view
(:mod:`.kernels`). Tables ``table``, ``act``, ``gain``, ``mix_th``, ``mix_w`` are
those of :mod:`.kernels`.

Notes
-----
Every successor of s other than s itself has a larger colex rank, so when s is solved the
continuation ``u_r`` of each role against any actions of the others is known, and holding at
k has the stationary value :math:`a_r(k) / (1 - P(X_k = 0) B_r)` (everybody busts: the
self-loop in closed form, :mod:`.kernels`). With mixed strategies
:math:`\\sigma` the self-loop couples the mix: writing :math:`b_r = \\sum_k \\sigma_r(k)
P(X_k = 0)` and :math:`B_r = \\prod_{q} b_{\\rho(q)}` over a role-r player's others,

.. math:: V_r = \\frac{\\sum_k \\sigma_r(k)\\, a_r(k; \\sigma_{-r})}{1 - b_r B_r},

the fixed point :math:`V_r = \\sum_k \\sigma_r(k) [a_r(k; \\sigma_{-r}) + P(X_k = 0) B_r V_r]`
of the one-state game in the state's own values. A player's best stationary reply at s is
the best threshold against :math:`\\sigma_{-r}` (:func:`~.respond.best_action`), and the
*certificate* of the state is the most any player gains by it,
:math:`\\varepsilon(s) = \\max_r (\\max_k a_r(k) / (1 - P(X_k = 0) B_r) - V_r)`.

1. **Pure search.** Best-response dynamics over roles (a role moves to its best threshold
   when it gains more than ``tie_tol``; the players of a role move together), from the actions
   of the nearest solved state (the lowest score that can be raised, raised by one). A pass in
   which no role moves is a pure equilibrium.
2. **Mixed.** If the dynamics cycle, the thresholds of the cycle are the candidates. The
   indifference conditions on a support :math:`S_r` of each role,

   .. math:: a_r(k; \\sigma_{-r}) - (1 - P(X_k = 0) B_r)\\, V_r = 0 \\ (k \\in S_r), \\qquad
             \\sum_{k \\in S_r} \\sigma_r(k) = 1,

   are solved for :math:`(\\sigma, V)` by Newton's method (exact Jacobian: the payoffs are
   multilinear in the other players' mixes, tabulated once per candidate set as
   :math:`a_r(\\cdot; k_{-r})` for every pure profile of the others' candidates; a solve
   still far from a solution after :data:`~.newton.PATIENCE` steps is given up,
   as such solves almost never converge). The systems are often ill-conditioned
   (neighbouring thresholds barely change the others' payoffs), so the solution of a
   too-large support may lie far outside the simplex: its most negative weight leaves the
   support; a profitable reply outside the support joins it (a double oracle). The
   certificate is then checked over *every* threshold.
3. **Support enumeration.** If that local search fails: every support profile over the first
   few candidates of each role, smallest first (Porter, Nudelman & Shoham), each by Newton's
   method from the uniform mix; the best profile's profitable replies then join the candidates
   (ahead of the rest) and the enumeration repeats.
4. **Fallback.** Fictitious play on the state (each role best-replies to the others' empirical
   mixes, any threshold, new thresholds joining the candidates) orders the candidates for
   steps 2 and 3 once more. The profile with the smallest certificate seen is kept.
5. **Wider search.** A state whose certificate is still above ``tol`` is solved again from
   the cycle with the :data:`WIDE` limits (more candidates per role, larger enumerations, more
   Newton steps, support changes and fictitious-play iterations); the profile with the
   smaller certificate is kept, and its certificate reported. The values and certificates
   stored are always recomputed from fresh payoff tensors on the kept supports.

References
----------
J. Nash, "Non-cooperative games", Annals of Mathematics 54 (1951) 286-295 (a symmetric game
has a symmetric equilibrium).
H. B. McMahan, G. J. Gordon & A. Blum, ICML 2003 (double oracle).
R. Porter, E. Nudelman & Y. Shoham, "Simple search methods for finding a Nash equilibrium",
Games and Economic Behavior 63 (2008) 642-662.
G. W. Brown, "Iterative solution of games by fictitious play" (1951).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import NamedTuple

import numpy as np

from ..core.jit import compiled as jit_compiled
from ..core.jit import kernel, prefetch
from ..core.step import Band
from .continuation import ViewCache
from .dynamics import Dynamics, best_response_dynamics, dynamics_scratch
from .enumeration import ENUM_CAND
from .fictitious import FP_ITER
from .kernels import rank
from .mixed_search import search, solve_mixed
from .newton import MAX_ROUNDS, NEWTON_ITER, PATIENCE
from .payoffs import (
    Limits,
    Mixed,
    Scratch,
    Work,
    forget_tensors,
)
from .respond import respond_columns

__all__ = [
    "StageTables",
    "StageScratch",
    "scratch_width",
    "stage_scratch",
    "MAX_PASSES",
    "MAX_CAND",
    "ORDINARY",
    "WIDE",
    "WIDTH",
    "COUNTERS",
    "touch",
    "solve_states",
    "solve_mixed",
    "Mixed",
    "search",
    "compiled",
    "interpreted",
]

MAX_PASSES = 40
"""Best-response passes at a state before it is treated as mixed."""

MAX_CAND = 8
"""Candidate thresholds per role in the ordinary search of the mixed solver."""

ENUM_ROUNDS = 4
"""Enumerations, each after the best profile's replies joined the candidates."""

ORDINARY = Limits(MAX_CAND, ENUM_CAND, ENUM_ROUNDS, MAX_ROUNDS, NEWTON_ITER, FP_ITER, PATIENCE)
"""The search every mixed state gets first (:class:`~.payoffs.Limits`)."""

WIDE = Limits(12, 5, 10, 80, 200, 6000, 0)
"""The wider search of a state whose certificate is still above ``tol`` after the ordinary
one (step 5 of the module Notes), with up to four roles (``12 ** 3`` payoff rows per role);
its Newton solves take every step."""

WIDTH = WIDE.cand
"""The widest mix :func:`solve_states` stores (columns of ``mix_th``/``mix_w``)."""


class StageTables(NamedTuple):
    """What :func:`solve_states` writes: the shared tables ``table``, ``act``, ``gain``
    (:mod:`.kernels`), and the call's own mix tables ``mix_th``, ``mix_w`` with the
    view ``mix_at[e] = (column, own score)`` of each entry e, the ``counts`` of
    :data:`COUNTERS` and the indices of the ``mixed`` states (the caller gives every call
    fresh counts and numbers the mix entries of its calls, :func:`solve_states`), and the
    shared table ``lead`` (like ``act``): the threshold of each view's pure strategy, or the
    heaviest of its mix (the first of the heaviest), where the solver of a state starts."""

    table: np.ndarray
    act: np.ndarray
    gain: np.ndarray
    mix_th: np.ndarray
    mix_w: np.ndarray
    mix_at: np.ndarray
    counts: np.ndarray
    mixed: np.ndarray
    lead: np.ndarray


class StageScratch(NamedTuple):
    """The arrays one thread of :func:`solve_states` works in (:func:`stage_scratch`): the
    continuation scratch ``w`` (:class:`~.payoffs.Work`, with the thread's
    :class:`~.continuation.ViewCache`), the mixed solvers' ``s``
    (:class:`~.payoffs.Scratch`), the roles of a state (``t``, ``mult``, ``first``,
    ``role_of``, ``orole``, the others' ``scores``), the candidates ``cand``/``ncand``,
    weights ``wts``, supports ``sup``, payoff tensors ``ten``/``nc`` and the profile kept
    across the wider search (``keep_w``, ``keep_th``, ``keep_val``, ``keep_gain``) and the
    best-response dynamics' profile, history, values, gains and scratch ``dyn``
    (:class:`~.symmetric_dynamics.Dynamics`)."""

    w: Work
    s: Scratch
    t: np.ndarray
    mult: np.ndarray
    first: np.ndarray
    role_of: np.ndarray
    orole: np.ndarray
    scores: np.ndarray
    cand: np.ndarray
    ncand: np.ndarray
    wts: np.ndarray
    sup: np.ndarray
    ten: np.ndarray
    nc: np.ndarray
    keep_w: np.ndarray
    keep_th: np.ndarray
    keep_val: np.ndarray
    keep_gain: np.ndarray
    dyn: Dynamics


def scratch_width(players: int) -> int:
    """Candidates per role the scratch of :func:`stage_scratch` holds: the wide search's, unless
    their payoff tensors (``width ** (players - 1)`` rows) grow too big."""
    return WIDTH if players <= 4 else ORDINARY.cand


def stage_scratch(players: int, goal: int, band: Band, views: ViewCache) -> StageScratch:
    """A fresh :class:`StageScratch` for states of ``players`` players at ``goal``, its
    continuations going through ``views`` (:class:`~.continuation.ViewCache`). The
    payoff tensors take ``2 * players * width ** (players - 1) * (goal + 1)`` floats
    (:func:`scratch_width`): 11 MB for four players at goal 100."""
    n, g = players, goal
    m = max(n - 1, 1)
    width = scratch_width(n)
    digits = np.zeros(m, np.int64)
    vals = np.zeros(g + 1)
    w = Work(
        np.zeros((m, g + 2), np.int64),
        np.zeros((m, g + 2)),
        np.zeros(m, np.int64),
        np.zeros(g + band.band_t.shape[0] + 1),
        np.zeros(g + 1),
        vals,
        np.zeros(m, np.int64),
        np.zeros(m, np.int64),
        digits,
        np.zeros((n, width), np.int64),
        np.zeros(n, np.int64),
        np.zeros((n, width**m), np.bool_),
        np.zeros((n, width**m, g + 1)),
        np.zeros(n, np.int64),
        np.zeros(m, np.int64),
        views,
    )
    nvar = n * (width + 1)
    s = Scratch(
        b=np.zeros(n),
        bb=np.zeros(n),
        acont=np.zeros((n, g + 1)),
        digits=digits,
        jac=np.zeros((nvar, nvar)),
        rhs=np.zeros(nvar),
        vals=vals,
        val=np.zeros(n),
        gain=np.zeros(n),
        reply=np.zeros(n, np.int64),
        best_w=np.zeros((n, width)),
        best_th=np.ones((n, width), np.int64),
        best_val=np.zeros(n),
        best_gain=np.zeros(n),
        s_best=np.zeros(1),
        best_reply=np.zeros(n, np.int64),
    )
    return StageScratch(
        w,
        s,
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros((n, m), np.int64),
        np.zeros(m, np.int64),
        np.zeros((n, width), np.int64),
        np.zeros(n, np.int64),
        np.zeros((n, width)),
        np.zeros((n, width), np.bool_),
        np.zeros((n, width**m, g + 1)),
        np.zeros(n, np.int64),
        np.zeros((n, width)),
        np.ones((n, width), np.int64),
        np.zeros(n),
        np.zeros(n),
        dynamics_scratch(n, MAX_PASSES),
    )


@kernel(refcount=False)
def touch(st, n, m, g, binom, view, out, views):  # pragma: no cover - compiled
    """Prefetch (:func:`~pigtheory.jit.prefetch`) the entries of the per-column arrays that
    the roles of the state ``st`` will read first: in the :class:`StageTables` ``out`` the
    table one own score up, the gains, actions and starts at their own score; in the
    :class:`~.continuation.ViewCache` ``views`` the row (one own score up and at the goal
    ``g``), thresholds and lowest score (``view``: scratch of ``m``).
    Asked for one state ahead, they arrive while that state is solved, where the solver's own
    reads would each wait for memory in turn (a column's arrays are far apart)."""
    table, gain, act, lead = out.table, out.gain, out.act, out.lead
    rows, keys, low = views.rows, views.keys, views.low
    for p in range(n):
        if p > 0 and st[p] == st[p - 1]:
            continue
        q = 0
        for p2 in range(n):
            if p2 != p:
                view[q] = st[p2]
                q += 1
        c = rank(view, m, binom)
        t = st[p]
        prefetch(table, c, t + 1)
        prefetch(gain, c, t)
        prefetch(act, c, t)
        prefetch(lead, c, t)
        if rows.shape[0] > 0:
            prefetch(rows, c, t + 1)
            prefetch(rows, c, g)  # the padding past the goal copies it
            prefetch(keys, c, 0)
            prefetch(low, c, 0)


COUNTERS = ("mix_entries", "pure", "mixed", "fallback", "largest_support", "passes", "mixed_views", "wide")
"""Meaning of the entries of the ``counts`` array of :func:`solve_states`."""


@kernel(refcount=False)
def solve_states(lo, hi, states, g, binom, band, tie_tol, tol, out, scr):  # pragma: no cover - compiled
    """Solve ``states[lo:hi]`` (in that order, every successor solved before) into the
    :class:`StageTables` ``out``, working in the :class:`StageScratch` ``scr``.

    ``counts`` (see :data:`COUNTERS`) and ``mixed`` (the indices of the mixed states) are
    updated; a mixed strategy of the player at view ``(c, i)`` becomes entry e of the call's
    mix tables, ``act[c, i] = -(1 + e)`` and ``mix_at[e] = (c, i)`` (the caller renumbers
    the entries of its calls into one table). Returns the index of the first state not
    solved: ``hi``, or less when the mix tables or ``mixed`` are full (grow them and call
    again from there).
    """
    table, act, gain, mix_th, mix_w = out.table, out.act, out.gain, out.mix_th, out.mix_w
    counts, mixed, mix_at, lead = out.counts, out.mixed, out.mix_at, out.lead
    n = states.shape[1]
    m = n - 1
    width = min(scr.cand.shape[1], mix_th.shape[1])
    wide = Limits(
        min(WIDE.cand, width),
        WIDE.enum_cand,
        WIDE.enum_rounds,
        WIDE.max_rounds,
        WIDE.newton_iter,
        WIDE.fp_iter,
        WIDE.patience,
    )
    w, s, dyn = scr.w, scr.s, scr.dyn
    col = w.col
    t, mult, first, role_of, orole, view = scr.t, scr.mult, scr.first, scr.role_of, scr.orole, scr.scores
    k, hist, val, gn = dyn.k, dyn.hist, dyn.val, dyn.gn
    cand, ncand, wts, sup, ten, nc = scr.cand, scr.ncand, scr.wts, scr.sup, scr.ten, scr.nc
    keep_w, keep_th, keep_val, keep_gain = scr.keep_w, scr.keep_th, scr.keep_val, scr.keep_gain
    mixed_at = Mixed(t, orole, cand, ncand, wts, sup, ten, nc, g, binom, band, table, tie_tol, tol, w, s)
    views = w.views
    for si in range(lo, hi):
        if counts[0] + n > mix_th.shape[0] or counts[2] >= mixed.shape[0]:
            return si
        if si + 1 < hi:  # the next state's columns, while this one is solved
            touch(states[si + 1], n, m, g, binom, view, out, views)
        st = states[si]
        R = 0
        for p in range(n):
            if p == 0 or st[p] != st[p - 1]:
                t[R] = st[p]
                mult[R] = 1
                first[R] = p
                R += 1
            else:
                mult[R - 1] += 1
            role_of[p] = R - 1
        for r in range(R):
            q = 0
            for p in range(n):
                if p != first[r]:
                    view[q] = st[p]
                    orole[r, q] = role_of[p]
                    q += 1
            col[r] = rank(view, m, binom)
        # start from the nearest solved state: raise the lowest score that can be raised
        raised = -1
        for p in range(n):
            if (p < n - 1 and st[p] + 1 <= st[p + 1]) or (p == n - 1 and st[p] + 1 < g):
                raised = p
                break
        for r in range(R):
            p0 = first[r]
            if raised < 0:
                k[r] = 1
                continue
            q = 0
            for p in range(n):
                if p != p0:
                    view[q] = st[p] + (1 if p == raised else 0)
                    q += 1
            own = st[p0] + (1 if p0 == raised else 0)
            code = out.lead[rank(view, m, binom), own]
            k[r] = max(1, min(code, g - t[r]))
        # 1. pure search
        converged, cycle_from, last, passes = best_response_dynamics(
            R, m, t, orole, g, binom, band, table, tie_tol, w, dyn
        )
        counts[5] += passes
        if converged:
            counts[1] += 1
            for r in range(R):
                table[col[r], t[r]] = val[r]
                act[col[r], t[r]] = k[r]
                lead[col[r], t[r]] = k[r]
                gain[col[r], t[r]] = gn[r]
            continue
        # 2. and 3. mixed: the cycle's thresholds are the candidates, weighted by frequency
        if cycle_from < 0:
            cycle_from = max(0, MAX_PASSES - 8)
            last = MAX_PASSES - 1
        forget_tensors(w)
        status, worst = search(R, m, hist, cycle_from, last, mixed_at, ORDINARY)
        if worst > tol:
            # 5. the wider search, from the cycle again; the better certificate is kept
            for r in range(R):
                for j in range(width):
                    keep_w[r, j] = s.best_w[r, j]
                    keep_th[r, j] = s.best_th[r, j]
                keep_val[r] = s.best_val[r]
                keep_gain[r] = s.best_gain[r]
            counts[7] += 1
            if search(R, m, hist, cycle_from, last, mixed_at, wide)[1] >= worst:
                for r in range(R):
                    for j in range(width):
                        s.best_w[r, j] = keep_w[r, j]
                        s.best_th[r, j] = keep_th[r, j]
                    s.best_val[r] = keep_val[r]
                    s.best_gain[r] = keep_gain[r]
        best_w, best_th, best_val, best_gain = s.best_w, s.best_th, s.best_val, s.best_gain
        counts[2] += 1
        if status == 2:
            counts[3] += 1
        mixed[counts[2] - 1] = si
        for r in range(R):
            size = 0
            kpure = 0
            kb, wb = 1, -1.0
            for j in range(width):
                if best_w[r, j] > 0.0:
                    size += 1
                    kpure = best_th[r, j]
                    if best_w[r, j] > wb:
                        kb, wb = best_th[r, j], best_w[r, j]
            table[col[r], t[r]] = best_val[r]
            gain[col[r], t[r]] = best_gain[r]
            lead[col[r], t[r]] = kb
            if size == 1:
                act[col[r], t[r]] = kpure
                continue
            e = counts[0]
            counts[0] += 1
            counts[6] += 1
            if size > counts[4]:
                counts[4] = size
            q = 0
            for j in range(mix_th.shape[1]):
                mix_th[e, j] = 1
                mix_w[e, j] = 0.0
            for j in range(width):
                if best_w[r, j] > 0.0:
                    mix_th[e, q] = best_th[r, j]
                    mix_w[e, q] = best_w[r, j]
                    q += 1
            act[col[r], t[r]] = -(1 + e)
            mix_at[e, 0] = col[r]
            mix_at[e, 1] = t[r]
    return hi


_PLAIN = SimpleNamespace(solve_states=solve_states, respond_columns=respond_columns)


def interpreted() -> SimpleNamespace:
    """The two entry points, ``solve_states`` and ``respond_columns``, as plain Python."""
    return _PLAIN


def compiled() -> SimpleNamespace:
    """The two entry points compiled by numba (:func:`~.jit.compiled`): the first call of each
    in a process compiles it (about 40 s of CPU) or loads numba's disk cache. Safe to call from
    several threads."""
    return SimpleNamespace(
        solve_states=jit_compiled(solve_states), respond_columns=jit_compiled(respond_columns)
    )
