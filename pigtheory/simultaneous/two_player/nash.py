"""Nash equilibria of the game between the self-play cycle's policies, and exploitability.

Shapes
------
The cycle game is a ``P x P`` bimatrix game between the ``P`` policies of a self-play cycle
(rows: player A's choice, columns: player B's), payoffs to A; B gets 1 minus A's payoff.

Notes
-----
Two payoff matrices are built:

``preferred`` (the paper's Table 3)
    1/2 on the diagonal; 1 to the row player when the row policy is the one value iteration
    moves to from the column policy (the next policy on the cycle), 0 otherwise. For the
    2-cycle this is :math:`\\begin{pmatrix} 1/2 & 1 \\\\ 1 & 1/2 \\end{pmatrix}`.
``real``
    :math:`A[r, c]` = exact probability that policy r beats policy c from (0, 0)
    (:func:`~pigtheory.simultaneous.win_probability`).

Both are constant-sum, so their equilibria are those of the zero-sum games :math:`A - 1/2`.
They are found with nashpy's support enumeration (all equilibria of a nondegenerate game) and
with its linear program for zero-sum games, and every equilibrium is checked with a tolerance
(nashpy's ``is_best_response`` compares floats exactly).

The exploitability of a strategy :math:`\\sigma` of the symmetric game is

.. math:: \\varepsilon(\\sigma) = \\max_{\\pi} P(\\pi \\text{ beats } \\sigma \\text{ from } (0, 0))
          - \\tfrac12 \\ \\ge 0,

the best response's value (exact, :func:`~pigtheory.simultaneous.best_response`) minus the
value of the game; it is 0 exactly for an equilibrium strategy.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), "Mixed-strategy equilibrium", Table 3.
V. Knight & J. Campbell, "Nashpy: a Python library for the computation of Nash equilibria",
JOSS 3 (2018) 904 (support enumeration: Algorithm 3.4 of Nisan et al., Algorithmic Game
Theory, 2007).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...guard import best_response_estimate, check_memory
from ...policies import MixedPolicy
from ...results import Exploitability, Result
from ...rules import Rules
from ...validation import check_choice, check_simultaneous_rules, check_tol
from ..best_response import best_response
from ..evaluate import win_probability

__all__ = [
    "CycleNash",
    "cycle_nash",
    "exploitability",
    "is_equilibrium",
    "support_enumeration",
    "zero_sum_lp",
]


@dataclass(frozen=True, eq=False)
class CycleNash(Result):
    """Result of :func:`cycle_nash`: the game of Zhu, Ma, Chen & Liu (2023) Table 3 between
    the P policies of a self-play cycle, with the paper's "preferred" payoffs and with the
    real win probabilities.

    Attributes
    ----------
    value : float
        Value (to the row player) of the real cycle game: the LP equilibrium's payoff.
    policy : MixedPolicy
        The behavioural (state-by-state) version of the real game's LP equilibrium mix:
        ``thresholds``/``weights`` of shape ``(goal, goal, P)``, own score first.
    residual : float
        The largest best-response gain of any reported equilibrium (tolerance check).
    method : str
    rules : Rules
    preferred : numpy.ndarray, shape ``(P, P)``
        Payoffs to the row player, ``[row policy, column policy]``, as the paper's Table 3: 0.5
        on the diagonal, 1 where the row policy is the one value iteration moves to.
    real : numpy.ndarray, shape ``(P, P)``
        The win probability at (0, 0) of the row policy against the column policy.
    preferred_equilibria : tuple of (row mix, column mix)
        The equilibria of ``preferred`` from nashpy's support enumeration, each passing
        :func:`~pigtheory.simultaneous.two_player.nash.is_equilibrium`.
    real_equilibria : tuple of (row mix, column mix)
        The same for ``real``.
    preferred_lp : (row mix, column mix)
        From nashpy's linear program on the zero-sum form ``preferred - 1/2``; each mix a
        numpy.ndarray of shape ``(P,)``.
    real_lp : (row mix, column mix)
        The same for ``real``.
    """

    value: float
    policy: MixedPolicy
    residual: float
    method: str
    rules: Rules
    preferred: np.ndarray
    real: np.ndarray
    preferred_equilibria: tuple
    real_equilibria: tuple
    preferred_lp: tuple
    real_lp: tuple

    @property
    def n_equilibria(self) -> int:
        """Number of equilibria of the real cycle game found by support enumeration."""
        return len(self.real_equilibria)


def cycle_nash(self_play_result: Any, tol: float = 1e-9) -> CycleNash:
    """Mixed equilibria of the game between the policies of a self-play cycle (Zhu, Ma, Chen &
    Liu 2023, section "Mixed-strategy equilibrium", Table 3).

    Parameters
    ----------
    self_play_result : SelfPlay
        With ``period >= 1``.
    tol : float
        Tolerance of the best-response check of each equilibrium.

    Returns
    -------
    CycleNash
        Payoff matrices of shape ``(P, P)``, P = ``self_play_result.period``.

    Examples
    --------
    >>> sp = self_play(rules=Rules(goal=44))
    >>> cn = cycle_nash(sp)
    >>> cn.preferred.tolist(), [np.round(s, 6).tolist() for s in cn.preferred_lp]
    ([[0.5, 1.0], [1.0, 0.5]], [[0.5, 0.5], [0.5, 0.5]])
    """
    tol = check_tol(tol, allow_zero=True)
    sp = self_play_result
    from .self_play import SelfPlay

    if not isinstance(sp, SelfPlay):
        raise ValueError(
            f"self_play_result must be the SelfPlay that self_play() returns, got {type(sp).__name__}"
        )
    if not sp.cycle:
        raise ValueError("self_play_result: no cycle was found (period 0); run more sweeps")
    rules = sp.rules
    p = len(sp.cycle)
    preferred = np.full((p, p), 0.0)
    for c in range(p):
        preferred[c, c] = 0.5
        preferred[(c + 1) % p, c] = 1.0 if p > 1 else 0.5
    real = np.array([[win_probability(a, b, rules=rules)[0, 0] for b in sp.cycle] for a in sp.cycle])
    pref_eq = support_enumeration(preferred, tol)
    real_eq = support_enumeration(real, tol)
    pref_lp = zero_sum_lp(preferred)
    real_lp = zero_sum_lp(real)
    gains = [_best_response_gain(real, *e) for e in real_eq + (real_lp,)]
    gains += [_best_response_gain(preferred, *e) for e in pref_eq + (pref_lp,)]
    mix = MixedPolicy.of(list(zip(sp.cycle, real_lp[0], strict=True)), rules, "cycle mixture (behavioural)")
    return CycleNash(
        value=float(real_lp[0] @ real @ real_lp[1]),
        policy=mix,
        residual=float(max(gains)),
        method="nashpy support enumeration + linear program",
        rules=rules,
        preferred=preferred,
        real=real,
        preferred_equilibria=pref_eq,
        real_equilibria=real_eq,
        preferred_lp=pref_lp,
        real_lp=real_lp,
    )


def support_enumeration(a: np.ndarray, tol: float) -> tuple:
    """Every equilibrium of the constant-sum game ``(A, 1 - A)`` that nashpy's support
    enumeration finds (Algorithm 3.4 of Nisan et al. 2007), duplicates removed, each passing
    :func:`is_equilibrium` to ``tol``.

    Parameters
    ----------
    a : numpy.ndarray, shape ``(P, Q)``
        Payoffs to the row player.
    tol : float

    Returns
    -------
    tuple of (row, col)
        Mixes of shapes ``(P,)`` and ``(Q,)``.
    """
    import nashpy  # late: only the cycle game needs it, and it imports slowly

    game = nashpy.Game(a, 1.0 - a)
    found: list[tuple[np.ndarray, np.ndarray]] = []
    with warnings.catch_warnings():
        # nashpy warns on degenerate games; every equilibrium is checked below instead.
        warnings.simplefilter("ignore", RuntimeWarning)
        candidates = list(game.support_enumeration(tol=tol))
    for row, col in candidates:
        row, col = np.asarray(row, float), np.asarray(col, float)
        new = not any(np.allclose(row, r, atol=tol) and np.allclose(col, c, atol=tol) for r, c in found)
        if new and is_equilibrium(a, row, col, tol):
            found.append((row, col))
    return tuple(found)


def zero_sum_lp(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Optimal mixes of the game ``A - 1/2`` (row maximises) by nashpy's linear program.

    Parameters
    ----------
    a : numpy.ndarray, shape ``(P, Q)``
        Payoffs to the row player, in [0, 1].

    Returns
    -------
    row, col : numpy.ndarray, shapes ``(P,)`` and ``(Q,)``
        Clipped at 0 and normalised to sum to 1.
    """
    import nashpy

    row, col = nashpy.Game(a - 0.5).linear_program()
    row, col = np.clip(row, 0, None), np.clip(col, 0, None)
    return row / row.sum(), col / col.sum()


def _best_response_gain(a: np.ndarray, row: np.ndarray, col: np.ndarray) -> float:
    value = row @ a @ col
    return max(float((a @ col).max() - value), float(value - (row @ a).min()))


def is_equilibrium(a: np.ndarray, row: np.ndarray, col: np.ndarray, tol: float = 1e-9) -> bool:
    """Whether (row, col) is a Nash equilibrium of the constant-sum game (A, 1 - A) to ``tol``.

    Parameters
    ----------
    a : numpy.ndarray, shape ``(P, Q)``
        Payoffs to the row player.
    row, col : numpy.ndarray, shapes ``(P,)`` and ``(Q,)``
        The mixes.
    tol : float
        Largest gain either player may get by a pure best reply (a tolerance, not an exact
        comparison).

    Returns
    -------
    bool

    Examples
    --------
    >>> is_equilibrium(np.array([[0.5, 1], [1, 0.5]]), np.array([0.5, 0.5]), np.array([0.5, 0.5]))
    True
    """
    return _best_response_gain(np.asarray(a, float), np.asarray(row, float), np.asarray(col, float)) <= tol


def exploitability(
    profile: Any,
    *,
    rules: Rules = Rules(),
    strategies: str = "thresholds",
    engine: str = "auto",
    max_memory: Any = None,
) -> Exploitability:
    """Each seat's best-response gain against a profile of simultaneous Pig, their sum (NashConv)
    and mean (the exploitability).

    Parameters
    ----------
    profile : policy or list of two policies
        One policy for both seats (a pure table, ``hold_at(n)``, a MixedPolicy, a stopping
        rule, or a result with a ``policy`` such as an :class:`~pigtheory.simultaneous.Equilibrium`),
        or a list of one per seat.
    rules : Rules
        Two players, one die.
    strategies : {"thresholds", "stopping"}
        What the exploiting opponent may play: "hold at k" rules (the papers' game), or every
        stopping rule.
    engine : {"auto", "numba", "numpy"}
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    Exploitability
        ``value`` (each seat's win probability from (0, 0) under the profile),
        ``best_response``, ``gains``, ``nash_conv``, ``exploitability`` (``>= 0`` up to
        rounding; 0 for an equilibrium of the same strategy class); ``horizon`` None.

    Notes
    -----
    For one policy :math:`\\sigma` played by both seats the game is symmetric and constant-sum,
    so each seat's value is exactly 1/2 and the exploitability is the best response's value
    minus 1/2 (module Notes). For two policies the values are the exact win probabilities
    (:func:`~pigtheory.simultaneous.win_probabilities`) and each seat's gain is its best
    response to the other's policy minus its value.

    Examples
    --------
    >>> round(exploitability(hold_at(25)).exploitability, 4)
    0.0231
    """
    check_memory(best_response_estimate(rules, strategies=strategies), max_memory)
    check_simultaneous_rules(rules, players=2)
    check_choice("strategies", strategies, ("thresholds", "stopping"))
    if isinstance(profile, (list, tuple)):
        if len(profile) != 2:
            raise ValueError(f"profile: 2 policies (one per seat), got {len(profile)}")
        from ..evaluate import win_probabilities

        value = np.asarray(win_probabilities(list(profile), rules=rules))[:, 0, 0]
        brs = [
            float(
                best_response(
                    profile[1 - p], rules=rules, strategies=strategies, engine=engine, max_memory=max_memory
                ).value[0, 0]
            )
            for p in range(2)
        ]
        return Exploitability.of(value.copy(), brs, rules)
    reply = best_response(profile, rules=rules, strategies=strategies, engine=engine, max_memory=max_memory)
    br = float(reply.value[0, 0])
    return Exploitability.of([0.5, 0.5], [br, br], rules)
