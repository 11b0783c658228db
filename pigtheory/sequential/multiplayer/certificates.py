"""Certificates of a multiplayer sequential equilibrium: one-shot deviation gains and NashConv.

Notation and shapes of :mod:`pigtheory.sequential.multiplayer.equilibrium`.

Notes
-----
**One-shot deviations.** At every state (score tuple ``t``, turn total ``k``) the mover's
value under the profile is compared with the better of rolling and holding once and then
following the profile, with the stored start-of-turn values ``W`` for what comes after the
turn:

.. math::

    \\text{gain}(t, k) = \\max\\big(R_k, h_k\\big) - V_k, \\qquad
    R_k = p\\, y + \\textstyle\\sum_g p_g V_{k+g}, \\quad h_k = W_{t'}[n-1],

``y`` the mover's value after a bust, ``t'`` the tuple after holding. Every profile ends the
game with probability 1 (without passing: some face scores; with passing: an equilibrium never
passes for sure all around), so a profile without a profitable one-shot deviation is a
subgame-perfect equilibrium (the one-shot deviation principle). ``deviation_gain[t]`` is the
largest gain over the turn totals of ``t``; the recomputed start values must also match
the stored ones (``residual``).

**NashConv.** Each seat's exact best response against the others' stationary policies is a
Markov decision process over the same states; solved group by group from the highest score
sum down, the deviator's own turn in a group is a one-dimensional fixed point
:math:`x = \\max_\\pi a_\\pi + b_\\pi (c + e x)` (``c + e x``: its value after its own bust,
through the others' turns), solved by policy iteration. NashConv is
:math:`\\sum_p (u_p^{BR} - u_p)` at the start of the game.

References
----------
M. Lanctot et al., "A unified game-theoretic approach to multiagent reinforcement learning"
(NeurIPS 2017): NashConv. D. Fudenberg and J. Tirole, *Game Theory* (1991), Theorem 4.2: the
one-shot deviation principle.
"""

from __future__ import annotations

import numpy as np

from ...jit import compiled

__all__ = ["deviation_gains", "best_response_values", "certify"]

_TIE = 1e-13
"""The tie tolerance of the deviator's policy improvement (the solver's own)."""


def _mix_arrays(mix_states, mix_prob, n, g):
    idx = np.zeros(len(mix_states), dtype=np.int64)
    ks = np.zeros(len(mix_states), dtype=np.int64)
    for i, row in enumerate(mix_states):
        idx[i] = np.ravel_multi_index(tuple(int(x) for x in row[:n]), (g,) * n)
        ks[i] = int(row[n])
    order = np.argsort(idx, kind="stable")
    return idx[order], ks[order], np.asarray(mix_prob, dtype=float)[order]


def deviation_gains(*, W, bits, mix_states, mix_prob, n, g, pvec, p_bust, allow_pass):
    """``(gains, residual)``: the largest one-shot deviation gain at each tuple (flat, length
    ``g**n``) and the largest violation of the stored start values' equations."""
    from . import certificate_kernels as ck
    from .group_kernels import Turn

    policy = ck.Policy(bits, *_mix_arrays(mix_states, mix_prob, n, g))
    gains = np.zeros(g**n)
    resid = compiled(ck.deviation_gains)(n, g, Turn(pvec, p_bust, allow_pass, _TIE), W, policy, gains)
    return gains, float(resid)


def best_response_values(*, order, starts, W, bits, mix_states, mix_prob, n, g, pvec, p_bust, allow_pass):
    """``U[idx, delta]``: the exact best-response value of a lone deviator ``delta`` seats after
    the mover, everybody else following the profile (flat tuples, shape ``(g**n, n)``)."""
    _, _, U = _certify(order, starts, W, bits, mix_states, mix_prob, n, g, pvec, p_bust, allow_pass, False)
    return U


def certify(*, order, starts, W, bits, mix_states, mix_prob, n, g, pvec, p_bust, allow_pass):
    """``(gains, residual, U)``: :func:`deviation_gains` and :func:`best_response_values` in one
    pass over the groups (the same numbers, to the bit: the turn's outcome under the profile is
    computed once for both)."""
    return _certify(order, starts, W, bits, mix_states, mix_prob, n, g, pvec, p_bust, allow_pass, True)


def _certify(order, starts, W, bits, mix_states, mix_prob, n, g, pvec, p_bust, allow_pass, with_gains):
    from . import certificate_kernels as ck
    from .group_kernels import Turn

    turn = Turn(pvec, p_bust, allow_pass, _TIE)
    policy = ck.Policy(bits, *_mix_arrays(mix_states, mix_prob, n, g))
    U = np.zeros((g**n, n))
    gains = np.zeros(g**n if with_gains else 0)
    out = np.zeros(2)
    for L in range(starts.size - 1):
        ck.best_response_level(order[starts[L] : starts[L + 1]], n, g, turn, W, policy, U, gains, out)
    return gains, float(out[1]), U
