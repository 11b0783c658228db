"""Compiled kernels (numba) of the core: the two-player best response, optimal stopping.

The same backward induction as :mod:`.two_player` (the numpy engine), state by state over
the levels of ``i + j`` from the top, with plain loops instead of batched array operations;
every state is one :func:`~.step.threshold_step` (and one :func:`~.step.stopping_step` for
stopping rules). The functions below are kernels (:mod:`.jit`): plain Python until
:func:`~.jit.compiled` compiles them. :mod:`pigtheory.engine` decides when they are used.

Opponents
---------
The opponent's turn reaches the kernels as :class:`Independent` (B's turn reads B's score
only) or :class:`General` (any opponent); the X_k as :class:`~.step.Band`, a roll as
:class:`~.step.Roll`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .jit import compiled, kernel
from .step import (
    _six_gains,
    _six_gains_inline,
    pass_above_inline,
    stopping_step,
    stopping_step_inline,
    threshold_pass_inline,
    threshold_step,
    threshold_step_inline,
)

__all__ = ["Independent", "General", "two_player_kernel", "stopping_kernel"]


class Independent(NamedTuple):
    """B's turn by B's score only: ``cz[j, r]`` the scores B reaches with probability
    ``pz[j, r]`` (scoring outcomes), ``pb[j]`` B's bust chance and ``inv[j, k] = 1 / (1 -
    P(X_k = 0) pb[j])``."""

    inv: np.ndarray
    cz: np.ndarray
    pz: np.ndarray
    pb: np.ndarray


class General(NamedTuple):
    """B's turn may read A's score: ``P[i, j, r]`` and ``C[i, j, r]`` give B's outcomes
    (column 0 the bust) and the columns they land on."""

    P: np.ndarray
    C: np.ndarray


@kernel
def _independent(band, opp, tie_tol, V, UT, policy):  # pragma: no cover - compiled
    """B's turn depends on B's score only. ``UT[j, a] = E_Y[V(a, j + Y)]`` (columns past the
    goal already hold the terminal values); ``V`` holds the terminal values, zeros elsewhere.
    Any band; :func:`_independent_six` is this kernel for one die's six gains."""
    g = policy.shape[0]
    vals = np.empty(g + 1)
    for d in range(2 * g - 2, -1, -1):
        for i in range(max(0, d - g + 1), min(d, g - 1) + 1):
            j = d - i
            z = 0.0
            for r in range(opp.pz.shape[1]):
                z += opp.pz[j, r] * V[i, opp.cz[j, r]]
            # Until solved, V(i, j) counts as 0: the self-loop is in the factors inv.
            best, k = threshold_step(band, UT[j, i:], z, g - i, 0.0, opp.inv[j], False, tie_tol, vals)
            V[i, j] = best
            policy[i, j] = k
            UT[j, i] = z + opp.pb[j] * best


@kernel
def _independent_six(band, opp, tie_tol, V, UT, policy):  # pragma: no cover - compiled
    """:func:`_independent` for a band of six gains (one six-sided die): each state calls the
    fused step that :func:`~.step.threshold_step` dispatches to (about a fifth less time than
    through it, the same bits). A kernel of its own, so that the common case compiles without
    the general step: the first compile of a fresh install takes about half the time."""
    g = policy.shape[0]
    vals = np.empty(g + 1)
    for d in range(2 * g - 2, -1, -1):
        for i in range(max(0, d - g + 1), min(d, g - 1) + 1):
            j = d - i
            z = 0.0
            for r in range(opp.pz.shape[1]):
                z += opp.pz[j, r] * V[i, opp.cz[j, r]]
            best, k = _six_gains(band, UT[j, i:], z, g - i, 0.0, opp.inv[j], False, tie_tol, vals)
            V[i, j] = best
            policy[i, j] = k
            UT[j, i] = z + opp.pb[j] * best


@kernel
def _continuation(u, opp, VT, i, j, room, w):  # pragma: no cover - compiled
    """At state (i, j) against a :class:`General` opponent: ``u[x] = sum_r P[i, j, r]
    VT[C[i, j, r], i + x]``, padded past the room."""
    P, C = opp.P, opp.C
    for x in range(room + 1):
        u[x] = 0.0
    for r in range(P.shape[2]):
        p = P[i, j, r]
        c = C[i, j, r]
        for x in range(room + 1):
            u[x] += p * VT[c, i + x]
    for x in range(room + 1, room + w):
        u[x] = u[room]


@kernel
def _general(band, opp, tie_tol, VT, policy):  # pragma: no cover - compiled
    """Any opponent (:class:`General`); ``VT[c, a] = V(a, c)``, terminal past the goal."""
    g = policy.shape[0]
    w = band.band_t.shape[0]
    u = np.empty(g + w + 1)
    vals = np.empty(g + 1)
    for d in range(2 * g - 2, -1, -1):
        for i in range(max(0, d - g + 1), min(d, g - 1) + 1):
            j = d - i
            room = g - i
            _continuation(u, opp, VT, i, j, room, w)
            best, k = threshold_step(band, u, u[0], room, opp.P[i, j, 0], vals, True, tie_tol, vals)
            VT[j, i] = best
            policy[i, j] = k


@kernel
def _stopping(
    u, own, opp_bust, start, roll, tie_tol, max_passes, value, rules_out, passes
):  # pragma: no cover
    """:func:`~pigtheory.simultaneous.core.stopping_rules.optimal_stopping`, state by state."""
    ns, width = u.shape
    g = width - 1
    a = np.empty(g + 1)
    c = np.empty(g + 1)
    new = np.empty(g, dtype=np.bool_)
    for s in range(ns):
        room = g - own[s]
        for t in range(g):
            rules_out[s, t] = False
        value[s], passes[s] = stopping_step(
            u[s], u[s, 0], room, opp_bust[s], start[s], roll, tie_tol, max_passes, a, c, new, rules_out[s]
        )


@kernel
def _stop_independent(
    band, opp, roll, tie_tol, max_passes, V, UT, rule, tval, tk, passes
):  # pragma: no cover
    """Two players, B's turn by B's score only: :func:`_independent` with the best stopping
    rule at every state (started from the best threshold, whose value and k are kept;
    ``passes[i, j]`` counts the passes, 1 where that threshold's rule was already optimal).
    Allocates the scratch and runs :func:`_stop_independent_states`."""
    g = tk.shape[0]
    scratch = np.empty((4, g + 1))
    new = np.empty(g, dtype=np.bool_)
    _stop_independent_states(
        band, opp, roll, tie_tol, max_passes, V, UT, rule, tval, tk, passes, scratch, new
    )


@kernel(refcount=False)
def _stop_independent_states(
    band, opp, roll, tie_tol, max_passes, V, UT, rule, tval, tk, passes, scratch, new
):  # pragma: no cover
    """The states of :func:`_stop_independent`, its steps inlined (no reference counting per
    state: module Notes of :mod:`pigtheory.jit`). One die's six gains take the fused threshold
    step; a state whose best threshold passes :func:`~.step.threshold_pass` needs no pass of
    :func:`~.step.stopping_step`."""
    g = tk.shape[0]
    six = band.band_t.shape[0] == 6
    vals, a, c, hold_rows = scratch[0], scratch[1], scratch[2], scratch[3]
    for d in range(2 * g - 2, -1, -1):
        for i in range(max(0, d - g + 1), min(d, g - 1) + 1):
            j = d - i
            room = g - i
            z = 0.0
            for r in range(opp.pz.shape[1]):
                z += opp.pz[j, r] * V[i, opp.cz[j, r]]
            row = UT[j, i:]
            if six:
                t_best, k = _six_gains_inline(band, row, z, room, 0.0, opp.inv[j], False, tie_tol, vals)
            else:
                t_best, k = threshold_step_inline(band, row, z, room, 0.0, opp.inv[j], False, tie_tol, vals)
            tval[i, j] = t_best
            tk[i, j] = k
            for t in range(k):  # start from the best threshold's rule: one pass if it is optimal
                rule[i, j, t] = True
            if threshold_pass_inline(band, row, z, room, opp.pb[j], t_best, roll, tie_tol, k, hold_rows):
                best, passes[i, j] = t_best, 1  # the best threshold is the best stopping rule
            elif pass_above_inline(
                band, row, z, room, opp.pb[j], t_best, roll, tie_tol, k, a, c, new, rule[i, j], hold_rows
            ):
                best, passes[i, j] = t_best, 2  # it plays as that threshold; unreached totals differ
            else:
                best, passes[i, j] = stopping_step_inline(
                    row, z, room, opp.pb[j], t_best, roll, tie_tol, max_passes, a, c, new, rule[i, j]
                )
            V[i, j] = best
            UT[j, i] = z + opp.pb[j] * best


@kernel
def _stop_general(band, opp, roll, tie_tol, max_passes, VT, rule, tval, tk, passes):  # pragma: no cover
    """Two players, any opponent: :func:`_general` with the best stopping rule at every state
    (``passes`` as in :func:`_stop_independent`)."""
    g = tk.shape[0]
    w = band.band_t.shape[0]
    u = np.empty(g + w + 1)
    scratch = np.empty((4, g + 1))
    new = np.empty(g, dtype=np.bool_)
    _stop_general_states(band, opp, roll, tie_tol, max_passes, VT, rule, tval, tk, passes, u, scratch, new)


@kernel(refcount=False)
def _stop_general_states(
    band, opp, roll, tie_tol, max_passes, VT, rule, tval, tk, passes, u, scratch, new
):  # pragma: no cover
    """The states of :func:`_stop_general`, its steps inlined (as :func:`_stop_independent_states`)."""
    g = tk.shape[0]
    w = band.band_t.shape[0]
    vals, a, c, hold_rows = scratch[0], scratch[1], scratch[2], scratch[3]
    for d in range(2 * g - 2, -1, -1):
        for i in range(max(0, d - g + 1), min(d, g - 1) + 1):
            j = d - i
            room = g - i
            _continuation(u, opp, VT, i, j, room, w)
            t_best, k = threshold_step_inline(band, u, u[0], room, opp.P[i, j, 0], vals, True, tie_tol, vals)
            tval[i, j] = t_best
            tk[i, j] = k
            for t in range(k):
                rule[i, j, t] = True
            if threshold_pass_inline(
                band, u, u[0], room, opp.P[i, j, 0], t_best, roll, tie_tol, k, hold_rows
            ):
                best, passes[i, j] = t_best, 1
            elif pass_above_inline(
                band,
                u,
                u[0],
                room,
                opp.P[i, j, 0],
                t_best,
                roll,
                tie_tol,
                k,
                a,
                c,
                new,
                rule[i, j],
                hold_rows,
            ):
                best, passes[i, j] = t_best, 2
            else:
                best, passes[i, j] = stopping_step_inline(
                    u, u[0], room, opp.P[i, j, 0], t_best, roll, tie_tol, max_passes, a, c, new, rule[i, j]
                )
            VT[j, i] = best


@kernel
def _stopping_outcomes(prob, own, roll, out):  # pragma: no cover - compiled
    """:func:`~pigtheory.simultaneous.core.stopping_rules.stopping_outcomes`, state by state
    (``prob[s, t]``: the chance of rolling at t; 0 or 1 for a pure rule; ``roll`` a
    :class:`~.step.Roll`)."""
    p_bust, gains, probs = roll.p_bust, roll.gains, roll.probs
    ns, g = prob.shape
    reach = np.empty(g + 1)
    for s in range(ns):
        room = g - own[s]
        for t in range(g + 1):
            reach[t] = 0.0
            out[s, t] = 0.0
        reach[0] = 1.0
        for t in range(room):
            m = reach[t]
            if m == 0.0:
                continue
            go = m if t == 0 else prob[s, t] * m
            if t > 0:
                out[s, t] += m - go
            out[s, 0] += p_bust * go
            for f in range(gains.shape[0]):
                to = t + gains[f]
                if to >= room:
                    out[s, room] += probs[f] * go
                else:
                    reach[to] += probs[f] * go


def two_player_kernel(independent: bool, six: bool = False) -> Any:
    """The compiled two-player best response, ``independent`` (:class:`Independent`
    opponent; call it as ``(band, opp, tie_tol, V, UT, policy)``; ``six``: the kernel for a
    band of six gains, ``_independent_six``) or general (:class:`General`; ``(band, opp,
    tie_tol, VT, policy)``). Each is compiled on its first use only."""
    if independent:
        return compiled(_independent_six if six else _independent)
    return compiled(_general)


@kernel
def _reached_rows(goes_on, gains, reached):  # pragma: no cover - compiled
    """``reached[s, t]``: some ``t - gain`` of row s is reached and goes on (``reached[s, 0]``
    always): the walk of :func:`pigtheory.stopping.is_threshold_rule`, row by row."""
    ns, goal = goes_on.shape
    for s in range(ns):
        reached[s, 0] = True
        for t in range(1, goal):
            hit = False
            for f in range(gains.shape[0]):
                q = t - gains[f]
                if q >= 0 and reached[s, q] and goes_on[s, q]:
                    hit = True
            reached[s, t] = hit


def stopping_kernel(name: str) -> Any:
    """The compiled stopping kernel ``name``: ``"optimal_stopping"``, ``"outcomes"``,
    ``"independent"`` or ``"general"`` (the two-player best responses over stopping rules), or
    ``"reached"`` (the turn totals stopping rules reach)."""
    fn: dict[str, Any] = {
        "optimal_stopping": _stopping,
        "outcomes": _stopping_outcomes,
        "independent": _stop_independent,
        "general": _stop_general,
        "reached": _reached_rows,
    }
    return compiled(fn[name])
