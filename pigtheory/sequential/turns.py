"""Where one turn of a fixed policy ends: the turn matrix of sequential Pig.

Shapes
------
A policy's roll table is a bool array ``roll[i, j, k]`` (own score i, opponent j, turn total
k, all ``< goal``; True = roll). For Double Trouble it is the choice where the player is free
(``l = 0``); after a non-ones double the player rolls regardless.

``turn_matrix(roll, rules)`` is ``T[i, j, s]``: the probability that a turn started at
scores (i, j) ends with the mover's score at ``s`` (``0 <= s < goal``) or at the goal
(``s = goal``: the mover has won). Rows sum to 1.

Notes
-----
The turn is followed forwards over the turn total: mass at (i, j, k) that holds ends at
``min(i + k, goal)``; mass that rolls busts (ends at i), loses the score to snake eyes (ends
at 0) or moves to ``k + g``. A free state with ``i + k >= goal`` holds and wins. A Double
Trouble state with ``i + k >= goal`` after a double rolls until it can hold:
it wins with probability ``q_free / (1 - q_double)`` (the boundary argument of Zhu & Ma).

References
----------
Neller & Presser (2004); Zhu & Ma, Stats 5 (2022), section 3 and eqs. (3), (4), (6).
"""

from __future__ import annotations

import numpy as np

from ..rules import Rules

__all__ = ["turn_matrix"]


def turn_matrix(roll: np.ndarray, rules: Rules) -> np.ndarray:
    """The turn matrix ``T[i, j, s]`` of a roll table (see the module docstring).

    Parameters
    ----------
    roll : numpy.ndarray of bool, shape ``(goal, goal, goal)``
        ``roll[i, j, k]``: the mover rolls at own score i, opponent j, turn total k (Double
        Trouble: the free choice, ``l = 0``; :func:`~pigtheory.sequential.roll_table`).
    rules : Rules
        Sequential Pig: one die, two dice or Double Trouble.

    Returns
    -------
    numpy.ndarray, shape ``(goal, goal, goal + 1)``
        ``T[i, j, s]``: probability that a turn started at (i, j) ends with the mover's score
        at s (``s = goal``: the mover has won). Rows sum to 1.

    Examples
    --------
    >>> from pigtheory.policies.sequential import roll_table
    >>> from pigtheory.policies import hold_at
    >>> r = Rules(goal=4)
    >>> t = turn_matrix(roll_table(hold_at(2), r), r)
    >>> [round(float(x), 4) for x in t[0, 0]]
    [0.1667, 0.0, 0.1667, 0.1667, 0.5]
    """
    g = rules.goal
    roll = np.asarray(roll, dtype=bool)
    if roll.shape != (g, g, g):
        raise ValueError(f"roll: a roll table for goal {g} has shape {(g, g, g)}, got {roll.shape}")
    model = rules.roll_model()
    pb, pr = float(model.p_bust), float(model.p_reset)
    free = [(gain, float(p)) for gain, p in model.free]
    forced = [(gain, float(p)) for gain, p in model.forced]
    q_free = sum(p for _, p in free)
    q_double = sum(p for _, p in forced)
    m = model.max_gain
    kk = g + m + 1
    ii = np.arange(g)[:, None]
    jj = np.arange(g)[None, :]
    out = np.zeros((g, g, g + 1))
    mass = np.zeros((kk, g, g))
    forced_mass = np.zeros((kk, g, g))
    mass[0] = 1.0
    for k in range(kk):
        end = np.minimum(ii + k, g)
        done = (ii + k) >= g
        rolls = roll[:, :, k] & ~done if k < g else np.zeros((g, g), dtype=bool)
        free_here = mass[k]
        r = np.where(rolls, free_here, 0.0)
        h = free_here - r  # holds (a pass at k = 0); at or beyond the goal: a win
        out[ii, jj, np.broadcast_to(end, (g, g))] += h
        f = forced_mass[k]
        if q_double and f.any():
            # after a double: roll below the goal; at or beyond it, roll until a free gain
            at_goal = np.where(done, f, 0.0)
            scale = 1.0 / (1.0 - q_double)
            out[:, :, g] += at_goal * q_free * scale
            out[ii, jj, np.broadcast_to(ii, (g, g))] += at_goal * pb * scale
            out[:, :, 0] += at_goal * pr * scale
            r = r + (f - at_goal)
        if not r.any():
            continue
        out[ii, jj, np.broadcast_to(ii, (g, g))] += pb * r
        out[:, :, 0] += pr * r
        for gain, p in free:
            if k + gain < kk:
                mass[k + gain] += p * r
        for gain, p in forced:
            if k + gain < kk:
                forced_mass[k + gain] += p * r
    return out
