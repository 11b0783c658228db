"""When OpenSpiel's move horizon cannot matter: a bound on the chance that a game outlasts it.

Two players, one seat's policy fixed (the *opponent*), the other (the *responder*) playing
anything at all, adaptive or not. With a horizon of H moves a game not over after H moves is a
draw (worth 1/2); without one it goes on and ends with some score in [0, 1]. So for every
responder policy the two scores differ by at most half the chance that the game lasts more
than H moves, and so do their maxima (the best responses) and the profile's own scores. This
module bounds that chance from the fixed policy alone, in about a second at goal 100 (two
bounds below, ``O(goal^3)`` work for each opponent turn or moment tried), against ``O(H goal^3
faces)`` for the layers over the moves left (about 25 s per solve at goal 100 and H = 1000).

Notes
-----
Let T be the number of moves (decisions: every roll and every stop) the game lasts. For any
m >= 1, if the opponent has won by the end of its m-th turn and the first m turns of each seat
took at most H moves, then T <= H. Hence

.. math:: P(T > H) \\le W_m + P\\Big(\\sum_{t=1}^{2m} (1 + B_t) > H\\Big).

*Turn lengths.* A turn is some rolls and then a bust, a stop or a win, so it lasts at most one
move more than the rolls up to its first bust. Coupling each turn with its own stream of rolls,
every turn of either seat, whatever its policy, is at most ``1 + B_t`` moves with ``B_t``
independent and geometric with the bust chance p as success chance. The second term is then
:math:`P(\\mathrm{Bin}(H - 2m, p) < 2m)`, a binomial tail computed exactly in log space.

*The opponent's progress.* ``W_m`` is the largest chance, over every way the responder's score
can move between the opponent's turns (any score before each turn: a relaxation of what the
responder can do, so an upper bound), that the opponent has not reached the goal after m turns
from score 0:

.. math:: W_0(j) = 1,\\qquad W_m(j) = \\max_i \\sum_{x} P_{j,i}(x)\\, W_{m-1}(j + x)

over the opponent's turn gains x at own score j against responder score i (its fixed policy's
one-turn distribution; a bust or a pass gains 0, reaching the goal ends the sum). An opponent
that can stall (pass or stop at 0 forever) keeps ``W_m`` at 1: the horizon then matters.

The bound is the smallest sum over m.

*A second bound, by moments* (Chernoff). For z > 1, :math:`P(T > H) \\le E[z^T] / z^{H+1}`, and
:math:`E[z^T]` is at most :math:`R\\,\\Phi_z(0)`: R = :math:`E[z^{1+B}] = p z^2 / (1 - (1-p) z)`
bounds a responder's turn, and

.. math:: \\Phi_z(j) = \\max_i \\frac{E_{j,i}[z^\\ell; \\text{win}] + R \\sum_{x \\ge 1}
          E_{j,i}[z^\\ell; \\text{gain } x]\\, \\Phi_z(j + x)}{1 - R\\, E_{j,i}[z^\\ell; \\text{gain } 0]}

the opponent's turns (ℓ its moves; the maximum of the fixed points of the affine maps of each
i is the fixed point of their maximum), solved from the goal down; a denominator that is not
positive means no bound at this z. The logarithm of the bound is convex in log z (a maximum
of logarithms of moment generating functions, less a linear term), so a golden-section search
finds its smallest value. It counts what every turn actually costs instead of a fixed number
of turns, and at goal 100 with H = 1000 it is about 1e-12 where the first bound gives 1e-6
(opponent "hold at 20").

:func:`unfinished_bound` returns the smaller of the two. Every term is a sum of non-negative
products, so floating-point rounding is relative, and a factor ``1 + 1e-9`` covers it.

References
----------
M. Lanctot et al., "OpenSpiel: a framework for reinforcement learning in games" (2019), the
``pig`` game's ``horizon`` parameter; T. Lindvall, *Lectures on the Coupling Method* (1992).
"""

from __future__ import annotations

import math

import numpy as np

from ..games.policy_tables import check_referee_rules
from ..rules import Rules
from ..validation import check_int
from .evaluate import _model, check_horizon

__all__ = ["unfinished_bound", "moment_bound", "opponent_turn_gains", "HorizonNote"]


class HorizonNote(UserWarning):
    """The referee answered a horizon question without the layers over the moves left: the
    horizon is shown not to change the result beyond a stated bound."""


def opponent_turn_gains(table: np.ndarray, rules: Rules) -> np.ndarray:
    """``out[j, i, x]``: the chance that the opponent's turn, at own score j against responder
    score i, gains x points and ends below the goal (x = 0: a bust or a pass); what is missing
    from 1 is the chance it reaches the goal.

    Parameters
    ----------
    table : numpy.ndarray, shape ``(goal, goal, goal)``
        The opponent's roll probability at (own score, responder's score, turn total).
    rules : Rules
        One die, two players.
    """
    t, rules = _check_table(table, rules)
    return _turn_moments(t, rules, 1.0)[0]


def _check_table(table: object, rules: object) -> tuple[np.ndarray, Rules]:
    """The fixed seat's roll probabilities as floats in [0, 1] of shape ``(goal,) * 3`` for
    two-player ``rules`` (a ``ValueError`` naming the parameter otherwise)."""
    rules = check_referee_rules(rules, players=2)
    g = rules.goal
    try:
        t = np.asarray(table, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(
            f"table: roll probabilities of shape {(g, g, g)} needed, got {type(table).__name__}"
        ) from None
    if t.shape != (g, g, g):
        raise ValueError(
            f"table: roll probabilities of shape {(g, g, g)} needed for {rules}, got shape {t.shape}"
        )
    if not np.all((t >= 0.0) & (t <= 1.0)):
        raise ValueError("table: roll probabilities must lie in [0, 1] (no NaN)")
    return t, rules


def _check_horizon(horizon: object) -> int:
    value = check_horizon(horizon)
    if value is None:
        raise ValueError("horizon: a move limit (an int >= 1) is needed, got None")
    return value


def _binomial_below(n: int, p: float, c: int) -> float:
    """``P(Bin(n, p) < c)``, from the log of each term (no underflow before the sum)."""
    if c <= 0:
        return 0.0
    if n < c:
        return 1.0
    if p <= 0.0:
        return 1.0
    if p >= 1.0:
        return 0.0
    lp, lq = math.log(p), math.log1p(-p)
    logs = [
        math.lgamma(n + 1) - math.lgamma(x + 1) - math.lgamma(n - x + 1) + x * lp + (n - x) * lq
        for x in range(c)
    ]
    top = max(logs)
    return min(1.0, math.exp(top) * math.fsum(math.exp(v - top) for v in logs))


def _turn_moments(table: np.ndarray, rules: Rules, z: float) -> tuple[np.ndarray, np.ndarray]:
    """``(gain, win)``: ``gain[j, i, x] = E[z^moves; the turn ends below the goal with gain x]``
    and ``win[j, i] = E[z^moves; the turn reaches the goal]`` for the opponent's turn at own score
    j against responder score i (every roll and every stop is a move)."""
    g = rules.goal
    pvec, p_bust = _model(rules)
    j = np.arange(g)[:, None]
    gain = np.zeros((g, g, g))
    reach = np.zeros((g, g, g + pvec.size + 1))
    reach[:, :, 0] = 1.0
    for k in range(g):
        live = j + k < g  # (g, 1)
        mass = np.where(live, reach[:, :, k], 0.0)
        rho = np.clip(table[:, :, k], 0.0, 1.0)
        go = mass * rho * z
        gain[:, :, k] += mass * (1.0 - rho) * z  # a stop (k = 0: a pass)
        gain[:, :, 0] += p_bust * go
        for r in range(pvec.size):
            reach[:, :, k + r + 1] += pvec[r] * go
    # turn totals at or past the goal from the last rows' rolls: j + k >= g with k >= g - j
    over = np.arange(reach.shape[2])[None, None, :] >= (g - np.arange(g))[:, None, None]
    win = (reach * over).sum(axis=2)
    return gain, win


def _log_moment_bound(table: np.ndarray, rules: Rules, horizon: int, z: float) -> float:
    """``log(R Phi_z(0) / z^(horizon + 1))`` (module Notes), 0.0 where no bound holds at z."""
    g = rules.goal
    p = _model(rules)[1]
    if not 1.0 < z < 1.0 / (1.0 - p):
        return 0.0
    R = p * z * z / (1.0 - (1.0 - p) * z)
    gain, win = _turn_moments(table, rules, z)
    phi = np.zeros(g + 1)
    for j in range(g - 1, -1, -1):
        up = np.arange(1, g - j)
        num = win[j] + R * (gain[j][:, up] @ phi[j + up])
        den = 1.0 - R * gain[j, :, 0]
        if np.any(den <= 0.0):
            return 0.0
        phi[j] = np.max(num / den)
    return min(0.0, math.log(R * phi[0]) - (horizon + 1) * math.log(z))


def moment_bound(table: np.ndarray, rules: Rules, horizon: int, *, steps: int = 24) -> float:
    """The second bound of the module Notes (by moments), minimised over z by a golden-section
    search on log z in ``steps`` steps; 1.0 where it shows nothing."""
    table, rules = _check_table(table, rules)
    horizon = _check_horizon(horizon)
    steps = check_int("steps", steps, low=1, high=200)
    p = _model(rules)[1]
    if p <= 0.0 or p >= 1.0:
        return 1.0
    lo, hi = 0.0, -math.log1p(-p) * (1.0 - 1e-9)
    phi = (math.sqrt(5.0) - 1.0) / 2.0

    def f(s: float) -> float:
        return _log_moment_bound(table, rules, horizon, math.exp(s))

    a, b = hi - phi * (hi - lo), lo + phi * (hi - lo)
    fa, fb = f(a), f(b)
    best = min(fa, fb)
    for _ in range(steps):
        if fa <= fb:
            hi, b, fb = b, a, fa
            a = hi - phi * (hi - lo)
            fa = f(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + phi * (hi - lo)
            fb = f(b)
        best = min(best, fa, fb)
    return float(min(1.0, math.exp(best) * (1.0 + 1e-9)))


def unfinished_bound(table: np.ndarray, rules: Rules, horizon: int, *, max_turns: int | None = None) -> float:
    """An upper bound, valid for every policy of the other seat, on the chance that a game
    against the fixed two-player policy ``table`` is not over after ``horizon`` moves (module
    Notes).

    Parameters
    ----------
    table : numpy.ndarray, shape ``(goal, goal, goal)``
        The fixed seat's roll probabilities (own score, other's score, turn total).
    rules : Rules
        One die, two players.
    horizon : int
        OpenSpiel's move limit.
    max_turns : int, optional
        Opponent turns m tried (default ``horizon // 2``).

    Returns
    -------
    float
        In [0, 1]; 1 when nothing better can be shown (e.g. an opponent that can pass forever).

    Examples
    --------
    >>> import numpy as np
    >>> g = 20
    >>> always = np.ones((g, g, g))  # rolls until it busts or reaches the goal
    >>> b = unfinished_bound(always, Rules(goal=g), 1000)
    >>> bool(0.0 <= b < 1e-8)
    True
    >>> unfinished_bound(np.zeros((g, g, g)), Rules(goal=g), 1000)  # passes forever
    1.0
    """
    table, rules = _check_table(table, rules)
    horizon = _check_horizon(horizon)
    if max_turns is not None:
        max_turns = check_int("max_turns", max_turns, low=1, high=10**7)
    g = rules.goal
    p_bust = _model(rules)[1]
    gains = _turn_moments(table, rules, 1.0)[0]
    target = np.minimum(np.arange(g)[:, None] + np.arange(g)[None, :], g)  # (j, x) -> score
    w = np.ones(g + 1)
    w[g] = 0.0  # reached the goal: the game is over
    best = 1.0
    turns = max(1, horizon // 2) if max_turns is None else max_turns
    for m in range(1, turns + 1):
        tail = _binomial_below(horizon - 2 * m, p_bust, 2 * m)
        if tail >= best:  # the tail only grows with m
            break
        w_next = np.einsum("jix,jx->ji", gains, w[target]).max(axis=1)
        w = np.append(np.minimum(w_next, 1.0), 0.0)
        best = min(best, (w[0] + tail) * (1.0 + 1e-9))
    if best > 0.0:
        best = min(best, moment_bound(table, rules, horizon))
    return float(min(best, 1.0))
