"""The exact core that every simultaneous solver shares.

In the shape of QuantEcon's ``DiscreteDP``: public building blocks, each with its math, and
every solver a short loop over them.

=========================  ==============================================================
:func:`score_levels`       the DAG's levels of equal score sum, highest first
:func:`terminal_values`    a value array with the terminal states filled in
:func:`own_view`           a player's own-centric coordinates of a batch of states
:func:`read_mixtures`      a profile of policies, validated, as mixtures
:func:`continuation`       ``u[s, x]``: expectation over independent opponents' turns
:func:`threshold_matrix`   ``P(X_k = x)``, the one X_k matrix
:class:`Thresholds`        the "hold at k" action set: action values with the self-loop
:func:`action_set`         the action set named by ``strategies=``
:data:`ACTION_SETS`        every action set by name (:func:`register_action_set` adds one)
:func:`self_loop`          ``a / (1 - c)``: the everybody-busts self-loop in closed form
:func:`greedy`             the best action, one tie rule (``TIE_TOL``, smallest first)
:func:`choose_engine`      ``"numba"`` or ``"numpy"`` for ``engine="auto"``
:func:`best_response_two`  the two-player engines (numpy batched, numba compiled)
:func:`one_blas_thread`    BLAS on one thread for many small products (threadpoolctl)
:func:`stage_game`         two players: the stage game ``C + v D`` of every threshold pair
:class:`DiagonalStages`    two players: the stage games of a whole score level, banded
=========================  ==============================================================

Notes
-----
Scores never decrease in one-die Pig, so a simultaneous game is a DAG over score vectors plus
one self-loop per state (everybody busts). At a state s, with the continuation ``u`` (the
state's own value counted as 0) and ``c`` the chance that s repeats under an action,

.. math:: V(s) = \\max_{\\text{actions}} \\frac{a(s)}{1 - c(s)}, \\qquad
          a(s) = \\sum_x P(X = x)\\, u(s, x),

exactly, level by level from the goal down: the one Bellman step of every solver.

References
----------
T. J. Sargent & J. Stachurski, QuantEcon.py, ``quantecon.markov.ddp.DiscreteDP``.
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): eqs. (6)-(12), (18)-(19).
"""

from ...engine import ENGINES, choose_engine, numba_installed
from .actions import (
    ACTION_SETS,
    STRATEGIES,
    TIE_TOL,
    Thresholds,
    action_set,
    greedy,
    register_action_set,
    self_loop,
    threshold_band,
    threshold_matrix,
    turn_width,
)
from .expectation import continuation
from .levels import own_view, score_levels, terminal_values
from .profile import read_mixtures, read_opponents
from .stage import DiagonalStages, extended, pure_bounds, stage_game
from .stopping_rules import StoppingRules
from .threads import one_blas_thread
from .two_player import best_response_two, best_stopping_two

__all__ = [
    "ACTION_SETS",
    "register_action_set",
    "StoppingRules",
    "STRATEGIES",
    "TIE_TOL",
    "Thresholds",
    "action_set",
    "greedy",
    "self_loop",
    "threshold_matrix",
    "threshold_band",
    "turn_width",
    "ENGINES",
    "choose_engine",
    "numba_installed",
    "continuation",
    "own_view",
    "score_levels",
    "terminal_values",
    "read_opponents",
    "read_mixtures",
    "one_blas_thread",
    "DiagonalStages",
    "extended",
    "pure_bounds",
    "stage_game",
    "best_response_two",
    "best_stopping_two",
]
