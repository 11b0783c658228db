"""Simultaneous Pig: every player takes the same turn at once, then all scores are added.

Two players and n players; exact solvers over the score DAG (scores never decrease), with the
paper's value iteration kept as an independent check.

Where Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023) is implemented:

=================================================  ==============================================
eqs. (6)-(10), (12); Algorithm 0.1                 :func:`best_response`, :func:`win_probability`
eq. (11), Tables 1-2 (X_k)                         :func:`pigtheory.turn_total`
Fig. 2, Table S1 (best n of "hold at n")           :func:`hold_at_sweep`
eq. (14), "Mixed-strategy equilibrium", Table 3    :func:`self_play`, :func:`cycle_nash`,
                                                   :func:`equilibrium` (exact, no equation there)
eqs. (15)-(17), Algorithm 0.2, Fig. 5, Table S3    :func:`stackelberg`
eqs. (18)-(19), Algorithm 0.3, Fig. 6, Table S4    :func:`best_response` (3+ players),
                                                   :func:`reduced_best_response`,
                                                   :func:`chunked_best_response`
"Infinite number of players"                       :func:`limit`
=================================================  ==============================================

:func:`stopping_equilibrium` (with :func:`certify_classes`), :func:`symmetric_equilibrium` and
the ``strategies="stopping"`` solvers go beyond the paper (every stopping rule; equilibria of three or more players).
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes
from .best_response import best_response
from .evaluate import win_probabilities, win_probability
from .limit import LimitAnalysis, limit
from .stopping import StoppingEquilibrium, stopping_equilibrium
from .two_player import Equilibrium, SelfPlay, Stackelberg, equilibrium, self_play, stackelberg

if TYPE_CHECKING:  # imported on first use (below): a command that needs none of them starts faster
    from .nplayer import ChunkedSolution, ReducedSolution, chunked_best_response, reduced_best_response
    from .stopping import StoppingClasses, certify_classes
    from .sweeps import HoldAtTable, best_responses, hold_at_sweep, hold_at_table, sweep_tasks
    from .symmetric import (
        SymmetricBestResponse,
        SymmetricDynamics,
        SymmetricEquilibrium,
        SymmetricPolicy,
        symmetric_best_response,
        symmetric_dynamics,
        symmetric_equilibrium,
    )
    from .two_player.nash import CycleNash, cycle_nash, exploitability

_LAZY = {
    **dict.fromkeys(
        ("ChunkedSolution", "chunked_best_response", "ReducedSolution", "reduced_best_response"), ".nplayer"
    ),
    **dict.fromkeys(("CycleNash", "cycle_nash", "exploitability"), ".two_player.nash"),
    **dict.fromkeys(
        ("HoldAtTable", "best_responses", "hold_at_sweep", "hold_at_table", "sweep_tasks"), ".sweeps"
    ),
    **dict.fromkeys(("StoppingClasses", "certify_classes"), ".stopping"),
    **dict.fromkeys(
        (
            "SymmetricEquilibrium",
            "SymmetricPolicy",
            "symmetric_equilibrium",
            "SymmetricBestResponse",
            "SymmetricDynamics",
            "symmetric_best_response",
            "symmetric_dynamics",
        ),
        ".symmetric",
    ),
}
"""The names imported on first use, and their modules (a one-off command imports only what
it calls). A solver whose module has its own name (``equilibrium``, ``limit``, ...) is
imported above: importing such a module binds its name here to the module."""

__all__ = [
    "best_response",
    "best_responses",
    "win_probability",
    "win_probabilities",
    "hold_at_sweep",
    "HoldAtTable",
    "hold_at_table",
    "sweep_tasks",
    "limit",
    "LimitAnalysis",
    "reduced_best_response",
    "ReducedSolution",
    "chunked_best_response",
    "ChunkedSolution",
    "equilibrium",
    "Equilibrium",
    "self_play",
    "SelfPlay",
    "cycle_nash",
    "CycleNash",
    "exploitability",
    "stackelberg",
    "Stackelberg",
    "stopping_equilibrium",
    "StoppingEquilibrium",
    "certify_classes",
    "StoppingClasses",
    "symmetric_equilibrium",
    "SymmetricEquilibrium",
    "SymmetricPolicy",
    "symmetric_best_response",
    "SymmetricBestResponse",
    "symmetric_dynamics",
    "SymmetricDynamics",
]


__getattr__, __dir__ = lazy_attributes(__name__, _LAZY, globals())
