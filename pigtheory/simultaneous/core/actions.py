"""Action sets: what a player may do at a state, and the value of each action there.

Shapes
------
At a batch of ``ns`` states with own scores ``own`` (shape ``(ns,)``), a continuation array
``u`` of shape ``(ns, goal + 1)`` holds ``u[s, x]`` = the expected value after the player's
turn adds x points (clipped at the goal) and the opponents move, with the state's own value
counted as 0 (see :func:`~pigtheory.simultaneous.core.continuation`), and ``opp_bust[s]`` the
probability that every opponent busts. Action values have shape ``(ns, n_actions)``.

Notes
-----
An action whose turn adds X points (X = 0 a bust) has, at state s,

.. math:: a(s) = \\sum_x P(X = x)\\, u[s, x], \\qquad c(s) = P(X = 0)\\, P(\\text{all opponents bust}),

where c is the probability that the state repeats (everybody busts). Repeating the same
action at s for ever is worth :math:`a / (1 - c)` (:func:`self_loop`); since every other
successor is solved first, the value of s is exactly

.. math:: V(s) = \\max_{\\text{actions}} \\frac{a(s)}{1 - c(s)}

(a one-state MDP: a stationary choice is optimal). :func:`greedy` takes the max, ties within
``TIE_TOL`` going to the first (smallest) action.

:class:`Thresholds` is the action set of the papers, "hold at k" for ``k = 1..goal - own``:
``P(X_k = x)`` is column ``k - 1`` of :func:`threshold_matrix`. A new strategy class (a roll
or hold decision per turn total) is a new action set with the same :meth:`~Thresholds.best`;
the solvers do not change.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): eqs. (6)-(12) (the value of holding at k
against an independent opponent), Table 1 and eq. (11) (X_k).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ...rules import Rules
from ...turn_totals import turn_total_table
from ...validation import check_choice

__all__ = [
    "TIE_TOL",
    "STRATEGIES",
    "threshold_matrix",
    "threshold_band",
    "turn_width",
    "self_loop",
    "greedy",
    "Thresholds",
    "action_set",
    "ACTION_SETS",
    "register_action_set",
]

TIE_TOL = 1e-13
"""Actions whose value is within this of the best count as tied; the first (smallest k) wins."""

STRATEGIES = ("thresholds", "stopping")
"""The built-in strategy classes (action sets); :data:`ACTION_SETS` has every registered one."""

ACTION_SETS: dict[str, type] = {}
"""Every action set the solvers accept as ``strategies=``, by name (:func:`register_action_set`)."""


def register_action_set(cls: type) -> type:
    """Register an action set class under its ``name``: the solvers (``best_response``,
    ``strategies=``) and the command line (``--strategies``) then accept it.

    The class is built as ``cls(rules, engine)`` and must have ``best(u, own, opp_bust,
    tie_tol) -> (value, choice)`` at a batch of states (:class:`Thresholds` documents the
    shapes), ``choice`` one integer per state; optionally ``policy(table)``, the policy kind
    that a solver returns for the table of choices (shape ``(goal,) * players``), which
    :func:`pigtheory.stopping.as_turn_policy` reads back through its ``outcomes``.

    Returns
    -------
    type
        ``cls`` (usable as a class decorator).

    Raises
    ------
    ValueError
        A class without a ``name`` or ``best``, or a name already registered by another class.
    """
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not callable(getattr(cls, "best", None)):
        raise ValueError(f"cls: an action set needs a str name and a best method, got {cls!r}")
    if ACTION_SETS.get(name, cls) is not cls:
        raise ValueError(f"cls: the action set name {name!r} is taken by {ACTION_SETS[name]!r}")
    ACTION_SETS[name] = cls
    return cls


@lru_cache(maxsize=32)
def _matrix(rules: Rules) -> np.ndarray:
    table = turn_total_table(rules)
    g, w = rules.goal, table.width
    m = np.zeros((g + w, g))
    ks = np.arange(1, g + 1)
    m[0] = table.bust[1:]
    for r in range(w):
        m[ks + r, ks - 1] = table.band[1:, r]
    m.setflags(write=False)
    return m


def threshold_matrix(rules: Rules) -> np.ndarray:
    """``M[x, k - 1] = P(X_k = x)`` for ``k = 1..goal`` and ``x = 0..goal + w - 1``: numpy.ndarray,
    shape ``(goal + w, goal)`` (X_k of Zhu, Ma, Chen & Liu 2023, eq. (11) and Table 1).

    ``x = 0`` is the bust; the gains of "hold at k" lie in ``k..k + w - 1`` (``w`` the largest
    roll), unclipped. Column k has ``w + 1`` non-zeros: the matrix is banded. Read-only and
    cached per rules (the number of players does not matter).

    Examples
    --------
    >>> m = threshold_matrix(Rules(goal=4))
    >>> m.shape, round(float(m[0, 0]), 4), round(float(m[:, 2].sum()), 12)
    ((10, 4), 0.1667, 1.0)
    """
    return _matrix(rules.replace(players=2))


@lru_cache(maxsize=32)
def _band(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    table = turn_total_table(rules)
    bust = np.array(table.bust)
    band_t = np.ascontiguousarray(table.band.T)
    for a in (bust, band_t):
        a.setflags(write=False)
    return bust, band_t


def threshold_band(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """The same X_k as :func:`threshold_matrix`, in the banded form compiled kernels loop over:
    ``bust[k] = P(X_k = 0)`` (shape ``(goal + 1,)``) and ``band_t[r, k] = P(X_k = k + r)``
    (shape ``(w, goal + 1)``), both read-only and cached.

    Examples
    --------
    >>> bust, band_t = threshold_band(Rules(goal=4))
    >>> m = threshold_matrix(Rules(goal=4))
    >>> bool(np.allclose(bust[1:], m[0]) and np.allclose(band_t[2, 1:], [m[k + 2, k - 1] for k in range(1, 5)]))
    True
    """
    return _band(rules.replace(players=2))


def turn_width(rules: Rules) -> int:
    """``w``, the number of gains a hold-at-k turn can end on (the largest roll): X_k is 0 or
    lies in ``k..k + w - 1``."""
    return turn_total_table(rules.replace(players=2)).width


def self_loop(a: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``a / (1 - c)``: the value of repeating an action whose state repeats with chance c.

    In Zhu, Ma, Chen & Liu (2023) eq. (9) the state's own value appears on the right, in the
    term :math:`p(i, j) P_{X_k}(0) P_{X_{k'}}(0)` (everybody busts); solving for p gives this
    closed form, with ``a`` the other terms and ``c = P_{X_k}(0) P_{X_{k'}}(0)``.

    Parameters
    ----------
    a, c : numpy.ndarray
        Broadcast together; ``c < 1``.

    Returns
    -------
    numpy.ndarray
        Of the broadcast shape.
    """
    return a / (1.0 - c)


def greedy(vals: np.ndarray, tie_tol: float = TIE_TOL) -> tuple[np.ndarray, np.ndarray]:
    """Best value of each row and the first action (1-based) within ``tie_tol`` of it.

    The max of Zhu, Ma, Chen & Liu (2023) eq. (6) and the argmax that Algorithm 0.1 outputs,
    with one tie rule for every solver.

    Parameters
    ----------
    vals : numpy.ndarray, shape ``(ns, K)``
        ``vals[s, k - 1]``: the value of action k at state s (``-inf`` where not allowed).
    tie_tol : float

    Returns
    -------
    best : numpy.ndarray, shape ``(ns,)``
    k : numpy.ndarray of int, shape ``(ns,)``
        1-based: the smallest k whose value is within ``tie_tol`` of ``best``.

    Examples
    --------
    >>> best, k = greedy(np.array([[0.1, 0.3, 0.3 - 1e-15], [0.5, -np.inf, 0.2]]))
    >>> best.tolist(), k.tolist()
    ([0.3, 0.5], [2, 1])
    """
    best = vals.max(axis=1)
    k = np.argmax(vals >= (best - tie_tol)[:, None], axis=1) + 1
    return best, k


class Thresholds:
    """The "hold at k" action set: ``k = 1..goal - own`` at own score ``own``.

    The action values are Zhu, Ma, Chen & Liu (2023) eq. (7) (eq. (18) for more players)
    with the opponents' turns already taken into ``u`` (:func:`continuation`), and the
    self-loop of eq. (9) in closed form (:func:`self_loop`).

    Parameters
    ----------
    rules : Rules
    engine : str
        Unused (the batched products need no compiled engine).

    Examples
    --------
    >>> acts = Thresholds(Rules(goal=3))
    >>> u = np.array([[0.0, 0.2, 0.6, 1.0]])  # one state, own score 0
    >>> vals = acts.action_values(u, np.array([0]), np.array([0.5]))
    >>> # hold at 1: bust 1/6 (worth u[0] = 0), 2 points 1/6, 3+ points (the goal) 4/6
    >>> bool(abs(vals[0, 0] - (0.6 / 6 + 4 / 6) / (1 - 0.5 / 6)) < 1e-15)
    True
    """

    name = "thresholds"

    def __init__(self, rules: Rules, engine: str = "auto") -> None:
        self.rules = rules
        self.matrix = threshold_matrix(rules)

    def action_values(self, u: np.ndarray, own: np.ndarray, opp_bust: np.ndarray) -> np.ndarray:
        """Stationary values ``a_k / (1 - c_k)`` of every threshold at each state.

        ``u`` must reach the goal from ``x = goal - own`` on (``u[s, x] = u[s, goal - own]``
        for larger x), as :func:`~pigtheory.simultaneous.core.continuation` returns it: then
        gains past the room read the goal without any clipping here.

        Parameters
        ----------
        u : numpy.ndarray, shape ``(ns, goal + 1)``
            ``u[s, x]``: the continuation after the player gains x (x = 0: a bust, the state's
            own value counted as 0).
        own : numpy.ndarray of int, shape ``(ns,)``
            The player's score at each state.
        opp_bust : numpy.ndarray, shape ``(ns,)``
            The chance that every opponent busts.

        Returns
        -------
        numpy.ndarray, shape ``(ns, K)``, ``K = goal - min(own)``
            Column ``k - 1`` is threshold k, ``-inf`` where ``k > goal - own``.
        """
        vals = self._unmasked(u, own, opp_bust)
        too_big = np.arange(1, vals.shape[1] + 1)[None, :] > (self.rules.goal - own)[:, None]
        np.copyto(vals, -np.inf, where=too_big)
        return vals

    def best(
        self, u: np.ndarray, own: np.ndarray, opp_bust: np.ndarray, tie_tol: float = TIE_TOL
    ) -> tuple[np.ndarray, np.ndarray]:
        r"""``(value, k)`` of the best threshold at each state (:func:`greedy`): two arrays of
        shape ``(ns,)``, the same parameters as :meth:`action_values`.

        Thresholds past the room need no mask here: such a k is "hold at the room" with more
        bust chance, worth :math:`(b\, u_0 + (1 - b)\, u_g) / (1 - b\, P(Y = 0))` with
        :math:`u_0 \le u_g (1 - P(Y = 0))` (what the state is worth if the player busts is at
        most what reaching the goal is worth), which never rises with b. Only rounding could
        prefer one; k is clipped to the room.
        """
        vals = self._unmasked(u, own, opp_bust)
        best, k = greedy(vals, tie_tol)
        np.minimum(k, self.rules.goal - own, out=k)
        return best, k

    def _unmasked(self, u: np.ndarray, own: np.ndarray, opp_bust: np.ndarray) -> np.ndarray:
        g, m = self.rules.goal, self.matrix
        w = m.shape[0] - g
        big = g - int(own.min())  # the largest room in the batch
        padded = np.empty((u.shape[0], big + w))
        padded[:, : big + 1] = u[:, : big + 1]
        padded[:, big + 1 :] = u[:, big : big + 1]
        vals = padded @ m[: big + w, :big]
        if np.any(opp_bust):
            vals /= 1.0 - m[0, :big][None, :] * opp_bust[:, None]
        return vals


def action_set(strategies: str, rules: Rules, engine: str = "auto") -> Any:
    """The action set named by ``strategies=`` (a key of :data:`ACTION_SETS`): :class:`Thresholds`,
    :class:`~pigtheory.simultaneous.core.stopping_rules.StoppingRules` or a registered one.

    Parameters
    ----------
    strategies : str
        ``"thresholds"``, ``"stopping"`` or the name of a registered action set.
    rules : Rules
    engine : {"auto", "numba", "numpy"}
        Passed to the action set (stopping rules: the engine of the optimal stopping).

    Returns
    -------
    action set
        With ``best(u, own, opp_bust)``.
    """
    check_choice("strategies", strategies, tuple(ACTION_SETS))
    return ACTION_SETS[strategies](rules, engine)


register_action_set(Thresholds)
